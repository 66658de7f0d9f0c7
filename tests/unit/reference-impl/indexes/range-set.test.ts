import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeSet, compareToBound } from '../../../../reference-impl/indexes/composite-sets.js';
import { ArraySet } from '../../../../reference-impl/indexes/ordered-set.js';
import type { Value } from '../../../../reference-impl/values/value.js';
import { ref, walkBackward, walkForward } from './set-walks.js';

/** Tuples [v, ref] of an index with one value, elements v. */
function valueSet(entries: ReadonlyArray<readonly [bigint, number]>, reverse: boolean): ArraySet {
  return new ArraySet(
    entries.map(([v, id]) => ({ tuple: [v, ref(id)], element: v })),
    [reverse],
  );
}

/** Model: the set's tuples in order, kept when within both bounds. */
function model(set: ArraySet, lower: readonly Value[], upper: readonly Value[]): Value[] {
  return set.tuples
    .filter((t) => compareToBound(t, lower, set.reverse) >= 0 && compareToBound(t, upper, set.reverse) <= 0)
    .map((t) => set.element(t));
}

const entries = fc.uniqueArray(fc.tuple(fc.bigInt({ min: 0n, max: 8n }), fc.integer({ min: 1, max: 40 })), {
  maxLength: 25,
  selector: ([, id]) => id,
});
const bound = fc.oneof(
  fc.constant<Value[]>([]),
  fc.bigInt({ min: -1n, max: 9n }).map((v): Value[] => [v]),
  fc.tuple(fc.bigInt({ min: 0n, max: 8n }), fc.integer({ min: 0, max: 41 })).map(([v, id]): Value[] => [v, ref(id)]),
);

describe('RangeSet', () => {
  it('walks exactly the tuples within its bounds, forward and backward, at any page size', () => {
    fc.assert(
      fc.property(entries, fc.boolean(), bound, bound, fc.integer({ min: 1, max: 6 }), (e, reverse, lower, upper, size) => {
        const set = valueSet(e, reverse);
        const range = new RangeSet(set, lower, upper);
        const expected = model(set, lower, upper);
        expect(walkForward(range, size)).toEqual(expected);
        expect(walkBackward(range, size)).toEqual(expected);
      }),
    );
  });

  it('takes a bound shorter than the tuples as a prefix on both sides', () => {
    const set = new ArraySet(
      [1n, 2n, 3n].flatMap((v) => [{ tuple: [v, -v, ref(Number(v))], element: [v, -v] }]),
      [false, false],
    );
    expect(walkForward(new RangeSet(set, [2n], [2n]), 5)).toEqual([[2n, -2n]]);
    expect(walkForward(new RangeSet(set, [2n, -1n], [3n]), 5)).toEqual([[3n, -3n]]);
  });

  it('ignores what a bound holds past the width of the tuples', () => {
    const set = valueSet(
      [
        [1n, 1],
        [1n, 2],
        [2n, 3],
      ],
      false,
    );
    expect(walkForward(new RangeSet(set, [1n, ref(2), 'extra'], [2n, ref(3), 'extra']), 5)).toEqual([1n, 2n]);
  });
});
