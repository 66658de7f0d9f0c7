// An implementer's index-entry comparator over wire JSON (lossless-json values), with one mistake switched
// on. The ordering faults re-sort a page with it: where the mistake does not matter the comparator agrees
// with the order the reference server keeps (the real service's, which ORD-TYPE-011 and ORD-TYPE-012 accept beside
// the SD's), so the page is left as the server sent it.
import { isLosslessNumber } from 'lossless-json';
import { byCodePoint } from '../../../harness/model/wire-order.js';
import { isJsonObject, type JsonObject } from '../../json-body.js';
import type { SeenIndex } from './index-tracking.js';

export const ENTRY_TYPES = [
  'integer',
  'decimal',
  'bytes',
  'string',
  'array',
  'object',
  'ref',
  'time',
  'date',
  'other',
  'boolean',
  'null',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** The place of each type: numbers (compared by value), bytes, strings, …, booleans, null. */
const TYPE_RANK: Record<EntryType, number> = {
  integer: 0,
  decimal: 0,
  bytes: 1,
  string: 2,
  array: 3,
  object: 4,
  ref: 5,
  time: 6,
  date: 7,
  other: 8,
  boolean: 9,
  null: 10,
};

/** The mistakes a comparator can make; at most a few are switched on at once. */
export interface OrderMistake {
  /** Two types whose places in the type order are exchanged. */
  swapTypes?: readonly [EntryType, EntryType];
  /** The first type sorts right after the second (it leaves its own place). */
  typeAfter?: readonly [EntryType, EntryType];
  integersAsText?: boolean;
  decimalsAsText?: boolean;
  stringsByCodePoint?: boolean;
  arraysByLengthFirst?: boolean;
  objectsByKeyCountFirst?: boolean;
  refIdsAsText?: boolean;
  /** Refs compare their collection before their id. */
  refsByCollectionFirst?: boolean;
  timesAsText?: boolean;
  trueBeforeFalse?: boolean;
  /** `reverse` flips the order within a type but keeps the type order ascending. */
  reverseKeepsTypeOrder?: boolean;
  /** Entries are compared on their last covered value first. */
  columnsFromLast?: boolean;
}

const TAG_TYPES: Record<string, EntryType> = { '@ref': 'ref', '@ts': 'time', '@date': 'date', '@bytes': 'bytes' };

function tagOf(value: JsonObject): string | undefined {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0]!.startsWith('@') ? keys[0] : undefined;
}

export function entryTypeOf(value: unknown): EntryType {
  if (value === null || value === undefined) return 'null';
  if (isLosslessNumber(value)) return /^-?\d+$/.test(value.toString()) ? 'integer' : 'decimal';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'decimal';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (!isJsonObject(value)) return 'other';
  const tag = tagOf(value);
  if (tag === undefined || tag === '@obj') return 'object';
  return TAG_TYPES[tag] ?? 'other';
}

const collation = new Intl.Collator('en');

