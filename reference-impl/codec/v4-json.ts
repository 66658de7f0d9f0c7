/**
 * The v4 wire codec: request JSON → expression tree (with positions), wire values ↔ the value model, and
 * rendering of results per `X-FaunaDB-API-Version` (wire-facts §1.2, §1.6).
 */
import { ProtocolError, QueryError, type Position } from '../errors/query-error.js';
import { Bytes, DateValue, NATIVE_COLLECTIONS, QueryValue, Ref, SetRef, Time, isObjectValue, setField, storedFields, type ObjectValue, type Value } from '../values/value.js';
import type { ArrayExpr, Expr, LiteralExpr, ObjectExpr } from './v4-ast.js';
import type { V4ProtocolError, V4QueryError, V4QueryErrorItem } from '../../schemas/types.js';
import { JsonScanner, parseExactJson } from './exact-json.js';
import { formatIsoDate, formatIsoTime, parseIsoDate, parseIsoTime } from './iso-time.js';
import { GenerationalWeakCache, KEPT_ENTRIES_PER_GENERATION } from '../values/generational-weak-cache.js';

// ---------------------------------------------------------------------------------------------------------
// API versions

export const API_VERSIONS = ['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
/** Without the header the real service answers as API 2.1 (`class`/`instance` wording). */
export const DEFAULT_API_VERSION: ApiVersion = '2.1';

// Implements: PROTO-VERSION-006, PROTO-VERSION-009
export function parseApiVersion(header: string | undefined): ApiVersion {
  if (header === undefined) return DEFAULT_API_VERSION;
  const value = header.trim();
  const upper = value.toUpperCase();
  const found = API_VERSIONS.find((v) => v === upper);
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

// Implements: PROTO-VERSION-001, PROTO-VERSION-003
const WORDINGS: Readonly<Record<ApiVersion, Wording>> = Object.fromEntries(
  API_VERSIONS.map((v) => [v, apiAtLeast(v, '2.7') ? { collectionKey: 'collection', documentKey: 'document' } : { collectionKey: 'class', documentKey: 'instance' }]),
) as Record<ApiVersion, Wording>;

export function wording(version: ApiVersion): Wording {
  return WORDINGS[version];
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// Implements: PROTO-BODY-001
/** JSON text → raw tree where `1` is a bigint and `1.0` (or `1e3`) a number. */
export function parseJsonText(text: string): unknown {
  try {
    return parseExactJson(text, wireNumber);
  } catch {
    throw new QueryError('invalid expression', 'Request body is not valid JSON.', []);
  }
}

/**
 * The longs 0…999, made once: a small integer kept in a document then costs a pointer, not a 24-byte BigInt of its
 * own (BigInts are immutable and compared by value, so sharing one is never seen).
 */
const SMALL_LONGS: readonly bigint[] = Array.from({ length: 1000 }, (_, i) => BigInt(i));

// Implements: PROTO-VALUE-011
function wireNumber(token: string, integer: boolean): bigint | number {
  if (!integer) return Number(token);
  // Up to three characters and no sign: 0…999 (JSON has no leading zeros).
  if (token.length <= 3 && token.charCodeAt(0) !== 0x2d /* - */) return SMALL_LONGS[Number(token)]!;
  const n = BigInt(token);
  // Integers beyond 64 bits cannot be longs; the service reads them as decimals.
  return n < INT64_MIN || n > INT64_MAX ? Number(token) : n;
}

// Implements: LIMIT-BODY-003, LIMIT-BODY-004
/** Nesting deeper than this is refused rather than risking the stack. */
export const MAX_EXPRESSION_DEPTH = 512;

// Implements: PROTO-BODY-001, PROTO-BODY-002
/**
 * Request body → expression tree. Empty bodies and invalid JSON are `invalid expression` at `[]`.
 *
 * The tree is built in one pass over the text (`ExpressionParser`). Whatever that pass does not take (any error,
 * a repeated key, a key that is an array index) is parsed again the long way, into plain JSON and then into nodes,
 * which decides: so both ways always agree, and the error a body gets is the long way's.
 *
 * Bodies longer than `ONE_PASS_MAX_CHARS` take the long way too. Such a body (a batch of a thousand writes) is evaluated
 * for long enough that its tree outlives young-generation collections, and the one-pass tree then cost far more in
 * the old generation: loading 100k documents in batches of 1000 promoted ~275 MB instead of ~110 MB, made about twice
 * the full collections and ended at ~190 MB RSS instead of ~173 (V8's allocation-site pretenuring had a part:
 * without it half the difference went). What the one pass saves is per request, which is nothing next to such a
 * body's evaluation.
 */
export function parseExpression(text: string): Expr {
  if (text.trim() === '') throw new QueryError('invalid expression', 'No query provided.', []);
  try {
    if (text.length <= ONE_PASS_MAX_CHARS) return new ExpressionParser(text).expression();
  } catch {
    // What the one pass refuses, the long way decides, and words the error of.
  }
  return toExpr(parseJsonText(text), []);
}

export function toExpr(raw: unknown, position: Position): Expr {
  return nodeOf(raw, position, undefined, undefined, 0);
}

// Implements: PROTO-ERROR-002, PROTO-ERROR-003
/**
 * Expression nodes know their parent and the step from it, and build their position (JSON path) when first
 * asked, then keep it: a path array per node, built whether used or not, was a large share of parsing.
 */
abstract class ParsedNode {
  private path: Position | undefined;

  constructor(
    private readonly base: Position,
    private readonly parent: ParsedNode | undefined,
    private readonly step: string | number | undefined,
  ) {}

  get position(): Position {
    if (this.path === undefined) this.path = this.parent === undefined ? this.base : [...this.parent.position, this.step!];
    return this.path;
  }
}

class LiteralNode extends ParsedNode implements LiteralExpr {
  readonly kind = 'literal';
  value: Value = null;

  constructor(
    readonly raw: unknown,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }
}

/**
 * Array and object nodes read from text have no raw JSON until it is asked for (stored lambdas keep it): it is then
 * built from their items' or fields'.
 */
class ArrayNode extends ParsedNode implements ArrayExpr {
  readonly kind = 'array';
  items: readonly Expr[] = [];

  constructor(
    private source: unknown[] | undefined,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }

  get raw(): unknown[] {
    return (this.source ??= this.items.map((item) => item.raw));
  }
}

class ObjectNode extends ParsedNode implements ObjectExpr {
  readonly kind = 'object';
  fields: ExprFields = EMPTY_FIELDS;

  constructor(
    private source: Record<string, unknown> | undefined,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }

  get raw(): Record<string, unknown> {
    if (this.source === undefined) {
      const raw: Record<string, unknown> = {};
      // Defined, not assigned: a `__proto__` key is a field, as `JSON.parse` makes it.
      for (const [name, expr] of this.fields) Object.defineProperty(raw, name, { value: expr.raw, writable: true, enumerable: true, configurable: true });
      this.source = raw;
    }
    return this.source;
  }
}

/** Above this many keys, lookups go through a Map (built on first lookup) instead of a scan of the keys. */
const SCANNED_KEYS = 8;

/**
 * An object node's fields: its keys (the array `Object.keys` gave) and their expressions side by side. A `Map`
 * per object node was the largest single allocation of parsing, while forms have a handful of keys, which a scan
 * finds faster than a hash lookup.
 */
class ExprFields implements ReadonlyMap<string, Expr> {
  private index: Map<string, Expr> | undefined;

  constructor(
    private readonly names: readonly string[],
    private readonly exprs: readonly Expr[],
  ) {}

  get size(): number {
    return this.names.length;
  }

  get(key: string): Expr | undefined {
    if (this.names.length <= SCANNED_KEYS) {
      const i = this.names.indexOf(key);
      return i < 0 ? undefined : this.exprs[i];
    }
    return (this.index ??= new Map(this.entries())).get(key);
  }

  has(key: string): boolean {
    return this.names.length <= SCANNED_KEYS ? this.names.includes(key) : (this.index ??= new Map(this.entries())).has(key);
  }

  keys(): MapIterator<string> {
    return this.names.values();
  }

  values(): MapIterator<Expr> {
    return this.exprs.values();
  }

  *entries(): MapIterator<[string, Expr]> {
    for (let i = 0; i < this.names.length; i++) yield [this.names[i]!, this.exprs[i]!];
  }

  [Symbol.iterator](): MapIterator<[string, Expr]> {
    return this.entries();
  }

  forEach(callback: (value: Expr, key: string, map: ReadonlyMap<string, Expr>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.names.length; i++) callback.call(thisArg, this.exprs[i]!, this.names[i]!, this);
  }
}

const EMPTY_FIELDS = new ExprFields([], []);

function nodeOf(raw: unknown, base: Position, parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
  if (base.length + depth > MAX_EXPRESSION_DEPTH) {
    throw new QueryError('invalid expression', 'Expression nesting is too deep.', new LiteralNode(raw, base, parent, step).position);
  }
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint' || typeof raw === 'number') {
    const literal = new LiteralNode(raw, base, parent, step);
    literal.value = raw;
    return literal;
  }
  if (Array.isArray(raw)) {
    const array = new ArrayNode(raw, base, parent, step);
    array.items = raw.map((item, i) => nodeOf(item, base, array, i, depth + 1));
    return array;
  }
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  // Only the wire's own tags are values. Any other `@` key is a field name: drivers send a user object with such
  // keys as `{"object": {"@x": …}}` (wire-facts §@obj), and elsewhere it is an unknown form, refused as one.
  if (keys.length === 1 && WIRE_TAGS.has(keys[0]!)) {
    const literal = new LiteralNode(raw, base, parent, step);
    literal.value = decodeTagged(keys[0]!, object[keys[0]!], literal.position);
    return literal;
  }
  const node = new ObjectNode(object, base, parent, step);
  const exprs = new Array<Expr>(keys.length);
  for (let i = 0; i < keys.length; i++) exprs[i] = nodeOf(object[keys[i]!], base, node, keys[i], depth + 1);
  node.fields = new ExprFields(keys, exprs);
  return node;
}

/** The longest body parsed in one pass (see `parseExpression`); a query a driver sends is far shorter. */
const ONE_PASS_MAX_CHARS = 16 * 1024;

/**
 * Builds expression nodes straight from the text, without the plain JSON tree in between: building that tree (an
 * object per JSON object, its keys stored one by one) and then reading it back was most of the cost of parsing a
 * request. It takes only what the long way (`toExpr` of `parseJsonText`) would turn into the same tree, and fails on
 * anything else (see `parseExpression`).
 */
class ExpressionParser extends JsonScanner {
  constructor(text: string) {
    super(text, wireNumber);
  }

  expression(): Expr {
    this.skipWhitespace();
    const expr = this.node(undefined, undefined, 0);
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('end of input');
    return expr;
  }

  private node(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    if (depth > MAX_EXPRESSION_DEPTH) this.fail('less nesting');
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b /* { */) return this.object(parent, step, depth);
    if (c === 0x5b /* [ */) return this.array(parent, step, depth);
    const value = this.scalar() as string | number | bigint | boolean | null;
    const literal = new LiteralNode(value, ROOT, parent, step);
    literal.value = value;
    return literal;
  }

  private array(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    const text = this.text;
    const array = new ArrayNode(undefined, ROOT, parent, step);
    const items: Expr[] = [];
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x5d /* ] */) {
      this.at++;
    } else {
      for (;;) {
        items.push(this.node(array, items.length, depth + 1));
        this.skipWhitespace();
        const c = text.charCodeAt(this.at++);
        if (c === 0x5d /* ] */) break;
        if (c !== 0x2c /* , */) this.fail("',' or ']'");
        this.skipWhitespace();
      }
    }
    array.items = items;
    return array;
  }

  private object(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    const text = this.text;
    const node = new ObjectNode(undefined, ROOT, parent, step);
    // Most objects of a query have one key: its entry waits in locals and the arrays are made at their size (an
    // array grown by pushing holds room for sixteen).
    let firstName: string | undefined;
    let firstExpr: Expr | undefined;
    let names: string[] | undefined;
    let exprs: Expr[] | undefined;
    let seen: Set<string> | undefined;
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x7d /* } */) {
      this.at++;
    } else {
      for (;;) {
        if (text.charCodeAt(this.at) !== 0x22 /* " */) this.fail('a quoted object key');
        const name = this.string();
        // A plain object lists array-index keys first, so the long way's key order differs; a repeated key is
        // refused or merged there.
        const first = name.charCodeAt(0);
        if (first >= 0x30 && first <= 0x39) this.fail('a key that is not an array index');
        if (names === undefined ? name === firstName : names.length < SCANNED_KEYS ? names.includes(name) : (seen ??= new Set(names)).has(name)) this.fail('no repeated key');
        seen?.add(name);
        this.skipWhitespace();
        if (text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("':'");
        this.at++;
        this.skipWhitespace();
        const expr = this.node(node, name, depth + 1);
        if (firstExpr === undefined) {
          firstName = name;
          firstExpr = expr;
        } else if (names === undefined) {
          names = [firstName!, name];
          exprs = [firstExpr, expr];
        } else {
          names.push(name);
          exprs!.push(expr);
        }
        this.skipWhitespace();
        const c = text.charCodeAt(this.at++);
        if (c === 0x7d /* } */) break;
        if (c !== 0x2c /* , */) this.fail("',' or '}'");
        this.skipWhitespace();
      }
    }
    if (names === undefined) {
      if (firstExpr === undefined) return withFields(node, EMPTY_FIELDS);
      // Tested by its first character first: hashing a key only to find it is no tag was a share of parsing.
      if (firstName!.charCodeAt(0) === 0x40 /* @ */ && WIRE_TAGS.has(firstName!)) {
        const body = firstExpr.raw;
        const literal = new LiteralNode({ [firstName!]: body }, ROOT, parent, step);
        literal.value = decodeTagged(firstName!, body, literal.position);
        return literal;
      }
      return withFields(node, new ExprFields([firstName!], [firstExpr]));
    }
    return withFields(node, new ExprFields(names, exprs!));
  }
}

