// FQL v4 set functions beyond the SD's list (profile v4-functions, spec/requirements/functions-sets.md): Range,
// Singleton, and Filter of a set; Map and Foreach refusing sets; Union, Intersection, Difference and Distinct of
// arrays and pages; and Paginate's v4 options (paging.md): sources, and a document ref as the set. Integers parse to
// bigint.
import { beforeAll, describe, expect } from 'vitest';
import { check, decimal, useTenant, type Client } from '../../../harness/index.js';
import { collection, createIndex, docRef, lambda, literal, match, roleKeySecret } from '../../../harness/v4.js';
import { expectFailure, resultOf } from './function-cases.js';

const t = useTenant();

const COLL = 'fs_items';
const COUNT = 12;
const ids = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ref = (id: number): unknown => docRef(COLL, String(id));
const above = (limit: number): unknown => lambda('x', { gt: [{ var: 'x' }, limit] });

const byN = (): unknown => match('fs_by_n');
const byNNeg = (): unknown => match('fs_by_n_neg');
const byNDesc = (): unknown => match('fs_by_n_desc');
const byGroup = (): unknown => match('fs_by_group');
const refs = (): unknown => match('fs_refs');
const byEven = (even: boolean): unknown => match('fs_by_even', even);
const range = (set: unknown, from: unknown, to: unknown): unknown => ({ range: set, from, to });

async function pageData(client: Client, set: unknown, opts: Record<string, unknown> = {}): Promise<unknown[]> {
  return ((await resultOf(client, { paginate: set, size: 100n, ...opts })) as { data: unknown[] }).data;
}

/** The refs the server renders for documents 1 … COUNT, by id. */
const rendered: Record<number, unknown> = {};

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: COLL } } })).expectStatus(201);
  (
    await t.server.query([
      createIndex({ name: 'fs_by_n', source: collection(COLL), values: [{ field: ['data', 'n'] }] }),
      createIndex({ name: 'fs_by_n_neg', source: collection(COLL), values: [{ field: ['data', 'n'] }, { field: ['data', 'neg'] }] }),
      createIndex({ name: 'fs_by_n_desc', source: collection(COLL), values: [{ field: ['data', 'n'], reverse: true }] }),
      createIndex({ name: 'fs_by_group', source: collection(COLL), values: [{ field: ['data', 'g'] }] }),
      createIndex({ name: 'fs_refs', source: collection(COLL) }),
      createIndex({ name: 'fs_by_even', source: collection(COLL), terms: [{ field: ['data', 'even'] }] }),
    ])
  ).expectStatus(200);
  const created = (
    await t.server.query(
      ids(1, COUNT).map((i) => ({
        create: ref(i),
        params: literal({ data: { n: BigInt(i), neg: BigInt(-i), g: BigInt(i % 3), even: i % 2 === 0 } }),
      })),
    )
  ).expectStatus(200).resource as Array<{ ref: unknown }>;
  created.forEach((doc, i) => {
    rendered[i + 1] = doc.ref;
  });
});

