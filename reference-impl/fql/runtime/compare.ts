/**
 * Equality and order of FQL v10 values (fauna/faunadb `runtime/fql2/ValueCmp.scala`). `==` is defined between any
 * two values (`1 == 1.0`; a document that does not exist equals null). `<`, `<=`, `>`, `>=` order values of one type
 * and are false between unrelated types; sorting (`order()`) orders any two values, by type first.
 */
import { Bytes, DateValue, Time } from '../../values/value.js';
import { DocRef, EventSourceValue, FqlModule, isFqlObject, isNullish, moduleNameOf, type FqlValue } from './values.js';

export interface Existence {
  isNull(value: FqlValue): Promise<boolean>;
}

// Implements: FQL-EXPR-004
export async function equalFql(reader: Existence, a: FqlValue, b: FqlValue): Promise<boolean> {
  if (isNullish(a) || isNullish(b)) {
    if (isNullish(a) && isNullish(b)) return true;
    const other = isNullish(a) ? b : a;
    return other instanceof DocRef ? reader.isNull(other) : false;
  }
  if (isNumber(a) && isNumber(b)) return compareNumbers(a, b) === 0;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(await equalFql(reader, a[i] as FqlValue, b[i] as FqlValue))) return false;
    return true;
  }
  if (isFqlObject(a) || isFqlObject(b)) {
    if (!isFqlObject(a) || !isFqlObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!Object.hasOwn(b, key) || !(await equalFql(reader, a[key] as FqlValue, b[key] as FqlValue))) return false;
    return true;
  }
  if (a instanceof DocRef) return b instanceof DocRef && a.equals(b);
  if (a instanceof Time) return b instanceof Time && a.epochNanos === b.epochNanos;
  if (a instanceof DateValue) return b instanceof DateValue && a.epochDays === b.epochDays;
  if (a instanceof Bytes) return b instanceof Bytes && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  if (a instanceof FqlModule) return b instanceof FqlModule && a.name === b.name;
  if (a instanceof EventSourceValue) return b instanceof EventSourceValue && a.token === b.token;
  return a === b;
}

/** The sort order of any two values. */
export function compareSync(a: FqlValue, b: FqlValue): number {
  return compareFql(a, b, true) ?? 0;
}

// Implements: FQL-EXPR-005
/**
 * Negative, zero or positive; for values of unrelated types undefined, unless `total` (sorting), when the types'
 * own order decides.
 */
export function compareFql(a: FqlValue, b: FqlValue, total: boolean): number | undefined {
  if (isNumber(a) && isNumber(b)) {
    const order = compareNumbers(a, b);
    return Number.isNaN(order) ? (total ? 0 : undefined) : order;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Time && b instanceof Time) return a.epochNanos < b.epochNanos ? -1 : a.epochNanos > b.epochNanos ? 1 : 0;
  if (a instanceof DateValue && b instanceof DateValue) return Math.sign(a.epochDays - b.epochDays);
  if (a instanceof DocRef && b instanceof DocRef) {
    const byCollection = moduleNameOf(a.collection).localeCompare(moduleNameOf(b.collection));
    if (byCollection !== 0) return byCollection;
    return compareIds(a.id, b.id);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = compareFql(a[i] as FqlValue, b[i] as FqlValue, true);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  }
  if (isFqlObject(a) && isFqlObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i] !== kb[i]) return (ka[i] as string) < (kb[i] as string) ? -1 : 1;
      const order = compareFql(a[ka[i] as string] as FqlValue, b[kb[i] as string] as FqlValue, true);
      if (order !== 0) return order;
    }
    return ka.length - kb.length;
  }
  if (!total) return undefined;
  return typeRank(a) - typeRank(b);
}

/** Numeric ids compare as numbers; names as text. */
function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function typeRank(value: FqlValue): number {
  if (isNullish(value)) return 9;
  if (isNumber(value)) return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Time) return 3;
  if (value instanceof DateValue) return 4;
  if (value instanceof DocRef) return 5;
  if (Array.isArray(value)) return 6;
  if (isFqlObject(value)) return 7;
  return 10;
}

function isNumber(value: FqlValue): value is bigint | number {
  return typeof value === 'bigint' || typeof value === 'number';
}

/** Numeric comparison without precision loss between 64-bit integers and doubles; NaN compares as NaN. */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  const flip = typeof a === 'number';
  const int = (flip ? b : a) as bigint;
  const dbl = (flip ? a : b) as number;
  if (Number.isNaN(dbl)) return NaN;
  let result: number;
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
