/**
 * The order LT, LTE, GT, GTE, Max and Min compare values in (profile `v4-functions`, DEC-065). The real service
 * compares the values' storage encodings, the same order as index values (`indexes/value-order.ts`): integers and
 * decimals are one numeric type (1 < 1.5 < 2, and 1 equals 1.0), and the types come in the order numbers, bytes,
 * strings, arrays, objects, refs, times, dates, lambdas, booleans (false before true), null.
 *
 * Within a type: integers exactly; an integer against a decimal as two decimals (the integer rounded to the nearest
 * decimal); decimals as Java's `Double.compare` (-0.0 before 0.0, NaN after +Infinity); strings, refs, times, dates,
 * bytes as in the index order; arrays element by element, then the shorter first; objects as the sequence key1,
 * value1, key2, value2, … with keys in string order, then the smaller object first. A set is compared as the object
 * `{"@set": structure}` (the real service encodes set values that way).
 */
import type { Value } from '../values/value.js';
import { compareValues } from '../indexes/value-order.js';
import { failpoint } from '../failpoints.js';
import { EqualPairs } from './equal-pairs.js';

const equalPairs = new EqualPairs();

// Implements: FN-CMP-002, FN-CMP-003, FN-CMP-004
/**
 * -1, 0 or 1 as `a` sorts before, with, or after `b` in the comparison order: the index order, remembering the
 * pairs of containers found equal, since a query's values may share their parts (Reduce's `[acc, acc]`).
 */
export function compareForComparison(a: Value, b: Value): number {
  equalPairs.start();
  return deviation(a, b) ?? compareValues(a, b, equalPairs);
}

const order = <T>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);
const isNumber = (v: Value): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';

/** The self-check's failpoints for the comparison of two plain values (undefined: none applies). */
function deviation(a: Value, b: Value): number | undefined {
  if (typeof a === 'string' && typeof b === 'string' && failpoint('CMP-STRINGS-BY-CODE-UNIT')) return order(a, b);
  if (!isNumber(a) || !isNumber(b) || (typeof a === 'bigint' && typeof b === 'bigint')) return undefined;
  // Integers and decimals as two types, integers first; or numbers by IEEE operators (-0.0 equals 0).
  if (typeof a !== typeof b && failpoint('CMP-INDEX-TYPE-ORDER')) return typeof a === 'bigint' ? -1 : 1;
  return failpoint('CMP-IEEE-SIGNED-ZERO') ? order(Number(a), Number(b)) : undefined;
}
