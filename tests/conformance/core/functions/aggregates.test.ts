// FQL v4 aggregates and array functions (profile v4-functions, spec/requirements/functions-collections.md): Count,
// Sum, Mean, Any, All, IsEmpty, IsNonEmpty over arrays, pages and sets; Take, Drop, Append, Prepend, Reverse.
// Results are compared with their wire types: integers parse to bigint, decimals to number.
import { beforeAll, describe, expect } from 'vitest';
import { check, decimal, useTenant } from '../../../harness/index.js';
import { collection, createDoc, createIndex, expectQueryError, literal, match } from '../../../harness/v4.js';
import { expectFailure, expectRefusedOrBuilt, named, resultOf } from './function-cases.js';

const t = useTenant();

const GROUPS: Record<string, unknown[]> = {
  ints: [1n, 2n, 3n],
  mixed: [1n, decimal('2.5')],
  bools: [true, false, true],
  trues: [true, true],
  bad: [1n, 'x', 2n],
};
const byGroup = (group: string): unknown => match('agg_values_by_group', group);
const refsSet = (): unknown => match('agg_refs');

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: 'agg_items' } } })).expectStatus(201);
  (await t.server.query({ create_collection: { object: { name: 'agg_refs_only' } } })).expectStatus(201);
  const indexes = [
    createIndex({
      name: 'agg_values_by_group',
      source: collection('agg_items'),
      terms: [{ field: ['data', 'g'] }],
      values: [{ field: ['data', 'v'] }],
    }),
    createIndex({ name: 'agg_refs', source: collection('agg_refs_only') }),
  ];
  (await t.server.query(indexes)).expectStatus(200);
  const docs = Object.entries(GROUPS).flatMap(([g, vs]) =>
    vs.map((v) => ({ create: collection('agg_items'), params: { object: { data: { object: { g, v } } } } })),
  );
  (await t.server.query(docs)).expectStatus(200);
  (await t.server.query(Array.from({ length: 6 }, (_, i) => createDoc('agg_refs_only', { n: BigInt(i) })))).expectStatus(200);
});

/** The refs of `agg_refs` in set order, and its second page of two (with both cursors). */
async function refPages(): Promise<{ refs: unknown[]; first: unknown; second: unknown; secondExpr: unknown; firstExpr: unknown }> {
  const all = (await resultOf(t.server, { paginate: refsSet(), size: 100 })) as { data: unknown[] };
  const firstExpr = { paginate: refsSet(), size: 2 };
  const first = (await resultOf(t.server, firstExpr)) as { after: unknown[] };
  const secondExpr = { paginate: refsSet(), size: 2, after: first.after };
  const second = await resultOf(t.server, secondExpr);
  return { refs: all.data, first, second, secondExpr, firstExpr };
}