function withFields(node: ObjectNode, fields: ExprFields): ObjectNode {
  node.fields = fields;
  return node;
}

/** The position nodes read from a request body start from; shared by every request's tree, so frozen. */
const ROOT: Position = Object.freeze([]) as unknown as Position;

/** A wire value (not an expression): plain objects are objects, tagged objects are decoded. */
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
function decodeTagged(tag: string, body: unknown, position: Position): Value {
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
      const lambda = body['lambda'];
      if (!(typeof lambda === 'string' || (Array.isArray(lambda) && lambda.every((p) => typeof p === 'string')))) throw bad();
      const apiVersion = body['api_version'];
      // A lambda sent without its version is read as one of 2.12, as the real service parses it (DEC-136).
      return new QueryValue(lambda as string | string[], body['expr'], typeof apiVersion === 'string' ? apiVersion : LAMBDA_DEFAULT_API_VERSION);
    }
    case '@obj':
      if (!isRawObject(body)) throw bad();
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, decodeWireValue(v, [...position, '@obj', k])]));
    default:
      throw new QueryError('invalid expression', `Unknown special form ${tag}.`, position);
  }
}

function isRawObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

// Implements: PROTO-VALUE-001, PROTO-VERSION-004
function decodeLongRef(body: Record<string, unknown>, position: Position): Ref {
  const id = body['id'];
  if (typeof id !== 'string') throw new QueryError('invalid expression', BAD_TAGGED['@ref']!, position);
  const parentRaw = body['collection'] ?? body['class'];
  const parent = parentRaw === undefined ? undefined : decodeWireValue(parentRaw, position);
  const dbRaw = body['database'];
  const database = dbRaw === undefined ? undefined : decodeWireValue(dbRaw, position);
  if ((parent !== undefined && !(parent instanceof Ref)) || (database !== undefined && !(database instanceof Ref))) {
    throw new QueryError('invalid expression', BAD_TAGGED['@ref']!, position);
  }
  if (parent === undefined) return nativeRef(id === 'classes' ? 'collections' : id, database);
  const collection = normalizeCollectionRef(parent);
  // `self` names the caller's own record, in any collection (`tokens/self`).
  return new Ref(hasNumericIds(collection) && id !== 'self' ? documentId(id, [...position, 'id']) : id, collection, database);
}

