// FQL v4's At (profile v4-functions, spec/requirements/functions-history.md): reads inside it see the database as
// it was at an earlier time; writes there are refused. Integers parse to bigint.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../../harness/index.js';
import { collection, createIndex, docRef, expectQueryError, literal, match, txnTime, timeOf, exists } from '../../../harness/v4.js';
import { expectInvalidArgument } from './function-cases.js';

const t = useTenant();

const COLL = 'hist_docs';
const BY_TAG = 'hist_by_tag';

const at = (ts: unknown, expr: unknown): unknown => ({ at: ts, expr });
const get = (ref: unknown, ts?: unknown): unknown => (ts === undefined ? { get: ref } : { get: ref, ts });
const update = (ref: unknown, data: Record<string, unknown>): unknown => ({ update: ref, params: literal({ data }) });
const NOW = { now: null };

const tagged = (extra: Record<string, unknown> = {}): unknown => ({ paginate: match(BY_TAG, 'x'), size: 100n, ...extra });

/** Document `a`: created at `a1` (v 1), updated at `a2` (v 2); `b` created at `b1` (v 5); `c` created at `c1`, deleted at `cDeleted`. */
const docs: Record<'a' | 'b' | 'c' | 'd', unknown> = { a: undefined, b: undefined, c: undefined, d: undefined };
const times = { a1: 0n, a2: 0n, b1: 0n, c1: 0n, cDeleted: 0n };

async function written(expr: unknown): Promise<{ ref: unknown; ts: bigint }> {
  const res = (await t.server.query(expr)).expectStatus(200, 201);
  return { ref: (res.resource as { ref: unknown }).ref, ts: txnTime(res) };
}

beforeAll(async () => {
  // history_days is explicit so that reads at an earlier time are within retention on any server.
  (await t.server.query({ create_collection: literal({ name: COLL, history_days: 30n }) })).expectStatus(201);
  (
    await t.server.query(
      createIndex({
        name: BY_TAG,
        source: collection(COLL),
        terms: [{ field: ['data', 'tag'] }],
        values: [{ field: ['data', 'v'] }, { field: ['ref'] }],
      }),
    )
  ).expectStatus(201);
  const a = await written({ create: docRef(COLL, '1'), params: literal({ data: { tag: 'x', v: 1n } }) });
  docs.a = a.ref;
  times.a1 = a.ts;
  times.a2 = (await written(update(docs.a, { v: 2n }))).ts;
  const b = await written({ create: docRef(COLL, '2'), params: literal({ data: { tag: 'x', v: 5n } }) });
  docs.b = b.ref;
  times.b1 = b.ts;
  const c = await written({ create: docRef(COLL, '3'), params: literal({ data: { tag: 'y' } }) });
  docs.c = c.ref;
  times.c1 = c.ts;
  times.cDeleted = (await written({ delete: docs.c })).ts;
  docs.d = (await written({ create: docRef(COLL, '4'), params: literal({ data: { n: 0n } }) })).ref;
});

async function resultOf(expr: unknown): Promise<unknown> {
  return (await t.server.query(expr)).expectStatus(200).resource;
}

function expectWriteRefused(res: Response, position: unknown[]): void {
  const error = expectQueryError(res, [400, 'invalid write time']);
  expect(error.description, res.explain('has another description')).toBe('Cannot write outside of snapshot time.');
  expect(error.position, res.explain('reports another position')).toEqual(position);
}