describe('Range', () => {
  check.each([
    { name: 'between two values', set: byN, from: 3n, to: 6n, expected: [3n, 4n, 5n, 6n] },
    { name: 'of one value', set: byN, from: 7n, to: 7n, expected: [7n] },
    { name: 'with bounds outside the values', set: byN, from: -5n, to: 100n, expected: ids(1, COUNT).map(BigInt) },
    { name: 'with bounds between no values', set: byN, from: 20n, to: 30n, expected: [] },
    { name: 'with from after to', set: byN, from: 6n, to: 3n, expected: [] },
    { name: 'of a reversed column, from the larger value', set: byNDesc, from: 10n, to: 8n, expected: [10n, 9n, 8n] },
    { name: 'of a reversed column, from the smaller value', set: byNDesc, from: 8n, to: 10n, expected: [] },
  ])(['FN-SET-001'], 'Range $name pages the entries between the bounds, both included', async ({ set, from, to, expected }) => {
    expect(await pageData(t.server, range(set(), from, to))).toEqual(expected);
  });

  check.each([
    { name: 'one-value prefixes of two-value tuples', from: 3n, to: 6n, expected: ids(3, 6) },
    { name: 'one-element arrays', from: [3n], to: [6n], expected: ids(3, 6) },
    { name: 'a full lower bound past its entry', from: [3n, -2n], to: [6n], expected: ids(4, 6) },
    { name: 'a full upper bound before its entry', from: [3n], to: [6n, -7n], expected: ids(3, 5) },
  ])(['FN-SET-002'], 'Range with $name', async ({ from, to, expected }) => {
    expect(await pageData(t.server, range(byNNeg(), from, to))).toEqual(expected.map((i) => [BigInt(i), BigInt(-i)]));
  });

  check.each([
    { name: 'from', from: [], to: 3n, expected: ids(1, 3) },
    { name: 'to', from: 10n, to: [], expected: ids(10, COUNT) },
    { name: 'both', from: [], to: [], expected: ids(1, COUNT) },
  ])(['FN-SET-003'], 'an empty array as $name leaves that side open', async ({ from, to, expected }) => {
    expect(await pageData(t.server, range(byN(), from, to))).toEqual(expected.map(BigInt));
  });

  check(['FN-SET-004'], 'refs bound a set of refs', async () => {
    expect(await pageData(t.server, range(refs(), ref(5), ref(7)))).toEqual(ids(5, 7).map((i) => rendered[i]));
    expect(await pageData(t.server, range(refs(), [ref(10)], []))).toEqual(ids(10, COUNT).map((i) => rendered[i]));
  });

  check(['FN-SET-004'], 'a ref after the values bounds the entries of equal values by ref', async () => {
    // Group 1 holds documents 1, 4, 7 and 10.
    expect(await pageData(t.server, range(byGroup(), 1n, 1n))).toEqual([1n, 1n, 1n, 1n]);
    expect(await pageData(t.server, range(byGroup(), [1n, ref(4)], [1n, ref(7)]))).toEqual([1n, 1n]);
    expect(await pageData(t.server, range(byGroup(), [1n, ref(5)], 1n))).toEqual([1n, 1n]);
  });

  check(['FN-SET-005'], 'a Range set pages forward and back with cursors inside its bounds', async () => {
    const set = range(byN(), 3n, 8n);
    const first = (await resultOf(t.server, { paginate: set, size: 4n })) as { data: unknown[]; after: unknown[]; before?: unknown };
    expect(first.data).toEqual([3n, 4n, 5n, 6n]);
    expect(first.before).toBeUndefined();
    expect(first.after).toEqual([7n, rendered[7]]);
    const second = (await resultOf(t.server, { paginate: set, size: 4n, after: first.after })) as {
      data: unknown[];
      after?: unknown;
      before: unknown;
    };
    expect(second).toEqual({ before: [7n, rendered[7]], data: [7n, 8n] });
    // before: null is the cursor [null], past every entry, and comes back as the page's after (PAGE-CURSOR-013).
    const last = (await resultOf(t.server, { paginate: set, size: 4n, before: null })) as { data: unknown[]; before: unknown };
    expect(last).toEqual({ before: [5n, rendered[5]], after: [null], data: [5n, 6n, 7n, 8n] });
    const back = (await resultOf(t.server, { paginate: set, size: 4n, before: last.before })) as { data: unknown[]; after: unknown };
    expect(back).toEqual({ after: [5n, rendered[5]], data: [3n, 4n] });
  });

  check(['FN-SET-005'], 'a Range set is an operand of Union, Difference and the aggregates', async () => {
    expect(await pageData(t.server, { union: [range(byN(), 3n, 6n), byN()] })).toEqual(ids(1, COUNT).map(BigInt));
    expect(await pageData(t.server, { union: [range(byN(), 1n, 2n), range(byN(), 11n, 20n)] })).toEqual([1n, 2n, 11n, 12n]);
    expect(await pageData(t.server, { difference: [range(byN(), 1n, 5n), range(byN(), 2n, 4n)] })).toEqual([1n, 5n]);
    expect(await resultOf(t.server, { count: range(byN(), 3n, 6n) })).toBe(4n);
    expect(await resultOf(t.server, { sum: range(byN(), 3n, 6n) })).toBe(18n);
  });

  check(['FN-SET-006'], 'a Range set renders as @set with its set and bounds, and reads back the same', async () => {
    const setValue = await resultOf(t.server, byN());
    const value = await resultOf(t.server, range(byN(), 3n, 6n));
    expect(value).toEqual({ '@set': { range: setValue, from: 3n, to: 6n } });
    expect(await pageData(t.server, value)).toEqual([3n, 4n, 5n, 6n]);
    expect(await resultOf(t.server, range(byN(), [3n], [6n]))).toEqual(value);
  });

  check.each([
    { name: 'an integer', value: 5n, type: 'Integer' },
    { name: 'a string', value: 'fs_by_n', type: 'String' },
    { name: 'an array', value: [1n, 2n], type: 'Array' },
    { name: 'a document ref', value: ref(1), type: 'Ref' },
  ])(['FN-SET-007'], 'Range of $name is invalid argument at ["range"]', async ({ value, type }) => {
    await expectFailure(t.server, range(value, 1n, 2n), 400, 'invalid argument', `Set expected, ${type} provided.`, ['range']);
  });
});