/** The largest document id: ids are signed 64-bit integers. */
const MAX_DOCUMENT_ID = 2n ** 63n - 1n;
const LONG_TEXT = /^[+-]?[0-9]+$/;
const DIGITS = /^[0-9]*$/;

// Implements: DOC-CREATE-011
/**
 * A document id as the real service reads one (fauna/faunadb `RefParser`, `RefFunction`; DEC-132): a decimal integer
 * that fits in 64 bits, optionally signed, kept in its canonical form (`007` is `7`). Anything else is 400
 * `invalid argument` at `position`: `The id provided is too large: '<id>'` for digits only, else `Number or numeric
 * String expected, non-numeric '<id>' provided.`
 */
export function documentId(id: string, position: Position): string {
  if (LONG_TEXT.test(id)) {
    const value = BigInt(id);
    if (value <= MAX_DOCUMENT_ID && value >= -MAX_DOCUMENT_ID - 1n) return value.toString();
  }
  if (DIGITS.test(id)) throw new QueryError('invalid argument', `The id provided is too large: '${id}'`, position);
  throw new QueryError('invalid argument', `Number or numeric String expected, non-numeric '${id}' provided.`, position);
}

/** Whether the records of `collection` have numeric ids: documents of a user collection, keys, tokens, credentials. */
export function hasNumericIds(collection: Ref): boolean {
  if (collection.collection === undefined) return collection.id === 'keys' || collection.id === 'tokens' || collection.id === 'credentials';
  return collection.collection.id === 'collections' && collection.collection.collection === undefined;
}

