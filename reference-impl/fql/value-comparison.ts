/**
 * Equality and ordering of values as FQL operators see them. Integers and decimals compare numerically
 * (`1 == 1.0`). Ordering is defined within a type (numbers, strings, booleans, times, dates); values of
 * different types are unordered, so `<`, `<=`, `>`, `>=` between them are false — a predicate such as
 * `.price > 10` simply does not match a document whose `price` is missing (null).
 */
import { Bytes, DateValue, isObjectValue, QueryValue, Ref, SetRef, Time, type Value } from '../values/value.js';

export function valuesEqual(a: Value, b: Value): boolean {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) === 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i] as Value));
  }
  if (a instanceof Ref) return b instanceof Ref && a.equals(b);
  if (a instanceof Time) return b instanceof Time && a.epochNanos === b.epochNanos;
  if (a instanceof DateValue) return b instanceof DateValue && a.epochDays === b.epochDays;
  if (a instanceof Bytes) return b instanceof Bytes && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  if (a instanceof SetRef) return b instanceof SetRef && valuesEqual(a.structure, b.structure);
  if (a instanceof QueryValue) return a === b;
  if (!isObjectValue(a) || !isObjectValue(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && valuesEqual(a[k] as Value, b[k] as Value));
}

/** Exact equality for index terms: unlike `==`, an integer never equals a decimal (v4 index semantics). */
export function valuesIdentical(a: Value, b: Value): boolean {
  if (typeof a !== typeof b) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => valuesIdentical(x, b[i] as Value));
  }
  if (isObjectValue(a) && isObjectValue(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && valuesIdentical(a[k] as Value, b[k] as Value));
  }
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || a === b;
  return valuesEqual(a, b);
}

/** Negative, zero or positive when both values are of one ordered type; undefined when they are unordered. */
export function compareValues(a: Value, b: Value): number | undefined {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Time && b instanceof Time) return a.epochNanos < b.epochNanos ? -1 : a.epochNanos > b.epochNanos ? 1 : 0;
  if (a instanceof DateValue && b instanceof DateValue) return Math.sign(a.epochDays - b.epochDays);
  return undefined;
}

function isNumeric(v: Value): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

/** Numeric comparison without precision loss between 64-bit integers and doubles; NaN is unordered (→ NaN). */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  const flip = typeof a === 'number';
  const int = (flip ? b : a) as bigint;
  const dbl = (flip ? a : b) as number;
  let result: number;
  if (Number.isNaN(dbl)) return NaN;
  if (dbl === Infinity) result = -1;
  else if (dbl === -Infinity) result = 1;
  else {
    const floor = BigInt(Math.floor(dbl));
    if (int < floor) result = -1;
    else if (int > floor) result = 1;
    else result = Number.isInteger(dbl) ? 0 : -1;
  }
  return flip ? -result : result;
}