// The tests only read the fixtures written above, so they run at once.
describe.concurrent('Count, Sum, Mean, Any and All of arrays', () => {
  check.each([
    { name: 'Count of an array', expr: { count: [1, 'a', null] }, expected: 3n },
    { name: 'Count of an empty array', expr: { count: [] }, expected: 0n },
  ])(['FN-AGG-001'], '$name answers an integer', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each([
    { name: 'Sum of integers is an integer', expr: { sum: [1, 2, 3] }, expected: 6n },
    { name: 'Sum with a decimal is a decimal', expr: { sum: [1, decimal('2.5')] }, expected: 3.5 },
    { name: 'Sum of decimals adding up to a whole number is a decimal', expr: { sum: [decimal('0.5'), decimal('0.5')] }, expected: 1 },
    { name: 'Sum of an empty array is the integer 0', expr: { sum: [] }, expected: 0n },
    { name: 'Sum of integers wraps around at 64 bits', expr: { sum: [9223372036854775807n, 1] }, expected: -9223372036854775808n },
  ])(['FN-AGG-002'], '$name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each([
    { name: 'Mean of integers with a fraction', expr: { mean: [1, 2] }, expected: 1.5 },
    { name: 'Mean of integers with a whole result is still a decimal', expr: { mean: [2, 4] }, expected: 3 },
    { name: 'Mean with decimals', expr: { mean: [decimal('1.5'), 3] }, expected: 2.25 },
  ])(['FN-AGG-003'], '$name', async ({ expr, expected }) => {
    const result = await resultOf(t.server, expr);
    expect(typeof result, 'Mean answers a decimal').toBe('number');
    expect(result).toBe(expected);
  });

  check(['FN-AGG-003'], 'Mean of an empty array answers 400 "Non-empty array expected." at ["mean"]', async () => {
    await expectFailure(t.server, { mean: [] }, 400, 'invalid argument', 'Non-empty array expected.', ['mean']);
  });

  check.each(
    named([
      { expr: { any: [false, true, false] }, expected: true },
      { expr: { any: [false, false] }, expected: false },
      { expr: { any: [] }, expected: false },
      { expr: { all: [true, true] }, expected: true },
      { expr: { all: [true, false, true] }, expected: false },
      { expr: { all: [] }, expected: true },
    ]),
  )(['FN-AGG-004'], 'Any and All: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toBe(expected);
  });

  check.each(
    named([
      { expr: { sum: [1, 'x', 2] }, description: 'Number expected, String provided.', position: ['sum'] },
      { expr: { mean: [1, null] }, description: 'Number expected, Null provided.', position: ['mean'] },
      { expr: { sum: [1, [2]] }, description: 'Number expected, Array provided.', position: ['sum'] },
      { expr: { any: [true, 'x'] }, description: 'Boolean expected, String provided.', position: ['any'] },
      { expr: { all: [false, 1] }, description: 'Boolean expected, Integer provided.', position: ['all'] },
      {
        expr: { let: [{ xs: [true, 1] }], in: { any: { var: 'xs' } } },
        description: 'Boolean expected, Integer provided.',
        position: ['in', 'any'],
      },
    ]),
  )(['FN-AGG-005'], 'a wrong element type answers invalid argument at the argument: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      { expr: { count: 1 }, type: 'Integer', position: ['count'] },
      { expr: { sum: 'abc' }, type: 'String', position: ['sum'] },
      { expr: { mean: literal({ a: 1 }) }, type: 'Object', position: ['mean'] },
      { expr: { any: null }, type: 'Null', position: ['any'] },
      { expr: { all: true }, type: 'Boolean', position: ['all'] },
      { expr: { is_empty: 1 }, type: 'Integer', position: ['is_empty'] },
      { expr: { is_nonempty: 'x' }, type: 'String', position: ['is_nonempty'] },
      { expr: { reverse: decimal('1.5') }, type: 'Double', position: ['reverse'] },
      { expr: { count: { collection: 'agg_items' } }, type: 'Collection Ref', position: ['count'] },
    ]),
  )(
    ['FN-AGG-009'],
    'a value that is neither an array, a page nor a set answers invalid argument: $name',
    async ({ expr, type, position }) => {
      await expectFailure(t.server, expr, 400, 'invalid argument', `Array, Set, or Page expected, ${type} provided.`, position);
    },
  );
});

