// Request parameter headers (DEC-063): the headers the drivers send with every request (`x-last-seen-txn`,
// `x-query-timeout`, … on POST /; `x-last-txn-ts`, `x-query-timeout-ms`, … on /query/1 and /feed/1) are refused with
// 400 when malformed, in each endpoint family's error shape, and accepted when well formed. Every request carries a
// valid secret and a valid body, so only the header can be at fault. The tags headers and `x-format` are DEC-066.
import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueName, useTenant, type Response } from '../../harness/index.js';
import { createCollection, expectProtocolError, postRaw } from '../../harness/v4.js';

/** A v4 query that reads nothing and answers `true`. */
const TRUE_QUERY = { equals: [3, 3] };
const COLLECTION = 'HeaderThings';
const SOURCE_QUERY = `${COLLECTION}.all().eventSource()`;

function expectV4BadHeader(res: Response, description: string): void {
  const error = expectProtocolError(res, 400, 'bad request');
  expect(error.description, res.explain('names the header and what is wrong with it')).toBe(description);
}

function expectV10BadRequest(res: Response, message: string): void {
  res.expectStatus(400).expectSchema('v10-error').expectErrorCode('invalid_request');
  expect(res.body.error.message, res.explain('names the header and what is wrong with it')).toBe(message);
}

/** Values that are not decimal 64-bit integers (a time, a timeout). */
const NOT_LONGS = ['yesterday', '1.5', '1e6', '0x10', '9223372036854775808', '-9223372036854775809'];

const TIMEOUT_CASES = [
  ...NOT_LONGS.map((value) => ({ value, error: `Invalid number '${value}'.` })),
  { value: '0', error: 'Must be greater than 0.' },
  { value: '-1', error: 'Must be greater than 0.' },
  { value: '600001', error: 'Must be less than or equal to 600000.' },
  { value: '9223372036854775807', error: 'Must be less than or equal to 600000.' },
];

const RETRY_CASES = [
  { value: 'many', error: "Invalid number 'many'." },
  { value: '2.5', error: "Invalid number '2.5'." },
  { value: '2147483648', error: "Invalid number '2147483648'." },
  { value: '8', error: 'Must be between 0 and 7.' },
  { value: '-1', error: 'Must be between 0 and 7.' },
  { value: '2147483647', error: 'Must be between 0 and 7.' },
];

/** Malformed values of the headers only /query/1 and /feed/1 read (all refused there). */
const V10_ONLY_MALFORMED = {
  'x-last-txn-ts': 'yesterday',
  'x-query-timeout-ms': '0',
  'x-max-contention-retries': '9',
  'x-linearized': 'maybe',
  'x-typecheck': 'maybe',
  'x-performance-hints': 'maybe',
};

// The tests send headers and read, or write collections of their own names, so they run at once, in one tenant for
// the file.
const t = useTenant({ roles: ['server'] });

