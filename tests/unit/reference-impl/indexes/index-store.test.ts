import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IndexStore, pageElement, type IndexTuple } from '../../../../reference-impl/indexes/index-store.js';
import { compareTuples, compareValues } from '../../../../reference-impl/indexes/value-order.js';
import { entriesFor } from '../../../../reference-impl/indexes/entries.js';
import { parseIndexDefinition } from '../../../../reference-impl/indexes/index-definition.js';
import { Bytes, DateValue, QueryValue, Ref, Time, type Value } from '../../../../reference-impl/values/value.js';

const users = new Ref('users', new Ref('collections'));
const docRef = (id: number) => new Ref(String(id), users);

const scalar: fc.Arbitrary<Value> = fc.oneof(
  fc.bigInt({ min: -5n, max: 5n }),
  fc.constantFrom('a', 'B', 'b', ''),
  fc.boolean(),
  fc.constantFrom(0.5, -1.5, 2),
  fc.constant(null),
);

interface Scenario {
  reverse: boolean[];
  tuples: IndexTuple[];
}

const scenario: fc.Arbitrary<Scenario> = fc.integer({ min: 0, max: 2 }).chain((width) =>
  fc.record({
    reverse: fc.array(fc.boolean(), { minLength: width, maxLength: width }),
    tuples: fc
      .uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 40 })
      .chain((ids) =>
        fc.tuple(...ids.map((id) => fc.array(scalar, { minLength: width, maxLength: width }).map((vs): IndexTuple => [...vs, docRef(id)]))),
      ),
  }),
);

function load(s: Scenario): IndexStore {
  const store = new IndexStore(s.reverse);
  store.apply(
    [],
    s.tuples.map((t) => ({ terms: [], values: t.slice(0, -1), ref: t[t.length - 1] as Ref })),
  );
  return store;
}

