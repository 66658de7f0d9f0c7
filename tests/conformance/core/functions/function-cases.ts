// What the function families' data-driven tests share: the shape of a case and the exact checks of an answer.
import { expect } from 'vitest';
import { stringifyWireJson, type Client, type Response } from '../../../harness/index.js';
import { expectQueryError } from '../protocol-wire.js';

/** A call and the value it answers; `ids` are the requirements the case checks, where a table mixes several. */
export interface ResultCase {
  name: string;
  ids: readonly string[];
  expr: unknown;
  expected: unknown;
}

/** A call and the one error it answers. */
export interface ErrorCase {
  name: string;
  ids: readonly string[];
  expr: unknown;
  position: unknown[];
  description: string;
}

/** A 200 whose resource is exactly `expected` (integers are bigints, decimals numbers; -0 and 0 differ). */
export function expectResult(res: Response, expected: unknown): void {
  res.expectStatus(200);
  expect(res.resource, res.explain('answered another value')).toStrictEqual(expected);
  if (typeof expected === 'number') expect(Object.is(res.resource, expected), res.explain('has the wrong sign of zero')).toBe(true);
}

/** A 400 invalid argument whose first error has exactly this position and description. */
export function expectInvalidArgument(res: Response, position: unknown[], description: string): void {
  const error = expectQueryError(res, 400, 'invalid argument');
  expect(error.position, res.explain('reports another position')).toEqual(position.map((p) => (typeof p === 'number' ? BigInt(p) : p)));
  expect(error.description, res.explain('has another description')).toBe(description);
}

/** The resource of a query that must answer 200. */
export async function resultOf(client: Client, expr: unknown): Promise<any> {
  return (await client.query(expr)).expectStatus(200).resource;
}

/** A query that must fail with `status` and `code`, its first error having exactly `description` and `position`. */
export async function expectFailure(client: Client, expr: unknown, status: number, code: string, description: string, position: unknown[]): Promise<void> {
  const error = expectQueryError(await client.query(expr), status, code);
  expect(error.description).toBe(description);
  expect(error.position).toEqual(position);
}

/** Cases named by their expression's wire JSON (titles cannot show bigint values otherwise). */
export function named<T extends { expr: unknown }>(cases: readonly T[]): Array<T & { name: string }> {
  return cases.map((c) => ({ ...c, name: stringifyWireJson(c.expr) }));
}