describe.concurrent('Request parameter headers on POST /', () => {
  check.each(NOT_LONGS.map((value) => ({ value })))(
    ['PROTO-HEADER-005'],
    "x-last-seen-txn '$value' answers 400 bad request: Invalid timestamp",
    async ({ value }) => {
      const res = await t.server.query(TRUE_QUERY, { headers: { 'x-last-seen-txn': value } });
      expectV4BadHeader(res, `Invalid header 'x-last-seen-txn': Invalid timestamp '${value}'.`);
    },
  );

  check.each(TIMEOUT_CASES)(['PROTO-HEADER-006'], "x-query-timeout '$value' answers 400 bad request: $error", async ({ value, error }) => {
    const res = await t.server.query(TRUE_QUERY, { headers: { 'x-query-timeout': value } });
    expectV4BadHeader(res, `Invalid header 'x-query-timeout': ${error}`);
  });

  check.each(RETRY_CASES)(
    ['PROTO-HEADER-007'],
    "x-max-retries-on-contention '$value' answers 400 bad request: $error",
    async ({ value, error }) => {
      const res = await t.server.query(TRUE_QUERY, { headers: { 'x-max-retries-on-contention': value } });
      expectV4BadHeader(res, `Invalid header 'x-max-retries-on-contention': ${error}`);
    },
  );

  check(
    ['PROTO-HEADER-008'],
    'well-formed x-last-seen-txn, x-query-timeout and x-max-retries-on-contention leave a read and a write answering as without them',
    async () => {
      const plain = (await t.server.query(TRUE_QUERY)).expectStatus(200);
      expect(plain.resource).toBe(true);
      const seen = plain.headers['x-txn-time'];
      expect(seen, plain.explain('carries x-txn-time')).toMatch(/^\d+$/);
      const variants: Record<string, string>[] = [
        { 'x-last-seen-txn': seen! },
        { 'x-last-seen-txn': '0' },
        { 'x-last-seen-txn': '-1' },
        { 'x-query-timeout': '60000' },
        { 'x-query-timeout': '600000' },
        { 'x-max-retries-on-contention': '0' },
        { 'x-max-retries-on-contention': '7' },
        { 'x-last-seen-txn': seen!, 'x-query-timeout': '60000', 'x-max-retries-on-contention': '3' },
      ];
      for (const headers of variants) {
        const res = await t.server.query(TRUE_QUERY, { headers });
        res.expectStatus(200);
        expect(res.resource, res.explain(`answers true with ${JSON.stringify(headers)}`)).toBe(true);
      }
      const name = uniqueName('header_write');
      const created = await t.server.query(createCollection(name), {
        headers: { 'x-last-seen-txn': seen!, 'x-query-timeout': '60000', 'x-max-retries-on-contention': '2' },
      });
      created.expectStatus(201);
      expect(created.resource.name, created.explain('created the collection')).toBe(name);
    },
  );

  check(
    ['PROTO-HEADER-013'],
    'POST / ignores malformed x-last-txn-ts, x-query-timeout-ms, x-max-contention-retries, x-linearized, x-typecheck and x-performance-hints',
    async () => {
      for (const [name, value] of Object.entries(V10_ONLY_MALFORMED)) {
        const res = await t.server.query(TRUE_QUERY, { headers: { [name]: value } });
        res.expectStatus(200);
        expect(res.resource, res.explain(`ignores ${name}: ${value}`)).toBe(true);
      }
    },
  );
});

