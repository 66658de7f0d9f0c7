// A fault-injecting HTTP/1.1 proxy: the suite talks to it, it forwards to an upstream server with undici
// and lets a fault rewrite requests, buffered responses, or the headers and events of an open `/stream/1` response.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request as upstreamRequest } from 'undici';
import type { BufferedResponse, ExchangeContext, FaultHooks, ProxiedRequest, StreamEventHook, StreamWriter } from './fault.js';
import { FAILPOINTS_FIRED_HEADER, FAILPOINTS_HEADER } from '../../reference-impl/failpoints.js';
import { stringifyJson, tryParseJson } from './json-body.js';

export interface FaultProxyOptions {
  /** Base URL of the server to forward to, e.g. `http://127.0.0.1:8443`. */
  upstream: string;
  hooks?: FaultHooks;
  port?: number;
  host?: string;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Requests forwarded so far. */
  readonly exchanges: number;
  /** Messages or stream events the fault changed so far. */
  readonly applied: number;
  close(): Promise<void>;
}

const EVENT_SEPARATOR = '\r\n';
// Hop-by-hop headers (RFC 9110 §7.6.1) and those the proxy recomputes; accept-encoding is dropped so
// every body the hooks see is plain text.
const REQUEST_HEADERS_NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'content-length',
  'expect',
  'accept-encoding',
  'trailer',
]);
const RESPONSE_HEADERS_NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'trailer', 'upgrade']);

/** `/stream/1`, and `/stream` (v4 streams, DEC-064): relayed event by event instead of buffered. */
export function isStreamPath(path: string): boolean {
  const route = path.split('?')[0];
  return route === '/stream/1' || route === '/stream';
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>, skip: ReadonlySet<string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (value === undefined || skip.has(lower)) continue;
    headers[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readAll(message: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const hooks = options.hooks ?? {};
  const upstream = new URL(options.upstream);
  // The suite owns every timeout; the proxy only mirrors the suite giving up by aborting upstream.
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 1_000 });
  let exchanges = 0;
  let applied = 0;

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    exchanges += 1;
    const aborter = new AbortController();
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) aborter.abort();
    });

    const original: ProxiedRequest = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: flattenHeaders(incoming.headers, REQUEST_HEADERS_NOT_FORWARDED),
      body: await readAll(incoming),
    };
    let forwarded = original;
    if (hooks.request) {
      const rewritten = await hooks.request({ ...original, headers: { ...original.headers }, body: Buffer.from(original.body) });
      if (rewritten !== undefined) {
        applied += 1;
        forwarded = rewritten;
      }
    }
    if (hooks.failpoints !== undefined && hooks.failpoints.length > 0) {
      forwarded = { ...forwarded, headers: { ...forwarded.headers, [FAILPOINTS_HEADER]: hooks.failpoints.join(',') } };
    }
    const context: ExchangeContext = { original, request: forwarded };

    const hasBody = forwarded.body.length > 0 || !['GET', 'HEAD'].includes(forwarded.method);
    const answer = await upstreamRequest(new URL(forwarded.path, upstream), {
      method: forwarded.method as 'GET',
      headers: forwarded.headers,
      body: hasBody ? forwarded.body : undefined,
      dispatcher,
      signal: aborter.signal,
    });
    const responseHeaders = flattenHeaders(answer.headers, RESPONSE_HEADERS_NOT_FORWARDED);
    // A failpoint the server says fired is an application of the fault; the suite never sees the header.
    if (responseHeaders[FAILPOINTS_FIRED_HEADER] !== undefined) {
      applied += 1;
      delete responseHeaders[FAILPOINTS_FIRED_HEADER];
    }

    if (isStreamPath(forwarded.path) && answer.statusCode === 200) {
      const streamHook = hooks.stream?.(context);
      const rewrittenHeaders = hooks.streamHeaders?.({ ...responseHeaders }, context);
      if (rewrittenHeaders !== undefined) applied += 1;
      outgoing.writeHead(200, rewrittenHeaders ?? responseHeaders);
      outgoing.flushHeaders();
      if (streamHook === undefined) {
        for await (const chunk of answer.body) {
          if (!outgoing.write(chunk)) await waitForDrain(outgoing);
        }
        outgoing.end();
      } else {
        await relayEvents(answer.body, outgoing, streamHook, () => (applied += 1));
      }
      return;
    }

    let response: BufferedResponse = { status: answer.statusCode, headers: responseHeaders, body: await readAll(answer.body) };
    if (hooks.json) {
      const parsed = tryParseJson(response.body);
      if (parsed.ok) {
        const rewritten = hooks.json(parsed.value, { ...context, status: response.status, headers: response.headers });
        if (rewritten !== undefined) {
          applied += 1;
          response = { ...response, body: Buffer.from(stringifyJson(rewritten)) };
        }
      }
    }
    if (hooks.response) {
      const rewritten = hooks.response(response, context);
      if (rewritten !== undefined) {
        applied += 1;
        response = rewritten;
      }
    }
    outgoing.writeHead(response.status, { ...response.headers, 'content-length': String(response.body.length) });
    outgoing.end(response.body);
  }

  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      // An upstream failure is reported in the v4 protocol-error shape so it reads clearly in a report.
      const body = JSON.stringify({ errors: [{ code: 'bad gateway', description: `fault proxy: ${String(error)}` }] });
      outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      outgoing.end(body);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    get exchanges() {
      return exchanges;
    },
    get applied() {
      return applied;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispatcher.destroy();
    },
  };
}

