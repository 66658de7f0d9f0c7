// Expression builders and error-shape checks shared by the protocol and transaction files. Wire shapes only.
import { expect } from 'vitest';
import type { Client, Response } from '../../harness/index.js';

/**
 * A literal as a v4 expression: objects wrapped in `{"object": …}` so their keys are never read as forms;
 * tagged values (`{"@ts": …}`, `{"@ref": …}`) are literals already and go out as they are.
 */
export function lit(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lit);
  if (value !== null && typeof value === 'object' && !('isLosslessNumber' in value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0]!.startsWith('@')) return value;
    return { object: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lit(v)])) };
  }
  return value;
}

export const collectionRef = (name: string): unknown => ({ collection: name });
export const docRef = (coll: string, id: string): unknown => ({ ref: { collection: coll }, id });
export const createCollection = (name: string): unknown => ({ create_collection: { object: { name } } });
export const createDoc = (target: unknown, data: Record<string, unknown>): unknown => ({ create: target, params: lit({ data }) });
export const updateDoc = (target: unknown, data: Record<string, unknown>): unknown => ({ update: target, params: lit({ data }) });
export const getDoc = (target: unknown): unknown => ({ get: target });
export const exists = (target: unknown): unknown => ({ exists: target });

/** `POST /` with the exact bytes given and the client's secret, nothing added but the API version. */
export function postRaw(client: Client, body: string | Buffer, headers: Record<string, string | null> = {}): Promise<Response> {
  return client.request('POST', '/', { rawBody: body, headers: { 'x-faunadb-api-version': '4', ...headers } });
}

/** A v4 query error: `{"errors":[{position, code, description}]}` with the given status and one of the codes. */
export function expectQueryError(res: Response, status: number, ...codes: string[]): Record<string, unknown> {
  res.expectStatus(status).expectSchema('v4-query-error').expectErrorCode(...codes);
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
