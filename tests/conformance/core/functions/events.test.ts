// FQL v4's Events (profile v4-functions, spec/requirements/functions-history.md): the history of a document or of a
// set as a set of events, paged with event cursors; Paginate with events: true. Integers parse to bigint.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Client } from '../../../harness/index.js';
import { collection, createIndex, docRef, literal, match, roleKeySecret, timeOf, txnTime } from '../../../harness/v4.js';
import { expectFailure, expectInvalidArgument, resultOf } from './function-cases.js';

const t = useTenant();

const COLL = 'ev_docs';
const MEMBERS = 'ev_members';
const TAGGED = 'ev_tagged';

const events = (source: unknown): unknown => ({ events: source });
const paginate = (set: unknown, opts: Record<string, unknown> = {}): unknown => ({ paginate: set, ...opts });

/** Document `a`'s writes, in order; `b` is created and kept. */
const times = { created: 0n, updated: 0n, replaced: 0n, deleted: 0n, recreated: 0n, bCreated: 0n };
let a: unknown;
let b: unknown;

async function written(client: Client, expr: unknown): Promise<{ ref: unknown; ts: bigint }> {
  const res = (await client.query(expr)).expectStatus(200, 201);
  return { ref: (res.resource as { ref: unknown }).ref, ts: txnTime(res) };
}

/** Document `a`'s history as the events the real service shows in API 4 (with `data`). */
function history(): Array<Record<string, unknown>> {
  return [
    { ts: times.created, action: 'create', document: a, data: { foo: 'bar', buzz: 'bing', nested: { x: 1n, y: 2n } } },
    { ts: times.updated, action: 'update', document: a, data: { foo: 'baz', nested: { x: 3n } } },
    { ts: times.replaced, action: 'update', document: a, data: { buzz: null, nested: null } },
    { ts: times.deleted, action: 'delete', document: a, data: null },
    { ts: times.recreated, action: 'create', document: a, data: { again: true } },
  ];
}

/** An event as a cursor: the event without its `data`. */
function cursorOf(event: Record<string, unknown>): Record<string, unknown> {
  const { data: _data, ...cursor } = event;
  return cursor;
}

beforeAll(async () => {
  // history_days is explicit so that the whole history is within retention on any server.
  (
    await t.server.query([
      { create_collection: literal({ name: COLL, history_days: 30n }) },
      { create_collection: literal({ name: MEMBERS, history_days: 30n }) },
      { create_collection: literal({ name: TAGGED, history_days: 30n }) },
    ])
  ).expectStatus(200, 201);
  (
    await t.server.query([
      createIndex({
        name: 'ev_by_tag',
        source: collection(TAGGED),
        terms: [{ field: ['data', 'tag'] }],
        values: [{ field: ['data', 'v'] }],
      }),
      createIndex({ name: 'ev_refs_by_tag', source: collection(TAGGED), terms: [{ field: ['data', 'tag'] }] }),
    ])
  ).expectStatus(200, 201);
  const created = await written(t.server, {
    create: docRef(COLL, '1'),
    params: literal({ data: { foo: 'bar', buzz: 'bing', nested: { x: 1n, y: 2n } } }),
  });
  a = created.ref;
  times.created = created.ts;
  times.updated = (await written(t.server, { update: a, params: literal({ data: { foo: 'baz', nested: { x: 3n } } }) })).ts;
  times.replaced = (await written(t.server, { replace: a, params: literal({ data: { foo: 'baz' } }) })).ts;
  times.deleted = (await written(t.server, { delete: a })).ts;
  times.recreated = (await written(t.server, { create: docRef(COLL, '1'), params: literal({ data: { again: true } }) })).ts;
  const bCreated = await written(t.server, { create: docRef(COLL, '2'), params: literal({ data: { n: 1n } }) });
  b = bCreated.ref;
  times.bCreated = bCreated.ts;
});

async function pageOf(expr: unknown, client: Client = t.server): Promise<{ before?: unknown; after?: unknown; data: unknown[] }> {
  return resultOf(client, expr);
}