describe.concurrent('Request parameter headers on /query/1 and /feed/1', () => {
  let token: string;
  let txnTs: string;

  beforeAll(async () => {
    (await t.server.query(createCollection(COLLECTION))).expectStatus(201);
    const res = (await t.server.fql(SOURCE_QUERY)).expectStatus(200);
    token = res.body.data['@stream'];
    txnTs = String(res.body.txn_ts);
    expect(typeof token, res.explain('answers an event source token')).toBe('string');
  });

  const NUMERIC_CASES = [
    ...NOT_LONGS.map((value) => ({ name: 'x-last-txn-ts', value, error: `Invalid timestamp '${value}'.` })),
    ...TIMEOUT_CASES.map((c) => ({ name: 'x-query-timeout-ms', ...c })),
    ...RETRY_CASES.map((c) => ({ name: 'x-max-contention-retries', ...c })),
  ];

  check.each(NUMERIC_CASES)(
    ['PROTO-HEADER-009'],
    "/query/1 with $name '$value' answers 400 invalid_request: $error",
    async ({ name, value, error }) => {
      const res = await t.server.fql(SOURCE_QUERY, undefined, { headers: { [name]: value } });
      expectV10BadRequest(res, `Invalid header '${name}': ${error}`);
    },
  );

  check.each(
    ['x-linearized', 'x-typecheck', 'x-performance-hints'].flatMap((name) =>
      ['yes', '1', 'maybe', 'truex'].map((value) => ({ name, value })),
    ),
  )(['PROTO-HEADER-010'], "/query/1 with $name '$value' answers 400 invalid_request: Must be a boolean value", async ({ name, value }) => {
    const res = await t.server.fql(SOURCE_QUERY, undefined, { headers: { [name]: value } });
    expectV10BadRequest(res, `Invalid header '${name}': Must be a boolean value.`);
  });

  check.each([
    { name: 'x-last-txn-ts', value: 'yesterday', error: "Invalid timestamp 'yesterday'." },
    { name: 'x-last-txn-ts', value: '9223372036854775808', error: "Invalid timestamp '9223372036854775808'." },
    { name: 'x-query-timeout-ms', value: '5s', error: "Invalid number '5s'." },
    { name: 'x-query-timeout-ms', value: '0', error: 'Must be greater than 0.' },
    { name: 'x-query-timeout-ms', value: '600001', error: 'Must be less than or equal to 600000.' },
    { name: 'x-max-contention-retries', value: 'many', error: "Invalid number 'many'." },
    { name: 'x-max-contention-retries', value: '8', error: 'Must be between 0 and 7.' },
  ])(
    ['PROTO-HEADER-011'],
    "/feed/1 with $name '$value' answers 400 invalid_request: Invalid headers: … $error",
    async ({ name, value, error }) => {
      const res = await t.server.feed({ token }, { headers: { [name]: value } });
      expectV10BadRequest(res, `Invalid headers: Invalid header '${name}': ${error}`);
    },
  );

  check(['PROTO-HEADER-012'], '/query/1 and /feed/1 answer 200 with well-formed values of the headers they read', async () => {
    const queryVariants: Record<string, string>[] = [
      { 'x-last-txn-ts': txnTs },
      { 'x-last-txn-ts': '0' },
      { 'x-query-timeout-ms': '60000' },
      { 'x-query-timeout-ms': '600000' },
      { 'x-max-contention-retries': '0' },
      { 'x-max-contention-retries': '7' },
      { 'x-linearized': 'true' },
      { 'x-linearized': 'False' },
      { 'x-typecheck': 'false' },
      { 'x-typecheck': 'TRUE' },
      { 'x-performance-hints': 'true' },
      { 'x-performance-hints': 'false' },
      {
        'x-last-txn-ts': txnTs,
        'x-query-timeout-ms': '5000',
        'x-max-contention-retries': '3',
        'x-linearized': 'false',
        'x-typecheck': 'false',
        'x-performance-hints': 'false',
      },
    ];
    for (const headers of queryVariants) {
      const res = await t.server.fql(SOURCE_QUERY, undefined, { headers });
      expect(res.status, res.explain(`answers 200 with ${JSON.stringify(headers)}`)).toBe(200);
      expect(typeof res.body.data?.['@stream'], res.explain('answers an event source token')).toBe('string');
    }
    const feedVariants: Record<string, string>[] = [
      { 'x-last-txn-ts': txnTs },
      { 'x-query-timeout-ms': '5000' },
      { 'x-max-contention-retries': '0' },
      { 'x-last-txn-ts': txnTs, 'x-query-timeout-ms': '600000', 'x-max-contention-retries': '7' },
    ];
    for (const headers of feedVariants) {
      const res = await t.server.feed({ token }, { headers });
      expect(res.status, res.explain(`answers 200 with ${JSON.stringify(headers)}`)).toBe(200);
      expect(Array.isArray(res.body.events), res.explain('answers a feed page')).toBe(true);
    }
  });
});

/** Tags headers (`x-fauna-tags` on v4, `x-query-tags` on /query/1) and the error each malformed one gets (DEC-066). */
const pairs = (count: number) => Array.from({ length: count }, (_, i) => `k${i}=v${i}`).join(',');
const MALFORMED_TAGS = [
  { value: 'foo,,', error: 'invalid tags' },
  { value: 'foo', error: 'invalid tags' },
  { value: 'a=1,', error: 'invalid tags' },
  { value: 'a=', error: 'invalid tags' },
  { value: '=1', error: 'invalid tags' },
  { value: 'a=1=2', error: 'invalid tags' },
  { value: 'a-b=1', error: 'invalid tags' },
  { value: 'a=x y', error: 'invalid tags' },
  { value: 'caf\u00e9=1', error: 'invalid tags' },
  { value: pairs(26), error: 'too many tags' },
  { value: `${'k'.repeat(41)}=1`, error: 'invalid key' },
  { value: `a=${'v'.repeat(81)}`, error: 'invalid value' },
  { value: 'a=1,b=2,a=3', error: 'duplicate key' },
  { value: `a=${'v'.repeat(81)},${'k'.repeat(41)}=1`, error: 'invalid key' },
  // 25 pairs of the longest key and value: every limit but the header's length is met.
  {
    value: Array.from({ length: 25 }, (_, i) => `${'k'.repeat(38)}${String(i).padStart(2, '0')}=${'v'.repeat(80)}`).join(','),
    error: 'header is too long',
  },
];
const WELL_FORMED_TAGS = ['', 'a=1', 'foo=bar,baz_2=QUX_3', pairs(25), `${'k'.repeat(40)}=${'v'.repeat(80)}`];

