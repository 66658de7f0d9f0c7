// Faults against the core requirements (PROTO, DOC, DB, COLL, KEY, TXN, LIMIT): protocol, errors, versions, values,
// databases, keys, collections, documents, transactions and limits. Each is one deliberate deviation a correct suite
// must notice; `area` names where the catching tests live (event endpoints and event limits: `events`, tokens: `auth`,
// Paginate's size limit: `paging`).
import { isLosslessNumber } from 'lossless-json';
import type { BufferedResponse, Fault, FaultHooks, ProxiedRequest } from '../fault.js';
import { KeyLedger, TokenLedger, requestSecret, withSecret } from './lib/key-ledger.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, parseJson, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import {
  acceptedModification,
  apiVersion,
  bodyJson,
  deleteKeys,
  expressionUses,
  hasErrorCode,
  isRefObject,
  isV4Query,
  nativeCollectionOf,
  pathname,
  records,
  refPayloads,
  renameKeys,
  rewriteExpression,
  recodeFailures,
  replaceObject,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withHeader,
  withJsonBody,
  withStatus,
  withoutHeader,
} from './lib/rewrites.js';

const SUPPORTED_API_VERSIONS = new Set(['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE']);
const TWO_POW_53 = 2n ** 53n;

/** The headers DEC-063 has servers check: v4 ones, then those of `/query/1` and `/feed/1`. */
const REQUEST_PARAMETER_HEADERS = [
  'x-last-seen-txn',
  'x-query-timeout',
  'x-max-retries-on-contention',
  'x-last-txn-ts',
  'x-query-timeout-ms',
  'x-max-contention-retries',
  'x-linearized',
  'x-typecheck',
  'x-performance-hints',
] as const;

const TAGS_HEADERS = ['x-fauna-tags', 'x-query-tags'];

/** The request without the headers `drop` picks, or undefined when it has none of them. */
function withoutHeaders(req: ProxiedRequest, drop: (name: string, value: string) => boolean): ProxiedRequest | undefined {
  const dropped = Object.keys(req.headers).filter((name) => drop(name, req.headers[name]!));
  if (dropped.length === 0) return undefined;
  const headers = { ...req.headers };
  for (const name of dropped) delete headers[name];
  return { ...req, headers };
}

/** Calls `visit` for every element of an array or value of an object (not deeper: `visit` recurses if it wants). */
function forEachContained(value: unknown, visit: (container: unknown[] | JsonObject, key: number | string, item: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((item, index) => visit(value, index, item));
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) visit(value, key, item);
}

function isV4Error(status: number, body: unknown): boolean {
  return status >= 400 && v4Errors(body).length > 0;
}

function isShortRefIn(value: unknown): boolean {
  let found = false;
  forEachObject(value, (object) => {
    if (typeof object['@ref'] === 'string') found = true;
  });
  return found;
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A v4 query error body, as the reference server shapes them. */
function queryError(code: string, description: string, position: unknown[] = []): JsonObject {
  return { errors: [{ position, code, description }] };
}

/** Replaces a whole answer by a v4 query error. */
function answerError(res: BufferedResponse, status: number, code: string, description: string, position: unknown[] = []): BufferedResponse {
  return withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), queryError(code, description, position)), status);
}

const NATIVE_IDS = new Map([['classes', 'collections'], ['collections', 'collections'], ['databases', 'databases'], ['keys', 'keys'], ['indexes', 'indexes'], ['tokens', 'tokens'], ['roles', 'roles']]);

/**
 * A stable name for what a ref (or ref-building expression) points at: `collections/<c>`, `databases/<d>` or
 * `<collection>/<id>` for a document. Undefined for anything else.
 */
function refKey(value: unknown): string | undefined {
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

function isDocumentKey(key: string): boolean {
  return !/^(collections|databases|keys|indexes|tokens|roles)\//.test(key);
}

/** Remembers the latest version of every record the answers of a run carried, by `refKey`. */
class RecordMemory {
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

const WRITE_FORMS = ['create', 'update', 'replace', 'delete', 'insert', 'remove', 'create_collection', 'create_class', 'create_database', 'create_key', 'create_index', 'create_role', 'create_function', 'login', 'logout'];

function writes(request: ProxiedRequest): boolean {
  return WRITE_FORMS.some((form) => expressionUses(request, form));
}

/** The top-level expression as an object, when the request is a v4 query whose expression is one. */
function topLevel(request: ProxiedRequest): JsonObject | undefined {
  const expression = v4Expression(request);
  return isJsonObject(expression) ? expression : undefined;
}

/** The `{"object": {…}}` members of an expression, or undefined when it is not an object form. */
function objectMembers(expression: unknown): JsonObject | undefined {
  return isJsonObject(expression) && isJsonObject(expression.object) && Object.keys(expression).length === 1 ? expression.object : undefined;
}

/** The members of `data` in the `params` of a create/update/replace form: `{"object":{"data":{"object":{…}}}}`. */
function dataMembers(form: JsonObject): JsonObject | undefined {
  return objectMembers(objectMembers(form.params)?.data);
}

/** A plain JSON value as a v4 expression (objects wrapped in `object`, tagged values as they are). */
function asExpression(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asExpression);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return value;
  return { object: Object.fromEntries(keys.map((key) => [key, asExpression(value[key])])) };
}

/** Depth of brackets and braces in a JSON text (strings skipped), without parsing it. */
function nestingDepth(bytes: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c) i += 1;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) deepest = Math.max(deepest, (depth += 1));
    else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return deepest;
}

/** `2024-01-02T03:04:05.123456Z` → microseconds since the epoch. */
/** The object of a top-level Update or Replace of a collection that gives it a new name, else undefined. */
function collectionRenameObject(expression: unknown): JsonObject | undefined {
  if (!isJsonObject(expression)) return undefined;
  const target = schemaRefOf(expression.update ?? expression.replace);
  const params = expression.params;
  const object = isJsonObject(params) && isJsonObject(params.object) ? params.object : undefined;
  return target?.kind === 'collection' && object !== undefined && typeof object.name === 'string' && object.name !== target.name ? object : undefined;
}

/** Whether `id` is the text of a signed 64-bit integer (or `self`), as document ids must be. */
function isLongId(id: string): boolean {
  return id === 'self' || (/^[+-]?\d+$/.test(id) && BigInt(id) <= 2n ** 63n - 1n && BigInt(id) >= -(2n ** 63n));
}

/** A numeric id standing in for a non-numeric one: the same text always gives the same id. */
function numericStandIn(id: string): string {
  let hash = 7n;
  for (const char of id) hash = (hash * 31n + BigInt(char.codePointAt(0)!)) % 10n ** 15n;
  return `4${hash.toString().padStart(15, '0')}`;
}

function isoMicros(iso: string): bigint | undefined {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!match) return undefined;
  return BigInt(Date.parse(`${match[1]}Z`)) * 1000n + BigInt((match[2] ?? '').padEnd(9, '0').slice(0, 6));
}

function microsIso(micros: bigint): string {
  const millis = micros / 1000n;
  return new Date(Number(millis)).toISOString().replace(/\.\d{3}Z$/, `.${(micros % 1_000_000n).toString().padStart(6, '0')}Z`);
}

/** Counts the requests in flight per key; `enter` answers how many were in flight before this one. */
class InFlight {
  private readonly counts = new Map<string, number>();

  enter(key: string): number {
    const before = this.counts.get(key) ?? 0;
    this.counts.set(key, before + 1);
    return before;
  }

  leave(key: string): void {
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 1) - 1));
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

const isNotFound = (status: number, body: unknown): boolean =>
  (status === 404 && hasErrorCode(body, 'instance not found')) || (status === 400 && hasErrorCode(body, 'invalid ref'));

/**
 * A name lookup that falls through to records another credential saw: Get of a missing `kind` answers the record
 * another key's answers carried, Exists answers true. Emulates a server that resolves names outside the key's database.
 */
function crossDatabaseLookup(kind: (key: string) => boolean): FaultHooks {
  const memory = new RecordMemory();
  return {
    response: (res, ctx) => {
      const body = bodyJson(res);
      const secret = requestSecret(ctx.original);
      const form = topLevel(ctx.original);
      const key = refKey(form?.get ?? form?.exists);
      if (form !== undefined && 'delete' in form && res.status === 200) {
        const deleted = refKey(form.delete);
        if (deleted !== undefined) memory.forget(deleted);
      }
      memory.learn(body, secret);
      if (form === undefined || key === undefined || !kind(key)) return undefined;
      const seenWith = memory.seenWith(key);
      if (seenWith === undefined || seenWith === secret) return undefined;
      if ('get' in form && Object.keys(form).length === 1 && isNotFound(res.status, body)) return withStatus(withJsonBody(res, { resource: memory.get(key) }), 200);
      if ('exists' in form && Object.keys(form).length === 1 && res.status === 200 && isJsonObject(body) && body.resource === false) return withJsonBody(res, { resource: true });
      return undefined;
    },
  };
}

/** A top-level Update or Replace sent as "create it when missing". */
function upsert(form: 'update' | 'replace'): FaultHooks['request'] {
  return (req) => {
    const expression = topLevel(req);
    if (expression === undefined || !(form in expression) || !('params' in expression)) return undefined;
    const upserting = { if: { exists: expression[form] }, then: expression, else: { create: expression[form], params: expression.params } };
    return { ...req, body: Buffer.from(stringifyJson(upserting)) };
  };
}

/** Adds `name: "undefined"` to a `{"<form>": {"object": {…}}}` that has no name (a JS `String(undefined)`). */
function nameDefaultsToUndefined(form: string): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    const members = isJsonObject(expression) ? objectMembers(expression[form]) : undefined;
    if (members === undefined || 'name' in members) return 0;
    members.name = 'undefined';
    return 1;
  });
}

const EVENT_ENDPOINTS = new Set(['/query/1', '/feed/1', '/stream/1']);

function isEventEndpoint(request: ProxiedRequest): boolean {
  return EVENT_ENDPOINTS.has(pathname(request));
}

/** Whether a value is a key's ref in wire form (`{"@ref": {id, collection: {"@ref": {id: "keys"}}}}`). */
function isKeyRef(value: unknown): boolean {
  const payload = isJsonObject(value) && isJsonObject(value['@ref']) ? value['@ref'] : undefined;
  const parent = payload && isJsonObject(payload.collection) && isJsonObject(payload.collection['@ref']) ? payload.collection['@ref'] : undefined;
  return parent?.id === 'keys';
}

/** Whether a v4 expression holds a document ref expression (`{"ref": …, "id": …}`) anywhere. */
function holdsDocumentRef(expression: unknown): boolean {
  let found = false;
  forEachObject(expression, (object) => {
    if ('ref' in object && 'id' in object) found = true;
  });
  return found;
}

/**
 * A server whose generated ids can be ids already in use: once the suite has created documents with chosen ids in a
 * collection, its next Create with a collection ref of that collection overwrites one of them (a delete, then a
 * create with that id, in one transaction: the answer is the 201 of a new document).
 */
function generatedIdsOverwriteChosen(): FaultHooks {
  const chosenIds = new Map<string, string[]>();
  return {
    request: rewriteExpression((expression) => {
      forEachObject(expression, (form) => {
        const target = isJsonObject(form.create) ? form.create : undefined;
        if (!target || !isJsonObject(target.ref) || typeof target.ref.collection !== 'string' || typeof target.id !== 'string') return;
        const ids = chosenIds.get(target.ref.collection) ?? [];
        ids.push(target.id);
        chosenIds.set(target.ref.collection, ids);
      });
      if (!isJsonObject(expression) || !isJsonObject(expression.create)) return 0;
      const target = expression.create;
      const id = typeof target.collection === 'string' ? chosenIds.get(target.collection)?.shift() : undefined;
      if (id === undefined) return 0;
      const ref = { ref: { collection: target.collection }, id };
      replaceObject(expression, { do: [{ delete: ref }, { create: ref, params: expression.params ?? null }] });
      return 1;
    }),
  };
}

/** The native collection a top-level `{"paginate": {"<native>": null}}` lists, if the request is one. */
function listedNative(request: ProxiedRequest): string | undefined {
  const expression = v4Expression(request);
  const set = topLevelForm(request) === 'paginate' && isJsonObject(expression) ? expression.paginate : undefined;
  if (!isJsonObject(set)) return undefined;
  const keys = Object.keys(set);
  return keys.length === 1 && set[keys[0]!] === null ? keys[0] : undefined;
}

/**
 * A key of role `role` (learned from the run's CreateKey answers) gets a 200 empty page instead of its 403 answer to a
 * top-level Paginate of one of `natives`: a server that filters a listing record by record instead of refusing it.
 */