describe.concurrent('Aggregates of sets and pages', () => {
  check.each([
    { group: 'ints', count: 3n, sum: 6n, mean: 2 },
    { group: 'mixed', count: 2n, sum: 3.5, mean: 1.75 },
    { group: 'nobody', count: 0n, sum: 0n },
  ])(
    ['FN-AGG-001', 'FN-AGG-002', 'FN-AGG-003', 'FN-AGG-007'],
    'Count, Sum and Mean of a Match with covered values (group $group)',
    async ({ group, count, sum, mean }) => {
      expect(await resultOf(t.server, { count: byGroup(group) })).toEqual(count);
      expect(await resultOf(t.server, { sum: byGroup(group) })).toEqual(sum);
      if (mean === undefined)
        await expectFailure(t.server, { mean: byGroup(group) }, 400, 'invalid argument', 'Non-empty array expected.', ['mean']);
      else expect(await resultOf(t.server, { mean: byGroup(group) })).toBe(mean);
    },
  );

  check(['FN-AGG-004', 'FN-AGG-007'], 'Any and All of a Match read the set’s boolean values', async () => {
    expect(
      await resultOf(t.server, [
        { any: byGroup('bools') },
        { all: byGroup('bools') },
        { all: byGroup('trues') },
        { any: byGroup('nobody') },
        { all: byGroup('nobody') },
      ]),
    ).toEqual([true, false, true, false, true]);
  });

  check(
    ['FN-AGG-005', 'FN-AGG-007'],
    'Sum and Any of a set with a value of the wrong type answer invalid argument at the argument',
    async () => {
      await expectFailure(t.server, { sum: byGroup('bad') }, 400, 'invalid argument', 'Number expected, String provided.', ['sum']);
      await expectFailure(t.server, { any: byGroup('ints') }, 400, 'invalid argument', 'Boolean expected, Integer provided.', ['any']);
      await expectFailure(t.server, { sum: refsSet() }, 400, 'invalid argument', 'Number expected, Ref provided.', ['sum']);
    },
  );

  check(
    ['FN-AGG-001', 'FN-AGG-007'],
    'Count of Documents, a Union and Collections() equals the number of entries Paginate returns',
    async () => {
      const sets = [
        { documents: collection('agg_refs_only') },
        { union: [byGroup('ints'), byGroup('bools')] },
        { collections: null },
        refsSet(),
      ];
      for (const set of sets) {
        const page = (await resultOf(t.server, { paginate: set, size: 1000 })) as { data: unknown[] };
        expect(await resultOf(t.server, { count: set }), JSON.stringify(set)).toEqual(BigInt(page.data.length));
      }
      expect(await resultOf(t.server, { count: { documents: collection('agg_refs_only') } })).toEqual(6n);
    },
  );

  check(['FN-AGG-006'], 'Count, Sum, Mean, Any and All of a page answer a page holding the result, with its cursors', async () => {
    const { second, secondExpr } = await refPages();
    const { before, after } = second as { before: unknown; after: unknown };
    expect(await resultOf(t.server, { count: secondExpr })).toEqual({ before, after, data: [2n] });
    const values = { paginate: byGroup('ints'), size: 2 };
    const valuesPage = (await resultOf(t.server, values)) as { after: unknown };
    expect(await resultOf(t.server, { sum: values })).toEqual({ after: valuesPage.after, data: [3n] });
    expect(await resultOf(t.server, { mean: values })).toEqual({ after: valuesPage.after, data: [1.5] });
    expect(await resultOf(t.server, { any: { paginate: byGroup('bools') } })).toEqual({ data: [true] });
    expect(await resultOf(t.server, { all: { paginate: byGroup('bools') } })).toEqual({ data: [false] });
    expect(await resultOf(t.server, { count: { paginate: byGroup('nobody') } })).toEqual({ data: [0n] });
    await expectFailure(t.server, { mean: { paginate: byGroup('nobody') } }, 400, 'invalid argument', 'Non-empty array expected.', [
      'mean',
    ]);
  });

  check(['FN-AGG-008'], 'IsEmpty and IsNonEmpty of arrays, pages and sets', async () => {
    const cases: Array<[unknown, boolean]> = [
      [[], true],
      [[null], false],
      [{ paginate: byGroup('nobody') }, true],
      [{ paginate: byGroup('ints') }, false],
      [byGroup('nobody'), true],
      [byGroup('ints'), false],
      [{ documents: collection('agg_refs_only') }, false],
    ];
    for (const [collectionExpr, empty] of cases) {
      expect(await resultOf(t.server, { is_empty: collectionExpr }), JSON.stringify(collectionExpr)).toBe(empty);
      expect(await resultOf(t.server, { is_nonempty: collectionExpr }), JSON.stringify(collectionExpr)).toBe(!empty);
    }
  });

  check.each(['count', 'sum', 'mean', 'any', 'all', 'is_empty', 'is_nonempty'])(
    ['FN-AGG-010'],
    '%s of a Match on an index a client key may not read answers 403 permission denied',
    async (name) => {
      expectQueryError(await t.client.query({ [name]: byGroup('ints') }), [403, 'permission denied']);
    },
  );
});

