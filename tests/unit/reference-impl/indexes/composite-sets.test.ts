import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctSet, FilteredSet, MergedSet, sameOrder } from '../../../../reference-impl/indexes/composite-sets.js';
import { valueKey } from '../../../../reference-impl/indexes/index-store.js';
import { ArraySet, paginateSet } from '../../../../reference-impl/indexes/ordered-set.js';
import { compareTuples } from '../../../../reference-impl/indexes/value-order.js';
import type { Value } from '../../../../reference-impl/values/value.js';
import { ref, walkBackward, walkForward } from './set-walks.js';


/** A set covering one value: tuples [v, ref], elements v (as an index with one value renders them). */
function valueSet(entries: ReadonlyArray<readonly [bigint, number]>, reverse: boolean): ArraySet {
  return new ArraySet(entries.map(([v, id]) => ({ tuple: [v, ref(id)], element: v })), [reverse]);
}

/** Model: all tuples sorted, each element kept once at its first tuple. */
function model(sets: readonly ArraySet[], keep: (e: Value) => boolean = () => true): Value[] {
  const all = sets.flatMap((s) => s.tuples.map((t) => ({ t, e: s.element(t) })));
  all.sort((a, b) => compareTuples(a.t, b.t, sets[0]!.reverse));
  const seen = new Set<string>();
  return all.filter(({ e }) => keep(e) && !seen.has(valueKey(e)) && seen.add(valueKey(e)) !== undefined).map(({ e }) => e);
}

const entries = fc.uniqueArray(fc.tuple(fc.bigInt({ min: 0n, max: 6n }), fc.integer({ min: 1, max: 60 })), { maxLength: 25, selector: ([, id]) => id });

describe('composite sets', () => {
  it('a union streams each element once, in order, forward and backward, at any page size', () => {
    fc.assert(
      fc.property(fc.array(entries, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 1, max: 6 }), (operands, reverse, size) => {
        const sets = operands.map((e) => valueSet(e, reverse));
        const union = new DistinctSet(new MergedSet(sets));
        const expected = model(sets);
        expect(walkForward(union, size)).toEqual(expected);
        expect(walkBackward(union, size)).toEqual(expected);
      }),
    );
  });

  it('a cursor inside a run of equal elements starts after the run, and a value cursor at the run', () => {
    const union = new DistinctSet(new MergedSet([valueSet([[1n, 1], [2n, 2], [2n, 5]], false), valueSet([[2n, 3], [3n, 4]], false)]));
    expect(paginateSet(union, { size: 5, after: [2n, ref(3)] }).data.map((t) => union.element(t))).toEqual([3n]);
    expect(paginateSet(union, { size: 5, after: [2n] }).data.map((t) => union.element(t))).toEqual([2n, 3n]);
    expect(paginateSet(union, { size: 5, before: [2n, ref(3)] }).data.map((t) => union.element(t))).toEqual([1n, 2n]);
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

  it('renders each merged tuple through the operand it came from', () => {
    const a = new ArraySet([{ tuple: [ref(1)], element: ref(1) }], []);
    const b = new ArraySet([{ tuple: [ref(2)], element: ref(2) }], []);
    const merged = new MergedSet([a, b]);
    expect(walkForward(merged, 10)).toEqual([ref(1), ref(2)]);
  });

  it('merges only operands of one order', () => {
    const refs = new ArraySet([], []);
    const values = valueSet([], false);
    expect(sameOrder([values, valueSet([], false)])).toBe(true);
    expect(sameOrder([values, valueSet([], true)])).toBe(false);
    expect(sameOrder([refs, values])).toBe(false);
    expect(() => new MergedSet([refs, values])).toThrow(RangeError);
  });
});