function listingFilteredForKeys(role: string, natives: readonly string[]): () => FaultHooks {
  return () => {
    const ledger = new KeyLedger();
    return {
      json: (body) => {
        ledger.learnFrom(body);
        return undefined;
      },
      response: rewriteResponse(
        (res, ctx) => res.status === 403 && natives.includes(listedNative(ctx.original) ?? '') && ledger.bySecret(requestSecret(ctx.original) ?? '')?.role === role,
        (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
      ),
    };
  };
}

export const CORE_FAULTS: readonly Fault[] = [
  {
    id: 'STATUS-CREATE-200',
    title: 'Create answers 200 instead of 201',
    breaks: ['PROTO-STATUS-002', 'DOC-CREATE-001'],
    area: 'core',
    description: 'Every 201 answer of `POST /` becomes 200 with the same body.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 201, (res) => withStatus(res, 200)),
    }),
  },
  {
    id: 'GENERATED-ID-OVERWRITES-CHOSEN',
    title: 'A generated id can be one a client chose',
    breaks: ['DOC-CREATE-010'],
    area: 'core',
    description: 'After Creates with chosen ids in a collection, each Create with that collection ref overwrites one of those documents.',
    apply: generatedIdsOverwriteChosen,
  },
  {
    id: 'STATUS-READ-201',
    title: 'A plain read answers 201',
    breaks: ['PROTO-STATUS-001'],
    area: 'core',
    description: 'Every 200 answer of `POST /` becomes 201, as if each result were newly created.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 200, (res) => withStatus(res, 201)),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-MISSING',
    title: 'No x-txn-time header',
    breaks: ['PROTO-HEADER-001'],
    area: 'core',
    description: 'The `x-txn-time` header is removed from every answer.',
    apply: () => ({
      response: rewriteResponse((res) => 'x-txn-time' in res.headers, (res) => withoutHeader(res, 'x-txn-time')),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-SKEWED',
    title: 'x-txn-time differs from the ts of the written documents',
    breaks: ['PROTO-HEADER-002', 'DOC-CREATE-007', 'DB-CREATE-005'],
    area: 'core',
    description: 'On every 201 answer, `x-txn-time` is one microsecond later than the transaction time.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 201 && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
        (res) => withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) + 1n).toString()),
      ),
    }),
  },
  {
    id: 'HEADER-STORAGE-BYTES-MISSING',
    title: 'No query and storage byte counts',
    breaks: ['PROTO-HEADER-018'],
    area: 'core',
    description: 'The `x-query-bytes-in`, `x-query-bytes-out`, `x-storage-bytes-read` and `x-storage-bytes-write` headers are removed (the metrics of DEC-016 only).',
    apply: () => ({
      response: rewriteResponse(
        (res) => 'x-storage-bytes-read' in res.headers || 'x-query-bytes-out' in res.headers,
        (res) => ['x-query-bytes-in', 'x-query-bytes-out', 'x-storage-bytes-read', 'x-storage-bytes-write'].reduce(withoutHeader, res),
      ),
    }),
  },
  {
    id: 'HEADER-QUERY-BYTES-OUT-CHARACTERS',
    title: '`x-query-bytes-out` counts characters',
    breaks: ['PROTO-HEADER-018'],
    area: 'core',
    description: '`x-query-bytes-out` is the answer body\'s length in UTF-16 code units rather than bytes (a body with non-ASCII text is undercounted).',
    apply: () => ({
      response: rewriteResponse(
        (res) => /^\d+$/.test(res.headers['x-query-bytes-out'] ?? '') && res.body.toString('utf8').length !== res.body.length,
        (res) => withHeader(res, 'x-query-bytes-out', String(res.body.toString('utf8').length)),
      ),
    }),
  },
  {
    id: 'HEADER-TRACEPARENT-MISSING',
    title: 'No traceparent on answers',
    breaks: ['PROTO-HEADER-019'],
    area: 'core',
    description: 'The `traceparent` response header is removed.',
    apply: () => ({
      response: rewriteResponse((res) => 'traceparent' in res.headers, (res) => withoutHeader(res, 'traceparent')),
    }),
  },
  {
    id: 'HEADER-TRACEPARENT-NEW-TRACE',
    title: 'A request\'s trace is not continued',
    breaks: ['PROTO-HEADER-019'],
    area: 'core',
    description: 'The answer to a request carrying a `traceparent` carries a `traceparent` of a new trace (trace id bytes reversed).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => ctx.original.headers['traceparent'] !== undefined && /^00-[0-9a-f]{32}-/.test(res.headers['traceparent'] ?? ''),
        (res) => {
          const [version, traceId, ...rest] = res.headers['traceparent']!.split('-');
          return withHeader(res, 'traceparent', [version, [...traceId!].reverse().join(''), ...rest].join('-'));
        },
      ),
    }),
  },
  {
    id: 'HEADER-TAGS-NOT-ECHOED',
    title: 'Tags are not echoed',
    breaks: ['PROTO-HEADER-020'],
    area: 'core',
    description: 'The `x-fauna-tags` response header is removed.',
    apply: () => ({
      response: rewriteResponse((res) => 'x-fauna-tags' in res.headers, (res) => withoutHeader(res, 'x-fauna-tags')),
    }),
  },
  {
    id: 'HEADER-TAGS-ECHOED-AS-SENT',
    title: 'Tags are echoed in the request\'s order',
    breaks: ['PROTO-HEADER-020'],
    area: 'core',
    description: 'The `x-fauna-tags` response header repeats the request\'s header as it was sent, not in the real service\'s reverse order.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => 'x-fauna-tags' in res.headers && ctx.original.headers['x-fauna-tags'] !== undefined && ctx.original.headers['x-fauna-tags'].includes(','),
        (res, ctx) => withHeader(res, 'x-fauna-tags', ctx.original.headers['x-fauna-tags']!),
      ),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-MISSING-ON-READS',
    title: 'Read-only requests carry no x-txn-time',
    breaks: ['TXN-TIME-002'],
    area: 'core',
    description: 'The `x-txn-time` header is removed from 200 answers (writes keep it).',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 200 && 'x-txn-time' in res.headers, (res) => withoutHeader(res, 'x-txn-time')),
    }),
  },
  {
    id: 'HEADER-METRICS-MISSING',
    title: 'No compute and byte-ops headers',
    breaks: ['PROTO-HEADER-003'],
    area: 'core',
    description: 'The `x-compute-ops`, `x-byte-read-ops`, `x-byte-write-ops` and `x-query-time` headers are removed.',
    apply: () => ({
      response: rewriteResponse(
        (res) => 'x-compute-ops' in res.headers || 'x-query-time' in res.headers,
        (res) => ['x-compute-ops', 'x-byte-read-ops', 'x-byte-write-ops', 'x-query-time'].reduce(withoutHeader, res),
      ),
    }),
  },
  {
    id: 'CONTENT-TYPE-TEXT',
    title: 'JSON answers labelled text/plain',
    breaks: ['PROTO-CTYPE-003'],
    area: 'core',
    description: 'Every `application/json` answer is labelled `text/plain; charset=utf-8`.',
    apply: () => ({
      response: rewriteResponse((res) => (res.headers['content-type'] ?? '').includes('json'), (res) => withHeader(res, 'content-type', 'text/plain; charset=utf-8')),
    }),
  },
  {
    id: 'CONTENT-TYPE-TEXT-PLAIN-REJECTED',
    title: 'A query sent as text/plain or without Content-Type is refused',
    breaks: ['PROTO-CTYPE-002'],
    area: 'core',
    description: 'A `POST /` whose Content-Type is missing or `text/plain` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && !(ctx.original.headers['content-type'] ?? '').includes('application/json'),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'invalid expression', description: 'Unsupported content type.' }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-BASIC-REJECTED',
    title: 'Basic authentication is not accepted',
    breaks: ['PROTO-AUTH-001'],
    area: 'core',
    description: 'A request with `Authorization: Basic …` is forwarded with an unknown Bearer secret instead.',
    apply: () => ({
      request: (req) =>
        (req.headers.authorization ?? '').startsWith('Basic ')
          ? { ...req, headers: { ...req.headers, authorization: 'Bearer fault-unknown-secret' } }
          : undefined,
    }),
  },
  {
    id: 'AUTH-BEARER-REJECTED-ON-V4',
    title: 'Bearer authentication is refused on POST /',
    breaks: ['PROTO-AUTH-002'],
    area: 'core',
    description: 'A `POST /` with `Authorization: Bearer …` answers 401 `unauthorized` (other endpoints keep working).',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => isV4Query(ctx.original) && (ctx.original.headers.authorization ?? '').startsWith('Bearer '),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'AUTH-401-AS-403',
    title: 'An unknown secret answers 403 instead of 401',
    breaks: ['PROTO-AUTH-004', 'PROTO-AUTH-003'],
    area: 'core',
    description: 'Every 401 answer becomes 403 `permission denied`.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 401,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'www-authenticate'), { errors: [{ code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }), 403),
      ),
    }),
  },
  {
    id: 'AUTH-401-CODE-RENAMED',
    title: 'The unauthorized error code is renamed',
    breaks: ['PROTO-AUTH-003'],
    area: 'core',
    description: 'In 401 answers the error code `unauthorized` becomes `unauthenticated`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 401 && hasErrorCode(body, 'unauthorized'),
        (body) => v4Errors(body).forEach((error) => (error.code = 'unauthenticated')),
      ),
    }),
  },
  {
    id: 'AUTH-MALFORMED-HEADER-400',
    title: 'A malformed Authorization header answers 400',
    breaks: ['PROTO-AUTH-005'],
    area: 'core',
    description: 'A request whose Authorization header is neither `Basic` nor `Bearer`, or whose secret is empty, answers 400 `bad request`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const auth = ctx.original.headers.authorization;
          return res.status === 401 && auth !== undefined && !/^(Basic|Bearer) \S+/.test(auth);
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'bad request', description: 'Malformed Authorization header.' }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-WWW-AUTHENTICATE-MISSING',
    title: '401 answers lack WWW-Authenticate',
    breaks: ['PROTO-AUTH-006'],
    area: 'core',
    description: 'The `WWW-Authenticate` header is removed from every 401 answer.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 401 && 'www-authenticate' in res.headers, (res) => withoutHeader(res, 'www-authenticate')),
    }),
  },
  {
    id: 'ENDPOINT-405-AS-404',
    title: 'A wrong method on / answers 404',
    breaks: ['PROTO-ENDPOINT-003'],
    area: 'core',
    description: 'A request to `/` with a method other than GET or POST answers 404 `not found` instead of 405.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => pathname(ctx.original) === '/' && !['GET', 'POST'].includes(ctx.original.method) && res.status === 405,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'allow'), { errors: [{ code: 'not found', description: 'Not Found' }] }), 404),
      ),
    }),
  },
  {
    id: 'ENDPOINT-UNKNOWN-PATH-500',
    title: 'An unknown path answers 500',
    breaks: ['PROTO-ENDPOINT-005', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A 404 `not found` protocol error (an unserved path) becomes 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 404 && hasErrorCode(bodyJson(res), 'not found'),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unexpected path.' }] }), 500),
      ),
    }),
  },
  {
    id: 'ENDPOINT-PING-UNWRAPPED',
    title: '/ping answers a bare status object',
    breaks: ['PROTO-ENDPOINT-002'],
    area: 'core',
    description: '`GET /ping` answers `{"status":"ok"}` instead of `{"resource": <string>}`.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => pathname(ctx.original) === '/ping' && res.status === 200, (res) => withJsonBody(res, { status: 'ok' })),
    }),
  },
  {
    id: 'ENDPOINT-PING-NEEDS-SECRET',
    title: '/ping needs a secret',
    breaks: ['PROTO-ENDPOINT-009'],
    area: 'core',
    description: '`GET /ping` without an `Authorization` header answers 401 `unauthorized`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => pathname(ctx.original) === '/ping' && ctx.original.headers['authorization'] === undefined,
        (res) => withStatus(withJsonBody(withHeader(res, 'www-authenticate', 'Basic realm="Unauthorized"'), { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'ENDPOINT-PING-STRICT-SCOPES',
    title: '/ping defaults to node and refuses unknown scopes',
    breaks: ['PROTO-ENDPOINT-010'],
    area: 'core',
    description: '`GET /ping` without a scope answers `Scope node is OK`, an unknown scope (or an alias) answers 400 `invalid url parameter`, and `HEAD /ping` answers 405.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => pathname(ctx.original) === '/ping' && res.status === 200,
        (res, ctx) => {
          if (ctx.original.method === 'HEAD') return withStatus(withJsonBody(withHeader(res, 'allow', 'GET'), { errors: [{ code: 'method not allowed', description: 'Method not allowed.' }] }), 405);
          const scope = new URL(ctx.original.path, 'http://proxy').searchParams.get('scope');
          if (scope === null) return withJsonBody(res, { resource: 'Scope node is OK' });
          if (['node', 'read', 'write', 'all'].includes(scope)) return res;
          return withStatus(withJsonBody(res, { errors: [{ code: 'invalid url parameter', description: `Invalid scope '${scope}'.` }] }), 400);
        },
      ),
    }),
  },
  {
    id: 'ENDPOINT-UNKNOWN-PATH-AUTH-FIRST',
    title: 'Unknown paths are authenticated first',
    breaks: ['PROTO-ENDPOINT-011'],
    area: 'core',
    description: 'A 404 `not found` answer to a request without an `Authorization` header becomes 401 `unauthorized`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 404 && hasErrorCode(bodyJson(res), 'not found') && ctx.original.headers['authorization'] === undefined,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'BODY-INVALID-JSON-CODE',
    title: 'Invalid JSON answers `bad request` instead of `invalid expression`',
    breaks: ['PROTO-BODY-001'],
    area: 'core',
    description: 'When the request body is not valid JSON, the `invalid expression` error code becomes `bad request`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => isV4Query(ctx.original) && ctx.original.body.length > 0 && v4Expression(ctx.original) === undefined && hasErrorCode(body, 'invalid expression'),
        (body) => v4Errors(body).forEach((error) => (error.code = 'bad request')),
      ),
    }),
  },
  {
    id: 'BODY-EMPTY-500',
    title: 'An empty query body answers 500',
    breaks: ['PROTO-BODY-002', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A `POST /` with an empty body answers 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && ctx.original.body.length === 0,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Empty body.' }] }), 500),
      ),
    }),
  },
  {
    id: 'BODY-UNKNOWN-FUNCTION-NULL',
    title: 'An unknown function evaluates to null',
    breaks: ['PROTO-BODY-003'],
    area: 'core',
    description: 'A well-formed JSON query that fails with `invalid expression` answers 200 `{"resource": null}` instead.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 400 && v4Expression(ctx.original) !== undefined && hasErrorCode(bodyJson(res), 'invalid expression'),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'BODY-WRONG-TYPE-500',
    title: 'Bad input answers 500',
    breaks: ['PROTO-STATUS-004', 'PROTO-BODY-004'],
    area: 'core',
    description: 'Every 400 answer of `POST /` becomes 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => isV4Query(ctx.original) && res.status === 400,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unhandled input.' }] }), 500),
      ),
    }),
  },
  {
    id: 'BODY-INVALID-UTF8-500',
    title: 'A body that is not UTF-8 answers 500',
    breaks: ['PROTO-BODY-005', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A request body with invalid UTF-8 bytes answers 500.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.body.length > 0 && !isValidUtf8(ctx.original.body),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Decoding failed.' }] }), 500),
      ),
    }),
  },
  {
    id: 'BODY-INVALID-UTF8-EMPTY-ANSWER',
    title: 'A body that is not UTF-8 is answered with nothing',
    breaks: ['PROTO-BODY-005'],
    area: 'core',
    description: 'A request body with invalid UTF-8 bytes answers 200 `{"resource": null}` (the bad part read as nothing).',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.body.length > 0 && !isValidUtf8(ctx.original.body),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'ERROR-POSITION-DROPPED',
    title: 'Query errors lose their position',
    breaks: ['PROTO-ERROR-001'],
    area: 'core',
    description: '`position` is removed from every v4 query error.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isV4Error(ctx.status, body), (body) => v4Errors(body).reduce((n, error) => n + deleteKeys(error, 'position'), 0)),
    }),
  },
  {
    id: 'ERROR-TOP-LEVEL-POSITION-NONEMPTY',
    title: 'Top-level errors name a position',
    breaks: ['PROTO-ERROR-002'],
    area: 'core',
    description: 'An error whose `position` is `[]` gets `["expr"]` instead.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length === 0),
        (body) => v4Errors(body).forEach((error) => {
          if (Array.isArray(error.position) && error.position.length === 0) error.position = ['expr'];
        }),
      ),
    }),
  },
  {
    id: 'ERROR-POSITION-TRUNCATED',
    title: 'Nested errors point at their parent',
    breaks: ['PROTO-ERROR-003'],
    area: 'core',
    description: 'The last element of every non-empty error `position` is dropped.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length > 0),
        (body) => v4Errors(body).forEach((error) => {
          if (Array.isArray(error.position) && error.position.length > 0) error.position = error.position.slice(0, -1);
        }),
      ),
    }),
  },
  {
    id: 'ERROR-PROTOCOL-WITH-POSITION',
    title: 'Protocol errors carry a position',
    breaks: ['PROTO-ERROR-004'],
    area: 'core',
    description: 'Every error without `position` (401, 404 path, 405) gets `"position": []`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => [401, 404, 405].includes(ctx.status) && v4Errors(body).some((error) => !('position' in error)),
        (body) => v4Errors(body).forEach((error) => {
          if (!('position' in error)) error.position = [];
        }),
      ),
    }),
  },
  {
    id: 'ERROR-VALIDATION-FAILURES-DROPPED',
    title: '`validation failed` without failures',
    breaks: ['PROTO-ERROR-005'],
    area: 'core',
    description: '`failures` is removed from `validation failed` errors.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'validation failed'), (body) => v4Errors(body).reduce((n, error) => n + deleteKeys(error, 'failures'), 0)),
    }),
  },
  {
    id: 'ERROR-ABORT-CODE-RENAMED',
    title: 'Abort answers code `aborted`',
    breaks: ['PROTO-ERROR-006'],
    area: 'core',
    description: 'The error code `transaction aborted` becomes `aborted`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'transaction aborted'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'transaction aborted') error.code = 'aborted';
      })),
    }),
  },
  {
    id: 'ERROR-INSTANCE-NOT-FOUND-RENAMED',
    title: 'Missing documents answer `document not found`',
    breaks: ['PROTO-ERROR-007', 'DOC-GET-002', 'DOC-DELETE-002'],
    area: 'core',
    description: 'The error code `instance not found` becomes `document not found` (status unchanged).',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'instance not found'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'instance not found') error.code = 'document not found';
      })),
    }),
  },
  {
    id: 'ERROR-VALUE-NOT-FOUND-400',
    title: '`value not found` answers 400',
    breaks: ['PROTO-ERROR-008'],
    area: 'core',
    description: 'A 404 `value not found` answer becomes 400 with the same body.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 404 && hasErrorCode(bodyJson(res), 'value not found'), (res) => withStatus(res, 400)),
    }),
  },
  {
    id: 'ERROR-PERMISSION-DENIED-401',
    title: '`permission denied` answers 401',
    breaks: ['PROTO-ERROR-009', 'KEY-ROLE-004'],
    area: 'core',
    description: 'A 403 `permission denied` answer becomes 401 with the same body.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 403 && hasErrorCode(bodyJson(res), 'permission denied'), (res) => withStatus(res, 401)),
    }),
  },
  {
    id: 'ERROR-INSTANCE-EXISTS-RENAMED',
    title: 'Duplicate creates answer `instance not unique`',
    breaks: ['DOC-CREATE-005', 'DB-CREATE-004', 'COLL-CREATE-004'],
    area: 'core',
    description: 'The error code `instance already exists` becomes `instance not unique`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'instance already exists'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'instance already exists') error.code = 'instance not unique';
      })),
    }),
  },
  {
    id: 'VERSION-4-RENDERS-CLASS',
    title: 'API version 4 renders refs with `class`',
    breaks: ['PROTO-VERSION-001'],
    area: 'core',
    description: 'With `X-FaunaDB-API-Version: 4`, every `collection` key inside an `@ref` becomes `class`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => apiVersion(ctx.original) === '4',
        (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'collection', 'class', (object) => object === ref), 0),
      ),
    }),
  },
  {
    id: 'VERSION-DEFAULT-RENDERS-COLLECTION',
    title: 'Without an API version, refs render with `collection`',
    breaks: ['PROTO-VERSION-002'],
    area: 'core',
    description: 'Without `X-FaunaDB-API-Version`, every `class` key inside an `@ref` becomes `collection`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => isV4Query(ctx.original) && apiVersion(ctx.original) === undefined,
        (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'class', 'collection', (object) => object === ref), 0),
      ),
    }),
  },
  {
    id: 'VERSION-UNSUPPORTED-ACCEPTED',
    title: 'An unsupported API version is accepted',
    breaks: ['PROTO-VERSION-006'],
    area: 'core',
    description: 'An unsupported `X-FaunaDB-API-Version` header is dropped before it reaches the server, so the query runs.',
    apply: () => ({
      request: (req) => {
        const version = apiVersion(req);
        if (version === undefined || SUPPORTED_API_VERSIONS.has(version)) return undefined;
        const headers = { ...req.headers };
        delete headers['x-faunadb-api-version'];
        return { ...req, headers };
      },
    }),
  },
  {
    id: 'VALUE-SHORT-REF-REJECTED',
    title: 'Short-form `@ref` strings are refused',
    breaks: ['PROTO-VALUE-002'],
    area: 'core',
    description: 'A query containing `{"@ref": "<collection>/<id>"}` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => isShortRefIn(v4Expression(ctx.original)),
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ position: [], code: 'invalid expression', description: 'Short ref form is not supported.' }] }), 400),
      ),
    }),
  },
  {
    id: 'VALUE-BIG-INTEGER-ROUNDED',
    title: 'Integers beyond 2^53 lose precision',
    breaks: ['PROTO-VALUE-011'],
    area: 'core',
    description: 'Every integer whose magnitude exceeds 2^53 in an answer is rounded to the nearest double.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let rounded = 0;
          // Array elements too: big integers usually come back in lists (`[9007199254740993, …]`).
          const round = (container: unknown[] | JsonObject, key: number | string, value: unknown): void => {
            if (!isJsonInteger(value)) return forEachContained(value, round);
            const exact = BigInt(String(value));
            if (exact <= TWO_POW_53 && exact >= -TWO_POW_53) return;
            const approx = jsonInt(BigInt(Number(exact)));
            if (String(approx) === String(value)) return;
            (container as Record<string | number, unknown>)[key] = approx;
            rounded += 1;
          };
          forEachContained(body, round);
          return rounded;
        },
      ),
    }),
  },
  {
    id: 'VALUE-SET-TAG-RENAMED',
    title: 'Sets come back as `@setref`',
    breaks: ['PROTO-VALUE-004'],
    area: 'core',
    description: 'Every `@set` key in an answer becomes `@setref`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@set', '@setref')) }),
  },
  {
    id: 'VALUE-QUERY-TAG-RENAMED',
    title: 'Stored lambdas come back as `@lambda`',
    breaks: ['PROTO-VALUE-005'],
    area: 'core',
    description: 'Every `@query` key in an answer becomes `@lambda`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@query', '@lambda')) }),
  },
  {
    id: 'VALUE-TS-TAG-RENAMED',
    title: 'Timestamps come back as `@time`',
    breaks: ['PROTO-VALUE-006'],
    area: 'core',
    description: 'Every `@ts` key in an answer becomes `@time`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@ts', '@time')) }),
  },
  {
    id: 'VALUE-EARLY-YEARS-AS-1900S',
    title: 'Years 0000 to 0099 come back as 1900 to 1999',
    breaks: ['PROTO-VALUE-006'],
    area: 'core',
    description: 'Every `@ts` or `@date` of a year below 100 in an answer is moved to that year plus 1900, as by a server that parses two-digit years with `Date.UTC`.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let moved = 0;
          forEachObject(body, (object) => {
            for (const tag of ['@ts', '@date']) {
              const text = object[tag];
              if (typeof text !== 'string' || !/^00\d\d-/.test(text)) continue;
              object[tag] = `19${text.slice(2)}`;
              moved++;
            }
          });
          return moved;
        },
      ),
    }),
  },
  {
    id: 'VALUE-OBJ-UNWRAPPED',
    title: '`@obj` escapes are dropped',
    breaks: ['PROTO-VALUE-007'],
    area: 'core',
    description: 'Every `{"@obj": {…}}` in an answer is replaced by its content, so user keys starting with `@` look like tags.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let unwrapped = 0;
          forEachObject(body, (object) => {
            for (const [key, value] of Object.entries(object)) {
              if (isJsonObject(value) && Object.keys(value).length === 1 && isJsonObject(value['@obj'])) {
                object[key] = value['@obj'];
                unwrapped += 1;
              }
            }
          });
          return unwrapped;
        },
      ),
    }),
  },
  {
    id: 'VALUE-SELECT-DEFAULT-IGNORED',
    title: '`select` ignores `default`',
    breaks: ['PROTO-VALUE-009'],
    area: 'core',
    description: 'The `default` of every `select` form is removed from the query before it reaches the server.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const removed = deleteKeys(expression, 'default', (object) => 'select' in object);
        return removed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'HTTP-1-1-REFUSED',
    title: 'HTTP/1.1 requests are refused',
    breaks: ['PROTO-HTTP-001'],
    area: 'core',
    description: 'Every request answers 505 `HTTP Version Not Supported`, as a server that only speaks HTTP/2 would (the proxy and the suite talk HTTP/1.1).',
    apply: () => ({
      response: rewriteResponse(
        () => true,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ code: 'http version not supported', description: 'Only HTTP/2 is served.' }] }), 505),
      ),
    }),
  },
  {
    id: 'ENDPOINT-RESULT-KEY',
    title: 'Answers carry `result` instead of `resource`',
    breaks: ['PROTO-ENDPOINT-001'],
    area: 'core',
    description: 'Successful answers of `POST /` name their value `result` (as a newer wire format would) instead of `resource`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isV4Query(ctx.original) && ctx.status < 300 && isJsonObject(body) && 'resource' in body, (body) => renameKeys(body, 'resource', 'result', (object) => object === body)),
    }),
  },
  {
    id: 'CONTENT-TYPE-JSON-NEEDS-CHARSET',
    title: '`application/json` without a charset is refused',
    breaks: ['PROTO-CTYPE-001'],
    area: 'core',
    description: 'A `POST /` whose Content-Type is exactly `application/json` (no `charset` parameter) answers 400 `bad request`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && (ctx.original.headers['content-type'] ?? '').trim().toLowerCase() === 'application/json',
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ code: 'bad request', description: 'Content-Type must declare charset=utf-8.' }] }), 400),
      ),
    }),
  },
  {
    id: 'VALUE-REF-LITERAL-NOT-BINDABLE',
    title: 'Ref literals are refused in `let` bindings and objects',
    breaks: ['PROTO-VALUE-001'],
    area: 'core',
    description: 'A query that binds a long-form `@ref` literal in `let` or puts one inside `{"object": …}` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => {
          let found = false;
          const isLongRef = (value: unknown) => isJsonObject(value) && isJsonObject(value['@ref']);
          forEachObject(v4Expression(ctx.original), (object) => {
            const bindings = Array.isArray(object.let) ? object.let : [object.let];
            if ('let' in object && bindings.some((binding) => isJsonObject(binding) && Object.values(binding).some(isLongRef))) found = true;
            if (isJsonObject(object.object) && Object.values(object.object).some(isLongRef)) found = true;
          });
          return found;
        },
        (res) => answerError(res, 400, 'invalid expression', 'Ref literals are only accepted as function arguments.'),
      ),
    }),
  },
  {
    id: 'VALUE-REFS-RENDERED-SHORT',
    title: 'Document refs are answered in the short string form',
    breaks: ['PROTO-VALUE-003', 'PROTO-VALUE-001'],
    area: 'core',
    description: 'Every document ref in an answer is written `{"@ref": "collections/<c>/<id>"}` instead of the long form.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => {
        let changed = 0;
        forEachObject(body, (object) => {
          const key = isRefObject(object) ? refKey(object) : undefined;
          if (key === undefined || !isDocumentKey(key) || typeof object['@ref'] === 'string') return;
          object['@ref'] = `collections/${key}`;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'VALUE-SELECT-STRING-PATH-REFUSED',
    title: '`select` refuses a single-key path',
    breaks: ['PROTO-VALUE-008'],
    area: 'core',
    description: 'A `select` whose path is a string or number instead of an array answers 400 `invalid argument`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => {
          let found = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if ('select' in object && 'from' in object && (typeof object.select === 'string' || isLosslessNumber(object.select))) found = true;
          });
          return found;
        },
        (res) => answerError(res, 400, 'invalid argument', 'Path must be an array.', ['select']),
      ),
    }),
  },
  {
    id: 'VALUE-DO-ANSWERS-FIRST',
    title: '`do` answers its first value',
    breaks: ['PROTO-VALUE-010'],
    area: 'core',
    description: 'Every `{"do": [e1, …, en]}` is evaluated in order but answers the value of e1 instead of en (sent upstream as `{"select": [0], "from": [e1, …, en]}`).',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!Array.isArray(object.do) || object.do.length < 2 || Object.keys(object).length !== 1) return;
          const steps = object.do;
          delete object.do;
          object.select = [jsonInt(0)];
          object.from = steps;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'VALUE-EQUALS-FIRST-TWO-ONLY',
    title: '`equals` compares only its first two arguments',
    breaks: ['PROTO-VALUE-010'],
    area: 'core',
    description: 'Every `{"equals": [a, b, …]}` with more than two arguments is sent as `{"equals": [a, b]}` (an `args[0] === args[1]` implementation).',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!Array.isArray(object.equals) || object.equals.length <= 2) return;
          object.equals = object.equals.slice(0, 2);
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'VALUE-UNBOUND-VAR-NULL',
    title: 'An unbound variable evaluates to null',
    breaks: ['PROTO-VALUE-012'],
    area: 'core',
    description: 'A query naming a variable that no `let` or lambda of the query binds answers 200 with null in its place (JavaScript `undefined` leaking through).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const bound = new Set<string>();
          const used: string[] = [];
          forEachObject(v4Expression(ctx.original), (object) => {
            if (typeof object.var === 'string') used.push(object.var);
            for (const binding of Array.isArray(object.let) ? object.let : [object.let]) if (isJsonObject(binding)) Object.keys(binding).forEach((name) => bound.add(name));
            if ('lambda' in object) [object.lambda].flat().forEach((name) => typeof name === 'string' && bound.add(name));
          });
          return res.status === 400 && used.some((name) => !bound.has(name));
        },
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'VALUE-AT-KEY-READ-AS-TAG',
    title: 'An `@` field name inside `object` is read as an unknown tag',
    breaks: ['PROTO-VALUE-013'],
    area: 'core',
    description: 'A query with `{"object": {"@x": …}}` (a key starting with `@` that is not a wire tag) answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => {
          let found = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if (isJsonObject(object.object) && Object.keys(object.object).some((key) => key.startsWith('@'))) found = true;
          });
          return found;
        },
        (res) => answerError(res, 400, 'invalid expression', 'Unknown tag in object.'),
      ),
    }),
  },
  {
    id: 'VERSION-21-RENDERS-COLLECTION',
    title: 'API version 2.1 renders refs with `collection`',
    breaks: ['PROTO-VERSION-003'],
    area: 'core',
    description: 'With `X-FaunaDB-API-Version: 2.1`, refs are answered in the version-4 wording (`collection`, `collections`).',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => apiVersion(ctx.original) === '2.1',
        (body) => refPayloads(body).reduce((n, ref) => {
          const renamed = renameKeys(ref, 'class', 'collection', (object) => object === ref);
          if (ref.id === 'classes' && !('collection' in ref)) ref.id = 'collections';
          return n + renamed;
        }, 0),
      ),
    }),
  },
  {
    id: 'VERSION-4-REFUSES-CLASS-REFS',
    title: 'API version 4 refuses input refs written with `class`',
    breaks: ['PROTO-VERSION-004'],
    area: 'core',
    description: 'With `X-FaunaDB-API-Version: 4`, a query holding a `@ref` whose payload uses `class` answers 400 `invalid ref`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => apiVersion(ctx.original) === '4' && refPayloads(v4Expression(ctx.original)).some((ref) => 'class' in ref),
        (res) => answerError(res, 400, 'invalid ref', 'Refs must name their collection under `collection`.'),
      ),
    }),
  },
  {
    id: 'VERSION-CLASS-FORM-UNKNOWN',
    title: '`{"class": …}` is not a known function',
    breaks: ['PROTO-VERSION-005'],
    area: 'core',
    description: 'A query using the `{"class": "<name>"}` form answers 400 `invalid expression`, as if only `collection` existed.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => {
          let found = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if (typeof object.class === 'string' && !('@ref' in object)) found = true;
          });
          return found;
        },
        (res) => answerError(res, 400, 'invalid expression', 'No form/function found, or invalid argument keys: { class }.'),
      ),
    }),
  },
  {
    id: 'VERSION-4-NATIVE-CLASSES',
    title: 'API version 4 names the native collection `classes`',
    breaks: ['PROTO-VERSION-007'],
    area: 'core',
    description: 'With `X-FaunaDB-API-Version: 4`, the native collection ref `{"@ref":{"id":"collections"}}` is answered as `{"@ref":{"id":"classes"}}`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => apiVersion(ctx.original) === '4',
        (body) => refPayloads(body).reduce((n, ref) => {
          if (ref.id !== 'collections' || 'collection' in ref || 'class' in ref) return n;
          ref.id = 'classes';
          return n + 1;
        }, 0),
      ),
    }),
  },
  {
    id: 'EVENT-ENDPOINT-401-V4-SHAPE',
    title: 'Event endpoints refuse unknown secrets in the v4 error shape',
    breaks: ['PROTO-AUTH-007'],
    area: 'events',
    description: 'A 401 answer of `/query/1`, `/feed/1` or `/stream/1` carries `{"errors":[{"code":"unauthorized","description":…}]}` (the `POST /` shape) instead of `{"error":{…}}`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => isEventEndpoint(ctx.original) && res.status === 401,
        (res) => withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }),
      ),
    }),
  },
  {
    id: 'EVENT-ENDPOINT-ERROR-V4-SHAPE',
    title: 'Event endpoints answer errors in the v4 shape',
    breaks: ['PROTO-ERROR-010'],
    area: 'events',
    description: 'Error answers (other than 401) of `/query/1`, `/feed/1` and `/stream/1` carry `{"errors":[{"code","description"}]}` instead of `{"error":{"code","message"}}`.',
    apply: () => ({
      json: (body, ctx) => {
        if (!isEventEndpoint(ctx.original) || ctx.status < 400 || ctx.status === 401 || !isJsonObject(body) || !isJsonObject(body.error)) return undefined;
        return { errors: [{ code: body.error.code, description: body.error.message }] };
      },
    }),
  },
  {
    id: 'EVENT-ENDPOINT-SUCCESS-201',
    title: 'Event endpoints answer 201',
    breaks: ['PROTO-STATUS-003'],
    area: 'events',
    description: 'Successful answers of `/query/1` and `/feed/1` use status 201.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isEventEndpoint(ctx.original) && res.status === 200, (res) => withStatus(res, 201)),
    }),
  },
  {
    id: 'EVENT-ENDPOINT-UNKNOWN-VERSION-500',
    title: 'An unknown event endpoint version answers 500',
    breaks: ['PROTO-VERSION-008'],
    area: 'events',
    description: 'A request to `/query/<n>`, `/feed/<n>` or `/stream/<n>` with `n` other than 1 answers 500 `internal_error` instead of 404.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => /^\/(query|feed|stream)\/(?!1$)[^/]+$/.test(pathname(ctx.original)) && res.status === 404,
        (res) => withStatus(withJsonBody(res, { error: { code: 'internal_error', message: 'Unsupported version.' } }), 500),
      ),
    }),
  },
  ...(['query', 'feed', 'stream'] as const).map((endpoint): Fault => ({
    id: `EVENT-ENDPOINT-${endpoint.toUpperCase()}-NOT-SERVED`,
    title: `POST /${endpoint}/1 is not served`,
    breaks: [{ query: 'PROTO-ENDPOINT-008', feed: 'PROTO-ENDPOINT-006', stream: 'PROTO-ENDPOINT-007' }[endpoint]],
    area: 'events',
    description: `Requests to \`/${endpoint}/1\` are forwarded to a path the server does not serve, as a v4-only implementation would answer them (404).`,
    apply: () => ({
      request: (req) => (pathname(req) === `/${endpoint}/1` ? { ...req, path: req.path.replace(`/${endpoint}/1`, `/${endpoint}/1/unserved`) } : undefined),
    }),
  })),
  {
    id: 'DOC-DATA-INTEGERS-AS-DECIMALS',
    title: 'Integers in `data` come back as decimals',
    breaks: ['DOC-CREATE-006'],
    area: 'core',
    description: 'Every integer inside a `data` object of an answer is written as a decimal (`1` → `1.0`).',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let changed = 0;
          const decimalize = (value: unknown): unknown => {
            if (isJsonInteger(value)) {
              changed += 1;
              return jsonDecimal(Number(String(value)));
            }
            if (Array.isArray(value)) return value.map(decimalize);
            if (isJsonObject(value)) {
              for (const [key, child] of Object.entries(value)) value[key] = decimalize(child);
            }
            return value;
          };
          forEachObject(body, (object) => {
            if (isJsonObject(object.data)) object.data = decimalize(object.data);
          });
          return changed;
        },
      ),
    }),
  },
  {
    id: 'DOC-TS-AS-DECIMAL',
    title: 'Document `ts` is a decimal',
    breaks: ['DOC-CREATE-007'],
    area: 'core',
    description: 'The `ts` of every record in an answer is written with a fraction (`1718340750415639.0`).',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => records(body).reduce((n, record) => {
          if (!isJsonInteger(record.ts)) return n;
          record.ts = jsonDecimal(Number(String(record.ts)));
          return n + 1;
        }, 0),
      ),
    }),
  },
  {
    id: 'DOC-UPDATE-REPLACES',
    title: 'Update replaces instead of merging',
    breaks: ['DOC-UPDATE-001'],
    area: 'core',
    description: 'Every `update` form in a query is sent to the server as `replace`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const renamed = renameKeys(expression, 'update', 'replace', (object) => 'params' in object);
        return renamed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'DOC-REPLACE-MERGES',
    title: 'Replace merges instead of replacing',
    breaks: ['DOC-REPLACE-001'],
    area: 'core',
    description: 'Every `replace` form in a query is sent to the server as `update`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const renamed = renameKeys(expression, 'replace', 'update', (object) => 'params' in object);
        return renamed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'DOC-DELETE-ANSWERS-TRUE',
    title: 'Delete answers `true` instead of the deleted document',
    breaks: ['DOC-DELETE-001'],
    area: 'core',
    description: 'A successful top-level `delete` answers `{"resource": true}`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 200 && topLevelForm(ctx.original) === 'delete' && v4Resource(body) !== undefined,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'DOC-EXISTS-ALWAYS-TRUE',
    title: 'Exists answers true for missing things',
    breaks: ['DOC-LIFE-001', 'DB-LIFE-006'],
    area: 'core',
    description: 'A top-level `exists` that answers false answers true.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'exists' && isJsonObject(body) && body.resource === false,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'DOC-GET-MISSING-NULL',
    title: 'Get of a missing document answers null',
    breaks: ['DOC-GET-002'],
    area: 'core',
    description: 'A top-level `get` that fails with 404 `instance not found` answers 200 `{"resource": null}`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => topLevelForm(ctx.original) === 'get' && res.status === 404 && hasErrorCode(bodyJson(res), 'instance not found'),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'DOC-LIST-DROPS-LAST',
    title: 'Listing documents loses the last one',
    breaks: ['DOC-LIFE-003'],
    area: 'core',
    description: 'A page answering a query over `documents` drops its last entry.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'documents') && Array.isArray(v4Resource(body)?.data) && (v4Resource(body)!.data as unknown[]).length > 0,
        (body) => {
          (v4Resource(body)!.data as unknown[]).pop();
        },
      ),
    }),
  },
  {
    id: 'DOC-ID-AS-INTEGER',
    title: 'Document ids are answered as integers',
    breaks: ['DOC-CREATE-002'],
    area: 'core',
    description: 'The `id` of every document ref in an answer is a JSON integer (`"id": 123`) instead of a string.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => refPayloads(body).reduce((n, ref) => {
        const key = refKey({ '@ref': ref });
        if (key === undefined || !isDocumentKey(key) || typeof ref.id !== 'string' || !/^\d+$/.test(ref.id)) return n;
        ref.id = jsonInt(BigInt(ref.id));
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'DOC-ID-FROM-CLOCK',
    title: 'Server-chosen ids come from the clock',
    breaks: ['DOC-CREATE-003'],
    area: 'core',
    description: 'Every Create into a bare collection gets the current millisecond as its id, so all Creates of one request (and of one millisecond) collide.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const id = String(Date.now());
        let changed = 0;
        forEachObject(expression, (object) => {
          const target = isJsonObject(object.create) ? object.create : undefined;
          const coll = target === undefined || Object.keys(target).length !== 1 ? undefined : (target.collection ?? target.class);
          if (typeof coll !== 'string' || !('params' in object)) return;
          object.create = { ref: { collection: coll }, id };
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'DOC-CHOSEN-ID-IGNORED',
    title: 'Create ignores the id it is given',
    breaks: ['DOC-CREATE-004'],
    area: 'core',
    description: 'A Create of `{"ref": <collection>, "id": "<digits>"}` is sent as a Create into the bare collection, so the server picks the id.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const target = isJsonObject(object.create) ? object.create : undefined;
          if (target === undefined || !('params' in object) || typeof target.id !== 'string' || !isJsonObject(target.ref) || Object.keys(target).length !== 2) return;
          object.create = target.ref;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'DOC-CREATE-KEEPS-NULLS',
    title: 'Create stores fields set to null',
    breaks: ['DOC-CREATE-008'],
    area: 'core',
    description: 'The answer of a top-level Create carries every top-level `data` field the request set to null, as `null`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create' && isJsonObject(v4Resource(body)?.data),
        (body, ctx) => {
          const sent = dataMembers(topLevel(ctx.original)!) ?? {};
          const data = v4Resource(body)!.data as JsonObject;
          let added = 0;
          for (const [field, value] of Object.entries(sent)) {
            if (value === null && !(field in data)) {
              data[field] = null;
              added += 1;
            }
          }
          return added;
        },
      ),
    }),
  },
  {
    id: 'DOC-NON-OBJECT-DATA-DROPPED',
    title: 'Create drops `data` that is not an object',
    breaks: ['DOC-CREATE-009'],
    area: 'core',
    description: 'A Create whose `data` is a string, number, boolean or array is sent without `data`, so it creates an empty document instead of failing.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const params = 'create' in object ? objectMembers(object.params) : undefined;
          if (params === undefined || !('data' in params) || params.data === null || objectMembers(params.data) !== undefined) return;
          delete params.data;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'DOC-GET-TS-OF-CREATION',
    title: 'Get answers the creation `ts`',
    breaks: ['DOC-GET-001'],
    area: 'core',
    description: 'A top-level Get answers the document with the `ts` of its first version, not of its latest one.',
    apply: () => {
      const firstTs = new Map<string, unknown>();
      return {
        json: (body, ctx) => {
          for (const record of records(body)) {
            const key = refKey(record.ref);
            if (key !== undefined && isDocumentKey(key) && !firstTs.has(key)) firstTs.set(key, record.ts);
          }
          const resource = v4Resource(body);
          const key = refKey(resource?.ref);
          if (topLevelForm(ctx.original) !== 'get' || ctx.status !== 200 || key === undefined || !firstTs.has(key)) return undefined;
          if (String(firstTs.get(key)) === String(resource!.ts)) return undefined;
          resource!.ts = firstTs.get(key);
          return body;
        },
      };
    },
  },
  {
    id: 'DOC-GET-REF-LITERAL-NOT-FOUND',
    title: 'Get of a long-form ref literal answers 404',
    breaks: ['DOC-GET-003'],
    area: 'core',
    description: 'A top-level Get whose argument is a long-form `@ref` literal answers 404 `instance not found` (only refs built with `ref`/`collection` are resolved).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const target = topLevel(ctx.original)?.get;
          return res.status === 200 && topLevelForm(ctx.original) === 'get' && isJsonObject(target) && isJsonObject(target['@ref']);
        },
        (res) => answerError(res, 404, 'instance not found', 'Document not found.'),
      ),
    }),
  },
  {
    id: 'DOC-UPDATE-SHALLOW-MERGE',
    title: 'Update replaces nested objects',
    breaks: ['DOC-UPDATE-002'],
    area: 'core',
    description: 'A top-level Update merges only the top-level `data` fields: a nested object given in the Update replaces the stored one (sent as a first Update clearing those fields, then the original).',
    apply: () => ({
      request: (req) => {
        const expression = topLevel(req);
        const data = expression !== undefined && 'update' in expression ? dataMembers(expression) : undefined;
        const nested = Object.entries(data ?? {}).filter(([, value]) => objectMembers(value) !== undefined).map(([field]) => field);
        if (nested.length === 0) return undefined;
        const clear = { update: expression!.update, params: { object: { data: { object: Object.fromEntries(nested.map((field) => [field, null])) } } } };
        return { ...req, body: Buffer.from(stringifyJson({ do: [clear, expression] })) };
      },
    }),
  },
  {
    id: 'DOC-UPDATE-NULL-IGNORED',
    title: 'Update ignores fields set to null',
    breaks: ['DOC-UPDATE-003'],
    area: 'core',
    description: 'Fields set to null in an Update (at any depth) are left out of it, so they keep their stored value instead of being removed.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let removed = 0;
        const dropNulls = (members: JsonObject | undefined): void => {
          for (const [field, value] of Object.entries(members ?? {})) {
            if (value === null) {
              delete members![field];
              removed += 1;
            } else dropNulls(objectMembers(value));
          }
        };
        forEachObject(expression, (object) => {
          if ('update' in object) dropNulls(dataMembers(object));
        });
        return removed;
      }),
    }),
  },
  {
    id: 'DOC-UPDATE-ANSWERS-PREVIOUS-TS',
    title: 'Update answers the `ts` of the version it read',
    breaks: ['DOC-UPDATE-004'],
    area: 'core',
    description: 'The answer of a top-level Update carries the `ts` the document had before the Update.',
    apply: () => {
      const latestTs = new Map<string, unknown>();
      return {
        json: (body, ctx) => {
          const resource = v4Resource(body);
          const key = refKey(resource?.ref);
          const previous = key === undefined ? undefined : latestTs.get(key);
          for (const record of records(body)) {
            const recordKey = refKey(record.ref);
            if (recordKey !== undefined) latestTs.set(recordKey, record.ts);
          }
          if (topLevelForm(ctx.original) !== 'update' || ctx.status !== 200 || previous === undefined || String(previous) === String(resource!.ts)) return undefined;
          resource!.ts = previous;
          return body;
        },
      };
    },
  },
  {
    id: 'DOC-UPDATE-UPSERTS',
    title: 'Update of a missing document creates it',
    breaks: ['DOC-UPDATE-005'],
    area: 'core',
    description: 'A top-level Update is sent as "update when it exists, else create it".',
    apply: () => ({ request: upsert('update') }),
  },
  {
    id: 'DOC-UPDATE-ARRAYS-MERGED',
    title: 'Update merges arrays element by element',
    breaks: ['DOC-UPDATE-006'],
    area: 'core',
    description: 'Remembers each document\'s latest data; a top-level Update that sets a top-level array field shorter than the stored one keeps the stored elements past its end (a deep merge that treats arrays as index-keyed objects).',
    apply: () => {
      const memory = new RecordMemory();
      return {
        request: rewriteExpression((expression) => {
          const data = isJsonObject(expression) && 'update' in expression ? dataMembers(expression) : undefined;
          const key = isJsonObject(expression) ? refKey(expression.update) : undefined;
          const stored = key === undefined ? undefined : memory.get(key)?.data;
          if (data === undefined || !isJsonObject(stored)) return 0;
          let merged = 0;
          for (const [field, value] of Object.entries(data)) {
            const before = stored[field];
            if (!Array.isArray(value) || !Array.isArray(before) || before.length <= value.length) continue;
            data[field] = [...value, ...before.slice(value.length).map(asExpression)];
            merged += 1;
          }
          return merged;
        }),
        json: (body) => {
          memory.learn(body);
          return undefined;
        },
      };
    },
  },
  {
    id: 'DOC-REPLACE-ANSWERS-PREVIOUS',
    title: 'Replace answers the version it replaced',
    breaks: ['DOC-REPLACE-002'],
    area: 'core',
    description: 'The answer of a top-level Replace is the document as it was before (its old `ts` and `data`), as Delete answers.',
    apply: () => {
      const memory = new RecordMemory();
      return {
        json: (body, ctx) => {
          const key = refKey(v4Resource(body)?.ref);
          const previous = key === undefined ? undefined : memory.get(key);
          memory.learn(body);
          if (topLevelForm(ctx.original) !== 'replace' || ctx.status !== 200 || previous === undefined) return undefined;
          (body as JsonObject).resource = previous;
          return body;
        },
      };
    },
  },
  {
    id: 'DOC-REPLACE-UPSERTS',
    title: 'Replace of a missing document creates it',
    breaks: ['DOC-REPLACE-003'],
    area: 'core',
    description: 'A top-level Replace is sent as "replace when it exists, else create it".',
    apply: () => ({ request: upsert('replace') }),
  },
  {
    id: 'DOC-DELETE-MISSING-NULL',
    title: 'Delete of a missing document answers null',
    breaks: ['DOC-DELETE-003'],
    area: 'core',
    description: 'A top-level Delete that fails with 404 `instance not found` answers 200 `{"resource": null}` (delete treated as idempotent).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => topLevelForm(ctx.original) === 'delete' && res.status === 404 && hasErrorCode(bodyJson(res), 'instance not found'),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'DOC-RECREATED-KEEPS-OLD-FIELDS',
    title: 'A re-created document keeps the deleted version\'s fields',
    breaks: ['DOC-LIFE-002'],
    area: 'core',
    description: 'Remembers the data of deleted documents; once a document is created again with the same id, every answer carrying it merges the old fields under the new ones.',
    apply: () => {
      const deleted = new Map<string, JsonObject>();
      const revived = new Map<string, JsonObject>();
      return {
        json: (body, ctx) => {
          const form = topLevelForm(ctx.original);
          const resource = v4Resource(body);
          const key = refKey(resource?.ref);
          if (form === 'delete' && ctx.status === 200 && key !== undefined && isJsonObject(resource!.data)) deleted.set(key, resource!.data);
          if (form === 'create' && ctx.status === 201 && key !== undefined && deleted.has(key)) revived.set(key, deleted.get(key)!);
          let merged = 0;
          for (const record of records(body)) {
            const old = revived.get(refKey(record.ref) ?? '');
            if (old === undefined || !isJsonObject(record.data)) continue;
            record.data = { ...old, ...record.data };
            merged += 1;
          }
          return merged > 0 ? body : undefined;
        },
      };
    },
  },
  {
    id: 'COLL-LIST-EMPTY',
    title: 'Listing collections answers nothing',
    breaks: ['COLL-GET-002'],
    area: 'core',
    description: 'A page answering a query over `collections` is empty.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'collections') && !expressionUses(ctx.original, 'create_collection') && Array.isArray(v4Resource(body)?.data),
        (body) => {
          const resource = v4Resource(body)!;
          const had = (resource.data as unknown[]).length;
          resource.data = [];
          return had;
        },
      ),
    }),
  },
  {
    id: 'COLL-HISTORY-DAYS-DROPPED',
    title: 'Collection records lack `history_days`',
    breaks: ['COLL-CREATE-001', 'COLL-CREATE-005', 'COLL-CREATE-006'],
    area: 'core',
    description: '`history_days` is removed from every collection record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'collections' ? deleteKeys(record, 'history_days', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'COLL-REF-INTERNAL-ID',
    title: 'Collection refs carry an internal number instead of the name',
    breaks: ['COLL-CREATE-002'],
    area: 'core',
    description: 'The `ref` of every collection record names the collection by an internal number (`{"id": "1042", …}`) instead of its name.',
    apply: () => {
      const numbers = new Map<string, string>();
      return {
        json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
          const ref = nativeCollectionOf(record) === 'collections' && isJsonObject(record.ref) && isJsonObject(record.ref['@ref']) ? record.ref['@ref'] : undefined;
          if (ref === undefined || typeof ref.id !== 'string') return n;
          if (!numbers.has(ref.id)) numbers.set(ref.id, String(1000 + numbers.size));
          ref.id = numbers.get(ref.id)!;
          return n + 1;
        }, 0)),
      };
    },
  },
  {
    id: 'SCHEMA-UPDATE-UNCHECKED',
    title: 'Update and Replace of collections, databases and keys store what their creation refuses',
    breaks: ['COLL-LIFE-006', 'DB-LIFE-008', 'KEY-LIFE-005'],
    area: 'core',
    description: 'A top-level `update` or `replace` of a collection, database or key refused with `validation failed` answers 200 with its ref, as a server that checks these records on creation only would (nothing is written).',
    apply: () => acceptedModification((body, target) => hasErrorCode(body, 'validation failed') && (['collection', 'database'].includes(schemaRefOf(target)?.kind ?? '') || isKeyRef(target))),
  },
  {
    id: 'COLL-NAME-OPTIONAL',
    title: 'CreateCollection without a name names it "undefined"',
    breaks: ['COLL-CREATE-003'],
    area: 'core',
    description: 'A `create_collection` without `name` is sent with `name: "undefined"`, so it succeeds instead of answering 400 `validation failed`.',
    apply: () => ({ request: nameDefaultsToUndefined('create_collection') }),
  },
  {
    id: 'COLL-CREATE-CLASS-UNKNOWN',
    title: '`create_class` is not a known function',
    breaks: ['COLL-CREATE-007'],
    area: 'core',
    description: 'A query using `create_class` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => expressionUses(ctx.original, 'create_class'),
        (res) => answerError(res, 400, 'invalid expression', 'No form/function found, or invalid argument keys: { create_class }.'),
      ),
    }),
  },
  {
    id: 'COLL-HISTORY-DAYS-UNCHECKED',
    title: 'A bad `history_days` is ignored',
    breaks: ['COLL-CREATE-008'],
    area: 'core',
    description: 'A `create_collection` whose `history_days` is not a non-negative integer is sent without it, so it succeeds with the default.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const members = isJsonObject(expression) ? objectMembers(expression.create_collection) : undefined;
        if (members === undefined || !('history_days' in members)) return 0;
        const days = members.history_days;
        if (isJsonInteger(days) && BigInt(String(days)) >= 0n) return 0;
        delete members.history_days;
        return 1;
      }),
    }),
  },
  {
    id: 'COLL-HISTORY-DAYS-NOT-STORED',
    title: '`history_days` is echoed but not stored',
    breaks: ['COLL-GET-001', 'COLL-LIFE-005'],
    area: 'core',
    description: 'Collection records answered by anything but CreateCollection carry a fixed `history_days` (30, as if a default) instead of the stored one.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => !expressionUses(ctx.original, 'create_collection') && !expressionUses(ctx.original, 'create_class'),
        (body) => records(body).reduce((n, record) => {
          if (nativeCollectionOf(record) !== 'collections' || !isJsonInteger(record.history_days) || String(record.history_days) === '30') return n;
          record.history_days = jsonInt(30);
          return n + 1;
        }, 0),
      ),
    }),
  },
  {
    id: 'COLL-DELETE-ANSWERS-REF',
    title: 'Delete of a collection answers its ref',
    breaks: ['COLL-LIFE-001'],
    area: 'core',
    description: 'A top-level Delete of a collection answers the collection\'s ref instead of its record.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'delete' && ctx.status === 200 && v4Resource(body) !== undefined && nativeCollectionOf(v4Resource(body)!) === 'collections',
        (body) => {
          (body as JsonObject).resource = v4Resource(body)!.ref;
        },
      ),
    }),
  },
  {
    id: 'COLL-DELETE-TS-IS-DELETE-TIME',
    title: 'Delete of a collection answers the deletion time as `ts`',
    breaks: ['COLL-LIFE-001'],
    area: 'core',
    description: 'A top-level Delete of a collection answers its record with `ts` set to the transaction time of the deletion.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'delete' && ctx.status === 200 && v4Resource(body) !== undefined && nativeCollectionOf(v4Resource(body)!) === 'collections' && /^\d+$/.test(ctx.headers['x-txn-time'] ?? ''),
        (body, ctx) => {
          const resource = v4Resource(body)!;
          if (String(resource.ts) === ctx.headers['x-txn-time']) return 0;
          resource.ts = jsonInt(BigInt(ctx.headers['x-txn-time']!));
          return 1;
        },
      ),
    }),
  },
  {
    id: 'COLL-DELETE-KEEPS-DOCUMENTS',
    title: 'Documents outlive their deleted collection',
    breaks: ['COLL-LIFE-002'],
    area: 'core',
    description: 'Remembers documents and deleted collections; a top-level Get of a document whose collection was deleted answers the remembered document instead of an error.',
    apply: () => {
      const memory = new RecordMemory();
      const deletedCollections = new Set<string>();
      return {
        response: (res, ctx) => {
          const body = bodyJson(res);
          memory.learn(body);
          const form = topLevel(ctx.original);
          const resource = v4Resource(body);
          if (form !== undefined && 'delete' in form && res.status === 200 && resource !== undefined && nativeCollectionOf(resource) === 'collections' && typeof resource.name === 'string') deletedCollections.add(resource.name);
          const key = refKey(form?.get);
          const remembered = key === undefined ? undefined : memory.get(key);
          if (key === undefined || remembered === undefined || !deletedCollections.has(key.split('/')[0]!) || !isNotFound(res.status, body)) return undefined;
          return withStatus(withJsonBody(res, { resource: remembered }), 200);
        },
      };
    },
  },
  {
    id: 'COLL-MISSING-CREATE-404',
    title: 'Create in a missing collection answers 404',
    breaks: ['COLL-LIFE-003', 'COLL-LIFE-004'],
    area: 'core',
    description: 'A top-level Create that fails with 400 `invalid ref` (its collection is deleted or never existed) answers 404 `instance not found`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => topLevelForm(ctx.original) === 'create' && res.status === 400 && hasErrorCode(bodyJson(res), 'invalid ref'),
        (res) => answerError(res, 404, 'instance not found', 'Collection not found.', ['create']),
      ),
    }),
  },
  {
    id: 'COLL-CREATED-ON-FIRST-WRITE',
    title: 'Create in a missing collection creates the collection',
    breaks: ['COLL-LIFE-004', 'COLL-LIFE-003'],
    area: 'core',
    description: 'A top-level Create into a collection that does not exist first creates the collection (as document stores that create collections implicitly do).',
    apply: () => ({
      request: (req) => {
        const expression = topLevel(req);
        const key = expression !== undefined && 'create' in expression && 'params' in expression ? refKey(expression.create) : undefined;
        if (key === undefined) return undefined;
        const coll = key.startsWith('collections/') ? key.slice('collections/'.length) : isDocumentKey(key) ? key.split('/')[0]! : undefined;
        if (coll === undefined) return undefined;
        const ensure = { if: { exists: { collection: coll } }, then: null, else: { create_collection: { object: { name: coll } } } };
        return { ...req, body: Buffer.from(stringifyJson({ do: [ensure, expression] })) };
      },
    }),
  },
  {
    id: 'COLL-UPDATE-HISTORY-DAYS-IGNORED',
    title: 'Update of a collection ignores `history_days`',
    breaks: ['COLL-LIFE-005'],
    area: 'core',
    description: 'A top-level Update of a collection is sent without its `history_days`, so the old value stays.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const members = isJsonObject(expression) && refKey(expression.update)?.startsWith('collections/') ? objectMembers(expression.params) : undefined;
        return members !== undefined ? deleteKeys(members, 'history_days', (object) => object === members) : 0;
      }),
    }),
  },
  {
    id: 'DB-REF-WRONG-NATIVE-COLLECTION',
    title: 'Database refs point at `database`',
    breaks: ['DB-CREATE-002'],
    area: 'core',
    description: 'In every ref, the native collection id `databases` becomes `database`.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => refPayloads(body).reduce((n, ref) => {
        if (ref.id !== 'databases' || 'collection' in ref || 'class' in ref) return n;
        ref.id = 'database';
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'DB-DATA-DROPPED',
    title: 'Database records lose `data`',
    breaks: ['DB-CREATE-007'],
    area: 'core',
    description: '`data` is removed from every database record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'databases' ? deleteKeys(record, 'data', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'DB-CREATE-200',
    title: 'CreateDatabase answers 200',
    breaks: ['DB-CREATE-001'],
    area: 'core',
    description: 'A top-level `create_database` answers 200 instead of 201 (only document Creates get 201).',
    apply: () => ({
      response: rewriteResponse((res, ctx) => topLevelForm(ctx.original) === 'create_database' && res.status === 201, (res) => withStatus(res, 200)),
    }),
  },
  {
    id: 'DB-NAME-OPTIONAL',
    title: 'CreateDatabase without a name names it "undefined"',
    breaks: ['DB-CREATE-003'],
    area: 'core',
    description: 'A `create_database` without `name` is sent with `name: "undefined"`, so it succeeds instead of answering 400 `validation failed`.',
    apply: () => ({ request: nameDefaultsToUndefined('create_database') }),
  },
  {
    id: 'DB-GET-TS-IS-READ-TIME',
    title: 'Get of a database answers the read time as `ts`',
    breaks: ['DB-GET-001'],
    area: 'core',
    description: 'A top-level Get of a database answers its record with `ts` set to the transaction time of the read.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'get' && ctx.status === 200 && v4Resource(body) !== undefined && nativeCollectionOf(v4Resource(body)!) === 'databases' && /^\d+$/.test(ctx.headers['x-txn-time'] ?? ''),
        (body, ctx) => {
          const resource = v4Resource(body)!;
          if (String(resource.ts) === ctx.headers['x-txn-time']) return 0;
          resource.ts = jsonInt(BigInt(ctx.headers['x-txn-time']!));
          return 1;
        },
      ),
    }),
  },
  {
    id: 'DB-GET-DROPS-DATA',
    title: 'Get of a database loses its `data`',
    breaks: ['DB-GET-001'],
    area: 'core',
    description: 'A top-level Get of a database answers its record without `data` (only CreateDatabase echoes it).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'get' && ctx.status === 200 && v4Resource(body) !== undefined && nativeCollectionOf(v4Resource(body)!) === 'databases',
        (body) => deleteKeys(v4Resource(body)!, 'data', (object) => object === v4Resource(body)),
      ),
    }),
  },
  {
    id: 'DB-GET-MISSING-403',
    title: 'Get of a missing database answers 403',
    breaks: ['DB-GET-002'],
    area: 'core',
    description: 'A top-level Get of a database name that does not exist answers 403 `permission denied`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => refKey(topLevel(ctx.original)?.get)?.startsWith('databases/') === true && isNotFound(res.status, bodyJson(res)),
        (res) => answerError(res, 403, 'permission denied', 'Insufficient privileges to perform the action.', ['get']),
      ),
    }),
  },
  {
    id: 'DB-DELETE-TS-IS-DELETE-TIME',
    title: 'Delete of a database answers the deletion time as `ts`',
    breaks: ['DB-LIFE-001'],
    area: 'core',
    description: 'A top-level Delete of a database answers its record with `ts` set to the transaction time of the deletion.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'delete' && ctx.status === 200 && v4Resource(body) !== undefined && nativeCollectionOf(v4Resource(body)!) === 'databases' && /^\d+$/.test(ctx.headers['x-txn-time'] ?? ''),
        (body, ctx) => {
          const resource = v4Resource(body)!;
          if (String(resource.ts) === ctx.headers['x-txn-time']) return 0;
          resource.ts = jsonInt(BigInt(ctx.headers['x-txn-time']!));
          return 1;
        },
      ),
    }),
  },
  {
    id: 'DB-DELETED-KEY-NOT-FOUND',
    title: 'A key of a deleted database answers 404',
    breaks: ['DB-LIFE-002', 'DB-LIFE-004'],
    area: 'core',
    description: 'Learns the keys the run creates; a 401 answer to a request made with one of them becomes 404 `instance not found` (the server reports the missing database instead of refusing the key).',
    apply: () => {
      const ledger = new KeyLedger();
      return {
        json: (body) => {
          ledger.learnFrom(body);
          return undefined;
        },
        response: rewriteResponse(
          (res, ctx) => res.status === 401 && ledger.bySecret(requestSecret(ctx.original) ?? '') !== undefined,
          (res) => answerError(res, 404, 'instance not found', 'Database not found.'),
        ),
      };
    },
  },
  {
    id: 'DB-DELETED-TOKEN-NOT-FOUND',
    title: 'A token of a deleted database answers 404',
    breaks: ['DB-LIFE-003'],
    area: 'auth',
    description: 'Learns the tokens the run issues; a 401 answer to a request made with one of them (`POST /` or `GET /tokens/self`) becomes 404 `instance not found`.',
    apply: () => {
      const tokens = new TokenLedger();
      return {
        json: (body, ctx) => {
          tokens.learnFrom(body, requestSecret(ctx.original));
          return undefined;
        },
        response: rewriteResponse(
          (res, ctx) => res.status === 401 && tokens.ofRequest(ctx.original) !== undefined,
          (res) => answerError(res, 404, 'instance not found', 'Database not found.'),
        ),
      };
    },
  },
  {
    id: 'DB-RECREATED-INHERITS-COLLECTIONS',
    title: 'A database created again inherits the deleted one\'s collections',
    breaks: ['DB-LIFE-005'],
    area: 'core',
    description: 'Learns which collections keys of each database created; once a database is deleted and a key of a new one with the same name asks for one of those collections, Exists answers true and Get answers the old record (storage keyed by database name).',
    apply: () => {
      const ledger = new KeyLedger();
      const created = new Map<string, Map<string, string>>();
      const orphaned = new Map<string, Map<string, string>>();
      return {
        response: (res, ctx) => {
          const body = bodyJson(res);
          ledger.learnFrom(body);
          const form = topLevel(ctx.original);
          const resource = v4Resource(body);
          const database = ledger.bySecret(requestSecret(ctx.original) ?? '')?.database;
          if (database !== undefined && res.status === 201 && resource !== undefined && nativeCollectionOf(resource) === 'collections' && typeof resource.name === 'string') {
            created.set(database, (created.get(database) ?? new Map()).set(resource.name, stringifyJson(resource)));
          }
          if (form !== undefined && 'delete' in form && res.status === 200 && resource !== undefined && nativeCollectionOf(resource) === 'databases') {
            const deleted = stringifyJson(resource.ref);
            orphaned.set(deleted, new Map([...(orphaned.get(deleted) ?? []), ...(created.get(deleted) ?? [])]));
            created.delete(deleted);
          }
          const key = refKey(form?.get ?? form?.exists);
          const old = database === undefined || key === undefined || !key.startsWith('collections/') ? undefined : orphaned.get(database)?.get(key.slice('collections/'.length));
          if (old === undefined || form === undefined || Object.keys(form).length !== 1) return undefined;
          if ('exists' in form && res.status === 200 && isJsonObject(body) && body.resource === false) return withJsonBody(res, { resource: true });
          if ('get' in form && isNotFound(res.status, body)) return withStatus(withJsonBody(res, { resource: parseJson(old) }), 200);
          return undefined;
        },
      };
    },
  },
  {
    id: 'DB-CHILD-SEES-OTHER-COLLECTIONS',
    title: 'Collection names resolve outside the key\'s database',
    breaks: ['DB-CHILD-001'],
    area: 'core',
    description: 'A top-level Get of a collection the key\'s database lacks answers a same-named collection another key created; Exists answers true.',
    apply: () => crossDatabaseLookup((key) => key.startsWith('collections/')),
  },
  {
    id: 'DB-NAMES-GLOBAL',
    title: 'Database names resolve outside the key\'s database',
    breaks: ['DB-CHILD-002'],
    area: 'core',
    description: 'A top-level Get of a database the key\'s database lacks answers a same-named database another key created; Exists answers true.',
    apply: () => crossDatabaseLookup((key) => key.startsWith('databases/')),
  },
  {
    id: 'DB-DOCUMENTS-SHARED',
    title: 'Documents resolve across databases',
    breaks: ['DB-CHILD-003'],
    area: 'core',
    description: 'A top-level Get of a document missing from the key\'s database answers the document of the same collection name and id another key created; Exists answers true.',
    apply: () => crossDatabaseLookup(isDocumentKey),
  },
  {
    id: 'KEY-NAME-ALTERED',
    title: 'Key records carry a `name` other than the one given',
    breaks: ['KEY-CREATE-006'],
    area: 'core',
    description: 'Every string `name` of a key record is answered upper-cased, as from a server that normalises labels.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'keys' || typeof record.name !== 'string' || record.name === record.name.toUpperCase()) return n;
        record.name = record.name.toUpperCase();
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'KEY-NAME-NOT-STRING-KEPT',
    title: 'A key keeps a `name` that is not a string',
    breaks: ['KEY-LIFE-005'],
    area: 'core',
    description: 'A top-level `update` of a key refused with `validation failed` whose new `name` is not a string answers 200 with the key\'s ref and that `name`, as a server that keeps names without checking them would (nothing is written).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const expression = v4Expression(ctx.original);
          if (res.status !== 400 || topLevelForm(ctx.original) !== 'update' || !isJsonObject(expression) || !isKeyRef(expression.update)) return false;
          const params = isJsonObject(expression.params) && isJsonObject(expression.params.object) ? expression.params.object : undefined;
          return params !== undefined && 'name' in params && typeof params.name !== 'string' && hasErrorCode(bodyJson(res), 'validation failed');
        },
        (res, ctx) => {
          const expression = v4Expression(ctx.original) as JsonObject;
          const name = ((expression.params as JsonObject).object as JsonObject).name;
          return withStatus(withJsonBody(res, { resource: { ref: expression.update, ts: jsonInt(Date.now() * 1000), name } }), 200);
        },
      ),
    }),
  },
  {
    id: 'KEY-ROLE-NOT-ECHOED',
    title: 'Key records always say `server`',
    breaks: ['KEY-ROLE-001'],
    area: 'core',
    description: 'The `role` of every key record reads `server`, whatever role was given.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'keys' || record.role === 'server' || typeof record.role !== 'string') return n;
        record.role = 'server';
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'KEY-HASH-NOT-BCRYPT',
    title: '`hashed_secret` is not a BCrypt hash',
    breaks: ['KEY-SECRET-004'],
    area: 'core',
    description: 'Every `hashed_secret` is replaced by a 64-character hex string.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => {
        let changed = 0;
        forEachObject(body, (object) => {
          if (typeof object.hashed_secret === 'string') {
            object.hashed_secret = Buffer.from(object.hashed_secret).toString('hex').padEnd(64, '0').slice(0, 64);
            changed += 1;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'KEY-SECRET-ON-READ',
    title: '`secret` re-added to key reads',
    breaks: ['KEY-SECRET-002', 'KEY-SECRET-003', 'KEY-SECRET-005', 'KEY-LIFE-003'],
    area: 'core',
    description: 'Remembers each secret a CreateKey answer carried and adds it back to every later key record with the same ref.',
    apply: () => {
      const secrets = new Map<string, string>();
      const refKey = (record: JsonObject) => stringifyJson(record.ref);
      return {
        json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
          if (nativeCollectionOf(record) !== 'keys') return n;
          if (typeof record.secret === 'string') {
            secrets.set(refKey(record), record.secret);
            return n;
          }
          const secret = secrets.get(refKey(record));
          if (secret === undefined) return n;
          record.secret = secret;
          return n + 1;
        }, 0)),
      };
    },
  },
  {
    id: 'KEY-DELETED-STILL-WORKS',
    title: 'A deleted key keeps working',
    breaks: ['KEY-LIFE-001'],
    area: 'core',
    description: 'Learns the keys the run creates; once a key is deleted, requests made with its secret are forwarded with another live key of the same database and role.',
    apply: () => {
      const ledger = new KeyLedger();
      const deleted = new Set<string>();
      return {
        request: (req) => {
          const secret = requestSecret(req);
          if (secret === undefined || !deleted.has(secret)) return undefined;
          const key = ledger.bySecret(secret)!;
          const standIn = ledger.sibling(key, key.role, deleted);
          return standIn === undefined ? undefined : withSecret(req, standIn.secret);
        },
        json: (body, ctx) => {
          ledger.learnFrom(body);
          const resource = v4Resource(body);
          if (topLevelForm(ctx.original) === 'delete' && ctx.status === 200 && resource !== undefined) {
            const key = ledger.byRef(resource.ref);
            if (key !== undefined) deleted.add(key.secret);
          }
          return undefined;
        },
      };
    },
  },
  {
    id: 'KEY-SECRET-LEAKED-IN-ERRORS',
    title: 'Key secrets leak into error descriptions',
    breaks: ['KEY-SECRET-005'],
    area: 'core',
    description: 'Remembers the latest key secret a CreateKey answer carried and appends it to the description of every later error.',
    apply: () => {
      let latest: string | undefined;
      return {
        json: rewriteJson(() => true, (body) => {
          for (const record of records(body)) if (typeof record.secret === 'string') latest = record.secret;
          if (latest === undefined) return 0;
          const secret = latest;
          return v4Errors(body).reduce((n, error) => {
            error.description = `${String(error.description)} (key ${secret})`;
            return n + 1;
          }, 0);
        }),
      };
    },
  },
  {
    id: 'TXN-TS-GOES-BACKWARDS',
    title: 'Later writes get earlier timestamps',
    breaks: ['TXN-ORDER-001'],
    area: 'core',
    description: 'Each answer shifts every `ts` and `x-txn-time` one second further into the past than the answer before, so time runs backwards across requests.',
    apply: () => {
      let shift = 0n;
      return {
        response: rewriteResponse(
          (res, ctx) => isV4Query(ctx.original) && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
          (res) => {
            shift += 1_000_000n;
            const body = bodyJson(res);
            for (const record of records(body)) {
              if (isLosslessNumber(record.ts) && isJsonInteger(record.ts)) record.ts = jsonInt(BigInt(String(record.ts)) - shift);
            }
            const shifted = withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) - shift).toString());
            return body === undefined ? shifted : { ...shifted, body: Buffer.from(stringifyJson(body)) };
          },
        ),
      };
    },
  },
  {
    id: 'TXN-TS-PER-WRITE',
    title: 'Each write of a request gets its own `ts`',
    breaks: ['TXN-ATOMIC-001'],
    area: 'core',
    description: 'When an answer holds several records written at one `ts`, the second gets `ts + 1`, the third `ts + 2`, and so on (a timestamp per operation instead of per transaction).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => writes(ctx.original) && Array.isArray(isJsonObject(body) ? body.resource : undefined),
        (body) => {
          const written = ((body as JsonObject).resource as unknown[]).filter((item): item is JsonObject => isJsonObject(item) && isJsonInteger(item.ts));
          written.forEach((record, index) => {
            record.ts = jsonInt(BigInt(String(record.ts)) + BigInt(index));
          });
          return Math.max(0, written.length - 1);
        },
      ),
    }),
  },
  {
    id: 'TXN-ABORT-KEEPS-EARLIER-WRITES',
    title: 'Abort does not undo the writes before it',
    breaks: ['TXN-ATOMIC-002'],
    area: 'core',
    description: 'A top-level `do` ending in `abort` commits its earlier steps (sent without the abort) and still answers 400 `transaction aborted`.',
    apply: () => {
      const aborted = new WeakMap<ProxiedRequest, { message: unknown; at: number }>();
      return {
        request: (req) => {
          const expression = topLevel(req);
          const steps = expression !== undefined && Object.keys(expression).length === 1 && Array.isArray(expression.do) ? expression.do : undefined;
          const last = steps?.at(-1);
          if (steps === undefined || steps.length < 2 || !isJsonObject(last) || !('abort' in last)) return undefined;
          const forwarded = { ...req, body: Buffer.from(stringifyJson({ do: [...steps.slice(0, -1), null] })) };
          aborted.set(forwarded, { message: last.abort, at: steps.length - 1 });
          return forwarded;
        },
        response: (res, ctx) => {
          const abort = aborted.get(ctx.request);
          if (abort === undefined) return undefined;
          return answerError(res, 400, 'transaction aborted', typeof abort.message === 'string' ? abort.message : 'aborted', ['do', jsonInt(abort.at)]);
        },
      };
    },
  },
  {
    id: 'TXN-UNIQUE-VIOLATION-KEEPS-EARLIER-WRITES',
    title: 'A unique-index violation does not undo the writes before it',
    breaks: ['TXN-ATOMIC-003'],
    area: 'core',
    description: 'Learns unique indexes on one `data` field and the values documents of their collection hold; a top-level `do` whose Create repeats a taken value commits the steps before that Create and answers 400 `instance not unique`.',
    apply: () => {
      const uniqueFields = new Map<string, string>();
      const taken = new Set<string>();
      const violations = new WeakMap<ProxiedRequest, number>();
      const learn = (body: unknown) => {
        for (const record of records(body)) {
          const terms = Array.isArray(record.terms) ? record.terms : [];
          const field = terms.length === 1 && isJsonObject(terms[0]) && Array.isArray(terms[0].field) ? terms[0].field : [];
          const source = refKey(record.source);
          if (nativeCollectionOf(record) === 'indexes' && record.unique === true && source?.startsWith('collections/') && field.length === 2 && field[0] === 'data' && typeof field[1] === 'string') {
            uniqueFields.set(source.slice('collections/'.length), field[1]);
          }
          const key = refKey(record.ref);
          const uniqueField = key === undefined ? undefined : uniqueFields.get(key.split('/')[0]!);
          if (key !== undefined && isDocumentKey(key) && uniqueField !== undefined && isJsonObject(record.data) && uniqueField in record.data) {
            taken.add(`${key.split('/')[0]}\u0000${stringifyJson(record.data[uniqueField])}`);
          }
        }
      };
      const violates = (step: unknown): boolean => {
        const key = isJsonObject(step) && 'create' in step ? refKey(step.create) : undefined;
        const coll = key === undefined ? undefined : key.startsWith('collections/') ? key.slice('collections/'.length) : key.split('/')[0]!;
        const field = coll === undefined ? undefined : uniqueFields.get(coll);
        const value = field === undefined ? undefined : dataMembers(step as JsonObject)?.[field];
        return value !== undefined && taken.has(`${coll}\u0000${stringifyJson(value)}`);
      };
      return {
        request: (req) => {
          const expression = topLevel(req);
          const steps = expression !== undefined && Object.keys(expression).length === 1 && Array.isArray(expression.do) ? expression.do : [];
          const at = steps.findIndex(violates);
          if (at < 1) return undefined;
          const forwarded = { ...req, body: Buffer.from(stringifyJson({ do: [...steps.slice(0, at), null] })) };
          violations.set(forwarded, at);
          return forwarded;
        },
        response: (res, ctx) => {
          learn(bodyJson(res));
          const at = violations.get(ctx.request);
          return at === undefined ? undefined : answerError(res, 400, 'instance not unique', 'document is not unique.', ['do', jsonInt(at), 'create']);
        },
      };
    },
  },
  {
    id: 'TXN-READS-MISS-OWN-WRITES',
    title: 'Reads inside a request do not see its own writes',
    breaks: ['TXN-ATOMIC-004'],
    area: 'core',
    description: 'In a request that writes, every Get and Exists reads the snapshot from before the request (sent with `ts` set to a millisecond before it arrived).',
    apply: () => ({
      request: (req) => {
        if (!writes(req)) return undefined;
        const snapshot = jsonInt(BigInt(Date.now()) * 1000n - 1000n);
        return rewriteExpression((expression) => {
          let changed = 0;
          forEachObject(expression, (object) => {
            if (('get' in object || 'exists' in object) && Object.keys(object).length === 1) {
              object.ts = snapshot;
              changed += 1;
            }
          });
          return changed;
        })!(req);
      },
    }),
  },
  {
    id: 'TXN-CONC-LOST-UPDATE',
    title: 'Concurrent Updates of one document are lost',
    breaks: ['TXN-CONC-001'],
    area: 'core',
    description: 'A top-level Update that arrives while another Update of the same document is in flight is answered as a Get (200, the write silently dropped).',
    apply: () => {
      const inFlight = new InFlight();
      const target = (req: ProxiedRequest) => {
        const expression = topLevel(req);
        return expression !== undefined && 'update' in expression ? refKey(expression.update) : undefined;
      };
      return {
        request: (req) => {
          const key = target(req);
          if (key === undefined || inFlight.enter(key) === 0) return undefined;
          return { ...req, body: Buffer.from(stringifyJson({ get: topLevel(req)!.update })) };
        },
        response: (_res, ctx) => {
          const key = target(ctx.original);
          if (key !== undefined) inFlight.leave(key);
          return undefined;
        },
      };
    },
  },
  {
    id: 'TXN-CONC-UNIQUE-RACE-500',
    title: 'A lost race on a unique index answers 500',
    breaks: ['TXN-CONC-002'],
    area: 'core',
    description: 'While other Creates are in flight, a Create that fails with `instance not unique` answers 500 `internal server error` (the constraint error escapes unhandled).',
    apply: () => {
      const inFlight = new InFlight();
      const isCreate = (req: ProxiedRequest) => topLevelForm(req) === 'create';
      return {
        request: (req) => {
          if (isCreate(req)) inFlight.enter('create');
          return undefined;
        },
        response: (res, ctx) => {
          if (!isCreate(ctx.original)) return undefined;
          inFlight.leave('create');
          if (inFlight.count('create') === 0 || !hasErrorCode(bodyJson(res), 'instance not unique')) return undefined;
          return withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unique constraint violated during commit.' }] }), 500);
        },
      };
    },
  },
  {
    id: 'TXN-CONC-CREATES-CONTENDED',
    title: 'Concurrent Creates in one collection contend',
    breaks: ['TXN-CONC-003'],
    area: 'core',
    description: 'A top-level Create into a bare collection that arrives while another Create into it is in flight answers 409 `contended transaction` and writes nothing (a lock on the whole collection).',
    apply: () => {
      const inFlight = new InFlight();
      const contended = new WeakSet<ProxiedRequest>();
      const target = (req: ProxiedRequest) => {
        const expression = topLevel(req);
        const key = expression !== undefined && 'create' in expression ? refKey(expression.create) : undefined;
        return key?.startsWith('collections/') ? key : undefined;
      };
      return {
        request: (req) => {
          const key = target(req);
          if (key === undefined || inFlight.enter(key) === 0) return undefined;
          const forwarded = { ...req, body: Buffer.from('{"equals":[1,1]}') };
          contended.add(forwarded);
          return forwarded;
        },
        response: (res, ctx) => {
          const key = target(ctx.original);
          if (key !== undefined) inFlight.leave(key);
          if (!contended.has(ctx.request)) return undefined;
          return answerError(res, 409, 'contended transaction', 'Transaction was aborted due to detection of concurrent modification.');
        },
      };
    },
  },
  {
    id: 'HEADER-LAST-SEEN-AHEAD-REFUSED',
    title: 'An x-last-seen-txn ahead of the server is refused',
    breaks: ['PROTO-HEADER-004'],
    area: 'core',
    description: 'A request whose `x-last-seen-txn` is later than the latest `x-txn-time` answered so far answers 400 `bad request` (a server that refuses times it has not reached instead of waiting for them).',
    apply: () => {
      let latest = 0n;
      return {
        response: (res, ctx) => {
          const seen = ctx.original.headers['x-last-seen-txn'];
          if (seen !== undefined && /^\d+$/.test(seen) && latest > 0n && BigInt(seen) > latest) {
            return withStatus(withJsonBody(res, { errors: [{ code: 'bad request', description: "Invalid header 'x-last-seen-txn': Timestamp is in the future." }] }), 400);
          }
          const time = res.headers['x-txn-time'];
          if (time !== undefined && /^\d+$/.test(time) && BigInt(time) > latest) latest = BigInt(time);
          return undefined;
        },
      };
    },
  },
  {
    id: 'TXN-READ-TIME-LAGS',
    title: 'Reads carry a transaction time in the past',
    breaks: ['TXN-ORDER-002'],
    area: 'core',
    description: 'Answers of read-only queries carry an `x-txn-time` one second earlier than the server\'s (reads served from a lagging snapshot time).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => isV4Query(ctx.original) && res.status === 200 && !writes(ctx.original) && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
        (res) => withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) - 1_000_000n).toString()),
      ),
    }),
  },
  {
    id: 'TXN-STALE-READ',
    title: 'Reads miss the latest write',
    breaks: ['TXN-ORDER-003'],
    area: 'core',
    description: 'Remembers the transaction time of the latest write to each document; a read-only query\'s Get or Exists of that document reads the version from just before it (a replica one write behind).',
    apply: () => {
      const lastWrite = new Map<string, bigint>();
      return {
        request: (req) => {
          if (writes(req)) return undefined;
          return rewriteExpression((expression) => {
            let changed = 0;
            forEachObject(expression, (object) => {
              const key = refKey(object.get ?? object.exists);
              const at = key === undefined ? undefined : lastWrite.get(key);
              if (at === undefined || Object.keys(object).length !== 1) return;
              object.ts = jsonInt(at - 1n);
              changed += 1;
            });
            return changed;
          })!(req);
        },
        response: (res, ctx) => {
          const time = res.headers['x-txn-time'];
          if (!writes(ctx.original) || res.status >= 300 || !/^\d+$/.test(time ?? '')) return undefined;
          const keys = records(bodyJson(res)).map((record) => refKey(record.ref));
          forEachObject(v4Expression(ctx.original), (object) => keys.push(refKey(object.delete)));
          for (const key of keys) if (key !== undefined && isDocumentKey(key)) lastWrite.set(key, BigInt(time!));
          return undefined;
        },
      };
    },
  },
  {
    id: 'TXN-NOW-IS-WALL-CLOCK',
    title: '`now` reads the wall clock',
    breaks: ['TXN-TIME-001'],
    area: 'core',
    description: 'Each timestamp an answer to a query using `now` carries is one microsecond later than the one before it, starting one after the transaction time (the clock read at each evaluation).',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => expressionUses(ctx.original, 'now') || expressionUses(ctx.original, 'time'),
        (body) => {
          let drift = 0n;
          forEachObject(body, (object) => {
            const micros = typeof object['@ts'] === 'string' ? isoMicros(object['@ts']) : undefined;
            if (micros === undefined) return;
            drift += 1n;
            object['@ts'] = microsIso(micros + drift);
          });
          return Number(drift);
        },
      ),
    }),
  },
  {
    id: 'COLL-RENAME-REFUSED',
    title: 'Collections cannot be renamed',
    breaks: ['COLL-LIFE-008'],
    area: 'core',
    description: 'Update or Replace of a collection with a new `name` answers 400 `validation failed` ("Renaming collections is not supported.") and changes nothing (the name is taken out of the write).',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const object = collectionRenameObject(expression);
        if (object === undefined) return 0;
        delete object.name;
        return 1;
      }),
      response: rewriteResponse(
        (_res, ctx) => collectionRenameObject(v4Expression(ctx.original)) !== undefined,
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['name'], code: 'invalid value', description: 'Renaming collections is not supported.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'COLL-RENAME-LOSES-DOCUMENTS',
    title: 'A renamed collection loses its documents',
    breaks: ['COLL-LIFE-008'],
    area: 'core',
    description: 'Renaming a collection deletes its documents instead of moving them to the new name.',
    apply: () => ({ failpoints: ['COLLECTION-RENAME-LOSES-DOCUMENTS'] }),
  },
  {
    id: 'DOC-ID-ANY-STRING',
    title: 'Any string is a document id',
    breaks: ['DOC-CREATE-011'],
    area: 'core',
    description: 'A document id that is not a 64-bit integer (in `{"ref": …, "id": …}` or a long-form `@ref`) is accepted: the server is sent a numeric id made from it instead, so the document is created.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        const substitute = (id: unknown): string | undefined => (typeof id === 'string' && !isLongId(id) ? numericStandIn(id) : undefined);
        forEachObject(expression, (object) => {
          // `{"ref": …, "id": …}`, or a long-form `@ref` of a document (its collection has a collection of its own).
          const literal = isJsonObject(object['@ref']) ? object['@ref'] : undefined;
          const parent = isJsonObject(literal?.collection) ? literal.collection['@ref'] : undefined;
          const payload = literal === undefined ? ('ref' in object ? object : undefined) : isJsonObject(parent) && parent.collection !== undefined ? literal : undefined;
          const standIn = payload === undefined ? undefined : substitute(payload.id);
          if (standIn === undefined) return;
          payload!.id = standIn;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'VALUE-SHORT-REF-INVALID-REF',
    title: 'A malformed short-form ref answers `invalid ref`',
    breaks: ['PROTO-VALUE-014'],
    area: 'core',
    description: 'The `invalid expression` error of a short-form `@ref` that is not a ref path becomes `invalid ref` (`Ref \'<text>\' is not a valid ref path.`).',
    apply: () => ({
      json: rewriteJson(
        (body) => hasErrorCode(body, 'invalid expression'),
        (body) =>
          v4Errors(body).filter((error) => {
            if (error.description !== 'Invalid ref.') return false;
            error.code = 'invalid ref';
            error.description = 'Ref is not a valid ref path.';
            return true;
          }).length,
      ),
    }),
  },
  {
    id: 'VALUE-VAR-TYPE-INVALID-ARGUMENT',
    title: 'A variable name of the wrong type answers `invalid argument`',
    breaks: ['PROTO-VALUE-015'],
    area: 'core',
    description: 'The `invalid expression` error of a `var` whose name is not a string becomes `invalid argument`.',
    apply: () => ({
      json: rewriteJson(
        (body) => hasErrorCode(body, 'invalid expression'),
        (body) =>
          v4Errors(body).filter((error) => {
            if (!Array.isArray(error.position) || error.position.at(-1) !== 'var' || !/^String expected/.test(String(error.description))) return false;
            error.code = 'invalid argument';
            return true;
          }).length,
      ),
    }),
  },
  {
    id: 'DOC-NULLS-KEPT-IN-ARRAYS',
    title: 'Nulls inside arrays are stored',
    breaks: ['DOC-CREATE-012'],
    area: 'core',
    description: 'A write keeps `null` elements of the arrays it stores (only null fields are dropped).',
    apply: () => ({ failpoints: ['NULLS-KEPT-IN-ARRAYS'] }),
  },
  {
    id: 'QUERY-DEFAULT-VERSION-OMITTED',
    title: 'A lambda of the default version is answered without api_version',
    breaks: ['PROTO-VALUE-016'],
    area: 'core',
    description: '`"api_version": "2.12"` is removed from every `@query` answered (a server that keeps no version for an `@query` literal sent without one).',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let changed = 0;
          forEachObject(body, (object) => {
            if (!isJsonObject(object['@query']) || object['@query'].api_version !== '2.12') return;
            delete object['@query'].api_version;
            changed += 1;
          });
          return changed;
        },
      ),
    }),
  },
  {
    id: 'QUERY-LET-AS-SENT',
    title: 'A lambda\'s let is answered as a list of bindings',
    breaks: ['PROTO-VALUE-017'],
    area: 'core',
    description: 'In every `@query` answered, a `let` whose bindings are one object is answered with a list of one-binding objects (the text the driver sent).',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let changed = 0;
          forEachObject(body, (object) => {
            if (!isJsonObject(object['@query'])) return;
            forEachObject(object['@query'].expr, (inner) => {
              if (!isJsonObject(inner.let) || !('in' in inner)) return;
              inner.let = Object.entries(inner.let).map(([name, value]) => ({ [name]: value }));
              changed += 1;
            });
          });
          return changed;
        },
      ),
    }),
  },
  {
    id: 'ERROR-DESCRIPTIONS-OWN-WORDS',
    title: 'v4 errors are described in words of the server\'s own',
    breaks: ['PROTO-ERROR-015'],
    area: 'core',
    description: 'The descriptions the real service gives some v4 errors are replaced by a server\'s own wording (`No query provided.` → `Request body is empty.`, `Invalid time.` → `Invalid @ts value.`, …).',
    apply: () => {
      const OWN_WORDS: Record<string, string> = {
        'Allowed methods are GET, POST.': 'Method not allowed.',
        'Call performs a write, which is not allowed in get requests.': 'Writes are not allowed in a read-only request.',
        'No query provided.': 'Request body is empty.',
        'Invalid time.': 'Invalid @ts value.',
        'Invalid date.': 'Invalid @date value.',
        'Expression list cannot be empty.': 'Do requires at least one expression.',
      };
      return {
        json: rewriteJson(
          () => true,
          (body) =>
            v4Errors(body).filter((error) => {
              const own = typeof error.description === 'string' ? OWN_WORDS[error.description] : undefined;
              if (own === undefined) return false;
              error.description = own;
              return true;
            }).length,
        ),
      };
    },
  },
  {
    id: 'AUTH-V10-ONE-MESSAGE',
    title: '/query/1 words its 401 as the event endpoints do',
    breaks: ['PROTO-AUTH-008'],
    area: 'core',
    description: 'The 401 message `Access token required` of `/query/1` becomes `Invalid token, unable to authenticate request`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 401 && pathname(ctx.original) === '/query/1' && isJsonObject(body) && isJsonObject(body.error),
        (body) => {
          const error = (body as JsonObject).error as JsonObject;
          if (error.message !== 'Access token required') return 0;
          error.message = 'Invalid token, unable to authenticate request';
          return 1;
        },
      ),
    }),
  },
  {
    id: 'ERROR-WORDING-IGNORES-VERSION',
    title: 'Error descriptions say document and collection in every API version',
    breaks: ['PROTO-VERSION-010'],
    area: 'core',
    description: 'Below API version 2.7, the class and instance wording of error descriptions is replaced by the 2.7 wording (`Instance not found.` → `Document not found.`, `Class already exists.` → `Collection already exists.`, …).',
    apply: () => {
      const NEWER: Record<string, string> = {
        'Instance not found.': 'Document not found.',
        'Instance already exists.': 'Document already exists.',
        'Class already exists.': 'Collection already exists.',
        'instance data is not valid.': 'document data is not valid.',
      };
      return {
        json: rewriteJson(
          (_body, ctx) => ['2.0', '2.1', undefined].includes(apiVersion(ctx.original)),
          (body) =>
            v4Errors(body).filter((error) => {
              const description = String(error.description);
              const newer = NEWER[description] ?? description.replace(/^Ref refers to undefined class /, 'Ref refers to undefined collection ');
              if (newer === description) return false;
              error.description = newer;
              return true;
            }).length,
        ),
      };
    },
  },
  {
    id: 'TXN-NOW-BEHIND-READ-TIME',
    title: 'A read-only request answers a `now` earlier than its x-txn-time',
    breaks: ['TXN-TIME-001'],
    area: 'core',
    description: 'A read-only query using `now` carries an `x-txn-time` one second later than its `now` (its reads and its `now` come from two clocks).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => isV4Query(ctx.original) && res.status === 200 && !writes(ctx.original) && (expressionUses(ctx.original, 'now') || expressionUses(ctx.original, 'time')) && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
        (res) => withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) + 1_000_000n).toString()),
      ),
    }),
  },
  {
    id: 'LIMIT-BODY-DECIMAL-MEGABYTE',
    title: 'Bodies of a decimal megabyte are refused',
    breaks: ['LIMIT-BODY-001'],
    area: 'core',
    description: 'A request body of 1,000,000 bytes or more (up to 2 MiB) answers 413 `request too large`: the limit was set in decimal megabytes.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.body.length >= 1_000_000 && ctx.original.body.length <= 2 * 1024 * 1024,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ code: 'request too large', description: 'Request body exceeds 1 MB.' }] }), 413),
      ),
    }),
  },
  {
    id: 'LIMIT-BODY-413-HTML',
    title: 'An oversized body is refused with an HTML page',
    breaks: ['LIMIT-BODY-002'],
    area: 'core',
    description: 'A 413 answer carries a front proxy\'s HTML page instead of the documented JSON error body.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 413,
        (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'text/html' }, body: Buffer.from('<html><body><h1>413 Request Entity Too Large</h1></body></html>') }),
      ),
    }),
  },
  {
    id: 'LIMIT-NESTING-32',
    title: 'Expressions nested deeper than 32 levels are refused',
    breaks: ['LIMIT-BODY-003'],
    area: 'core',
    description: 'A `POST /` body nested deeper than 32 levels (and up to 1000) answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => {
          if (!isV4Query(ctx.original) || ctx.original.body.length > 1024 * 1024) return false;
          const depth = nestingDepth(ctx.original.body);
          return depth > 32 && depth <= 1000;
        },
        (res) => answerError(res, 400, 'invalid expression', 'Expression nested too deeply.'),
      ),
    }),
  },
  {
    id: 'LIMIT-NESTING-STACK-OVERFLOW',
    title: 'Very deep nesting overflows the stack',
    breaks: ['LIMIT-BODY-004'],
    area: 'core',
    description: 'A `POST /` body nested deeper than 10000 levels answers 500 `internal server error` (a recursive parser running out of stack).',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => isV4Query(ctx.original) && ctx.original.body.length <= 4 * 1024 * 1024 && nestingDepth(ctx.original.body) > 10_000,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ code: 'internal server error', description: 'Maximum call stack size exceeded.' }] }), 500),
      ),
    }),
  },
  {
    id: 'LIMIT-PAGE-SIZE-REFUSED',
    title: 'Paginate refuses a `size` above 100000',
    breaks: ['LIMIT-PAGE-001'],
    area: 'paging',
    description: 'A `paginate` whose integer `size` exceeds 100000 answers 400 `invalid argument` instead of being served as 100000.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          if (res.status !== 200) return false;
          let oversized = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if ('paginate' in object && isJsonInteger(object.size) && BigInt(String(object.size)) > 100_000n) oversized = true;
          });
          return oversized;
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['size'], code: 'invalid argument', description: 'Page size must be at most 100000.' }] }), 400),
      ),
    }),
  },
  {
    id: 'LIMIT-FEED-PAGE-SIZE-CLAMPED',
    title: 'A feed clamps an oversized `page_size`',
    breaks: ['LIMIT-PAGE-002'],
    area: 'events',
    description: 'A `/feed/1` request whose `page_size` exceeds 16000 is sent with `page_size: 16000` instead of being refused.',
    apply: () => ({
      request: (req) => {
        if (pathname(req) !== '/feed/1') return undefined;
        const parsed = tryParseJson(req.body);
        const body = parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
        if (body === undefined || !isJsonInteger(body.page_size) || BigInt(String(body.page_size)) <= 16_000n) return undefined;
        body.page_size = jsonInt(16_000);
        return { ...req, body: Buffer.from(stringifyJson(body)) };
      },
    }),
  },
  {
    id: 'LIMIT-EVENTS-OVERFLOW-AT-128',
    title: 'A transaction of exactly 128 events overflows',
    breaks: ['LIMIT-EVENTS-004'],
    area: 'events',
    description: 'In a feed page, the 128th event of one transaction is replaced by a `stream_overflow` error event (the limit checked with `>=` instead of `>`).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => pathname(ctx.original) === '/feed/1' && isJsonObject(body) && Array.isArray(body.events),
        (body) => {
          const events = (body as JsonObject).events as unknown[];
          const perTxn = new Map<string, number>();
          let replaced = 0;
          events.forEach((event, index) => {
            if (!isJsonObject(event) || event.type === 'error' || event.type === 'status') return;
            const txn = String(event.txn_ts);
            const seen = (perTxn.get(txn) ?? 0) + 1;
            perTxn.set(txn, seen);
            if (seen !== 128) return;
            events[index] = { type: 'error', error: { code: 'stream_overflow', message: 'Too many events in one transaction.' }, stats: event.stats };
            events.length = index + 1;
            replaced += 1;
          });
          return replaced;
        },
      ),
    }),
  },
  {
    id: 'LIMIT-EVENTS-REPLAY-AT-127',
    title: 'Replaying 127 events exceeds the replay volume',
    breaks: ['LIMIT-EVENTS-005'],
    area: 'events',
    description: 'On a stream, the 127th data event is replaced by a `stream_replay_volume_exceeded` error event and the stream ends (the limit off by two; the real service errs after 128 replayed events).',
    apply: () => ({
      stream: () => {
        let data = 0;
        return {
          onEvent: async (event, writer) => {
            if (writer.closed) return;
            if (isJsonObject(event) && event.type !== 'status' && event.type !== 'error') data += 1;
            if (data !== 127) return writer.emit(event);
            const error = { type: 'error', error: { code: 'stream_replay_volume_exceeded', message: 'Too many events to replay.' }, stats: (event as JsonObject).stats };
            // Flushed before the cut, so the suite reads the error event and then the end of the stream.
            await writer.writeRaw(`${stringifyJson(error)}\r\n`);
            writer.destroy();
          },
        };
      },
    }),
  },
  {
    id: 'LIMIT-EVENTS-OPEN-AFTER-ERROR',
    title: 'A stream stays open after an error event',
    breaks: ['LIMIT-EVENTS-003'],
    area: 'events',
    description: 'After an `error` event the stream is held open (nothing more is sent) instead of being closed.',
    apply: () => ({
      stream: () => ({
        onEvent: async (event, writer) => {
          if (!isJsonObject(event) || event.type !== 'error') return writer.emit(event);
          // A copy, so the proxy counts the held-open error as an application of the fault.
          writer.emit({ ...event });
          await writer.pause(30_000);
        },
      }),
    }),
  },
  {
    id: 'LIMIT-OPS-NOT-REPORTED',
    title: 'Feed events report no compute operations',
    breaks: ['LIMIT-OPS-002'],
    area: 'events',
    description: 'Every event of a feed page reports `compute_ops: 0` in its `stats`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => pathname(ctx.original) === '/feed/1' && isJsonObject(body) && Array.isArray(body.events),
        (body) => ((body as JsonObject).events as unknown[]).reduce<number>((n, event) => {
          if (!isJsonObject(event) || !isJsonObject(event.stats) || String(event.stats.compute_ops) === '0') return n;
          event.stats.compute_ops = jsonInt(0);
          return n + 1;
        }, 0),
      ),
    }),
  },
  {
    id: 'WRITTEN-REF-WRONG-CODE',
    title: 'An unresolved ref in written data is refused as `invalid value`',
    breaks: ['DOC-REF-001', 'DOC-REF-003', 'DOC-REF-004'],
    area: 'core',
    description: 'In `validation failed` answers, an `invalid reference` failure whose field starts with `data` gets the code `invalid value`, as from a server that refuses such refs under another code.',
    apply: () => ({
      json: recodeFailures((failure) => failure.code === 'invalid reference' && Array.isArray(failure.field) && failure.field[0] === 'data', 'invalid value'),
    }),
  },
  {
    id: 'WRITTEN-REF-MISSING-DOCUMENT-REFUSED',
    title: 'A ref to a document that does not exist cannot be written',
    breaks: ['DOC-REF-002'],
    area: 'core',
    description: 'A 201 answer to a top-level `create` whose params hold a document ref expression (`{"ref": …, "id": …}`) becomes 400 `validation failed` with an `invalid reference` failure, as from a server that wants every ref to name a live document (nothing is undone).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'create' && holdsDocumentRef((v4Expression(ctx.original) as JsonObject).params),
        (res) =>
          withStatus(withJsonBody(res, { errors: [{ position: [], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['data'], code: 'invalid reference', description: 'Reference was not found.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'NAME-ASCII-ONLY',
    title: 'Names beyond `[A-Za-z0-9_-]` are refused',
    breaks: ['COLL-CREATE-009'],
    area: 'core',
    description: 'A 201 answer to a top-level `create_collection` whose name holds a character outside `[A-Za-z0-9_-]` becomes 400 `validation failed` with an `invalid characters` failure on `name` (nothing is undone).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          if (res.status !== 201 || topLevelForm(ctx.original) !== 'create_collection') return false;
          const name = objectMembers((v4Expression(ctx.original) as JsonObject).create_collection)?.name;
          return typeof name === 'string' && !/^[A-Za-z0-9_-]+$/.test(name);
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['name'], code: 'invalid characters', description: 'Invalid name.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'COLL-UNDERSCORE-NAME-ACCEPTED',
    title: 'A collection may be named `_`',
    breaks: ['COLL-CREATE-011'],
    area: 'core',
    description: 'CreateCollection named `_` creates a collection (the server is sent the name `_underscore`) and answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        if (!isJsonObject(expression)) return 0;
        const create = expression.create_collection ?? expression.create_class;
        const object = isJsonObject(create) && isJsonObject(create.object) ? create.object : undefined;
        if (object?.name !== '_') return 0;
        object.name = '_underscore';
        return 1;
      }),
    }),
  },
  {
    id: 'NAME-FAILURE-CODE-GENERIC',
    title: 'Invalid and reserved names are refused as `invalid name`',
    breaks: ['COLL-CREATE-010', 'COLL-CREATE-011'],
    area: 'core',
    description: 'In `validation failed` answers, a failure on `name` of code `invalid characters` or `reserved name` gets the code `invalid name`.',
    apply: () => ({
      json: recodeFailures((failure) => Array.isArray(failure.field) && failure.field.join() === 'name' && (failure.code === 'invalid characters' || failure.code === 'reserved name'), 'invalid name'),
    }),
  },
  {
    id: 'SCOPED-WRITE-ACCEPTED',
    title: 'Writes through a scoped ref are answered as done',
    breaks: ['DOC-REF-005'],
    area: 'core',
    description: 'A 400 `invalid argument` answer to a top-level `create`, `update`, `replace` or `delete` whose target carries a `scope` becomes 200 with the target as its resource, as from a server that writes into the scoped database (nothing is written).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const form = topLevelForm(ctx.original);
          if (res.status !== 400 || form === undefined || !['create', 'update', 'replace', 'delete'].includes(form)) return false;
          return hasErrorCode(bodyJson(res), 'invalid argument') && JSON.stringify((v4Expression(ctx.original) as JsonObject)[form]).includes('"scope"');
        },
        (res) => withStatus(withJsonBody(res, { resource: { ts: jsonInt(Date.now() * 1000) } }), 200),
      ),
    }),
  },
  {
    id: 'CREATE-ERROR-AT-TOP',
    title: 'Errors of Create functions are reported at the top level',
    breaks: ['PROTO-ERROR-012'],
    area: 'core',
    description: 'An error whose position is `[<form>]`, answering a top-level `create` or `create_*`, gets the position `[]`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => /^create(_|$)/.test(topLevelForm(ctx.original) ?? ''),
        (body, ctx) => {
          const form = topLevelForm(ctx.original);
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.length !== 1 || error.position[0] !== form) continue;
            error.position = [];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'UPDATE-ERROR-AT-ARGUMENT',
    title: 'Errors of Update, Replace and Delete are reported at their argument',
    breaks: ['PROTO-ERROR-013'],
    area: 'core',
    description: 'An error whose position is `[]`, answering a top-level `update`, `replace` or `delete`, gets the position `[<form>]`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => ['update', 'replace', 'delete'].includes(topLevelForm(ctx.original) ?? ''),
        (body, ctx) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.length !== 0) continue;
            error.position = [topLevelForm(ctx.original)!];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'UPDATE-MISSING-TARGET-AT-FORM',
    title: 'A missing Update or Replace target is reported at the form',
    breaks: ['PROTO-ERROR-014'],
    area: 'core',
    description: 'An `instance not found` error at a position ending in `update` or `replace` is reported at the form itself (the last element dropped).',
    apply: () => ({
      json: rewriteJson(
        (body) => hasErrorCode(body, 'instance not found'),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (error.code !== 'instance not found' || !Array.isArray(error.position) || !['update', 'replace'].includes(String(error.position.at(-1)))) continue;
            error.position = error.position.slice(0, -1);
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'EXISTS-UNRESOLVED-INVALID-REF',
    title: 'Exists of a ref that does not resolve answers invalid ref',
    breaks: ['DOC-REF-007'],
    area: 'core',
    description: 'Every 200 `false` answer to a top-level `exists` becomes 400 `invalid ref`, as from a server that resolves the ref before looking (a missing document is rewritten too; the narrow run checks only DOC-REF-007).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 200 && topLevelForm(ctx.original) === 'exists' && isJsonObject(bodyJson(res)) && (bodyJson(res) as JsonObject).resource === false,
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['exists'], code: 'invalid ref', description: 'Ref refers to undefined collection.' }] }), 400),
      ),
    }),
  },
  {
    id: 'REPLACE-DROPS-NAME',
    title: 'Replace of a collection or database drops the name it does not give',
    breaks: ['COLL-LIFE-007', 'DB-LIFE-009'],
    area: 'core',
    description: 'A top-level `replace` of a collection or database whose object gives no `name` is sent with `name: null`, so the record would lose its name (the server refuses it).',
    apply: () => ({
      request: rewriteExpression((expression) => {
        if (!isJsonObject(expression) || !['collection', 'database'].includes(schemaRefOf(expression.replace)?.kind ?? '')) return 0;
        const members = objectMembers(expression.params);
        if (members === undefined || 'name' in members) return 0;
        members.name = null;
        return 1;
      }),
    }),
  },
  {
    id: 'CORS-HEADERS-MISSING',
    title: 'Cross-origin answers lack CORS headers',
    breaks: ['PROTO-CORS-001'],
    area: 'core',
    description: 'Every `access-control-*` header is removed from answers to requests that carry `Origin`, except preflights.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => ctx.original.headers['origin'] !== undefined && ctx.original.method !== 'OPTIONS' && res.headers['access-control-allow-origin'] !== undefined,
        (res) => ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'].reduce((r, name) => withoutHeader(r, name), res),
      ),
    }),
  },
  {
    id: 'CORS-PREFLIGHT-UNAUTHORIZED',
    title: 'A preflight is refused for want of a secret',
    breaks: ['PROTO-CORS-002'],
    area: 'core',
    description: 'An `OPTIONS` request with `Origin` is answered 401 `unauthorized`, as by a server that authenticates before it looks at the method.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'OPTIONS' && ctx.original.headers['origin'] !== undefined,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'REQUEST-PARAMETERS-IGNORED',
    title: 'Malformed request parameter headers are accepted',
    breaks: ['PROTO-HEADER-005', 'PROTO-HEADER-006', 'PROTO-HEADER-007', 'PROTO-HEADER-009', 'PROTO-HEADER-010', 'PROTO-HEADER-011'],
    area: 'core',
    description: `The request parameter headers of DEC-063 (${REQUEST_PARAMETER_HEADERS.map((name) => `\`${name}\``).join(', ')}) are removed from every request, as by a server that never reads them: a malformed value is accepted.`,
    apply: () => ({ request: (req) => withoutHeaders(req, (name) => (REQUEST_PARAMETER_HEADERS as readonly string[]).includes(name)) }),
  },
  {
    id: 'TAGS-UNCHECKED',
    title: 'Malformed query tags are accepted',
    breaks: ['PROTO-HEADER-014', 'PROTO-HEADER-015'],
    area: 'core',
    description: '`x-fauna-tags` and `x-query-tags` are removed from every request, as by a server that never reads them.',
    apply: () => ({ request: (req) => withoutHeaders(req, (name) => TAGS_HEADERS.includes(name)) }),
  },
  {
    id: 'TAGS-REFUSED',
    title: 'Well-formed query tags are refused',
    breaks: ['PROTO-HEADER-016'],
    area: 'core',
    description: 'A successful answer to a request carrying `x-fauna-tags` or `x-query-tags` becomes 400 `invalid tags`, as from a server that accepts no tags.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status < 300 && TAGS_HEADERS.some((name) => ctx.original.headers[name] !== undefined),
        (res, ctx) => {
          const name = isEventEndpoint(ctx.original) ? 'x-query-tags' : 'x-fauna-tags';
          const message = `Invalid header '${name}': invalid tags`;
          const body = isEventEndpoint(ctx.original) ? { error: { code: 'invalid_request', message } } : { errors: [{ code: 'bad request', description: message }] };
          return withStatus(withJsonBody(res, body), 400);
        },
      ),
    }),
  },
  {
    id: 'FORMAT-UNCHECKED',
    title: 'An unknown x-format answers in the simple format',
    breaks: ['PROTO-HEADER-017'],
    area: 'core',
    description: 'An `x-format` other than `simple`, `tagged` or `decorated` is sent on as `simple`.',
    apply: () => ({
      request: (req) => {
        const value = req.headers['x-format'];
        if (value === undefined || ['simple', 'tagged', 'decorated'].includes(value)) return undefined;
        return { ...req, headers: { ...req.headers, 'x-format': 'simple' } };
      },
    }),
  },
  {
    id: 'API-VERSION-AFTER-AUTH',
    title: 'The API version is read only after the secret, and not on /ping',
    breaks: ['PROTO-VERSION-009'],
    area: 'core',
    description: 'An unsupported `X-FaunaDB-API-Version` is removed from requests without `Authorization` and from `GET /ping`, as by a server that authenticates first (401) and whose ping ignores the version.',
    apply: () => ({
      request: (req) =>
        req.headers.authorization !== undefined && pathname(req) !== '/ping'
          ? undefined
          : withoutHeaders(req, (name, value) => name === 'x-faunadb-api-version' && !SUPPORTED_API_VERSIONS.has(value.toUpperCase())),
    }),
  },
  {
    id: 'REQUEST-PARAMETERS-REFUSED',
    title: 'Well-formed request parameter headers are refused',
    breaks: ['PROTO-HEADER-008', 'PROTO-HEADER-012'],
    area: 'core',
    description: 'A successful answer to a request carrying any request parameter header of DEC-063 becomes 400 (`bad request` on v4, `invalid_request` on the event endpoints), as from a server that refuses every header it does not implement.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status < 300 && REQUEST_PARAMETER_HEADERS.some((name) => ctx.original.headers[name] !== undefined),
        (res, ctx) => {
          const message = 'Unsupported request parameter header.';
          const body = isEventEndpoint(ctx.original) ? { error: { code: 'invalid_request', message } } : { errors: [{ code: 'bad request', description: message }] };
          return withStatus(withJsonBody(res, body), 400);
        },
      ),
    }),
  },
  {
    id: 'DB-LIST-CLIENT-EMPTY-PAGE',
    title: 'A client key\'s listing of schema records answers an empty page',
    breaks: ['DB-LIST-001'],
    area: 'core',
    description: 'A client key\'s 403 answer to a top-level Paginate of collections, indexes, functions, roles, databases or keys becomes 200 with an empty page, as on a server that filters the listing by what the key may read.',
    apply: listingFilteredForKeys('client', ['collections', 'indexes', 'functions', 'roles', 'databases', 'keys']),
  },
  {
    id: 'DB-LIST-SERVER-EMPTY-PAGE',
    title: 'A server key\'s listing of keys or databases answers an empty page',
    breaks: ['DB-LIST-002'],
    area: 'core',
    description: 'A server key\'s 403 answer to a top-level Paginate of keys or databases becomes 200 with an empty page, as on a server that filters the listing by what the key may read.',
    apply: listingFilteredForKeys('server', ['keys', 'databases']),
  },
  {
    id: 'DB-CHILD-SERVER-KEY-CONFINED',
    title: 'A server key cannot read its child databases',
    breaks: ['DB-CHILD-004'],
    area: 'core',
    description: 'The reference server refuses a server key every ref scoped to a child database (403 `permission denied`), as a server that confines each key to its own database would.',
    apply: () => ({ failpoints: ['SERVER-KEY-CHILD-READS-DENIED'] }),
  },
  {
    id: 'KEY-ROLE-READONLY-AS-SERVER',
    title: 'A `server-readonly` key is a full server key',
    breaks: ['KEY-ROLE-015'],
    area: 'core',
    description: 'A top-level `create_key` with role `server-readonly` is sent with role `server`, and the key record answered says `server-readonly`: a server that accepts the role without its restriction.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const payload = isJsonObject(expression) && isJsonObject(expression.create_key) && isJsonObject(expression.create_key.object) ? expression.create_key.object : undefined;
        if (payload?.role !== 'server-readonly') return 0;
        payload.role = 'server';
        return 1;
      }),
      json: rewriteJson(
        (_body, ctx) => stringifyJson(v4Expression(ctx.original) ?? null).includes('"server-readonly"'),
        (body) => records(body).reduce((n, record) => (nativeCollectionOf(record) === 'keys' && record.role === 'server' ? ((record.role = 'server-readonly'), n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'DB-LIST-ORDER-UNSTABLE',
    title: 'Native collection listings come in a different order each time',
    breaks: ['DB-LIST-003'],
    area: 'core',
    description: 'The page of every second top-level Paginate of collections or databases has its `data` reversed, as from a server that lists records from an unordered map.',
    apply: () => {
      let seen = 0;
      return {
        json: rewriteJson(
          (body, ctx) => ctx.status === 200 && ['collections', 'databases'].includes(listedNative(ctx.original) ?? '') && Array.isArray(v4Resource(body)?.data) && (seen++ % 2 === 1),
          (body) => {
            const data = v4Resource(body)!.data as unknown[];
            if (data.length < 2) return false;
            data.reverse();
            return true;
          },
        ),
      };
    },
  },
  {
    id: 'KEY-LISTED-WHERE-IT-OPENS',
    title: 'A key is listed in the database it opens',
    breaks: ['KEY-SECRET-012'],
    area: 'core',
    description: 'A key\'s 200 answer to a top-level Paginate of keys also lists that key itself, as from a server that files a key under the database it opens rather than the one it was created in.',
    apply: () => {
      const ledger = new KeyLedger();
      return {
        json: (body, ctx) => {
          ledger.learnFrom(body);
          const key = ledger.bySecret(requestSecret(ctx.original) ?? '');
          const data = v4Resource(body)?.data;
          if (ctx.status !== 200 || listedNative(ctx.original) !== 'keys' || key === undefined || !Array.isArray(data)) return undefined;
          if (data.some((ref) => stringifyJson(ref) === key.ref)) return undefined;
          data.push(parseJson(key.ref));
          return body;
        },
      };
    },
  },
];

