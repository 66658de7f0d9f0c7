// Expression builders and record checks shared by the core conformance files (databases, keys, collections,
// documents). Only wire shapes: nothing here knows how a server is built.
import { expect } from 'vitest';
import { validate } from '../../../schemas/index.js';
import type { Response } from '../../harness/index.js';

/** A literal value as a v4 expression: every object wrapped in `{"object": …}` so keys are never read as forms. */
export function literal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literal);
  if (value !== null && typeof value === 'object' && !('isLosslessNumber' in value)) {
    return { object: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)])) };
  }
  return value;
}

export const collection = (name: string): unknown => ({ collection: name });
export const database = (name: string): unknown => ({ database: name });
export const documentRef = (coll: string, id: string): unknown => ({ ref: { collection: coll }, id });

export function createDocument(target: unknown, data: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return { create: target, params: literal({ data, ...extra }) };
}

export const createCollection = (name: string, extra: Record<string, unknown> = {}): unknown => ({ create_collection: literal({ name, ...extra }) });
export const createDatabase = (name: string, extra: Record<string, unknown> = {}): unknown => ({ create_database: literal({ name, ...extra }) });

/** `{"create_key": …}`; `db` undefined leaves `database` out (a key for the caller's own database). */
export function createKey(db: string | undefined, role: unknown, extra: Record<string, unknown> = {}): unknown {
  const fields: Record<string, unknown> = { ...(db === undefined ? {} : { database: database(db) }), ...(role === undefined ? {} : { role }), ...extra };
  return { create_key: { object: fields } };
}

/** The payload of a long-form ref value (`{"@ref": {id, collection?, …}}`); fails on anything else. */
export function refPayload(ref: unknown): { id: string; collection?: unknown; class?: unknown; database?: unknown } {
  expect(ref, 'a long-form ref {"@ref": {…}}').toMatchObject({ '@ref': expect.any(Object) });
  const payload = (ref as { '@ref': { id: string } })['@ref'];
  expect(typeof payload.id, 'the ref has a string id').toBe('string');
  return payload;
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

/** The transaction time a write answered with, as a bigint; fails when the header is missing or not an integer. */
export function txnTime(res: Response): bigint {
  const header = res.headers['x-txn-time'];
  expect(header, 'x-txn-time header').toMatch(/^\d+$/);
  return BigInt(header!);
}

/** A v4 query error with one of the accepted (status, code) pairs. */
export function expectQueryError(res: Response, accepted: ReadonlyArray<readonly [number, string]>): void {
  const ok = accepted.some(([status, code]) => res.status === status && res.errorCode === code);
  if (!ok) throw new Error(res.explain(`expected ${accepted.map(([s, c]) => `${s} "${c}"`).join(' or ')}`));
}

export const NOT_FOUND: ReadonlyArray<readonly [number, string]> = [[404, 'instance not found'], [400, 'invalid ref']];

/** A name unique within this run, so re-running a file against a shared server never collides. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
}
