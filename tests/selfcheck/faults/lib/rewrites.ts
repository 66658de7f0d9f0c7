// Small reusable pieces the fault catalogue is written with: what a request is, and common rewrites of
// v4 answers. Each fault stays a few lines of data plus one of these.
import type { BufferedResponse, ExchangeContext, Fault, FaultHooks, JsonResponseContext, ProxiedRequest } from '../../fault.js';
import { forEachObject, isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../../json-body.js';

export function pathname(request: ProxiedRequest): string {
  return request.path.split('?')[0] ?? '/';
}

/** A v4 query: `POST /` (or `GET /?q=`). */
export function isV4Query(request: ProxiedRequest): boolean {
  return pathname(request) === '/' && (request.method === 'POST' || request.method === 'GET');
}

/**
 * Bodies larger than this are never parsed for a fault: parsing the suite's 64 MiB oversized body blocked the
 * proxy's event loop for longer than the request timeout, failing every test running at the time.
 */
const MAX_PARSED_BODY_BYTES = 2 * 1024 * 1024;
const parsedExpressions = new WeakMap<ProxiedRequest, unknown>();

/** The v4 expression the suite sent, or undefined when the body is not JSON (or too large to look at). */
export function v4Expression(request: ProxiedRequest): unknown {
  if (!isV4Query(request) || request.body.length === 0 || request.body.length > MAX_PARSED_BODY_BYTES) return undefined;
  if (parsedExpressions.has(request)) return parsedExpressions.get(request);
  const parsed = tryParseJson(request.body);
  const expression = parsed.ok ? parsed.value : undefined;
  parsedExpressions.set(request, expression);
  return expression;
}

/** True when the expression the suite sent contains an object with `key` (at any depth). */
export function expressionUses(request: ProxiedRequest, key: string): boolean {
  let found = false;
  forEachObject(v4Expression(request), (object) => {
    if (key in object) found = true;
  });
  return found;
}

/** The function name of the top-level expression, e.g. `create` for `{"create": …, "params": …}`. */
export function topLevelForm(request: ProxiedRequest): string | undefined {
  const expression = v4Expression(request);
  if (!isJsonObject(expression)) return undefined;
  return Object.keys(expression)[0];
}

export function apiVersion(request: ProxiedRequest): string | undefined {
  return request.headers['x-faunadb-api-version'];
}

export function v4Resource(body: unknown): JsonObject | undefined {
  return isJsonObject(body) && isJsonObject(body.resource) ? body.resource : undefined;
}

/** The error objects of a v4 error body `{"errors":[…]}`. */
export function v4Errors(body: unknown): JsonObject[] {
  if (!isJsonObject(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isJsonObject);
}

/** An answer edit: each error coded `from` is coded `to`; answers how many were. */
export function recodeErrors(from: string, to: string): (body: unknown) => number {
  return (body) =>
    v4Errors(body).reduce((n, error) => {
      if (error.code !== from) return n;
      error.code = to;
      return n + 1;
    }, 0);
}

export function hasErrorCode(body: unknown, code: string): boolean {
  return v4Errors(body).some((error) => error.code === code);
}

/** Renames `from` to `to` in every object of the tree that has `from`, when `where(object)` holds. */
export function renameKeys(value: unknown, from: string, to: string, where: (object: JsonObject) => boolean = () => true): number {
  let renamed = 0;
  forEachObject(value, (object) => {
    if (!(from in object) || !where(object)) return;
    const entries = Object.entries(object).map(([key, child]) => [key === from ? to : key, child] as const);
    for (const key of Object.keys(object)) delete object[key];
    for (const [key, child] of entries) object[key] = child;
    renamed += 1;
  });
  return renamed;
}

/** Deletes `key` from every object of the tree where `where(object)` holds. */
export function deleteKeys(value: unknown, key: string, where: (object: JsonObject) => boolean = () => true): number {
  let deleted = 0;
  forEachObject(value, (object) => {
    if (key in object && where(object)) {
      delete object[key];
      deleted += 1;
    }
  });
  return deleted;
}

/** Calls `edit` on every object of a tree (parents first); answers how many changes it made (`edit`: whether or how many). */
export function editObjects(value: unknown, edit: (object: JsonObject) => boolean | number): number {
  let changed = 0;
  forEachObject(value, (object) => {
    changed += Number(edit(object));
  });
  return changed;
}

/** Calls `edit` on every error of a v4 error body; answers how many it changed (`edit` answers whether it did). */
export function editErrors(body: unknown, edit: (error: JsonObject) => boolean): number {
  return v4Errors(body).filter(edit).length;
}

/** A JSON body hook that applies `rewrite` to matching exchanges and counts it only when it changed something. */
export function rewriteJson(
  applies: (body: unknown, context: JsonResponseContext) => boolean,
  // biome-ignore lint/suspicious/noConfusingVoidType: a rewrite that returns nothing (a forEach over the body) always counts as a change
  rewrite: (body: unknown, context: JsonResponseContext) => number | boolean | void,
): FaultHooks['json'] {
  return (body, context) => {
    if (!applies(body, context)) return undefined;
    const changed = rewrite(body, context);
    return changed === false || changed === 0 ? undefined : body;
  };
}

/** A response hook that rewrites matching buffered responses. */
export function rewriteResponse(
  applies: (response: BufferedResponse, context: ExchangeContext) => boolean,
  rewrite: (response: BufferedResponse, context: ExchangeContext) => BufferedResponse,
): FaultHooks['response'] {
  return (response, context) => (applies(response, context) ? rewrite(response, context) : undefined);
}

/** A fault whose one hook is `rewriteResponse(applies, rewrite)`. */
export const onResponse =
  (...args: Parameters<typeof rewriteResponse>): Fault['apply'] =>
  () => ({ response: rewriteResponse(...args) });

/** A fault whose one hook is `rewriteJson(applies, rewrite)`. */
export const onJson =
  (...args: Parameters<typeof rewriteJson>): Fault['apply'] =>
  () => ({ json: rewriteJson(...args) });

/** A fault that edits every object of every JSON answer (`edit` answers whether or how many changes it made). */
export const onAnswerObjects =
  (edit: (object: JsonObject) => boolean | number): Fault['apply'] =>
  () => ({
    json: rewriteJson(
      () => true,
      (body) => editObjects(body, edit),
    ),
  });

/** A fault that edits every record (object with `ref` and `ts`) of every JSON answer (`edit`: whether it changed it). */
export const onRecords =
  (edit: (record: JsonObject) => boolean): Fault['apply'] =>
  () => ({
    json: rewriteJson(
      () => true,
      (body) => records(body).filter(edit).length,
    ),
  });

/** A request hook that edits every object of the v4 expression (`edit` answers whether or how many changes it made). */
const editExpression = (edit: (object: JsonObject) => boolean | number): FaultHooks['request'] =>
  rewriteExpression((expression) => editObjects(expression, edit));

/** A fault that edits every object of a v4 query's expression (`edit` answers whether or how many changes it made). */
export const onObjects =
  (edit: (object: JsonObject) => boolean | number): Fault['apply'] =>
  () => ({ request: editExpression(edit) });

/** A fault whose one hook is `rewriteExpression(rewrite)`. */
export const onExpression =
  (rewrite: (expression: unknown) => number): Fault['apply'] =>
  () => ({ request: rewriteExpression(rewrite) });

/**
 * Hooks that send the server `substitute(request)` instead of a request (when it gives a body) and answer the client
 * with `answer` in place of the server's response to it: the fault decides what is written and what is answered.
 */
export function forwardInstead(
  substitute: (request: ProxiedRequest) => Buffer | undefined,
  answer: (response: BufferedResponse, context: ExchangeContext) => BufferedResponse,
): FaultHooks {
  const substituted = new WeakSet<ProxiedRequest>();
  return {
    request: (request) => {
      const body = substitute(request);
      if (body === undefined) return undefined;
      const forwarded = { ...request, body };
      substituted.add(forwarded);
      return forwarded;
    },
    response: (response, context) => (substituted.has(context.request) ? answer(response, context) : undefined),
  };
}

/**
 * A fault's answer to a top-level `update` or `replace` that the server refused, when `refused(body, target)` holds
 * (`target` is the expression's ref): 200 with that ref, as a server that does not check what was refused would
 * answer (nothing is written).
 */
export function acceptedModification(refused: (body: unknown, target: unknown) => boolean): FaultHooks {
  return {
    response: rewriteResponse(
      (res, ctx) => {
        if (res.status !== 400) return false;
        const form = topLevelForm(ctx.original);
        return (form === 'update' || form === 'replace') && refused(bodyJson(res), (v4Expression(ctx.original) as JsonObject)[form]);
      },
      (res, ctx) => {
        const expression = v4Expression(ctx.original) as JsonObject;
        const ref = expression.update ?? expression.replace;
        return withStatus(withJsonBody(res, { resource: { ref, ts: jsonInt(Date.now() * 1000) } }), 200);
      },
    ),
  };
}

export function withStatus(response: BufferedResponse, status: number): BufferedResponse {
  return { ...response, status };
}

export function withoutHeader(response: BufferedResponse, name: string): BufferedResponse {
  const headers = { ...response.headers };
  delete headers[name];
  return { ...response, headers };
}

export function withHeader(response: BufferedResponse, name: string, value: string): BufferedResponse {
  return { ...response, headers: { ...response.headers, [name]: value } };
}

export function withJsonBody(response: BufferedResponse, body: unknown): BufferedResponse {
  return { ...response, headers: { ...response.headers, 'content-type': 'application/json' }, body: Buffer.from(stringifyJson(body)) };
}

/** The 400 `validation failed` answer a server gives for one invalid field of a written document, at `position`. */
export function validationFailedAnswer(
  response: BufferedResponse,
  position: unknown[],
  failure: { field: unknown[]; code: string; description: string },
): BufferedResponse {
  const error = { position, code: 'validation failed', description: 'document data is not valid.', failures: [failure] };
  return withStatus(withJsonBody(response, { errors: [error] }), 400);
}

export function bodyJson(response: BufferedResponse): unknown {
  const parsed = tryParseJson(response.body);
  return parsed.ok ? parsed.value : undefined;
}

/** True for a `{"@ref": …}` object. */
export function isRefObject(object: JsonObject): boolean {
  return '@ref' in object;
}

/** The long-form `@ref` payloads (`{"id":…,"collection":…}`) anywhere in a tree. */
export function refPayloads(value: unknown): JsonObject[] {
  const payloads: JsonObject[] = [];
  forEachObject(value, (object) => {
    if (isJsonObject(object['@ref'])) payloads.push(object['@ref']);
  });
  return payloads;
}

/** The native collection (`databases`, `keys`, `collections`, …) a record's `ref` lives in, if any. */
export function nativeCollectionOf(record: JsonObject): string | undefined {
  const ref = isJsonObject(record.ref) ? record.ref['@ref'] : undefined;
  if (!isJsonObject(ref)) return undefined;
  const parent = ref.collection ?? ref.class;
  if (!isJsonObject(parent) || !isJsonObject(parent['@ref'])) return undefined;
  const parentRef = parent['@ref'];
  return 'collection' in parentRef || 'class' in parentRef ? undefined : (parentRef.id as string | undefined);
}

/** Every record (an object with a `ref` and a `ts`) anywhere in a tree. */
export function records(value: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(value, (object) => {
    if ('ref' in object && 'ts' in object) found.push(object);
  });
  return found;
}

/** A request hook that rewrites the v4 expression in place; `rewrite` answers how many changes it made (0: none). */
export function rewriteExpression(rewrite: (expression: unknown) => number): FaultHooks['request'] {
  return (req) => {
    const expression = v4Expression(req);
    if (expression === undefined) return undefined;
    return rewrite(expression) > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
  };
}

/** Replaces the contents of `object` with those of `by` (so a parent's reference sees the replacement). */
export function replaceObject(object: JsonObject, by: JsonObject): void {
  const copy = { ...by };
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, copy);
}

/** Kind and name of a schema ref in request form (`{"collection": "x"}`) or wire form (`{"@ref": …}`). */
export function schemaRefOf(value: unknown): { kind: string; name: string } | undefined {
  if (!isJsonObject(value)) return undefined;
  if (isJsonObject(value['@ref'])) {
    const payload = value['@ref'];
    const parent = isJsonObject(payload.collection) && isJsonObject(payload.collection['@ref']) ? payload.collection['@ref'] : undefined;
    const kinds: Record<string, string> = {
      collections: 'collection',
      indexes: 'index',
      roles: 'role',
      databases: 'database',
      functions: 'function',
    };
    const kind = typeof parent?.id === 'string' ? kinds[parent.id] : undefined;
    return kind !== undefined && typeof payload.id === 'string' ? { kind, name: payload.id } : undefined;
  }
  for (const kind of ['collection', 'index', 'role', 'database', 'function']) {
    if (typeof value[kind] === 'string' && Object.keys(value).length === 1) return { kind, name: value[kind] as string };
  }
  return undefined;
}

/** A server that gives the record a `form` answers (of native collection `native`) the transaction's time as its `ts`. */
export const tsIsTxnTime = (form: string, native: string): Fault['apply'] =>
  onJson(
    (_body, ctx) => topLevelForm(ctx.original) === form && ctx.status === 200 && /^\d+$/.test(ctx.headers['x-txn-time'] ?? ''),
    (body, ctx) => {
      const resource = v4Resource(body);
      if (resource === undefined || nativeCollectionOf(resource) !== native || String(resource.ts) === ctx.headers['x-txn-time']) return 0;
      resource.ts = jsonInt(BigInt(ctx.headers['x-txn-time']!));
      return 1;
    },
  );

/** Empties the page that is the answer's resource; answers how many entries it dropped. */
export function emptyPage(body: unknown): number {
  const page = v4Resource(body);
  if (page === undefined || !Array.isArray(page.data)) return 0;
  const had = page.data.length;
  page.data = [];
  return had;
}

/**
 * Replaces each leaf of a tree (a value inside no array or object of its own) by `replace(leaf)`, in place; answers
 * how many leaves it changed (a replacement written as the leaf was counts as none).
 */
export function replaceLeaves(value: unknown, replace: (leaf: unknown) => unknown): number {
  let changed = 0;
  const visit = (item: unknown): unknown => {
    if (Array.isArray(item)) for (let i = 0; i < item.length; i++) item[i] = visit(item[i]);
    else if (isJsonObject(item)) for (const key of Object.keys(item)) item[key] = visit(item[key]);
    else {
      const replaced = replace(item);
      if (stringifyJson(replaced) === stringifyJson(item)) return item;
      changed += 1;
      return replaced;
    }
    return item;
  };
  visit(value);
  return changed;
}
