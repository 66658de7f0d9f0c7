/**
 * fast-check arbitraries for malformed requests across every endpoint: broken and random JSON, well-formed
 * JSON of the wrong shape, known v4 forms with wrong-typed arguments, unknown functions, bad refs and tagged
 * values, deep nesting, huge strings and arrays, invalid UTF-8, bad event tokens and cursors, bad secrets and
 * headers, wrong methods and content types, and (rarely, they are slow) bodies over the size limit.
 *
 * `FuzzTargets` carries a few valid things (a secret, a collection, an event-source token) so that a share of
 * the requests gets past authentication and parsing into evaluation, where most server bugs live.
 */
import fc from 'fast-check';
import { readSchema } from '../../schemas/index.js';
import { fqlTokenSoup } from '../harness/fql-token-soup.js';
import { fqlQueryText } from './fql-queries.js';

export type ErrorDialect = 'v4' | 'v10';

export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already encoded for the request line. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
  /** Which error body shape a failure must have (`v4-error` or `v10-error`). */
  readonly dialect: ErrorDialect;
  /** Short description for failure reports. */
  readonly kind: string;
  /** A well-formed request carrying FQL text: its answer must also satisfy `judgeFqlAnswer`. */
  readonly fql?: boolean;
}

export interface FuzzTargets {
  readonly secret: string;
  /** A collection that exists, with documents `1`..`3`. */
  readonly collection: string;
  /** An index over the collection, if the server has indexes. */
  readonly index?: string;
  /** A valid event-source token, if the server has event sources. */
  readonly eventToken?: string;
  /** Bytes of the oversized bodies (just above the server's body limit). */
  readonly oversizedBytes: number;
}

/** Names the fuzzer always uses, some of them argument keys or misspellings rather than functions. */
const EXTRA_FORM_NAMES = [
  'get',
  'create',
  'update',
  'replace',
  'delete',
  'exists',
  'paginate',
  'match',
  'index',
  'collection',
  'class',
  'database',
  'ref',
  'select',
  'lambda',
  'let',
  'var',
  'do',
  'if',
  'map',
  'foreach',
  'filter',
  'and',
  'or',
  'not',
  'equals',
  'abort',
  'now',
  'time',
  'date',
  'new_id',
  'login',
  'logout',
  'identify',
  'identity',
  'has_identity',
  'current_identity',
  'create_key',
  'create_index',
  'create_collection',
  'create_class',
  'create_database',
  'create_role',
  'create_function',
  'call',
  'documents',
  'union',
  'intersection',
  'difference',
  'distinct',
  'join',
  'range',
  'singleton',
  'events',
  'keys',
  'tokens',
  'credentials',
  'query',
  'object',
  'count',
  'add',
  'concat',
  'contains_path',
  'is_null',
  'to_string',
  'reverse',
  'take',
  'drop',
  'append',
  'prepend',
  'sort',
  'terms',
  'values',
  'size',
  'after',
  'before',
  'ts',
  'action',
  'params',
  'expr',
  'in',
  'then',
  'else',
  'from',
  'path',
  'default',
  'id',
  'scope',
  'data',
  'name',
  'source',
  'unique',
  'serialized',
  'role',
  'password',
  'credentials',
  'ttl',
];
const EXTRA_ARG_KEYS = [
  'params',
  'object',
  'in',
  'then',
  'else',
  'from',
  'size',
  'after',
  'before',
  'terms',
  'expr',
  'id',
  'scope',
  'default',
  'path',
  'events',
  'sources',
  'ts',
  'action',
];
/** Every function form of the expression schema: its first key is the function's name, the others its arguments. */
const SCHEMA_FORMS = Object.entries(
  readSchema('expression').$defs as Record<string, { required?: string[]; properties?: Record<string, unknown> }>,
)
  .filter(([name]) => name.startsWith('form-'))
  .map(([, form]) => ({ name: form.required?.[0], keys: Object.keys(form.properties ?? {}) }));
const V4_FORMS = [...new Set([...EXTRA_FORM_NAMES, ...SCHEMA_FORMS.flatMap((form) => (form.name === undefined ? [] : [form.name]))])];
const ARG_KEYS = [...new Set([...EXTRA_ARG_KEYS, ...SCHEMA_FORMS.flatMap((form) => form.keys)])];
const TAGS = [
  '@ref',
  '@ts',
  '@date',
  '@bytes',
  '@query',
  '@obj',
  '@set',
  '@doc',
  '@mod',
  '@int',
  '@long',
  '@double',
  '@time',
  '@object',
  '@nope',
];