describe('At reads documents as of its time', () => {
  check.each([
    { name: 'creation time as an integer', ts: () => times.a1, v: 1n, versionTs: () => times.a1 },
    { name: 'creation time as a time', ts: () => timeOf(times.a1), v: 1n, versionTs: () => times.a1 },
    { name: 'just before the update', ts: () => times.a2 - 1n, v: 1n, versionTs: () => times.a1 },
    { name: 'the update time as a time', ts: () => timeOf(times.a2), v: 2n, versionTs: () => times.a2 },
    { name: 'a later time', ts: () => times.b1, v: 2n, versionTs: () => times.a2 },
  ])(['FN-HIST-001'], 'Get inside At of $name answers the version of that time', async ({ ts, v, versionTs }) => {
    const doc = (await resultOf(at(ts(), get(docs.a)))) as { ref: unknown; ts: bigint; data: unknown };
    expect(doc).toEqual({ ref: docs.a, ts: versionTs(), data: { tag: 'x', v } });
  });

  check(['FN-HIST-002'], 'Get inside At of a time before the document was created answers 404 instance not found at the Get', async () => {
    const res = await t.server.query(at(times.a1 - 1n, get(docs.a)));
    expect(expectQueryError(res, [404, 'instance not found']).position).toEqual(['expr']);
    const deleted = await t.server.query([1n, at(times.cDeleted, get(docs.c))]);
    expect(expectQueryError(deleted, [404, 'instance not found']).position).toEqual([1n, 'expr']);
  });

  check(['FN-HIST-002'], 'Exists inside At answers whether the document existed at that time', async () => {
    expect(
      await resultOf([
        at(times.a1 - 1n, exists(docs.a)),
        at(times.a1, exists(docs.a)),
        at(times.c1 - 1n, exists(docs.c)),
        at(times.c1, exists(docs.c)),
        at(times.cDeleted, exists(docs.c)),
        exists(docs.c),
      ]),
    ).toEqual([false, true, false, true, false, false]);
  });

  check(['FN-HIST-007'], 'Now inside At answers the transaction time, not the time of the At', async () => {
    const res = (await t.server.query([at(times.a1, NOW), NOW])).expectStatus(200);
    const [inside, outside] = res.resource as [unknown, unknown];
    expect(inside).toEqual(outside);
    expect(inside).not.toEqual(timeOf(times.a1));
  });
});

describe('At reads sets as of its time', () => {
  check.each([
    { name: 'before anything was tagged', ts: () => times.a1 - 1n, expected: () => [] },
    { name: 'after the first create', ts: () => times.a1, expected: () => [[1n, docs.a]] },
    { name: 'after the update', ts: () => times.a2, expected: () => [[2n, docs.a]] },
    {
      name: 'after the second create',
      ts: () => times.b1,
      expected: () => [
        [2n, docs.a],
        [5n, docs.b],
      ],
    },
  ])(['FN-HIST-003'], 'Paginate(Match) inside At $name holds the entries of that time', async ({ ts, expected }) => {
    expect(await resultOf(at(ts(), tagged()))).toEqual({ data: expected() });
  });

  check(['FN-HIST-003'], 'Paginate(Documents) inside At holds the documents of that time', async () => {
    const page = (ts: bigint) => at(ts, { paginate: { documents: collection(COLL) }, size: 100n });
    expect(await resultOf([page(times.a1 - 1n), page(times.a1), page(times.c1), page(times.cDeleted)])).toEqual([
      { data: [] },
      { data: [docs.a] },
      { data: [docs.a, docs.b, docs.c] },
      { data: [docs.a, docs.b] },
    ]);
  });

  check(['FN-HIST-004'], 'A ts given to Get or Paginate inside At, and an inner At, take precedence', async () => {
    const [got, page, nested] = (await resultOf([
      at(times.a1, get(docs.a, times.a2)),
      at(times.a1, tagged({ ts: times.b1 })),
      at(times.b1, at(times.a1, get(docs.a))),
    ])) as [{ data: unknown }, unknown, { data: unknown }];
    expect(got.data).toEqual({ tag: 'x', v: 2n });
    expect(page).toEqual({
      data: [
        [2n, docs.a],
        [5n, docs.b],
      ],
    });
    expect(nested.data).toEqual({ tag: 'x', v: 1n });
  });
});