describe.concurrent('Query tags and x-format', () => {
  beforeAll(async () => {
    (await t.server.query(createCollection(`${COLLECTION}Tags`))).expectStatus(201);
  });

  check.each(MALFORMED_TAGS.map(({ value, error }) => ({ value, error, shown: value.length > 40 ? `${value.slice(0, 37)}…` : value })))(
    ['PROTO-HEADER-014'],
    "x-fauna-tags '$shown' answers 400 bad request: $error",
    async ({ value, error }) => {
      const res = await t.server.query(TRUE_QUERY, { headers: { 'x-fauna-tags': value } });
      expectV4BadHeader(res, `Invalid header 'x-fauna-tags': ${error}`);
    },
  );

  check.each(MALFORMED_TAGS.map(({ value, error }) => ({ value, error, shown: value.length > 40 ? `${value.slice(0, 37)}…` : value })))(
    ['PROTO-HEADER-015'],
    "/query/1 with x-query-tags '$shown' answers 400 invalid_request: $error",
    async ({ value, error }) => {
      const res = await t.server.fql(`${COLLECTION}Tags.all().eventSource()`, undefined, { headers: { 'x-query-tags': value } });
      expectV10BadRequest(res, `Invalid header 'x-query-tags': ${error}`);
    },
  );

  check(
    ['PROTO-HEADER-016'],
    'well-formed tags headers are accepted: x-fauna-tags on POST /, x-query-tags on /query/1 (echoed as query_tags)',
    async () => {
      for (const value of WELL_FORMED_TAGS) {
        const res = await t.server.query(TRUE_QUERY, { headers: { 'x-fauna-tags': value } });
        res.expectStatus(200);
        expect(res.resource, res.explain(`answers true with x-fauna-tags '${value}'`)).toBe(true);
        const fql = await t.server.fql(`${COLLECTION}Tags.all().eventSource()`, undefined, { headers: { 'x-query-tags': value } });
        expect(fql.status, fql.explain(`answers 200 with x-query-tags '${value}'`)).toBe(200);
        if (value !== '') expect(typeof fql.body.query_tags, fql.explain('echoes the tags as query_tags')).toBe('string');
      }
    },
  );

  check.each([{ value: 'json' }, { value: 'Tagged' }, { value: 'SIMPLE' }, { value: 'decorated_' }, { value: '' }])(
    ['PROTO-HEADER-017'],
    "/query/1 with x-format '$value' answers 400 invalid_request: Invalid format",
    async ({ value }) => {
      const res = await t.server.request('POST', '/query/1', {
        body: { query: `${COLLECTION}Tags.all().eventSource()` },
        headers: { 'x-format': value },
      });
      expectV10BadRequest(res, `Invalid header 'x-format': Invalid format ${value}`);
    },
  );
});

describe.concurrent('The API version is read before the secret', () => {
  check.each([{ version: '9' }, { version: 'banana' }])(
    ['PROTO-VERSION-009'],
    'an unsupported X-FaunaDB-API-Version ($version) answers 400 bad request without a secret, with an unknown one, and on GET /ping',
    async ({ version }) => {
      const expected = `Invalid header 'x-faunadb-api-version': Unsupported or invalid API version '${version}'.`;
      for (const authorization of [null, 'Bearer not-a-secret-of-this-server']) {
        const res = await postRaw(t.server, '{"equals":[3,3]}', { authorization, 'x-faunadb-api-version': version });
        const error = expectProtocolError(res, 400, 'bad request');
        expect(error.description, res.explain(`names the version (authorization: ${authorization})`)).toBe(expected);
      }
      const ping = await t.server.request('GET', '/ping', { headers: { 'x-faunadb-api-version': version } });
      expectProtocolError(ping, 400, 'bad request');
    },
  );
});
