/**
 * The v4 wire codec: request JSON → expression tree (with positions), wire values ↔ the value model, and
 * rendering of results per `X-FaunaDB-API-Version` (wire-facts §1.2, §1.6).
 */
import { parse as parseLossless } from 'lossless-json';
import { ProtocolError, QueryError, type Position } from '../errors/query-error.js';
import { Bytes, DateValue, NATIVE_COLLECTIONS, QueryValue, Ref, SetRef, Time, isObjectValue, type ObjectValue, type Value } from '../values/value.js';
import type { Expr } from './v4-ast.js';
import type { V4ProtocolError, V4QueryError, V4QueryErrorItem } from '../../schemas/types.js';
import { formatIsoDate, formatIsoTime, parseIsoDate, parseIsoTime } from './iso-time.js';

// ---------------------------------------------------------------------------------------------------------
// API versions

export const API_VERSIONS = ['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
/** Without the header the real service answers as API 2.1 (`class`/`instance` wording). */
export const DEFAULT_API_VERSION: ApiVersion = '2.1';

export function parseApiVersion(header: string | undefined): ApiVersion {
  if (header === undefined) return DEFAULT_API_VERSION;
  const value = header.trim();
  const found = API_VERSIONS.find((v) => v === value.toUpperCase());
  if (found) return found;
  throw new ProtocolError(400, 'bad request', `Invalid header 'x-faunadb-api-version': Unsupported or invalid API version '${value}'.`);
}

/** True when `version` is `minimum` or newer. */
export function apiAtLeast(version: ApiVersion, minimum: ApiVersion): boolean {
  return API_VERSIONS.indexOf(version) >= API_VERSIONS.indexOf(minimum);
}

export interface Wording {
  /** Key naming a ref's parent collection: `collection` (≥ 2.7) or `class`. */
  collectionKey: 'collection' | 'class';
  /** Key naming an event's document: `document` (≥ 2.7) or `instance`. */
  documentKey: 'document' | 'instance';
}

export function wording(version: ApiVersion): Wording {
  return apiAtLeast(version, '2.7') ? { collectionKey: 'collection', documentKey: 'document' } : { collectionKey: 'class', documentKey: 'instance' };
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** JSON text → raw tree where `1` is a bigint and `1.0` (or `1e3`) a number. */
export function parseJsonText(text: string): unknown {
  try {
    return parseLossless(text, null, (digits: string) => {
      if (/^-?\d+$/.test(digits)) {
        const n = BigInt(digits);
        // Integers beyond 64 bits cannot be longs; the service reads them as decimals.
        return n < INT64_MIN || n > INT64_MAX ? Number(digits) : n;
      }
      return Number(digits);
    });
  } catch {
    throw new QueryError('invalid expression', 'Request body is not valid JSON.', []);
  }
}

/** Nesting deeper than this is refused rather than risking the stack. */
export const MAX_EXPRESSION_DEPTH = 512;

/** Request body → expression tree. Empty bodies and invalid JSON are `invalid expression` at `[]`. */
export function parseExpression(text: string): Expr {
  if (text.trim() === '') throw new QueryError('invalid expression', 'Request body is empty.', []);
  return toExpr(parseJsonText(text), []);
}

export function toExpr(raw: unknown, position: Position): Expr {
  if (position.length > MAX_EXPRESSION_DEPTH) throw new QueryError('invalid expression', 'Expression nesting is too deep.', position);
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint' || typeof raw === 'number') {
    return { kind: 'literal', value: raw, position, raw };
  }
  if (Array.isArray(raw)) {
    return { kind: 'array', items: raw.map((item, i) => toExpr(item, [...position, i])), position, raw };
  }
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0]!.startsWith('@')) {
    return { kind: 'literal', value: decodeTagged(keys[0]!, object[keys[0]!], position), position, raw };
  }
  const fields = new Map<string, Expr>();
  for (const key of keys) fields.set(key, toExpr(object[key], [...position, key]));
  return { kind: 'object', fields, position, raw };
}

/** A wire value (not an expression): plain objects are objects, tagged objects are decoded. */
export function decodeWireValue(raw: unknown, position: Position): Value {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint' || typeof raw === 'number') return raw;
  if (Array.isArray(raw)) return raw.map((item, i) => decodeWireValue(item, [...position, i]));
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return decodeTagged(keys[0]!, object[keys[0]!], position);
  const out: ObjectValue = {};
  for (const key of keys) out[key] = decodeWireValue(object[key], [...position, key]);
  return out;
}