describe('Writes inside At', () => {
  check.each([
    { name: 'Update', expr: () => at(times.a1, update(docs.a, { v: 9n })), position: ['expr'] },
    { name: 'Replace', expr: () => at(times.a1, { replace: docs.a, params: literal({ data: { v: 9n } }) }), position: ['expr'] },
    { name: 'Delete', expr: () => at(times.a1, { delete: docs.a }), position: ['expr'] },
    {
      name: 'Create',
      expr: () => at(times.a1, { create: collection(COLL), params: literal({ data: { tag: 'refused', v: 9n } }) }),
      position: ['expr'],
    },
    { name: 'Update at time 0', expr: () => at(0n, update(docs.a, { v: 9n })), position: ['expr'] },
    {
      name: 'CreateCollection',
      expr: () => at(times.a1, { create_collection: literal({ name: 'at_refused_collection' }) }),
      position: ['expr'],
    },
    { name: 'Update in an At nested in At(Now())', expr: () => at(NOW, at(0n, update(docs.a, { v: 9n }))), position: ['expr', 'expr'] },
    { name: 'Update in an array inside At', expr: () => at(times.a1, [1n, update(docs.a, { v: 9n })]), position: ['expr', 1n] },
  ])(
    ['FN-HIST-005'],
    '$name inside At of an earlier time answers 400 invalid write time and writes nothing',
    async ({ expr, position }) => {
      expectWriteRefused(await t.server.query(expr()), position);
      expect(await resultOf({ select: ['data'], from: get(docs.a) })).toEqual({ tag: 'x', v: 2n });
      expect(await resultOf({ paginate: match(BY_TAG, 'refused') })).toEqual({ data: [] });
      expect(await resultOf({ exists: { collection: 'at_refused_collection' } })).toBe(false);
    },
  );

  check(['FN-HIST-006'], 'At(Now()) and At(Time("now")) allow writes, also inside At of an earlier time', async () => {
    const writes = [
      at(NOW, update(docs.d, { n: 1n })),
      at({ time: 'now' }, update(docs.d, { n: 2n })),
      at(times.a1, at(NOW, update(docs.d, { n: 3n }))),
    ];
    const results = (await resultOf(writes)) as Array<{ data: { n?: unknown } }>;
    expect(results.map((doc) => doc.data.n)).toEqual([1n, 2n, 3n]);
    expect(await resultOf({ select: ['data', 'n'], from: get(docs.d) })).toEqual(3n);
  });

  check(['FN-HIST-006'], "At(Now()) reads the present, including the query's own writes", async () => {
    const res = await resultOf({
      let: [{ created: { create: collection(COLL), params: literal({ data: { own: true } }) } }],
      in: [
        at(times.a1, at(NOW, { select: ['data'], from: get({ select: ['ref'], from: { var: 'created' } }) })),
        at(times.a1, at(NOW, { select: ['data'], from: get(docs.a) })),
      ],
    });
    expect(res).toEqual([{ own: true }, { tag: 'x', v: 2n }]);
  });
});

describe('At arguments', () => {
  check.each([
    { name: 'a string', value: 'yesterday', provided: 'String' },
    { name: 'null', value: null, provided: 'Null' },
    { name: 'a boolean', value: true, provided: 'Boolean' },
    { name: 'a double', value: 1.5, provided: 'Double' },
    { name: 'a date', value: { '@date': '2020-01-01' }, provided: 'Date' },
    { name: 'an object', value: { object: { ts: 1n } }, provided: 'Object' },
  ])(['FN-HIST-008'], 'At with $name as time answers 400 invalid argument at ["at"]', async ({ value, provided }) => {
    expectInvalidArgument(await t.server.query(at(value, { abort: 'must not run' })), ['at'], `Time expected, ${provided} provided.`);
  });

  check(['FN-HIST-009'], 'At of a time later than the transaction time evaluates as if outside the At', async () => {
    const later = { '@ts': '2045-10-21T00:00:00Z' };
    const [read, write] = (await resultOf([
      at(later, { select: ['data'], from: get(docs.a) }),
      at(later, update(docs.d, { later: true })),
    ])) as [unknown, { data: unknown }];
    expect(read).toEqual({ tag: 'x', v: 2n });
    expect(write.data).toMatchObject({ later: true });
  });
});
