/**
 * One TCP port that speaks HTTP/1.1 and cleartext HTTP/2 with prior knowledge (h2c). Both official drivers
 * default to h2c, while curl, undici and fetch use HTTP/1.1, so the first bytes of each connection are
 * sniffed for the HTTP/2 preface and the socket is handed to the matching `node:http` or `node:http2` server.
 */
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { Duplex } from 'node:stream';
import type { Exchange, ExchangeHandler, HeaderMap, IncomingRequest } from './exchange.js';
import { CompleteResponses } from './complete-responses.js';
import { StreamResponse, type CompatResponse } from './stream-response.js';
import { responseTraceparent } from './trace-context.js';

const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** A complete response the transport sends on its own, without calling the handler. */
export interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A canned response, or one per request path (so that each endpoint's error dialect can be used). */
export type CannedFor = CannedResponse | ((path: string) => CannedResponse);

export interface DualProtocolServerOptions {
  /** Bodies larger than this are refused with `tooLarge` (default 8 MiB). */
  maxBodyBytes?: number;
  tooLarge: CannedFor;
  /** Bytes of the bodies of requests not yet answered that the server holds at once (default MAX_PENDING_BODY_BYTES). */
  maxPendingBodyBytes?: number;
  /** Sent for a request whose body would take the bodies held past `maxPendingBodyBytes` (DEC-075). */
  busy: CannedFor;
  /** Sent when the handler throws or rejects without having responded. */
  internalError: CannedFor;
  /**
   * Sent (then the connection closes) when HTTP/1.1 parsing fails: a malformed request line or headers, or
   * headers over Node's size limit (431). Default: an empty 400.
   */
  malformed?: (status: 400 | 431) => CannedResponse;
  /** Reports faults the transport swallowed so that it never crashes. */
  onFault?: (error: unknown) => void;
  /** How long a new connection may stay without telling its protocol (default FIRST_BYTES_TIMEOUT_MS). */
  firstBytesTimeoutMs?: number;
  /** How long an HTTP/2 request body may stop arriving before its stream is cancelled (default H2_BODY_IDLE_TIMEOUT_MS). */
  h2BodyIdleTimeoutMs?: number;
}

/**
 * A connection that sends nothing, or only part of the HTTP/2 preface, is closed after this long (as long as
 * node:http's default `headersTimeout`): until its protocol is known, neither server's own timeouts watch it, and
 * idle connections would hold the process's file descriptors.
 */
export const FIRST_BYTES_TIMEOUT_MS = 60_000;

// Implements: LIMIT-BODY-001, LIMIT-BODY-002
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * A request's body is held in memory from its first byte until the request is answered (while it arrives, and then
 * while it waits for the transaction queue or runs); past this much in all, the request whose chunk would pass it is
 * refused (DEC-075). 32 bodies of the largest size: clients uploading many large bodies at once (each within the
 * limit, over many HTTP/2 streams of one connection, or queued behind a slow transaction) would otherwise exhaust
 * the process.
 */
export const MAX_PENDING_BODY_BYTES = 256 * 1024 * 1024;
/** HTTP/2 streams one connection may have open at once (node's default is unlimited). */
export const MAX_CONCURRENT_H2_STREAMS = 128;
/**
 * An HTTP/2 request whose body stops arriving for this long is cancelled (DEC-075): node:http's `requestTimeout`
 * ends a stalled HTTP/1.1 request, and nothing ends an HTTP/2 one. Only until the body is whole: an event stream's
 * response may then stay quiet for minutes.
 */
export const H2_BODY_IDLE_TIMEOUT_MS = 60_000;
/** After refusing an HTTP/1.1 body as too large, at most this much of the rest is read and dropped before closing. */
export const MAX_DISCARDED_BODY_BYTES = 256 * 1024 * 1024;

type CompatRequest = http.IncomingMessage | http2.Http2ServerRequest;

