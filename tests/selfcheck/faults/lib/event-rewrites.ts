// Building blocks of the `events` fault catalogue: what an event request and answer are, edits of feed pages and
// stream events, and what the proxy learns from the traffic it relays (sources, cursors, v4 writes) for faults
// that imitate a server with a different memory.
import type { BufferedResponse, FaultHooks, ProxiedRequest, StreamEventHook, StreamWriter } from '../../fault.js';
import { isJsonInteger, isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../../json-body.js';
import { pathname, rewriteJson, v4Expression, withJsonBody } from './rewrites.js';

export function isEvent(value: unknown, ...types: string[]): value is JsonObject {
  return isJsonObject(value) && typeof value.type === 'string' && (types.length === 0 || types.includes(value.type));
}

export const DATA_EVENT_TYPES = ['add', 'update', 'remove'];

export function onStreams(hook: () => StreamEventHook): FaultHooks {
  return { stream: () => hook() };
}

export function isFeed(path: string): boolean {
  return path.split('?')[0] === '/feed/1';
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
      (body, ctx) => isFeed(ctx.original.path) && (feedPage(body)?.events.some((e) => isErrorEvent(e, code)) ?? false),
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

/** A request hook for `/feed/1` and/or `/stream/1` that edits the body in place; `edit` answers whether it changed it. */
export function editEventRequest(where: { feed?: boolean; stream?: boolean }, edit: (body: JsonObject) => boolean): FaultHooks['request'] {
  return (req) => {
    if (!((where.feed === true && isFeedRequest(req)) || (where.stream === true && isStreamRequest(req)))) return undefined;
    const body = requestObject(req);
    if (body === undefined || !edit(body)) return undefined;
    return { ...req, body: Buffer.from(stringifyJson(body)) };
  };
}

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

/**
 * What the proxy learns from the answers it relays: when each source was created, which collection its query
 * names, every cursor it handed out and the event each one belongs to. Faults that imitate a server with a
 * different memory build on it; `observe` hooks never count as changes.
 */
export class EventTraffic {
  readonly createdAt = new Map<string, bigint>();
  readonly collectionOf = new Map<string, string>();
  readonly eventAt = new Map<string, JsonObject>();
  readonly cursors = new Set<string>();
  lastToken: string | undefined;

  observeQuery(body: unknown, req: ProxiedRequest): void {
    const token = isQueryV10(req) ? tokenOf(body) : undefined;
    if (token === undefined || !isJsonObject(body)) return;
    this.lastToken = token;
    const ts = bigintOf(body.txn_ts);
    if (ts !== undefined) this.createdAt.set(token, ts);
    const collection = /^\s*(?:Set\.single\(\s*)?([A-Za-z_]\w*)\./.exec(fqlText(req) ?? '')?.[1];
    if (collection !== undefined) this.collectionOf.set(token, collection);
  }

  observeEvent(event: unknown): void {
    if (!isJsonObject(event) || typeof event.cursor !== 'string') return;
    this.cursors.add(event.cursor);
    if (isEvent(event, ...DATA_EVENT_TYPES)) this.eventAt.set(event.cursor, event);
  }

  observeFeed(body: unknown, req: ProxiedRequest): void {
    const page = isFeedRequest(req) ? feedPage(body) : undefined;
    if (page === undefined) return;
    if (typeof page.cursor === 'string') this.cursors.add(page.cursor);
    for (const event of page.events) this.observeEvent(event);
  }

  /** JSON and stream hooks that only watch, for a fault to wrap. */
  observer(): Required<Pick<FaultHooks, 'json'>> & { streamEvent: (event: unknown) => void } {
    return {
      json: (body, ctx) => {
        this.observeQuery(body, ctx.original);
        this.observeFeed(body, ctx.original);
        return undefined;
      },
      streamEvent: (event) => this.observeEvent(event),
    };
  }
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

/** Writes the proxy saw committed through the v4 endpoint, by document id and transaction time. */
export interface Write {
  kind: 'create' | 'update' | 'delete';
  /** The document's data after the write (create and update), as the v4 endpoint answered it. */
  data?: JsonObject;
}

export class WriteLog {
  private readonly writes = new Map<string, Write[]>();
  readonly withCredentials = new Set<string>();

  /** JSON hook that records the writes of a v4 answer and changes nothing. */
  readonly observe: NonNullable<FaultHooks['json']> = (body, ctx) => {
    const expression = v4Expression(ctx.original);
    const ts = /^\d+$/.test(ctx.headers['x-txn-time'] ?? '') ? BigInt(ctx.headers['x-txn-time']!) : undefined;
    if (expression === undefined || ts === undefined || ctx.status >= 300 || !isJsonObject(body)) return undefined;
    const expressions = Array.isArray(expression) ? expression : [expression];
    const results = Array.isArray(body.resource) ? body.resource : [body.resource];
    expressions.forEach((expr, i) => {
      const result = results[i];
      if (!isJsonObject(expr) || !isJsonObject(result) || !isJsonObject(result.ref) || !isJsonObject(result.ref['@ref'])) return;
      const id = result.ref['@ref'].id;
      const kind = (['create', 'update', 'delete'] as const).find((k) => k in expr);
      if (typeof id !== 'string' || kind === undefined) return;
      const params = isJsonObject(expr.params) && isJsonObject(expr.params.object) ? expr.params.object : {};
      if ('credentials' in params) this.withCredentials.add(id);
      const key = `${id}@${ts}`;
      const write: Write = { kind, ...(kind !== 'delete' && isJsonObject(result.data) ? { data: result.data } : {}) };
      this.writes.set(key, [...(this.writes.get(key) ?? []), write]);
    });
    return undefined;
  };

  /** The data every update committed at `ts` wrote. */
  updatesAt(ts: unknown): JsonObject[] {
    const micros = bigintOf(ts);
    const found: JsonObject[] = [];
    for (const [key, writes] of this.writes) {
      if (key.endsWith(`@${micros}`)) for (const w of writes) if (w.kind === 'update' && w.data !== undefined) found.push(w.data);
    }
    return found;
  }

  /** The writes of document `id` committed at `ts`, in the order the transaction made them. */
  at(id: string | undefined, ts: unknown): Write[] {
    const micros = bigintOf(ts);
    return id === undefined || micros === undefined ? [] : (this.writes.get(`${id}@${micros}`) ?? []);
  }
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
 * Answers 200 with a token to `/query/1` requests refused with 400 whose FQL text matches `pattern` (and, when `code`
 * is given, whose error has that code).
 */
export function acceptRefusedQueries(pattern: RegExp, code?: string): () => FaultHooks {
  return () => {
    const traffic = new EventTraffic();
    return {
      json: traffic.observer().json,
      response(response, ctx) {
        const text = fqlText(ctx.original);
        if (text === undefined || response.status !== 400 || !pattern.test(text)) return undefined;
        if (code !== undefined && errorCodeOf(response) !== code) return undefined;
        return acceptedQuery(response, ctx.original, traffic.lastToken ?? 'c291cmNlLWFjY2VwdGVkLWJ5LWZhdWx0');
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

/** Drops `permission_loss` error events that come within 10 s of a request `watch` recognises, and keeps those streams open. */
export function ignorePermissionLoss(watch: (req: ProxiedRequest) => boolean): () => FaultHooks {
  return () => {
    let lastSeen = 0;
    return {
      request(req) {
        if (watch(req)) lastSeen = Date.now();
        return undefined;
      },
      stream: () => ({
        async onEvent(event, writer) {
          if (isErrorEvent(event, 'permission_loss') && Date.now() - lastSeen < 10_000) return holdOpen(writer);
          writer.emit(event);
        },
      }),
    };
  };
}

/** True when the v4 expression the request carries has, at its top level (or in its top-level array), a form keyed `key` whose value matches. */
export function v4Writes(req: ProxiedRequest, key: string, matches: (value: unknown) => boolean = () => true): boolean {
  const expression = v4Expression(req);
  const forms = Array.isArray(expression) ? expression : [expression];
  return forms.some((form) => isJsonObject(form) && key in form && matches(form[key]));
}

/** Rewrites data events given the writes the proxy saw for their document in their transaction. */
export function triggerRewrite(edit: (event: JsonObject, writes: Write[]) => unknown[] | undefined): FaultHooks {
  const log = new WriteLog();
  const events = editEvents((event) => {
    const writes = log.at(eventDocId(event), event.txn_ts);
    return writes.length === 0 ? undefined : edit(event, writes);
  });
  return { ...events, json: chainJson(log.observe, events.json) };
}

const RETENTION_WINDOW_MICROS = 15n * 60n * 1_000_000n;

/** Replaces a `start_ts` inside retention but before the source's creation by the creation time. */
export function clampStartToCreation(where: { feed?: boolean; stream?: boolean }): FaultHooks {
  const traffic = new EventTraffic();
  return {
    json: traffic.observer().json,
    request: editEventRequest(where, (body) => {
      const created = typeof body.token === 'string' ? traffic.createdAt.get(body.token) : undefined;
      const start = bigintOf(body.start_ts);
      if (created === undefined || start === undefined || start >= created || start < nowMicros() - RETENTION_WINDOW_MICROS) return false;
      body.start_ts = jsonInt(created);
      return true;
    }),
  };
}

export interface CreatedDoc {
  ts: bigint;
  coll: string;
  /** The document as an event's `@doc`. */
  doc: JsonObject;
}

/**
 * Adds an `add` event, in `txn_ts` order, to a feed read from the source's creation for every document created
 * through the v4 endpoint since then that `include` selects and the page lacks: a source that lets through
 * writes it must not.
 */
export function addCreatedDocs(include: (create: CreatedDoc, source: { collection: string; query: string }) => boolean): FaultHooks {
  const traffic = new EventTraffic();
  const queries = new Map<string, string>();
  const creates: CreatedDoc[] = [];
  const observe: NonNullable<FaultHooks['json']> = (body, ctx) => {
    const token = isQueryV10(ctx.original) ? tokenOf(body) : undefined;
    if (token !== undefined) queries.set(token, fqlText(ctx.original) ?? '');
    const expression = v4Expression(ctx.original);
    const ts = /^\d+$/.test(ctx.headers['x-txn-time'] ?? '') ? BigInt(ctx.headers['x-txn-time']!) : undefined;
    if (expression === undefined || ts === undefined || !isJsonObject(body)) return undefined;
    const results = Array.isArray(body.resource) ? body.resource : [body.resource];
    (Array.isArray(expression) ? expression : [expression]).forEach((expr, i) => {
      const result = results[i];
      if (!isJsonObject(expr) || !('create' in expr) || !isJsonObject(result)) return;
      const refBody = isJsonObject(result.ref) && isJsonObject(result.ref['@ref']) ? result.ref['@ref'] : undefined;
      const coll =
        isJsonObject(refBody?.collection) && isJsonObject(refBody.collection['@ref']) ? refBody.collection['@ref'].id : undefined;
      if (typeof refBody?.id !== 'string' || typeof coll !== 'string') return;
      creates.push({
        ts,
        coll,
        doc: {
          id: refBody.id,
          coll: { '@mod': coll },
          ts: { '@time': new Date(Number(ts / 1000n)).toISOString() },
          ...(tagged(isJsonObject(result.data) ? result.data : {}) as JsonObject),
        },
      });
    });
    return undefined;
  };
  const add = rewriteJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body)?.has_next === false,
    (body, ctx) => {
      const request = requestObject(ctx.original)!;
      const token = typeof request.token === 'string' ? request.token : undefined;
      const collection = token === undefined ? undefined : traffic.collectionOf.get(token);
      const since = token === undefined ? undefined : traffic.createdAt.get(token);
      const page = feedPage(body)!;
      const last = page.events.at(-1);
      if (collection === undefined || since === undefined || 'cursor' in request || 'start_ts' in request || !isJsonObject(last))
        return false;
      const present = new Set(page.events.map((e) => (isJsonObject(e) ? eventDocId(e) : undefined)));
      const source = { collection, query: queries.get(token!) ?? '' };
      const added = creates.filter((c) => c.ts > since && !present.has(c.doc.id as string) && include(c, source));
      for (const { ts, doc } of added) {
        const at = page.events.findIndex((e) => isJsonObject(e) && (bigintOf(e.txn_ts) ?? 0n) > ts);
        page.events.splice(at === -1 ? page.events.length : at, 0, {
          type: 'add',
          data: { '@doc': doc },
          txn_ts: jsonInt(ts),
          cursor: last.cursor,
          stats: last.stats,
        });
      }
      return added.length;
    },
  );
  return { json: chainJson(observe, traffic.observer().json, add) };
}
