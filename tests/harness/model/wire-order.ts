/**
 * The suite's own statement of the order of index values (SD "Ordering of index values", DEC-034), over WIRE values
 * as `parseWireJson` yields them: integers are bigint, decimals are number, `{"@ref":…}`, `{"@ts":…}`, `{"@date":…}`
 * etc. are plain objects, `{"@obj":{…}}` is an escaped object. Written from the SD, the spec decisions and the real
 * service's code, never from the server.
 *
 * Two type orders are accepted (ORD-TYPE-011, ORD-TYPE-012); they differ only in where decimals and bytes sit:
 * - `core` (the real service): numbers (integers and decimals compared by value, so 1 equals 1.0), bytes, strings,
 *   arrays, objects, refs, times, dates, stored lambdas, booleans, nulls;
 * - `sd` (the SD's list, with DEC-034 for the types it does not list): integers, strings, arrays, objects, refs,
 *   times, dates, booleans, decimals, bytes, sets, lambdas, nulls.
 * A missing value (undefined) is null.
 * Content order: integers and decimals numerically (decimal -0.0 < 0.0, NaN last); strings by the default
 * `en` collation with code point order between strings it finds equal; arrays element-wise then shorter
 * first; objects by their key-sorted key/value sequence then fewer keys first; refs by id (all-digit ids
 * numerically, before other ids), then collection, then database; times and dates chronologically; false < true.
 */

export type WireValue = null | boolean | string | bigint | number | WireValue[] | { [key: string]: WireValue };

export const WIRE_TYPES = [
  'integer',
  'decimal',
  'bytes',
  'string',
  'array',
  'object',
  'ref',
  'time',
  'date',
  'boolean',
  'set',
  'query',
  'null',
] as const;
export type WireType = (typeof WIRE_TYPES)[number];

/** Which of the two accepted type orders (see above). */
export type WireOrder = 'core' | 'sd';

/** Rank of each type per order; equal ranks compare by content (integers and decimals by value in `core`). */
export const WIRE_TYPE_RANK: Record<WireOrder, Record<WireType, number>> = {
  core: {
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
  },
  sd: {
    integer: 0,
    string: 1,
    array: 2,
    object: 3,
    ref: 4,
    time: 5,
    date: 6,
    boolean: 7,
    decimal: 8,
    bytes: 9,
    set: 10,
    query: 11,
    null: 12,
  },
};

const TAGS: Record<string, WireType> = {
  '@ref': 'ref',
  '@ts': 'time',
  '@date': 'date',
  '@bytes': 'bytes',
  '@set': 'set',
  '@query': 'query',
};

function isRecord(v: unknown): v is { [key: string]: WireValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tagOf(v: { [key: string]: WireValue }): string | undefined {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0]!.startsWith('@') ? keys[0] : undefined;
}

export function wireTypeOf(v: WireValue | undefined): WireType {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return 'decimal';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (Array.isArray(v)) return 'array';
  const tag = tagOf(v);
  return (tag && TAGS[tag]) || 'object';
}

const collation = new Intl.Collator('en');

/** Strings compared by Unicode code point (the tie-break after collation). */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

export function compareWireStrings(a: string, b: string): number {
  if (a === b) return 0;
  const c = collation.compare(a, b);
  return c !== 0 ? c : byCodePoint(a, b);
}

function numeric(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  if (a < b) return -1;
  if (a > b) return 1;
  return Number(!Object.is(a, -0)) - Number(!Object.is(b, -0));
}

interface RefParts {
  id: string;
  collection?: RefParts;
  database?: RefParts;
}

/** `{"@ref": "collections/users/1"}` or `{"@ref": {"id": "1", "collection": {"@ref": …}}}` (`class` is the old key). */
export function refParts(ref: WireValue): RefParts {
  const body = isRecord(ref) ? ref['@ref'] : undefined;
  if (typeof body === 'string') {
    const cut = body.lastIndexOf('/');
    return cut < 0 ? { id: body } : { id: body.slice(cut + 1), collection: refParts({ '@ref': body.slice(0, cut) }) };
  }
  if (!isRecord(body) || typeof body.id !== 'string') throw new TypeError(`not a wire ref: ${String(ref)}`);
  const parent = body.collection ?? body.class;
  const parts: RefParts = { id: body.id };
  if (parent !== undefined) parts.collection = refParts(parent);
  if (body.database !== undefined) parts.database = refParts(body.database);
  return parts;
}

