/**
 * The total order of index values, as the real service compares them (fauna/faunadb `codex/cbor/CBOROrdering.scala`:
 * index values compare by their storage encoding; DEC-034).
 *
 * Type order: numbers (integers and decimals together), bytes, strings, arrays, objects, refs, times, dates,
 * stored lambdas, booleans, null. The SD lists "integers, strings, arrays, objects, refs, times, dates, booleans,
 * decimals, nulls"; it differs only in where decimals (and bytes, which it does not list) sit, and the spec accepts
 * either (ORD-TYPE-011, ORD-TYPE-012). A missing value (`undefined`) sorts exactly as null.
 *
 * Within a type:
 * - numbers by value: integers exactly (bigint), decimals as Java's Double.compare (-0.0 before 0.0, NaN after
 *   +Infinity), an integer against a decimal as the integer converted to a decimal, so 1 and 1.0 compare equal
 *   (their entries are then ordered by ref);
 * - strings by Unicode collation (ICU root/`en`, the default Intl.Collator), with ties between distinct strings
 *   broken by code point order. Fauna's own storage compares strings with an ICU collator and falls back to
 *   UTF-8 byte order (which equals code point order) when the collator finds them equal; "naturally" in the
 *   SD means this human order, not UTF-16 code units;
 * - arrays element by element, then the shorter first;
 * - objects as the sequence key1, value1, key2, value2, … with keys in string order, then the smaller object
 *   first; a set compares as the object `{"@set": structure}` (as the service encodes it);
 * - refs by id (all-digit ids numerically and before other ids, which compare as strings), then collection
 *   (recursively, a ref with no collection first), then scope database (unscoped first);
 * - times and dates chronologically; false before true; bytes byte by byte, then the shorter first.
 */
import { formatIsoTime } from '../codec/iso-time.js';
import { activeFailpoints, failpoint, failpointWhere } from '../failpoints.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type ObjectValue, type Value } from '../values/value.js';

// Implements: ORD-TYPE-001, ORD-TYPE-002, ORD-TYPE-003, ORD-TYPE-004, ORD-TYPE-005, ORD-TYPE-006, ORD-TYPE-007
// Implements: ORD-TYPE-010, ORD-TYPE-011, ORD-TYPE-012
/** Position of each type in the type order; integers and decimals share one (numbers compare by value). */
const TYPE_RANK = {
  integer: 0,
  decimal: 0,
  bytes: 1,
  string: 2,
  array: 3,
  object: 4,
  set: 4,
  ref: 5,
  time: 6,
  date: 7,
  query: 8,
  boolean: 9,
  null: 10,
} as const;

export type OrderedType = keyof typeof TYPE_RANK;

export function orderedTypeOf(v: Value | undefined): OrderedType {
  if (v === undefined || v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
      return 'integer';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'decimal';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Ref) return 'ref';
  if (v instanceof Time) return 'time';
  if (v instanceof DateValue) return 'date';
  if (v instanceof Bytes) return 'bytes';
  if (v instanceof SetRef) return 'set';
  if (v instanceof QueryValue) return 'query';
  return 'object';
}

/** The self-check's type-order faults: two places exchanged, or the first type moved right after the second. */
function typeOrderMistake(): [OrderedType, OrderedType, 'swap' | 'after'] | undefined {
  if (failpoint('ORD-STRINGS-AFTER-ARRAYS')) return ['string', 'array', 'swap'];
  if (failpoint('ORD-ARRAYS-AFTER-OBJECTS')) return ['array', 'object', 'swap'];
  if (failpoint('ORD-OBJECTS-AFTER-REFS')) return ['object', 'ref', 'swap'];
  if (failpoint('ORD-REFS-AFTER-TIMES')) return ['ref', 'time', 'swap'];
  if (failpoint('ORD-TIMES-AFTER-DATES')) return ['time', 'date', 'swap'];
  if (failpoint('ORD-DATES-AFTER-BOOLEANS')) return ['date', 'boolean', 'swap'];
  if (failpoint('ORD-DECIMALS-AFTER-NULLS')) return ['decimal', 'null', 'after'];
  if (failpoint('ORD-DECIMALS-AFTER-STRINGS')) return ['decimal', 'string', 'after'];
  if (failpoint('ORD-BYTES-AFTER-NULLS')) return ['bytes', 'null', 'after'];
  if (failpoint('ORD-STRINGS-BEFORE-INTEGERS')) return ['integer', 'string', 'after'];
  return undefined;
}

/** A type's place in the order, unless a type-order failpoint of the request misplaces it. */
function typeRank(type: OrderedType): number {
  const mistake = typeOrderMistake();
  if (mistake === undefined) return TYPE_RANK[type];
  const [moved, other, how] = mistake;
  const t = type === 'set' ? 'object' : type;
  if (how === 'after') return t === moved ? TYPE_RANK[other] + 0.5 : TYPE_RANK[t];
  return TYPE_RANK[t === moved ? other : t === other ? moved : t];
}

