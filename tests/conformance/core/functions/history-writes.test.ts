// FQL v4's Insert and Remove (profile v4-functions, spec/requirements/functions-history-writes.md): writing events
// into, and taking them out of, a document's past. Integers parse to bigint.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../../harness/index.js';
import {
  collection,
  createIndex,
  createKey,
  docRef,
  expectQueryError,
  literal,
  match,
  roleKeySecret,
  timeOf,
  txnTime,
} from '../../../harness/v4.js';
import { expectFailure, expectInvalidArgument, expectResult, resultOf } from './function-cases.js';

const t = useTenant();

const COLL = 'histw_docs';
const BY_TAG = 'histw_by_tag';
const UNIQUE_U = 'histw_unique_u';
const SECONDS = 1_000_000n;

const insert = (ref: unknown, ts: unknown, action: unknown, data?: Record<string, unknown>): unknown =>
  data === undefined ? { insert: ref, ts, action } : { insert: ref, ts, action, params: literal({ data }) };
const remove = (ref: unknown, ts: unknown, action: unknown): unknown => ({ remove: ref, ts, action });
const get = (ref: unknown, ts?: unknown): unknown => (ts === undefined ? { get: ref } : { get: ref, ts });
const eventTimes = async (ref: unknown): Promise<bigint[]> =>
  ((await resultOf(t.server, { paginate: { events: ref }, size: 100n })).data as Array<{ ts: bigint }>).map((e) => e.ts);
const tagged = (tag: string): unknown => ({ paginate: match(BY_TAG, tag) });

let nextId = 1;
/** A fresh document of COLL created with `data`: its ref (a value) and creation time. */
async function aDocument(data: Record<string, unknown>): Promise<{ ref: unknown; ts: bigint }> {
  const res = (await t.server.query({ create: docRef(COLL, String(nextId++)), params: literal({ data }) })).expectStatus(201);
  return { ref: (res.resource as { ref: unknown }).ref, ts: txnTime(res) };
}

beforeAll(async () => {
  // history_days is explicit so that the past written here is within retention on any server.
  (await t.server.query({ create_collection: literal({ name: COLL, history_days: 30n }) })).expectStatus(201);
  (
    await t.server.query(
      createIndex({ name: BY_TAG, source: collection(COLL), terms: [{ field: ['data', 'tag'] }], values: [{ field: ['data', 'v'] }] }),
    )
  ).expectStatus(201);
  (
    await t.server.query(createIndex({ name: UNIQUE_U, source: collection(COLL), terms: [{ field: ['data', 'u'] }], unique: true }))
  ).expectStatus(201);
});