describe('Singleton', () => {
  check(['FN-SET-009'], 'Singleton of a document ref is a set holding that ref', async () => {
    expect(await resultOf(t.server, { singleton: ref(3) })).toEqual({ '@set': { singleton: rendered[3] } });
    expect(await pageData(t.server, { singleton: ref(3) })).toEqual([rendered[3]]);
    expect(await resultOf(t.server, { count: { singleton: ref(3) } })).toBe(1n);
  });

  check(['FN-SET-009'], 'Singleton of a ref whose document does not exist, or no longer does, pages as empty', async () => {
    expect(await pageData(t.server, { singleton: ref(999) })).toEqual([]);
    const gone = (await t.server.query({ create: { collection: COLL }, params: literal({ data: { n: 1000n } }) })).expectStatus(201)
      .resource.ref;
    expect(await pageData(t.server, { singleton: gone })).toEqual([gone]);
    (await t.server.query({ delete: gone })).expectStatus(200);
    expect(await pageData(t.server, { singleton: gone })).toEqual([]);
  });

  check.each([
    { name: 'an integer', value: 5n, type: 'Integer' },
    { name: 'a string', value: '1', type: 'String' },
    { name: 'a set', value: byN(), type: 'Set' },
    { name: 'null', value: null, type: 'Null' },
  ])(['FN-SET-010'], 'Singleton of $name is invalid argument at ["singleton"]', async ({ value, type }) => {
    await expectFailure(t.server, { singleton: value }, 400, 'invalid argument', `Ref expected, ${type} provided.`, ['singleton']);
  });
});