// Implements: PROTO-HTTP-001
export class DualProtocolServer {
  private readonly tcp: net.Server;
  private readonly h1: http.Server;
  private readonly h2: http2.Http2Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private readonly streams = new Set<StreamResponse>();
  private readonly maxBodyBytes: number;
  private readonly maxPendingBodyBytes: number;
  /** Bytes held of the bodies of requests not yet answered (see MAX_PENDING_BODY_BYTES). */
  private pendingBodyBytes = 0;
  /** One listener function for every response's and request's 'error' event. */
  private readonly faultListener = (err: Error) => this.fault(err);
  /** Written at the end of each event-loop turn (see complete-responses.ts). */
  readonly completeResponses = new CompleteResponses((err) => this.fault(err));

  constructor(
    private readonly handler: ExchangeHandler,
    private readonly options: DualProtocolServerOptions,
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxPendingBodyBytes = options.maxPendingBodyBytes ?? MAX_PENDING_BODY_BYTES;
    const onRequest = (req: CompatRequest, res: CompatResponse) => this.serve(req, res);
    // Clients drop idle connections after their own timeout, which must be shorter than the server's or a request
    // can race the server's close; a generous one (advertised as `Keep-Alive: timeout=30`) leaves every client a wide
    // margin even when its timers run late on a loaded machine.
    this.h1 = http.createServer({ keepAliveTimeout: 30_000 }, onRequest);
    this.h1.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      this.fault(err);
      if (socket.writable) socket.end(malformedResponse(err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, options.malformed));
      socket.destroy();
    });
    this.h2 = http2.createServer({ settings: { maxConcurrentStreams: MAX_CONCURRENT_H2_STREAMS } }, onRequest);
    this.h2.on('session', (session) => {
      this.sessions.add(session);
      session.on('close', () => this.sessions.delete(session));
      session.on('error', (err) => this.fault(err));
    });
    this.h2.on('sessionError', (err) => this.fault(err));
    // node:http turns Nagle's algorithm off on the sockets it accepts itself; these are accepted here, so the
    // same is asked for (otherwise a response can wait for the client's delayed ACK).
    this.tcp = net.createServer({ noDelay: true }, (socket) => this.sniff(socket));
    this.tcp.on('error', (err) => this.fault(err));
  }

  listen(port: number, host: string): Promise<{ port: number; host: string }> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.tcp.once('error', onError);
      this.tcp.listen(port, host, () => {
        this.tcp.off('error', onError);
        const address = this.tcp.address() as net.AddressInfo;
        resolve({ port: address.port, host });
      });
    });
  }

  /** Stops accepting, ends open streams, and closes every connection. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    // Requests already answered get their answers before the connections close.
    this.completeResponses.flush();
    for (const stream of [...this.streams]) stream.shutdown();
    for (const session of this.sessions) session.close();
    this.h1.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private fault(error: unknown): void {
    this.options.onFault?.(error);
  }

  private sniff(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', (err) => this.fault(err));
    socket.setTimeout(this.options.firstBytesTimeoutMs ?? FIRST_BYTES_TIMEOUT_MS, () => socket.destroy());
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const compared = Math.min(seen.length, H2_PREFACE.length);
      const isPrefacePrefix = seen.subarray(0, compared).equals(H2_PREFACE.subarray(0, compared));
      if (isPrefacePrefix && seen.length < H2_PREFACE.length) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      socket.pause();
      if (isPrefacePrefix) {
        // node:http2 reads from the socket handle directly and would miss unshifted bytes, so it gets a
        // stream that replays the sniffed bytes before the rest of the socket.
        this.h2.emit('connection', new ReplayingSocket(socket, seen));
        return;
      }
      socket.unshift(seen);
      this.h1.emit('connection', socket);
      socket.resume();
    };
    socket.on('data', onData);
  }

  // Implements: LIMIT-BODY-002
  private serve(req: CompatRequest, res: CompatResponse): void {
    res.on('error', this.faultListener);
    const protocol = req.httpVersionMajor === 2 ? 'h2c' : 'http/1.1';
    // node:http's IncomingMessage emits 'error' only when it has a listener; the HTTP/2 compat request may emit anyway.
    if (protocol === 'h2c') req.on('error', this.faultListener);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      this.refuse(req, res, protocol, this.options.tooLarge);
      return;
    }
    // The body listeners are shared functions (called with the request as `this`) that find the request's exchange
    // on the request itself: no closures are created per request.
    const exchange = new ServerExchange(this, req, res, protocol);
    (req as TrackedRequest)[EXCHANGE] = exchange;
    (res as TrackedResponse)[EXCHANGE] = exchange;
    req.on('data', onBodyChunk);
    req.on('end', onBodyEnd);
    // A request whose client goes away while its body arrives gives back what it held.
    res.on('close', onResponseClose);
    if (protocol === 'h2c') {
      const stream = (req as http2.Http2ServerRequest).stream;
      stream.setTimeout(this.options.h2BodyIdleTimeoutMs ?? H2_BODY_IDLE_TIMEOUT_MS, () => stream.close(http2.constants.NGHTTP2_CANCEL));
    }
  }

  /**
   * A body chunk of `exchange`'s request; past the size limit, or past what the server holds of bodies still
   * arriving, the request is refused and the rest ignored.
   */
  receive(exchange: ServerExchange, chunk: Buffer): void {
    if (exchange.refused) return;
    exchange.size += chunk.length;
    if (exchange.size > this.maxBodyBytes) {
      this.refuseExchange(exchange, this.options.tooLarge);
      return;
    }
    if (this.pendingBodyBytes + chunk.length > this.maxPendingBodyBytes) {
      this.refuseExchange(exchange, this.options.busy);
      return;
    }
    this.pendingBodyBytes += chunk.length;
    exchange.held += chunk.length;
    if (exchange.firstChunk === undefined) exchange.firstChunk = chunk;
    else {
      exchange.moreChunks ??= [exchange.firstChunk];
      exchange.moreChunks.push(chunk);
    }
  }

  /**
   * Gives back what `exchange` held of the bodies of requests not yet answered: once its handler is done or has
   * opened a stream, or once it is refused or abandoned before its body is whole. A request whose client goes away
   * after that still holds its body until its handler is done (it may be waiting for the transaction queue).
   */
  release(exchange: ServerExchange): void {
    this.pendingBodyBytes -= exchange.held;
    exchange.held = 0;
  }

  private refuseExchange(exchange: ServerExchange, canned: CannedFor): void {
    exchange.refused = true;
    this.release(exchange);
    exchange.firstChunk = undefined;
    exchange.moreChunks = undefined;
    this.refuse(exchange.req, exchange.res, exchange.protocol, canned);
  }

  /** The whole body has arrived: the request is built and handed to the handler (its bytes stay held meanwhile). */
  received(exchange: ServerExchange): void {
    exchange.bodyWhole = true;
    if (exchange.protocol === 'h2c') (exchange.req as http2.Http2ServerRequest).stream.setTimeout(0);
    if (exchange.refused) return;
    const body = exchange.moreChunks ? Buffer.concat(exchange.moreChunks) : (exchange.firstChunk ?? EMPTY_BODY);
    try {
      exchange.request = incomingRequest(exchange.req, body, exchange.protocol);
    } catch (err) {
      // Nothing a client sends may escape as an exception: that would end the process.
      this.fault(err);
      this.release(exchange);
      this.sendCanned(exchange.req, exchange.res, pick(this.options.internalError, '/'));
      return;
    }
    this.dispatch(exchange);
  }

  private dispatch(exchange: ServerExchange): void {
    let pending: Promise<void> | undefined;
    try {
      pending = this.handler(exchange);
    } catch (err) {
      this.handlerFailed(exchange, err);
      return;
    }
    // A handler that answered at once costs no promise here either.
    if (pending === undefined) this.handlerDone(exchange);
    else
      pending.then(
        () => this.handlerDone(exchange),
        (err: unknown) => this.handlerFailed(exchange, err),
      );
  }

  private handlerFailed(exchange: ServerExchange, err: unknown): void {
    this.release(exchange);
    this.fault(err);
    if (exchange.responded) {
      // An opened stream ends after what was written to it; a complete response waiting for the end of the turn
      // still goes out whole.
      exchange.stream?.end();
      return;
    }
    this.handlerDone(exchange);
  }

  /** A handler that returned without responding gets the internal-error answer: every request is answered. */
  private handlerDone(exchange: ServerExchange): void {
    this.release(exchange);
    if (!exchange.responded) this.sendCanned(exchange.req, exchange.res, pick(this.options.internalError, exchange.request.path));
  }

  /** Opens a long-lived response for `exchange` (see `Exchange.openStream`). */
  openStream(exchange: ServerExchange, status: number, headers: Record<string, string>): StreamResponse {
    // A stream's request has been answered, though its response stays open.
    this.release(exchange);
    const res = exchange.res;
    const streams = this.streams;
    const stream = new StreamResponse(res, () => streams.delete(stream));
    streams.add(stream);
    res.writeHead(status, { ...headers, traceparent: traceparentOf(exchange.req) });
    // Flush the headers at once so the client sees the stream open before the first event.
    if ('flushHeaders' in res) res.flushHeaders();
    return stream;
  }

  /** Answers `refusal` (413, 429) to a request whose body is refused, and drops the rest of the body. */
  private refuse(req: CompatRequest, res: CompatResponse, protocol: IncomingRequest['protocol'], refusal: CannedFor): void {
    const canned = pick(refusal, requestPath(req.url));
    if (protocol !== 'http/1.1' || res.headersSent) {
      // HTTP/2 ends just this stream; the client's remaining DATA frames are dropped by the session.
      this.sendCanned(req, res, canned);
      req.resume();
      return;
    }
    // HTTP/1.1: the answer goes out at once, but the connection (which closes: the rest of the body would arrive on
    // it) ends only after the rest of the body has been read and dropped. Closing a socket with unread bytes makes
    // the kernel send a reset, which can destroy the answer in the client's buffers before the client reads it —
    // the client, still uploading, would see a dropped connection instead of 413.
    const h1 = res as http.ServerResponse;
    const payload = Buffer.from(canned.body, 'utf8');
    h1.writeHead(canned.status, {
      ...canned.headers,
      traceparent: traceparentOf(req),
      connection: 'close',
      'content-length': String(payload.length),
    });
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_DISCARDED_BODY_BYTES) {
      h1.end(payload);
      req.resume();
      return;
    }
    h1.write(payload);
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      // A client that keeps sending past the cap is cut off; it has had its answer.
      if (discarded > MAX_DISCARDED_BODY_BYTES) req.socket?.destroy();
    });
    req.on('end', () => h1.end());
    req.resume();
  }

  private sendCanned(req: CompatRequest, res: CompatResponse, canned: CannedResponse): void {
    if (res.headersSent || res.writableEnded) return;
    this.completeResponses.send(res, canned.status, canned.headers, canned.body, traceparentOf(req));
  }
}