const collator = new Intl.Collator('en', { usage: 'sort', sensitivity: 'variant', numeric: false });

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/** Code point order; UTF-16 code unit order differs from it only around surrogate pairs. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    if (x.value !== y.value) return (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0) < 0 ? -1 : 1;
  }
}

// Implements: ORD-CONTENT-003
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return sign(collator.compare(a, b)) || compareCodePoints(a, b);
}

// Implements: ORD-CONTENT-002
function compareDecimals(a: number, b: number): number {
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  if (a !== b) return a < b ? -1 : 1;
  if (a === 0) {
    const aNeg = Object.is(a, -0);
    const bNeg = Object.is(b, -0);
    return aNeg === bNeg ? 0 : aNeg ? -1 : 1;
  }
  return 0;
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const ALL_DIGITS = /^[0-9]+$/;

// Implements: ORD-CONTENT-008
function compareIds(a: string, b: string): number {
  const aNum = ALL_DIGITS.test(a);
  const bNum = ALL_DIGITS.test(b);
  if (aNum && bNum) return compareBigints(BigInt(a), BigInt(b)) || compareCodePoints(a, b);
  if (aNum !== bNum) return aNum ? -1 : 1;
  return compareStrings(a, b);
}

function compareOptionalRefs(a: Ref | undefined, b: Ref | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compareRefs(a, b);
}

// Implements: ORD-CONTENT-008
/** Refs by id first, then collection, then scope (DEC-034), as the real service compares document ids. */
function compareRefs(a: Ref, b: Ref): number {
  if (a === b) return 0;
  return compareIds(a.id, b.id) || compareOptionalRefs(a.collection, b.collection) || compareOptionalRefs(a.database, b.database);
}

/**
 * Pairs of containers already found equal during one comparison, so that values sharing their parts are not walked
 * once per path to a part (the evaluator's comparisons pass one; index keys are never shared and pass none).
 */
export interface EqualPairMemo {
  /** Counts a pair of containers about to be compared; true when it was already found equal. */
  known(a: object, b: object): boolean;
  found(a: object, b: object): void;
}

// Implements: ORD-CONTENT-004
function compareArrays(a: readonly Value[], b: readonly Value[], memo: EqualPairMemo | undefined): number {
  if (memo?.known(a, b)) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i], memo);
    if (c !== 0) return c;
  }
  const c = sign(a.length - b.length);
  if (c === 0) memo?.found(a, b);
  return c;
}

function sortedEntries(o: ObjectValue): [string, Value][] {
  return Object.entries(o).sort(([x], [y]) => compareStrings(x, y));
}

// Implements: ORD-CONTENT-005
function compareObjects(a: ObjectValue, b: ObjectValue, memo: EqualPairMemo | undefined): number {
  if (memo?.known(a, b)) return 0;
  const ea = sortedEntries(a);
  const eb = sortedEntries(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    const [ka, va] = ea[i]!;
    const [kb, vb] = eb[i]!;
    const c = compareStrings(ka, kb) || compareValues(va, vb, memo);
    if (c !== 0) return c;
  }
  const c = sign(ea.length - eb.length);
  if (c === 0) memo?.found(a, b);
  return c;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return sign(a.length - b.length);
}

// Implements: ORD-CONTENT-001, ORD-CONTENT-002, ORD-TYPE-011
/** Integers exactly; otherwise both as decimals (an integer converted to the nearest decimal). */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return compareBigints(a, b);
  return compareDecimals(Number(a), Number(b));
}

function objectOf(v: ObjectValue | SetRef): ObjectValue {
  return v instanceof SetRef ? { '@set': v.structure } : v;
}

/** The order within a type that a self-check fault gives (the server's failpoints ORD-…), or undefined when none is on. */
function mistakenOrder(a: Value, b: Value, type: OrderedType): number | undefined {
  switch (type) {
    case 'integer':
      return failpoint('ORD-INTEGERS-AS-TEXT') ? compareCodePoints(String(a), String(b)) : undefined;
    case 'decimal':
      return failpoint('ORD-DECIMALS-AS-TEXT') ? compareCodePoints(String(a), String(b)) : undefined;
    case 'string':
      return failpoint('ORD-STRINGS-BY-CODE-POINT') ? compareCodePoints(a as string, b as string) : undefined;
    case 'boolean':
      return a !== b && failpoint('ORD-TRUE-BEFORE-FALSE') ? (a === true ? -1 : 1) : undefined;
    case 'array': {
      const [x, y] = [(a as Value[]).length, (b as Value[]).length];
      return x !== y && failpoint('ORD-ARRAYS-BY-LENGTH') ? sign(x - y) : undefined;
    }
    case 'object': {
      const [x, y] = [Object.keys(a as ObjectValue).length, Object.keys(b as ObjectValue).length];
      return x !== y && failpoint('ORD-OBJECTS-BY-KEY-COUNT') ? sign(x - y) : undefined;
    }
    case 'ref': {
      const [x, y] = [a as Ref, b as Ref];
      if (failpoint('ORD-REFS-BY-COLLECTION-FIRST')) return compareOptionalRefs(x.collection, y.collection) || compareIds(x.id, y.id);
      return failpoint('ORD-REF-IDS-AS-TEXT') ? compareStrings(x.id, y.id) || compareOptionalRefs(x.collection, y.collection) : undefined;
    }
    case 'time': {
      const [x, y] = [(a as Time).epochNanos, (b as Time).epochNanos];
      return failpoint('ORD-TIMES-AS-TEXT') ? compareCodePoints(formatIsoTime(x), formatIsoTime(y)) : undefined;
    }
    default:
      return undefined;
  }
}