function decodeTagged(tag: string, body: unknown, position: Position): Value {
  const bad = (what: string) => new QueryError('invalid expression', `Invalid ${tag} value: ${what}.`, position);
  switch (tag) {
    case '@ref':
      if (typeof body === 'string') return parseRefPath(body, position);
      if (isRawObject(body)) return decodeLongRef(body, position);
      throw bad('expected a string or an object');
    case '@set':
      if (!isRawObject(body)) throw bad('expected an object');
      return new SetRef(decodeWireValue(body, [...position, '@set']) as ObjectValue);
    case '@ts': {
      const nanos = typeof body === 'string' ? parseIsoTime(body) : undefined;
      if (nanos === undefined) throw bad('expected an ISO 8601 time');
      return new Time(nanos);
    }
    case '@date': {
      const days = typeof body === 'string' ? parseIsoDate(body) : undefined;
      if (days === undefined) throw bad('expected an ISO 8601 date');
      return new DateValue(days);
    }
    case '@bytes':
      if (typeof body !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) throw bad('expected base64 text');
      return new Bytes(new Uint8Array(Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64')));
    case '@query': {
      if (!isRawObject(body) || !('lambda' in body) || !('expr' in body)) throw bad('expected an object with lambda and expr');
      const lambda = body['lambda'];
      if (!(typeof lambda === 'string' || (Array.isArray(lambda) && lambda.every((p) => typeof p === 'string')))) throw bad('lambda parameters must be strings');
      const apiVersion = body['api_version'];
      return new QueryValue(lambda as string | string[], body['expr'], typeof apiVersion === 'string' ? apiVersion : undefined);
    }
    case '@obj':
      if (!isRawObject(body)) throw bad('expected an object');
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, decodeWireValue(v, [...position, '@obj', k])]));
    default:
      throw new QueryError('invalid expression', `Unknown special form ${tag}.`, position);
  }
}

function isRawObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function decodeLongRef(body: Record<string, unknown>, position: Position): Ref {
  const id = body['id'];
  if (typeof id !== 'string') throw new QueryError('invalid expression', 'Invalid @ref value: id must be a string.', position);
  const parentRaw = body['collection'] ?? body['class'];
  const parent = parentRaw === undefined ? undefined : decodeWireValue(parentRaw, position);
  const dbRaw = body['database'];
  const database = dbRaw === undefined ? undefined : decodeWireValue(dbRaw, position);
  if ((parent !== undefined && !(parent instanceof Ref)) || (database !== undefined && !(database instanceof Ref))) {
    throw new QueryError('invalid expression', 'Invalid @ref value: collection and database must be refs.', position);
  }
  if (parent === undefined) return nativeRef(id === 'classes' ? 'collections' : id, database);
  return new Ref(id, normalizeCollectionRef(parent), database);
}

function nativeRef(id: string, database?: Ref): Ref {
  return new Ref(id, undefined, database);
}

/** `classes` is the old name of the `collections` native collection. */
function normalizeCollectionRef(ref: Ref): Ref {
  if (ref.collection === undefined && ref.id === 'classes') return new Ref('collections', undefined, ref.database);
  if (ref.collection && ref.collection.collection === undefined && ref.collection.id === 'classes') {
    return new Ref(ref.id, new Ref('collections', undefined, ref.collection.database), ref.database);
  }
  return ref;
}

const SCHEMA_PATH_PREFIXES: Record<string, string> = {
  classes: 'collections',
  collections: 'collections',
  indexes: 'indexes',
  databases: 'databases',
  keys: 'keys',
  tokens: 'tokens',
  credentials: 'credentials',
  roles: 'roles',
  functions: 'functions',
  access_providers: 'access_providers',
};

/**
 * The short ref form: `collections/c/1`, `classes/c/1`, `collections/c`, `databases/db`, `keys/123`,
 * `tokens/self`, `collections`, … Anything else is an invalid ref.
 */
export function parseRefPath(path: string, position: Position): Ref {
  const parts = path.split('/');
  const invalid = () => new QueryError('invalid ref', `Ref '${path}' is not a valid ref path.`, position);
  if (parts.some((p) => p === '')) throw invalid();
  const native = SCHEMA_PATH_PREFIXES[parts[0]!];
  if (native === undefined) throw invalid();
  const nativeCollection = nativeRef(native);
  if (parts.length === 1) return nativeCollection;
  if (parts.length === 2) return new Ref(parts[1]!, nativeCollection);
  if (parts.length === 3 && native === 'collections') return new Ref(parts[2]!, new Ref(parts[1]!, nativeCollection));
  throw invalid();
}

export function isNativeCollectionName(id: string): boolean {
  return (NATIVE_COLLECTIONS as readonly string[]).includes(id);
}

// ---------------------------------------------------------------------------------------------------------
// Rendering

export interface RenderOptions {
  apiVersion: ApiVersion;
}

/** A value → JSON text in the wire encoding of the given API version. */
export function renderValue(value: Value, options: RenderOptions): string {
  const out: string[] = [];
  writeValue(value, options, out);
  return out.join('');
}

/** `{"resource": value}` */
export function renderResource(value: Value, options: RenderOptions): string {
  return `{"resource":${renderValue(value, options)}}`;
}

