// The fault tables' schema and the interpreter of their edit rows (tests/selfcheck/faults/lib/table.ts).
import { describe, expect, it } from 'vitest';
import type { JsonResponseContext, ProxiedRequest } from '../../selfcheck/fault.js';
import { parseJson, stringifyJson } from '../../selfcheck/json-body.js';
import { editRowHooks, loadArea, validTable, type FaultRow } from '../../selfcheck/faults/lib/table.js';

const META = { id: 'SOME-FAULT', title: 'A fault', breaks: ['PROTO-STATUS-001'], area: 'core', description: 'What it does.' };
const table = (row: object) => ({ spec: 'spec/requirements/protocol.md', faults: [{ ...META, ...row }] });

function query(expression: unknown, headers: Record<string, string> = {}): ProxiedRequest {
  return {
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(expression)),
  };
}

/** What a row's JSON hook makes of `answer` to `request` (undefined: left alone). */
function answered(row: Pick<FaultRow, 'when' | 'then'>, request: ProxiedRequest, status: number, answer: unknown): unknown {
  const context: JsonResponseContext = { original: request, request, status, headers: {} };
  const edited = editRowHooks(row).json!(parseJson(JSON.stringify(answer)), context);
  return edited === undefined ? undefined : JSON.parse(stringifyJson(edited));
}

describe('fault table schema', () => {
  it.each([
    ['an edit of the answer', { when: { status: [201] }, then: { status: 200 } }],
    ['keys dropped from records', { then: { in: 'records', collection: 'tokens', drop: ['data'] } }],
    ['a request key renamed', { request: { at: 'params', rename: { update: 'replace' } } }],
    ['an error position edit', { when: { position: '^values' }, then: { positionDrop: 1, positionAppend: ['$form'] } }],
    ['a number answered as the other kind', { then: { resourceAs: 'integer' } }],
    ['an FQL rewrite', { when: { fql: 'x', requestBody: { token: '^"' } }, request: { fql: ['a', 'b'] } }],
    ['a v10 answer', { when: { v10Code: ['abort'], answerMatches: { data: 'null' } }, then: { v10Error: { code: 'c', message: 'm' } } }],
    ['keys set', { then: { in: 'answer', set: { has_next: false } } }],
    ['code', { code: true }],
  ])('accepts %s', (_name, row) => {
    expect(validTable(table(row)), JSON.stringify(validTable.errors)).toBe(true);
  });

  it.each([
    ['two kinds of hooks', { code: true, then: { status: 200 } }],
    ['no hooks', {}],
    ['changes to the whole answer and inside it at once', { then: { status: 200, errorCode: 'x' } }],
    ['a key edit without a place', { then: { drop: ['data'] } }],
    ['a request path with key edits', { request: { path: '/x', drop: ['ts'] } }],
    ['an FQL rewrite with key edits', { request: { fql: ['a', 'b'], inBody: true, drop: ['x'] } }],
    ['a v10 error without a message', { then: { v10Error: { code: 'c' } } }],
    ['an unknown condition', { when: { sometimes: true }, then: { status: 200 } }],
    ['a condition without an edit', { when: { status: [200] }, code: true }],
    ['a number kind that is not one', { then: { resourceAs: 'float' } }],
    ['a position edit with a status change', { then: { positionDrop: 1, status: 400 } }],
    ['a request edit with a condition on the answer', { when: { status: [200] }, request: { removeHeaders: ['x'] } }],
    ['a collection with keys edited in every object', { then: { in: 'tree', collection: 'tokens', drop: ['data'] } }],
  ])('rejects %s', (_name, row) => {
    expect(validTable(table(row))).toBe(false);
  });
});

describe('loading a table', () => {
  it('refuses code for a fault whose row gives failpoints or an edit, which would never run', () => {
    expect(loadArea('document-ttl').kinds.get('DOC-TTL-NEVER-EXPIRES')).toBe('failpoints');
    expect(() => loadArea('document-ttl', { 'DOC-TTL-NEVER-EXPIRES': () => ({}) })).toThrow(/DOC-TTL-NEVER-EXPIRES/);
  });
});