describe.concurrent('Take and Drop', () => {
  check.each(
    named([
      { expr: { take: 2, collection: [1, 2, 3] }, expected: [1n, 2n] },
      { expr: { take: 5, collection: [1, 2, 3] }, expected: [1n, 2n, 3n] },
      { expr: { take: 0, collection: [1, 2, 3] }, expected: [] },
      { expr: { take: -1, collection: [1, 2, 3] }, expected: [] },
      { expr: { drop: 2, collection: [1, 2, 3] }, expected: [3n] },
      { expr: { drop: 5, collection: [1, 2, 3] }, expected: [] },
      { expr: { drop: 0, collection: [1, 2, 3] }, expected: [1n, 2n, 3n] },
      { expr: { drop: -1, collection: [1, 2, 3] }, expected: [1n, 2n, 3n] },
    ]),
  )(['FN-ARR-001'], 'Take and Drop of an array: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check(['FN-ARR-002'], 'Take and Drop of a page slice data and keep or move the cursors', async () => {
    const { refs, first, second, firstExpr, secondExpr } = await refPages();
    const { before, after } = second as { before: unknown; after: unknown };
    expect(await resultOf(t.server, { take: -1, collection: secondExpr })).toEqual({ before, after: before, data: [] });
    expect(await resultOf(t.server, { take: 5, collection: secondExpr })).toEqual(second);
    expect(await resultOf(t.server, { take: 2, collection: secondExpr })).toEqual(second);
    expect(await resultOf(t.server, { drop: -1, collection: secondExpr })).toEqual(second);
    expect(await resultOf(t.server, { drop: 2, collection: secondExpr })).toEqual({ before: after, after, data: [] });
    expect(await resultOf(t.server, { drop: 9, collection: secondExpr })).toEqual({ before: after, after, data: [] });
    // The first page has no `before`, so Take of a negative count leaves it without cursors.
    expect(await resultOf(t.server, { take: -1, collection: firstExpr })).toEqual({ data: [] });
    expect(await resultOf(t.server, { drop: 3, collection: firstExpr })).toEqual({
      before: (first as { after: unknown }).after,
      after: (first as { after: unknown }).after,
      data: [],
    });
    expect(refs).toHaveLength(6);
  });

  check(['FN-ARR-003'], 'Take and Drop inside a page of refs move the cursor to the element where the slice ends', async () => {
    const { refs, second, secondExpr } = await refPages();
    const { before, after } = second as { before: unknown; after: unknown };
    const taken = (await resultOf(t.server, { take: 1, collection: secondExpr })) as { after: unknown };
    expect(taken).toEqual({ before, after: [refs[3]], data: [refs[2]] });
    const dropped = (await resultOf(t.server, { drop: 1, collection: secondExpr })) as { before: unknown };
    expect(dropped).toEqual({ before: [refs[3]], after, data: [refs[3]] });
    // The new cursor pages on from the element it names.
    expect(await resultOf(t.server, { paginate: refsSet(), size: 1, after: taken.after })).toMatchObject({ data: [refs[3]] });
    expect(await resultOf(t.server, { drop: 0, collection: { paginate: refsSet(), size: 2 } })).toEqual({
      before: [refs[0]],
      after: [refs[2]],
      data: [refs[0], refs[1]],
    });
  });

  check.each(
    named([
      { expr: { take: decimal('1.5'), collection: [1] }, description: 'Integer expected, Double provided.', position: ['take'] },
      { expr: { drop: '1', collection: [1] }, description: 'Integer expected, String provided.', position: ['drop'] },
      { expr: { take: 1, collection: 1 }, description: 'Array or Page expected, Integer provided.', position: ['collection'] },
      {
        expr: { drop: 1, collection: literal({ a: 1 }) },
        description: 'Array or Page expected, Object provided.',
        position: ['collection'],
      },
      { expr: { take: 1, collection: match('agg_refs') }, description: 'Array or Page expected, Set provided.', position: ['collection'] },
      {
        expr: { take: 1, collection: { databases: null } },
        description: 'Array or Page expected, Collection Ref provided.',
        position: ['collection'],
      },
    ]),
  )(['FN-ARR-004'], 'Take and Drop refuse wrong arguments: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });
});