describe('Filter, Map and Foreach of sets', () => {
  check(['FN-SET-012'], 'Filter of a set answers a set that pages the elements the lambda keeps', async () => {
    const value = (await resultOf(t.server, { filter: above(8), collection: byN() })) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['@set']);
    expect(await pageData(t.server, { filter: above(8), collection: byN() })).toEqual([9n, 10n, 11n, 12n]);
    expect(await pageData(t.server, { filter: lambda('x', false), collection: byN() })).toEqual([]);
  });

  check(['FN-SET-012'], 'the lambda gets each element as Paginate renders it: refs, or arrays of covered values', async () => {
    const odd = lambda('r', { select: ['data', 'even'], from: { get: { var: 'r' } } });
    expect(await pageData(t.server, { filter: odd, collection: refs() })).toEqual(
      ids(1, COUNT)
        .filter((i) => i % 2 === 0)
        .map((i) => rendered[i]),
    );
    const pairs = lambda(['n', 'neg'], { lt: [{ add: [{ var: 'n' }, { var: 'neg' }, { var: 'n' }] }, 3n] });
    expect(await pageData(t.server, { filter: pairs, collection: byNNeg() })).toEqual([
      [1n, -1n],
      [2n, -2n],
    ]);
  });

  check(['FN-SET-012'], 'a Filter set pages with cursors, composes with Range and is folded by the aggregates', async () => {
    const set = { filter: above(4), collection: byN() };
    const first = (await resultOf(t.server, { paginate: set, size: 3n })) as { data: unknown[]; after: unknown[] };
    expect(first).toEqual({ after: [8n, rendered[8]], data: [5n, 6n, 7n] });
    expect(await resultOf(t.server, { paginate: set, size: 3n, after: first.after })).toEqual({
      before: [8n, rendered[8]],
      after: [11n, rendered[11]],
      data: [8n, 9n, 10n],
    });
    expect(await pageData(t.server, range(set, 3n, 6n))).toEqual([5n, 6n]);
    expect(await pageData(t.server, { filter: above(4), collection: range(byN(), 3n, 6n) })).toEqual([5n, 6n]);
    expect(await resultOf(t.server, { count: set })).toBe(8n);
    expect(await resultOf(t.server, { is_empty: { filter: above(100), collection: byN() } })).toBe(true);
  });

  check(['FN-SET-013'], 'a Filter lambda that answers a non-boolean fails the read of the set at its "filter"', async () => {
    await expectFailure(
      t.server,
      { paginate: { filter: lambda('x', { var: 'x' }), collection: byN() } },
      400,
      'invalid argument',
      'Boolean expected, Integer provided.',
      ['paginate', 'filter'],
    );
    await expectFailure(
      t.server,
      { count: { filter: lambda('x', 'yes'), collection: byN() } },
      400,
      'invalid argument',
      'Boolean expected, String provided.',
      ['count', 'filter'],
    );
  });

  check.each([
    { name: 'an integer', value: 5n, type: 'Integer' },
    { name: 'a string', value: 'abc', type: 'String' },
    { name: 'null', value: null, type: 'Null' },
  ])(['FN-SET-014'], 'Filter of $name is invalid argument at ["collection"]', async ({ value, type }) => {
    await expectFailure(
      t.server,
      { filter: above(1), collection: value },
      400,
      'invalid argument',
      `Array, Set, or Page expected, ${type} provided.`,
      ['collection'],
    );
  });

  check.each([
    { name: 'Map of a Match', expr: () => ({ map: above(1), collection: byN() }) },
    { name: 'Foreach of a Match', expr: () => ({ foreach: above(1), collection: byN() }) },
    { name: 'Map of Documents', expr: () => ({ map: above(1), collection: { documents: collection(COLL) } }) },
    { name: 'Map of a Filter set', expr: () => ({ map: above(1), collection: { filter: above(1), collection: byN() } }) },
    { name: 'Foreach of a Range set', expr: () => ({ foreach: above(1), collection: range(byN(), 1n, 2n) }) },
  ])(['FN-SET-015'], '$name is invalid argument: Array or Page expected, Set provided', async ({ expr }) => {
    await expectFailure(t.server, expr(), 400, 'invalid argument', 'Array or Page expected, Set provided.', ['collection']);
  });

  check(['FN-SET-015'], 'Map takes the pages of a set', async () => {
    expect(
      await resultOf(t.server, { map: lambda('x', { multiply: [{ var: 'x' }, 10n] }), collection: { paginate: range(byN(), 2n, 3n) } }),
    ).toEqual({ data: [20n, 30n] });
  });
});

