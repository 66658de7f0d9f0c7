// POST /stream/1: request rules, framing, status events, replay, live events, closing and the 128-event limit (the
// operations limit is in ops-limit.test.ts; idle streams and deleted sources, which wait out quiet windows, are in
// stream-idle.test.ts so that both files run at once). Every read has a deadline.
import { describe, expect } from 'vitest';
import { check, type Client, type Response, StreamRejectedError, type StreamReader, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections, createKey } from '../../harness/v4.js';
import {
  addDoc,
  addDocs,
  addLargeDocs,
  collectData,
  createSource,
  docId,
  type EventData,
  expectEnded,
  expectQuiet,
  LARGE_DOC_CHARS,
  nextData,
  nextEventWhileWriting,
  removeDoc,
  REVOCATION_TEST_TIMEOUT_MS,
  showEvent,
  streamRefusal,
  numbered,
} from './event-fixtures.js';

function rejected(client: Client, body: unknown): Promise<Response> {
  return streamRefusal(client.stream(body));
}

describe('POST /stream/1', () => {
  const t = useTenant({ roles: ['admin', 'server'] });
  const open: StreamReader[] = [];

  async function stream(body: Record<string, unknown>, client: Client = t.server): Promise<StreamReader> {
    const reader = await client.stream(body);
    open.push(reader);
    return reader;
  }

  async function fresh(query: (coll: string) => string = (c) => `${c}.all().eventSource()`) {
    const coll = uniqueName('C');
    await createCollections(t.server, coll);
    return { coll, ...(await createSource(t.server, query(coll))) };
  }

  check(
    ['STREAM-REQ-001', 'STREAM-FRAME-003', 'STREAM-FRAME-004', 'STREAM-STATUS-001', 'STREAM-STATUS-002', 'STREAM-LIVE-001'],
    'a stream answers 200 application/json, starts with a status event (txn_ts, cursor, stats, no data) and pushes live writes while open',
    async () => {
      const { coll, token } = await fresh();
      const reader = await stream({ token });
      try {
        expect(reader.status).toBe(200);
        expect(reader.headers['content-type']).toMatch(/^application\/json/);
        const status = await reader.next();
        expect(status.type).toBe('status');
        expect(typeof status.txn_ts).toBe('bigint');
        expect(typeof status.cursor).toBe('string');
        expect(status.stats).toBeTypeOf('object');
        expect(status).not.toHaveProperty('data');
        const d = await addDoc(t.server, coll, { n: 1 });
        const event = await nextData(reader);
        expect(event.type).toBe('add');
        expect(docId(event)).toBe(d.id);
        expect(reader.done).toBe(false);
      } finally {
        reader.close();
      }
    },
  );

  check(['STREAM-REQ-002'], 'a body without token answers 400 invalid_request before any event', async () => {
    const res = await rejected(t.server, { cursor: null });
    res.expectStatus(400).expectErrorCode('invalid_request');
  });

  check(['STREAM-REQ-003'], 'a body with both start_ts and cursor answers 400 invalid_request', async () => {
    const { token, txnTs } = await fresh();
    const reader = await stream({ token });
    const status = await reader.next();
    reader.close();
    (await rejected(t.server, { token, start_ts: txnTs, cursor: status.cursor })).expectStatus(400).expectErrorCode('invalid_request');
  });

  check(['STREAM-REQ-004'], 'an invalid secret answers 401 unauthorized before any event', async () => {
    const { token } = await fresh();
    (await rejected(t.server.as('fnAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-not-a-secret'), { token }))
      .expectStatus(401)
      .expectErrorCode('unauthorized');
  });

  check(['STREAM-REQ-005'], 'a start_ts before the source creation answers 400 invalid_request', async () => {
    const { token, txnTs } = await fresh();
    (await rejected(t.server, { token, start_ts: txnTs - 1n })).expectStatus(400).expectErrorCode('invalid_request');
  });

  check(
    ['STREAM-REQ-005'],
    'a start_ts far in the past answers 400 invalid_request, or a status event then the retention error event with HTTP 200',
    async () => {
      const { token } = await fresh();
      const outcome = await t.server.stream({ token, start_ts: 1 }).then(
        (reader) => ({ reader }),
        (err: unknown) => ({ err }),
      );
      if ('err' in outcome) {
        expect(outcome.err, `neither a 400 nor an open stream: ${String(outcome.err)}`).toBeInstanceOf(StreamRejectedError);
        (outcome.err as StreamRejectedError).response.expectStatus(400).expectErrorCode('invalid_request');
        return;
      }
      const { reader } = outcome;
      open.push(reader);
      expect(reader.status).toBe(200);
      expect((await reader.next()).type).toBe('status');
      const error = await reader.next();
      expect(error.type, showEvent(error)).toBe('error');
      expect(['invalid_stream_start_time', 'invalid_start_time']).toContain(error.error.code);
      await expectEnded(reader);
    },
  );

  check(['STREAM-REQ-008'], 'a start_ts that is not an integer answers 400 invalid_request', async () => {
    const { token } = await fresh();
    (await rejected(t.server, { token, start_ts: '1' })).expectStatus(400).expectErrorCode('invalid_request');
  });

  check(['STREAM-REQ-007'], 'a stream answer carries a non-empty x-fauna-stream-id header', async () => {
    const { token } = await fresh();
    const reader = await stream({ token });
    expect(reader.headers['x-fauna-stream-id'], 'x-fauna-stream-id header').toMatch(/\S/);
    reader.close();
  });

  check(['STREAM-REQ-006'], 'a malformed cursor answers 400 invalid_request', async () => {
    const { token } = await fresh();
    (await rejected(t.server, { token, cursor: 'bm90LWEtY3Vyc29y' })).expectStatus(400).expectErrorCode('invalid_request');
  });

  check(['STREAM-FRAME-001', 'STREAM-FRAME-002'], 'each event is one JSON object on its own line, followed by \\r\\n', async () => {
    const { coll, token } = await fresh();
    await addDocs(t.server, coll, [{ n: 1 }, { n: 2 }]);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5_000);
    let text = '';
    try {
      const res = await fetch(`${t.server.target.url}/stream/1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.secrets.server}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const body = res.body!.getReader();
      const decoder = new TextDecoder();
      while ((text.match(/\n/g) ?? []).length < 3) {
        const { value, done } = await body.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await body.cancel();
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    const lines = text.split('\r\n');
    expect(lines.length, `three events separated by \\r\\n in ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(4);
    for (const line of lines.slice(0, 3)) {
      const parsed = JSON.parse(line);
      expect(parsed).toBeTypeOf('object');
      expect(Array.isArray(parsed)).toBe(false);
    }
  });

  check(
    ['STREAM-REPLAY-001', 'EVT-ORDER-001'],
    'changes between source creation and stream start are replayed after the first status event, in txn_ts order',
    async () => {
      const { coll, token } = await fresh();
      const a = await addDoc(t.server, coll, { n: 1 });
      const b = await addDoc(t.server, coll, { n: 2 });
      const reader = await stream({ token });
      expect((await reader.next()).type).toBe('status');
      // A live write after the stream opened: reading up to it tells a missing replay from a slow one.
      const live = await addDoc(t.server, coll, { n: 3 });
      const events: (EventData & { txn_ts: bigint })[] = [];
      while (events.length < 3 && docId(events.at(-1) ?? {}) !== live.id) events.push(await nextData(reader));
      expect(events.map(docId)).toEqual([a.id, b.id, live.id]);
      expect(events[0].txn_ts < events[1].txn_ts).toBe(true);
      reader.close();
    },
  );

  check(
    ['STREAM-REPLAY-002', 'STREAM-STATUS-003'],
    'a stream started with cursor begins with a status event and replays the events after that cursor only',
    async () => {
      const { coll, token } = await fresh();
      const docs = await addDocs(t.server, coll, [{ n: 1 }, { n: 2 }, { n: 3 }]);
      const first = await stream({ token });
      const all = await collectData(first, 3);
      first.close();
      const again = await stream({ token, cursor: all[0].cursor });
      expect((await again.next()).type).toBe('status');
      expect((await collectData(again, 2)).map(docId)).toEqual(all.slice(1).map(docId));
      expect(await expectQuiet(again, 500)).toBe(true);
      again.close();
      expect(new Set(all.map(docId))).toEqual(new Set(docs.map((d) => d.id)));
    },
  );

  check(['STREAM-REPLAY-003'], 'a stream started with start_ts replays the events with txn_ts greater than start_ts', async () => {
    const { coll, token } = await fresh();
    const a = await addDoc(t.server, coll, { n: 1 });
    const b = await addDoc(t.server, coll, { n: 2 });
    const reader = await stream({ token, start_ts: a.ts });
    expect((await reader.next()).type).toBe('status');
    expect(docId(await nextData(reader))).toBe(b.id);
    expect(await expectQuiet(reader, 500)).toBe(true);
    reader.close();
  });

  check(
    ['STREAM-REPLAY-005', 'STREAM-REPLAY-001'],
    'a replay of ten documents of 2.5 MB reaches a client that reads it: every event, whole and in order',
    async () => {
      const { coll, token } = await fresh();
      const written = await addLargeDocs(t.server, coll, 10);
      const reader = await stream({ token });
      expect((await reader.next()).type).toBe('status');
      const events = await collectData(reader, written.length);
      expect(events.map(docId)).toEqual(written.map((d) => d.id));
      for (const [i, event] of events.entries()) {
        expect(event.data['@doc'].text, `event ${i}: the document's text, whole`).toBe(String.fromCharCode(97 + i).repeat(LARGE_DOC_CHARS));
      }
      expect(await expectQuiet(reader, 300), 'the stream stays open after the replay').toBe(true);
      reader.close();
    },
  );

  check(
    ['STREAM-REPLAY-004', 'EVT-ORDER-002'],
    'after a dropped connection, resuming with the last cursor delivers every missed event exactly once, then live ones',
    async () => {
      const { coll, token } = await fresh();
      const reader = await stream({ token });
      const [first] = await addDocs(t.server, coll, [{ n: 1 }]);
      const seen = [await nextData(reader)];
      reader.close();
      const missed = [await addDoc(t.server, coll, { n: 2 }), await addDoc(t.server, coll, { n: 3 })];
      const resumed = await stream({ token, cursor: seen[0].cursor });
      seen.push(...(await collectData(resumed, 2)));
      const live = await addDoc(t.server, coll, { n: 4 });
      seen.push(await nextData(resumed));
      expect(seen.map(docId)).toEqual([first!.id, ...missed.map((d) => d.id), live.id]);
      expect(await expectQuiet(resumed, 500)).toBe(true);
      resumed.close();
    },
  );

  check(['STREAM-LIVE-002'], 'two streams on one source both receive every event', async () => {
    const { coll, token } = await fresh();
    const one = await stream({ token });
    const two = await stream({ token });
    await one.next();
    await two.next();
    const docs = await addDocs(t.server, coll, [{ n: 1 }, { n: 2 }]);
    const ids = docs.map((d) => d.id).sort();
    expect((await collectData(one, 2)).map(docId).sort()).toEqual(ids);
    expect((await collectData(two, 2)).map(docId).sort()).toEqual(ids);
    one.close();
    two.close();
  });

  check(
    ['STREAM-CLOSE-001', 'STREAM-CLOSE-004'],
    'deleting the key whose secret opened the stream sends permission_loss and ends the stream',
    async () => {
      const coll = uniqueName('C');
      await createCollections(t.server, coll);
      const key = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(200, 201);
      const client = t.as(key.resource.secret);
      const { token } = await createSource(client, `${coll}.all().eventSource()`);
      const reader = await stream({ token }, client);
      expect((await reader.next()).type).toBe('status');
      (await t.admin.request('POST', '/', { body: { delete: key.resource.ref } })).expectStatus(200);
      const event = await nextEventWhileWriting(reader, () => addDoc(t.server, coll, { after: 'revocation' }));
      expect(event.type, `the first event after the key was deleted: ${showEvent(event)}`).toBe('error');
      expect(event.error.code).toBe('permission_loss');
      await expectEnded(reader);
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  check(
    ['STREAM-CLOSE-003'],
    'logging out the token that opened the stream sends permission_loss and ends the stream',
    async () => {
      const coll = uniqueName('U');
      await createCollections(t.server, coll);
      // The users read their own collection: a token must be able to read a source's collection to create it.
      (
        await t.admin.query({
          create_role: {
            object: {
              name: `${coll}_readers`,
              membership: [{ object: { resource: { collection: coll } } }],
              privileges: [{ object: { resource: { collection: coll }, actions: { object: { read: true } } } }],
            },
          },
        })
      ).expectStatus(200, 201);
      const user = (
        await t.server.query({ create: { collection: coll }, params: { object: { credentials: { object: { password: 'pass-word-1' } } } } })
      ).expectStatus(201);
      const login = (await t.server.query({ login: user.resource.ref, params: { object: { password: 'pass-word-1' } } })).expectStatus(
        200,
        201,
      );
      const client = t.as(login.resource.secret);
      const { token } = await createSource(client, `${coll}.all().eventSource()`);
      const reader = await stream({ token }, client);
      expect((await reader.next()).type).toBe('status');
      (await client.query({ logout: false })).expectStatus(200);
      const event = await nextEventWhileWriting(reader, () => addDoc(t.server, coll, { after: 'logout' }));
      expect(event.type, `the first event after the logout: ${showEvent(event)}`).toBe('error');
      expect(event.error.code).toBe('permission_loss');
      await expectEnded(reader);
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  check(['LIMIT-EVENTS-005'], 'a stream replaying 127 events delivers them all without an error', async () => {
    const { coll, token } = await fresh();
    const written = [...(await addDocs(t.server, coll, numbered(64))), ...(await addDocs(t.server, coll, numbered(63)))];
    const reader = await stream({ token });
    const events = await collectData(reader, 127);
    expect(
      events.every((e) => e.type === 'add'),
      'every replayed event is an add',
    ).toBe(true);
    expect(new Set(events.map(docId))).toEqual(new Set(written.map((d) => d.id)));
    expect(await expectQuiet(reader, 500)).toBe(true);
    reader.close();
  });

  check(
    ['LIMIT-EVENTS-002', 'LIMIT-EVENTS-003'],
    'more than 128 events to replay: at most 128 of them, the first ones in order, then stream_replay_volume_exceeded, and the stream closes',
    async () => {
      const { coll, token } = await fresh();
      const first = await addDocs(t.server, coll, numbered(65));
      const second = await addDocs(t.server, coll, numbered(64));
      const reader = await stream({ token });
      expect((await reader.next()).type).toBe('status');
      const replayed: (EventData & { type: string })[] = [];
      let event = await nextData(reader);
      while (event.type !== 'error' && replayed.length <= 128) {
        replayed.push(event);
        event = await nextData(reader);
      }
      expect(event.type, `after ${replayed.length} replayed events: ${showEvent(event)}`).toBe('error');
      expect(event.error.code).toBe('stream_replay_volume_exceeded');
      expect(replayed.length).toBeLessThanOrEqual(128);
      // The first ones, in commit order (each transaction's events in any order).
      const firstIds = new Set(first.map((d) => d.id));
      const sent = replayed.map(docId);
      const fromFirst = sent.filter((id) => firstIds.has(id)).length;
      expect(
        sent.slice(0, fromFirst).every((id) => firstIds.has(id)),
        "the first transaction's events come first",
      ).toBe(true);
      if (fromFirst < first.length) expect(fromFirst, 'nothing of the second transaction before the first is whole').toBe(sent.length);
      expect(sent.every((id) => firstIds.has(id) || second.some((d) => d.id === id))).toBe(true);
      expect(replayed.every((e) => e.type === 'add')).toBe(true);
      await expectEnded(reader);
    },
  );

  check(
    ['LIMIT-EVENTS-008'],
    'a live transaction of 129 tracked documents reaches the stream whole, or ends it with stream_overflow',
    async () => {
      const { coll, token } = await fresh();
      const reader = await stream({ token });
      await reader.next();
      const written = await addDocs(t.server, coll, numbered(129));
      const events: (EventData & { type: string })[] = [];
      while (events.length < written.length) {
        const event = await nextData(reader);
        if (event.type === 'error') {
          expect(event.error.code, showEvent(event)).toBe('stream_overflow');
          await expectEnded(reader);
          return;
        }
        events.push(event);
      }
      expect(events.every((e) => e.type === 'add')).toBe(true);
      expect(new Set(events.map(docId))).toEqual(new Set(written.map((d) => d.id)));
      expect(await expectQuiet(reader, 500), 'the stream goes on').toBe(true);
      reader.close();
    },
  );

  check(
    ['EVT-ERROR-001', 'STREAM-CLOSE-004'],
    'an error evaluating the projection for a live event is an error event with its code, and ends the stream',
    async () => {
      const { coll, token } = await fresh((c) => `${c}.all().map(d => { s: d.first.second }).eventSource()`);
      const reader = await stream({ token });
      expect((await reader.next()).type).toBe('status');
      await addDoc(t.server, coll, { first: { second: 'hi' } });
      await addDoc(t.server, coll, { n: 1 });
      const good = await nextData(reader);
      expect([good.type, good.data]).toEqual(['add', { s: 'hi' }]);
      const error = await nextData(reader);
      expect(error.type, showEvent(error)).toBe('error');
      expect(error.error.code).toBe('invalid_null_access');
      await expectEnded(reader);
    },
  );

  check(
    ['EVT-TRIGGER-005', 'EVT-REMOVE-001'],
    'deleting a tracked document pushes one remove event carrying its last version',
    async () => {
      const { coll, token } = await fresh();
      const d = await addDoc(t.server, coll, { name: 'cup' });
      const reader = await stream({ token, start_ts: d.ts });
      await reader.next();
      await removeDoc(t.server, coll, d.id);
      const event = await nextData(reader);
      expect(event.type).toBe('remove');
      expect(event.data['@doc'].id).toBe(d.id);
      expect(event.data['@doc'].name).toBe('cup');
      reader.close();
    },
  );
});
