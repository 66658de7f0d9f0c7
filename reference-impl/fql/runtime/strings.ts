/**
 * Values as text, as the real service writes them (fauna/faunadb `runtime/fql2/ToString.scala`): `toDisplayString`
 * for string concatenation, interpolation and `toString()` (strings as they are, `2.0` as `2`), and the debug form
 * for values inside arrays and objects (`[1, "a"]`, `{ a: 1 }`, documents as their fields).
 */
import { formatDate, formatTime } from '../../codec/tagged.js';
import { javaDoubleToString } from '../../eval/java-text.js';
import { Bytes, DateValue, Time } from '../../values/value.js';
import { escapeString, isIdentifier } from './render.js';
import { FqlSet } from './sets.js';
import {
  DocRef,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  isNullish,
  Lambda,
  moduleNameOf,
  NativeFunction,
  type FqlValue,
} from './values.js';

/** What reads documents for the text of a value. */
export interface DocumentFields {
  readonly documents: { version(doc: DocRef): Promise<unknown>; fieldsOf(doc: DocRef, version: never): Record<string, FqlValue> };
}

export async function displayString(rt: DocumentFields, value: FqlValue): Promise<string> {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) && Number.isFinite(value) ? value.toFixed(0) : javaDoubleToString(value);
  if (value instanceof Time) return formatTime(value);
  if (value instanceof DateValue) return formatDate(value);
  if (value instanceof Bytes) return Buffer.from(value.bytes).toString('base64');
  return debugString(rt, value, false);
}

async function debugString(rt: DocumentFields, value: FqlValue, nested: boolean): Promise<string> {
  if (isNullish(value)) return 'null';
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return javaDoubleToString(value);
  if (value instanceof Time) return `Time("${formatTime(value)}")`;
  if (value instanceof DateValue) return `Date("${formatDate(value)}")`;
  if (value instanceof Bytes) return `Bytes("${Buffer.from(value.bytes).toString('base64')}")`;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) parts.push(await debugString(rt, item, nested));
    return `[${parts.join(', ')}]`;
  }
  if (value instanceof FqlSet) return '[set]';
  if (value instanceof EventSourceValue) return '[event source]';
  if (value instanceof Lambda) return '[function <lambda>]';
  if (value instanceof NativeFunction) return `[function ${value.name}()]`;
  if (value instanceof FqlModule) return value.name;
  if (value instanceof DocRef) {
    if (nested) return `[doc ${value.id} in ${moduleNameOf(value.collection)}]`;
    const version = await rt.documents.version(value);
    if (version === undefined) return 'null';
    return debugString(rt, rt.documents.fieldsOf(value, version as never), true);
  }
  if (isFqlObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const parts: string[] = [];
    for (const [key, field] of entries)
      parts.push(`${isIdentifier(key) ? key : escapeString(key)}: ${await debugString(rt, field, nested)}`);
    return `{ ${parts.join(', ')} }`;
  }
  return String(value);
}