describe("Insert writes an event into a document's past", () => {
  check.each([
    { name: 'an integer of microseconds', given: (ts: bigint): unknown => ts },
    { name: 'a time', given: (ts: bigint): unknown => timeOf(ts) },
  ])(['FN-HISTW-001'], 'a create at $name answers the event and Get at that time reads it', async ({ given }) => {
    const doc = await aDocument({ v: 1n });
    const ts = doc.ts - 10n * SECONDS;
    expectResult(await t.server.query(insert(doc.ref, given(ts), 'create', { v: 0n })), {
      ts,
      action: 'create',
      document: doc.ref,
      data: { v: 0n },
    });
    expect(await resultOf(t.server, get(doc.ref, ts))).toStrictEqual({ ref: doc.ref, ts, data: { v: 0n } });
    expect(await resultOf(t.server, get(doc.ref, ts + 1n))).toStrictEqual({ ref: doc.ref, ts, data: { v: 0n } });
    expectQueryError(await t.server.query(get(doc.ref, ts - 1n)), [404, 'instance not found']);
    expect(await resultOf(t.server, get(doc.ref))).toStrictEqual({ ref: doc.ref, ts: doc.ts, data: { v: 1n } });
  });

  // The events below go between an earlier version, itself inserted, and the document's create: two requests in a
  // row may commit a microsecond apart, leaving no time between them.
  check(['FN-HISTW-002'], 'an update stores its params as the whole document (nothing merged) and answers a create event', async () => {
    const doc = await aDocument({ v: 2n, keep: 'x' });
    const early = doc.ts - 20n * SECONDS;
    const ts = doc.ts - 10n * SECONDS;
    (await t.server.query(insert(doc.ref, early, 'create', { v: 1n, keep: 'x' }))).expectStatus(200);
    expectResult(await t.server.query(insert(doc.ref, ts, 'update', { v: 9n })), {
      ts,
      action: 'create',
      document: doc.ref,
      data: { v: 9n },
    });
    expect(await resultOf(t.server, get(doc.ref, ts))).toStrictEqual({ ref: doc.ref, ts, data: { v: 9n } });
    expect(await resultOf(t.server, get(doc.ref))).toStrictEqual({ ref: doc.ref, ts: doc.ts, data: { v: 2n, keep: 'x' } });
  });

  check(['FN-HISTW-003'], 'a delete answers a delete event with null data, and Get at that time answers instance not found', async () => {
    const doc = await aDocument({ v: 2n });
    const early = doc.ts - 20n * SECONDS;
    const ts = doc.ts - 10n * SECONDS;
    (await t.server.query(insert(doc.ref, early, 'create', { v: 1n }))).expectStatus(200);
    expectResult(await t.server.query(insert(doc.ref, ts, 'delete')), { ts, action: 'delete', document: doc.ref, data: null });
    expectQueryError(await t.server.query(get(doc.ref, ts)), [404, 'instance not found']);
    expect(await resultOf(t.server, get(doc.ref, early))).toStrictEqual({ ref: doc.ref, ts: early, data: { v: 1n } });
    expect(await eventTimes(doc.ref)).toStrictEqual([early, ts, doc.ts]);
  });

  check(['FN-HISTW-004'], 'an event at the time of an existing version replaces that version', async () => {
    const doc = await aDocument({ v: 1n });
    const res = (await t.server.query({ update: doc.ref, params: literal({ data: { v: 2n } }) })).expectStatus(200);
    (await t.server.query(insert(doc.ref, doc.ts, 'create', { v: 7n }))).expectStatus(200);
    expect(await resultOf(t.server, get(doc.ref, doc.ts))).toStrictEqual({ ref: doc.ref, ts: doc.ts, data: { v: 7n } });
    expect(await eventTimes(doc.ref)).toStrictEqual([doc.ts, txnTime(res)]);
  });

  check(['FN-HISTW-005'], 'the events of the document hold the inserted event at its time', async () => {
    const doc = await aDocument({ v: 1n });
    const early = doc.ts - 20n * SECONDS;
    const gone = doc.ts - 10n * SECONDS;
    (await t.server.query([insert(doc.ref, early, 'create', { v: 0n }), insert(doc.ref, gone, 'delete')])).expectStatus(200);
    const page = await resultOf(t.server, { paginate: { events: doc.ref } });
    expect(page.data[0]).toStrictEqual({ ts: early, action: 'create', document: doc.ref, data: { v: 0n } });
    expect(page.data[1]).toStrictEqual({ ts: gone, action: 'delete', document: doc.ref, data: null });
    expect(page.data.map((e: { ts: bigint }) => e.ts)).toStrictEqual([early, gone, doc.ts]);
  });

  check(['FN-HISTW-005'], 'a live version inserted after a live one is listed as an update, and so is the version after it', async () => {
    const doc = await aDocument({ v: 1n, keep: 'x' });
    const later = txnTime((await t.server.query({ update: doc.ref, params: literal({ data: { v: 2n } }) })).expectStatus(200));
    const early = doc.ts - 20n * SECONDS;
    const between = doc.ts - 10n * SECONDS;
    (await t.server.query(insert(doc.ref, early, 'create', { v: 0n, keep: 'x' }))).expectStatus(200);
    (await t.server.query(insert(doc.ref, between, 'update', { v: 5n }))).expectStatus(200);
    const page = await resultOf(t.server, { paginate: { events: doc.ref } });
    // Only the first live version is a create; each later one holds what changed since the version before it (a
    // field gone is null), the document's original create included.
    expect(page.data).toStrictEqual([
      { ts: early, action: 'create', document: doc.ref, data: { v: 0n, keep: 'x' } },
      { ts: between, action: 'update', document: doc.ref, data: { v: 5n, keep: null } },
      { ts: doc.ts, action: 'update', document: doc.ref, data: { v: 1n, keep: 'x' } },
      { ts: later, action: 'update', document: doc.ref, data: { v: 2n } },
    ]);
    // Get at the inserted time still answers the whole version.
    expect(await resultOf(t.server, get(doc.ref, between))).toStrictEqual({ ref: doc.ref, ts: between, data: { v: 5n } });
  });

  check(['FN-HISTW-006'], 'an inserted event that becomes the newest version is what Get and index reads see', async () => {
    const doc = await aDocument({ tag: 'first', v: 1n });
    const res = (await t.server.query({ update: doc.ref, params: literal({ data: { tag: 'second', v: 2n } }) })).expectStatus(200);
    const ts = txnTime(res);
    (await t.server.query(insert(doc.ref, ts, 'update', { tag: 'third', v: 3n }))).expectStatus(200);
    expect(await resultOf(t.server, get(doc.ref))).toStrictEqual({ ref: doc.ref, ts, data: { tag: 'third', v: 3n } });
    expect((await resultOf(t.server, tagged('third'))).data).toStrictEqual([3n]);
    expect((await resultOf(t.server, tagged('second'))).data).toStrictEqual([]);
    expect((await resultOf(t.server, tagged('first'))).data).toStrictEqual([]);
    // The index as of the first version still holds that version's entry.
    expect((await resultOf(t.server, { paginate: match(BY_TAG, 'first'), ts: doc.ts })).data).toStrictEqual([1n]);
  });

  check(['FN-HISTW-006'], 'a newest delete inserted makes the document gone for Get, Exists and the index', async () => {
    const doc = await aDocument({ tag: 'doomed', v: 1n });
    (await t.server.query(insert(doc.ref, doc.ts + 1n, 'delete'))).expectStatus(200);
    expectQueryError(await t.server.query(get(doc.ref)), [404, 'instance not found']);
    expectResult(await t.server.query({ exists: doc.ref }), false);
    expect((await resultOf(t.server, tagged('doomed'))).data).toStrictEqual([]);
  });

  check(['FN-HISTW-007'], 'an event for a document that never existed creates its history', async () => {
    const ref = await resultOf(t.server, docRef(COLL, '900100'));
    const now = txnTime(await t.server.query({ now: null }));
    const ts = now - 5n * SECONDS;
    expectResult(await t.server.query(insert(ref, ts, 'create', { tag: 'fresh', v: 4n })), {
      ts,
      action: 'create',
      document: ref,
      data: { tag: 'fresh', v: 4n },
    });
    expect(await resultOf(t.server, get(ref))).toStrictEqual({ ref, ts, data: { tag: 'fresh', v: 4n } });
    expect((await resultOf(t.server, tagged('fresh'))).data).toStrictEqual([4n]);
  });

  check(
    ['FN-HISTW-008'],
    'a time later than the transaction answers 400 invalid write time at the form; the transaction time itself is accepted',
    async () => {
      const doc = await aDocument({ v: 1n });
      const future = { time_add: { now: null }, offset: 1n, unit: 'second' };
      await expectFailure(
        t.server,
        insert(doc.ref, future, 'create'),
        400,
        'invalid write time',
        'Cannot write outside of snapshot time.',
        [],
      );
      const res = (await t.server.query(insert(doc.ref, { now: null }, 'create', { v: 5n }))).expectStatus(200);
      expect(res.resource).toStrictEqual({ ts: txnTime(res), action: 'create', document: doc.ref, data: { v: 5n } });
      expect(await resultOf(t.server, get(doc.ref))).toStrictEqual({ ref: doc.ref, ts: txnTime(res), data: { v: 5n } });
    },
  );

  check(['FN-HISTW-009'], 'an Insert without params stores a version without data (data null, or {})', async () => {
    const doc = await aDocument({ v: 1n });
    const ts = doc.ts - SECONDS;
    const res = (await t.server.query(insert(doc.ref, ts, 'create'))).expectStatus(200);
    // The real service answers data null and Get shows no data field; a server may store and answer data {}.
    expect(
      [
        { ts, action: 'create', document: doc.ref, data: null },
        { ts, action: 'create', document: doc.ref, data: {} },
      ],
      res.explain('answered another event'),
    ).toContainEqual(res.resource);
    expect([
      { ref: doc.ref, ts },
      { ref: doc.ref, ts, data: {} },
    ]).toContainEqual(await resultOf(t.server, get(doc.ref, ts)));
  });
});