/** Random JSON with integers, decimals, unicode, and nesting — valid JSON text, mostly meaningless. */
const randomJson = fc.jsonValue({ maxDepth: 4 });

function deepNesting(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** A v4 expression tree that is plausible enough to reach the forms: known keys, wrong-typed arguments. */
function v4Expression(targets: FuzzTargets): fc.Arbitrary<unknown> {
  const collectionRef = { collection: targets.collection };
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 20 }),
    fc.constantFrom(targets.collection, 'nope', '', '1', '-1', '99999999999999999999', 'collections', '__proto__', 'constructor'),
    fc.constant(collectionRef),
    fc.constant({ ref: collectionRef, id: '1' }),
    fc.constant({ index: targets.index ?? 'nope' }),
    fc
      .tuple(
        fc.constantFrom(...TAGS),
        fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.constant({}), fc.constant([])),
      )
      .map(([tag, v]) => ({ [tag]: v })),
    fc.constant({ '@ref': { id: '1', collection: { '@ref': { id: targets.collection, collection: { '@ref': { id: 'collections' } } } } } }),
    fc.constant({ '@ts': '2024-13-45T99:99:99Z' }),
    fc.constant({ '@query': { lambda: 'x', expr: { var: 'y' } } }),
  );
  return fc.letrec<{ expr: unknown }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('expr'), { maxLength: 4 }),
      fc
        .tuple(fc.constantFrom(...V4_FORMS), tie('expr'), fc.array(fc.tuple(fc.constantFrom(...ARG_KEYS), tie('expr')), { maxLength: 3 }))
        .map(([form, value, rest]) => Object.fromEntries([[form, value], ...rest])),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...V4_FORMS)), tie('expr'), { maxKeys: 3 }),
    ),
  })).expr;
}

function fqlQuery(targets: FuzzTargets): fc.Arbitrary<string> {
  return fc.oneof(
    fqlTokenSoup({ maxLength: 16, extra: [targets.collection] }),
    fc.string({ maxLength: 60 }),
    fc.constantFrom(
      `${targets.collection}.all()`,
      `${targets.collection}.all().eventSource()`,
      `${targets.collection}.byId("1")`,
      `${targets.collection}.all().map(x => x.nope.nope)`,
    ),
  );
}

/** Queries nested thousands of levels deep (DEC-076): brackets, unary operators, field and `&&` chains. */
function deepFqlQuery(collection: string): fc.Arbitrary<string> {
  const depth = fc.integer({ min: 500, max: 60_000 });
  return fc.oneof(
    depth.map((n) => `${collection}.where(.x == ${'('.repeat(n)}1${')'.repeat(n)}).eventSource()`),
    depth.map((n) => '['.repeat(n) + ']'.repeat(n)),
    depth.map((n) => `${collection}.all().map(d => ${'{ a: '.repeat(n)}1${' }'.repeat(n)}).eventSource()`),
    depth.map((n) => `${collection}.where(${'!'.repeat(n)}true).eventSource()`),
    depth.map((n) => `${'-'.repeat(n)}1`),
    depth.map((n) => `${collection}.where(.a${'.b'.repeat(n)} == 1).eventSource()`),
    depth.map((n) => `${collection}.where(.a == 1${' && .a == 1'.repeat(n)}).eventSource()`),
  );
}

