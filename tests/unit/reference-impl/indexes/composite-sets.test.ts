import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CombinedSet,
  DistinctSet,
  FilteredSet,
  SourcedSet,
  chosenOperand,
  sameOrder,
  type Combination,
} from '../../../../reference-impl/indexes/composite-sets.js';
import { valueKey } from '../../../../reference-impl/indexes/index-store.js';
import { ArraySet, paginateSet } from '../../../../reference-impl/indexes/ordered-set.js';
import { compareTuples } from '../../../../reference-impl/indexes/value-order.js';
import type { Value } from '../../../../reference-impl/values/value.js';
import { ref, walkBackward, walkForward } from './set-walks.js';

/** A set covering one value: tuples [v, ref], elements v (as an index with one value renders them). */
function valueSet(entries: ReadonlyArray<readonly [bigint, number]>, reverse: boolean): ArraySet {
  return new ArraySet(
    entries.map(([v, id]) => ({ tuple: [v, ref(id)], element: v })),
    [reverse],
  );
}

/** Model: all tuples sorted, each element kept once at its first tuple. */
function model(sets: readonly ArraySet[], keep: (e: Value) => boolean = () => true): Value[] {
  const all = sets.flatMap((s) => s.tuples.map((t) => ({ t, e: s.element(t) })));
  all.sort((a, b) => compareTuples(a.t, b.t, sets[0]!.reverse));
  const seen = new Set<string>();
  return all.filter(({ e }) => keep(e) && !seen.has(valueKey(e)) && seen.add(valueKey(e)) !== undefined).map(({ e }) => e);
}

/** Model of a multiset combination, written from the counts: each element as often as the rule says, in order. */
function combinationModel(kind: Combination, sets: readonly ArraySet[]): Value[] {
  const counts = new Map<string, { element: Value; counts: number[] }>();
  sets.forEach((s, i) => {
    for (const t of s.tuples) {
      const e = s.element(t);
      const entry = counts.get(valueKey(e)) ?? { element: e, counts: sets.map(() => 0) };
      entry.counts[i]! += 1;
      counts.set(valueKey(e), entry);
    }
  });
  const times = (c: number[]): number => {
    if (kind === 'union') return Math.max(...c);
    if (kind === 'intersection') return Math.min(...c);
    return c.slice(1).some((n) => n > 0) ? 0 : c[0]!;
  };
  const out = [...counts.values()].flatMap(({ element, counts: c }) => Array.from({ length: times(c) }, () => element));
  return out.sort((a, b) => compareTuples([a], [b], sets[0]!.reverse));
}

const entries = fc.uniqueArray(fc.tuple(fc.bigInt({ min: 0n, max: 6n }), fc.integer({ min: 1, max: 60 })), {
  maxLength: 25,
  selector: ([, id]) => id,
});

