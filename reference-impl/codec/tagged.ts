/**
 * The FQL v10 value encodings of `/query/1`, `/feed/1` and `/stream/1` (wire-facts §3.1): `tagged` (lossless,
 * type tags such as `{"@int": "3"}`) and `simple` (plain JSON, types lost).
 *
 * v10 has value kinds the shared value model lacks (documents, event sources, set pages); they are the
 * classes below so that an encoder input is never ambiguous. v4 native collections map to v10 modules through
 * `MODULE_OF_NATIVE_COLLECTION`.
 */
import { stringify as stringifyLossless, LosslessNumber } from 'lossless-json';
import {
  Bytes,
  DateValue,
  isObjectValue,
  NATIVE_COLLECTIONS,
  QueryValue,
  Ref,
  SetRef,
  setField,
  Time,
  type NativeCollectionName,
  type ObjectValue,
  type Value,
} from '../values/value.js';

/** A document as events and query results show it: `fields` holds `id`, `coll`, `ts` and the data fields. */
export class TaggedDocument {
  constructor(readonly fields: ObjectValue) {}
}

/** An event source, rendered `{"@stream": "<token>"}`. */
export class TaggedEventSource {
  constructor(readonly token: string) {}
}

/** A set page `{"@set": {"data": [...], "after": "..."}}`, or `{"@set": "<after>"}` when only a cursor is known. */
export class TaggedSetPage {
  constructor(
    readonly data: TaggedValue[] | undefined,
    readonly after?: string,
  ) {}
}

export type TaggedValue = Value | TaggedDocument | TaggedEventSource | TaggedSetPage | TaggedValue[] | { [field: string]: TaggedValue };

export type Json = null | boolean | number | string | Json[] | { [field: string]: Json };

/** Raised for input that is not valid tagged JSON; the message says what and where (a JSON path). */
export class TaggedDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaggedDecodeError';
  }
}

/** Raised for values that have no v10 form (v4 set references and stored v4 lambdas). */
export class TaggedEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaggedEncodeError';
  }
}

/** v10 module names of the v4 native collections. v10 has no index module; `Index` is this project's name. */
export const MODULE_OF_NATIVE_COLLECTION: Readonly<Record<NativeCollectionName, string>> = {
  collections: 'Collection',
  indexes: 'Index',
  databases: 'Database',
  keys: 'Key',
  tokens: 'Token',
  credentials: 'Credential',
  roles: 'Role',
  functions: 'Function',
  access_providers: 'AccessProvider',
};

const NATIVE_COLLECTION_OF_MODULE: ReadonlyMap<string, NativeCollectionName> = new Map(
  NATIVE_COLLECTIONS.map((name) => [MODULE_OF_NATIVE_COLLECTION[name], name]),
);

/** Native collections whose documents are identified by name rather than id in v10 refs. */
export const NAMED_NATIVE_COLLECTIONS: ReadonlySet<string> = new Set([
  'collections',
  'indexes',
  'databases',
  'roles',
  'functions',
  'access_providers',
]);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The ref of a collection given its v10 name: a native collection for module names, else a user collection. */
export function collectionRefOfModule(name: string): Ref {
  const native = NATIVE_COLLECTION_OF_MODULE.get(name);
  return native ? new Ref(native) : new Ref(name, new Ref('collections'));
}

/** The v10 module name of a collection ref (native or user-defined). */
export function moduleNameOfCollection(collection: Ref): string {
  if (collection.collection === undefined) {
    const native = (NATIVE_COLLECTIONS as readonly string[]).includes(collection.id);
    if (!native) throw new TaggedEncodeError(`ref ${collection.toPath()} is not a collection`);
    return MODULE_OF_NATIVE_COLLECTION[collection.id as NativeCollectionName];
  }
  if (collection.collection.id === 'collections' && collection.collection.collection === undefined) {
    return collection.id;
  }
  throw new TaggedEncodeError(`ref ${collection.toPath()} is not a collection`);
}

function isCollectionRef(ref: Ref): boolean {
  if (ref.collection === undefined) return true;
  return ref.collection.id === 'collections' && ref.collection.collection === undefined;
}

// ---------------------------------------------------------------------------------------------- encoding