function compareStrings(a: string, b: string, mistake: OrderMistake): number {
  if (mistake.stringsByCodePoint) return byCodePoint(a, b);
  return collation.compare(a, b) || byCodePoint(a, b);
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

function compareBigInts(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareDecimals(a: number, b: number): number {
  if (a !== b) return a < b ? -1 : 1;
  return Number(!Object.is(a, -0)) - Number(!Object.is(b, -0));
}

function timeNanos(text: string): bigint {
  const match = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!match) return 0n;
  const seconds = BigInt(Math.floor(Date.parse(`${match[1]}${match[3]}`) / 1000));
  return seconds * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

function refBody(value: unknown): JsonObject | undefined {
  return isJsonObject(value) && isJsonObject(value['@ref']) ? value['@ref'] : undefined;
}

function compareIds(a: string, b: string, mistake: OrderMistake): number {
  const digits = /^\d+$/;
  if (!mistake.refIdsAsText && digits.test(a) && digits.test(b)) return compareBigInts(BigInt(a), BigInt(b)) || byCodePoint(a, b);
  if (digits.test(a) !== digits.test(b)) return digits.test(a) ? -1 : 1;
  return compareStrings(a, b, mistake);
}

function compareRefs(a: unknown, b: unknown, mistake: OrderMistake): number {
  const x = refBody(a);
  const y = refBody(b);
  if (!x || !y) return Number(Boolean(x)) - Number(Boolean(y));
  const parentX = x.collection ?? x.class;
  const parentY = y.collection ?? y.class;
  if (mistake.refsByCollectionFirst) return compareRefs(parentX, parentY, mistake) || compareIds(String(x.id), String(y.id), mistake);
  return compareIds(String(x.id), String(y.id), mistake) || compareRefs(parentX, parentY, mistake);
}

function compareSequences(a: readonly unknown[], b: readonly unknown[], mistake: OrderMistake): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareValues(a[i], b[i], mistake);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function objectEntries(value: JsonObject): unknown[] {
  const inner = tagOf(value) === '@obj' && isJsonObject(value['@obj']) ? value['@obj'] : value;
  return Object.keys(inner)
    .sort((a, b) => compareStrings(a, b, {}))
    .flatMap((key) => [key, inner[key]]);
}

function typeRank(type: EntryType, mistake: OrderMistake): number {
  const [a, b] = mistake.swapTypes ?? [];
  const swapped = type === a ? b! : type === b ? a! : type;
  const [moved, anchor] = mistake.typeAfter ?? [];
  return type === moved ? TYPE_RANK[anchor!] + 0.5 : TYPE_RANK[swapped];
}

function compareBytes(a: unknown, b: unknown): number {
  return sign(
    Buffer.compare(Buffer.from(String((a as JsonObject)['@bytes']), 'base64'), Buffer.from(String((b as JsonObject)['@bytes']), 'base64')),
  );
}

/** Ascending order of two wire values under `mistake`. */
export function compareValues(a: unknown, b: unknown, mistake: OrderMistake): number {
  const ta = entryTypeOf(a);
  const tb = entryTypeOf(b);
  const ranks = typeRank(ta, mistake) - typeRank(tb, mistake);
  if (ranks !== 0) return sign(ranks);
  // An integer against a decimal: by value (the only types that share a place).
  if (ta !== tb) return ta === 'integer' || ta === 'decimal' ? compareDecimals(Number(String(a)), Number(String(b))) : 0;
  switch (ta) {
    case 'integer':
      return mistake.integersAsText ? byCodePoint(String(a), String(b)) : compareBigInts(BigInt(String(a)), BigInt(String(b)));
    case 'decimal':
      return mistake.decimalsAsText ? byCodePoint(String(a), String(b)) : compareDecimals(Number(String(a)), Number(String(b)));
    case 'string':
      return sign(compareStrings(a as string, b as string, mistake));
    case 'boolean':
      return a === b ? 0 : (a === true) === Boolean(mistake.trueBeforeFalse) ? -1 : 1;
    case 'array': {
      const [x, y] = [a as unknown[], b as unknown[]];
      return sign(mistake.arraysByLengthFirst ? x.length - y.length || compareSequences(x, y, mistake) : compareSequences(x, y, mistake));
    }
    case 'object': {
      const [x, y] = [objectEntries(a as JsonObject), objectEntries(b as JsonObject)];
      return sign(
        mistake.objectsByKeyCountFirst ? x.length - y.length || compareSequences(x, y, mistake) : compareSequences(x, y, mistake),
      );
    }
    case 'ref':
      return sign(compareRefs(a, b, mistake));
    case 'time': {
      const [x, y] = [String((a as JsonObject)['@ts']), String((b as JsonObject)['@ts'])];
      return mistake.timesAsText ? sign(byCodePoint(x, y)) : compareBigInts(timeNanos(x), timeNanos(y));
    }
    case 'date':
      return sign(byCodePoint(String((a as JsonObject)['@date']), String((b as JsonObject)['@date'])));
    case 'bytes':
      return compareBytes(a, b);
    default:
      return 0;
  }
}

function compareColumn(a: unknown, b: unknown, reverse: boolean, mistake: OrderMistake): number {
  if (!reverse) return compareValues(a, b, mistake);
  const [ta, tb] = [entryTypeOf(a), entryTypeOf(b)];
  if (mistake.reverseKeepsTypeOrder && ta !== tb) return compareValues(a, b, mistake);
  return -compareValues(a, b, mistake);
}

/** Ascending order of two page entries of `index` under `mistake`. */
export function compareEntries(a: unknown, b: unknown, index: SeenIndex, mistake: OrderMistake): number {
  if (index.reverse.length < 2) return compareColumn(a, b, index.reverse[0] ?? false, mistake);
  if (!Array.isArray(a) || !Array.isArray(b)) return 0;
  const columns = index.reverse.map((_, i) => i);
  if (mistake.columnsFromLast) columns.reverse();
  for (const i of columns) {
    const c = compareColumn(a[i], b[i], index.reverse[i]!, mistake);
    if (c !== 0) return c;
  }
  return 0;
}

/** Re-sorts `data` (stable) as the mistaken comparator orders it; answers whether any entry moved. */
export function resortPage(data: unknown[], index: SeenIndex, mistake: OrderMistake): boolean {
  const sorted = [...data].sort((a, b) => compareEntries(a, b, index, mistake));
  const moved = sorted.some((entry, i) => entry !== data[i]);
  if (moved) data.splice(0, data.length, ...sorted);
  return moved;
}