describe('IndexStore.paginate against sort + slice', () => {
  it('a forward walk with inclusive after visits every tuple once, in sorted order', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 7 }), (s, size) => {
        const expected = [...s.tuples].sort((a, b) => compareTuples(a, b, s.reverse));
        const store = load(s);
        const seen: IndexTuple[] = [];
        let after: IndexTuple | undefined;
        for (;;) {
          const page = store.paginate([], { size, after });
          expect(page.data.length).toBeLessThanOrEqual(size);
          seen.push(...page.data);
          if (!page.after) break;
          expect(page.data.length).toBe(size);
          after = page.after;
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a backward walk with exclusive before visits every tuple once, each page ascending', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 7 }), (s, size) => {
        const expected = [...s.tuples].sort((a, b) => compareTuples(a, b, s.reverse));
        const store = load(s);
        const pages: IndexTuple[][] = [];
        // Start at the end: the last tuple is its own page, then walk back from it with `before`.
        const last = expected.length === 0 ? undefined : expected[expected.length - 1];
        if (last === undefined) return;
        const first = store.paginate([], { size: 1, after: last });
        expect(first.data).toEqual([last]);
        pages.unshift(first.data);
        let before: IndexTuple = last;
        for (;;) {
          const page = store.paginate([], { size, before });
          expect(page.after).toEqual(before);
          pages.unshift(page.data);
          if (!page.before) break;
          expect(page.before).toEqual(page.data[0]);
          before = page.before;
        }
        expect(pages.flat()).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a page from any cursor equals slicing the sorted tuples at that cursor', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.integer({ min: 0, max: 6 }),
        fc.array(scalar, { maxLength: 3 }),
        fc.boolean(),
        (s, size, cursor, backward) => {
          const sorted = [...s.tuples].sort((a, b) => compareTuples(a, b, s.reverse));
          const store = load(s);
          if (backward) {
            const below = sorted.filter((t) => compareTuples(t, cursor, s.reverse) < 0);
            const page = store.paginate([], { size, before: cursor });
            expect(page.data).toEqual(below.slice(Math.max(0, below.length - size)));
          } else {
            const from = sorted.filter((t) => compareTuples(t, cursor, s.reverse) >= 0);
            const page = store.paginate([], { size, after: cursor });
            expect(page.data).toEqual(from.slice(0, size));
            expect(page.after).toEqual(size === 0 ? cursor : from[size]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('removes the old entries of a document when it changes', () => {
    const store = new IndexStore([false]);
    const r = docRef(1);
    store.apply([], [{ terms: ['t'], values: [1n], ref: r }]);
    store.apply([{ terms: ['t'], values: [1n], ref: r }], [{ terms: ['u'], values: [2n], ref: r }]);
    expect(store.count(['t'])).toBe(0);
    expect(store.paginate(['u'], { size: 10 }).data).toEqual([[2n, r]]);
  });

  it('finds a unique conflict only for another ref with equal terms and values', () => {
    const store = new IndexStore([false]);
    store.apply([], [{ terms: ['a'], values: [1n], ref: docRef(1) }]);
    expect(store.findConflict([{ terms: ['a'], values: [1n], ref: docRef(2) }])?.id).toBe('1');
    expect(store.findConflict([{ terms: ['a'], values: [1n], ref: docRef(1) }])).toBeUndefined();
    // An integer and a decimal of equal value are equal in the index order.
    expect(store.findConflict([{ terms: ['a'], values: [1], ref: docRef(2) }])?.id).toBe('1');
    expect(store.findConflict([{ terms: ['a'], values: [1.5], ref: docRef(2) }])).toBeUndefined();
    expect(store.findConflict([{ terms: ['b'], values: [1n], ref: docRef(2) }])).toBeUndefined();
  });

  it('renders page elements as ref, single value, or value array', () => {
    const r = docRef(3);
    expect(pageElement([r], 0)).toBe(r);
    expect(pageElement(['x', r], 1)).toBe('x');
    expect(pageElement(['x', 1n, r], 2)).toEqual(['x', 1n]);
  });

  it('rejects a negative size and both cursors at once', () => {
    const store = new IndexStore([]);
    expect(() => store.paginate([], { size: -1 })).toThrow(/non-negative/);
    expect(() => store.paginate([], { size: 1, after: [], before: [] })).toThrow(/Only one/);
  });
});

describe('entriesFor', () => {
  const definition = parseIndexDefinition(
    {
      name: 'by_tags',
      source: users,
      terms: [{ field: ['data', 'tag'] }, { field: ['data', 'kind'] }],
      values: [{ field: ['data', 'score'], reverse: true }],
    },
    { compileBinding: () => () => null },
  );

  it('fans out array terms, gives missing terms null, and drops all-null term rows', () => {
    const doc = { ref: docRef(1), data: { tag: ['x', 'y', 'x'], score: 5n } };
    const entries = entriesFor(definition, doc);
    expect(entries.map((e) => e.terms)).toEqual([
      ['x', null],
      ['y', null],
    ]);
    expect(entriesFor(definition, { ref: docRef(2), data: { score: 1n } })).toEqual([]);
  });

  it('drops a document whose covered values are all null', () => {
    expect(entriesFor(definition, { ref: docRef(3), data: { tag: 'x' } })).toEqual([]);
  });

  it('reads an object at a value path as null and an array as its elements, unless the value says mva: false', () => {
    const byDefault = parseIndexDefinition(
      { name: 'd', source: users, values: [{ field: ['data', 'v'] }, { field: ['data', 'w'] }] },
      { compileBinding: () => () => null },
    );
    const whole = parseIndexDefinition(
      { name: 'w', source: users, values: [{ field: ['data', 'v'], mva: false }] },
      { compileBinding: () => () => null },
    );
    expect(entriesFor(byDefault, { ref: docRef(1), data: { v: { k: 1n }, w: 'x' } }).map((e) => e.values)).toEqual([[null, 'x']]);
    expect(entriesFor(byDefault, { ref: docRef(1), data: { v: [2n, [1n]], w: 'x' } }).map((e) => e.values)).toEqual([
      [2n, 'x'],
      [1n, 'x'],
    ]);
    expect(entriesFor(whole, { ref: docRef(1), data: { v: { k: 1n } } }).map((e) => e.values)).toEqual([[{ k: 1n }]]);
    expect(entriesFor(whole, { ref: docRef(1), data: { v: [2n, 1n] } }).map((e) => e.values)).toEqual([[[2n, 1n]]]);
  });

  it('refuses a binding no term or value uses, and an mva that is not a boolean', () => {
    const compileBinding = () => () => null;
    const lambda = new QueryValue('d', { var: 'd' });
    expect(() => parseIndexDefinition({ name: 'u', source: [{ collection: users, fields: { b: lambda } }] }, { compileBinding })).toThrow(
      expect.objectContaining({ failures: [expect.objectContaining({ field: ['source', 0, 'fields', 'b'], code: 'unused binding' })] }),
    );
    expect(() =>
      parseIndexDefinition({ name: 'm', source: users, values: [{ field: ['data', 'v'], mva: 'no' }] }, { compileBinding }),
    ).toThrow(expect.objectContaining({ failures: [expect.objectContaining({ field: ['values', 0, 'mva'], code: 'invalid type' })] }));
  });

  it('ignores documents of collections no source names', () => {
    expect(entriesFor(definition, { ref: new Ref('1', new Ref('other', new Ref('collections'))), data: { tag: 'x', score: 1n } })).toEqual(
      [],
    );
  });
});

describe('compareValues', () => {
  const ascending: Value[] = [
    -Infinity,
    -(2n ** 63n),
    -0,
    0,
    1n,
    1.5,
    2n,
    Number.NaN,
    new Bytes(new Uint8Array([0])),
    new Bytes(new Uint8Array([0, 1])),
    'a',
    'B',
    [],
    [1n],
    {},
    { a: 1n },
    docRef(2),
    docRef(10),
    new Time(5n),
    new DateValue(1),
    false,
    true,
    null,
  ];
  it('orders one value of each type as the real service does, numbers by value, with content order inside a type', () => {
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        expect(Math.sign(compareValues(ascending[i], ascending[j])), `${i} vs ${j}`).toBe(Math.sign(i - j));
      }
    }
  });
  it('compares an integer and a decimal of equal value as equal', () => {
    expect(compareValues(1n, 1)).toBe(0);
    expect(compareValues(2n ** 53n + 1n, 2 ** 53)).toBe(0);
  });
  it('treats a missing value as null', () => {
    expect(compareValues(undefined, null)).toBe(0);
  });
});
