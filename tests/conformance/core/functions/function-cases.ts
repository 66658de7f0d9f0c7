// What the function families' data-driven tests share: the shape of a case and the exact checks of an answer.
import { expect } from 'vitest';
import type { Response } from '../../../harness/index.js';
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
