import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexError } from '../../../../reference-impl/indexes/index-error.js';
import { IndexStore, valueKey, type IndexTuple } from '../../../../reference-impl/indexes/index-store.js';
import { ArraySet, IndexTermSet, paginateSet } from '../../../../reference-impl/indexes/ordered-set.js';
import type { Value } from '../../../../reference-impl/values/value.js';
import { ref, walkBackward, walkForward } from './set-walks.js';

const tuple = (v: Value, id: number): IndexTuple => [v, ref(id)];

function arraySet(tuples: IndexTuple[], reverse = [false]): ArraySet {
  return new ArraySet(
    tuples.map((t) => ({ tuple: t, element: t[0]! })),
    reverse,
  );
}

describe('paginateSet over an ArraySet', () => {
  const set = arraySet([tuple(3n, 1), tuple(1n, 2), tuple(2n, 3), tuple(2n, 1), tuple(5n, 9)]);

  it('sorts by value, then by ref', () => {
    expect(set.tuples).toEqual([tuple(1n, 2), tuple(2n, 1), tuple(2n, 3), tuple(3n, 1), tuple(5n, 9)]);
  });

  it('first page: no before, after names the first entry of the next page', () => {
    const page = paginateSet(set, { size: 2 });
    expect(page.data).toEqual([tuple(1n, 2), tuple(2n, 1)]);
    expect(page.before).toBeUndefined();
    expect(page.after).toEqual(tuple(2n, 3));
  });

  it("after is inclusive and becomes the page's before; the last page has no after", () => {
    const page = paginateSet(set, { size: 10, after: tuple(2n, 3) });
    expect(page.data).toEqual([tuple(2n, 3), tuple(3n, 1), tuple(5n, 9)]);
    expect(page.before).toEqual(tuple(2n, 3));
    expect(page.after).toBeUndefined();
  });

  it('a value-only cursor positions at the first entry at or after it', () => {
    expect(paginateSet(set, { size: 1, after: [2n] }).data).toEqual([tuple(2n, 1)]);
    expect(paginateSet(set, { size: 1, after: [4n] }).data).toEqual([tuple(5n, 9)]);
  });

  it("before is exclusive, becomes the page's after, and before is set only when more precede", () => {
    const page = paginateSet(set, { size: 2, before: tuple(3n, 1) });
    expect(page.data).toEqual([tuple(2n, 1), tuple(2n, 3)]);
    expect(page.after).toEqual(tuple(3n, 1));
    expect(page.before).toEqual(tuple(2n, 1));
    const first = paginateSet(set, { size: 5, before: tuple(3n, 1) });
    expect(first.data).toHaveLength(3);
    expect(first.before).toBeUndefined();
  });

  it('refuses a size that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => paginateSet(set, { size })).toThrow(IndexError);
  });

  it('reverse flips the order of that value only', () => {
    const reversed = arraySet([tuple(1n, 1), tuple(2n, 2), tuple(2n, 1)], [true]);
    expect(reversed.tuples).toEqual([tuple(2n, 1), tuple(2n, 2), tuple(1n, 1)]);
  });

  it('forward and backward walks of any page size visit every entry once, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (ids, values, size, reverse) => {
          const s = arraySet(
            ids.map((id, i) => tuple(BigInt(values[i]!), id)),
            [reverse],
          );
          const expected = s.tuples.map((t) => t[0]!);
          expect(walkForward(s, size)).toEqual(expected);
          expect(walkBackward(s, size)).toEqual(expected);
        },
      ),
    );
  });
});

describe('IndexTermSet', () => {
  const store = new IndexStore([false]);
  store.apply(
    [],
    [1, 2, 3, 4].map((id) => ({ terms: ['t'], values: [BigInt(id * 10)], ref: ref(id) })),
  );
  store.apply([], [{ terms: ['other'], values: [15n], ref: ref(9) }]);

  it("reads one term's entries in order and renders single values as themselves", () => {
    const set = new IndexTermSet(store, ['t'], 1);
    expect(walkForward(set, 3)).toEqual([10n, 20n, 30n, 40n]);
  });

  it("lays a transaction's removed and added tuples over the stored ones, in both directions", () => {
    const set = new IndexTermSet(store, ['t'], 1, new Set([valueKey([20n, ref(2)])]), [
      [25n, ref(7)],
      [5n, ref(8)],
    ]);
    expect(walkForward(set, 2)).toEqual([5n, 10n, 25n, 30n, 40n]);
    expect(walkBackward(set, 2)).toEqual([5n, 10n, 25n, 30n, 40n]);
    expect(paginateSet(set, { size: 2, after: [20n] }).data).toEqual([
      [25n, ref(7)],
      [30n, ref(3)],
    ]);
  });

  it('renders entries without values as their ref', () => {
    const refsOnly = new IndexStore([]);
    refsOnly.apply([], [{ terms: [], values: [], ref: ref(3) }]);
    const set = new IndexTermSet(refsOnly, [], 0);
    expect(walkForward(set, 5)).toEqual([ref(3)]);
  });
});