// Implements: ORD-CONTENT-006, ORD-CONTENT-007, ORD-TYPE-009
/** The ascending total order over values; `undefined` (a missing value) is the same as null. Returns -1, 0 or 1. */
export function compareValues(a: Value | undefined, b: Value | undefined, memo?: EqualPairMemo): number {
  const ta = orderedTypeOf(a);
  const tb = orderedTypeOf(b);
  // The self-check's order faults are asked for only when the request turned failpoints on (once per comparison).
  const faulty = activeFailpoints() !== undefined;
  const ra = faulty ? typeRank(ta) : TYPE_RANK[ta];
  const rb = faulty ? typeRank(tb) : TYPE_RANK[tb];
  if (ra !== rb) return ra < rb ? -1 : 1;
  const mistaken = faulty && ta === tb ? mistakenOrder(a ?? null, b ?? null, ta) : undefined;
  if (mistaken !== undefined) return mistaken;
  switch (ta) {
    case 'null':
      return 0;
    case 'integer':
    case 'decimal':
      return compareNumbers(a as bigint | number, b as bigint | number);
    case 'string':
      return compareStrings(a as string, b as string);
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'array':
      return compareArrays(a as Value[], b as Value[], memo);
    case 'object':
    case 'set':
      return compareObjects(objectOf(a as ObjectValue | SetRef), objectOf(b as ObjectValue | SetRef), memo);
    case 'ref':
      return compareRefs(a as Ref, b as Ref);
    case 'time':
      return compareBigints((a as Time).epochNanos, (b as Time).epochNanos);
    case 'date':
      return sign((a as DateValue).epochDays - (b as DateValue).epochDays);
    case 'bytes':
      return compareBytes((a as Bytes).bytes, (b as Bytes).bytes);
    case 'query':
      return compareQueries(a as QueryValue, b as QueryValue);
  }
}

function compareQueries(a: QueryValue, b: QueryValue): number {
  return (
    compareStrings(JSON.stringify([a.lambda, a.apiVersion ?? null]), JSON.stringify([b.lambda, b.apiVersion ?? null])) ||
    compareStrings(stableText(a.expr), stableText(b.expr))
  );
}

function stableText(expr: unknown): string {
  return JSON.stringify(expr, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
}

// Implements: ORD-REVERSE-001, ORD-REVERSE-003, ORD-REVERSE-004
/** One value column's order: ascending, or flipped when the column is `reverse`. */
export function compareColumn(a: Value | undefined, b: Value | undefined, reverse: boolean): number {
  const c = compareValues(a, b);
  // The fault ORD-REVERSE-KEEPS-TYPE-ORDER reverses values within a type only.
  if (reverse && failpointWhere('ORD-REVERSE-KEEPS-TYPE-ORDER', () => orderedTypeOf(a) !== orderedTypeOf(b))) return c;
  return reverse && c !== 0 ? -c : c;
}

/** The refs of documents lacking an index's first covered value, marked only under the fault ORD-MISSING-AFTER-NULL. */
export const lackingFirstValue = new WeakSet<object>();

// Implements: PAGE-SHAPE-005, ORD-CONTENT-009, ORD-CONTENT-010, ORD-REVERSE-002
/**
 * Lexicographic order of index tuples `[...coveredValues, ref]`. Column i is reversed when `reverse[i]` is
 * true; columns past `reverse` (the ref tie-breaker) are ascending. A tuple that is a proper prefix of another
 * sorts first, which makes a partial cursor a lower bound of every entry it prefixes.
 */
export function compareTuples(a: readonly Value[], b: readonly Value[], reverse: readonly boolean[]): number {
  const n = Math.min(a.length, b.length);
  // The fault ORD-MISSING-AFTER-NULL: of two entries whose first value is null, one whose document lacks it sorts last.
  if (n > 1 && a[0] === null && b[0] === null && failpoint('ORD-MISSING-AFTER-NULL')) {
    const lacking = Number(lackingFirstValue.has(a.at(-1) as object)) - Number(lackingFirstValue.has(b.at(-1) as object));
    if (lacking !== 0) return lacking;
  }
  // The fault ORD-VALUES-FROM-LAST compares the covered values last to first (the ref still last).
  const fromLast = reverse.length > 1 && failpoint('ORD-VALUES-FROM-LAST');
  for (let k = 0; k < n; k++) {
    const i = fromLast && k < reverse.length ? reverse.length - 1 - k : k;
    const c = compareColumn(a[i], b[i], reverse[i] ?? false);
    if (c !== 0) return c;
  }
  return sign(a.length - b.length);
}