// Implements: ESRC-QUERY-002, EVT-FIELD-003, EVT-FIELD-010
export function encodeTagged(value: TaggedValue): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') {
    if (value >= INT32_MIN && value <= INT32_MAX) return { '@int': value.toString() };
    if (value >= INT64_MIN && value <= INT64_MAX) return { '@long': value.toString() };
    throw new TaggedEncodeError(`integer ${value} does not fit in 64 bits`);
  }
  if (typeof value === 'number') return { '@double': formatDouble(value) };
  if (Array.isArray(value)) return value.map(encodeTagged);
  if (value instanceof Ref) return encodeRef(value);
  if (value instanceof Time) return { '@time': formatTime(value) };
  if (value instanceof DateValue) return { '@date': formatDate(value) };
  if (value instanceof Bytes) return { '@bytes': Buffer.from(value.bytes).toString('base64') };
  if (value instanceof TaggedDocument) return { '@doc': encodeDocumentFields(value.fields) };
  if (value instanceof TaggedEventSource) return { '@stream': value.token };
  if (value instanceof TaggedSetPage) {
    if (value.data === undefined) return { '@set': value.after ?? '' };
    const page: { [field: string]: Json } = { data: value.data.map(encodeTagged) };
    if (value.after !== undefined) page.after = value.after;
    return { '@set': page };
  }
  if (value instanceof SetRef) throw new TaggedEncodeError('v4 set references have no FQL v10 encoding');
  if (value instanceof QueryValue) throw new TaggedEncodeError('stored v4 lambdas have no FQL v10 encoding');
  const fields: { [field: string]: Json } = {};
  let needsEscape = false;
  for (const [key, field] of Object.entries(value)) {
    if (key.startsWith('@')) needsEscape = true;
    setField(fields, key, encodeTagged(field));
  }
  return needsEscape ? { '@object': fields } : fields;
}

function encodeRef(ref: Ref): Json {
  if (isCollectionRef(ref)) return { '@mod': moduleNameOfCollection(ref) };
  const collection = ref.collection as Ref;
  const coll = { '@mod': moduleNameOfCollection(collection) };
  if (collection.collection === undefined && NAMED_NATIVE_COLLECTIONS.has(collection.id)) {
    return { '@ref': { name: ref.id, coll } };
  }
  return { '@ref': { id: ref.id, coll } };
}

/** `id` (or `name`), `coll` and `ts` first, as the service renders them, then the data fields in order. */
function encodeDocumentFields(fields: ObjectValue): { [field: string]: Json } {
  const out: { [field: string]: Json } = {};
  for (const key of ['id', 'name', 'coll', 'ts']) {
    const field = fields[key];
    if (field === undefined) continue;
    setField(out, key, key === 'coll' && typeof field === 'string' ? { '@mod': field } : encodeTagged(field));
  }
  for (const [key, field] of Object.entries(fields)) {
    if (!(key in out)) setField(out, key, encodeTagged(field));
  }
  return out;
}

