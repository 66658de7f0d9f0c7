// Expression builders and page walkers shared by the indexes, ordering and paging conformance files. Only
// wire shapes: nothing here knows how a server is built.
import { expect } from 'vitest';
import { decimal, type Client, type Response } from '../../harness/index.js';
import type { WireValue } from '../../harness/model/wire-order.js';

/** A wire value (as `parseWireJson` reads it) as a v4 expression that evaluates to that value. */
export function wireExpr(value: WireValue | undefined): unknown {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value ?? null;
  if (typeof value === 'number') {
    if (Number.isNaN(value) || !Number.isFinite(value)) throw new TypeError('non-finite decimals have no JSON literal');
    const text = Object.is(value, -0) ? '-0.0' : Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : String(value);
    return decimal(text);
  }
  if (Array.isArray(value)) return value.map(wireExpr);
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith('@') && keys[0] !== '@obj') return value;
  const inner = keys.length === 1 && keys[0] === '@obj' ? (value['@obj'] as { [k: string]: WireValue }) : value;
  return { object: Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, wireExpr(v)])) };
}

export const collection = (name: string): unknown => ({ collection: name });
export const index = (name: string): unknown => ({ index: name });

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
  return { object: { ...at, ...(c.reverse === undefined ? {} : { reverse: c.reverse }), ...(c.mva === undefined ? {} : { mva: c.mva }) } };
}

/** `{"create_index": {"object": …}}`; extra attributes are sent as given. */
export function createIndex(spec: IndexSpec): unknown {
  const { name, source, terms, values, ...extra } = spec;
  const params: Record<string, unknown> = { name, source, ...extra };
  if (terms) params['terms'] = terms.map(column);
  if (values) params['values'] = values.map(column);
  return { create_index: { object: params } };
}

export function match(indexName: string, terms?: unknown): unknown {
  return terms === undefined ? { match: index(indexName) } : { match: index(indexName), terms };
}

export function createDoc(coll: string, data: Record<string, unknown> | WireValue): unknown {
  return { create: collection(coll), params: { object: { data: wireExpr(data as WireValue) } } };
}

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
  return cursor.map(wireExpr);
}

/** Every page of a forward walk with `after`; fails if it does not end within `limit` pages. */
export async function walkForward(client: Client, set: unknown, size: number, limit = 500): Promise<Page[]> {
  const pages: Page[] = [];
  let after: WireValue[] | undefined;
  do {
    const page = await paginate(client, set, after === undefined ? { size: BigInt(size) } : { size: BigInt(size), after: cursorExpr(after) });
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
export async function walkBackward(client: Client, set: unknown, size: number, end: WireValue[] | null = null, limit = 500): Promise<Page[]> {
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
    const res = (await client.query({ get: index(name) })).expectStatus(200);
    if (res.resource.active === true) return;
    if (Date.now() > until) throw new Error(`index ${name} did not become active within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A v4 query error with one of the accepted (status, code) pairs; `code` undefined accepts any code. */
export function expectQueryError(res: Response, accepted: ReadonlyArray<readonly [number, string | undefined]>): void {
  const ok = accepted.some(([status, code]) => res.status === status && (code === undefined || res.errorCode === code));
  if (!ok) throw new Error(res.explain(`expected ${accepted.map(([s, c]) => `${s} ${c ?? '(any code)'}`).join(' or ')}`));
}

export const NO_INDEX: ReadonlyArray<readonly [number, string]> = [[400, 'invalid ref'], [404, 'instance not found']];
export const INVALID_DEFINITION: ReadonlyArray<readonly [number, string]> = [[400, 'validation failed'], [400, 'invalid argument']];

/** The id of a long-form ref. */
export function refId(ref: WireValue): string {
  return ((ref as { '@ref': { id: string } })['@ref']).id;
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
}