describe('fault table interpreter', () => {
  it('changes the errors the row picks, by code and description pattern', () => {
    const row = {
      when: { code: 'invalid ref', description: '^Ref' },
      then: { errorDescriptionReplace: ['^Ref expected', 'Set expected'] as [string, string] },
    };
    const answer = {
      errors: [
        { code: 'invalid ref', description: 'Ref expected, Int provided.' },
        { code: 'other', description: 'Ref expected.' },
      ],
    };
    expect(answered(row, query({ get: 1 }), 400, answer)).toEqual({
      errors: [
        { code: 'invalid ref', description: 'Set expected, Int provided.' },
        { code: 'other', description: 'Ref expected.' },
      ],
    });
    expect(answered(row, query({ get: 1 }), 400, { errors: [{ code: 'other', description: 'Ref expected.' }] })).toBeUndefined();
  });

  it('drops keys from the resource only for the form and status it names', () => {
    const row = { when: { status: [201], form: ['login'] }, then: { in: 'resource' as const, drop: ['instance'] } };
    const answer = { resource: { secret: 's', instance: { '@ref': 'x' }, data: { instance: 1 } } };
    expect(answered(row, query({ login: 1, params: {} }), 201, answer)).toEqual({ resource: { secret: 's', data: { instance: 1 } } });
    expect(answered(row, query({ get: 1 }), 201, answer)).toBeUndefined();
    expect(answered(row, query({ login: 1, params: {} }), 200, answer)).toBeUndefined();
  });

  it('recodes the validation failures whose field and code match', () => {
    const row = { when: { code: 'validation failed', failure: { field: '^name$' } }, then: { failureCode: 'invalid name' } };
    const failures = [
      { field: ['name'], code: 'reserved name' },
      { field: ['data'], code: 'invalid type' },
    ];
    expect(answered(row, query({}), 400, { errors: [{ code: 'validation failed', failures }] })).toEqual({
      errors: [{ code: 'validation failed', failures: [{ field: ['name'], code: 'invalid name' }, failures[1]] }],
    });
  });

  it('edits the positions of the errors whose position matches: cut, then added ($1 from the description, $form the form)', () => {
    const answer = {
      errors: [
        { code: 'invalid argument', description: 'start must be <= 3', position: ['substring', 'x'] },
        { code: 'invalid argument', description: 'start must be <= 3', position: ['other'] },
      ],
    };
    const row = {
      when: { description: '^(start|length) must be', position: '^substring\\.' },
      then: { positionDrop: 1, positionAppend: ['$1', '$form', 0] },
    };
    expect(answered(row, query({ substring: 'abc', start: 9 }), 400, answer)).toEqual({
      errors: [{ ...answer.errors[0], position: ['substring', 'start', 'substring', 0] }, answer.errors[1]],
    });
    expect(answered(row, query({ substring: 'abc' }), 400, { errors: [answer.errors[1]] })).toBeUndefined();
  });

  it('answers a number resource as the other kind: integers as decimals, whole decimals (not -0.0) as integers', () => {
    const asDecimal = { when: { call: ['add'] }, then: { resourceAs: 'decimal' as const } };
    const asInteger = { then: { resourceAs: 'integer' as const } };
    const answer = (text: string) => parseJson(`{"resource":${text}}`);
    const edited = (row: Pick<FaultRow, 'when' | 'then'>, text: string) => {
      const context: JsonResponseContext = { original: query({ add: [1, 2] }), request: query({ add: [1, 2] }), status: 200, headers: {} };
      const out = editRowHooks(row).json!(answer(text), context);
      return out === undefined ? undefined : stringifyJson(out);
    };
    expect(edited(asDecimal, '3')).toBe('{"resource":3.0}');
    expect(edited(asDecimal, '3.5')).toBeUndefined();
    expect(edited(asInteger, '3.0')).toBe('{"resource":3}');
    expect(edited(asInteger, '3.5')).toBeUndefined();
    expect(edited(asInteger, '-0.0')).toBeUndefined();
  });

  it('rewrites the request: keys of objects that have `at`, headers, path', async () => {
    const rename = editRowHooks({ request: { at: 'params', rename: { update: 'replace' } } }).request!;
    const renamed = await rename(query({ do: [{ update: 1, params: {} }, { update: 2 }] }));
    expect(JSON.parse(renamed!.body.toString())).toEqual({ do: [{ replace: 1, params: {} }, { update: 2 }] });
    expect(await rename(query({ get: 1 }))).toBeUndefined();

    const headers = editRowHooks({ request: { removeHeaders: ['x-query-tags'] } }).request!;
    expect((await headers(query(null, { 'x-query-tags': 'a=b' })))!.headers).not.toHaveProperty('x-query-tags');
    expect(await headers(query(null))).toBeUndefined();

    const set = editRowHooks({ when: { requestHeader: 'x-format' }, request: { setHeaders: { 'x-format': 'simple' } } }).request!;
    expect((await set(query(null, { 'x-format': 'odd' })))!.headers['x-format']).toBe('simple');
    expect(await set(query(null, { 'x-format': 'simple' }))).toBeUndefined();
    expect(await set(query(null))).toBeUndefined();

    const path = editRowHooks({ when: { path: '/feed/1' }, request: { path: '/feed/1/unserved' } }).request!;
    expect((await path({ ...query({}), path: '/feed/1?x=1' }))!.path).toBe('/feed/1/unserved?x=1');
    expect(await path(query({}))).toBeUndefined();
  });

  it('gives the answer a new status and body only when every condition holds', () => {
    const hooks = editRowHooks({ when: { path: '/ping', noRequestHeader: 'authorization' }, then: { status: 401, body: { errors: [] } } });
    const response = { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"resource":"ok"}') };
    const ping = { method: 'GET', path: '/ping', headers: {}, body: Buffer.alloc(0) };
    const edited = hooks.response!(response, { original: ping, request: ping });
    expect(edited?.status).toBe(401);
    expect(JSON.parse(edited!.body.toString())).toEqual({ errors: [] });
    const withSecret = { ...ping, headers: { authorization: 'Bearer s' } };
    expect(hooks.response!(response, { original: withSecret, request: withSecret })).toBeUndefined();
  });

  it('leaves alone an answer its edit would not change, so that exchange does not count as the fault firing', () => {
    const strip = editRowHooks({ then: { removeHeaders: ['x-compute-ops'] } }).response!;
    const request = query({ get: 1 });
    const response = (headers: Record<string, string>) => ({ status: 200, headers, body: Buffer.from('{"resource":1}') });
    expect(strip(response({ 'x-compute-ops': '1', 'x-txn-time': '5' }), { original: request, request })?.headers).toEqual({
      'x-txn-time': '5',
    });
    expect(strip(response({ 'x-txn-time': '5' }), { original: request, request })).toBeUndefined();
    const empty = { when: { form: ['paginate'] }, then: { resource: { data: [] } } };
    expect(answered(empty, query({ paginate: 1 }), 200, { resource: { data: [1] } })).toEqual({ resource: { data: [] } });
    expect(answered(empty, query({ paginate: 1 }), 200, { resource: { data: [] } })).toBeUndefined();
    const recode = { when: { code: 'x' }, then: { errorCode: 'x' } };
    expect(answered(recode, query({ get: 1 }), 400, { errors: [{ code: 'x' }] })).toBeUndefined();
  });

  it.each([
    ['endpoint v4', { endpoint: 'v4' }, query({ get: 1 }), { ...query({}), path: '/query/1' }],
    ['method', { method: ['GET'] }, { ...query({}), method: 'GET' }, query({})],
    ['form', { form: ['get'] }, query({ get: 1 }), query({ exists: 1 })],
    ['call', { call: ['add'] }, query({ add: [1, 2] }), query({ do: [{ add: [1, 2] }] })],
    ['argumentHas', { form: ['login'], argumentHas: 'match' }, query({ login: { match: 1 } }), query({ login: { ref: 1 } })],
    ['uses', { uses: ['match', 'paginate'] }, query({ paginate: { match: 1 } }), query({ paginate: { ref: 1 } })],
    [
      'expression',
      { expression: { get: { '@ref': 'credentials/self' } } },
      query({ get: { '@ref': 'credentials/self' } }),
      query({ get: 1 }),
    ],
    ['requestHeader', { requestHeader: 'origin' }, query({}, { origin: 'o' }), query({})],
  ] as const)('applies only where the request shows %s', (_name, when, matching, other) => {
    const hook = editRowHooks({ when: when as FaultRow['when'], then: { status: 299 } }).response!;
    const response = { status: 200, headers: {}, body: Buffer.from('{"resource":1}') };
    expect(hook(response, { original: matching, request: matching })?.status).toBe(299);
    expect(hook(response, { original: other, request: other })).toBeUndefined();
  });

  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: Buffer.from(JSON.stringify(body)),
  });
  it.each([
    ['status', { status: [400] }, reply(400, {}), reply(404, {})],
    ['minStatus', { minStatus: 400 }, reply(404, {}), reply(201, {})],
    ['header', { header: 'x-txn-time' }, reply(200, {}, { 'x-txn-time': '1' }), reply(200, {})],
    ['resource', { resource: false }, reply(200, { resource: false }), reply(200, { resource: true })],
    ['answerHas', { answerHas: ['resource'] }, reply(200, { resource: 1 }), reply(400, { errors: [] })],
    ['code', { code: 'invalid ref' }, reply(400, { errors: [{ code: 'invalid ref' }] }), reply(400, { errors: [{ code: 'x' }] })],
  ] as const)('applies only where the answer shows %s', (_name, when, matching, other) => {
    const hook = editRowHooks({ when: when as FaultRow['when'], then: { status: 299 } }).response!;
    const request = query({ get: 1 });
    expect(hook(matching, { original: request, request })?.status).toBe(299);
    expect(hook(other, { original: request, request })).toBeUndefined();
  });

  it('drops, renames and sets keys where `in` says: records of one collection, every object, the errors it picks', () => {
    const token = (id: string) => ({ ref: { '@ref': { id, collection: { '@ref': { id: 'tokens' } } } }, ts: 1, data: { a: 1 } });
    const doc = {
      ref: { '@ref': { id: '1', collection: { '@ref': { id: 'c', collection: { '@ref': { id: 'collections' } } } } } },
      ts: 1,
      data: {},
    };
    const tokens = { then: { in: 'records' as const, collection: 'tokens', drop: ['data'] } };
    const { data: _dropped, ...bare } = token('2');
    expect(answered(tokens, query({ get: 1 }), 200, { resource: [token('2'), doc] })).toEqual({ resource: [bare, doc] });
    expect(answered(tokens, query({ get: 1 }), 200, { resource: [doc] })).toBeUndefined();
    const tree = { then: { in: 'tree' as const, rename: { '@set': '@setref' } } };
    expect(answered(tree, query({}), 200, { resource: [{ '@set': 1 }, { a: { '@set': 2 } }] })).toEqual({
      resource: [{ '@setref': 1 }, { a: { '@setref': 2 } }],
    });
    const errors = { when: { code: 'validation failed' }, then: { in: 'errors' as const, drop: ['position'] } };
    const answer = {
      errors: [
        { code: 'validation failed', position: ['a'], cause: [{ position: ['b'] }] },
        { code: 'other', position: ['c'] },
      ],
    };
    expect(answered(errors, query({}), 400, answer)).toEqual({ errors: [{ code: 'validation failed', cause: [{}] }, answer.errors[1]] });
  });

  it('gives, replaces and drops keys of the objects of the v4 expression that have `at`', async () => {
    const edit = async (request: FaultRow['request'], expression: unknown) => {
      const edited = await editRowHooks({ request }).request!(query(expression));
      return edited === undefined ? undefined : JSON.parse(edited.body.toString());
    };
    expect(await edit({ at: 'pow', default: { exp: 1 } }, { add: [{ pow: 2 }, { pow: 2, exp: 3 }] })).toEqual({
      add: [
        { pow: 2, exp: 1 },
        { pow: 2, exp: 3 },
      ],
    });
    expect(await edit({ at: 'pow', default: { exp: 1 } }, { pow: 2, exp: 3 })).toBeUndefined();
    expect(await edit({ replace: { logout: [true, false] } }, { logout: true })).toEqual({ logout: false });
    expect(await edit({ replace: { logout: [true, false] } }, { logout: false })).toBeUndefined();
    expect(await edit({ at: 'concat', drop: ['separator'] }, { concat: ['a'], separator: '-', x: { separator: 1 } })).toEqual({
      concat: ['a'],
      x: { separator: 1 },
    });
  });

  const v10 = (body: unknown, path = '/query/1', headers: Record<string, string> = {}): ProxiedRequest => ({
    method: 'POST',
    path,
    headers,
    body: Buffer.from(JSON.stringify(body)),
  });
  const answer = (status: number, body: unknown) => ({ status, headers: {}, body: Buffer.from(JSON.stringify(body)) });
  const answerOf = (response: { status: number; body: Buffer } | undefined) =>
    response === undefined ? undefined : { status: response.status, body: JSON.parse(response.body.toString()) };

  it('reads the FQL text of /query/1 and rewrites it, in a string query or the text pieces of a template', async () => {
    const hook = editRowHooks({ when: { fql: '^let' }, request: { fql: ['; ', ' '] } }).request!;
    expect(JSON.parse((await hook(v10({ query: 'let x = 1; x' })))!.body.toString())).toEqual({ query: 'let x = 1 x' });
    const template = { query: { fql: ['let x = ', { value: '; ' }, '; x'] } };
    expect(JSON.parse((await hook(v10(template)))!.body.toString())).toEqual({ query: { fql: ['let x = ', { value: '; ' }, ' x'] } });
    expect(await hook(v10({ query: 'x; y' }))).toBeUndefined();
    expect(await hook(v10({ query: 'let x = 1; x' }, '/feed/1'))).toBeUndefined();
  });

  it('edits the JSON body of an event request where its keys match, and sets request headers', async () => {
    const drop = editRowHooks({
      when: { path: '/feed/1', requestBody: { start_ts: '^(?!-?\\d+$).' } },
      request: { inBody: true, drop: ['start_ts'] },
    }).request!;
    expect(JSON.parse((await drop(v10({ token: 't', start_ts: '5' }, '/feed/1')))!.body.toString())).toEqual({ token: 't' });
    expect(await drop(v10({ token: 't', start_ts: 5 }, '/feed/1'))).toBeUndefined();
    expect(await drop(v10({ token: 't' }, '/feed/1'))).toBeUndefined();
    const size = editRowHooks({ request: { inBody: true, at: 'token', default: { page_size: 100 } } }).request!;
    expect(JSON.parse((await size(v10({ token: 't' }, '/feed/1')))!.body.toString())).toEqual({ token: 't', page_size: 100 });
    const tagged = editRowHooks({
      when: { requestHeaderMatches: { 'x-format': '^(?!tagged$)' } },
      request: { setHeaders: { 'x-format': 'tagged' } },
    }).request!;
    expect((await tagged(v10({ query: '1' })))!.headers['x-format']).toBe('tagged');
    expect(await tagged(v10({ query: '1' }, '/query/1', { 'x-format': 'tagged' }))).toBeUndefined();
  });

  it('turns v10 errors it picks by code and message into a success with data, and a success into a v10 error', () => {
    const lenient = editRowHooks({ when: { v10Code: ['invalid_argument'], v10Message: '^expected' }, then: { data: 'a1' } }).response!;
    const request = v10({ query: 'x' });
    const error = {
      error: { code: 'invalid_argument', message: 'expected a string' },
      summary: 's',
      txn_ts: 7,
      stats: { a: 1 },
      schema_version: 2,
    };
    expect(answerOf(lenient(answer(400, error), { original: request, request }))).toEqual({
      status: 200,
      body: { data: 'a1', summary: '', txn_ts: 7, stats: { a: 1 }, schema_version: 2 },
    });
    expect(lenient(answer(400, { error: { code: 'invalid_argument', message: 'other' } }), { original: request, request })).toBeUndefined();
    const refuse = editRowHooks({
      when: { answerMatches: { data: '^null$' } },
      then: { v10Error: { code: 'document_not_found', message: 'gone' } },
    }).response!;
    expect(answerOf(refuse(answer(200, { data: null, txn_ts: 7 }), { original: request, request }))).toEqual({
      status: 400,
      body: { error: { code: 'document_not_found', message: 'gone' }, summary: 'error: gone', txn_ts: 7, schema_version: 0 },
    });
    expect(refuse(answer(200, { data: 1, txn_ts: 7 }), { original: request, request })).toBeUndefined();
  });

  it('sets keys where their value differs, and edits the headers of an open stream', () => {
    const row = { when: { answerHas: ['events'] }, then: { in: 'answer' as const, set: { has_next: false } } };
    expect(answered(row, v10({}, '/feed/1'), 200, { events: [], has_next: true })).toEqual({ events: [], has_next: false });
    expect(answered(row, v10({}, '/feed/1'), 200, { events: [], has_next: false })).toBeUndefined();
    const headers = editRowHooks({ when: { path: '/stream/1', stream: true }, then: { removeHeaders: ['x-fauna-stream-id'] } })
      .streamHeaders!;
    const stream = v10({ token: 't' }, '/stream/1');
    expect(headers({ 'x-fauna-stream-id': '1', a: 'b' }, { original: stream, request: stream })).toEqual({ a: 'b' });
    expect(headers({ a: 'b' }, { original: stream, request: stream })).toBeUndefined();
  });
});
