// What conformance tests of the v4 API build and check: expressions in the v4 driver's wire form, record and error
// checks, and the few steps many files take (creating collections, indexes, walking pages). Only wire shapes:
// nothing here knows how a server is built. Area-specific steps stay with their area (events/event-fixtures.ts).
import { expect } from 'vitest';
import { validate } from '../../schemas/index.js';
import type { Client } from './client.js';
import type { WireValue } from './model/wire-order.js';
import type { Response } from './response.js';
import { decimal } from './wire-json.js';

// ---- Literals

/**
 * A value written in a test as a v4 expression: every object wrapped in `{"object": …}` so its keys are never read as
 * forms. Tagged values (`{"@ts": …}`, `{"@ref": …}`) are literals already and go out as they are, but for `@obj`,
 * whose fields are values again. Numbers go out as JSON has them: a bigint as an integer, `1.5` as a decimal, `1` as
 * an integer (use `decimals` for values read back from a server, whose decimals are numbers).
 */
export function literal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literal);
  if (value === null || typeof value !== 'object' || 'isLosslessNumber' in value) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '@obj') return { object: fieldsOf((value as { '@obj': object })['@obj'], literal) };
  if (keys.length === 1 && keys[0]!.startsWith('@')) return value;
  return { object: fieldsOf(value, literal) };
}

/** One level of `{"object": …}`: the fields' values are expressions, evaluated (a ref form, a lambda). */
export function obj(fields: Record<string, unknown>): unknown {
  return { object: fields };
}

/**
 * A value as `parseWireJson` reads it, made ready for `literal`: its numbers are decimals and stay decimals
 * (`1.0` goes out as `1.0`, -0 as `-0.0`).
 */
export function decimals(value: WireValue | undefined): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (Number.isNaN(value) || !Number.isFinite(value)) throw new TypeError('non-finite decimals have no JSON literal');
    return decimal(Object.is(value, -0) ? '-0.0' : Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : String(value));
  }
  if (Array.isArray(value)) return value.map(decimals);
  if (typeof value === 'object') return fieldsOf(value, decimals);
  return value;
}

/** The `@ts` literal of a time `micros` microseconds after the epoch, with all six fraction digits. */
export function timeOf(micros: bigint): unknown {
  const seconds = new Date(Number(micros / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return { '@ts': `${seconds}.${(micros % 1_000_000n).toString().padStart(6, '0')}Z` };
}

function fieldsOf(value: object, each: (v: never) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, each(v as never)]));
}

// ---- Refs and forms

export const collection = (name: string): unknown => ({ collection: name });
export const index = (name: string): unknown => ({ index: name });
export const database = (name: string): unknown => ({ database: name });
export const docRef = (coll: string, id: string): unknown => ({ ref: collection(coll), id });

export const createCollection = (name: string, extra: Record<string, unknown> = {}): unknown => ({
  create_collection: literal({ name, ...extra }),
});
export const createDatabase = (name: string, extra: Record<string, unknown> = {}): unknown => ({
  create_database: literal({ name, ...extra }),
});

/** `{"create_key": …}`; `db` undefined leaves `database` out (a key for the caller's own database), as does `role`. */
export function createKey(db: string | undefined, role: unknown, extra: Record<string, unknown> = {}): unknown {
  return {
    create_key: obj({ ...(db === undefined ? {} : { database: database(db) }), ...(role === undefined ? {} : { role }), ...extra }),
  };
}

/** The secret of a new key whose role is the custom role named `role` (answered 201 by `admin`). */
export async function roleKeySecret(admin: Client, role: string): Promise<string> {
  return (await admin.query(createKey(undefined, { role }))).expectStatus(201).resource.secret as string;
}

/** Create in `target`, a collection's name or an expression of a collection or document ref; `data` and `extra` are literals. */
export const createDoc = (target: unknown, data: unknown, extra: Record<string, unknown> = {}): unknown => ({
  create: typeof target === 'string' ? collection(target) : target,
  params: literal({ data, ...extra }),
});
export const updateDoc = (ref: unknown, data: unknown): unknown => ({ update: ref, params: literal({ data }) });
export const deleteDoc = (ref: unknown): unknown => ({ delete: ref });
export const getDoc = (ref: unknown): unknown => ({ get: ref });
export const exists = (ref: unknown): unknown => ({ exists: ref });