function compareIds(a: string, b: string): number {
  const da = /^\d+$/.test(a);
  const db = /^\d+$/.test(b);
  if (da && db) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x === y ? byCodePoint(a, b) : x < y ? -1 : 1;
  }
  if (da || db) return da ? -1 : 1;
  return compareWireStrings(a, b);
}

function compareParts(a: RefParts | undefined, b: RefParts | undefined): number {
  if (!a || !b) return Number(Boolean(a)) - Number(Boolean(b));
  return compareIds(a.id, b.id) || compareParts(a.collection, b.collection) || compareParts(a.database, b.database);
}

/** Nanoseconds since the epoch of an RFC 3339 `@ts` string (up to 9 fractional digits, Z or an offset). */
export function timeNanos(text: string): bigint {
  const m = /^(\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) throw new TypeError(`not a wire time: ${text}`);
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  let seconds = BigInt(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000);
  if (zone !== 'Z') {
    const sign = zone!.startsWith('-') ? -1n : 1n;
    seconds -= sign * (BigInt(zone!.slice(1, 3)) * 3600n + BigInt(zone!.slice(4, 6)) * 60n);
  }
  return seconds * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
}

export function dateDays(text: string): number {
  const m = /^(\d{4,})-(\d\d)-(\d\d)$/.exec(text);
  if (!m) throw new TypeError(`not a wire date: ${text}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
}

function unescapeObject(v: { [key: string]: WireValue }): { [key: string]: WireValue } {
  const inner = tagOf(v) === '@obj' ? v['@obj'] : undefined;
  return isRecord(inner) ? inner : v;
}

function compareSequences(a: readonly WireValue[], b: readonly WireValue[], order: WireOrder): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareWire(a[i], b[i], order);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function keyValueSequence(o: { [key: string]: WireValue }): WireValue[] {
  return Object.keys(o)
    .sort(compareWireStrings)
    .flatMap((k) => [k, o[k]!]);
}

function canonicalText(v: WireValue): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}` : x)) ?? '';
}

function numbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b ? 0 : a < b ? -1 : 1;
  return numeric(Number(a), Number(b));
}

/** Ascending order of two wire values under `order`; negative, zero or positive. */
export function compareWire(a: WireValue | undefined, b: WireValue | undefined, order: WireOrder = 'core'): number {
  const ta = wireTypeOf(a);
  const tb = wireTypeOf(b);
  const rank = WIRE_TYPE_RANK[order];
  if (rank[ta] !== rank[tb]) return rank[ta] - rank[tb];
  switch (ta) {
    case 'null':
      return 0;
    case 'integer':
    case 'decimal':
      return numbers(a as bigint | number, b as bigint | number);
    case 'string':
      return compareWireStrings(a as string, b as string);
    case 'boolean':
      return Number(a) - Number(b);
    case 'array':
      return compareSequences(a as WireValue[], b as WireValue[], order);
    case 'object': {
      const x = keyValueSequence(unescapeObject(a as { [key: string]: WireValue }));
      const y = keyValueSequence(unescapeObject(b as { [key: string]: WireValue }));
      return compareSequences(x, y, order);
    }
    case 'ref':
      return compareParts(refParts(a!), refParts(b!));
    case 'time': {
      const x = timeNanos((a as { '@ts': string })['@ts']);
      const y = timeNanos((b as { '@ts': string })['@ts']);
      return x === y ? 0 : x < y ? -1 : 1;
    }
    case 'date':
      return dateDays((a as { '@date': string })['@date']) - dateDays((b as { '@date': string })['@date']);
    case 'bytes': {
      const x = Buffer.from((a as { '@bytes': string })['@bytes'], 'base64');
      const y = Buffer.from((b as { '@bytes': string })['@bytes'], 'base64');
      return Buffer.compare(x, y);
    }
    case 'set':
    case 'query':
      return byCodePoint(canonicalText(a!), canonicalText(b!));
  }
}

export function compareWireColumn(a: WireValue | undefined, b: WireValue | undefined, reverse: boolean, order: WireOrder = 'core'): number {
  const c = compareWire(a, b, order);
  return reverse && c !== 0 ? -c : c;
}

/** Tuples `[...values, ref]`: column i reversed when `reverse[i]`, later columns ascending, a prefix first. */
export function compareWireTuples(
  a: readonly WireValue[],
  b: readonly WireValue[],
  reverse: readonly boolean[],
  order: WireOrder = 'core',
): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareWireColumn(a[i], b[i], reverse[i] === true, order);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