describe("Remove takes an event out of a document's past", () => {
  check(['FN-HISTW-010'], 'removing events answers null and reads at their times see the history without them', async () => {
    const doc = await aDocument({ v: 1n });
    const ts = doc.ts - 10n * SECONDS;
    (await t.server.query([insert(doc.ref, ts, 'create', { v: 0n }), insert(doc.ref, ts + 1n, 'delete')])).expectStatus(200);
    expectResult(await t.server.query(remove(doc.ref, ts + 1n, 'delete')), null);
    expect(await resultOf(t.server, get(doc.ref, ts + 1n))).toStrictEqual({ ref: doc.ref, ts, data: { v: 0n } });
    expectResult(await t.server.query(remove(doc.ref, timeOf(ts), 'create')), null);
    expectQueryError(await t.server.query(get(doc.ref, ts)), [404, 'instance not found']);
    expect(await eventTimes(doc.ref)).toStrictEqual([doc.ts]);
  });

  check(['FN-HISTW-011'], 'create and update both remove the live version at the time; a delete names only a delete', async () => {
    const doc = await aDocument({ v: 1n });
    const res = (await t.server.query({ update: doc.ref, params: literal({ data: { v: 2n } }) })).expectStatus(200);
    expectResult(await t.server.query(remove(doc.ref, doc.ts, 'delete')), null);
    expect(await eventTimes(doc.ref)).toStrictEqual([doc.ts, txnTime(res)]);
    expectResult(await t.server.query(remove(doc.ref, doc.ts - 1n, 'create')), null);
    expect(await eventTimes(doc.ref)).toStrictEqual([doc.ts, txnTime(res)]);
    expectResult(await t.server.query(remove(doc.ref, doc.ts, 'update')), null);
    expect(await eventTimes(doc.ref)).toStrictEqual([txnTime(res)]);
  });

  check(['FN-HISTW-012'], 'removing the newest version makes the one before it what Get and index reads see', async () => {
    const doc = await aDocument({ tag: 'A', v: 1n });
    const b = (await t.server.query({ update: doc.ref, params: literal({ data: { tag: 'B' } }) })).expectStatus(200);
    const c = (await t.server.query({ update: doc.ref, params: literal({ data: { tag: 'A', v: 2n } }) })).expectStatus(200);
    expectResult(await t.server.query(remove(doc.ref, txnTime(b), 'update')), null);
    expect((await resultOf(t.server, tagged('A'))).data).toStrictEqual([2n]);
    expectResult(await t.server.query(remove(doc.ref, txnTime(c), 'update')), null);
    expect(await resultOf(t.server, get(doc.ref))).toStrictEqual({ ref: doc.ref, ts: doc.ts, data: { tag: 'A', v: 1n } });
    expect((await resultOf(t.server, tagged('A'))).data).toStrictEqual([1n]);
    expectResult(await t.server.query(remove(doc.ref, doc.ts, 'create')), null);
    expectQueryError(await t.server.query(get(doc.ref)), [404, 'instance not found']);
    expect((await resultOf(t.server, tagged('A'))).data).toStrictEqual([]);
  });

  check(
    ['FN-HISTW-016'],
    'an edit that makes a newest version clash with a unique index is either applied or refused with instance not unique, writing nothing',
    async () => {
      const notUnique = `Document is not unique in index '${UNIQUE_U}'.`;
      /** Either 200 with the edit applied (the real service checks nothing) or 400 instance not unique with nothing written. */
      const expectAppliedOrRefused = async (
        edit: unknown,
        ref: unknown,
        applied: unknown,
        unchanged: unknown,
        answer: (res: Response) => unknown,
      ) => {
        const res = await t.server.query(edit);
        if (res.status === 200) {
          expect(res.resource, res.explain('answered another value')).toStrictEqual(answer(res));
          expect(await resultOf(t.server, get(ref))).toStrictEqual(applied);
          return;
        }
        const error = expectQueryError(res, [400, 'instance not unique']);
        expect(error).toMatchObject({ description: notUnique, position: [] });
        expect(await resultOf(t.server, get(ref))).toStrictEqual(unchanged);
      };
      await aDocument({ u: 'histw-taken-1' });
      const b = await aDocument({ u: 'histw-free-1' });
      await expectAppliedOrRefused(
        insert(b.ref, { now: null }, 'create', { u: 'histw-taken-1' }),
        b.ref,
        expect.objectContaining({ ref: b.ref, data: { u: 'histw-taken-1' } }),
        { ref: b.ref, ts: b.ts, data: { u: 'histw-free-1' } },
        (res) => ({ ts: txnTime(res), action: 'create', document: b.ref, data: { u: 'histw-taken-1' } }),
      );
      // An older version that clashes is harmless until removing the newest one uncovers it.
      await aDocument({ u: 'histw-taken-2' });
      const c = await aDocument({ u: 'histw-free-2' });
      (await t.server.query(insert(c.ref, c.ts - SECONDS, 'create', { u: 'histw-taken-2' }))).expectStatus(200);
      await expectAppliedOrRefused(
        remove(c.ref, c.ts, 'create'),
        c.ref,
        { ref: c.ref, ts: c.ts - SECONDS, data: { u: 'histw-taken-2' } },
        { ref: c.ref, ts: c.ts, data: { u: 'histw-free-2' } },
        () => null,
      );
    },
  );
});

