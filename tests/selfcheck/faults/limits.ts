// The faults of spec/requirements/limits.md that are code; their rows (ids, titles, what they break) are in limits.json.
import type { BufferedResponse, ProxiedRequest } from '../fault.js';
import { isJsonObject, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { refusedOnlyFor, roleCreatedAnyway } from './lib/access.js';
import { DATA_EVENT_TYPES, feedPage, isEvent, isFeedRequest, onStreams, withoutErrorEvents } from './lib/event-rewrites.js';
import { answerError } from './lib/records.js';
import {
  forwardInstead,
  isV4Query,
  onJson,
  onResponse,
  pathname,
  v4Expression,
  withJsonBody,
  withoutHeader,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

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
    else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
      deepest = Math.max(deepest, depth);
    } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return deepest;
}

/** The answer replaced by `status` and one v4 error (what the server did stands). */
const answeredWith = (status: number, error: { code: string; description: string }) => (res: BufferedResponse) =>
  withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [error] }), status);

function hasDeadline(request: ProxiedRequest): boolean {
  return request.headers['x-query-timeout'] !== undefined;
}

/** The steps of a top-level `do` ending in a Call, the work that outlasts a deadline in the suite's checks. */
function doEndingInCall(request: ProxiedRequest): unknown[] | undefined {
  const expression = v4Expression(request);
  if (!isJsonObject(expression) || Object.keys(expression).length !== 1 || !Array.isArray(expression.do)) return undefined;
  const last = expression.do.at(-1);
  return expression.do.length >= 2 && isJsonObject(last) && 'call' in last ? expression.do : undefined;
}

export const code: FaultCode = {
  'ROLE-LIMIT-UNENFORCED': () => ({
    response: roleCreatedAnyway((body) => refusedOnlyFor(body, (failure) => failure.code === 'resources exceeded')),
  }),
  'LIMIT-BODY-DECIMAL-MEGABYTE': onResponse(
    (_res, ctx) => ctx.original.body.length >= 1_000_000 && ctx.original.body.length <= 2 * 1024 * 1024,
    answeredWith(413, { code: 'request too large', description: 'Request body exceeds 1 MB.' }),
  ),
  'LIMIT-BODY-413-HTML': onResponse(
    (res) => res.status === 413,
    (res) => ({
      ...res,
      headers: { ...res.headers, 'content-type': 'text/html' },
      body: Buffer.from('<html><body><h1>413 Request Entity Too Large</h1></body></html>'),
    }),
  ),
  'LIMIT-NESTING-32': onResponse(
    (_res, ctx) => {
      if (!isV4Query(ctx.original) || ctx.original.body.length > 1024 * 1024) return false;
      const depth = nestingDepth(ctx.original.body);
      return depth > 32 && depth <= 1000;
    },
    (res) => answerError(res, 400, 'invalid expression', 'Expression nested too deeply.'),
  ),
  'LIMIT-NESTING-STACK-OVERFLOW': onResponse(
    (_res, ctx) => isV4Query(ctx.original) && ctx.original.body.length <= 4 * 1024 * 1024 && nestingDepth(ctx.original.body) > 10_000,
    answeredWith(500, { code: 'internal server error', description: 'Maximum call stack size exceeded.' }),
  ),
  'LIMIT-EVENTS-OVERFLOW-AT-128': onJson(
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
        events[index] = {
          type: 'error',
          error: { code: 'stream_overflow', message: 'Too many events in one transaction.' },
          stats: event.stats,
        };
        events.length = index + 1;
        replaced += 1;
      });
      return replaced;
    },
  ),
  'LIMIT-EVENTS-REPLAY-AT-127': () => ({
    stream: () => {
      let data = 0;
      return {
        onEvent: async (event, writer) => {
          if (writer.closed) return;
          if (isJsonObject(event) && event.type !== 'status' && event.type !== 'error') data += 1;
          if (data !== 127) return writer.emit(event);
          const error = {
            type: 'error',
            error: { code: 'stream_replay_volume_exceeded', message: 'Too many events to replay.' },
            stats: (event as JsonObject).stats,
          };
          // Flushed before the cut, so the suite reads the error event and then the end of the stream.
          await writer.writeRaw(`${stringifyJson(error)}\r\n`);
          writer.destroy();
        },
      };
    },
  }),
  'LIMIT-EVENTS-OPEN-AFTER-ERROR': () => ({
    stream: () => ({
      onEvent: async (event, writer) => {
        if (!isJsonObject(event) || event.type !== 'error') return writer.emit(event);
        // A copy, so the proxy counts the held-open error as an application of the fault.
        writer.emit({ ...event });
        await writer.pause(30_000);
      },
    }),
  }),
  'LIMIT-OPS-NOT-REPORTED': onJson(
    (body, ctx) => pathname(ctx.original) === '/feed/1' && isJsonObject(body) && Array.isArray(body.events),
    (body) =>
      ((body as JsonObject).events as unknown[]).reduce<number>((n, event) => {
        if (!isJsonObject(event) || !isJsonObject(event.stats) || String(event.stats.compute_ops) === '0') return n;
        event.stats.compute_ops = jsonInt(0);
        return n + 1;
      }, 0),
  ),
  'FEED-OVERSIZED-TRANSACTION-DROPPED': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined,
    (body) => {
      const page = feedPage(body)!;
      const perTxn = new Map<string, number>();
      for (const event of page.events)
        if (isEvent(event, ...DATA_EVENT_TYPES)) perTxn.set(String(event.txn_ts), (perTxn.get(String(event.txn_ts)) ?? 0) + 1);
      if (![...perTxn.values()].some((count) => count > 128)) return 0;
      page.events = [
        { type: 'error', error: { code: 'stream_overflow', message: 'Too many events to process.' }, stats: page.stats ?? {} },
      ];
      page.has_next = false;
      return 1;
    },
  ),
  'STREAM-OVERSIZED-TRANSACTION-TRUNCATED': () =>
    onStreams(() => {
      const perTxn = new Map<string, number>();
      return {
        onEvent(event, writer) {
          if (!isEvent(event, ...DATA_EVENT_TYPES)) return writer.emit(event);
          const txn = String(event.txn_ts);
          const seen = (perTxn.get(txn) ?? 0) + 1;
          perTxn.set(txn, seen);
          if (seen <= 128) writer.emit(event);
        },
      };
    }),
  'EVENTS-REPLAY-LIMIT-NOT-ENFORCED': () => withoutErrorEvents('stream_replay_volume_exceeded'),
  'QUERY-TIMEOUT-KEEPS-EARLIER-WRITES': () =>
    forwardInstead(
      (req) => {
        const steps = hasDeadline(req) ? doEndingInCall(req) : undefined;
        return steps === undefined ? undefined : Buffer.from(stringifyJson({ do: [...steps.slice(0, -1), null] }));
      },
      answeredWith(503, { code: 'time out', description: 'Read timed out (Query eval has timed out.)' }),
    ),
};