describe('Union, Intersection, Difference and Distinct of arrays and pages', () => {
  check.each([
    { expr: [[1n, 2n]], expected: [1n, 2n] },
    {
      expr: [
        [1n, 2n],
        [3n, 4n],
      ],
      expected: [1n, 2n, 3n, 4n],
    },
    {
      expr: [
        [2n, 1n],
        [2n, 1n],
      ],
      expected: [2n, 1n],
    },
    {
      expr: [
        [2n, 2n],
        [2n, 2n, 2n],
      ],
      expected: [2n, 2n, 2n],
    },
    {
      expr: [
        [3n, 2n, 2n, 1n],
        [6n, 5n, 9n, 1n],
      ],
      expected: [3n, 2n, 2n, 1n, 6n, 5n, 9n],
    },
    {
      expr: [
        [6n, 5n, 9n, 1n],
        [3n, 2n, 2n, 1n],
      ],
      expected: [6n, 5n, 9n, 1n, 3n, 2n, 2n],
    },
    {
      expr: [
        [1n, 2n],
        [1n, 2n, 3n, 4n],
        [5n, 6n],
      ],
      expected: [1n, 2n, 3n, 4n, 5n, 6n],
    },
    {
      expr: [
        [1n, 2n, 2n, 3n, 3n, 3n],
        [1n, 2n, 2n, 2n, 3n, 3n],
      ],
      expected: [1n, 2n, 2n, 2n, 3n, 3n, 3n],
    },
  ])(['FN-SET-016'], 'Union of arrays $expr is the multiset union $expected', async ({ expr, expected }) => {
    expect(await resultOf(t.server, { union: expr })).toEqual(expected);
  });

  check.each([
    { expr: [[1n, 2n]], expected: [1n, 2n] },
    {
      expr: [
        [1n, 2n],
        [3n, 4n],
      ],
      expected: [],
    },
    {
      expr: [
        [1n, 2n],
        [4n, 2n],
      ],
      expected: [2n],
    },
    {
      expr: [
        [1n, 2n],
        [3n, 4n, 2n, 1n],
        [1n, 2n],
      ],
      expected: [1n, 2n],
    },
    {
      expr: [
        [1n, 2n, 2n, 3n],
        [1n, 2n, 2n, 5n],
      ],
      expected: [1n, 2n, 2n],
    },
    {
      expr: [
        [3n, 2n, 2n, 1n],
        [2n, 2n, 1n, 0n],
      ],
      expected: [2n, 2n, 1n],
    },
  ])(['FN-SET-017'], 'Intersection of arrays $expr is $expected', async ({ expr, expected }) => {
    expect(await resultOf(t.server, { intersection: expr })).toEqual(expected);
  });

  check.each([
    {
      expr: [
        [1n, 2n],
        [3n, 4n],
      ],
      expected: [1n, 2n],
    },
    {
      expr: [
        [1n, 2n],
        [1n, 2n],
      ],
      expected: [],
    },
    {
      expr: [
        [4n, 3n, 2n, 1n],
        [5n, 1n, 2n],
        [1n, 2n],
      ],
      expected: [4n, 3n],
    },
    { expr: [[1n, 2n, 2n, 3n, 3n], [3n]], expected: [1n, 2n, 2n, 3n] },
    { expr: [[3n, 2n, 2n, 1n, 3n], [3n]], expected: [2n, 2n, 1n, 3n] },
  ])(['FN-SET-018'], 'Difference of arrays $expr is $expected', async ({ expr, expected }) => {
    expect(await resultOf(t.server, { difference: expr })).toEqual(expected);
  });

  check(['FN-SET-019'], 'Distinct of an array keeps first occurrences in order', async () => {
    expect(await resultOf(t.server, { distinct: [4n, 4n, 2n, 2n, 3n, 3n, 1n, 1n] })).toEqual([4n, 2n, 3n, 1n]);
    expect(await resultOf(t.server, { distinct: [1n, 'str', 2n, 'str', 1n, 2n, 'str', decimal('3.14'), decimal('1.0')] })).toEqual([
      1n,
      'str',
      2n,
      3.14,
      1,
    ]);
  });

  check(['FN-SET-019'], 'Distinct of a page deduplicates its data and keeps its cursors', async () => {
    // Groups of documents 1 … 12 by i % 3: 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2.
    const first = (await resultOf(t.server, { paginate: byGroup(), size: 5n })) as { after: unknown };
    expect(await resultOf(t.server, { distinct: { paginate: byGroup(), size: 5n } })).toEqual({ after: first.after, data: [0n, 1n] });
    const second = (await resultOf(t.server, { paginate: byGroup(), size: 5n, after: first.after })) as { before: unknown; after: unknown };
    expect(await resultOf(t.server, { distinct: { paginate: byGroup(), size: 5n, after: first.after } })).toEqual({
      before: second.before,
      after: second.after,
      data: [1n, 2n],
    });
  });

  check.each(['union', 'intersection', 'difference'])(
    ['FN-SET-020'],
    '%s refuses arrays mixed with sets, pages, and values that are neither',
    async (name) => {
      await expectFailure(
        t.server,
        { [name]: [[1n, 2n], byN()] },
        400,
        'invalid argument',
        'Arguments cannot be of different types, expected Set or Array.',
        [name],
      );
      await expectFailure(
        t.server,
        { paginate: { [name]: [byN(), [1n]] } },
        400,
        'invalid argument',
        'Arguments cannot be of different types, expected Set or Array.',
        ['paginate', name],
      );
      await expectFailure(t.server, { [name]: [{ paginate: byN() }] }, 400, 'invalid argument', 'Set or Array expected, Page provided.', [
        name,
        0n,
      ]);
      await expectFailure(t.server, { [name]: [byN(), 5n] }, 400, 'invalid argument', 'Array, Set, or Page expected, Integer provided.', [
        name,
        1n,
      ]);
    },
  );

  check(['FN-SET-020'], 'Distinct of a value that is neither an array, a page nor a set is refused at ["distinct"]', async () => {
    await expectFailure(t.server, { distinct: 'abc' }, 400, 'invalid argument', 'Array, Set, or Page expected, String provided.', [
      'distinct',
    ]);
  });
});