const SECRET_VARIANTS = (secret: string) =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constant(`Bearer ${secret}`) },
    fc.constant(`Basic ${Buffer.from(`${secret}:`).toString('base64')}`),
    fc.constant(`Bearer ${secret}:nope:admin`),
    fc.constant(`Bearer ${secret}::`),
    fc.constant(`Bearer ${secret}:a/b//c:@role/`),
    fc.constant('Basic !!!not-base64'),
    fc.constant('Basic '),
    fc.constant('Bearer'),
    fc.constant('Bearer fnK_0_1_00000000000000000000000000000000'),
    fc.constant('Bearer fnT_99999999999999999999_1_00000000000000000000000000000000'),
    fc.string({ maxLength: 40 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
    fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  );

/** Header values undici will put on the wire (no CR/LF, Latin-1 only). */
const headerText = fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

/**
 * A third of requests carry well-formed headers, so that their bodies reach the evaluator instead of a header check
 * (with every header drawn at random, almost none did); the rest draw each header from good values and junk.
 */
function commonHeaders(targets: FuzzTargets): fc.Arbitrary<Record<string, string>> {
  const wellFormed = fc.constantFrom<Record<string, string>>(
    { authorization: `Bearer ${targets.secret}`, 'content-type': 'application/json', 'x-faunadb-api-version': '4' },
    {
      authorization: `Bearer ${targets.secret}`,
      'content-type': 'application/json',
      'x-faunadb-api-version': '4',
      'x-query-timeout': '2000',
    },
    { authorization: `Bearer ${targets.secret}`, 'content-type': 'application/json', 'x-format': 'tagged' },
  );
  return fc.oneof({ weight: 1, arbitrary: wellFormed }, { weight: 2, arbitrary: drawnHeaders(targets) });
}

function drawnHeaders(targets: FuzzTargets): fc.Arbitrary<Record<string, string>> {
  return fc
    .record(
      {
        authorization: SECRET_VARIANTS(targets.secret),
        'content-type': fc.oneof(
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''),
          headerText,
        ),
        'x-faunadb-api-version': fc.oneof(fc.constantFrom('2.0', '2.1', '2.7', '4', '5', 'UNSTABLE', '', '4.0', 'v4', '99'), headerText),
        'x-format': fc.oneof(fc.constantFrom('tagged', 'simple', 'decorated'), headerText),
        'x-query-timeout-ms': fc.oneof(fc.constantFrom('0', '-1', '1', 'abc', '1e99', '99999999999999999999'), headerText),
        // Deadlines short enough for the doubling queries and deep nesting below to outlast.
        'x-query-timeout': fc.oneof(fc.constantFrom('0', '-1', '1', '2', '5', '600001', 'abc'), headerText),
        'x-last-txn-ts': fc.oneof(fc.constantFrom('0', '-5', 'x', '99999999999999999999999'), headerText),
        'x-linearized': headerText,
        'x-max-contention-retries': headerText,
        'x-query-tags': headerText,
        'x-typecheck': fc.constantFrom('true', 'false', 'maybe'),
      },
      { requiredKeys: ['authorization'] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

const INVALID_UTF8 = [
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
];

/**
 * A query of a few hundred bytes whose result is `initial` doubled `times` times: `[acc, acc]` shares its halves, so
 * the value stays small while its text grows as 2^times (rendering it whole once took the server past its heap).
 */
function doubling(times: number, initial: string): string {
  return `{"reduce":{"lambda":["acc","x"],"expr":[{"var":"acc"},{"var":"acc"}]},"initial":${initial},"collection":${JSON.stringify(Array.from({ length: times }, (_, i) => i))}}`;
}

/** Body bytes for a JSON endpoint, from plausible-but-wrong to garbage; about 1 in 8 is huge or deeply nested. */
function jsonBody(plausible: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  const text = (a: fc.Arbitrary<string>) => a.map((s) => Buffer.from(s, 'utf8'));
  return fc.oneof(
    { weight: 12, arbitrary: plausible.map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')) },
    { weight: 3, arbitrary: randomJson.map((v) => Buffer.from(JSON.stringify(v), 'utf8')) },
    {
      weight: 2,
      arbitrary: plausible.chain((v) => {
        const full = JSON.stringify(v) ?? 'null';
        return fc.nat({ max: Math.max(0, full.length - 1) }).map((cut) => Buffer.from(full.slice(0, cut), 'utf8'));
      }),
    },
    text(
      fc.constantFrom(
        '',
        ' ',
        '{',
        '}',
        '[',
        '{"a":}',
        '{"a" 1}',
        "{'a':1}",
        'nul',
        'NaN',
        'Infinity',
        '-',
        '1e999999',
        '01',
        '"\\ud800"',
        '{"a":1,"a":2}',
        '\u0000',
        '[1,]',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
      ),
    ),
    {
      weight: 3,
      arbitrary: fc.oneof(
        text(fc.integer({ min: 2, max: 5 }).map((k) => deepNesting(10 ** k, '[', ']'))),
        text(fc.integer({ min: 2, max: 5 }).map((k) => deepNesting(10 ** k, '{"a":', '}'))),
        text(fc.integer({ min: 2, max: 4 }).map((k) => deepNesting(10 ** k, '{"do":[', ']}'))),
        text(fc.integer({ min: 2, max: 3 }).map((k) => deepNesting(10 ** k, '{"add":[1,', ']}'))),
        text(fc.integer({ min: 4, max: 6 }).map((k) => JSON.stringify({ concat: ['x'.repeat(10 ** k), 'y'] }))),
        text(fc.integer({ min: 3, max: 4 }).map((k) => JSON.stringify(Array.from({ length: 10 ** k }, (_, i) => i)))),
        text(
          fc.integer({ min: 3, max: 4 }).map((k) => `{"object":{${Array.from({ length: 10 ** k }, (_, i) => `"k${i}":${i}`).join(',')}}}`),
        ),
        text(fc.integer({ min: 22, max: 40 }).map((k) => doubling(k, '[]'))),
        text(fc.integer({ min: 6, max: 12 }).map((k) => doubling(k, '{"format":"%8000000s","values":"x"}'))),
      ),
    },
    fc.tuple(plausible, fc.constantFrom(...INVALID_UTF8)).map(([v, bad]) => {
      const full = Buffer.from(JSON.stringify({ s: JSON.stringify(v) ?? '' }), 'utf8');
      return Buffer.concat([full.subarray(0, full.length - 3), bad, full.subarray(full.length - 3)]);
    }),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
  );
}

function eventRequestBody(targets: FuzzTargets): fc.Arbitrary<unknown> {
  const token = fc.oneof(
    ...(targets.eventToken
      ? [
          fc.constant(targets.eventToken),
          fc.constant(targets.eventToken.slice(0, -4)),
          fc.constant(`${targets.eventToken}AAAA`),
          fc.constant(targets.eventToken.replace(/[A-Z]/, 'z')),
        ]
      : []),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '====', 'AAAA', 'not base64!'),
    fc.integer(),
    fc.constant(null),
  );
  const cursor = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'AAAA', 'gsGabc', '{"ts":1}'), fc.integer(), fc.constant(null));
  return fc.record(
    {
      token,
      cursor,
      start_ts: fc.oneof(
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => Number(n)),
        fc.integer(),
        fc.string({ maxLength: 10 }),
        fc.constant(null),
        fc.double(),
      ),
      page_size: fc.oneof(
        fc.integer({ min: -10, max: 20000 }),
        fc.double(),
        fc.string({ maxLength: 5 }),
        fc.constant(null),
        fc.constant(16001),
        fc.constant(0),
      ),
      extra: randomJson,
    },
    { requiredKeys: [] },
  );
}