export interface ColumnSpec {
  field?: readonly (string | number)[] | string;
  binding?: string;
  reverse?: boolean;
  /** `mva: false` covers an array or object whole (the real service's attribute, not in the SD). */
  mva?: boolean;
}

export interface IndexSpec {
  name: string;
  source: unknown;
  terms?: readonly ColumnSpec[];
  values?: readonly ColumnSpec[];
  [extra: string]: unknown;
}

function column(c: ColumnSpec): unknown {
  const at = c.binding === undefined ? { field: c.field } : { binding: c.binding };
  return obj({ ...at, ...(c.reverse === undefined ? {} : { reverse: c.reverse }), ...(c.mva === undefined ? {} : { mva: c.mva }) });
}

/** `{"create_index": {"object": …}}`; extra attributes are sent as given. */
export function createIndex(spec: IndexSpec): unknown {
  const { name, source, terms, values, ...extra } = spec;
  const params: Record<string, unknown> = { name, source, ...extra };
  if (terms) params.terms = terms.map(column);
  if (values) params.values = values.map(column);
  return { create_index: obj(params) };
}

/** `{"lambda": params, "expr": expr}`; a role's predicate wraps it in `{"query": …}`. */
export const lambda = (params: string | readonly string[], expr: unknown): unknown => ({ lambda: params, expr });

export function match(indexName: string, terms?: unknown): unknown {
  return terms === undefined ? { match: index(indexName) } : { match: index(indexName), terms };
}

// ---- Steps

/** Creates the collections in one request (200 or 201). */
export async function createCollections(client: Client, ...names: string[]): Promise<void> {
  (await client.query(names.map((name) => createCollection(name)))).expectStatus(200, 201);
}

/** `POST /` with the exact bytes given and the client's secret, nothing added but the API version. */
export function postRaw(client: Client, body: string | Buffer, headers: Record<string, string | null> = {}): Promise<Response> {
  return client.request('POST', '/', { rawBody: body, headers: { 'x-faunadb-api-version': '4', ...headers } });
}

// ---- Answers

/** A status and the error code that goes with it; no code accepts any. */
export type AcceptedError = readonly [status: number, code?: string];

export const NOT_FOUND: readonly AcceptedError[] = [
  [404, 'instance not found'],
  [400, 'invalid ref'],
];
export const NO_INDEX: readonly AcceptedError[] = [
  [400, 'invalid ref'],
  [404, 'instance not found'],
];
export const INVALID_DEFINITION: readonly AcceptedError[] = [
  [400, 'validation failed'],
  [400, 'invalid argument'],
];

/**
 * A v4 query error, `{"errors":[{position, code, description}]}`, with one of the accepted statuses and codes;
 * answers its first error.
 */
export function expectQueryError(res: Response, ...accepted: readonly AcceptedError[]): Record<string, unknown> {
  const ok = accepted.some(([status, code]) => res.status === status && (code === undefined || res.errorCode === code));
  if (!ok)
    throw new Error(
      res.explain(`expected ${accepted.map(([s, c]) => `${s} ${c === undefined ? '(any code)' : JSON.stringify(c)}`).join(' or ')}`),
    );
  res.expectSchema('v4-query-error');
  const error = res.body.errors[0] as Record<string, unknown>;
  expect(Array.isArray(error.position), 'a query error carries a position array').toBe(true);
  expect(typeof error.description).toBe('string');
  return error;
}

/** A v4 protocol error: `{"errors":[{code, description}]}` with no `position`. */
export function expectProtocolError(res: Response, status: number, code: string): Record<string, unknown> {
  res.expectStatus(status).expectSchema('v4-protocol-error').expectErrorCode(code);
  const error = res.body.errors[0] as Record<string, unknown>;
  expect(error, 'a protocol error carries no position').not.toHaveProperty('position');
  expect(typeof error.description).toBe('string');
  return error;
}

/** `x-txn-time` as a bigint; fails when absent or not a decimal integer. */
export function txnTime(res: Response): bigint {
  const header = res.headers['x-txn-time'];
  expect(header, `${res.method} ${res.path} carries x-txn-time`).toMatch(/^\d+$/);
  return BigInt(header!);
}

