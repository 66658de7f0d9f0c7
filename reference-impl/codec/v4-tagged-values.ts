/**
 * The tagged values of the v4 wire (`@ref`, `@set`, `@ts`, `@date`, `@bytes`, `@query`, `@obj`; wire-facts §2) read
 * into the value model, with the errors the real service gives for ones it cannot read.
 */
import { QueryError, type Position } from '../errors/query-error.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, setField, type ObjectValue, type Value } from '../values/value.js';
import { LAMBDA_DEFAULT_API_VERSION } from './api-version.js';
import { parseIsoDate, parseIsoTime } from './iso-time.js';
import { documentId, hasNumericIds, nativeRef, normalizeCollectionRef, parseRefPath } from './v4-refs.js';

/** A wire value (not an expression, as a request parameter is one): plain objects are objects, tagged objects are decoded. */
export function decodeWireValue(raw: unknown, position: Position): Value {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint' || typeof raw === 'number') return raw;
  if (Array.isArray(raw)) return raw.map((item, i) => decodeWireValue(item, [...position, i]));
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return decodeTagged(keys[0]!, object[keys[0]!], position);
  const out: ObjectValue = {};
  for (const key of keys) setField(out, key, decodeWireValue(object[key], [...position, key]));
  return out;
}

/** The tags of v4 wire values (wire-facts §2). */
const WIRE_TAGS: ReadonlySet<string> = new Set(['@ref', '@set', '@ts', '@date', '@bytes', '@query', '@obj']);

/** Whether an object's one key makes it a tagged value; any other `@` key is a field name or an unknown form. */
export function isWireTag(key: string): boolean {
  return WIRE_TAGS.has(key);
}

/** What the real service answers for a tagged value it cannot read (fauna/faunadb `Renderable`'s parse errors, DEC-137). */
const BAD_TAGGED: Readonly<Record<string, string>> = {
  '@ref': 'Invalid ref.',
  '@set': 'Invalid set.',
  '@ts': 'Invalid time.',
  '@date': 'Invalid date.',
  '@bytes': 'Invalid bytes.',
  '@query': 'Invalid lambda.',
  '@obj': 'Invalid object.',
};

// Implements: PROTO-VALUE-006, PROTO-VALUE-007, SET-REF-003
/** A tagged object's value, or the error the real service gives for that tag, at `position`. */
export function decodeTagged(tag: string, body: unknown, position: Position): Value {
  const bad = () => new QueryError('invalid expression', BAD_TAGGED[tag]!, position);
  switch (tag) {
    case '@ref':
      if (typeof body === 'string') return parseRefPath(body, position);
      if (isRawObject(body)) return decodeLongRef(body, position);
      throw bad();
    case '@set':
      if (!isRawObject(body)) throw bad();
      return new SetRef(decodeWireValue(body, [...position, '@set']) as ObjectValue);
    case '@ts': {
      const nanos = typeof body === 'string' ? parseIsoTime(body) : undefined;
      if (nanos === undefined) throw bad();
      return new Time(nanos);
    }
    case '@date': {
      const days = typeof body === 'string' ? parseIsoDate(body) : undefined;
      if (days === undefined) throw bad();
      return new DateValue(days);
    }
    case '@bytes':
      if (typeof body !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) throw bad();
      return new Bytes(new Uint8Array(Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64')));
    case '@query': {
      if (!isRawObject(body) || !('lambda' in body) || !('expr' in body)) throw bad();
      const lambda = body.lambda;
      if (!(typeof lambda === 'string' || (Array.isArray(lambda) && lambda.every((p) => typeof p === 'string')))) throw bad();
      const apiVersion = body.api_version;
      // A lambda sent without its version is read as one of 2.12, as the real service parses it (DEC-136).
      return new QueryValue(
        lambda as string | string[],
        body.expr,
        typeof apiVersion === 'string' ? apiVersion : LAMBDA_DEFAULT_API_VERSION,
      );
    }
    case '@obj':
      if (!isRawObject(body)) throw bad();
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, decodeWireValue(v, [...position, '@obj', k])]));
    default:
      throw new QueryError('invalid expression', `Unknown special form ${tag}.`, position);
  }
}

/** Whether parsed JSON is an object (not null, not an array). */
export function isRawObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

// Implements: PROTO-VALUE-001, PROTO-VERSION-004
function decodeLongRef(body: Record<string, unknown>, position: Position): Ref {
  const id = body.id;
  if (typeof id !== 'string') throw new QueryError('invalid expression', BAD_TAGGED['@ref']!, position);
  const parentRaw = body.collection ?? body.class;
  const parent = parentRaw === undefined ? undefined : decodeWireValue(parentRaw, position);
  const dbRaw = body.database;
  const database = dbRaw === undefined ? undefined : decodeWireValue(dbRaw, position);
  if ((parent !== undefined && !(parent instanceof Ref)) || (database !== undefined && !(database instanceof Ref))) {
    throw new QueryError('invalid expression', BAD_TAGGED['@ref']!, position);
  }
  if (parent === undefined) return nativeRef(id === 'classes' ? 'collections' : id, database);
  const collection = normalizeCollectionRef(parent);
  // `self` names the caller's own record, in any collection (`tokens/self`).
  return new Ref(hasNumericIds(collection) && id !== 'self' ? documentId(id, [...position, 'id']) : id, collection, database);
}
