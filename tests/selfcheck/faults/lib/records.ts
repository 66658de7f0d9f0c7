// Helpers of the document and database faults: refs and records as the suite writes and reads them.
import type { BufferedResponse, FaultHooks, ProxiedRequest } from '../../fault.js';
import { isJsonObject, parseJson, stringifyJson, type JsonObject } from '../../json-body.js';
import { hasErrorCode, records, rewriteExpression, v4Expression, withJsonBody, withStatus, withoutHeader } from './rewrites.js';

/** A v4 query error body, as the reference server shapes them. */
export function queryError(code: string, description: string, position: unknown[] = []): JsonObject {
  return { errors: [{ position, code, description }] };
}

/** Replaces a whole answer by a v4 query error. */
export function answerError(
  res: BufferedResponse,
  status: number,
  code: string,
  description: string,
  position: unknown[] = [],
): BufferedResponse {
  return withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), queryError(code, description, position)), status);
}

const NATIVE_IDS = new Map([
  ['classes', 'collections'],
  ['collections', 'collections'],
  ['databases', 'databases'],
  ['keys', 'keys'],
  ['indexes', 'indexes'],
  ['tokens', 'tokens'],
  ['roles', 'roles'],
]);

/**
 * A stable name for what a ref (or ref-building expression) points at: `collections/<c>`, `databases/<d>` or
 * `<collection>/<id>` for a document. Undefined for anything else.
 */
export function refKey(value: unknown): string | undefined {
  if (!isJsonObject(value)) return undefined;
  const tagged = value['@ref'];
  if (typeof tagged === 'string') {
    const parts = tagged.split('/');
    const native = NATIVE_IDS.get(parts[0] ?? '');
    if (native === 'collections' && parts.length === 3) return `${parts[1]}/${parts[2]}`;
    return native !== undefined && parts.length === 2 ? `${native}/${parts[1]}` : undefined;
  }
  if (isJsonObject(tagged)) {
    const parent = tagged.collection ?? tagged.class;
    if (typeof tagged.id !== 'string' || !isJsonObject(parent) || !isJsonObject(parent['@ref'])) return undefined;
    const parentRef = parent['@ref'];
    if (typeof parentRef.id !== 'string') return undefined;
    if ('collection' in parentRef || 'class' in parentRef) return `${parentRef.id}/${tagged.id}`;
    const native = NATIVE_IDS.get(parentRef.id);
    return native === undefined ? undefined : `${native}/${tagged.id}`;
  }
  const keys = Object.keys(value);
  if (keys.length === 2 && typeof value.id === 'string' && isJsonObject(value.ref)) {
    const coll = value.ref.collection ?? value.ref.class;
    return typeof coll === 'string' ? `${coll}/${value.id}` : undefined;
  }
  if (keys.length !== 1) return undefined;
  const named = value.collection ?? value.class;
  if (typeof named === 'string') return `collections/${named}`;
  return typeof value.database === 'string' ? `databases/${value.database}` : undefined;
}

export function isDocumentKey(key: string): boolean {
  return !/^(collections|databases|keys|indexes|tokens|roles)\//.test(key);
}

/** Remembers the latest version of every record the answers of a run carried, by `refKey`. */
export class RecordMemory {
  private readonly latest = new Map<string, { text: string; secret: string | undefined }>();

  learn(body: unknown, secret?: string): void {
    for (const record of records(body)) {
      const key = refKey(record.ref);
      if (key !== undefined) this.latest.set(key, { text: stringifyJson(record), secret });
    }
  }

  forget(key: string): void {
    this.latest.delete(key);
  }

  /** A fresh copy of the latest record for `key`. */
  get(key: string): JsonObject | undefined {
    const found = this.latest.get(key);
    return found === undefined ? undefined : (parseJson(found.text) as JsonObject);
  }

  /** The secret of the request whose answer carried the latest version. */
  seenWith(key: string): string | undefined {
    return this.latest.get(key)?.secret;
  }
}

/** The top-level expression as an object, when the request is a v4 query whose expression is one. */
export function topLevel(request: ProxiedRequest): JsonObject | undefined {
  const expression = v4Expression(request);
  return isJsonObject(expression) ? expression : undefined;
}

/** The `{"object": {…}}` members of an expression, or undefined when it is not an object form. */
export function objectMembers(expression: unknown): JsonObject | undefined {
  return isJsonObject(expression) && isJsonObject(expression.object) && Object.keys(expression).length === 1
    ? expression.object
    : undefined;
}

export const isNotFound = (status: number, body: unknown): boolean =>
  (status === 404 && hasErrorCode(body, 'instance not found')) || (status === 400 && hasErrorCode(body, 'invalid ref'));

/** Adds `name: "undefined"` to a `{"<form>": {"object": {…}}}` that has no name (a JS `String(undefined)`). */
export function nameDefaultsToUndefined(form: string): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    const members = isJsonObject(expression) ? objectMembers(expression[form]) : undefined;
    if (members === undefined || 'name' in members) return 0;
    members.name = 'undefined';
    return 1;
  });
}
