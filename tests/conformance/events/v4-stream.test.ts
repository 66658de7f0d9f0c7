// POST /stream, the v4 driver's streams (DEC-064, profile v4-streams): request rules, the start event, document
// streams, event fields, set streams and access. Every test reads `start` before writing, so the writes it makes are
// live; a write that must send nothing is followed by one that must, and the next event is checked to be that one.
import { afterEach, describe, expect } from 'vitest';
import { check, type Client, type Response, type StreamReader, uniqueName, useTenant } from '../../harness/index.js';
import { collection, createCollections, createIndex, docRef, obj, refPayload, createKey } from '../../harness/v4.js';
import {
  addDoc,
  changeDoc,
  nextEventWhileWriting,
  removeDoc,
  REVOCATION_TEST_TIMEOUT_MS,
  showEvent,
  streamRefusal,
} from './event-fixtures.js';

function collectionOf(ref: unknown): string | undefined {
  const parent = refPayload(ref).collection;
  return parent === undefined ? undefined : refPayload(parent).id;
}

function rejected(client: Client, expr: unknown, opts: { fields?: string; secret?: string } = {}): Promise<Response> {
  return streamRefusal(client.v4Stream(expr, opts));
}

describe('POST /stream (v4 streams)', () => {
  const t = useTenant({ roles: ['admin', 'server'] });
  const open: StreamReader[] = [];

  async function stream(expr: unknown, opts: { fields?: string } = {}, client: Client = t.server): Promise<StreamReader> {
    const reader = await client.v4Stream(expr, opts);
    open.push(reader);
    return reader;
  }

  /** Opens the stream and reads its `start` event. */
  async function started(
    expr: unknown,
    opts: { fields?: string } = {},
    client: Client = t.server,
  ): Promise<{ reader: StreamReader; start: { type: string; txn: bigint; event: unknown } }> {
    const reader = await stream(expr, opts, client);
    const start = await reader.next();
    expect(start.type, `the first event: ${showEvent(start)}`).toBe('start');
    return { reader, start };
  }

  async function freshCollection(): Promise<string> {
    const name = uniqueName('V4S');
    await createCollections(t.server, name);
    return name;
  }

  async function createWithId(collection: string, id: string, data: Record<string, unknown>): Promise<bigint> {
    const res = (await t.server.query({ create: docRef(collection, id), params: obj({ data: obj(data) }) })).expectStatus(201);
    return BigInt(res.resource.ts);
  }

  async function expectEnded(reader: StreamReader): Promise<void> {
    const err = await reader.next({ timeoutMs: 3_000 }).then(
      (e) => new Error(`another event followed: ${showEvent(e)}`),
      (e: Error) => e,
    );
    expect(err.name, err.message).toBe('StreamEndedError');
  }

  check(
    ['V4STREAM-REQ-001', 'V4STREAM-START-001', 'V4STREAM-DOC-001', 'V4STREAM-FIELDS-001'],
    'a document stream answers 200 with x-fauna-stream-id, starts with {type: start, txn: T, event: T}, and an Update sends a version event with action and document only',
    async () => {
      const name = await freshCollection();
      const doc = await addDoc(t.server, name, { color: 'red', n: 1 });
      const { reader, start } = await started(docRef(name, doc.id));
      expect(reader.status).toBe(200);
      expect(reader.headers['content-type']).toMatch(/^application\/json/);
      expect(reader.headers['x-fauna-stream-id'], 'x-fauna-stream-id header').toMatch(/\S/);
      expect(typeof start.txn).toBe('bigint');
      expect(start.event, 'start: event is the same time as txn').toBe(start.txn);
      const written = await changeDoc(t.server, name, doc.id, { n: 2 });
      const event = await reader.next();
      expect(event.type, showEvent(event)).toBe('version');
      expect(event.txn, "txn is the write's commit time").toBe(written.ts);
      expect(start.txn <= event.txn, 'start is no later than the events after it').toBe(true);
      expect(Object.keys(event.event)).toEqual(['action', 'document']);
      expect(event.event.action).toBe('update');
      expect(refPayload(event.event.document.ref).id).toBe(doc.id);
      expect(collectionOf(event.event.document.ref)).toBe(name);
      expect(event.event.document.ts).toBe(written.ts);
      expect(event.event.document.data).toEqual({ color: 'red', n: 2n });
    },
  );

  check(['V4STREAM-START-002'], 'writes acknowledged before the stream was requested are not sent on it', async () => {
    const name = await freshCollection();
    const doc = await addDoc(t.server, name, { n: 1 });
    await changeDoc(t.server, name, doc.id, { n: 2 });
    const { reader } = await started(docRef(name, doc.id));
    const later = await changeDoc(t.server, name, doc.id, { n: 3 });
    const event = await reader.next();
    expect(event.txn, `the first event after start must be the later write: ${showEvent(event)}`).toBe(later.ts);
    expect(event.event.document.data).toEqual({ n: 3n });
  });

  check(
    ['V4STREAM-REQ-002', 'V4STREAM-DOC-002'],
    'a stream of a document that does not exist yet opens; creating it sends action create, replacing it action update',
    async () => {
      const name = await freshCollection();
      const { reader } = await started(docRef(name, '4242'));
      const created = await createWithId(name, '4242', { n: 1 });
      const first = await reader.next();
      expect(first.type).toBe('version');
      expect(first.event.action).toBe('create');
      expect(first.txn).toBe(created);
      expect(first.event.document.data).toEqual({ n: 1n });
      const replaced = (await t.server.query({ replace: docRef(name, '4242'), params: obj({ data: obj({ m: 'x' }) }) })).expectStatus(200);
      const second = await reader.next();
      expect(second.event.action).toBe('update');
      expect(second.txn).toBe(BigInt(replaced.resource.ts));
      expect(second.event.document.data).toEqual({ m: 'x' });
    },
  );

  check(
    ['V4STREAM-DOC-003'],
    'deleting the document sends action delete with the deleted data, the stream stays open, and re-creating it sends action create',
    async () => {
      const name = await freshCollection();
      await createWithId(name, '77', { color: 'green' });
      const { reader } = await started(docRef(name, '77'));
      const deleted = await removeDoc(t.server, name, '77');
      const event = await reader.next();
      expect(event.type).toBe('version');
      expect(event.event.action).toBe('delete');
      expect(event.txn).toBe(deleted.ts);
      expect(event.event.document.data, 'the deleted data').toEqual({ color: 'green' });
      const again = await createWithId(name, '77', { color: 'blue' });
      const next = await reader.next();
      expect(next.event.action).toBe('create');
      expect(next.txn).toBe(again);
    },
  );

  check(['V4STREAM-DOC-004'], 'writes to other documents of the same or another collection send nothing on a document stream', async () => {
    const name = await freshCollection();
    const other = await freshCollection();
    const [doc, sibling] = [await addDoc(t.server, name, { n: 1 }), await addDoc(t.server, name, { n: 1 })];
    await createWithId(other, doc.id === '1' ? '2' : '1', { n: 1 });
    const { reader } = await started(docRef(name, doc.id));
    await changeDoc(t.server, name, sibling.id, { n: 2 });
    await createWithId(other, doc.id, { n: 1 });
    await removeDoc(t.server, name, sibling.id);
    const mine = await changeDoc(t.server, name, doc.id, { n: 9 });
    const event = await reader.next();
    expect(event.txn, `the next event must be the streamed document's update: ${showEvent(event)}`).toBe(mine.ts);
    expect(refPayload(event.event.document.ref).id).toBe(doc.id);
    expect(collectionOf(event.event.document.ref)).toBe(name);
  });

  check(
    ['V4STREAM-DOC-005'],
    'Insert and Remove of a past version send no version event on a document stream (a history_rewrite event at most)',
    async (context) => {
      const name = await freshCollection();
      const doc = await addDoc(t.server, name, { n: 1 });
      const { reader } = await started(docRef(name, doc.id));
      const past = doc.ts - 10_000n;
      const inserted = await t.server.query({
        insert: docRef(name, doc.id),
        ts: past,
        action: 'create',
        params: obj({ data: obj({ n: 0 }) }),
      });
      if (inserted.status !== 200)
        return context.skip(`not applicable: the target does not write history (Insert answered ${inserted.status}); DEC-068`);
      (await t.server.query({ remove: docRef(name, doc.id), ts: past, action: 'create' })).expectStatus(200);
      const mine = await changeDoc(t.server, name, doc.id, { n: 2 });
      for (;;) {
        const event = await reader.next();
        if (event.type === 'history_rewrite') continue;
        expect(event.type, `the first event that is not history_rewrite: ${showEvent(event)}`).toBe('version');
        expect(event.txn, `it is the live Update's, not one for the history edits: ${showEvent(event)}`).toBe(mine.ts);
        break;
      }
    },
  );

  check(
    ['V4STREAM-FIELDS-002', 'V4STREAM-FIELDS-003'],
    'fields are sent exactly as named, in the order action, document, diff, prev; diff holds the changed fields (removed ones null) and prev the previous version',
    async () => {
      const name = await freshCollection();
      const doc = await addDoc(t.server, name, { color: 'red', n: 1, extra: 'x' });
      const { reader } = await started(docRef(name, doc.id), { fields: 'prev,diff,document,action' });
      const written = (
        await t.server.query({ replace: docRef(name, doc.id), params: obj({ data: obj({ color: 'red', n: 2 }) }) })
      ).expectStatus(200);
      const event = await reader.next();
      expect(Object.keys(event.event)).toEqual(['action', 'document', 'diff', 'prev']);
      const ts = BigInt(written.resource.ts);
      expect(refPayload(event.event.diff.ref).id).toBe(doc.id);
      expect(event.event.diff.ts).toBe(ts);
      expect(event.event.diff.data, 'diff: changed fields only, a removed one as null').toEqual({ n: 2n, extra: null });
      expect(event.event.prev.ts, "prev carries the previous version's ts").toBe(doc.ts);
      expect(event.event.prev.data).toEqual({ color: 'red', n: 1n, extra: 'x' });
      reader.close();

      const { reader: diffOnly } = await started(docRef(name, doc.id), { fields: 'diff' });
      await changeDoc(t.server, name, doc.id, { color: 'blue' });
      const only = await diffOnly.next();
      expect(Object.keys(only.event)).toEqual(['diff']);
      expect(only.event.diff.data).toEqual({ color: 'blue' });
    },
  );

  check(
    ['V4STREAM-SET-001', 'V4STREAM-SET-002', 'V4STREAM-FIELDS-001'],
    'a Match stream sends set events: add when a document gets an entry for the terms, remove when it loses it, with index {ref, terms, values} and document {ref, ts}',
    async () => {
      const name = await freshCollection();
      const index = uniqueName('v4s_by_color');
      (
        await t.server.query(
          createIndex({
            name: index,
            source: collection(name),
            active: true,
            terms: [{ field: ['data', 'color'] }],
            values: [{ field: ['data', 'n'] }],
          }),
        )
      ).expectStatus(200, 201);
      const match = { match: { index }, terms: 'red' };
      const { reader } = await started(match, { fields: 'action,document,index' });
      const { reader: plain } = await started(match);
      await addDoc(t.server, name, { color: 'blue', n: 1 });
      const red = await addDoc(t.server, name, { color: 'red', n: 5 });
      const added = await reader.next();
      expect(added.type, `the blue document sends nothing; next: ${showEvent(added)}`).toBe('set');
      expect(added.txn).toBe(red.ts);
      expect(added.event.action).toBe('add');
      expect(Object.keys(added.event.document).sort(), 'document holds only ref and ts').toEqual(['ref', 'ts']);
      expect(refPayload(added.event.document.ref).id).toBe(red.id);
      expect(added.event.document.ts).toBe(red.ts);
      expect(refPayload(added.event.index.ref).id).toBe(index);
      expect(added.event.index.terms).toEqual(['red']);
      expect(added.event.index.values).toEqual([5n]);
      const defaults = await plain.next();
      expect(Object.keys(defaults.event), 'default fields of a set event').toEqual(['action', 'document']);
      const moved = await changeDoc(t.server, name, red.id, { color: 'blue' });
      const removed = await reader.next();
      expect(removed.event.action).toBe('remove');
      expect(removed.txn).toBe(moved.ts);
      expect(refPayload(removed.event.document.ref).id).toBe(red.id);
      expect(removed.event.index.terms).toEqual(['red']);
    },
  );

  check(
    ['V4STREAM-SET-003'],
    'a Documents stream sends add for a created document and remove for a deleted one, and nothing for an update',
    async () => {
      const name = await freshCollection();
      const { reader } = await started({ documents: collection(name) });
      const doc = await addDoc(t.server, name, { n: 1 });
      await changeDoc(t.server, name, doc.id, { n: 2 });
      const deleted = await removeDoc(t.server, name, doc.id);
      const add = await reader.next();
      expect(add.type).toBe('set');
      expect(add.event.action).toBe('add');
      expect(add.txn).toBe(doc.ts);
      expect(refPayload(add.event.document.ref).id).toBe(doc.id);
      const remove = await reader.next();
      expect(remove.event.action, `the update must send nothing; next: ${showEvent(remove)}`).toBe('remove');
      expect(remove.txn).toBe(deleted.ts);
    },
  );

  check(['V4STREAM-REQ-003'], 'a body that is not a document ref or a Match or Documents set answers 400 invalid argument', async () => {
    const name = await freshCollection();
    const index = uniqueName('v4s_idx');
    (
      await t.server.query(createIndex({ name: index, source: collection(name), active: true, terms: [{ field: ['data', 'color'] }] }))
    ).expectStatus(200, 201);
    for (const expr of [
      collection(name),
      'just a string',
      {
        union: [
          { match: { index }, terms: 'a' },
          { match: { index }, terms: 'b' },
        ],
      },
    ]) {
      const res = await rejected(t.server, expr);
      res.expectStatus(400).expectErrorCode('invalid argument');
    }
  });

  check(['V4STREAM-REQ-007'], 'a body that evaluates to a document as Get answers it streams that document', async () => {
    const name = await freshCollection();
    const doc = await addDoc(t.server, name, { n: 1 });
    const { reader } = await started({ get: docRef(name, doc.id) });
    expect(reader.status).toBe(200);
    const written = await changeDoc(t.server, name, doc.id, { n: 2 });
    const event = await reader.next();
    expect(event.type, showEvent(event)).toBe('version');
    expect(event.txn, "txn is the write's commit time").toBe(written.ts);
    expect(event.event.action).toBe('update');
    expect(event.event.document.data).toEqual({ n: 2n });
  });

  check(['V4STREAM-REQ-004'], 'a body that writes answers 400 invalid expression and writes nothing', async () => {
    const name = await freshCollection();
    const res = await rejected(t.server, { create: docRef(name, '31'), params: obj({ data: obj({ n: 1 }) }) });
    res.expectStatus(400).expectErrorCode('invalid expression');
    const exists = (await t.server.query({ exists: docRef(name, '31') })).expectStatus(200);
    expect(exists.resource, 'the refused stream request wrote the document').toBe(false);
  });

  check(['V4STREAM-REQ-005'], 'a fields parameter with an unknown name answers 400 invalid url parameter', async () => {
    const name = await freshCollection();
    const doc = await addDoc(t.server, name, { n: 1 });
    for (const fields of ['bogus', 'action,bogus', 'Action']) {
      const res = await rejected(t.server, docRef(name, doc.id), { fields });
      res.expectStatus(400).expectErrorCode('invalid url parameter');
    }
  });

  check(['V4STREAM-REQ-006'], 'POST /stream without a valid secret answers 401 unauthorized', async () => {
    const name = await freshCollection();
    const doc = await addDoc(t.server, name, { n: 1 });
    const res = await rejected(t.server.as('not-a-valid-secret'), docRef(name, doc.id));
    res.expectStatus(401).expectErrorCode('unauthorized');
  });

  check(['V4STREAM-ACCESS-001'], "events of documents the secret's roles may not read are not sent", async () => {
    const items = await freshCollection();
    const users = await freshCollection();
    const role = uniqueName('v4s_reader');
    const visible = {
      lambda: 'ref',
      expr: { equals: [{ select: ['data', 'visible'], from: { get: { var: 'ref' } }, default: false }, true] },
    };
    (
      await t.admin.query({
        create_role: obj({
          name: role,
          membership: [obj({ resource: collection(users) })],
          privileges: [obj({ resource: collection(items), actions: obj({ read: { query: visible } }) })],
        }),
      })
    ).expectStatus(200, 201);
    const user = (
      await t.server.query({ create: collection(users), params: obj({ credentials: obj({ password: 'pass-word-3' }) }) })
    ).expectStatus(201);
    const login = (await t.server.query({ login: user.resource.ref, params: obj({ password: 'pass-word-3' }) })).expectStatus(200, 201);
    const { reader } = await started({ documents: collection(items) }, {}, t.as(login.resource.secret));
    await addDoc(t.server, items, { visible: false });
    const shown = await addDoc(t.server, items, { visible: true });
    const event = await reader.next();
    expect(refPayload(event.event.document.ref).id, `the hidden document must not be sent: ${showEvent(event)}`).toBe(shown.id);
  });

  /**
   * The first event after a revocation, while `write` updates the streamed document every half second: the real
   * service re-checks a v4 stream's secret only when it renders a transaction's events (it sends no idle events).
   */
  async function expectPermissionDenied(reader: StreamReader, write: () => Promise<unknown>): Promise<void> {
    const event = await nextEventWhileWriting(reader, write);
    expect(event.type, `the first event after the revocation: ${showEvent(event)}`).toBe('error');
    expect(event.event.code).toBe('permission denied');
    expect(typeof event.event.description).toBe('string');
    await expectEnded(reader);
  }

  check(
    ['V4STREAM-ACCESS-002'],
    "deleting the key of the stream's secret sends one permission denied error event and ends the stream",
    async () => {
      const name = await freshCollection();
      const doc = await addDoc(t.server, name, { n: 1 });
      const key = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(200, 201);
      const { reader } = await started(docRef(name, doc.id), {}, t.as(key.resource.secret));
      (await t.admin.query({ delete: key.resource.ref })).expectStatus(200);
      let n = 1;
      await expectPermissionDenied(reader, () => changeDoc(t.server, name, doc.id, { n: ++n }));
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  check(
    ['V4STREAM-ACCESS-002'],
    "logging out the token of the stream's secret sends one permission denied error event and ends the stream",
    async () => {
      const users = await freshCollection();
      const user = (
        await t.server.query({ create: collection(users), params: obj({ credentials: obj({ password: 'pass-word-4' }) }) })
      ).expectStatus(201);
      const login = (await t.server.query({ login: user.resource.ref, params: obj({ password: 'pass-word-4' }) })).expectStatus(200, 201);
      const token = t.as(login.resource.secret);
      // A stream of the token's own user document; what it may read does not matter here.
      const { reader } = await started(user.resource.ref, {}, token);
      (await token.query({ logout: false })).expectStatus(200);
      const userId = refPayload(user.resource.ref).id;
      let n = 0;
      await expectPermissionDenied(reader, () => changeDoc(t.server, users, userId, { n: ++n }));
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  afterEach(() => {
    for (const reader of open.splice(0)) reader.close();
  });
});
