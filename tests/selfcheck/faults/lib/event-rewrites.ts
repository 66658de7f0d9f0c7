// Building blocks of the `events` fault catalogue: what an event request and answer are, edits of feed pages and
// stream events, and what the proxy learns of the v4 writes it relays.
import type { BufferedResponse, FaultHooks, ProxiedRequest, StreamEventHook, StreamWriter } from '../../fault.js';
import { isJsonInteger, isJsonObject, stringifyJson, tryParseJson, type JsonObject } from '../../json-body.js';
import { pathname, rewriteJson, v4Expression, withJsonBody } from './rewrites.js';

export function isEvent(value: unknown, ...types: string[]): value is JsonObject {
  return isJsonObject(value) && typeof value.type === 'string' && (types.length === 0 || types.includes(value.type));
}

export const DATA_EVENT_TYPES = ['add', 'update', 'remove'];

export function onStreams(hook: () => StreamEventHook): FaultHooks {
  return { stream: () => hook() };
}

export function feedPage(body: unknown): (JsonObject & { events: unknown[] }) | undefined {
  return isJsonObject(body) && Array.isArray(body.events) ? (body as JsonObject & { events: unknown[] }) : undefined;
}

export function isErrorEvent(value: unknown, code: string): boolean {
  return isEvent(value, 'error') && isJsonObject(value.error) && value.error.code === code;
}

/** Removes `error` events with `code` from streams and feed pages: a server that never checks the limit behind it. */
export function withoutErrorEvents(code: string): FaultHooks {
  return {
    stream: () => ({
      onEvent(event, writer) {
        if (!isErrorEvent(event, code)) writer.emit(event);
      },
    }),
    json: rewriteJson(
      (body, ctx) => isFeedRequest(ctx.original) && (feedPage(body)?.events.some((e) => isErrorEvent(e, code)) ?? false),
      (body) => {
        const page = feedPage(body)!;
        page.events = page.events.filter((e) => !isErrorEvent(e, code));
      },
    ),
  };
}

export const isFeedRequest = (req: ProxiedRequest) => pathname(req) === '/feed/1';
export const isStreamRequest = (req: ProxiedRequest) => pathname(req) === '/stream/1';
export const isQueryV10 = (req: ProxiedRequest) => pathname(req) === '/query/1';

/** The JSON object a request carries, or undefined. */
export function requestObject(req: ProxiedRequest): JsonObject | undefined {
  if (req.body.length === 0) return undefined;
  const parsed = tryParseJson(req.body);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}

export function bigintOf(value: unknown): bigint | undefined {
  return isJsonInteger(value) ? BigInt(String(value)) : undefined;
}

export const nowMicros = () => BigInt(Date.now()) * 1000n;

/** What an event edit answers: undefined keeps the event as it is, a list replaces it (empty: the event is dropped). */
export type EventEdit = (event: JsonObject, request: ProxiedRequest) => unknown[] | undefined;

/** Applies `edit` to every event of feed pages and/or open streams. Edits return new objects (never the same one changed). */
export function editEvents(edit: EventEdit, where: { feed?: boolean; stream?: boolean } = { feed: true, stream: true }): FaultHooks {
  const hooks: FaultHooks = {};
  if (where.feed !== false) {
    hooks.json = (body, ctx) => {
      const page = isFeedRequest(ctx.original) ? feedPage(body) : undefined;
      if (page === undefined) return undefined;
      let changed = false;
      const events: unknown[] = [];
      for (const event of page.events) {
        const replaced = isJsonObject(event) ? edit(event, ctx.original) : undefined;
        if (replaced === undefined) events.push(event);
        else {
          changed = true;
          events.push(...replaced);
        }
      }
      if (!changed) return undefined;
      page.events = events;
      return body;
    };
  }
  if (where.stream !== false) {
    hooks.stream = (ctx) => ({
      onEvent(event, writer) {
        const replaced = isJsonObject(event) ? edit(event, ctx.original) : undefined;
        for (const out of replaced ?? [event]) writer.emit(out);
      },
    });
  }
  return hooks;
}