describe('Insert and Remove check their arguments', () => {
  const someRef = docRef(COLL, '1');
  check.each([
    {
      name: 'Insert with an action not a string',
      expr: insert(someRef, 1n, 1n),
      position: ['action'],
      description: "String 'create', 'update', or 'delete' expected, Integer provided.",
    },
    {
      name: 'Insert with an unknown action',
      expr: insert(someRef, 1n, 'modify'),
      position: ['action'],
      description: "String 'create', 'update', or 'delete' expected, String provided.",
    },
    {
      name: 'Remove with an unknown action',
      expr: remove(someRef, 1n, 'add'),
      position: ['action'],
      description: "String 'create', 'update', or 'delete' expected, String provided.",
    },
    {
      name: 'Insert with a string time',
      expr: insert(someRef, '2020-01-01', 'create'),
      position: ['ts'],
      description: 'Time expected, String provided.',
    },
    {
      name: 'Remove with a date',
      expr: remove(someRef, { '@date': '2020-01-01' }, 'create'),
      position: ['ts'],
      description: 'Time expected, Date provided.',
    },
    {
      name: 'Insert of a string',
      expr: insert('histw_docs/1', 1n, 'create'),
      position: ['insert'],
      description: 'Ref expected, String provided.',
    },
    { name: 'Remove of null', expr: remove(null, 1n, 'create'), position: ['remove'], description: 'Ref expected, Null provided.' },
    {
      name: 'Insert with params not an object',
      expr: { insert: someRef, ts: 1n, action: 'create', params: 'x' },
      position: ['params'],
      description: 'Object expected, String provided.',
    },
    {
      name: 'Insert of a collection ref',
      expr: insert(collection(COLL), 1n, 'create'),
      position: [],
      description: 'Cannot insert event for specified ref.',
    },
    {
      name: 'Insert of an index ref',
      expr: insert({ index: BY_TAG }, 1n, 'create'),
      position: [],
      description: 'Cannot insert event for specified ref.',
    },
    {
      name: 'Insert of a native collection',
      expr: insert({ '@ref': { id: 'tokens' } }, 1n, 'create'),
      position: [],
      description: 'Cannot insert event for specified ref.',
    },
    {
      name: 'Remove of a collection ref',
      expr: remove(collection(COLL), 1n, 'create'),
      position: [],
      description: 'Cannot remove event for specified ref.',
    },
  ])(['FN-HISTW-013'], '$name answers invalid argument', async ({ expr, position, description }) => {
    expectInvalidArgument(await t.server.query(expr), position, description);
  });

  check(['FN-HISTW-014'], 'a document of a collection that does not exist answers 400 invalid ref at the ref', async () => {
    const ref = docRef('histw_no_such_collection', '1');
    for (const [expr, key] of [
      [insert(ref, 1n, 'create'), 'insert'],
      [remove(ref, 1n, 'create'), 'remove'],
    ] as const) {
      const error = expectQueryError(await t.server.query(expr), [400, 'invalid ref']);
      expect(error.position).toEqual([key]);
      expect(error.description).toBe("Ref refers to undefined collection 'histw_no_such_collection'");
    }
  });

  check(
    ['FN-HISTW-015'],
    'writing history needs history_write: a role with create, write and delete only answers 403 at the form',
    async () => {
      const obj = (fields: Record<string, unknown>) => ({ object: fields });
      const role = (name: string, actions: Record<string, unknown>) => ({
        create_role: obj({ name, privileges: [obj({ resource: collection(COLL), actions: obj(actions) })] }),
      });
      (
        await t.admin.query([
          role('histw_writer', { history_write: true }),
          role('histw_plain', { read: true, create: true, write: true, delete: true }),
        ])
      ).expectStatus(200, 201);
      const writer = t.as(await roleKeySecret(t.admin, 'histw_writer'));
      const plain = t.as(await roleKeySecret(t.admin, 'histw_plain'));
      const doc = await aDocument({ v: 1n });
      const ts = doc.ts - SECONDS;
      await expectFailure(
        plain,
        insert(doc.ref, ts, 'create', { v: 0n }),
        403,
        'permission denied',
        'Insufficient privileges to perform the action.',
        [],
      );
      await expectFailure(
        plain,
        remove(doc.ref, doc.ts, 'create'),
        403,
        'permission denied',
        'Insufficient privileges to perform the action.',
        [],
      );
      expectQueryError(await t.server.query(get(doc.ref, ts)), [404, 'instance not found']);
      expect((await writer.query(insert(doc.ref, ts, 'create', { v: 0n }))).expectStatus(200).resource).toStrictEqual({
        ts,
        action: 'create',
        document: doc.ref,
        data: { v: 0n },
      });
      expectResult(await writer.query(remove(doc.ref, ts, 'create')), null);
      expect(await eventTimes(doc.ref)).toStrictEqual([doc.ts]);
    },
  );

  check(['FN-HISTW-017'], 'a history_write predicate gets [ref, ts, action, fields] of the edit', async () => {
    const obj = (fields: Record<string, unknown>) => ({ object: fields });
    const doc = await aDocument({ v: 1n });
    const allowedAt = doc.ts - 10n * SECONDS;
    // An update is allowed only at one time; any other edit only when the fields written say mutable: true.
    const predicate = {
      query: {
        lambda: ['ref', 'ts', 'action', 'fields'],
        expr: {
          if: { equals: [{ var: 'action' }, 'update'] },
          then: { equals: [{ var: 'ts' }, timeOf(allowedAt)] },
          else: { and: [{ equals: [{ var: 'ref' }, doc.ref] }, { select: ['data', 'mutable'], from: { var: 'fields' }, default: false }] },
        },
      },
    };
    const role = {
      create_role: obj({
        name: 'histw_guarded',
        privileges: [obj({ resource: collection(COLL), actions: obj({ history_write: predicate }) })],
      }),
    };
    (await t.admin.query(role)).expectStatus(201);
    const guarded = t.as(
      (await t.admin.query(createKey(undefined, { role: 'histw_guarded' }))).expectStatus(201).resource.secret as string,
    );
    const denied = 'Insufficient privileges to perform the action.';
    const early = doc.ts - 20n * SECONDS;
    await expectFailure(guarded, insert(doc.ref, early, 'create', { mutable: false }), 403, 'permission denied', denied, []);
    expect((await guarded.query(insert(doc.ref, early, 'create', { mutable: true }))).expectStatus(200).resource).toMatchObject({
      ts: early,
      action: 'create',
    });
    await expectFailure(guarded, insert(doc.ref, allowedAt + 1n, 'update', { mutable: true }), 403, 'permission denied', denied, []);
    (await guarded.query(insert(doc.ref, allowedAt, 'update', { mutable: false }))).expectStatus(200);
    // Remove passes the fields of the version at that time: the create above said mutable: true.
    expectResult(await guarded.query(remove(doc.ref, early, 'create')), null);
    expect(await eventTimes(doc.ref)).toStrictEqual([allowedAt, doc.ts]);
  });
});