describe.concurrent('Append, Prepend and Reverse', () => {
  check(['FN-ARR-010'], 'Append and Prepend may refuse to build an array of more than 1,048,576 elements', async () => {
    // Each binding appends the previous array to itself: x18 would hold 8 × 2^18 = 2,097,152 elements. The limit is
    // this project's (a MAY): the real service builds the array, so its count is accepted too.
    const bindings: unknown[] = [{ x0: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n] }];
    for (let i = 1; i <= 18; i++)
      bindings.push({ [`x${i}`]: { [i % 2 ? 'append' : 'prepend']: { var: `x${i - 1}` }, collection: { var: `x${i - 1}` } } });
    const res = await t.server.query({ let: bindings, in: { count: { var: 'x18' } } });
    expectRefusedOrBuilt(res, ['let', 18n, 'x18'], (count) => expect(count).toBe(2097152n), 'array length must be <= 1048576');
    expect(await resultOf(t.server, { let: bindings.slice(0, 18), in: { count: { var: 'x17' } } })).toBe(1048576n);
  });

  check.each(
    named([
      { expr: { append: [3, 4], collection: [1, 2] }, expected: [1n, 2n, 3n, 4n] },
      { expr: { prepend: [3, 4], collection: [1, 2] }, expected: [3n, 4n, 1n, 2n] },
      { expr: { append: 1, collection: [2] }, expected: [2n, 1n] },
      { expr: { prepend: 1, collection: [2] }, expected: [1n, 2n] },
      { expr: { append: [], collection: [1] }, expected: [1n] },
      { expr: { prepend: [[1]], collection: [] }, expected: [[1n]] },
    ]),
  )(['FN-ARR-005'], 'Append and Prepend: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each(
    named([
      { expr: { append: [1], collection: 2 }, type: 'Integer' },
      { expr: { prepend: [1], collection: literal({ a: 1 }) }, type: 'Object' },
      { expr: { append: [1], collection: { paginate: match('agg_refs') } }, type: 'Page' },
      { expr: { prepend: [1], collection: match('agg_refs') }, type: 'Set' },
    ]),
  )(['FN-ARR-006'], 'Append and Prepend need an array: $name', async ({ expr, type }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', `Array expected, ${type} provided.`, ['collection']);
  });

  check(['FN-ARR-007'], 'Reverse of an array and of a page', async () => {
    expect(await resultOf(t.server, { reverse: [1, 'b', null] })).toEqual([null, 'b', 1n]);
    expect(await resultOf(t.server, { reverse: [] })).toEqual([]);
    const { second, secondExpr } = await refPages();
    const page = second as { before: unknown; after: unknown; data: unknown[] };
    expect(await resultOf(t.server, { reverse: secondExpr })).toEqual({
      before: page.before,
      after: page.after,
      data: [...page.data].reverse(),
    });
  });

  check(['FN-ARR-008'], 'Paginate(Reverse(set)) pages the set last entry first, and its cursors continue in that order', async () => {
    const { refs } = await refPages();
    const valuesAll = (await resultOf(t.server, { paginate: byGroup('ints'), size: 100 })) as { data: unknown[] };
    for (const [set, expected] of [
      [refsSet(), refs],
      [byGroup('ints'), valuesAll.data],
    ] as const) {
      const walked: unknown[] = [];
      let page = (await resultOf(t.server, { paginate: { reverse: set }, size: 2 })) as { data: unknown[]; after?: unknown };
      walked.push(...page.data);
      while (page.after !== undefined && walked.length < expected.length + 2) {
        page = (await resultOf(t.server, { paginate: { reverse: set }, size: 2, after: page.after })) as {
          data: unknown[];
          after?: unknown;
        };
        walked.push(...page.data);
      }
      expect(walked).toEqual([...expected].reverse());
    }
    expect(await resultOf(t.server, { paginate: { reverse: { reverse: refsSet() } }, size: 100 })).toEqual({ data: refs });
  });
});