function nativeRef(id: string, database?: Ref): Ref {
  return new Ref(id, undefined, database);
}

// Implements: PROTO-VERSION-004
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

// Implements: PROTO-VALUE-002, DOC-GET-003
/**
 * The short ref form: `collections/c/1`, `classes/c/1`, `collections/c`, `databases/db`, `keys/123`,
 * `tokens/self`, `collections`, … A document's id is decimal digits that fit in 64 bits, or `self`. Anything else is
 * 400 `invalid expression` `Invalid ref.`, as the real service's parser answers it (fauna/faunadb `RefParser`
 * `LegacyRefParser`, `Parser.parseRef`).
 */
export function parseRefPath(path: string, position: Position): Ref {
  const parts = path.split('/');
  const invalid = () => new QueryError('invalid expression', 'Invalid ref.', position);
  if (parts.some((p) => p === '')) throw invalid();
  const native = SCHEMA_PATH_PREFIXES[parts[0]!];
  if (native === undefined) throw invalid();
  const nativeCollection = nativeRef(native);
  const shortId = (id: string) => {
    if (id === 'self') return id;
    if (!/^[0-9]+$/.test(id) || BigInt(id) > MAX_DOCUMENT_ID) throw invalid();
    return BigInt(id).toString();
  };
  if (parts.length === 1) return nativeCollection;
  if (parts.length === 2) return new Ref(hasNumericIds(nativeCollection) ? shortId(parts[1]!) : parts[1]!, nativeCollection);
  if (parts.length === 3 && native === 'collections') return new Ref(shortId(parts[2]!), new Ref(parts[1]!, nativeCollection));
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
  const state = new RenderState(options.apiVersion);
  writeValue(value, state);
  return state.text();
}