export function renderDecimal(n: number): string {
  if (!Number.isFinite(n)) return JSON.stringify(String(n));
  // String(-0) is "0"; the service (Java Double.toString) keeps the sign of a negative zero.
  const text = Object.is(n, -0) ? '-0' : String(n);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

function writeValue(value: Value, options: RenderOptions, out: string[]): void {
  if (value === null || typeof value === 'boolean') out.push(String(value));
  else if (typeof value === 'string') out.push(JSON.stringify(value));
  else if (typeof value === 'bigint') out.push(value.toString());
  else if (typeof value === 'number') out.push(renderDecimal(value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      writeValue(item, options, out);
    });
    out.push(']');
  } else if (value instanceof Ref) writeRef(value, options, out);
  else if (value instanceof SetRef) {
    out.push('{"@set":');
    writeObject(value.structure, options, out);
    out.push('}');
  } else if (value instanceof Time) out.push(`{"@ts":${JSON.stringify(formatIsoTime(value.epochNanos))}}`);
  else if (value instanceof DateValue) out.push(`{"@date":${JSON.stringify(formatIsoDate(value.epochDays))}}`);
  else if (value instanceof Bytes) out.push(`{"@bytes":${JSON.stringify(Buffer.from(value.bytes).toString('base64'))}}`);
  else if (value instanceof QueryValue) {
    out.push('{"@query":{');
    if (value.apiVersion !== undefined) out.push(`"api_version":${JSON.stringify(value.apiVersion)},`);
    out.push('"lambda":');
    out.push(JSON.stringify(value.lambda));
    out.push(',"expr":');
    writeRawJson(value.expr, out);
    out.push('}}');
  } else if (isObjectValue(value)) {
    const escaped = Object.keys(value).some((k) => k.startsWith('@'));
    if (escaped) out.push('{"@obj":');
    writeObject(value, options, out);
    if (escaped) out.push('}');
  } else {
    throw new Error(`cannot render value of type ${typeof value}`);
  }
}

function writeObject(value: ObjectValue, options: RenderOptions, out: string[]): void {
  out.push('{');
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    writeValue(field, options, out);
  }
  out.push('}');
}

function writeRef(ref: Ref, options: RenderOptions, out: string[]): void {
  if (options.apiVersion === '2.0' && ref.database === undefined) {
    out.push(`{"@ref":${JSON.stringify(legacyRefPath(ref))}}`);
    return;
  }
  const { collectionKey } = wording(options.apiVersion);
  // The class wording names the native collection of collections `classes` as well.
  const id = collectionKey === 'class' && ref.collection === undefined && ref.id === 'collections' ? 'classes' : ref.id;
  out.push(`{"@ref":{"id":${JSON.stringify(id)}`);
  if (ref.collection) {
    out.push(`,"${collectionKey}":`);
    writeRef(ref.collection, options, out);
  }
  if (ref.database) {
    out.push(',"database":');
    writeRef(ref.database, options, out);
  }
  out.push('}}');
}

function legacyRefPath(ref: Ref): string {
  const path = ref.toPath();
  return path === 'collections' || path.startsWith('collections/') ? `classes${path.slice('collections'.length)}` : path;
}

/** Raw expression JSON (as parsed) back to text, keeping integers and decimals apart. */
function writeRawJson(raw: unknown, out: string[]): void {
  if (raw === null || raw === undefined) out.push('null');
  else if (typeof raw === 'bigint') out.push(raw.toString());
  else if (typeof raw === 'number') out.push(renderDecimal(raw));
  else if (typeof raw === 'string' || typeof raw === 'boolean') out.push(JSON.stringify(raw));
  else if (Array.isArray(raw)) {
    out.push('[');
    raw.forEach((item, i) => {
      if (i > 0) out.push(',');
      writeRawJson(item, out);
    });
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const [key, field] of Object.entries(raw as Record<string, unknown>)) {
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      writeRawJson(field, out);
    }
    out.push('}');
  }
}

// ---------------------------------------------------------------------------------------------------------
// Error bodies

export function renderQueryErrors(errors: readonly [QueryError, ...QueryError[]]): string {
  const [first, ...rest] = errors;
  const body: V4QueryError = { errors: [errorObject(first), ...rest.map(errorObject)] };
  return JSON.stringify(body);
}

function errorObject(error: QueryError): V4QueryErrorItem {
  const out: V4QueryErrorItem = { position: error.position, code: error.code, description: error.description };
  if (error.failures) out.failures = error.failures;
  if (error.cause) out.cause = error.cause.map(errorObject);
  return out;
}

/** A protocol error body: no position. */
export function renderProtocolError(code: string, description: string): string {
  const body: V4ProtocolError = { errors: [{ code, description }] };
  return JSON.stringify(body);
}