/** The `@doc` object of an unprojected data event. */
export function eventDoc(event: JsonObject): JsonObject | undefined {
  return isJsonObject(event.data) && isJsonObject(event.data['@doc']) ? event.data['@doc'] : undefined;
}

export function eventDocId(event: JsonObject): string | undefined {
  const id = eventDoc(event)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** A copy of `event` whose `@doc` is `doc`. */
export function withDoc(event: JsonObject, doc: JsonObject): JsonObject {
  return { ...event, data: { ...(event.data as JsonObject), '@doc': doc } };
}

export function v10ErrorResponse(from: BufferedResponse, status: number, code: string, message: string): BufferedResponse {
  return withJsonBody({ ...from, status }, { error: { code, message } });
}

export function errorCodeOf(response: BufferedResponse): string | undefined {
  const parsed = tryParseJson(response.body);
  return parsed.ok && isJsonObject(parsed.value) && isJsonObject(parsed.value.error) && typeof parsed.value.error.code === 'string'
    ? parsed.value.error.code
    : undefined;
}

const RETENTION_CODES = ['invalid_stream_start_time', 'invalid_start_time'];

export function isRetentionError(event: unknown): boolean {
  return RETENTION_CODES.some((code) => isErrorEvent(event, code));
}

/** The FQL text of a `/query/1` request: the string query, or the string pieces of an `fql` template joined. */
export function fqlText(req: ProxiedRequest): string | undefined {
  if (!isQueryV10(req)) return undefined;
  const query = requestObject(req)?.query;
  if (typeof query === 'string') return query;
  if (isJsonObject(query) && Array.isArray(query.fql)) return query.fql.filter((part) => typeof part === 'string').join('');
  return undefined;
}

/** Rewrites the FQL text of `/query/1` requests (a string query, or each string piece of an `fql` template). */
export function editFql(edit: (text: string) => string): FaultHooks['request'] {
  return (req) => {
    if (!isQueryV10(req)) return undefined;
    const body = requestObject(req);
    if (body === undefined) return undefined;
    let changed = false;
    const rewrite = (text: string) => {
      const out = edit(text);
      if (out !== text) changed = true;
      return out;
    };
    if (typeof body.query === 'string') body.query = rewrite(body.query);
    else if (isJsonObject(body.query) && Array.isArray(body.query.fql))
      body.query.fql = body.query.fql.map((part) => (typeof part === 'string' ? rewrite(part) : part));
    return changed ? { ...req, body: Buffer.from(stringifyJson(body)) } : undefined;
  };
}

/**
 * The event source token of a tagged `/query/1` answer (`{"@stream": token}`). A simple-format bare string is not
 * read as one: faults built on this rewrite `data["@stream"]`.
 */
export function tokenOf(body: unknown): string | undefined {
  if (!isJsonObject(body)) return undefined;
  if (isJsonObject(body.data) && typeof body.data['@stream'] === 'string') return body.data['@stream'];
  return undefined;
}

/** Chains JSON hooks: each sees the result of the one before; the chain counts as a change when any hook changed something. */
export function chainJson(...hooks: FaultHooks['json'][]): NonNullable<FaultHooks['json']> {
  return (body, ctx) => {
    let current = body;
    let changed = false;
    for (const hook of hooks) {
      const out = hook?.(current, ctx);
      if (out !== undefined) {
        current = out;
        changed = true;
      }
    }
    return changed ? current : undefined;
  };
}

/**
 * A JSON hook that changes nothing and calls `visit` with each top-level form of a successful v4 answer (the
 * expression, or each of its array), the form's result and the transaction's time: what the proxy learns of writes.
 */
export function observeV4Forms(visit: (form: JsonObject, result: JsonObject, ts: bigint) => void): NonNullable<FaultHooks['json']> {
  return (body, ctx) => {
    const expression = v4Expression(ctx.original);
    const ts = /^\d+$/.test(ctx.headers['x-txn-time'] ?? '') ? BigInt(ctx.headers['x-txn-time']!) : undefined;
    if (expression === undefined || ts === undefined || ctx.status >= 300 || !isJsonObject(body)) return undefined;
    const results = Array.isArray(body.resource) ? body.resource : [body.resource];
    (Array.isArray(expression) ? expression : [expression]).forEach((form, i) => {
      if (isJsonObject(form) && isJsonObject(results[i])) visit(form, results[i], ts);
    });
    return undefined;
  };
}

/** The id and collection of the document a v4 result's `ref` names. */
export function resultDocument(result: JsonObject): { id: string; coll: string } | undefined {
  const ref = isJsonObject(result.ref) && isJsonObject(result.ref['@ref']) ? result.ref['@ref'] : undefined;
  const coll = isJsonObject(ref?.collection) && isJsonObject(ref.collection['@ref']) ? ref.collection['@ref'].id : undefined;
  return typeof ref?.id === 'string' && typeof coll === 'string' ? { id: ref.id, coll } : undefined;
}

/** A v4 answer's plain JSON value in the tagged form events use (`5` becomes `{"@int": "5"}`). */
export function tagged(value: unknown): unknown {
  if (isJsonInteger(value)) {
    const n = BigInt(String(value));
    return n >= -(2n ** 31n) && n < 2n ** 31n ? { '@int': String(value) } : { '@long': String(value) };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isJsonObject(value)) return { '@double': String(value) };
  if (Array.isArray(value)) return value.map(tagged);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tagged(v)]));
  return value;
}