describe('Events of a document', () => {
  check(['FN-HIST-010'], 'Events of a document ref answers the set {"@set": {"events": ref}}', async () => {
    expect(await resultOf(t.server, events(a))).toEqual({ '@set': { events: a } });
  });

  check(
    ['FN-HIST-011', 'FN-HIST-012'],
    'Paginate(Events(ref)) answers every event oldest first, each with the data that changed',
    async () => {
      expect(await pageOf(paginate(events(a)))).toStrictEqual({ data: history() });
    },
  );

  check(['FN-HIST-012'], 'an update that changes nothing is still an event, with data null', async () => {
    const { ts } = await written(t.server, { update: b, params: literal({ data: { n: 1n } }) });
    expect((await pageOf(paginate(events(b)))).data).toStrictEqual([
      { ts: times.bCreated, action: 'create', document: b, data: { n: 1n } },
      { ts, action: 'update', document: b, data: null },
    ]);
  });

  check(['FN-HIST-011'], "the request's own writes are events at the transaction time", async () => {
    const res = (
      await t.server.query({
        let: [
          { doc: { create: collection(COLL), params: literal({ data: { own: 1n } }) } },
          { ref: { select: ['ref'], from: { var: 'doc' } } },
        ],
        in: [{ var: 'ref' }, paginate(events({ var: 'ref' }))],
      })
    ).expectStatus(200, 201);
    const [ref, page] = res.resource as [unknown, unknown];
    expect(page).toStrictEqual({ data: [{ ts: txnTime(res), action: 'create', document: ref, data: { own: 1n } }] });
  });

  check(['FN-HIST-016'], 'Paginate(ref, {events: true}) answers what Paginate(Events(ref)) answers', async () => {
    const [flagged, wrapped, sized] = (await resultOf(t.server, [
      paginate(a, { events: true }),
      paginate(events(a)),
      paginate(a, { events: true, size: 2n, after: times.updated }),
    ])) as unknown[];
    expect(flagged).toStrictEqual({ data: history() });
    expect(wrapped).toStrictEqual(flagged);
    const expected = history();
    expect(sized).toStrictEqual({
      before: { ts: times.updated, action: 'add' },
      after: cursorOf(expected[3]!),
      data: expected.slice(1, 3),
    });
  });

  check(['FN-HIST-017'], "At and Paginate's ts limit the history to the events up to that time", async () => {
    const [inAt, withTs] = (await resultOf(t.server, [
      { at: times.replaced, expr: paginate(events(a)) },
      paginate(events(a), { ts: times.updated }),
    ])) as Array<{ data: unknown }>;
    expect(inAt.data).toStrictEqual(history().slice(0, 3));
    expect(withTs.data).toStrictEqual(history().slice(0, 2));
  });
});

describe('Paging events', () => {
  check(['FN-HIST-013'], 'pages walk forward with the after cursor, an event without its data', async () => {
    const expected = history();
    const first = await pageOf(paginate(events(a), { size: 2n }));
    expect(first).toStrictEqual({ after: cursorOf(expected[2]!), data: expected.slice(0, 2) });
    const second = await pageOf(paginate(events(a), { size: 2n, after: literal(first.after) }));
    expect(second).toStrictEqual({ before: cursorOf(expected[2]!), after: cursorOf(expected[4]!), data: expected.slice(2, 4) });
    const last = await pageOf(paginate(events(a), { size: 2n, cursor: { object: { after: literal(second.after) } } }));
    expect(last).toStrictEqual({ before: cursorOf(expected[4]!), data: expected.slice(4) });
  });

  check(['FN-HIST-013'], 'pages walk backward from the end with before: null and the before cursor', async () => {
    const expected = history();
    const last = await pageOf(paginate(events(a), { size: 2n, before: null }));
    // The real service reads `before: null` as an event at the end of time and may show it back as `after`; its
    // rendering is not fixed here, only what the page holds and where it continues.
    expect({ before: last.before, data: last.data }).toStrictEqual({ before: cursorOf(expected[3]!), data: expected.slice(3) });
    const previous = await pageOf(paginate(events(a), { size: 2n, before: literal(last.before) }));
    expect(previous).toStrictEqual({ before: cursorOf(expected[1]!), after: cursorOf(expected[3]!), data: expected.slice(1, 3) });
    const first = await pageOf(paginate(events(a), { size: 2n, before: literal(previous.before) }));
    expect(first).toStrictEqual({ after: cursorOf(expected[1]!), data: expected.slice(0, 1) });
  });

  check.each([
    { name: 'an integer ts', cursor: () => times.updated },
    { name: 'a time', cursor: () => timeOf(times.updated) },
    { name: 'an object with only ts', cursor: () => ({ object: { ts: times.updated } }) },
  ])(['FN-HIST-014'], 'an after cursor given as $name starts at the events of that time', async ({ cursor }) => {
    expect((await pageOf(paginate(events(a), { after: cursor() }))).data).toStrictEqual(history().slice(1));
  });

  check(['FN-HIST-014'], 'a before cursor given as a ts ends before the events of that time', async () => {
    expect((await pageOf(paginate(events(a), { before: times.replaced }))).data).toStrictEqual(history().slice(0, 2));
    expect((await pageOf(paginate(events(a), { before: { '@date': '1970-01-02' } }))).data).toStrictEqual([]);
  });

  check(['FN-HIST-015'], 'a page after a ts cursor shows that cursor as {ts, action: "add"}', async () => {
    const page = await pageOf(paginate(events(a), { before: 123456789n }));
    expect(page).toStrictEqual({ after: { ts: 123456789n, action: 'add' }, data: [] });
  });
});