/** Shortest text that reads back as the same double; `NaN`, `Infinity`, `-Infinity` by name. */
function formatDouble(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0.0';
  const text = String(n);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** ISO 8601 in UTC with as many fraction digits as needed (none for whole seconds), e.g. `2024-01-01T00:00:00.5Z`. */
export function formatTime(time: Time): string {
  const nanosPerSecond = 1_000_000_000n;
  let seconds = time.epochNanos / nanosPerSecond;
  let nanos = time.epochNanos % nanosPerSecond;
  if (nanos < 0n) {
    nanos += nanosPerSecond;
    seconds -= 1n;
  }
  const whole = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (nanos === 0n) return `${whole}Z`;
  const fraction = nanos.toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}.${fraction}Z`;
}

export function formatDate(date: DateValue): string {
  return new Date(date.epochDays * 86_400_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------- decoding

export function decodeTagged(json: unknown): TaggedValue {
  return decodeAt(json, '$');
}

/** An integral JSON number that fits a 64-bit long; larger integral numbers stay doubles (like `1e300`). */
function isLongSized(n: number): boolean {
  return Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63;
}

/**
 * An integer read with every digit (request bodies are, so that 64-bit arguments keep theirs): a long when it fits,
 * else a double, as an integral JSON number past that size is.
 */
function integerValue(n: bigint): bigint | number {
  return n >= INT64_MIN && n <= INT64_MAX ? n : Number(n);
}

function decodeAt(json: unknown, path: string): TaggedValue {
  if (json === null || typeof json === 'boolean' || typeof json === 'string') return json;
  if (typeof json === 'number') {
    if (!Number.isFinite(json)) throw new TaggedDecodeError(`${path}: not a JSON number`);
    return isLongSized(json) ? BigInt(json) : json;
  }
  if (typeof json === 'bigint') return integerValue(json);
  if (Array.isArray(json)) return json.map((item, i) => decodeAt(item, `${path}[${i}]`));
  if (typeof json !== 'object') throw new TaggedDecodeError(`${path}: not a JSON value`);
  const record = json as Record<string, unknown>;
  const keys = Object.keys(record);
  const tag = keys.length === 1 ? keys[0] : undefined;
  if (tag?.startsWith('@')) return decodeTag(tag, record[tag], `${path}.${tag}`);
  return decodeFields(record, path);
}

function decodeFields(record: Record<string, unknown>, path: string): { [field: string]: TaggedValue } {
  const out: { [field: string]: TaggedValue } = {};
  for (const [key, field] of Object.entries(record)) setField(out, key, decodeAt(field, `${path}.${key}`));
  return out;
}

function decodeTag(tag: string, body: unknown, path: string): TaggedValue {
  switch (tag) {
    case '@int':
      return decodeInteger(body, path, INT32_MIN, INT32_MAX, '32-bit');
    case '@long':
      return decodeInteger(body, path, INT64_MIN, INT64_MAX, '64-bit');
    case '@double':
      return decodeDouble(body, path);
    case '@time':
      return parseTime(expectString(body, path), path);
    case '@date':
      return parseDate(expectString(body, path), path);
    case '@bytes':
      return new Bytes(decodeBase64Strict(expectString(body, path), path));
    case '@uuid':
      return decodeUuid(body, path);
    case '@mod':
      return collectionRefOfModule(expectName(body, path));
    case '@ref':
      return decodeRef(body, path);
    case '@doc':
      return decodeDocument(body, path);
    case '@object':
      if (!isJsonRecord(body)) throw new TaggedDecodeError(`${path}: expected an object`);
      return decodeFields(body, path);
    case '@set':
      return decodeSet(body, path);
    case '@stream':
      return new TaggedEventSource(expectName(body, path));
    default:
      throw new TaggedDecodeError(`${path}: unknown tag ${tag}`);
  }
}

function isJsonRecord(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function expectString(body: unknown, path: string): string {
  if (typeof body !== 'string') throw new TaggedDecodeError(`${path}: expected a string`);
  return body;
}

function expectName(body: unknown, path: string): string {
  const text = expectString(body, path);
  if (text === '') throw new TaggedDecodeError(`${path}: expected a non-empty string`);
  return text;
}

function decodeInteger(body: unknown, path: string, min: bigint, max: bigint, width: string): bigint {
  const text = expectString(body, path);
  if (!/^-?\d+$/.test(text)) throw new TaggedDecodeError(`${path}: "${text}" is not an integer`);
  const n = BigInt(text);
  if (n < min || n > max) throw new TaggedDecodeError(`${path}: ${text} does not fit in a ${width} integer`);
  return n;
}

function decodeDouble(body: unknown, path: string): number {
  const text = expectString(body, path);
  if (text === 'NaN') return NaN;
  if (text === 'Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new TaggedDecodeError(`${path}: "${text}" is not a number`);
  }
  return Number(text);
}

const TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an ISO 8601 timestamp with an explicit zone (`Z` or `±hh:mm`) and up to nanosecond precision. */
export function parseTime(text: string, path = '$'): Time {
  const m = TIME_PATTERN.exec(text);
  if (!m) throw new TaggedDecodeError(`${path}: "${text}" is not an ISO 8601 time such as 2024-01-01T00:00:00Z`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(millis);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new TaggedDecodeError(`${path}: "${text}" is not a valid calendar time`);
  }
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0'));
  const zone = m[8] as string;
  let offsetMinutes = 0n;
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    offsetMinutes = sign * (BigInt(zone.slice(1, 3)) * 60n + BigInt(zone.slice(4, 6)));
  }
  return new Time(BigInt(millis) * 1_000_000n + fraction - offsetMinutes * 60_000_000_000n);
}

export function parseDate(text: string, path = '$'): DateValue {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) throw new TaggedDecodeError(`${path}: "${text}" is not a date such as 2024-01-01`);
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  const millis = Date.UTC(year, month - 1, day);
  const check = new Date(millis);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new TaggedDecodeError(`${path}: "${text}" is not a valid calendar date`);
  }
  return new DateValue(millis / 86_400_000);
}

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 with padding; anything Node would silently skip or repair is rejected. */
export function decodeBase64Strict(text: string, path = '$'): Uint8Array {
  if (!BASE64_PATTERN.test(text)) throw new TaggedDecodeError(`${path}: not standard base64`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new TaggedDecodeError(`${path}: not canonical base64`);
  return new Uint8Array(bytes);
}

/** The value model has no UUID type; a UUID decodes to its canonical lower-case text. */
function decodeUuid(body: unknown, path: string): string {
  const text = expectString(body, path);
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(text)) {
    throw new TaggedDecodeError(`${path}: "${text}" is not a UUID`);
  }
  return text.toLowerCase();
}

function decodeCollectionField(body: unknown, path: string): Ref {
  if (!isJsonRecord(body) || Object.keys(body).length !== 1 || !('@mod' in body)) {
    throw new TaggedDecodeError(`${path}: expected {"@mod": "<collection>"}`);
  }
  return collectionRefOfModule(expectName(body['@mod'], `${path}.@mod`));
}

function decodeRef(body: unknown, path: string): Ref {
  if (!isJsonRecord(body)) throw new TaggedDecodeError(`${path}: expected an object with id or name, and coll`);
  const collection = decodeCollectionField(body.coll, `${path}.coll`);
  if (typeof body.id === 'string' && body.id !== '') return new Ref(body.id, collection);
  if (typeof body.name === 'string' && body.name !== '') {
    if (collection.collection === undefined && collection.id === 'collections') {
      return collectionRefOfModule(body.name);
    }
    return new Ref(body.name, collection);
  }
  throw new TaggedDecodeError(`${path}: a ref needs a non-empty "id" or "name"`);
}

function decodeDocument(body: unknown, path: string): TaggedDocument {
  if (!isJsonRecord(body)) throw new TaggedDecodeError(`${path}: expected an object`);
  const fields: ObjectValue = {};
  for (const [key, field] of Object.entries(body)) {
    const fieldPath = `${path}.${key}`;
    if (key === 'coll') setField(fields, key, decodeCollectionField(field, fieldPath));
    else setField(fields, key, toValue(decodeAt(field, fieldPath), fieldPath));
  }
  if (typeof fields.id !== 'string' && typeof fields.name !== 'string') {
    throw new TaggedDecodeError(`${path}: a document needs a string "id" or "name"`);
  }
  if (!(fields.coll instanceof Ref)) throw new TaggedDecodeError(`${path}: a document needs "coll"`);
  if (!(fields.ts instanceof Time)) throw new TaggedDecodeError(`${path}: a document needs an @time "ts"`);
  return new TaggedDocument(fields);
}

function decodeSet(body: unknown, path: string): TaggedSetPage {
  if (typeof body === 'string') return new TaggedSetPage(undefined, body);
  if (!isJsonRecord(body) || !Array.isArray(body.data)) {
    throw new TaggedDecodeError(`${path}: expected a cursor string or {"data": [...], "after"?: "..."}`);
  }
  const after = body.after;
  if (after !== undefined && typeof after !== 'string') throw new TaggedDecodeError(`${path}.after: expected a string`);
  return new TaggedSetPage(
    body.data.map((item, i) => decodeAt(item, `${path}.data[${i}]`)),
    after,
  );
}

/**
 * Narrows a decoded value to the shared value model: documents become their refs, event sources their token
 * text. Set pages have no value-model form and are rejected.
 */
export function toValue(value: TaggedValue, path = '$'): Value {
  if (value instanceof TaggedDocument) {
    const coll = value.fields.coll;
    const id = value.fields.id ?? value.fields.name;
    if (!(coll instanceof Ref) || typeof id !== 'string') throw new TaggedDecodeError(`${path}: incomplete document`);
    return isCollectionRef(new Ref(id, coll)) ? collectionRefOfModule(id) : new Ref(id, coll);
  }
  if (value instanceof TaggedEventSource) return value.token;
  if (value instanceof TaggedSetPage) throw new TaggedDecodeError(`${path}: a set cannot be used as a value here`);
  if (Array.isArray(value)) return value.map((item, i) => toValue(item, `${path}[${i}]`));
  if (isPlainRecord(value)) {
    const out: ObjectValue = {};
    for (const [key, field] of Object.entries(value)) setField(out, key, toValue(field, `${path}.${key}`));
    return out;
  }
  return value;
}

function isPlainRecord(value: TaggedValue): value is { [field: string]: TaggedValue } {
  return isObjectValue(value as Value);
}

// ---------------------------------------------------------------------------------------------- simple

/** A `simple`-format value: JSON plus bigints and exact decimals, written out by `stringifySimple`. */
export type SimpleJson = null | boolean | number | bigint | string | LosslessNumber | SimpleJson[] | { [field: string]: SimpleJson };

/**
 * The `simple` format: no tags. Integers are JSON numbers (bigints keep every digit), decimals keep a
 * fraction (`1.0`), non-finite decimals are the strings `NaN`/`Infinity`/`-Infinity`, times and dates are ISO
 * strings, bytes base64, collections their names, refs `{id|name, coll}`, documents their fields with `coll`
 * as a name and `ts` as an ISO string, event sources their token, set pages `{data, after?}`.
 */
export function encodeSimple(value: TaggedValue): SimpleJson {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint') {
    return value;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? new LosslessNumber(formatDouble(value)) : formatDouble(value);
  }
  if (Array.isArray(value)) return value.map(encodeSimple);
  if (value instanceof Ref) {
    const tagged = encodeRef(value) as { [field: string]: { [field: string]: Json } | string };
    if ('@mod' in tagged) return tagged['@mod'] as string;
    const ref = tagged['@ref'] as { [field: string]: Json };
    const coll = (ref.coll as { '@mod': string })['@mod'];
    return 'id' in ref ? { id: ref.id as string, coll } : { name: ref.name as string, coll };
  }
  if (value instanceof Time) return formatTime(value);
  if (value instanceof DateValue) return formatDate(value);
  if (value instanceof Bytes) return Buffer.from(value.bytes).toString('base64');
  if (value instanceof TaggedDocument) {
    const out: { [field: string]: SimpleJson } = {};
    for (const [key, field] of Object.entries(encodeDocumentFieldsSimple(value.fields))) setField(out, key, field);
    return out;
  }
  if (value instanceof TaggedEventSource) return value.token;
  if (value instanceof TaggedSetPage) {
    const page: { [field: string]: SimpleJson } = { data: (value.data ?? []).map(encodeSimple) };
    if (value.after !== undefined) page.after = value.after;
    return page;
  }
  if (value instanceof SetRef || value instanceof QueryValue) {
    throw new TaggedEncodeError('v4 set references and stored lambdas have no FQL v10 encoding');
  }
  const out: { [field: string]: SimpleJson } = {};
  for (const [key, field] of Object.entries(value)) setField(out, key, encodeSimple(field));
  return out;
}

function encodeDocumentFieldsSimple(fields: ObjectValue): { [field: string]: SimpleJson } {
  const out: { [field: string]: SimpleJson } = {};
  for (const key of ['id', 'name', 'coll', 'ts']) {
    const field = fields[key];
    if (field === undefined) continue;
    setField(out, key, key === 'coll' && typeof field === 'string' ? field : encodeSimple(field));
  }
  for (const [key, field] of Object.entries(fields)) {
    if (!(key in out)) setField(out, key, encodeSimple(field));
  }
  return out;
}

/** JSON text of a `simple` value, keeping every digit of large integers and the fraction of decimals. */
export function stringifySimple(value: TaggedValue): string {
  return stringifyLossless(encodeSimple(value)) ?? 'null';
}

/**
 * Reads `simple` JSON (already parsed) into values: integral numbers become integers, others decimals. The
 * format cannot tell `1` from `1.0`; callers that need the difference use `tagged`.
 */
export function decodeSimple(json: unknown): Value {
  if (json === null || typeof json === 'boolean' || typeof json === 'string') return json;
  if (typeof json === 'number') return isLongSized(json) ? BigInt(json) : json;
  if (typeof json === 'bigint') return integerValue(json);
  if (Array.isArray(json)) return json.map(decodeSimple);
  if (isJsonRecord(json)) {
    const out: ObjectValue = {};
    for (const [key, field] of Object.entries(json)) setField(out, key, decodeSimple(field));
    return out;
  }
  throw new TaggedDecodeError('$: not a JSON value');
}
