// Request parameter headers (DEC-063): the headers the drivers send with every request (`x-last-seen-txn`,
// `x-query-timeout`, … on POST /; `x-last-txn-ts`, `x-query-timeout-ms`, … on /query/1 and /feed/1) are refused with
// 400 when malformed, in each endpoint family's error shape, and accepted when well formed. Every request carries a
// valid secret and a valid body, so only the header can be at fault.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { createCollection, expectProtocolError } from './protocol-wire.js';

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

describe('Request parameter headers on POST /', () => {
  const t = useTenant({ roles: ['server'] });

  check.each(NOT_LONGS.map((value) => ({ value })))(['PROTO-HEADER-005'], "x-last-seen-txn '$value' answers 400 bad request: Invalid timestamp", async ({ value }) => {
    const res = await t.server.query(TRUE_QUERY, { headers: { 'x-last-seen-txn': value } });
    expectV4BadHeader(res, `Invalid header 'x-last-seen-txn': Invalid timestamp '${value}'.`);
  });

  check.each(TIMEOUT_CASES)(['PROTO-HEADER-006'], "x-query-timeout '$value' answers 400 bad request: $error", async ({ value, error }) => {
    const res = await t.server.query(TRUE_QUERY, { headers: { 'x-query-timeout': value } });
    expectV4BadHeader(res, `Invalid header 'x-query-timeout': ${error}`);
  });

  check.each(RETRY_CASES)(['PROTO-HEADER-007'], "x-max-retries-on-contention '$value' answers 400 bad request: $error", async ({ value, error }) => {
    const res = await t.server.query(TRUE_QUERY, { headers: { 'x-max-retries-on-contention': value } });
    expectV4BadHeader(res, `Invalid header 'x-max-retries-on-contention': ${error}`);
  });

  check(['PROTO-HEADER-008'], 'well-formed x-last-seen-txn, x-query-timeout and x-max-retries-on-contention leave a read and a write answering as without them', async () => {
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
    const name = `header_write_${Math.random().toString(36).slice(2, 8)}`;
    const created = await t.server.query(createCollection(name), { headers: { 'x-last-seen-txn': seen!, 'x-query-timeout': '60000', 'x-max-retries-on-contention': '2' } });
    created.expectStatus(201);
    expect(created.resource.name, created.explain('created the collection')).toBe(name);
  });

  check(['PROTO-HEADER-013'], 'POST / ignores malformed x-last-txn-ts, x-query-timeout-ms, x-max-contention-retries, x-linearized, x-typecheck and x-performance-hints', async () => {
    for (const [name, value] of Object.entries(V10_ONLY_MALFORMED)) {
      const res = await t.server.query(TRUE_QUERY, { headers: { [name]: value } });
      res.expectStatus(200);
      expect(res.resource, res.explain(`ignores ${name}: ${value}`)).toBe(true);
    }
  });
});

describe('Request parameter headers on /query/1 and /feed/1', () => {
  const t = useTenant({ roles: ['server'] });
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

  check.each(NUMERIC_CASES)(['PROTO-HEADER-009'], "/query/1 with $name '$value' answers 400 invalid_request: $error", async ({ name, value, error }) => {
    const res = await t.server.fql(SOURCE_QUERY, undefined, { headers: { [name]: value } });
    expectV10BadRequest(res, `Invalid header '${name}': ${error}`);
  });

  check.each(
    ['x-linearized', 'x-typecheck', 'x-performance-hints'].flatMap((name) => ['yes', '1', 'maybe', 'truex'].map((value) => ({ name, value }))),
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
  ])(['PROTO-HEADER-011'], "/feed/1 with $name '$value' answers 400 invalid_request: Invalid headers: … $error", async ({ name, value, error }) => {
    const res = await t.server.feed({ token }, { headers: { [name]: value } });
    expectV10BadRequest(res, `Invalid headers: Invalid header '${name}': ${error}`);
  });

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
      { 'x-last-txn-ts': txnTs, 'x-query-timeout-ms': '5000', 'x-max-contention-retries': '3', 'x-linearized': 'false', 'x-typecheck': 'false', 'x-performance-hints': 'false' },
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