describe('Events of sets', () => {
  check(['FN-HIST-018'], 'Events of Singleton and of Documents are add and remove events of their documents', async () => {
    const x = await written(t.server, { create: docRef(MEMBERS, '1'), params: literal({ data: { v: 1n } }) });
    await written(t.server, { update: x.ref, params: literal({ data: { v: 2n } }) });
    const removed = await written(t.server, { delete: x.ref });
    const y = await written(t.server, { create: docRef(MEMBERS, '2'), params: literal({ data: { v: 3n } }) });
    const [single, listed] = (await resultOf(t.server, [
      paginate(events({ singleton: x.ref })),
      paginate(events({ documents: collection(MEMBERS) })),
    ])) as Array<{ data: unknown }>;
    const xEvents = [
      { ts: x.ts, action: 'add', document: x.ref },
      { ts: removed.ts, action: 'remove', document: x.ref },
    ];
    expect(single).toStrictEqual({ data: xEvents });
    expect(listed).toStrictEqual({ data: [...xEvents, { ts: y.ts, action: 'add', document: y.ref }] });
  });
});

describe('Events of index sets', () => {
  check(['FN-HIST-018'], 'Events of a Match are the add and remove events of its entries, with the index values as data', async () => {
    const d = await written(t.server, { create: collection(TAGGED), params: literal({ data: { tag: 't', v: 1n } }) });
    const changed = await written(t.server, { update: d.ref, params: literal({ data: { v: 2n } }) });
    const retagged = await written(t.server, { update: d.ref, params: literal({ data: { tag: 'u' } }) });
    const [withValues, refsOnly, later] = (await resultOf(t.server, [
      paginate(events(match('ev_by_tag', 't'))),
      paginate(events(match('ev_refs_by_tag', 't'))),
      paginate(events(match('ev_by_tag', 'u'))),
    ])) as unknown[];
    expect(withValues).toStrictEqual({
      data: [
        { ts: d.ts, action: 'add', document: d.ref, data: [1n] },
        { ts: changed.ts, action: 'add', document: d.ref, data: [2n] },
        { ts: changed.ts, action: 'remove', document: d.ref, data: [1n] },
        { ts: retagged.ts, action: 'remove', document: d.ref, data: [2n] },
      ],
    });
    expect(refsOnly).toStrictEqual({
      data: [
        { ts: d.ts, action: 'add', document: d.ref },
        { ts: retagged.ts, action: 'remove', document: d.ref },
      ],
    });
    expect(later).toStrictEqual({ data: [{ ts: retagged.ts, action: 'add', document: d.ref, data: [2n] }] });
    // A set event's cursor keeps its index values: they are part of its place in the history.
    const first = await pageOf(paginate(events(match('ev_by_tag', 't')), { size: 2n }));
    expect(first.after).toStrictEqual({ ts: changed.ts, action: 'remove', document: d.ref, data: [1n] });
    expect((await pageOf(paginate(events(match('ev_by_tag', 't')), { size: 2n, after: literal(first.after) }))).data).toStrictEqual(
      (withValues as { data: unknown[] }).data.slice(2),
    );
  });
});

