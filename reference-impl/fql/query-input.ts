/**
 * The two wire forms of an FQL query (wire-facts §3): plain text, or the drivers' fragment form
 * `{"fql": ["text", {"value": <tagged>}, {"fql": [...]}, {"object": {k: piece}}, {"array": [piece…]}]}`.
 * Both are turned into segments for the tokenizer.
 */
import { decodeTagged, TaggedDecodeError, toValue } from '../codec/tagged.js';
import type { Value } from '../values/value.js';
import { FqlError } from './fql-error.js';

export type QueryInput = string | { readonly fql: readonly unknown[] };

/** Query text, an interpolated value, or an object/array whose members are themselves fragment pieces. */
export type QuerySegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, readonly QuerySegment[]])[] }
  | { readonly kind: 'array'; readonly items: readonly (readonly QuerySegment[])[] };

function badRequest(message: string): FqlError {
  return new FqlError('invalid_request', `Invalid request body: ${message}`);
}

function isRecord(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

/** Splits a query into segments; throws `invalid_request` for a malformed fragment or value. */
export function querySegments(input: QueryInput): QuerySegment[] {
  if (typeof input === 'string') return [{ kind: 'text', text: input }];
  if (!isRecord(input) || !Array.isArray(input.fql)) {
    throw badRequest('`query` must be a string or an object {"fql": [...]}.');
  }
  const out: QuerySegment[] = [];
  input.fql.forEach((piece, i) => {
    appendPiece(out, piece, `query.fql[${i}]`, true);
  });
  return out;
}

// Implements: ESRC-QUERY-003
function appendPiece(out: QuerySegment[], piece: unknown, path: string, textAllowed: boolean): void {
  if (typeof piece === 'string' && textAllowed) {
    out.push({ kind: 'text', text: piece });
    return;
  }
  if (!isRecord(piece) || Object.keys(piece).length !== 1) {
    throw badRequest(`${path} must be a string, {"value": …}, {"fql": [...]}, {"object": {...}} or {"array": [...]}.`);
  }
  if ('fql' in piece) {
    if (!Array.isArray(piece.fql)) throw badRequest(`${path}.fql must be an array.`);
    piece.fql.forEach((inner, i) => {
      appendPiece(out, inner, `${path}.fql[${i}]`, true);
    });
    return;
  }
  if ('value' in piece) {
    try {
      out.push({ kind: 'value', value: toValue(decodeTagged(piece.value)) });
    } catch (error) {
      if (error instanceof TaggedDecodeError) throw badRequest(`${path}.value${error.message.slice(1)}`);
      throw error;
    }
    return;
  }
  if ('object' in piece) {
    const members = piece.object;
    if (!isRecord(members)) throw badRequest(`${path}.object must be an object.`);
    out.push({
      kind: 'object',
      entries: Object.entries(members).map(([key, member]) => [key, memberSegments(member, `${path}.object.${key}`)]),
    });
    return;
  }
  if ('array' in piece) {
    const items = piece.array;
    if (!Array.isArray(items)) throw badRequest(`${path}.array must be an array.`);
    out.push({ kind: 'array', items: items.map((item, i) => memberSegments(item, `${path}.array[${i}]`)) });
    return;
  }
  throw badRequest(`${path} has an unknown key "${Object.keys(piece)[0]}".`);
}

function memberSegments(member: unknown, path: string): QuerySegment[] {
  const out: QuerySegment[] = [];
  appendPiece(out, member, path, false);
  return out;
}
