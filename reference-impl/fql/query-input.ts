/**
 * The two wire forms of an FQL query (wire-facts §3): plain text, or the drivers' fragment form
 * `{"fql": ["text", {"value": <tagged>}, {"fql": [...]}, {"object": {k: piece}}, {"array": [piece…]}]}`.
 * Both are turned into segments for the tokenizer, and into one canonical text that identifies the query.
 */
import { decodeTagged, TaggedDecodeError, toValue } from '../codec/tagged.js';
import { setField, type Value } from '../values/value.js';
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

/**
 * One text per query meaning-preserving rewrite: the fragment form with nested `fql` flattened, adjacent
 * text merged, object keys sorted, and the arguments (if any) alongside. A plain-string query and the
 * one-piece fragment with the same text have the same canonical text. `parseCanonicalQueryText` reverses it.
 */
export function canonicalQueryText(input: QueryInput, args?: Readonly<Record<string, unknown>>): string {
  querySegments(input);
  const canonical: Record<string, unknown> = { fql: flattenPieces(typeof input === 'string' ? [input] : input.fql) };
  if (args !== undefined && Object.keys(args).length > 0) canonical.arguments = args;
  return stableStringify(canonical);
}

/** The query and arguments of a canonical text; throws `invalid_request` when it is not one. */
export function parseCanonicalQueryText(text: string): { query: QueryInput; arguments?: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('not a canonical query text.');
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.fql)) throw badRequest('not a canonical query text.');
  const query = { fql: parsed.fql as unknown[] };
  querySegments(query);
  const args = parsed.arguments;
  if (args === undefined) return { query };
  if (!isRecord(args)) throw badRequest('not a canonical query text.');
  return { query, arguments: args };
}

function flattenPieces(pieces: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const piece of pieces) {
    if (isRecord(piece) && Array.isArray(piece.fql)) {
      for (const inner of flattenPieces(piece.fql)) pushMerged(out, inner);
    } else if (isRecord(piece) && isRecord(piece.object)) {
      const members: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(piece.object)) setField(members, key, flattenMember(member));
      out.push({ object: members });
    } else if (isRecord(piece) && Array.isArray(piece.array)) {
      out.push({ array: piece.array.map(flattenMember) });
    } else {
      pushMerged(out, piece);
    }
  }
  return out;
}

function flattenMember(member: unknown): unknown {
  if (isRecord(member) && Array.isArray(member.fql)) return { fql: flattenPieces(member.fql) };
  const [only] = flattenPieces([member]);
  return only;
}

function pushMerged(out: unknown[], piece: unknown): void {
  const last = out[out.length - 1];
  if (typeof piece === 'string' && typeof last === 'string') out[out.length - 1] = last + piece;
  else if (piece !== '') out.push(piece);
}

/** JSON with object keys sorted at every level, so equal structures give equal text. */
export function stableStringify(json: unknown): string {
  if (Array.isArray(json)) return `[${json.map(stableStringify).join(',')}]`;
  if (isRecord(json)) {
    const keys = Object.keys(json).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(json[k])}`).join(',')}}`;
  }
  return JSON.stringify(json) ?? 'null';
}