/** Every response carries a `traceparent` (DEC-131), continuing the request's trace when it names a valid one. */
function traceparentOf(req: CompatRequest): string {
  const header = req.headers.traceparent;
  return responseTraceparent(typeof header === 'string' ? header : undefined);
}

function pick(canned: CannedFor, path: string): CannedResponse {
  return typeof canned === 'function' ? canned(path) : canned;
}

const REASONS = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' } as const;

function malformedResponse(status: 400 | 431, malformed: DualProtocolServerOptions['malformed']): Buffer {
  const canned = malformed?.(status);
  const body = Buffer.from(canned?.body ?? '', 'utf8');
  const headers = Object.entries(canned?.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\n${headers}Connection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

const EXCHANGE = Symbol('exchange');
type TrackedRequest = CompatRequest & { [EXCHANGE]?: ServerExchange };
type TrackedResponse = CompatResponse & { [EXCHANGE]?: ServerExchange };
const EMPTY_BODY = Buffer.alloc(0);

function onBodyChunk(this: TrackedRequest, chunk: Buffer): void {
  const exchange = this[EXCHANGE]!;
  exchange.server.receive(exchange, chunk);
}

function onBodyEnd(this: TrackedRequest): void {
  const exchange = this[EXCHANGE]!;
  exchange.server.received(exchange);
}

function onResponseClose(this: TrackedResponse): void {
  const exchange = this[EXCHANGE]!;
  if (!exchange.bodyWhole) exchange.server.release(exchange);
}

/** One request/response pair, from its first body byte to its response. */
class ServerExchange implements Exchange {
  /** Set once the body has arrived, before the handler is called. */
  request!: IncomingRequest;
  responded = false;
  /** The long-lived response, once `openStream` opened one. */
  stream: StreamResponse | undefined;
  refused = false;
  size = 0;
  /** Bytes of the body held and counted against the server's pending bodies (see `DualProtocolServer.receive`). */
  held = 0;
  /** Set once the whole body has arrived and the request goes to the handler. */
  bodyWhole = false;
  firstChunk: Buffer | undefined;
  /** Every chunk, once there is more than one. */
  moreChunks: Buffer[] | undefined;

  constructor(
    readonly server: DualProtocolServer,
    readonly req: CompatRequest,
    readonly res: CompatResponse,
    readonly protocol: IncomingRequest['protocol'],
  ) {}

  respond(status: number, headers: Record<string, string>, body: string): void {
    if (this.responded) throw new Error('response already sent');
    this.responded = true;
    this.server.completeResponses.send(this.res, status, headers, body, traceparentOf(this.req));
  }

  openStream(status: number, headers: Record<string, string>): StreamResponse {
    if (this.responded) throw new Error('response already sent');
    this.responded = true;
    this.stream = this.server.openStream(this, status, headers);
    return this.stream;
  }
}

/** A request as endpoints see it; the query string is parsed only when an endpoint reads it. */
class ReceivedRequest implements IncomingRequest {
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    /** The query string (with or without its `?`). */
    private readonly search: string,
    readonly headers: HeaderMap,
    readonly body: Buffer,
    readonly protocol: IncomingRequest['protocol'],
  ) {}

  get query(): URLSearchParams {
    this.parsedQuery ??= new URLSearchParams(this.search);
    return this.parsedQuery;
  }
}

function incomingRequest(req: CompatRequest, body: Buffer, protocol: IncomingRequest['protocol']): IncomingRequest {
  const target = req.url ?? '/';
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = requestHeaders(req.headers, protocol);
  if (PLAIN_PATH.test(target) && target !== '') return new ReceivedRequest(method, target, '', headers, body, protocol);
  const url = parsedUrl(target);
  return new ReceivedRequest(method, url.pathname, url.search, headers, body, protocol);
}

/**
 * Lower-case names, repeated headers joined with `, `. node:http already gives HTTP/1.1 requests that shape (names
 * lower-cased, repeats joined) except for `set-cookie`, which it keeps as an array, so its object is used as is
 * when it has none; HTTP/2 headers carry pseudo-headers (`:path`) that are left out.
 */
function requestHeaders(incoming: http.IncomingHttpHeaders, protocol: IncomingRequest['protocol']): HeaderMap {
  if (protocol === 'http/1.1' && incoming['set-cookie'] === undefined) return incoming as HeaderMap;
  const headers: Record<string, string> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (name.charCodeAt(0) === 58 /* ':' */ || value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * A path of letters, digits, `_`, `-` and single `/` separators, with no query: `new URL` would return it
 * unchanged (no dot segments, escapes or characters it re-encodes), so it is used as is and the URL parser
 * is skipped for the common case.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)*\/?$/;

/**
 * The request target's path (for routing a refusal), without building the request.
 */
function requestPath(target: string | undefined): string {
  const text = target ?? '/';
  return PLAIN_PATH.test(text) && text !== '' ? text : parsedUrl(text).pathname;
}

/**
 * Origin-form targets are resolved as paths even when they start with `//` (which `new URL(target, base)` would
 * read as a host); absolute-form targets keep only their path. Anything unparseable becomes a path no route
 * matches, so it is answered 404 rather than thrown.
 */
function parsedUrl(text: string): URL {
  try {
    return text.startsWith('/') ? new URL(`http://server${text}`) : new URL(text);
  } catch {
    return new URL('http://server/%00unparseable-request-target');
  }
}

/** A duplex over a socket whose first bytes were already read: it yields `prefix`, then the socket's data. */
class ReplayingSocket extends Duplex {
  constructor(
    private readonly socket: net.Socket,
    prefix: Buffer,
  ) {
    super();
    this.push(prefix);
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms, callback);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }
}