function v10QueryBody(targets: FuzzTargets): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.record(
      {
        query: fqlQuery(targets),
        arguments: fc.option(fc.dictionary(fc.string({ maxLength: 6 }), randomJson, { maxKeys: 3 }), { nil: undefined }),
      },
      { requiredKeys: ['query'] },
    ),
    fc.record({ query: fc.oneof(fc.constant({ fql: [] }), fc.constant({ fql: ['x', { value: { '@int': 'x' } }] }), randomJson) }),
    fc.constant({}),
    randomJson,
  );
}

/** Legacy REST and unknown paths, with awkward percent-encoding. */
function oddPath(targets: FuzzTargets): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      `/collections/${targets.collection}/1`,
      `/collections/${targets.collection}/%ff`,
      '/%',
      '/%zz',
      '/%00',
      '/..',
      '/./collections',
      '//',
      '/tokens/self',
      '/keys/1',
      '/databases/%2F',
      `/classes/${targets.collection}`,
      '/indexes/nope',
      '/query/2',
      '/feed',
      '/stream/1/x',
      '/ping/',
      '/?q=',
      '/?q=%7B',
      '/?q=%7B%22get%22%3A1%7D',
      '/?q=%ff%fe',
      `/?q=${'%5B'.repeat(2000)}`,
      '/linked/1',
      '/ping?scope=global',
      '/ping?scope=%ff',
    ),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }).map((segments) => `/${segments.map(encodeURIComponent).join('/')}`),
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