describe('Set events inside a query', () => {
  check(['FN-HIST-018'], 'Select of data of a set event of a one-value index answers the value itself; the page shows arrays', async () => {
    const tag = 'sum-me';
    for (const v of [3n, 4n]) await written(t.server, { create: collection(TAGGED), params: literal({ data: { tag, v } }) });
    const sum = { lambda: ['acc', 'e'], expr: { add: [{ var: 'acc' }, { select: ['data'], from: { var: 'e' } }] } };
    const set = events(match('ev_by_tag', tag));
    expect(await resultOf(t.server, { reduce: sum, initial: 10n, collection: set })).toBe(17n);
    expect(await resultOf(t.server, { reduce: sum, initial: 10n, collection: paginate(set) })).toStrictEqual({ data: [17n] });
    const page = await pageOf(paginate(set));
    expect((page.data as Array<Record<string, unknown>>).map((e) => e.data)).toStrictEqual([[3n], [4n]]);
  });
});

describe('API versions', () => {
  check(['FN-HIST-019'], 'before API 2.7 an event names its document `instance`', async () => {
    const page = (await t.server.query(paginate(events(a), { size: 1n }), { apiVersion: '2.1' })).expectStatus(200).resource as {
      data: Array<Record<string, unknown>>;
    };
    expect(Object.keys(page.data[0]!)).toEqual(['ts', 'action', 'instance', 'data']);
    expect(page.data[0]!.data).toEqual(history()[0]!.data);
  });
});

describe('Errors and permissions', () => {
  check.each([
    { name: 'a string', value: 'x', provided: 'String' },
    { name: 'a number', value: 1n, provided: 'Integer' },
    { name: 'null', value: null, provided: 'Null' },
    { name: 'an object', value: { object: { a: 1n } }, provided: 'Object' },
  ])(['FN-HIST-020'], 'Events of $name answers invalid argument at ["events"]', async ({ value, provided }) => {
    expectInvalidArgument(await t.server.query(events(value)), ['events'], `Ref or Set expected, ${provided} provided.`);
  });

  check(['FN-HIST-020'], 'Events of an events set answers invalid argument at the events form', async () => {
    expectInvalidArgument(await t.server.query(events(events(a))), [], 'Set does not support events history.');
    expectInvalidArgument(await t.server.query(paginate(events(events(a)))), ['paginate'], 'Set does not support events history.');
  });

  check(['FN-HIST-020'], 'Paginate with events: true of an events set pages it as Paginate without the flag', async () => {
    const plain = await resultOf(t.server, paginate(events(a)));
    expect(plain.data).toStrictEqual(history());
    expect(await resultOf(t.server, paginate(events(a), { events: true }))).toStrictEqual(plain);
  });

  check(
    ['FN-HIST-023'],
    'Union, Intersection and Difference of an events set and a snapshot set answer invalid argument at the form',
    async () => {
      for (const form of ['union', 'intersection', 'difference']) {
        const expr = paginate({ [form]: [events(a), { singleton: a }] });
        expectInvalidArgument(await t.server.query(expr), ['paginate', form], 'Sets are not compatible.');
      }
      // Sets of events combine with each other.
      expect((await pageOf(paginate({ union: [events(a), events(a)] }))).data).toStrictEqual(history());
    },
  );

  check(
    ['FN-HIST-021'],
    'a cursor that is neither an event, an integer, a time nor a date answers invalid argument at the cursor',
    async () => {
      expectInvalidArgument(
        await t.server.query(paginate(events(a), { after: 'soon' })),
        ['after'],
        'Object, Integer, Time, or Date expected, String provided.',
      );
      expectInvalidArgument(
        await t.server.query(paginate(events(a), { before: true })),
        ['before'],
        'Object, Integer, Time, or Date expected, Boolean provided.',
      );
    },
  );

  check(['FN-HIST-022'], "reading a document's events needs history_read on it, not read", async () => {
    const obj = (fields: Record<string, unknown>) => ({ object: fields });
    const role = (name: string, actions: Record<string, unknown>) => ({
      create_role: obj({ name, privileges: [obj({ resource: collection(COLL), actions: obj(actions) })] }),
    });
    (await t.admin.query([role('ev_history_reader', { history_read: true }), role('ev_plain_reader', { read: true })])).expectStatus(
      200,
      201,
    );
    const historyReader = t.as(await roleKeySecret(t.admin, 'ev_history_reader'));
    const plainReader = t.as(await roleKeySecret(t.admin, 'ev_plain_reader'));
    expect((await pageOf(paginate(events(a)), historyReader)).data).toStrictEqual(history());
    await expectFailure(plainReader, paginate(events(a)), 403, 'permission denied', 'Insufficient privileges to perform the action.', [
      'paginate',
    ]);
  });
});
