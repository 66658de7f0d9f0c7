// What the function families' data-driven tests share: the shape of a case and the exact checks of an answer.
import { expect } from 'vitest';
import { check, stringifyWireJson, type Client, type Response } from '../../../harness/index.js';
import { expectProtocolError, expectQueryError } from '../../../harness/v4.js';

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

/**
 * One test per case of each table, in the describe block it is called from: each result case answers exactly its
 * value, each error case 400 `invalid argument` at its position with its description.
 */
export function checkCases(client: () => Client, results: readonly ResultCase[], errors: readonly ErrorCase[] = []): void {
  if (results.length > 0)
    check.each(results)(
      (c) => c.ids,
      '$name',
      async ({ expr, expected }) => {
        expectResult(await client().query(expr), expected);
      },
    );
  if (errors.length > 0)
    check.each(errors)(
      (c) => c.ids,
      '$name answers invalid argument',
      async ({ expr, position, description }) => {
        expectInvalidArgument(await client().query(expr), position, description);
      },
    );
}

/** A 200 whose resource is exactly `expected` (integers are bigints, decimals numbers; -0 and 0 differ). */
export function expectResult(res: Response, expected: unknown): void {
  res.expectStatus(200);
  expect(res.resource, res.explain('answered another value')).toStrictEqual(expected);
  if (typeof expected === 'number') expect(Object.is(res.resource, expected), res.explain('has the wrong sign of zero')).toBe(true);
}

/** A 400 invalid argument whose first error has exactly this position and description. */
export function expectInvalidArgument(res: Response, position: unknown[], description: string): void {
  const error = expectQueryError(res, [400, 'invalid argument']);
  expect(error.position, res.explain('reports another position')).toEqual(position.map((p) => (typeof p === 'number' ? BigInt(p) : p)));
  expect(error.description, res.explain('has another description')).toBe(description);
}

/** The resource of a query that must answer 200. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function resultOf(client: Client, expr: unknown): Promise<any> {
  return (await client.query(expr)).expectStatus(200).resource;
}

/** A query that must fail with `status` and `code`, its first error having exactly `description` and `position`. */
export async function expectFailure(
  client: Client,
  expr: unknown,
  status: number,
  code: string,
  description: string,
  position: unknown[],
): Promise<void> {
  const error = expectQueryError(await client.query(expr), [status, code]);
  expect(error.description).toBe(description);
  expect(error.position).toEqual(position);
}

/** Cases named by their expression's wire JSON (titles cannot show bigint values otherwise). */
export function named<T extends { expr: unknown }>(cases: readonly T[]): Array<T & { name: string }> {
  return cases.map((c) => ({ ...c, name: stringifyWireJson(c.expr) }));
}

/** The description of this project's refusal of a result too long to build (FN-STR-019, FN-STR-032, FN-FMT-013). */
export const TOO_LONG = 'result length must be <= 8388608';

/**
 * A result that a server may refuse as too long (a MAY: the limit is this project's, the real service builds it):
 * either 400 invalid argument `refusal` at `position`, or 200 whose resource `built` accepts.
 */
export function expectRefusedOrBuilt(res: Response, position: unknown[], built: (resource: unknown) => void, refusal = TOO_LONG): void {
  if (res.status === 200) {
    built(res.resource);
    return;
  }
  expectInvalidArgument(res, position, refusal);
}

/** A string of `length` copies of `unit`, checked without printing it whole when it differs. */
export function expectRepeated(value: unknown, unit: string, count: number): void {
  expect(typeof value, 'the answer is a string').toBe('string');
  const text = value as string;
  expect(text.length, 'the string has another length').toBe(unit.length * count);
  expect(text === unit.repeat(count), 'the string holds other characters').toBe(true);
}

/**
 * What the real service answers for work this project lets a server stop (FN-STR-033, a MAY): the server's own stop,
 * 440 `processing time limit exceeded`; the query's deadline, 503 `time out`; or, once done, 200 with `expected`.
 */
export function expectStoppedOrDone(res: Response, done: (resource: unknown) => void): void {
  if (res.status === 200) done(res.resource);
  else if (res.status === 503) expectProtocolError(res, 503, 'time out');
  else expectProtocolError(res, 440, 'processing time limit exceeded');
}
