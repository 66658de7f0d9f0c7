/**
 * Values → response JSON in the wire encoding of the request's API version (wire-facts §1.2), within the size a
 * response may have.
 */
import { QueryError } from '../errors/query-error.js';
import {
  Bytes,
  DateValue,
  QueryValue,
  Ref,
  SetRef,
  Time,
  isObjectValue,
  storedFields,
  type ObjectValue,
  type Value,
} from '../values/value.js';
import { GenerationalWeakCache, KEPT_ENTRIES_PER_GENERATION } from '../values/generational-weak-cache.js';
import { wording, type ApiVersion, type Wording } from './api-version.js';
import { formatIsoDate, formatIsoTime } from './iso-time.js';
import { renderDecimal } from './v4-numbers.js';
import { storedLambdaText } from './v4-stored-lambda.js';

/** How to render: in the wording of the request's API version. */
export interface RenderOptions {
  apiVersion: ApiVersion;
}

/** A value → JSON text in the wire encoding of the given API version, or `resultTooLarge` past the limits. */
export function renderValue(value: Value, options: RenderOptions): string {
  const state = new RenderState(options.apiVersion);
  writeValue(value, state);
  return state.text();
}

/** `{"resource": value}`, the body of a successful query, rendered in one pass with its value. */
export function renderResource(value: Value, options: RenderOptions): string {
  const state = new RenderState(options.apiVersion);
  state.parts.push('{"resource":');
  writeValue(value, state);
  state.parts.push('}');
  return state.text();
}

/**
 * One rendering: its settings and the pieces of text written so far, collected and joined once rather than
 * concatenated, so the response is never a deep rope that V8 must flatten.
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
    this.keepsText = wording(version).collectionKey === 'collection';
  }

  /** Adds a piece that can be long. */
  pushLong(text: string): void {
    this.longChars += text.length;
    this.parts.push(text);
  }

  /**
   * Refuses a result past MAX_RENDERED_PIECES or MAX_RENDERED_CHARS, checked as each array or object begins: a value
   * that shares its parts (Reduce nesting `[acc, acc]`) is tiny in memory but exponential as text, and would exhaust
   * the heap if rendered whole.
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
const MAX_RENDERED_CHARS = 128 * 1024 * 1024;
/**
 * Most pieces a rendering may collect: a piece is a pointer at least, so this bounds the memory of short ones. A page
 * of 100000 documents takes about six pieces each; a result of a million arrays of three numbers, seven.
 */
const MAX_RENDERED_PIECES = 8 * 1024 * 1024;

/** What a result too large to answer gets (LIMIT-RESULT-001), from rendering or from the endpoint's own checks. */
export function resultTooLarge(): QueryError {
  return new QueryError('invalid argument', 'The result is too large to answer.', []);
}

/**
 * The rendered text of stored documents' fields (`,"data":{…},…`), in the wording refs keep, built when a
 * version is first read back; null for fields that render otherwise inside a document (see below). Bounded (see
 * `GenerationalWeakCache`): reading a whole large database keeps the texts of at most ~64k recently read versions.
 */
const storedFieldsTexts = new GenerationalWeakCache<ObjectValue, string | null>(KEPT_ENTRIES_PER_GENERATION);

/** `fields`' kept text, so a document read again is not rendered again; undefined when it renders as usual. */
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
  else if (value instanceof QueryValue) state.pushLong(storedLambdaText(value, state.version));
  else if (isObjectValue(value)) {
    const stored = state.keepsText ? storedFields(value) : undefined;
    if (stored !== undefined && value.ref instanceof Ref && typeof value.ts === 'bigint') {
      const fields = storedFieldsText(stored);
      if (fields !== undefined) {
        parts.push('{"ref":', refText(value.ref, state), ',"ts":', value.ts.toString());
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
  return wording(version).collectionKey === 'collection' ? ref.wireText(currentRefText) : buildRefText(ref, 'class', state);
}

const currentRefText = (ref: Ref): string => buildRefText(ref, 'collection', undefined);

/**
 * A page of refs as one string of their kept texts, or undefined when an item is not a ref. Built by appending, not
 * joined, so the page's text is copied only by the response's final join.
 */
function refArrayText(items: Value[]): string | undefined {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!(item instanceof Ref)) return undefined;
    text += i === 0 ? item.wireText(currentRefText) : `,${item.wireText(currentRefText)}`;
  }
  return `${text}]`;
}

// Implements: PROTO-VERSION-002, PROTO-VERSION-007
function buildRefText(ref: Ref, collectionKey: Wording['collectionKey'], legacy: RenderState | undefined): string {
  // The class wording names the native collection of collections `classes` as well.
  const id = collectionKey === 'class' && ref.collection === undefined && ref.id === 'collections' ? 'classes' : ref.id;
  let out = `{"@ref":{"id":${JSON.stringify(id)}`;
  if (ref.collection) out += `,"${collectionKey}":${legacy ? refText(ref.collection, legacy) : ref.collection.wireText(currentRefText)}`;
  if (ref.database) out += `,"database":${legacy ? refText(ref.database, legacy) : ref.database.wireText(currentRefText)}`;
  // Flattened once here, so a cached text is never a rope that every response would walk again.
  return flat(`${out}}}`);
}

/** `text` with its rope flattened in place (reading a character of a rope makes V8 flatten it). */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** A ref's path in API 2.0's short form, which names `collections` by its old name `classes`. */
function legacyRefPath(ref: Ref): string {
  const path = ref.toPath();
  return path === 'collections' || path.startsWith('collections/') ? `classes${path.slice('collections'.length)}` : path;
}