/** `{"resource": value}` */
export function renderResource(value: Value, options: RenderOptions): string {
  const state = new RenderState(options.apiVersion);
  state.parts.push('{"resource":');
  writeValue(value, state);
  state.parts.push('}');
  return state.text();
}

export function renderDecimal(n: number): string {
  // Implements: FN-MATH-022
  if (!Number.isFinite(n)) return JSON.stringify(String(n));
  // String(-0) is "0"; the service (Java Double.toString) keeps the sign of a negative zero.
  const text = Object.is(n, -0) ? '-0' : String(n);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/**
 * One rendering: its settings and the pieces of text written so far. Pieces are collected and joined once
 * rather than concatenated: a page of refs concatenated piece by piece became a rope of hundreds of strings,
 * and flattening it (when the response's length was measured) cost more than rendering it.
 */
class RenderState {
  readonly parts: string[] = [];
  /**
   * Characters of the pieces that can be long (strings, kept texts); the others are short, and bounded by the
   * number of pieces.
   */
  longChars = 0;
  /** Whether texts kept for reuse (a Ref's, a stored document's fields) apply: they are in this wording. */
  readonly keepsText: boolean;

  constructor(readonly version: ApiVersion) {
    this.keepsText = WORDINGS[version].collectionKey === 'collection';
  }

  /** Adds a piece that can be long. */
  pushLong(text: string): void {
    this.longChars += text.length;
    this.parts.push(text);
  }

  /**
   * Refuses a result past MAX_RENDERED_PIECES or MAX_RENDERED_CHARS, checked as each array or object begins: a value
   * that shares its parts (Reduce nesting `[acc, acc]`) is tiny in memory but exponential as text, and rendering it
   * whole took the server past its heap.
   */
  checkSize(): void {
    if (this.parts.length > MAX_RENDERED_PIECES || this.longChars > MAX_RENDERED_CHARS) throw resultTooLarge();
  }

  /** The text written, once its size is known to be within the limits. */
  text(): string {
    this.checkSize();
    return this.parts.join('');
  }
}

/** Most characters a rendered result may hold (128 Mi, LIMIT-RESULT-001). */
export const MAX_RENDERED_CHARS = 128 * 1024 * 1024;
/**
 * Most pieces a rendering may collect: a piece is a pointer at least, so this bounds the memory of short ones. A page
 * of 100000 documents takes about six pieces each; a result of a million arrays of three numbers, seven.
 */
const MAX_RENDERED_PIECES = 8 * 1024 * 1024;

/** What a result too large to answer gets (LIMIT-RESULT-001). */
export function resultTooLarge(): QueryError {
  return new QueryError('invalid argument', 'The result is too large to answer.', []);
}

/**
 * The rendered text of stored documents' fields (`,"data":{…},…`), in the wording refs keep, built when a
 * version is first read back; null for fields that render otherwise inside a document (see below). Bounded (see
 * `GenerationalWeakCache`): reading a whole large database keeps the texts of at most ~64k recently read versions.
 */
const storedFieldsTexts = new GenerationalWeakCache<ObjectValue, string | null>(KEPT_ENTRIES_PER_GENERATION);

function storedFieldsText(fields: ObjectValue): string | undefined {
  let text = storedFieldsTexts.get(fields);
  if (text === undefined) {
    // Fields named `ref` or `ts` would take those keys' places in the document object, so they render as usual.
    if (hasReservedKey(fields) || Object.hasOwn(fields, 'ref') || Object.hasOwn(fields, 'ts')) text = null;
    else {
      const state = new RenderState('4');
      for (const key in fields) {
        state.parts.push(',', JSON.stringify(key), ':');
        writeValue(fields[key]!, state);
      }
      text = state.text();
    }
    storedFieldsTexts.set(fields, text);
  }
  return text ?? undefined;
}

// Implements: PROTO-VALUE-004, PROTO-VALUE-005, PROTO-VALUE-006, PROTO-VALUE-007
function writeValue(value: Value, state: RenderState): void {
  const parts = state.parts;
  if (typeof value === 'string') state.pushLong(JSON.stringify(value));
  else if (typeof value === 'bigint') parts.push(value.toString());
  else if (typeof value === 'number') parts.push(renderDecimal(value));
  else if (value === null || typeof value === 'boolean') parts.push(String(value));
  else if (Array.isArray(value)) {
    if (state.keepsText && value.length > 1) {
      const refs = refArrayText(value);
      if (refs !== undefined) {
        state.pushLong(refs);
        return;
      }
    }
    state.checkSize();
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      writeValue(value[i]!, state);
    }
    parts.push(']');
  } else if (value instanceof Ref) parts.push(refText(value, state));
  else if (value instanceof SetRef) {
    parts.push('{"@set":');
    writeObject(value.structure, state);
    parts.push('}');
  } else if (value instanceof Time) parts.push(`{"@ts":${JSON.stringify(formatIsoTime(value.epochNanos))}}`);
  else if (value instanceof DateValue) parts.push(`{"@date":${JSON.stringify(formatIsoDate(value.epochDays))}}`);
  else if (value instanceof Bytes) state.pushLong(`{"@bytes":${JSON.stringify(Buffer.from(value.bytes).toString('base64'))}}`);
  else if (value instanceof QueryValue) {
    // As the real service renders a lambda (`LambdaL.renderableLiteral`, DEC-136): its version only when it or the
    // request's is past 2.12, and its body as parsed (`let` bindings as one object).
    const version = value.apiVersion ?? LAMBDA_DEFAULT_API_VERSION;
    const apiVersion = laterThanLambdaDefault(version) || laterThanLambdaDefault(state.version) ? `"api_version":${JSON.stringify(version)},` : '';
    state.pushLong(`{"@query":{${apiVersion}"lambda":${JSON.stringify(value.lambda)},"expr":${rawJsonText(parsedForm(value.expr))}}}`);
  } else if (isObjectValue(value)) {
    const stored = state.keepsText ? storedFields(value) : undefined;
    if (stored !== undefined && value['ref'] instanceof Ref && typeof value['ts'] === 'bigint') {
      const fields = storedFieldsText(stored);
      if (fields !== undefined) {
        parts.push('{"ref":', refText(value['ref'], state), ',"ts":', value['ts'].toString());
        state.pushLong(fields);
        parts.push('}');
        return;
      }
    }
    if (hasReservedKey(value)) {
      parts.push('{"@obj":');
      writeObject(value, state);
      parts.push('}');
    } else writeObject(value, state);
  } else throw new Error(`cannot render value of type ${typeof value}`);
}

