import fc from 'fast-check';
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { collection, createCollection, createDoc, docRef, expectQueryError, getDoc, literal, postRaw } from '../../harness/v4.js';

// The tests write only in collections of their own block or not at all (most answer errors), so they run at once, in
// one tenant for the file.
const t = useTenant();

describe.concurrent('Bad request bodies', () => {
  check.each([
    { name: 'an unterminated object', body: '{"now":' },
    { name: 'a bare word', body: 'undefined' },
    { name: 'single-quoted keys', body: "{'now':null}" },
    { name: 'a trailing comma', body: '{"equals":[1,1],}' },
    { name: 'two documents', body: '{"now":null}{"now":null}' },
  ])(['PROTO-BODY-001'], 'a body that is not valid JSON ($name) answers 400 invalid expression', async ({ body }) => {
    expectQueryError(await postRaw(t.server, body), [400, 'invalid expression']);
  });

  check(['PROTO-BODY-002'], 'POST / with an empty body answers 400 invalid expression', async () => {
    expectQueryError(await postRaw(t.server, ''), [400, 'invalid expression']);
  });

  check.each([
    { name: 'at the top level', expr: { frobnicate: 1 } },
    { name: 'inside do', expr: { do: [1, { frobnicate: 1 }] } },
    { name: 'with a known name and an unknown key', expr: { select: ['a'], from: literal({ a: 1 }), bogus_option: true } },
  ])(['PROTO-BODY-003'], 'a JSON object naming an unknown function ($name) answers 400 invalid expression', async ({ expr }) => {
    expectQueryError(await t.server.query(expr), [400, 'invalid expression']);
  });

  check.each([
    { name: 'if with a string condition', expr: { if: 'yes', then: 1, else: 2 } },
    { name: 'abort with a number', expr: { abort: 7 } },
    { name: 'select with an object as path', expr: { select: literal({ a: 1 }), from: literal({ a: 1 }) } },
    { name: 'not with a number', expr: { not: 1 } },
    { name: 'get with a string', expr: { get: 'not a ref' } },
    { name: 'time with a number', expr: { time: 5 } },
  ])(
    ['PROTO-BODY-004'],
    'a known function with an argument of the wrong type ($name) answers 400 with a v4 query error',
    async ({ expr }) => {
      expectQueryError(await t.server.query(expr), [400, 'invalid argument'], [400, 'invalid expression']);
    },
  );

  check.each([
    { name: 'a lone 0xFF byte', bad: [0xff] },
    { name: 'a stray continuation byte', bad: [0x80] },
    { name: 'an overlong encoding of "/"', bad: [0xc0, 0xaf] },
    { name: 'a truncated sequence', bad: [0xe2, 0x82] },
    { name: 'an encoded surrogate (the real service reads it as "?")', bad: [0xed, 0xb0, 0x80] },
  ])(['PROTO-BODY-005'], 'a body that is not valid UTF-8 ($name) answers 400, or 200 read leniently, never 5xx', async ({ bad }) => {
    // Read leniently, the bad bytes are a string between < and >; refused, the answer is a v4 error.
    const res = await postRaw(
      t.server,
      Buffer.concat([Buffer.from('{"select":["a"],"from":{"object":{"a":"<'), Buffer.from(bad), Buffer.from('>"}}}')]),
    );
    if (res.status === 200) {
      res.expectSchema('v4-success');
      expect(res.resource, res.explain('read the body leniently into something else than the string')).toMatch(/^<.+>$/su);
    } else res.expectStatus(400).expectSchema('v4-error');
  });

  check(['PROTO-STATUS-004'], 'no random JSON value sent as a query makes the server answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ maxDepth: 4 }), async (text) => {
        const res = await postRaw(t.server, text);
        expect(res.status, res.explain('answered a server error')).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  check(['PROTO-STATUS-004'], 'no random byte string sent as a query body makes the server answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        const res = await postRaw(t.server, Buffer.from(bytes));
        expect(res.status, res.explain('answered a server error')).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  check(['PROTO-VALUE-012'], 'an unbound {"var": name} answers 400 with a v4 query error', async () => {
    expectQueryError(
      await t.server.query({ var: 'never_bound' }),
      [400, 'invalid expression'],
      [400, 'invalid argument'],
      [400, 'unbound variable'],
    );
    expectQueryError(
      await t.server.query({ let: [{ a: 1 }], in: { var: 'b' } }),
      [400, 'invalid expression'],
      [400, 'invalid argument'],
      [400, 'unbound variable'],
    );
  });
});

describe.concurrent('Malformed refs and variables', () => {
  check(['PROTO-VALUE-014'], 'a short-form @ref that is not a ref path answers 400 invalid expression at the literal', async () => {
    (await t.server.query(createCollection('shorts'))).expectStatus(201);
    for (const path of ['foo ref', 'collections/shorts/abc', 'collections/shorts/99999999999999999999', 'nonsense/1']) {
      const error = expectQueryError(await t.server.query({ get: { '@ref': path } }), [400, 'invalid expression']);
      expect(error.position, `the position of the error about ${path}`).toEqual(['get']);
    }
  });

  check(['PROTO-VALUE-015'], '{"var": <not a string>} answers 400 invalid expression at its var argument', async () => {
    for (const name of [4, true, ['x']]) {
      const error = expectQueryError(await t.server.query({ let: [{ x: 4 }], in: { var: name } }), [400, 'invalid expression']);
      expect(error.position).toEqual(['in', 'var']);
    }
  });
});

describe.concurrent('Error descriptions', () => {
  check(['PROTO-ERROR-015'], "v4 protocol errors carry the real service's descriptions", async () => {
    const described = (res: Response, status: number) => {
      res.expectStatus(status).expectSchema('v4-error');
      return res.body.errors[0].description;
    };
    const put = await t.server.request('PUT', '/', { rawBody: '{"now":null}' });
    expect([described(put, 405), put.headers.allow]).toEqual(['Allowed methods are GET, POST.', 'GET, POST']);
    (await t.server.query(createCollection('described'))).expectStatus(201);
    const viaGet = await t.server.request(
      'GET',
      `/?q=${encodeURIComponent(JSON.stringify(createDoc(collection('described'), { n: 1 })))}`,
      { headers: { 'x-faunadb-api-version': '4' } },
    );
    expect(described(viaGet, 400)).toBe('Call performs a write, which is not allowed in get requests.');
    expect(described(await postRaw(t.server, ''), 400)).toBe('No query provided.');
    expect(described(await postRaw(t.server, '[1'), 400)).toBe('Request body is not valid JSON.');
    expect(described(await t.server.query({ '@ts': 'yesterday' }), 400)).toBe('Invalid time.');
    expect(described(await t.server.query({ '@date': '2020-13-45' }), 400)).toBe('Invalid date.');
    expect(described(await t.server.query({ get: { '@ref': 'foo ref' } }), 400)).toBe('Invalid ref.');
    const emptyDo = await t.server.query({ do: [] });
    expect([described(emptyDo, 400), emptyDo.body.errors[0].position]).toEqual(['Expression list cannot be empty.', ['do']]);
  });
});

describe.concurrent('Error bodies', () => {
  beforeAll(async () => {
    (await t.server.query(createCollection('things'))).expectStatus(201);
  });

  check(['PROTO-ERROR-001'], 'a v4 query error answers {"errors":[…]} whose objects carry position, code and description', async () => {
    const res = await t.server.query({ do: [1, { abort: 'stop here' }] });
    const error = expectQueryError(res, [400, 'transaction aborted']);
    expect(error.position).toEqual(['do', 1n]);
    for (const e of res.body.errors as Array<Record<string, unknown>>) {
      expect((e.position as unknown[]).every((p) => typeof p === 'string' || typeof p === 'bigint')).toBe(true);
    }
  });

  check(['PROTO-ERROR-002'], 'position of an error raised by the top-level expression is the empty array', async () => {
    expect(expectQueryError(await t.server.query({ abort: 'top' }), [400, 'transaction aborted']).position).toEqual([]);
    expect(expectQueryError(await t.server.query(getDoc(docRef('things', '404404405'))), [404, 'instance not found']).position).toEqual([]);
  });

  check.each([
    {
      name: 'an abort inside if inside let',
      expr: { let: [{ a: true }], in: { if: { var: 'a' }, then: { abort: 'x' }, else: 1 } },
      position: ['in', 'then'],
    },
    {
      name: 'a select inside an array inside do',
      expr: { do: [1, [0, { select: ['z'], from: literal({}) }]] },
      position: ['do', 1n, 1n, 'from'],
    },
    { name: 'a select of a missing path, raised at its from', expr: { select: ['missing'], from: literal({ a: 1 }) }, position: ['from'] },
    { name: 'a wrong-typed argument of if', expr: { do: [{ if: 'no', then: 1, else: 2 }] }, position: ['do', 0n, 'if'] },
    { name: 'an object member', expr: { object: { a: { abort: 'in a member' } } }, position: ['object', 'a'] },
  ])(
    ['PROTO-ERROR-003'],
    'position of an error inside an argument ($name) is the path of keys and indexes to it',
    async ({ expr, position }) => {
      const res = await t.server.query(expr);
      res.expectStatus(400, 404).expectSchema('v4-query-error');
      expect(res.body.errors[0].position).toEqual(position);
    },
  );

  check(['PROTO-ERROR-005'], 'a validation failed error carries failures naming each invalid field', async () => {
    const res = await t.admin.query({ create_key: { object: { role: 'emperor' } } });
    expectQueryError(res, [400, 'validation failed']);
    const failures = res.body.errors[0].failures as Array<Record<string, unknown>>;
    expect(Array.isArray(failures) && failures.length > 0, res.explain('has no failures')).toBe(true);
    for (const failure of failures) {
      expect(Array.isArray(failure.field)).toBe(true);
      expect(typeof failure.code).toBe('string');
      expect(typeof failure.description).toBe('string');
    }
    expect(failures.map((f) => f.field)).toContainEqual(['role']);
  });

  check(['PROTO-ERROR-006'], 'an abort expression answers 400 transaction aborted with the message as description', async () => {
    const error = expectQueryError(await t.server.query({ abort: 'the message, exactly' }), [400, 'transaction aborted']);
    expect(error.description).toBe('the message, exactly');
  });

  check(['PROTO-ERROR-007'], 'Get of a missing document answers 404 instance not found', async () => {
    expectQueryError(await t.server.query(getDoc(docRef('things', '404404404'))), [404, 'instance not found']);
  });

  check(['PROTO-ERROR-008'], 'select of a missing path without default answers 404 value not found', async () => {
    expectQueryError(await t.server.query({ select: ['a', 'b'], from: literal({ a: { c: 1 } }) }), [404, 'value not found']);
    expectQueryError(await t.server.query({ select: [3], from: [1, 2] }), [404, 'value not found']);
  });
});

describe.concurrent('Positions of write errors', () => {
  let doc: { ref: unknown };

  beforeAll(async () => {
    (await t.server.query(createCollection('places'))).expectStatus(201);
    doc = (await t.server.query(createDoc(docRef('places', '1'), { n: 1n }))).expectStatus(201).resource;
  });

  check.each([
    {
      name: 'a key role CreateKey refuses',
      secret: 'admin',
      expr: { create_key: { object: { role: 'emperor' } } },
      status: 400,
      code: 'validation failed',
      position: ['create_key'],
    },
    {
      name: 'a collection name CreateCollection refuses',
      secret: 'server',
      expr: createCollection('two words'),
      status: 400,
      code: 'validation failed',
      position: ['create_collection'],
    },
    {
      name: 'data that is not an object',
      secret: 'server',
      expr: { create: collection('places'), params: literal({ data: 5n }) },
      status: 400,
      code: 'validation failed',
      position: ['create'],
    },
    {
      name: 'an id already taken',
      secret: 'server',
      expr: createDoc(docRef('places', '1'), { n: 2n }),
      status: 400,
      code: 'instance already exists',
      position: ['create'],
    },
    {
      name: 'a Create the client key may not do',
      secret: 'client',
      expr: createDoc(collection('places'), { n: 3n }),
      status: 403,
      code: 'permission denied',
      position: ['create'],
    },
    {
      name: 'a Create nested in do',
      secret: 'server',
      expr: { do: [1n, createDoc(docRef('places', '1'), { n: 4n })] },
      status: 400,
      code: 'instance already exists',
      position: ['do', 1n, 'create'],
    },
  ])(
    ['PROTO-ERROR-012'],
    'an error Create or a Create function raises for the record it writes ($name) is at its function argument',
    async ({ secret, expr, status, code, position }) => {
      const client = secret === 'admin' ? t.admin : secret === 'server' ? t.server : t.client;
      const error = expectQueryError(await client.query(expr), [status, code]);
      expect(error.position).toEqual(position);
    },
  );

  check(
    ['PROTO-ERROR-014'],
    'Update or Replace of a missing document answers instance not found at its target argument; Delete at the Delete itself',
    async () => {
      const missing = docRef('places', '424242');
      const cases: Array<[unknown, unknown[]]> = [
        [{ update: missing, params: literal({ data: { n: 1n } }) }, ['update']],
        [{ replace: missing, params: literal({ data: { n: 1n } }) }, ['replace']],
        [{ do: [1n, { update: missing, params: literal({ data: { n: 1n } }) }] }, ['do', 1n, 'update']],
        [{ delete: missing }, []],
        [{ do: [1n, { delete: missing }] }, ['do', 1n]],
      ];
      for (const [expr, position] of cases) {
        const res = await t.server.query(expr);
        expect(expectQueryError(res, [404, 'instance not found']).position, res.explain('reports the missing target elsewhere')).toEqual(
          position,
        );
      }
    },
  );

  check(
    ['PROTO-ERROR-013'],
    'Update, Replace and Delete errors, and unresolved refs in any write, are at the position of the write itself',
    async () => {
      expect(
        expectQueryError(await t.server.query({ update: doc.ref, params: literal({ data: 5n }) }), [400, 'validation failed']).position,
      ).toEqual([]);
      expect(
        expectQueryError(await t.server.query({ replace: doc.ref, params: literal({ data: 'x' }) }), [400, 'validation failed']).position,
      ).toEqual([]);
      expect(expectQueryError(await t.client.query({ delete: doc.ref }), [403, 'permission denied']).position).toEqual([]);
      const dangling = { create: collection('places'), params: { object: { data: { object: { to: collection('no_such_collection') } } } } };
      expect(expectQueryError(await t.server.query(dangling), [400, 'validation failed']).position).toEqual([]);
      expect(expectQueryError(await t.server.query({ do: [1n, dangling] }), [400, 'validation failed']).position).toEqual(['do', 1n]);
    },
  );
});
