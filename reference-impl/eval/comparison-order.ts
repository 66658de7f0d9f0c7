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
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type ObjectValue, type Value } from '../values/value.js';
import { compareDecimals, compareRefs, compareStrings, compareValues } from '../indexes/value-order.js';
import { failpoint } from '../failpoints.js';
import { EqualPairs } from './equal-pairs.js';

const equalPairs = new EqualPairs();

// Implements: FN-CMP-003
/** Rank of each kind of value; refs, times, dates and lambdas keep the order of their storage tags. */
const RANK = {
  number: 0,
  bytes: 1,
  string: 2,
  array: 3,
  object: 4,
  ref: 5,
  time: 6,
  date: 7,
  lambda: 8,
  boolean: 9,
  null: 10,
} as const;

type Kind = keyof typeof RANK;

function kindOf(v: Value): Kind {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Ref) return 'ref';
  if (v instanceof Time) return 'time';
  if (v instanceof DateValue) return 'date';
  if (v instanceof Bytes) return 'bytes';
  if (v instanceof QueryValue) return 'lambda';
  return 'object';
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

// Implements: FN-CMP-002
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (failpoint('CMP-IEEE-SIGNED-ZERO')) return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  return compareDecimals(Number(a), Number(b));
}

function compareArrays(a: readonly Value[], b: readonly Value[]): number {
  if (equalPairs.known(a, b)) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  const c = sign(a.length - b.length);
  if (c === 0) equalPairs.found(a, b);
  return c;
}

function objectOf(v: ObjectValue | SetRef): ObjectValue {
  return v instanceof SetRef ? { '@set': v.structure } : v;
}

function compareObjects(a: ObjectValue, b: ObjectValue): number {
  if (equalPairs.known(a, b)) return 0;
  const ka = Object.keys(a).sort(compareStrings);
  const kb = Object.keys(b).sort(compareStrings);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const c = compareStrings(ka[i]!, kb[i]!) || compare(a[ka[i]!]!, b[kb[i]!]!);
    if (c !== 0) return c;
  }
  const c = sign(ka.length - kb.length);
  if (c === 0) equalPairs.found(a, b);
  return c;
}

/** -1, 0 or 1 as `a` sorts before, with, or after `b` in the comparison order. */
export function compareForComparison(a: Value, b: Value): number {
  equalPairs.start();
  return compare(a, b);
}

// Implements: FN-CMP-003, FN-CMP-004
function compare(a: Value, b: Value): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return RANK[ka] < RANK[kb] ? -1 : 1;
  // Failpoint CMP-INDEX-TYPE-ORDER takes integers and decimals for two types, decimals after booleans.
  if (ka === 'number' && typeof a !== typeof b && failpoint('CMP-INDEX-TYPE-ORDER')) return typeof a === 'bigint' ? -1 : 1;
  switch (ka) {
    case 'number':
      return compareNumbers(a as bigint | number, b as bigint | number);
    case 'array':
      return compareArrays(a as Value[], b as Value[]);
    case 'object':
      return compareObjects(objectOf(a as ObjectValue | SetRef), objectOf(b as ObjectValue | SetRef));
    case 'ref':
      return compareRefs(a as Ref, b as Ref);
    case 'null':
      return 0;
    case 'string':
      if (failpoint('CMP-STRINGS-BY-CODE-UNIT')) return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
      return compareValues(a, b);
    default:
      // Strings, booleans, bytes, times, dates and lambdas are ordered within their type as the index order does.
      return compareValues(a, b);
  }
}
