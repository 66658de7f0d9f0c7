/** Bodies of the v10 endpoints (`/query/1`, `/feed/1`, `/stream/1`): `{"error": {code, message}}` and query stats. */
import { parse as parseLossless } from 'lossless-json';
import type { V10Error, V10QueryStats } from '../../schemas/types.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import type { RequestContext } from './route-table.js';

// Implements: ESRC-QUERY-006
export function v10QueryStats(queryTimeMs: number): V10QueryStats {
  return {
    compute_ops: 1,
    read_ops: 0,
    write_ops: 0,
    query_time_ms: Math.max(0, Math.round(queryTimeMs)),
    contention_retries: 0,
    storage_bytes_read: 0,
    storage_bytes_write: 0,
    rate_limits_hit: [],
  };
}

// Implements: PROTO-ERROR-010
/** A protocol-level error: `{"error": {code, message}}` only. */
export function sendV10Error(ctx: RequestContext, status: number, code: string, message: string): void {
  const body: V10Error = { error: { code, message } };
  ctx.exchange.respond(status, { 'content-type': JSON_CONTENT_TYPE }, JSON.stringify(body));
}

// Implements: ESRC-QUERY-004, FEED-REQ-004
/** The JSON body of a request, or undefined after answering 400 `invalid_request`. */
export function readJsonBody(ctx: RequestContext): Record<string, unknown> | undefined {
  const text = ctx.exchange.request.body.toString('utf8');
  if (text.trim() === '') {
    sendV10Error(ctx, 400, 'invalid_request', 'No request body provided');
    return undefined;
  }
  let parsed: unknown;
  try {
    // Integers keep every digit (`start_ts` is microseconds; query arguments may be 64-bit).
    parsed = parseLossless(text, null, (digits: string) => (/[.eE]/.test(digits) ? Number(digits) : BigInt(digits)));
  } catch (error) {
    sendV10Error(ctx, 400, 'invalid_request', `Invalid request body: ${(error as Error).message}`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    sendV10Error(ctx, 400, 'invalid_request', 'Invalid request body: expected a JSON object.');
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

/** The request's `x-query-timeout-ms` (checked before the handler runs), or undefined. */
export function queryDeadlineMs(ctx: RequestContext): number | undefined {
  const header = ctx.exchange.request.headers['x-query-timeout-ms'];
  return header === undefined ? undefined : Number(header);
}

/** The real service's message for a request that passed its client's deadline (fauna/faunadb `api/package.scala`). */
export function timedOutMessage(elapsedMs: number, deadlineMs: number): string {
  return `Client set aggressive deadline: query needs ${Math.max(Math.ceil(elapsedMs), deadlineMs + 1)}, timed out within ${deadlineMs}`;
}
