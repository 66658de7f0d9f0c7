/**
 * A query's result on the wire. Values are first materialized — documents read (a missing one kept as a reference
 * with its cause), sets paged (the first 16 elements and an `after` cursor), event sources and functions named —
 * then encoded in the request's format (fauna/faunadb `runtime/fql2/serialization/MaterializedValue.scala`):
 * `tagged` (`@int`, `@doc`, `@ref`, `@set`, `@mod`, `@stream`, …), `simple` (plain JSON; a missing document is
 * null) or `decorated` (FQL text, a string).
 */
import { encodeSimple, encodeTagged, formatDate, formatTime, type Json, type SimpleJson } from '../../codec/tagged.js';
import { javaDoubleToString } from '../../eval/java-text.js';
import { Bytes, DateValue, setField, Time } from '../../values/value.js';
import { runtimeError, type FqlError } from '../fql-error.js';
import type { SourceSpan } from '../source-position.js';
import type { Interpreter } from './interpreter.js';
import { decodeSet, encodeSet } from './serialize.js';
import { FqlSet } from './sets.js';
import { DEFAULT_PAGE_SIZE, globalValue } from './stdlib.js';
import {
  DocRef,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  Lambda,
  moduleNameOf,
  NativeFunction,
  NullWithCause,
  type FqlValue,
  type PlainData,
} from './values.js';

/** A document read for the answer: its fields, `id` (or `name`), `coll` and `ts` first. */
export class MDoc {
  constructor(readonly fields: MObject) {}
}

/** A document not expanded (nested in another) or missing (`cause`: `not found`, `deleted`, …). */
export class MRef {
  constructor(
    readonly coll: string,
    readonly named: boolean,
    readonly id: string,
    readonly cause?: string,
  ) {}
}

export class MModule {
  constructor(readonly name: string) {}
}

export class MPage {
  constructor(
    readonly data: M[],
    readonly after?: string,
  ) {}
}

export class MStream {
  constructor(readonly token: string) {}
}

export class MFunction {
  constructor(readonly text: string) {}
}

export interface MObject {
  [field: string]: M;
}

export type M = PlainData | M[] | MObject | MDoc | MRef | MModule | MPage | MStream | MFunction;

export async function materialize(rt: Interpreter, value: FqlValue, insideDocument = false): Promise<M> {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number')
    return value;
  if (value instanceof Time || value instanceof DateValue || value instanceof Bytes) return value;
  if (value instanceof NullWithCause) {
    if (value.cause.kind !== 'missing-document') return null;
    const doc = value.cause.doc;
    return new MRef(moduleNameOf(doc.collection), doc.named, doc.id, 'not found');
  }
  if (value instanceof DocRef) {
    const coll = moduleNameOf(value.collection);
    if (insideDocument) return new MRef(coll, value.named, value.id);
    const version = await rt.documents.version(value);
    if (version === undefined) return new MRef(coll, value.named, value.id, 'not found');
    const fields = rt.documents.fieldsOf(value, version);
    const out: MObject = {};
    for (const [key, field] of Object.entries(fields)) out[key] = await materialize(rt, field, true);
    return new MDoc(out);
  }
  if (value instanceof FqlModule) return new MModule(value.name);
  if (value instanceof FqlSet) {
    // One past the page says whether another follows.
    const all = await rt.elements(value.prefix(DEFAULT_PAGE_SIZE + 1));
    const data: M[] = [];
    for (const item of all.slice(0, DEFAULT_PAGE_SIZE)) data.push(await materialize(rt, item, insideDocument));
    return new MPage(data, all.length > DEFAULT_PAGE_SIZE ? pageCursor(value, DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE) : undefined);
  }
  if (value instanceof EventSourceValue) return new MStream(value.token);
  if (value instanceof Lambda) return new MFunction('[function <lambda>]');
  if (value instanceof NativeFunction) return new MFunction(`[function ${value.name}()]`);
  if (Array.isArray(value)) {
    const out: M[] = [];
    for (const item of value) out.push(await materialize(rt, item, insideDocument));
    return out;
  }
  if (isFqlObject(value)) {
    const out: MObject = {};
    for (const [key, field] of Object.entries(value)) setField(out, key, await materialize(rt, field, insideDocument));
    return out;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------- cursors

/** A page's `after`: the set and where the next page starts, as text. */
export function pageCursor(set: FqlSet, offset: number, size: number): string {
  return Buffer.from(JSON.stringify({ s: encodeSet(set), o: offset, n: size }), 'utf8').toString('base64');
}

export function readCursor(rt: Interpreter, text: string, span: SourceSpan): { set: FqlSet; offset: number; size: number } {
  const invalid = (): FqlError => runtimeError('invalid_cursor', span, 'Cursor cursor is invalid or expired.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, o, n } = parsed as Record<string, unknown>;
  if (typeof o !== 'number' || typeof n !== 'number' || !Number.isInteger(o) || !Number.isInteger(n) || o < 0 || n < 1) throw invalid();
  try {
    return { set: decodeSet(s, (name) => globalValue(rt, name)), offset: o, size: n };
  } catch {
    throw invalid();
  }
}

// ---------------------------------------------------------------------------------------------- encodings

function refFields(ref: MRef): Record<string, Json> {
  return ref.named ? { name: ref.id, coll: { '@mod': ref.coll } } : { id: ref.id, coll: { '@mod': ref.coll } };
}

/** Plain data, which the codec encodes as it encodes any value. */
function isPlainData(value: M): value is PlainData {
  return value === null || typeof value !== 'object' || value instanceof Time || value instanceof DateValue || value instanceof Bytes;
}

export function encodeTaggedM(value: M): Json {
  if (isPlainData(value)) return encodeTagged(value);
  if (Array.isArray(value)) return value.map(encodeTaggedM);
  if (value instanceof MDoc) return { '@doc': encodeFieldsTagged(value.fields) };
  if (value instanceof MRef) {
    const ref = refFields(value);
    if (value.cause !== undefined) Object.assign(ref, { exists: false, cause: value.cause });
    return { '@ref': ref };
  }
  if (value instanceof MModule) return { '@mod': value.name };
  if (value instanceof MPage) {
    const page: Record<string, Json> = { data: value.data.map(encodeTaggedM) };
    if (value.after !== undefined) page.after = value.after;
    return { '@set': page };
  }
  if (value instanceof MStream) return { '@stream': value.token };
  if (value instanceof MFunction) return value.text;
  const fields = encodeFieldsTagged(value);
  return Object.keys(value).some((key) => key.startsWith('@')) ? { '@object': fields } : fields;
}

function encodeFieldsTagged(fields: MObject): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, field] of Object.entries(fields)) setField(out, key, encodeTaggedM(field));
  return out;
}

