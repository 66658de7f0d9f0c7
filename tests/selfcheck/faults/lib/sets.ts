// Helpers of the set faults: rewrites of the set expressions a query sends.
import type { FaultHooks } from '../../fault.js';
import { forEachObject, type JsonObject } from '../../json-body.js';
import { rewriteExpression } from './rewrites.js';

/**
 * Rewrites, in the request's expression, every object `matches` selects; the objects are collected first, so a
 * rewrite that nests the original is not visited again.
 */
export function rewriteObjects(matches: (object: JsonObject) => boolean, rewrite: (object: JsonObject) => boolean): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    const found: JsonObject[] = [];
    forEachObject(expression, (object) => {
      if (matches(object)) found.push(object);
    });
    return found.filter(rewrite).length;
  });
}

/** The one-key call `{name: operands}` of a set combination. */
const isCombination =
  (name: string) =>
  (object: JsonObject): boolean =>
    Object.keys(object).length === 1 && name in object;

/** A combination whose operands are all written as arrays (the array form of the functions). */
export const isArrayCombination =
  (name: string) =>
  (object: JsonObject): boolean =>
    isCombination(name)(object) &&
    Array.isArray(object[name]) &&
    (object[name] as unknown[]).length > 0 &&
    (object[name] as unknown[]).every(Array.isArray);
