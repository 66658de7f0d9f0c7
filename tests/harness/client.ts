// The suite's HTTP client (undici). Every call has a deadline, every exchange is recorded for the transcript, and
// every response is validated against the schema of its endpoint unless the caller opts out.
import { Agent, errors as undiciErrors, request as undiciRequest, type Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import { Response } from './response.js';
import { assertMatchesSchema, responseSchemaFor, STREAM_EVENT_SCHEMA, V4_STREAM_EVENT_SCHEMA } from './response-schemas.js';
import { registerSecret } from './redaction.js';
import { registerSecretsIn } from './secret-discovery.js';
import { StreamReader } from './stream-reader.js';
import { reportAnswered, reportNoAnswer, TARGET_LOST, targetLostReason, targetLostSignal } from './target-health.js';
import { recordExchange, setTranscriptBody, type Exchange } from './transcript.js';
import { parseWireJson, stringifyWireJson } from './wire-json.js';

export type AuthScheme = 'bearer' | 'basic' | 'none';

export interface ClientTarget {
  url: string;
  requestTimeoutMs: number;
  streamTimeoutMs: number;
}

export interface RequestOptions {
  /** Extra headers; a header set to null is removed from the defaults. */
  headers?: Record<string, string | null>;
  /** A JS value (sent as lossless JSON) … */
  body?: unknown;
  /** … or the exact bytes to send, e.g. malformed JSON. */
  rawBody?: string | Buffer;
  /** Overrides the client's secret for this request. */
  secret?: string;
  auth?: AuthScheme;
  timeoutMs?: number;
  /** Validate the response against its endpoint's schema (default true). */
  validate?: boolean;
}

export interface QueryOptions extends Omit<RequestOptions, 'body' | 'rawBody'> {
  /** Value of `X-FaunaDB-API-Version`; null omits the header. Default "4". */
  apiVersion?: string | null;
}

export interface FqlOptions extends Omit<RequestOptions, 'body' | 'rawBody'> {
  /** Value of `x-format`; default "tagged", as the official driver sends. */
  format?: 'tagged' | 'simple' | null;
}

export class HttpFailure extends Error {
  override name = 'HttpFailure';
}

// An idle pooled connection must be dropped well before the server drops it: a request sent on a connection the
// server is closing fails with "connection closed" although the server did nothing wrong, and a POST cannot be
// safely retried. undici keeps a connection for the server's `Keep-Alive: timeout=N` hint minus the threshold (so
// 2 s against a server that idles out at 5 s), at most 4 s, and its idle timers can fire up to a second late.
const agent = new Agent({
  connect: { timeout: 5_000 },
  keepAliveTimeout: 2_000,
  keepAliveMaxTimeout: 4_000,
  keepAliveTimeoutThreshold: 3_000,
});

function describeFailure(err: unknown, timeoutMs: number): string {
  const lost = targetLostReason();
  if (lost !== undefined) return `${TARGET_LOST} (${lost})`;
  if (err instanceof undiciErrors.HeadersTimeoutError) return `no response headers within ${timeoutMs} ms`;
  if (err instanceof undiciErrors.BodyTimeoutError) return `response body stalled for ${timeoutMs} ms`;
  if (err instanceof undiciErrors.ConnectTimeoutError) return 'connection timed out';
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no complete response within ${timeoutMs} ms`;
  const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed by the server before a complete response';
  return err instanceof Error ? err.message : String(err);
}

/** No answer at all (a deadline, a refused or reset connection): what dead-target detection counts. */
function isNoAnswer(err: unknown): boolean {
  if (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  )
    return true;
  if (err instanceof Error && err.name === 'TimeoutError') return true;
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/**
 * A complete (non-stream) response larger than this fails at once: no answer of the API comes near it, and reading,
 * parsing and schema-checking bodies of tens of MiB from a hostile server would take the run past every deadline.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

async function readLimited(res: Dispatcher.ResponseData): Promise<string> {
  const tooLarge = () => new ResponseTooLargeError(`response body larger than ${MAX_RESPONSE_BYTES / (1024 * 1024)} MiB`);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      res.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function tryParse(text: string): { body: unknown; json: unknown } {
  if (text.trim() === '') return { body: undefined, json: undefined };
  try {
    return { body: parseWireJson(text), json: JSON.parse(text) };
  } catch {
    return { body: undefined, json: undefined };
  }
}

/**
 * The latest `x-txn-time` answered by each target (by URL), sent back as `x-last-seen-txn` with every v4 query, as the
 * official drivers send the latest one they have seen: the real service reads at or after that time, which is what
 * makes a read see a write whose answer the client has had (DEC-135). Shared by every client of the process, so a read
 * with one key follows a write with another.
 */
const lastSeenTxn = new Map<string, bigint>();

function noteTxnTime(url: string, headers: Record<string, string>): void {
  const time = headers['x-txn-time'];
  if (time === undefined || !/^\d{1,19}$/.test(time)) return;
  const seen = BigInt(time);
  // Only what a server may be sent back (a 64-bit time, DEC-063).
  if (seen < 2n ** 63n && seen > (lastSeenTxn.get(url) ?? -1n)) lastSeenTxn.set(url, seen);
}

/** A client bound to one target and (optionally) one secret. Cheap to create. */
export class Client {
  constructor(
    readonly target: ClientTarget,
    readonly secret?: string,
  ) {
    registerSecret(secret);
  }

  /** The same target with another secret. */
  as(secret: string): Client {
    return new Client(this.target, secret);
  }

  private prepare(method: string, path: string, opts: RequestOptions, defaults: Record<string, string>) {
    const headers: Record<string, string> = { ...defaults };
    const secret = opts.secret ?? this.secret;
    if (opts.secret) registerSecret(opts.secret);
    const auth = opts.auth ?? 'bearer';
    if (auth !== 'none' && secret !== undefined) {
      headers.authorization = auth === 'basic' ? `Basic ${Buffer.from(`${secret}:`).toString('base64')}` : `Bearer ${secret}`;
    }
    let payload: string | Buffer | undefined;
    if (opts.rawBody !== undefined) payload = opts.rawBody;
    else if (opts.body !== undefined) {
      payload = stringifyWireJson(opts.body);
      headers['content-type'] = 'application/json';
    }
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === null) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    const request: Exchange['request'] = { headers: { ...headers } };
    setTranscriptBody(request, payload);
    const exchange = recordExchange({
      method,
      url: new URL(path, `${this.target.url}/`).href,
      path,
      startedAt: new Date().toISOString(),
      durationMs: 0,
      request,
    });
    return { headers, payload, exchange };
  }

  private async send(
    method: string,
    path: string,
    opts: RequestOptions,
    defaults: Record<string, string>,
    stream: boolean,
  ): Promise<{ res: Dispatcher.ResponseData; exchange: Exchange; started: number; timeoutMs: number }> {
    const { headers, payload, exchange } = this.prepare(method, path, opts, defaults);
    const timeoutMs = opts.timeoutMs ?? this.target.requestTimeoutMs;
    const started = performance.now();
    const lost = targetLostSignal();
    try {
      if (lost.aborted) throw lost.reason;
      const res = await undiciRequest(this.target.url + path, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: payload,
        dispatcher: agent,
        headersTimeout: timeoutMs,
        // A stream's body may legitimately be idle; StreamReader puts a deadline on every read instead.
        bodyTimeout: stream ? 0 : timeoutMs,
        // A lost target aborts a stream too, however long it may legitimately stay idle.
        signal: stream ? lost : AbortSignal.any([AbortSignal.timeout(timeoutMs), lost]),
      });
      return { res, exchange, started, timeoutMs };
    } catch (err) {
      throw this.failure(err, method, path, exchange, started, timeoutMs, '');
    }
  }

  private failure(
    err: unknown,
    method: string,
    path: string,
    exchange: Exchange,
    started: number,
    timeoutMs: number,
    prefix: string,
  ): HttpFailure {
    exchange.durationMs = Math.round(performance.now() - started);
    exchange.error = describeFailure(err, timeoutMs);
    if (isNoAnswer(err)) reportNoAnswer(`${method} ${path}: ${exchange.error}`);
    return new HttpFailure(`${method} ${this.target.url}${path}: ${prefix}${exchange.error}`);
  }

  /** Any request, as raw as wanted. Still validated against its endpoint's schema unless `validate: false`. */
  async request(method: string, path: string, opts: RequestOptions = {}, defaults: Record<string, string> = {}): Promise<Response> {
    const { res, exchange, started, timeoutMs } = await this.send(method, path, opts, defaults, false);
    let text: string;
    try {
      text = await readLimited(res);
    } catch (err) {
      throw this.failure(err, method, path, exchange, started, timeoutMs, `status ${res.statusCode}, then `);
    }
    reportAnswered();
    const durationMs = Math.round(performance.now() - started);
    const headers = flattenHeaders(res.headers);
    noteTxnTime(this.target.url, headers);
    exchange.durationMs = durationMs;
    exchange.response = { status: res.statusCode, headers };
    setTranscriptBody(exchange.response, text);
    const { body, json } = tryParse(text);
    registerSecretsIn(json);
    const response = new Response(method, path, res.statusCode, headers, text, body, json, durationMs);
    if (opts.validate !== false) {
      const schema = responseSchemaFor(path, res.statusCode);
      // token-self describes the record inside `{"resource": …}`; the body must carry one.
      if (schema === 'token-self') {
        const resource = json !== null && typeof json === 'object' && 'resource' in json ? json.resource : json;
        assertMatchesSchema(schema, resource, `${method} ${path} (status ${res.statusCode}) resource`, text);
      } else response.expectSchema(schema);
    }
    return response;
  }

  /**
   * `POST /` with a v4 expression; `X-FaunaDB-API-Version: 4` unless overridden, and `x-last-seen-txn` with the
   * latest `x-txn-time` seen from the target, as the drivers send it (a header given in `opts` replaces it).
   */
  query(expr: unknown, opts: QueryOptions = {}): Promise<Response> {
    const apiVersion = opts.apiVersion === undefined ? '4' : opts.apiVersion;
    const defaults: Record<string, string> = apiVersion === null ? {} : { 'x-faunadb-api-version': apiVersion };
    const seen = lastSeenTxn.get(this.target.url);
    if (seen !== undefined) defaults['x-last-seen-txn'] = seen.toString();
    return this.request('POST', '/', { ...opts, body: expr }, defaults);
  }

  /** `GET /ping`, optionally with a scope. */
  ping(scope?: string, opts: RequestOptions = {}): Promise<Response> {
    return this.request('GET', scope ? `/ping?scope=${encodeURIComponent(scope)}` : '/ping', opts);
  }

  /** `POST /query/1` with `{query, arguments}`; the query is an FQL string or a `{fql: [...]}` template. */
  fql(query: string | { fql: unknown[] }, args?: Record<string, unknown>, opts: FqlOptions = {}): Promise<Response> {
    const format = opts.format === undefined ? 'tagged' : opts.format;
    const body = args === undefined ? { query } : { query, arguments: args };
    return this.request('POST', '/query/1', { ...opts, body }, format === null ? {} : { 'x-format': format });
  }

  /** `POST /feed/1` with `{token, start_ts?, cursor?, page_size?}`. */
  feed(body: unknown, opts: RequestOptions = {}): Promise<Response> {
    return this.request('POST', '/feed/1', { ...opts, body });
  }

  /**
   * `POST /stream/1`. Resolves once the response headers arrive. A non-200 answer is read completely and thrown as
   * an error carrying the Response (see `StreamRejectedError`), so tests of rejected streams can inspect it.
   */
  stream(body: unknown, opts: RequestOptions = {}): Promise<StreamReader> {
    return this.openStream('/stream/1', { ...opts, body }, {}, STREAM_EVENT_SCHEMA);
  }

  /**
   * `POST /stream` (the v4 driver's streams, DEC-064) with a v4 expression, `?fields=` when given, and
   * `X-FaunaDB-API-Version: 4`; rejected answers are thrown as for `stream`.
   */
  v4Stream(expr: unknown, opts: RequestOptions & { fields?: string } = {}): Promise<StreamReader> {
    const { fields, ...rest } = opts;
    const path = fields === undefined ? '/stream' : `/stream?fields=${encodeURIComponent(fields)}`;
    return this.openStream(path, { ...rest, body: expr }, { 'x-faunadb-api-version': '4' }, V4_STREAM_EVENT_SCHEMA);
  }

  private async openStream(
    path: string,
    opts: RequestOptions,
    defaults: Record<string, string>,
    eventSchema: string,
  ): Promise<StreamReader> {
    const { res, exchange, started } = await this.send('POST', path, opts, defaults, true);
    reportAnswered();
    const headers = flattenHeaders(res.headers);
    exchange.durationMs = Math.round(performance.now() - started);
    exchange.response = { status: res.statusCode, headers };
    if (res.statusCode !== 200) {
      const text = await readWithDeadline(res, opts.timeoutMs ?? this.target.requestTimeoutMs);
      setTranscriptBody(exchange.response, text);
      const { body: parsed, json } = tryParse(text);
      const response = new Response('POST', path, res.statusCode, headers, text, parsed, json, exchange.durationMs);
      if (opts.validate !== false) response.expectSchema(responseSchemaFor(path, res.statusCode));
      throw new StreamRejectedError(response);
    }
    return new StreamReader(
      res.statusCode,
      headers,
      res.body as Readable,
      exchange,
      this.target.streamTimeoutMs,
      opts.validate !== false,
      eventSchema,
    );
  }
}

/** A stream request the server answered with something other than 200; `response` holds the full answer. */
export class StreamRejectedError extends Error {
  override name = 'StreamRejectedError';
  constructor(readonly response: Response) {
    super(response.explain('did not open a stream'));
  }
}

async function readWithDeadline(res: Dispatcher.ResponseData, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      readLimited(res),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          res.body.destroy();
          reject(new HttpFailure(`POST stream: error body not complete within ${timeoutMs} ms`));
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