// Implements: PROTO-VALUE-013
/** Whether an object has a key starting with `@`, which the wire reserves for tags (so it is sent as `@obj`). */
function hasReservedKey(value: ObjectValue): boolean {
  for (const key in value) if (key.charCodeAt(0) === 64 /* '@' */) return true;
  return false;
}

function writeObject(value: ObjectValue, state: RenderState): void {
  state.checkSize();
  const parts = state.parts;
  let separator = '{';
  for (const key in value) {
    parts.push(separator, JSON.stringify(key), ':');
    writeValue(value[key]!, state);
    separator = ',';
  }
  parts.push(separator === '{' ? '{}' : '}');
}

// Implements: PROTO-VERSION-001, PROTO-VERSION-002, PROTO-VERSION-003
function refText(ref: Ref, state: RenderState): string {
  const version = state.version;
  if (version === '2.0' && ref.database === undefined) return `{"@ref":${JSON.stringify(legacyRefPath(ref))}}`;
  // Every version from 2.7 on words refs the same way, so that text is the one a Ref keeps.
  return WORDINGS[version].collectionKey === 'collection' ? ref.wireText(currentRefText) : buildRefText(ref, 'class', state);
}

const currentRefText = (ref: Ref): string => buildRefText(ref, 'collection', undefined);

