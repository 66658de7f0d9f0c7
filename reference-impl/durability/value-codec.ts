/**
 * Lossless JSON form of the value model for the commit log. Every special value is a one-key object with a
 * short tag, and plain objects are wrapped (`{"o": …}`) so that a stored object can never be read back as a
 * special value. Integers (bigint) and decimals (number) stay distinct, non-finite decimals included.
 *
 * Also carries the raw wire trees kept inside `QueryValue` (the same shapes: null, booleans, strings,
 * bigints, numbers, arrays, plain objects).
 */
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type ObjectValue, type Value } from '../values/value.js';

export type EncodedValue = null | boolean | string | EncodedValue[] | { [tag: string]: unknown };

export function encodeValue(value: unknown): EncodedValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return { i: value.toString() };
  // JSON has no NaN, Infinity or -0, so those travel as text.
  if (typeof value === 'number') return { d: Object.is(value, -0) ? '-0' : Number.isFinite(value) ? value : String(value) };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value instanceof Ref) return { r: encodeRef(value) };
  if (value instanceof SetRef) return { s: encodeObject(value.structure) };
  if (value instanceof Time) return { t: value.epochNanos.toString() };
  if (value instanceof DateValue) return { dt: value.epochDays };
  if (value instanceof Bytes) return { b: Buffer.from(value.bytes).toString('base64') };
  if (value instanceof QueryValue) return { q: [value.lambda, encodeValue(value.expr), value.apiVersion ?? null] };
  if (typeof value === 'object' && value !== undefined) return { o: encodeObject(value as Record<string, unknown>) };
  throw new TypeError(`cannot store a value of type ${typeof value}`);
}

export function encodeObject(object: Readonly<Record<string, unknown>>): Record<string, EncodedValue> {
  // fromEntries defines own properties, so a field named `__proto__` stays a field.
  return Object.fromEntries(Object.keys(object).map((key) => [key, encodeValue(object[key])]));
}

type EncodedRef = [string, EncodedRef | null, EncodedRef | null];

function encodeRef(ref: Ref): EncodedRef {
  return [ref.id, ref.collection ? encodeRef(ref.collection) : null, ref.database ? encodeRef(ref.database) : null];
}

function decodeRef(encoded: unknown): Ref {
  if (!Array.isArray(encoded) || typeof encoded[0] !== 'string') throw new CorruptValueError('ref');
  const [id, collection, database] = encoded as [string, unknown, unknown];
  return new Ref(id, collection === null ? undefined : decodeRef(collection), database === null ? undefined : decodeRef(database));
}

export class CorruptValueError extends Error {
  constructor(what: string) {
    super(`stored value is not readable: bad ${what}`);
  }
}

export function decodeValue(encoded: unknown): Value {
  if (encoded === null || typeof encoded === 'boolean' || typeof encoded === 'string') return encoded;
  if (Array.isArray(encoded)) return encoded.map(decodeValue);
  if (typeof encoded !== 'object') throw new CorruptValueError('value');
  const tagged = encoded as Record<string, unknown>;
  const tag = Object.keys(tagged)[0];
  const body = tag === undefined ? undefined : tagged[tag];
  switch (tag) {
    case 'i':
      return BigInt(body as string);
    case 'd':
      return typeof body === 'number' ? body : Number(body);
    case 'o':
      return decodeObject(body);
    case 'r':
      return decodeRef(body);
    case 's':
      return new SetRef(decodeObject(body));
    case 't':
      return new Time(BigInt(body as string));
    case 'dt':
      return new DateValue(body as number);
    case 'b':
      return new Bytes(new Uint8Array(Buffer.from(body as string, 'base64')));
    case 'q': {
      const [lambda, expr, apiVersion] = body as [string | string[], unknown, string | null];
      return new QueryValue(lambda, decodeValue(expr), apiVersion ?? undefined);
    }
    default:
      throw new CorruptValueError(`tag ${String(tag)}`);
  }
}

export function decodeObject(encoded: unknown): ObjectValue {
  if (typeof encoded !== 'object' || encoded === null || Array.isArray(encoded)) throw new CorruptValueError('object');
  return Object.fromEntries(Object.entries(encoded).map(([key, value]) => [key, decodeValue(value)])) as ObjectValue;
}
