import http2 from 'node:http2';
import { beforeAll, describe, expect } from 'vitest';
import { check, parseWireJson, target, useTenant, type Response } from '../../harness/index.js';
import {
  createCollection,
  createDoc,
  createKey,
  docRef,
  expectProtocolError,
  literal,
  postRaw,
  txnTime,
  updateDoc,
} from '../../harness/v4.js';

const COLL = 'gadgets';

function mediaType(res: Response): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** One `POST /` over cleartext HTTP/2 with prior knowledge, as the official drivers send it; bounded by the request timeout. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
async function h2cQuery(secret: string, body: string): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: any }> {
  const { url, requestTimeoutMs } = target();
  const session = http2.connect(url);
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`h2c POST / gave no complete answer within ${requestTimeoutMs} ms`)),
        requestTimeoutMs,
      );
      session.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      const stream = session.request({ ':method': 'POST', ':path': '/', authorization: `Bearer ${secret}`, 'x-faunadb-api-version': '4' });
      let headers: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => (headers = h));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      stream.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: Number(headers[':status']), headers, body: text === '' ? undefined : parseWireJson(text) });
      });
      stream.end(body);
    });
  } finally {
    session.destroy();
  }
}

describe('Endpoints, content types, status codes and headers', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query(createCollection(COLL))).expectStatus(201);
  });

  check(['PROTO-ENDPOINT-001'], 'POST / with a JSON expression evaluates it and answers {"resource": <value>}', async () => {
    const res = (await t.server.query({ equals: [1, 1] })).expectStatus(200);
    expect(res.body).toEqual({ resource: true });
    expect((await t.server.query(literal({ a: [1, 'two'] }))).expectStatus(200).body).toEqual({ resource: { a: [1n, 'two'] } });
  });

  check.each([{ method: 'PUT' }, { method: 'PATCH' }, { method: 'DELETE' }])(
    ['PROTO-ENDPOINT-003', 'PROTO-ERROR-004'],
    '$method on / answers 405 method not allowed',
    async ({ method }) => {
      const res = await t.server.request(method, '/', { rawBody: '{"now":null}' });
      expectProtocolError(res, 405, 'method not allowed');
    },
  );

  check(
    ['PROTO-ENDPOINT-004'],
    'GET /?q=<url-encoded expression> evaluates a read-only expression and answers as POST / would',
    async () => {
      const expr = { select: ['b'], from: literal({ a: 1, b: ['x', 2] }) };
      const viaGet = (
        await t.server.request('GET', `/?q=${encodeURIComponent(JSON.stringify(expr))}`, { headers: { 'x-faunadb-api-version': '4' } })
      ).expectStatus(200);
      const viaPost = (await t.server.query(expr)).expectStatus(200);
      expect(viaGet.body).toEqual(viaPost.body);
      expect(viaGet.body).toEqual({ resource: ['x', 2n] });
    },
  );

  check.each([
    { method: 'GET', path: '/no/such/endpoint/here' },
    { method: 'POST', path: '/no/such/endpoint/here' },
    { method: 'GET', path: '/v99' },
  ])(
    ['PROTO-ENDPOINT-005', 'PROTO-ERROR-004'],
    'a path the server does not serve ($method $path) answers 404 not found',
    async ({ method, path }) => {
      const res = await t.server.request(method, path, method === 'POST' ? { rawBody: '{"now":null}' } : {});
      expectProtocolError(res, 404, 'not found');
    },
  );

  check.each([
    { method: 'GET', path: '/no/such/endpoint/here' },
    { method: 'POST', path: '/no/such/endpoint/here' },
    { method: 'GET', path: '/v99' },
    { method: 'POST', path: '/feed/2' },
  ])(
    ['PROTO-ENDPOINT-011'],
    'a path no endpoint serves ($method $path) answers 404 not found without a secret and with an unknown one',
    async ({ method, path }) => {
      for (const opts of [{ auth: 'none' as const }, { secret: 'not-a-secret' }]) {
        const res = await t.server.request(method, path, method === 'POST' ? { ...opts, rawBody: '{"now":null}' } : opts);
        const error = expectProtocolError(res, 404, 'not found');
        expect(error.description).toBe('Not Found');
      }
    },
  );

  check(['PROTO-CTYPE-001'], 'POST / parses the body as JSON with Content-Type: application/json', async () => {
    const res = await postRaw(t.server, '{"equals":[2,2]}', { 'content-type': 'application/json' });
    expect(res.expectStatus(200).resource).toBe(true);
  });

  check.each([
    { name: 'no Content-Type', contentType: null },
    { name: 'text/plain;charset=UTF-8', contentType: 'text/plain;charset=UTF-8' },
  ])(['PROTO-CTYPE-002'], 'POST / parses the body as JSON with $name', async ({ contentType }) => {
    const res = await postRaw(t.server, '{"select":["k"],"from":{"object":{"k":"parsed"}}}', { 'content-type': contentType });
    expect(res.expectStatus(200).resource).toBe('parsed');
  });

  check(['PROTO-CTYPE-003'], 'every JSON response carries a Content-Type whose media type is application/json', async () => {
    const answers = [
      await t.server.query({ now: null }),
      await t.server.query(createDoc({ collection: COLL }, { n: 1 })),
      await t.server.query({ abort: 'no' }),
      await postRaw(t.server, '{not json'),
      await postRaw(t.server, '{"now":null}', { authorization: null }),
      await t.server.request('PUT', '/'),
      await t.server.request('GET', '/no/such/endpoint/here'),
      await t.server.ping(),
    ];
    for (const res of answers) expect(mediaType(res), res.explain(`is labelled ${res.headers['content-type']}`)).toBe('application/json');
  });

  check(['PROTO-STATUS-001'], 'a successful v4 query whose result is not a newly created document answers 200', async () => {
    (await t.server.query(createDoc(docRef(COLL, '100'), { n: 1 }))).expectStatus(201);
    (await t.server.query({ get: docRef(COLL, '100') })).expectStatus(200);
    (await t.server.query(updateDoc(docRef(COLL, '100'), { n: 2 }))).expectStatus(200);
    // Created, but the answer is something else.
    (await t.server.query({ do: [createDoc(docRef(COLL, '101'), { n: 1 }), 'done'] })).expectStatus(200);
    (await t.server.query({ equals: [1, 1] })).expectStatus(200);
  });

  check(
    ['PROTO-STATUS-002'],
    'a query whose top-level result is a document it created (Create, CreateCollection, CreateDatabase, CreateKey) answers 201',
    async () => {
      (await t.server.query(createDoc({ collection: COLL }, { n: 1 }))).expectStatus(201);
      (await t.server.query({ do: [1, createDoc(docRef(COLL, '201'), { n: 1 })] })).expectStatus(201);
      (await t.server.query(createCollection('made_for_201'))).expectStatus(201);
      (await t.admin.query({ create_database: { object: { name: 'child_for_201' } } })).expectStatus(201);
      (await t.admin.query(createKey(undefined, 'server'))).expectStatus(201);
    },
  );

  check(
    ['PROTO-HEADER-001'],
    'every successful POST / response carries x-txn-time, microseconds since the epoch as a decimal integer',
    async () => {
      const nowMicros = BigInt(Date.now()) * 1000n;
      const tenYears = 10n * 365n * 24n * 3600n * 1_000_000n;
      for (const res of [await t.server.query({ now: null }), await t.server.query(createDoc({ collection: COLL }, { n: 1 }))]) {
        res.expectStatus(200, 201);
        const ts = txnTime(res);
        // Within ten years of this machine's clock: rules out seconds, milliseconds and nanoseconds.
        expect(ts > nowMicros - tenYears && ts < nowMicros + tenYears, `x-txn-time ${ts} is microseconds since the epoch`).toBe(true);
      }
    },
  );

  check(['PROTO-HEADER-002'], 'for a write, x-txn-time equals the ts of the documents written by that request', async () => {
    const created = (await t.server.query(createDoc(docRef(COLL, '300'), { n: 1 }))).expectStatus(201);
    expect(created.resource.ts).toBe(txnTime(created));
    const updated = (await t.server.query(updateDoc(docRef(COLL, '300'), { n: 2 }))).expectStatus(200);
    expect(updated.resource.ts).toBe(txnTime(updated));
    expect(txnTime(updated) > txnTime(created)).toBe(true);
  });

  check(
    ['PROTO-HEADER-003'],
    'a successful POST / response carries x-compute-ops, x-byte-read-ops, x-byte-write-ops and x-query-time as decimal integers',
    async () => {
      (await t.server.query(createDoc(docRef(COLL, '310'), { n: 1 }))).expectStatus(201);
      const read = await t.server.query({ get: docRef(COLL, '310') });
      const write = await t.server.query(updateDoc(docRef(COLL, '310'), { n: 2 }));
      for (const res of [read.expectStatus(200), write.expectStatus(200)]) {
        for (const header of ['x-compute-ops', 'x-byte-read-ops', 'x-byte-write-ops', 'x-query-time']) {
          expect(res.headers[header], `${header} on a successful POST /`).toMatch(/^\d+$/);
        }
      }
    },
  );

  check(
    ['PROTO-HEADER-018'],
    'a POST / answer carries x-query-bytes-in/-out (the body lengths), x-storage-bytes-read/-write and x-txn-retries as decimal integers',
    async () => {
      const write = JSON.stringify(createDoc(docRef(COLL, '320'), { name: 'café ☕' }));
      const read = JSON.stringify({ get: docRef(COLL, '320') });
      const answers = [
        { res: await postRaw(t.server, write), body: write, status: 201 },
        { res: await postRaw(t.server, read), body: read, status: 200 },
        { res: await postRaw(t.server, '{"abort":"no"}'), body: '{"abort":"no"}', status: 400 },
        {
          res: await postRaw(t.server, `{ "get" : ${JSON.stringify(docRef(COLL, '321'))} }`),
          body: `{ "get" : ${JSON.stringify(docRef(COLL, '321'))} }`,
          status: 404,
        },
      ];
      for (const { res, body, status } of answers) {
        res.expectStatus(status);
        for (const header of ['x-query-bytes-in', 'x-query-bytes-out', 'x-storage-bytes-read', 'x-storage-bytes-write', 'x-txn-retries']) {
          expect(res.headers[header], res.explain(`lacks ${header} as a decimal integer`)).toMatch(/^\d+$/);
        }
        expect(Number(res.headers['x-query-bytes-in']), res.explain("x-query-bytes-in is not the request body's length in bytes")).toBe(
          Buffer.byteLength(body),
        );
        expect(Number(res.headers['x-query-bytes-out']), res.explain("x-query-bytes-out is not the answer body's length in bytes")).toBe(
          Buffer.byteLength(res.text),
        );
      }
      expect(
        Number(answers[0]!.res.headers['x-storage-bytes-write']),
        answers[0]!.res.explain('wrote a document and reports no storage bytes written'),
      ).toBeGreaterThan(0);
    },
  );

  check(['PROTO-HEADER-019'], 'every answer carries a traceparent, keeping the trace id of a valid one the request sent', async () => {
    const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
    const sent = '00-750efa5fb6a131eb2cf4db39f28366cb-5669e71839eca76b-01';
    const ids = (res: Response): [string, string] => {
      const match = TRACEPARENT.exec(res.headers.traceparent ?? '');
      expect(match, res.explain(`answers traceparent ${res.headers.traceparent}, not 00-<trace id>-<span id>-<flags>`)).not.toBeNull();
      expect([match![1], match![2]], res.explain('answers an all-zero id')).not.toContain('0'.repeat(32));
      expect(match![2], res.explain('answers an all-zero span id')).not.toBe('0'.repeat(16));
      return [match![1]!, match![2]!];
    };
    const traced = { headers: { traceparent: sent } };
    const keeping = [
      await t.server.query({ now: null }, traced),
      await t.server.query({ abort: 'no' }, traced),
      await t.server.query({ now: null }, { ...traced, secret: 'not-a-secret' }),
      await t.server.request('GET', '/no/such/endpoint/here', traced),
      await t.server.ping(undefined, traced),
      await t.server.fql('1 + 1', undefined, traced),
    ];
    for (const res of keeping) {
      const [traceId, spanId] = ids(res);
      expect(traceId, res.explain("does not keep the trace id of the request's traceparent")).toBe('750efa5fb6a131eb2cf4db39f28366cb');
      expect(spanId, res.explain("answers the request's own span id")).not.toBe('5669e71839eca76b');
    }
    const invalid = [
      'invalidTraceparent',
      '00-00000000000000000000000000000000-5669e71839eca76b-00',
      '00-750efa5fb6a131eb2cf4db39f28366cb-0000000000000000-00',
      '00-750efa5fb6a131eb2cf4db39f28366cbff-5669e71839eca7-00',
    ];
    const fresh = new Set<string>();
    for (const traceparent of invalid) fresh.add(ids(await t.server.query({ now: null }, { headers: { traceparent } }))[0]);
    fresh.add(ids(await t.server.query({ now: null })).at(0)!);
    fresh.add(ids(await t.server.query({ now: null })).at(0)!);
    expect(fresh.has('750efa5fb6a131eb2cf4db39f28366cb'), "an invalid traceparent's trace id was kept").toBe(false);
    expect(fresh.size, 'requests without a valid traceparent each start a trace of their own').toBe(invalid.length + 2);
  });

  check(['PROTO-HEADER-020'], "a POST / answer echoes the request's x-fauna-tags, its pairs in reverse order", async () => {
    const tagged = await t.server.query({ now: null }, { headers: { 'x-fauna-tags': 'foo=Foo1,bar=Bar2' } });
    expect(tagged.expectStatus(200).headers['x-fauna-tags'], tagged.explain('does not echo the tags')).toBe('bar=Bar2,foo=Foo1');
    const three = await t.server.query(createDoc({ collection: COLL }, { n: 1 }), { headers: { 'x-fauna-tags': 'a=1,b_2=x,c=Z' } });
    expect(three.expectStatus(201).headers['x-fauna-tags'], three.explain('does not echo the tags')).toBe('c=Z,b_2=x,a=1');
    for (const res of [await t.server.query({ now: null }), await t.server.query({ now: null }, { headers: { 'x-fauna-tags': '' } })]) {
      expect(res.expectStatus(200).headers, res.explain('answers tags the request did not carry')).not.toHaveProperty('x-fauna-tags');
    }
  });

  check(['PROTO-HEADER-004'], 'x-last-seen-txn up to a second after the latest x-txn-time does not make the request fail', async () => {
    const latest = txnTime((await t.server.query(createDoc({ collection: COLL }, { n: 1 }))).expectStatus(201));
    const ahead = { headers: { 'x-last-seen-txn': (latest + 1_000_000n).toString() } };
    expect((await t.server.query({ equals: [3, 3] }, ahead)).expectStatus(200).resource).toBe(true);
    const created = (await t.server.query(createDoc({ collection: COLL }, { ahead: true }), ahead)).expectStatus(201).resource;
    expect((await t.server.query({ select: ['data', 'ahead'], from: { get: created.ref } }, ahead)).expectStatus(200).resource).toBe(true);
  });

  check(['PROTO-HTTP-001'], 'the server accepts HTTP/1.1 requests', async () => {
    // The harness client speaks HTTP/1.1 only; this is a write and a read over it.
    (await t.server.query(createDoc(docRef(COLL, '400'), { over: 'h1' }))).expectStatus(201);
    expect((await t.server.query({ select: ['data', 'over'], from: { get: docRef(COLL, '400') } })).expectStatus(200).resource).toBe('h1');
  });

  check(['PROTO-HTTP-002'], 'the server accepts cleartext HTTP/2 with prior knowledge on the same port', async () => {
    const created = await h2cQuery(t.secrets.server, JSON.stringify(createDoc(docRef(COLL, '500'), { over: 'h2c' })));
    expect(created.status).toBe(201);
    expect(created.body.resource.data).toEqual({ over: 'h2c' });
    const read = await h2cQuery(t.secrets.server, JSON.stringify({ select: ['data', 'over'], from: { get: docRef(COLL, '500') } }));
    expect([read.status, read.body]).toEqual([200, { resource: 'h2c' }]);
    expect(String(read.headers['content-type'])).toMatch(/^application\/json/);
    const refused = await h2cQuery('not-a-secret', '{"now":null}');
    expect([refused.status, refused.body.errors[0].code]).toEqual([401, 'unauthorized']);
    // The same data whichever protocol reads it.
    expect((await t.server.query({ select: ['data', 'over'], from: { get: docRef(COLL, '500') } })).expectStatus(200).resource).toBe('h2c');
  });
});
