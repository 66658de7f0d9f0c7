import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startReferenceServer, type RunningReferenceServerWithParts } from '../../../reference-impl/server.js';
import type { CommitRecord } from '../../../reference-impl/store/store.js';

let server: RunningReferenceServerWithParts;
const commits: CommitRecord[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  body: any;
  text: string;
}

async function call(
  method: string,
  path: string,
  options: { body?: string; secret?: string | null; basic?: boolean; apiVersion?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-faunadb-api-version': options.apiVersion ?? '4' };
  const secret = options.secret === undefined ? server.rootSecret : options.secret;
  if (secret !== null) headers.authorization = options.basic ? `Basic ${Buffer.from(`${secret}:`).toString('base64')}` : `Bearer ${secret}`;
  const res = await request(`${server.url}${path}`, {
    method: method as 'GET',
    body: options.body,
    headers,
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const query = (expr: unknown, secret?: string) => call('POST', '/', { body: JSON.stringify(expr), secret });
const coll = (name: string) => ({ collection: name });
const docRef = (c: string, id: string) => ({ ref: coll(c), id });

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  server.parts.store.onCommit((record) => commits.push(record));
  expect((await query({ create_collection: { object: { name: 'things' } } })).status).toBe(201);
});
afterAll(() => server.close());

describe('reference server over HTTP', () => {
  it('answers 201 for a created document and 200 for reads, with x-txn-time equal to the document ts', async () => {
    const created = await query({ create: coll('things'), params: { object: { data: { object: { n: 1, d: 1.5 } } } } });
    expect(created.status).toBe(201);
    expect(created.text).toContain('"data":{"n":1,"d":1.5}');
    expect(String(created.body.resource.ts)).toBe(created.headers['x-txn-time']);
    const id = created.body.resource.ref['@ref'].id;
    const read = await query({ get: docRef('things', id) });
    expect(read.status).toBe(200);
    expect(read.body.resource.data).toEqual({ n: 1, d: 1.5 });
    const notCreated = await query({ select: ['data'], from: { get: docRef('things', id) } });
    expect(notCreated.status).toBe(200);
  });

  it('gives every write of a request one timestamp, strictly increasing across commits', async () => {
    commits.length = 0;
    const first = await query({
      do: [
        { create: docRef('things', '10'), params: {} },
        { create: docRef('things', '11'), params: {} },
      ],
    });
    const second = await query({ create: docRef('things', '12'), params: {} });
    expect(first.status).toBe(201);
    const [a, b] = [await query({ get: docRef('things', '10') }), await query({ get: docRef('things', '11') })];
    expect(a.body.resource.ts).toBe(b.body.resource.ts);
    expect(commits).toHaveLength(2);
    expect(commits[0]!.writes.map((w) => w.id).sort()).toEqual(['10', '11']);
    expect(commits[1]!.ts).toBeGreaterThan(commits[0]!.ts);
    expect(BigInt(second.headers['x-txn-time'] as string)).toBe(commits[1]!.ts);
  });

  it('commits nothing when the last step of a do fails', async () => {
    commits.length = 0;
    const res = await query({
      do: [{ create: docRef('things', '20'), params: {} }, { create_collection: { object: { name: 'x20' } } }, { abort: 'stop' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ position: ['do', 2], code: 'transaction aborted', description: 'stop' }] });
    expect(commits).toHaveLength(0);
    expect((await query({ exists: docRef('things', '20') })).body.resource).toBe(false);
    expect((await query({ exists: { collection: 'x20' } })).body.resource).toBe(false);
  });

  it('reads its own writes and supports get at an earlier ts', async () => {
    const res = await query({
      let: [
        { d: { create: docRef('things', '30'), params: { object: { data: { object: { v: 1 } } } } } },
        { u: { update: docRef('things', '30'), params: { object: { data: { object: { v: 2 } } } } } },
      ],
      in: { select: ['data', 'v'], from: { get: docRef('things', '30') } },
    });
    expect(res.body.resource).toBe(2);
    const ts1 = BigInt(res.headers['x-txn-time'] as string);
    await query({ update: docRef('things', '30'), params: { object: { data: { object: { v: 3 } } } } });
    const old = await call('POST', '/', { body: `{"get":{"ref":{"collection":"things"},"id":"30"},"ts":${ts1}}` });
    expect(old.body.resource.data.v).toBe(2);
    expect((await query({ get: docRef('things', '30') })).body.resource.data.v).toBe(3);
  });

  it('renders class wording without the API-version header and rejects an invalid one', async () => {
    const old = await call('POST', '/', { body: '{"collection":"things"}', apiVersion: '2.1' });
    expect(old.text).toBe('{"resource":{"@ref":{"id":"things","class":{"@ref":{"id":"classes"}}}}}');
    const bad = await call('POST', '/', { body: '{"collection":"things"}', apiVersion: 'nine' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('bad request');
  });

  it('answers malformed JSON, unknown forms and wrong argument types with documented 400s', async () => {
    const malformed = await call('POST', '/', { body: '{"get":' });
    expect([malformed.status, malformed.body.errors[0].code]).toEqual([400, 'invalid expression']);
    const unknown = await query({ do: [{ frobnicate: 1 }] });
    expect(unknown.body.errors[0]).toMatchObject({ code: 'invalid expression', position: ['do', 0] });
    const wrongType = await query({ get: 'not a ref' });
    expect([wrongType.status, wrongType.body.errors[0].code, wrongType.body.errors[0].position]).toEqual([
      400,
      'invalid argument',
      ['get'],
    ]);
    const badRef = await query({ get: docRef('nope', '1') });
    expect(badRef.body.errors[0].code).toBe('invalid ref');
    const validation = await query({ create: coll('things'), params: { object: { data: 'x' } } });
    expect(validation.body.errors[0].code).toBe('validation failed');
    expect(validation.body.errors[0].failures[0].field).toEqual(['data']);
    const duplicate = await query({ create_collection: { object: { name: 'things' } } });
    expect(duplicate.body.errors[0].code).toBe('instance already exists');
    const missing = await query({ get: docRef('things', '999') });
    expect([missing.status, missing.body.errors[0].code]).toEqual([404, 'instance not found']);
  });

  it('authenticates Basic and Bearer, and answers 401 with WWW-Authenticate otherwise', async () => {
    expect((await call('POST', '/', { body: '{"now":null}', basic: true })).status).toBe(200);
    expect((await call('POST', '/', { body: '{"now":null}' })).status).toBe(200);
    for (const secret of [null, 'wrong']) {
      const res = await call('POST', '/', { body: '{"now":null}', secret });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errors: [{ code: 'unauthorized', description: 'Unauthorized' }] });
      expect(res.headers['www-authenticate']).toBe('Basic realm="Unauthorized"');
    }
  });

  it('serves ping, legacy REST reads, 404 and 405', async () => {
    expect((await call('GET', '/ping?scope=write', { secret: null })).body).toEqual({ resource: 'Scope write is OK' });
    const rest = await call('GET', '/collections/things', { basic: true });
    expect(rest.body.resource.name).toBe('things');
    const self = await call('GET', '/tokens/self');
    expect([self.status, self.body]).toEqual([404, { errors: [{ code: 'not found', description: 'Not Found' }] }]);
    const notAPath = await call('GET', '/no/such/thing/here');
    expect(notAPath.status).toBe(404);
    const put = await call('PUT', '/');
    expect(put.status).toBe(405);
    expect(put.body.errors[0].code).toBe('method not allowed');
    expect(put.headers.allow).toContain('POST');
    const readOnlyWrite = await call('GET', `/?q=${encodeURIComponent(JSON.stringify({ create: coll('things') }))}`);
    expect(readOnlyWrite.status).toBe(400);
  });

  it('scopes keys to their database and revokes them when the database is deleted', async () => {
    await query({ create_database: { object: { name: 'child' } } });
    const key = await query({ create_key: { object: { database: { database: 'child' }, role: 'server' } } });
    expect(key.status).toBe(201);
    const secret: string = key.body.resource.secret;
    expect(key.body.resource.hashed_secret).toMatch(/^\$2[aby]\$/);
    const again = await query({ get: key.body.resource.ref });
    expect(again.body.resource.secret).toBeUndefined();
    expect((await query({ create_collection: { object: { name: 'inner' } } }, secret)).status).toBe(201);
    expect((await query({ exists: { collection: 'inner' } })).body.resource).toBe(false);
    expect((await query({ exists: { collection: 'things' } }, secret)).body.resource).toBe(false);
    const serverCannotMakeKeys = await query({ create_key: { object: { role: 'server' } } }, secret);
    expect([serverCannotMakeKeys.status, serverCannotMakeKeys.body.errors[0].code]).toEqual([403, 'permission denied']);
    const scoped = await query({ exists: { collection: 'inner' } }, `${server.rootSecret}:child:admin`);
    expect(scoped.body.resource).toBe(true);
    expect((await query({ delete: { database: 'child' } })).status).toBe(200);
    expect((await query({ now: null }, secret)).status).toBe(401);
    await query({ create_database: { object: { name: 'child' } } });
    expect((await query({ exists: { collection: 'inner' } }, `${server.rootSecret}:child:admin`)).body.resource).toBe(false);
  });

  it('stores and answers a data field named __proto__ like any other field', async () => {
    const body = '{"create":{"collection":"things"},"params":{"object":{"data":{"object":{"__proto__":{"object":{"n":1}},"m":2}}}}}';
    const created = await call('POST', '/', { body });
    expect(created.status).toBe(201);
    const read = await query({ get: created.body.resource.ref });
    expect(Object.keys(read.body.resource.data)).toEqual(['__proto__', 'm']);
    expect(JSON.stringify(read.body.resource.data)).toBe('{"__proto__":{"n":1},"m":2}');
  });

  it('keeps the user and secret hash of a token when its record is replaced', async () => {
    const user = await query({ create: coll('things'), params: { object: { credentials: { object: { password: 'sekret-1' } } } } });
    const login = await query({ login: user.body.resource.ref, params: { object: { password: 'sekret-1' } } });
    expect(login.status).toBe(201);
    const token = login.body.resource;
    const before = (await query({ get: token.ref })).body.resource;
    expect(before.hashed_secret).toMatch(/^\$2[aby]\$/);
    const replaced = await query({ replace: token.ref, params: { object: { data: { object: { note: 'replaced' } } } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.resource.instance).toEqual(token.instance);
    expect(replaced.body.resource.hashed_secret).toBe(before.hashed_secret);
    expect(replaced.body.resource.data).toEqual({ note: 'replaced' });
    const identity = await query({ identity: null }, token.secret);
    expect([identity.status, identity.body.resource]).toEqual([200, token.instance]);
  });
});