describe('Paginate with sources and of a document ref', () => {
  const bySource = (a: unknown, b: unknown): number => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

  check(['PAGE-SOURCES-001'], 'sources: true answers each element with the Match it comes from, and the same cursors', async () => {
    const set = await resultOf(t.server, refs());
    const plain = (await resultOf(t.server, { paginate: refs(), size: 2n })) as { after: unknown; data: unknown[] };
    const sourced = (await resultOf(t.server, { paginate: refs(), size: 2n, sources: true })) as { after: unknown; data: unknown[] };
    expect(sourced).toEqual({ after: plain.after, data: plain.data.map((value) => ({ value, sources: [set] })) });
    expect(await resultOf(t.server, { paginate: refs(), size: 2n, sources: false })).toEqual(plain);
    const second = (await resultOf(t.server, { paginate: refs(), size: 2n, after: plain.after, sources: true })) as {
      before: unknown;
      data: Array<{ value: unknown }>;
    };
    expect(second.before).toEqual(plain.after);
    expect(second.data.map((e) => e.value)).toEqual([rendered[3], rendered[4]]);
  });

  check(['PAGE-SOURCES-001'], 'an element of a Union lists every operand set that holds it', async () => {
    const [all, even] = [await resultOf(t.server, refs()), await resultOf(t.server, byEven(true))];
    const page = (await resultOf(t.server, { paginate: { union: [refs(), byEven(true)] }, size: 4n, sources: true })) as {
      data: Array<{ value: unknown; sources: unknown[] }>;
    };
    expect(page.data.map((e) => e.value)).toEqual([rendered[1], rendered[2], rendered[3], rendered[4]]);
    expect(page.data.map((e) => [...e.sources].sort(bySource))).toEqual([
      [all],
      [all, even].sort(bySource),
      [all],
      [all, even].sort(bySource),
    ]);
  });

  check(['PAGE-SOURCES-001'], 'with events: true each value is the event', async () => {
    const plain = (await resultOf(t.server, { paginate: refs(), size: 3n, events: true })) as { data: unknown[] };
    const sourced = (await resultOf(t.server, { paginate: refs(), size: 3n, events: true, sources: true })) as {
      data: Array<{ value: unknown; sources: unknown[] }>;
    };
    expect(sourced.data.map((e) => e.value)).toEqual(plain.data);
    for (const element of sourced.data) {
      expect(element.value).toMatchObject({ ts: expect.any(BigInt), action: 'add', document: expect.any(Object) });
      expect(element.sources.length).toBeGreaterThan(0);
      for (const source of element.sources) expect(Object.keys(source as object)).toEqual(['@set']);
    }
  });

  check(['PAGE-DOC-001'], 'a document ref pages as the set of that one ref while the document exists', async () => {
    expect(await resultOf(t.server, { paginate: ref(3) })).toEqual({ data: [rendered[3]] });
    expect(await resultOf(t.server, { paginate: ref(3), size: 1n, before: null })).toEqual({ after: [null], data: [rendered[3]] });
    expect(await resultOf(t.server, { paginate: ref(999) })).toEqual({ data: [] });
    const gone = (await t.server.query({ create: { collection: COLL }, params: literal({ data: { n: 1001n } }) })).expectStatus(201)
      .resource.ref;
    expect(await resultOf(t.server, { paginate: gone })).toEqual({ data: [gone] });
    (await t.server.query({ delete: gone })).expectStatus(200);
    expect(await resultOf(t.server, { paginate: gone })).toEqual({ data: [] });
  });

  check(['PAGE-DOC-001'], 'Paginate of a value that is neither a ref nor a set is refused at ["paginate"]', async () => {
    await expectFailure(t.server, { paginate: 5n }, 400, 'invalid argument', 'Ref or Set expected, Integer provided.', ['paginate']);
  });
});