/** Until the response can take more (or its connection is gone): a write that answered false waits here. */
export function waitForDrain(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.on('drain', done);
    outgoing.on('close', done);
  });
}

/** Splits the upstream stream into `\r\n`-separated events and passes each through the hook, in order. */
async function relayEvents(
  source: AsyncIterable<Buffer>,
  outgoing: ServerResponse,
  hook: StreamEventHook,
  countApplied: () => void,
): Promise<void> {
  let destroyed = false;
  const isClosed = () => destroyed || outgoing.destroyed || outgoing.writableEnded;
  let emitted: unknown[] = [];
  const writer: StreamWriter = {
    emit(event) {
      emitted.push(event);
      if (!isClosed()) outgoing.write(stringifyJson(event) + EVENT_SEPARATOR);
    },
    writeRaw(chunk) {
      // Resolves once the bytes reached the socket, so a hook that cuts the connection right after
      // still delivers them.
      return new Promise((resolve) => {
        if (isClosed()) return resolve();
        outgoing.write(chunk, () => resolve());
      });
    },
    destroy() {
      destroyed = true;
      outgoing.destroy();
    },
    pause(ms) {
      return new Promise((resolve) => {
        if (isClosed()) return resolve();
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          outgoing.off('close', finish);
          resolve();
        }
        outgoing.once('close', finish);
      });
    },
    get closed() {
      return isClosed();
    },
  };

  let pending = '';
  let index = 0;
  for await (const chunk of source) {
    if (isClosed()) break;
    pending += chunk.toString('utf8');
    let cut = pending.indexOf(EVENT_SEPARATOR);
    while (cut !== -1 && !isClosed()) {
      const line = pending.slice(0, cut);
      pending = pending.slice(cut + EVENT_SEPARATOR.length);
      cut = pending.indexOf(EVENT_SEPARATOR);
      if (line.trim() === '') continue;
      const parsed = tryParseJson(line);
      if (!parsed.ok) {
        await writer.writeRaw(line + EVENT_SEPARATOR);
        continue;
      }
      emitted = [];
      await hook.onEvent(parsed.value, writer, index);
      index += 1;
      // A hook that cut the stream changed it, even when it passed the event on first.
      if (destroyed || !(emitted.length === 1 && emitted[0] === parsed.value)) countApplied();
    }
  }
  if (isClosed()) return;
  if (pending !== '') await writer.writeRaw(pending);
  outgoing.end();
}