/** The payload of a long-form ref value (`{"@ref": {id, collection?, …}}`); fails on anything else. */
export function refPayload(ref: unknown): { id: string; collection?: unknown; class?: unknown; database?: unknown } {
  expect(ref, 'a long-form ref {"@ref": {…}}').toMatchObject({ '@ref': expect.any(Object) });
  const payload = (ref as { '@ref': { id: string } })['@ref'];
  expect(typeof payload.id, 'the ref has a string id').toBe('string');
  return payload;
}

/** The id of a long-form ref, unchecked (for refs a page answered). */
export function refId(ref: WireValue): string {
  return (ref as { '@ref': { id: string } })['@ref'].id;
}

/** The ref a record of a user collection `coll` has with API version 4 wording. */
export function expectedCollectionRef(coll: string): unknown {
  return { '@ref': { id: coll, collection: { '@ref': { id: 'collections' } } } };
}

export function expectedDatabaseRef(name: string): unknown {
  return { '@ref': { id: name, collection: { '@ref': { id: 'databases' } } } };
}

/** Checks `value` against one of the project's record schemas (database, key, key-created, collection, document). */
export function expectRecord(schema: string, value: unknown): void {
  const result = validate(schema, JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))));
  expect(result.errors, `the record matches schema ${schema}`).toEqual([]);
}

// ---- Pages

export interface Page {
  data: WireValue[];
  after?: WireValue[];
  before?: WireValue[];
}

export async function paginate(client: Client, set: unknown, opts: Record<string, unknown> = {}): Promise<Page> {
  const res = (await client.query({ paginate: set, ...opts })).expectStatus(200);
  return res.resource as Page;
}

/** A cursor from a page sent back as an expression (refs and other tagged values are literals already). */
export function cursorExpr(cursor: WireValue[]): unknown {
  return literal(decimals(cursor));
}

/** Every page of a forward walk with `after`; fails if it does not end within `limit` pages. */
export async function walkForward(client: Client, set: unknown, size: number, limit = 500): Promise<Page[]> {
  const pages: Page[] = [];
  let after: WireValue[] | undefined;
  do {
    const page = await paginate(
      client,
      set,
      after === undefined ? { size: BigInt(size) } : { size: BigInt(size), after: cursorExpr(after) },
    );
    pages.push(page);
    after = page.after;
    expect(pages.length, 'a forward walk ends').toBeLessThanOrEqual(limit);
  } while (after !== undefined);
  return pages;
}

/**
 * Every page of a backward walk from the cursor `end`, last page first. The default, `before: null`, is the cursor
 * `[null]`, past every entry of a set whose first column is ascending; a reversed first column needs `pastEnd`.
 */
export async function walkBackward(
  client: Client,
  set: unknown,
  size: number,
  end: WireValue[] | null = null,
  limit = 500,
): Promise<Page[]> {
  const pages: Page[] = [];
  let before: WireValue[] | null | undefined = end;
  while (before !== undefined) {
    const page: Page = await paginate(client, set, { size: BigInt(size), before: before === null ? null : cursorExpr(before) });
    pages.push(page);
    before = page.before;
    expect(pages.length, 'a backward walk ends').toBeLessThanOrEqual(limit);
  }
  return pages;
}

/**
 * A cursor past every entry of an index whose covered values have these `reverse` flags: per value the one that sorts
 * last in its column (null, or the smallest integer in a reversed column), then null in the ref's place.
 */
export function pastEnd(reverse: readonly boolean[]): WireValue[] {
  return [...reverse.map((r) => (r ? -(2n ** 63n) : null)), null];
}

/** Creates the index and waits (polling Get with a deadline, DEC-033) until it reports `active: true`. */
export async function createActiveIndex(client: Client, spec: IndexSpec, deadlineMs = 10_000): Promise<Response> {
  const res = (await client.query(createIndex(spec))).expectStatus(201);
  await waitActive(client, spec.name, deadlineMs);
  return res;
}

export async function waitActive(client: Client, name: string, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const res = (await client.query(getDoc(index(name)))).expectStatus(200);
    if (res.resource.active === true) return;
    if (Date.now() > until) throw new Error(`index ${name} did not become active within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
