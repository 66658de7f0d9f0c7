/** Structural equality of values: integers never equal decimals, refs and sets compare by structure. */
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, isObjectValue, type Value } from '../values/value.js';
import { EqualPairs } from './equal-pairs.js';

const equalPairs = new EqualPairs();

// Implements: SET-REF-001, SET-REF-002
export function valuesEqual(a: Value, b: Value): boolean {
  equalPairs.start();
  return equal(a, b);
}

function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return typeof a === 'number' && typeof b === 'number' ? a === b : false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    if (equalPairs.known(a, b)) return true;
    const same = a.every((x, i) => equal(x, b[i]!));
    if (same) equalPairs.found(a, b);
    return same;
  }
  if (a instanceof Ref || b instanceof Ref) return a instanceof Ref && b instanceof Ref && a.equals(b);
  if (a instanceof SetRef || b instanceof SetRef) return a instanceof SetRef && b instanceof SetRef && equal(a.structure, b.structure);
  if (a instanceof Time || b instanceof Time) return a instanceof Time && b instanceof Time && a.epochNanos === b.epochNanos;
  if (a instanceof DateValue || b instanceof DateValue)
    return a instanceof DateValue && b instanceof DateValue && a.epochDays === b.epochDays;
  if (a instanceof Bytes || b instanceof Bytes) {
    return a instanceof Bytes && b instanceof Bytes && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  }
  if (a instanceof QueryValue || b instanceof QueryValue) {
    return (
      a instanceof QueryValue &&
      b instanceof QueryValue &&
      JSON.stringify(a.lambda) === JSON.stringify(b.lambda) &&
      rawEqual(a.expr, b.expr)
    );
  }
  if (!isObjectValue(a) || !isObjectValue(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  if (equalPairs.known(a, b)) return true;
  const same = ka.every((k) => k in b && equal(a[k]!, b[k]!));
  if (same) equalPairs.found(a, b);
  return same;
}

function rawEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ea = Object.entries(a as Record<string, unknown>);
  const eb = b as Record<string, unknown>;
  return ea.length === Object.keys(eb).length && ea.every(([k, v]) => k in eb && rawEqual(v, eb[k]));
}