/**
 * A page of refs as one string of their kept texts, or undefined when an item is not a ref. Built by appending, not
 * joined: the rope is copied once, by the response's final join, where a join here copied the page's text twice.
 */
function refArrayText(items: Value[]): string | undefined {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!(item instanceof Ref)) return undefined;
    text += i === 0 ? item.wireText(currentRefText) : ',' + item.wireText(currentRefText);
  }
  return text + ']';
}

// Implements: PROTO-VERSION-002, PROTO-VERSION-007
function buildRefText(ref: Ref, collectionKey: Wording['collectionKey'], legacy: RenderState | undefined): string {
  // The class wording names the native collection of collections `classes` as well.
  const id = collectionKey === 'class' && ref.collection === undefined && ref.id === 'collections' ? 'classes' : ref.id;
  let out = '{"@ref":{"id":' + JSON.stringify(id);
  if (ref.collection) out += ',"' + collectionKey + '":' + (legacy ? refText(ref.collection, legacy) : ref.collection.wireText(currentRefText));
  if (ref.database) out += ',"database":' + (legacy ? refText(ref.database, legacy) : ref.database.wireText(currentRefText));
  // Flattened once here, so a cached text is never a rope that every response would walk again.
  return flat(out + '}}');
}

/**
 * `text` with its rope flattened in place: reading a character of a rope makes V8 flatten it. (Converting it to a
 * number, pino's `flatstr` trick, no longer does in this V8: a text starting with `{` is seen not to be a number
 * without flattening it, so every join or `Buffer.byteLength` that met a kept text walked its rope again.)
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

function legacyRefPath(ref: Ref): string {
  const path = ref.toPath();
  return path === 'collections' || path.startsWith('collections/') ? `classes${path.slice('collections'.length)}` : path;
}

/** Raw expression JSON (as parsed) back to text, keeping integers and decimals apart. */
/** The version of a lambda that does not say its own (fauna/faunadb `APIVersion.LambdaDefaultVersion`). */
const LAMBDA_DEFAULT_API_VERSION = '2.12';

/** Whether an API version (one the server knows, or a stored lambda's) is later than 2.12. */
function laterThanLambdaDefault(version: string): boolean {
  const known = API_VERSIONS.indexOf(version.toUpperCase() as ApiVersion);
  return known >= 0 ? known > API_VERSIONS.indexOf('2.12') : Number.parseFloat(version) >= 3;
}

/**
 * A lambda's body (its wire tree) as the real service renders the expression it parsed (`LetE.literal`): a `let`
 * given as a list of one-binding objects comes back as one object of its bindings, in order. The tree is walked as an
 * expression: `object` literals and `let` bindings hold expressions under names, which are not forms; tagged values
 * (`@ref`, `@query`, …) are left as they are. A tree with nothing to change is returned itself.
 */