export function malformedRequest(targets: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const headers = commonHeaders(targets);
  const v4 = fc
    .tuple(headers, jsonBody(v4Expression(targets)), fc.constantFrom(...METHODS.filter((m) => m !== 'HEAD')))
    .map(([h, body, method]): FuzzRequest => {
      // Mostly POST /, sometimes GET /?q= with the same text.
      if (method === 'GET')
        return {
          method,
          path: `/?q=${encodeURIComponent(body.toString('latin1'))}`.slice(0, 60_000),
          headers: h,
          dialect: 'v4',
          kind: 'v4 GET /?q=',
        };
      return {
        method: method === 'PATCH' || method === 'PUT' ? method : 'POST',
        path: '/',
        headers: h,
        body,
        dialect: 'v4',
        kind: 'v4 POST /',
      };
    });
  const v10Query = fc.tuple(headers, jsonBody(v10QueryBody(targets)), fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT')).map(
    ([h, body, method]): FuzzRequest => ({
      method,
      path: '/query/1',
      headers: h,
      body: method === 'GET' ? undefined : body,
      dialect: 'v10',
      kind: 'v10 /query/1',
    }),
  );
  // With well-formed headers, so that the query reaches the parser rather than a header check.
  const deepQuery = deepFqlQuery(targets.collection).map(
    (query): FuzzRequest => ({
      method: 'POST',
      path: '/query/1',
      headers: { authorization: `Bearer ${targets.secret}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ query }), 'utf8'),
      dialect: 'v10',
      kind: 'deep /query/1',
      fql: true,
    }),
  );
  // Well-formed requests whose FQL text is generated from the whole v10 language: each answer a success or a
  // positioned v10 error (FQL-SYNTAX-001, -003), with the deadline the drivers send by default.
  const fqlText = fc
    .tuple(
      fqlQueryText(targets.collection),
      fc.constantFrom<Record<string, string>>({}, { 'x-format': 'tagged' }, { 'x-format': 'decorated' }, { 'x-typecheck': 'false' }),
    )
    .map(
      ([query, extra]): FuzzRequest => ({
        method: 'POST',
        path: '/query/1',
        headers: { authorization: `Bearer ${targets.secret}`, 'content-type': 'application/json', 'x-query-timeout-ms': '5000', ...extra },
        body: Buffer.from(JSON.stringify({ query }), 'utf8'),
        dialect: 'v10',
        kind: 'fql /query/1',
        fql: true,
      }),
    );
  const feed = fc.tuple(headers, jsonBody(eventRequestBody(targets)), fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE')).map(
    ([h, body, method]): FuzzRequest => ({
      method,
      path: '/feed/1',
      headers: h,
      body: method === 'GET' ? undefined : body,
      dialect: 'v10',
      kind: 'v10 /feed/1',
    }),
  );
  const stream = fc.tuple(headers, jsonBody(eventRequestBody(targets)), fc.constantFrom('POST', 'POST', 'GET')).map(
    ([h, body, method]): FuzzRequest => ({
      method,
      path: '/stream/1',
      headers: h,
      body: method === 'GET' ? undefined : body,
      dialect: 'v10',
      kind: 'v10 /stream/1',
    }),
  );
  // The v4 driver's streams (DEC-064): the v4 expressions, with good, unknown or empty `fields`.
  const fields = fc.constantFrom(undefined, 'action,document', 'diff,prev,index', 'bogus', '', 'action,,document');
  const v4Stream = fc.tuple(headers, jsonBody(v4Expression(targets)), fields, fc.constantFrom('POST', 'POST', 'POST', 'GET')).map(
    ([h, body, f, method]): FuzzRequest => ({
      method,
      path: f === undefined ? '/stream' : `/stream?fields=${encodeURIComponent(f)}`,
      headers: h,
      body: method === 'GET' ? undefined : body,
      dialect: 'v4',
      kind: 'v4 /stream',
    }),
  );
  const rest = fc.tuple(headers, oddPath(targets), fc.constantFrom(...METHODS), fc.option(jsonBody(randomJson), { nil: undefined })).map(
    ([h, path, method, body]): FuzzRequest => ({
      method,
      path,
      headers: h,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      dialect: 'v4',
      kind: `${method} other-path`,
    }),
  );
  const ping = fc
    .tuple(headers, fc.constantFrom(...METHODS), fc.constantFrom('/ping', '/ping?scope=node', '/ping?scope=write', '/ping?scope=x'))
    .map(([h, method, path]): FuzzRequest => ({ method, path, headers: h, dialect: 'v4', kind: `${method} /ping` }));
  const oversized = fc.tuple(headers, fc.constantFrom('/', '/query/1', '/feed/1', '/stream/1')).map(
    ([h, path]): FuzzRequest => ({
      method: 'POST',
      path,
      headers: h,
      body: Buffer.alloc(targets.oversizedBytes, 0x20),
      dialect: path === '/' ? 'v4' : 'v10',
      kind: `oversized ${path}`,
    }),
  );
  return fc.oneof(
    { weight: 40, arbitrary: v4 },
    { weight: 20, arbitrary: v10Query },
    { weight: 15, arbitrary: fqlText },
    { weight: 1, arbitrary: deepQuery },
    { weight: 12, arbitrary: feed },
    { weight: 6, arbitrary: stream },
    { weight: 4, arbitrary: v4Stream },
    { weight: 10, arbitrary: rest },
    { weight: 3, arbitrary: ping },
    { weight: 1, arbitrary: fc.nat({ max: 49 }).chain((n) => (n === 0 ? oversized : v4)) },
  );
}