export function encodeSimpleM(value: M): SimpleJson {
  if (isPlainData(value)) return encodeSimple(value);
  if (Array.isArray(value)) return value.map(encodeSimpleM);
  if (value instanceof MDoc) return encodeFieldsSimple(value.fields);
  if (value instanceof MRef)
    return value.cause !== undefined ? null : value.named ? { name: value.id, coll: value.coll } : { id: value.id, coll: value.coll };
  if (value instanceof MModule) return value.name;
  if (value instanceof MPage) {
    const page: Record<string, SimpleJson> = { data: value.data.map(encodeSimpleM) };
    if (value.after !== undefined) page.after = value.after;
    return page;
  }
  if (value instanceof MStream) return value.token;
  if (value instanceof MFunction) return value.text;
  return encodeFieldsSimple(value);
}

function encodeFieldsSimple(fields: MObject): Record<string, SimpleJson> {
  const out: Record<string, SimpleJson> = {};
  for (const [key, field] of Object.entries(fields)) setField(out, key, encodeSimpleM(field));
  return out;
}

// ---------------------------------------------------------------------------------------------- decorated

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\0': '\\0',
  "'": "\\'",
  '"': '\\"',
  '`': '\\`',
  '\n': '\\n',
  '\r': '\\r',
  '\v': '\\v',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '#': '\\#',
};

/** A string as an FQL double-quoted literal. */
export function escapeString(text: string): string {
  let out = '"';
  for (const ch of text) out += ESCAPES[ch] ?? ch;
  return `${out}"`;
}

export function isIdentifier(key: string): boolean {
  return /^\p{L}[\p{L}\p{N}_]*$/u.test(key);
}

/** The value as FQL text, indented by two spaces a level (the `decorated` format). */
export function decorate(value: M): string {
  const lines: string[] = [];
  let line = '';
  let indent = 0;
  const write = (text: string) => {
    if (line === '') line = '  '.repeat(indent);
    line += text;
  };
  const newline = () => {
    lines.push(line);
    line = '';
  };
  const stringLiteral = (text: string) => {
    if (!text.includes('\n')) return write(escapeString(text));
    const sigil = !text.includes('END') ? 'END' : [...Array(10).keys()].map((i) => `END${i}`).find((s) => !text.includes(s));
    if (sigil === undefined) return write(escapeString(text));
    write(`<<-${sigil}`);
    newline();
    indent++;
    for (const part of text.split('\n')) {
      write(part);
      newline();
    }
    indent--;
    write(sigil);
  };
  const refText = (ref: MRef) => (ref.named ? `${ref.coll}.byName(${escapeString(ref.id)})` : `${ref.coll}("${ref.id}")`);
  /** Items between `open` and `close`, one a line, indented, with commas between them; empty on one line. */
  const encodeBlock = <T>(open: string, close: string, items: readonly T[], encodeItem: (item: T) => void) => {
    if (items.length === 0) {
      write(open + close);
      return;
    }
    write(open);
    newline();
    indent++;
    items.forEach((item, i) => {
      encodeItem(item);
      if (i < items.length - 1) write(',');
      newline();
    });
    indent--;
    write(close);
  };
  const encodeField = ([key, field]: [string, M]) => {
    if (isIdentifier(key)) write(key);
    else stringLiteral(key);
    write(': ');
    encode(field);
  };
  const encode = (v: M): void => {
    if (v === null) write('null');
    else if (typeof v === 'boolean' || typeof v === 'bigint') write(String(v));
    else if (typeof v === 'number')
      write(Number.isNaN(v) ? 'Math.NaN' : v === Infinity ? 'Math.Infinity' : v === -Infinity ? '-Math.Infinity' : javaDoubleToString(v));
    else if (typeof v === 'string') stringLiteral(v);
    else if (v instanceof Time) write(`Time(${escapeString(formatTime(v))})`);
    else if (v instanceof DateValue) write(`Date(${escapeString(formatDate(v))})`);
    else if (v instanceof Bytes) write(`Bytes(${escapeString(Buffer.from(v.bytes).toString('base64'))})`);
    else if (v instanceof MDoc) encode(v.fields);
    else if (v instanceof MRef) write(v.cause === undefined ? refText(v) : `${refText(v)} /* ${v.cause} */`);
    else if (v instanceof MModule) write(v.name);
    else if (v instanceof MStream) stringLiteral(v.token);
    else if (v instanceof MFunction) stringLiteral(v.text);
    else if (v instanceof MPage) encode(v.after === undefined ? { data: v.data } : { data: v.data, after: v.after });
    else if (Array.isArray(v)) encodeBlock('[', ']', v, encode);
    else encodeBlock('{', '}', Object.entries(v), encodeField);
  };
  encode(value);
  lines.push(line);
  return lines.join('\n');
}