describe('Read permissions', () => {
  let even: Client;
  let historyOnly: Client;
  let readOnly: Client;

  beforeAll(async () => {
    // Objects spelled out as `{"object": …}` (not `lit`) so that the read predicate stays a `query` form.
    const obj = (fields: Record<string, unknown>) => ({ object: fields });
    const privilege = (resource: unknown, actions: Record<string, unknown>) => obj({ resource, actions: obj(actions) });
    const role = (name: string, privileges: unknown[]) => ({ create_role: obj({ name, privileges }) });
    const evenOnly = { query: lambda('r', { select: ['data', 'even'], from: { get: { var: 'r' } } }) };
    (
      await t.admin.query([
        role('fs_even_reader', [privilege(collection(COLL), { read: evenOnly }), privilege({ index: 'fs_by_n' }, { read: true })]),
        role('fs_history_reader', [privilege(collection(COLL), { history_read: true })]),
        role('fs_plain_reader', [privilege(collection(COLL), { read: true })]),
      ])
    ).expectStatus(200, 201);
    [even, historyOnly, readOnly] = [
      t.as(await roleKeySecret(t.admin, 'fs_even_reader')),
      t.as(await roleKeySecret(t.admin, 'fs_history_reader')),
      t.as(await roleKeySecret(t.admin, 'fs_plain_reader')),
    ];
  });

  check(['FN-SET-008'], 'Range and Filter of a Match page and count only the documents the role may read', async () => {
    expect(await pageData(even, byN())).toEqual([2n, 4n, 6n, 8n, 10n, 12n]);
    expect(await pageData(even, range(byN(), 3n, 8n))).toEqual([4n, 6n, 8n]);
    expect(await pageData(even, { filter: above(5), collection: byN() })).toEqual([6n, 8n, 10n, 12n]);
    expect(await resultOf(even, { count: range(byN(), 3n, 8n) })).toBe(3n);
    expect(await resultOf(even, { count: { filter: above(5), collection: byN() } })).toBe(4n);
  });

  check(['FN-SET-011'], 'a Singleton set is read with history_read on its document, not read', async () => {
    expect(await pageData(historyOnly, { singleton: ref(3) })).toEqual([rendered[3]]);
    await expectFailure(
      readOnly,
      { paginate: { singleton: ref(3) } },
      403,
      'permission denied',
      'Insufficient privileges to perform the action.',
      ['paginate'],
    );
  });

  check(['PAGE-DOC-001'], 'a document ref is paged with history_read on it, not read', async () => {
    expect(await pageData(historyOnly, ref(3))).toEqual([rendered[3]]);
    await expectFailure(readOnly, { paginate: ref(3) }, 403, 'permission denied', 'Insufficient privileges to perform the action.', [
      'paginate',
    ]);
  });
});