function parsedForm(raw: unknown): unknown {
  if (Array.isArray(raw)) {
    let out: unknown[] | undefined;
    raw.forEach((item, i) => {
      const changed = parsedForm(item);
      if (changed !== item) (out ??= [...raw])[i] = changed;
    });
    return out ?? raw;
  }
  if (raw === null || typeof raw !== 'object') return raw;
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return raw;
  let out: Record<string, unknown> | undefined;
  for (const key of keys) {
    const value = object[key];
    const changed = (key === 'object' && keys.length === 1) || (key === 'let' && 'in' in object) ? parsedBindings(value) : parsedForm(value);
    if (changed !== value) setField((out ??= { ...object }), key, changed);
  }
  return out ?? raw;
}

/** Named expressions (an `object` literal's fields, a `let`'s bindings as an object or a list of one-binding objects). */
function parsedBindings(raw: unknown): unknown {
  if (Array.isArray(raw) && raw.every((binding) => isRawObject(binding) && Object.keys(binding).length === 1)) {
    const names = raw.map((binding) => Object.keys(binding as object)[0]!);
    // The same name bound twice cannot be one object: left as a list.
    if (new Set(names).size === names.length) {
      const merged: Record<string, unknown> = {};
      raw.forEach((binding, i) => setField(merged, names[i]!, parsedForm((binding as Record<string, unknown>)[names[i]!])));
      return merged;
    }
  }
  if (!isRawObject(raw)) return parsedForm(raw);
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(raw)) {
    const changed = parsedForm(value);
    if (changed !== value) setField((out ??= { ...raw }), name, changed);
  }
  return out ?? raw;
}

function rawJsonText(raw: unknown): string {
  if (raw === null || raw === undefined) return 'null';
  if (typeof raw === 'bigint') return raw.toString();
  if (typeof raw === 'number') return renderDecimal(raw);
  if (typeof raw === 'string' || typeof raw === 'boolean') return JSON.stringify(raw);
  if (Array.isArray(raw)) {
    let out = '[';
    for (let i = 0; i < raw.length; i++) out += (i > 0 ? ',' : '') + rawJsonText(raw[i]);
    return out + ']';
  }
  let out = '{';
  let first = true;
  for (const [key, field] of Object.entries(raw as Record<string, unknown>)) {
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + rawJsonText(field);
    first = false;
  }
  return out + '}';
}

// ---------------------------------------------------------------------------------------------------------
// Error bodies

/** The errors' body, worded for `apiVersion` (the 2.7+ wording when none is given). */
export function renderQueryErrors(errors: readonly [QueryError, ...QueryError[]], apiVersion?: ApiVersion): string {
  const [first, ...rest] = errors;
  const worded = apiVersion === undefined || apiAtLeast(apiVersion, '2.7') ? (description: string) => description : classWording;
  const item = (error: QueryError) => errorObject(error, worded);
  const body: V4QueryError = { errors: [item(first), ...rest.map(item)] };
  return JSON.stringify(body);
}

// Implements: PROTO-ERROR-001, PROTO-ERROR-005
function errorObject(error: QueryError, worded: (description: string) => string): V4QueryErrorItem {
  const out: V4QueryErrorItem = { position: error.position, code: error.code, description: worded(error.description) };
  // Failure paths go out as strings, list indexes too, as the real service writes them (DEC-046); `position` keeps numbers.
  if (error.failures) out.failures = error.failures.map((failure) => ({ ...failure, field: failure.field.map(String) }));
  if (error.cause) out.cause = error.cause.map((cause) => errorObject(cause, worded));
  return out;
}

/** 2.7+ descriptions that the real service words with class and instance below 2.7 (`RenderError.encodeErrors`, DEC-019). */
const CLASS_WORDING: Readonly<Record<string, string>> = {
  'Document not found.': 'Instance not found.',
  'Collection not found.': 'Class not found.',
  'Document already exists.': 'Instance already exists.',
  'Collection already exists.': 'Class already exists.',
  'document data is not valid.': 'instance data is not valid.',
  'The document was not found or provided password was incorrect.': 'The instance was not found or provided password was incorrect.',
};
const UNDEFINED_COLLECTION = /^Ref refers to undefined collection '(.*)'$/s;

function classWording(description: string): string {
  const older = CLASS_WORDING[description];
  if (older !== undefined) return older;
  const undefinedCollection = UNDEFINED_COLLECTION.exec(description);
  return undefinedCollection === null ? description : `Ref refers to undefined class '${undefinedCollection[1]}'`;
}

// Implements: PROTO-ERROR-004
/** A protocol error body: no position. */
export function renderProtocolError(code: string, description: string): string {
  const body: V4ProtocolError = { errors: [{ code, description }] };
  return JSON.stringify(body);
}
