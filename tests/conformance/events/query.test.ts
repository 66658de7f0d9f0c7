// Creating event sources on POST /query/1: the endpoint's wire form, tokens, supported sets and transformations.
import { beforeAll, describe, expect } from 'vitest';
import { check, StreamRejectedError, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections } from '../../harness/v4.js';
import { addDoc, changeDoc, createIndexedCollection, createSource, docId, type EventData, feedAll } from './event-fixtures.js';

describe('POST /query/1 creates event sources', () => {
  const t = useTenant({ roles: ['admin', 'server'] });
  beforeAll(async () => {
    await createIndexedCollection(t.server, 'Product', { name: 'byColor', terms: ['color'], values: ['price'] });
    await createCollections(t.server, 'Order');
  });

  /** A fresh collection, so that a feed from a new source sees only this test's writes. */
  async function freshCollection(): Promise<string> {
    const name = uniqueName('Q');
    await createCollections(t.server, name);
    return name;
  }

  const typeAndId = (event: EventData & { type: string }) => `${event.type}:${docId(event)}`;

  check(
    ['ESRC-QUERY-001', 'ESRC-TOKEN-001'],
    'Coll.all().eventSource() answers 200 with data {"@stream": <token>}, txn_ts, summary and stats',
    async () => {
      for (const query of ['Product.all().eventSource()', { fql: ['Product.all().eventSource()'] }]) {
        const res = (await t.server.fql(query, undefined, { format: 'tagged' })).expectStatus(200).expectSchema('v10-query-response');
        expect(Object.keys(res.body.data)).toEqual(['@stream']);
        expect(typeof res.body.data['@stream']).toBe('string');
        expect(typeof res.body.txn_ts).toBe('bigint');
        expect(typeof res.body.summary).toBe('string');
      }
    },
  );

  check(['ESRC-QUERY-002'], 'with x-format: tagged, data is tagged ({"@stream"}); simple gives the bare token', async () => {
    const tagged = (await t.server.fql('Product.all().eventSource()', undefined, { format: 'tagged' })).expectStatus(200);
    expect(tagged.body.data).toEqual({ '@stream': expect.any(String) });
    const simple = (await t.server.fql('Product.all().eventSource()', undefined, { format: 'simple' })).expectStatus(200);
    expect(typeof simple.body.data).toBe('string');
  });

  check(['ESRC-QUERY-003'], 'a {"value": <tagged>} fragment is used as a literal value in the query', async () => {
    const { token, txnTs } = await createSource(t.server, { fql: ['Order.where(.qty > ', { value: { '@int': '5' } }, ').eventSource()'] });
    const res = (
      await t.server.query([
        { create: { collection: 'Order' }, params: { object: { data: { object: { qty: 3 } } } } },
        { create: { collection: 'Order' }, params: { object: { data: { object: { qty: 9 } } } } },
      ])
    ).expectStatus(200, 201);
    expect(res.status).toBeLessThan(300);
    const { events } = await feedAll(t.server, { token, start_ts: txnTs });
    expect(events.map((e) => JSON.stringify(e.data['@doc'].qty))).toEqual(['{"@int":"9"}']);
  });

  check(['ESRC-QUERY-008'], 'a query nested 64 levels deep is accepted', async () => {
    for (const query of [
      `Product.where(.price == ${'('.repeat(64)}1${')'.repeat(64)}).eventSource()`,
      `Product.where(.price == ${'['.repeat(63)}1${']'.repeat(63)}[0]).eventSource()`,
      `Product.where(${'!'.repeat(64)}(.price == 1)).eventSource()`,
      `Product.all().map(p => ${'{ a: '.repeat(64)}p.price${' }'.repeat(64)}).eventSource()`,
    ]) {
      (await t.server.fql(query)).expectStatus(200).expectSchema('v10-query-response');
    }
  });

  check.each([
    { name: 'parentheses', query: () => `Product.where(.price == ${'('.repeat(100_000)}1${')'.repeat(100_000)}).eventSource()` },
    { name: 'arrays', query: () => `Product.where(.price == ${'['.repeat(100_000)}${']'.repeat(100_000)}).eventSource()` },
    { name: 'objects', query: () => `Product.all().map(p => ${'{ a: '.repeat(100_000)}1${' }'.repeat(100_000)}).eventSource()` },
    { name: 'unary operators', query: () => `Product.where(${'!'.repeat(100_000)}true).eventSource()` },
    { name: 'a field chain', query: () => `Product.where(.a${'.b'.repeat(100_000)} == 1).eventSource()` },
    { name: 'an && chain', query: () => `Product.where(.price == 1${' && .price == 1'.repeat(100_000)}).eventSource()` },
  ])(['ESRC-QUERY-009'], 'a query nested 100000 levels deep ($name) answers 400 or is accepted, never 5xx', async ({ query }) => {
    const res = await t.server.fql(query());
    res.expectStatus(400, 200);
    res.expectSchema(res.status === 400 ? 'v10-error' : 'v10-query-response');
    (await t.server.fql('Product.all().eventSource()')).expectStatus(200);
  });

  check(['ESRC-QUERY-004'], 'a request without a body or with invalid JSON answers 400 invalid_request', async () => {
    (await t.server.request('POST', '/query/1', { rawBody: '' })).expectStatus(400).expectErrorCode('invalid_request');
    (await t.server.request('POST', '/query/1', { rawBody: '{"query": ' })).expectStatus(400).expectErrorCode('invalid_request');
  });

  check(
    ['ESRC-QUERY-005'],
    'a query that does not parse answers 400 invalid_query, its summary or message naming the position',
    async () => {
      const res = (await t.server.fql('Product.all(.eventSource()')).expectStatus(400).expectErrorCode('invalid_query');
      expect(`${res.body.error.message}\n${res.body.summary ?? ''}`).toMatch(/\d+:\d+/);
    },
  );

  check(
    ['ESRC-QUERY-006'],
    'stats carries integer compute_ops, read_ops, write_ops, query_time_ms, storage bytes, contention_retries and rate_limits_hit',
    async () => {
      const res = (await t.server.fql('Product.all().eventSource()')).expectStatus(200).expectSchema('v10-query-response');
      for (const key of [
        'compute_ops',
        'read_ops',
        'write_ops',
        'query_time_ms',
        'storage_bytes_read',
        'storage_bytes_write',
        'contention_retries',
      ]) {
        expect(typeof res.body.stats[key], key).toBe('bigint');
      }
      expect(Array.isArray(res.body.stats.rate_limits_hit)).toBe(true);
    },
  );

  check(['ESRC-QUERY-007'], 'a query error answers {"error": {code, message}, summary, txn_ts, stats}', async () => {
    const res = (await t.server.fql('Product.all().take(2).eventSource()')).expectStatus(400).expectSchema('v10-error');
    expect(typeof res.body.error.code).toBe('string');
    expect(typeof res.body.error.message).toBe('string');
    expect(typeof res.body.summary).toBe('string');
    expect(typeof res.body.txn_ts).toBe('bigint');
    expect(res.body.stats).toBeTypeOf('object');
  });

  check(['ESRC-TOKEN-002'], 'running the same event source query twice answers two different tokens', async () => {
    const a = await createSource(t.server, 'Product.all().eventSource()');
    const b = await createSource(t.server, 'Product.all().eventSource()');
    expect(a.token).not.toBe(b.token);
  });

  check(['ESRC-TOKEN-006'], 'a string that is not a token answers 400 invalid_request on /feed/1 and /stream/1', async () => {
    for (const token of ['not-a-token', 'bm90LWEtdG9rZW4=', '']) {
      (await t.server.feed({ token })).expectStatus(400).expectErrorCode('invalid_request');
    }
    const err = await t.server.stream({ token: 'not-a-token' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StreamRejectedError);
    const { response } = err as StreamRejectedError;
    expect(response.status).toBe(400);
    expect(response.errorCode).toBe('invalid_request');
  });

  check(['ESRC-SET-001'], 'Coll.all() converts to a source that tracks every document of the collection and none of another', async () => {
    const coll = await freshCollection();
    const other = await freshCollection();
    const { token } = await createSource(t.server, `${coll}.all().eventSource()`);
    const a = await addDoc(t.server, coll, { n: 1 });
    await addDoc(t.server, other, { n: 1 });
    const b = await addDoc(t.server, coll, { n: 2 });
    expect((await feedAll(t.server, { token })).events.map(typeAndId)).toEqual([`add:${a.id}`, `add:${b.id}`]);
  });

  check(['ESRC-SET-002'], 'Coll.where(…) converts to a source that tracks only the filtered set', async () => {
    const coll = await freshCollection();
    const { token } = await createSource(t.server, `${coll}.where(.price > 10).eventSource()`);
    await addDoc(t.server, coll, { price: 5 });
    const dear = await addDoc(t.server, coll, { price: 50 });
    expect((await feedAll(t.server, { token })).events.map(typeAndId)).toEqual([`add:${dear.id}`]);
  });

  check(['ESRC-TRANSFORM-001'], 'where(), map() and a projection before eventSource() are accepted and shape the events', async () => {
    const coll = await freshCollection();
    const mapped = await createSource(t.server, `${coll}.all().where(.price > 10).map(p => { label: p.name }).eventSource()`);
    const projected = await createSource(t.server, `${coll}.all() { name, price }.eventSource()`);
    const both = await createSource(t.server, `${coll}.all().where(p => p.price >= 1 && p.color != "red") { name }.eventSource()`);
    await addDoc(t.server, coll, { name: 'cup', price: 5, color: 'red' });
    await addDoc(t.server, coll, { name: 'mug', price: 50, color: 'blue' });
    expect((await feedAll(t.server, { token: mapped.token })).events.map((e) => e.data)).toEqual([{ label: 'mug' }]);
    expect((await feedAll(t.server, { token: projected.token })).events.map((e) => e.data)).toEqual([
      { name: 'cup', price: { '@int': '5' } },
      { name: 'mug', price: { '@int': '50' } },
    ]);
    expect((await feedAll(t.server, { token: both.token })).events.map((e) => e.data)).toEqual([{ name: 'mug' }]);
  });

  check(
    ['ESRC-SET-003'],
    "Coll.<index>(<terms>) converts to a source over the index's set: documents with the term, changes of its terms and values only",
    async () => {
      const coll = uniqueName('Ix');
      const index = uniqueName('byColor');
      await createIndexedCollection(t.server, coll, { name: index, terms: ['color'], values: ['price'] });
      const { token } = await createSource(t.server, `${coll}.${index}("red").eventSource()`);
      const red = await addDoc(t.server, coll, { color: 'red', price: 1, note: 'a' });
      await addDoc(t.server, coll, { color: 'blue', price: 1 });
      await changeDoc(t.server, coll, red.id, { note: 'b' });
      await changeDoc(t.server, coll, red.id, { price: 2 });
      await changeDoc(t.server, coll, red.id, { color: 'blue' });
      expect((await feedAll(t.server, { token })).events.map(typeAndId)).toEqual([`add:${red.id}`, `update:${red.id}`, `remove:${red.id}`]);
    },
  );

  check(
    ['ESRC-SET-004', 'ESRC-ON-003'],
    'Set.single(Coll.byId(id)) converts to a source of that document only; eventsOn on it may name any field',
    async () => {
      const coll = await freshCollection();
      const mine = await addDoc(t.server, coll, { a: 1, b: 1 });
      const single = await createSource(t.server, `Set.single(${coll}.byId("${mine.id}")).eventSource()`);
      const watched = await createSource(t.server, `Set.single(${coll}.byId("${mine.id}")).eventsOn(.a, .anything)`);
      const other = await addDoc(t.server, coll, { a: 1, b: 1 });
      await changeDoc(t.server, coll, other.id, { a: 2 });
      await changeDoc(t.server, coll, mine.id, { b: 2 });
      await changeDoc(t.server, coll, mine.id, { a: 2 });
      expect((await feedAll(t.server, { token: single.token })).events.map(typeAndId)).toEqual([`update:${mine.id}`, `update:${mine.id}`]);
      // A change of b alone emits nothing; a change of a emits update.
      const events = (await feedAll(t.server, { token: watched.token })).events;
      expect(events.map(typeAndId)).toEqual([`update:${mine.id}`]);
      expect(events[0].data['@doc'].a).toEqual({ '@int': '2' });
    },
  );

  check(['ESRC-SET-005'], 'an event source on a system collection is rejected with 400 invalid_query or invalid_receiver', async () => {
    for (const query of ['Collection.all().eventSource()', 'Key.all().eventSource()']) {
      (await t.server.fql(query)).expectStatus(400).expectErrorCode('invalid_query', 'invalid_receiver');
    }
  });

  check(
    ['ESRC-SET-006'],
    'a set combining documents of more than one collection is rejected with 400 invalid_receiver (or invalid_query) and no token',
    async () => {
      const res = (await t.server.fql('Product.all().concat(Order.all()).eventSource()'))
        .expectStatus(400)
        .expectErrorCode('invalid_receiver', 'invalid_query');
      expect(res.body).not.toHaveProperty('data');
    },
  );

  check(['ESRC-TRANSFORM-002'], 'where() called on the event source itself is accepted', async () => {
    (await t.server.fql('Product.all().eventSource().where(.price > 3)', undefined, { format: 'tagged' })).expectStatus(200);
  });

  check.each(['drop(1)', 'take(2)', 'order(.price)', 'reverse()'])(
    ['ESRC-TRANSFORM-003', 'ESRC-TRANSFORM-004'],
    'any other set method (%s) before eventSource() answers 400 invalid_receiver naming the method and its position',
    async (call) => {
      const query = `Product.all().${call}.eventSource()`;
      const res = (await t.server.fql(query)).expectStatus(400).expectErrorCode('invalid_receiver');
      const method = call.slice(0, call.indexOf('('));
      expect(res.body.error.message).toContain(method);
      expect(`${res.body.error.message}\n${res.body.summary}`).toMatch(/\d+:\d+/);
    },
  );

  check(
    ['ESRC-ON-002'],
    'eventsOn on an index set naming a field outside its terms and values answers 400 invalid_argument (or invalid_query)',
    async () => {
      (await t.server.fql('Product.byColor("red").eventsOn(.price)', undefined, { format: 'tagged' })).expectStatus(200);
      const res = (await t.server.fql('Product.byColor("red").eventsOn(.name)'))
        .expectStatus(400)
        .expectErrorCode('invalid_argument', 'invalid_query');
      expect(res.body).not.toHaveProperty('data');
    },
  );

  check(['ESRC-ON-004'], 'eventsOn on a filtered, mapped or projected set answers 400 invalid_receiver', async () => {
    for (const query of [
      'Order.where(.qty > 0).eventsOn(.qty)',
      'Order.all().map(.qty).eventsOn(.qty)',
      'Order.all() { qty }.eventsOn(.qty)',
      'Set.single(Order.byId("1")).map(.qty).eventsOn(.qty)',
    ]) {
      (await t.server.fql(query)).expectStatus(400).expectErrorCode('invalid_receiver');
    }
  });

  check(['ESRC-TRANSFORM-005'], 'map() on an event source is accepted and transforms its events', async () => {
    const coll = await freshCollection();
    const { token } = await createSource(t.server, `${coll}.all().eventSource().map(d => { m: d.n })`);
    await addDoc(t.server, coll, { n: 7 });
    expect((await feedAll(t.server, { token })).events.map((e) => e.data)).toEqual([{ m: { '@int': '7' } }]);
  });
});