describe('composite sets', () => {
  it.each(['union', 'intersection', 'difference'] as const)(
    'a %s keeps each element as often as the multiset rule says, forward and backward, at any page size',
    (kind) => {
      fc.assert(
        fc.property(
          fc.array(entries, { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          fc.integer({ min: 1, max: 6 }),
          (operands, reverse, size) => {
            const sets = operands.map((e) => valueSet(e, reverse));
            const combined = new CombinedSet(kind, sets);
            const expected = combinationModel(kind, sets);
            expect(walkForward(combined, size)).toEqual(expected);
            expect(walkBackward(combined, size)).toEqual(expected);
          },
        ),
      );
    },
  );

  it("gives the real service's answers for its test data", () => {
    const a = valueSet(
      [
        [1n, 1],
        [2n, 2],
        [2n, 3],
        [3n, 4],
        [3n, 5],
        [3n, 6],
      ],
      false,
    );
    const b = valueSet(
      [
        [1n, 11],
        [2n, 12],
        [2n, 13],
        [2n, 14],
        [3n, 15],
        [3n, 16],
      ],
      false,
    );
    const three = valueSet([[3n, 15]], false);
    expect(walkForward(new CombinedSet('union', [a, b]), 10)).toEqual([1n, 2n, 2n, 2n, 3n, 3n, 3n]);
    expect(walkForward(new CombinedSet('intersection', [a, b]), 10)).toEqual([1n, 2n, 2n, 3n, 3n]);
    expect(walkForward(new CombinedSet('difference', [a, three]), 10)).toEqual([1n, 2n, 2n]);
    expect(walkForward(new CombinedSet('union', [a]), 10)).toEqual([1n, 2n, 2n, 3n, 3n, 3n]);
    expect(walkForward(new CombinedSet('union', [new DistinctSet(a), a]), 10)).toEqual(walkForward(a, 10));
  });

  it('keeps the copies of the operand it chose, so a cursor inside a run walks on through the same copies', () => {
    const a = valueSet(
      [
        [2n, 1],
        [2n, 5],
        [2n, 9],
      ],
      false,
    );
    const b = valueSet(
      [
        [2n, 3],
        [2n, 7],
      ],
      false,
    );
    const union = new CombinedSet('union', [a, b]);
    expect(paginateSet(union, { size: 5 }).data).toEqual([
      [2n, ref(1)],
      [2n, ref(5)],
      [2n, ref(9)],
    ]);
    expect(paginateSet(union, { size: 5, after: [2n, ref(5)] }).data).toEqual([
      [2n, ref(5)],
      [2n, ref(9)],
    ]);
    expect(paginateSet(union, { size: 5, before: [2n, ref(5)] }).data).toEqual([[2n, ref(1)]]);
    expect(paginateSet(union, { size: 5, after: [2n] }).data).toHaveLength(3);
  });

  it('chooses the operand holding the most (union), the fewest (intersection), or the first alone (difference); ties to the earlier', () => {
    expect(chosenOperand('union', [1, 3, 3])).toBe(1);
    expect(chosenOperand('union', [0, 0])).toBeUndefined();
    expect(chosenOperand('intersection', [2, 1, 1])).toBe(1);
    expect(chosenOperand('intersection', [2, 0])).toBeUndefined();
    expect(chosenOperand('difference', [2, 0, 0])).toBe(0);
    expect(chosenOperand('difference', [2, 1])).toBeUndefined();
    expect(chosenOperand('difference', [0, 1])).toBeUndefined();
  });

  it('names the sources of every copy of an element when asked to', () => {
    const a = new SourcedSet(
      valueSet(
        [
          [1n, 1],
          [2n, 2],
        ],
        false,
      ),
      'a',
    );
    const b = new SourcedSet(valueSet([[2n, 3]], false), 'b');
    const union = new CombinedSet('union', [a, b], true);
    const page = paginateSet(union, { size: 5 });
    expect(page.data.map((t) => union.sources(t))).toEqual([['a'], ['a', 'b']]);
    expect(new CombinedSet('union', [a, b]).sources(page.data[0]!)).toEqual([]);
  });

  it('a filtered distinct set keeps the elements the filter passes, in both directions', () => {
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 6 }), (e, size) => {
        const set = valueSet(e, false);
        const keep = (v: Value) => typeof v === 'bigint' && v % 2n === 0n;
        const filtered = new DistinctSet(new FilteredSet(set, keep));
        expect(walkForward(filtered, size)).toEqual(model([set], keep));
        expect(walkBackward(filtered, size)).toEqual(model([set], keep));
      }),
    );
  });

  it('renders each combined tuple through the operand it came from', () => {
    const a = new ArraySet([{ tuple: [ref(1)], element: ref(1) }], []);
    const b = new ArraySet([{ tuple: [ref(2)], element: ref(2) }], []);
    const union = new CombinedSet('union', [a, b]);
    expect(walkForward(union, 10)).toEqual([ref(1), ref(2)]);
  });

  it('combines only operands of one order', () => {
    const refs = new ArraySet([], []);
    const values = valueSet([], false);
    expect(sameOrder([values, valueSet([], false)])).toBe(true);
    expect(sameOrder([values, valueSet([], true)])).toBe(false);
    expect(sameOrder([refs, values])).toBe(false);
    expect(() => new CombinedSet('union', [refs, values])).toThrow(RangeError);
  });
});