/** A 200 `/query/1` answer carrying an event source token, as from a server that accepted a query it must refuse. */
function acceptedQuery(from: BufferedResponse, req: ProxiedRequest, token: string): BufferedResponse {
  const parsed = tryParseJson(from.body);
  // The error answer's other fields (txn_ts, stats, schema_version, …) are those of a success too.
  const { error: _refused, ...rest } = parsed.ok && isJsonObject(parsed.value) ? parsed.value : {};
  const data = req.headers['x-format'] === 'simple' ? token : { '@stream': token };
  return withJsonBody({ ...from, status: 200 }, { data, static_type: 'EventSource', ...rest, summary: '' });
}

/**
 * Answers 200 with a token (the last one the proxy saw) to `/query/1` requests refused with 400 whose FQL text
 * matches `pattern` (and, when `code` is given, whose error has that code).
 */
export function acceptRefusedQueries(pattern: RegExp, code?: string): () => FaultHooks {
  return () => {
    let lastToken = 'c291cmNlLWFjY2VwdGVkLWJ5LWZhdWx0';
    return {
      json(body, ctx) {
        lastToken = (isQueryV10(ctx.original) ? tokenOf(body) : undefined) ?? lastToken;
        return undefined;
      },
      response(response, ctx) {
        const text = fqlText(ctx.original);
        if (text === undefined || response.status !== 400 || !pattern.test(text)) return undefined;
        if (code !== undefined && errorCodeOf(response) !== code) return undefined;
        return acceptedQuery(response, ctx.original, lastToken);
      },
    };
  };
}

/** Removes `line:column` positions from a v10 error's message and summary, for error codes in `codes`. */
export function withoutPositions(codes: readonly string[]): FaultHooks {
  const strip = (text: string) => text.replace(/\d+:\d+/g, '').replace(/\bat line \d+\b|\bline \d+\b|\bcolumn \d+\b/gi, '');
  return {
    json: rewriteJson(
      (body, ctx) => isQueryV10(ctx.original) && isJsonObject(body) && isJsonObject(body.error) && codes.includes(String(body.error.code)),
      (body) => {
        const answer = body as JsonObject & { error: JsonObject };
        if (typeof answer.error.message === 'string') answer.error.message = strip(answer.error.message);
        if (typeof answer.summary === 'string') answer.summary = strip(answer.summary);
      },
    ),
  };
}

/** Holds a stream open (no more events, no end) until the suite leaves. */
export async function holdOpen(writer: StreamWriter): Promise<void> {
  while (!writer.closed) await writer.pause(60_000);
}
