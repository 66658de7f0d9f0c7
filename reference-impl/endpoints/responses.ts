/** Response helpers shared by endpoints: JSON content type, `x-txn-time`, error bodies per dialect. */
import { renderProtocolError } from '../codec/v4-error-body.js';
import type { RequestContext, ErrorDialect } from './route-table.js';

// Implements: PROTO-CTYPE-003
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

export function baseHeaders(ctx: RequestContext, txnTime?: bigint): Record<string, string> {
  return { 'content-type': JSON_CONTENT_TYPE, 'x-txn-time': String(txnTime ?? ctx.services.transactions.lastTs) };
}

/** A protocol error (no position) in the endpoint's dialect. */
export function protocolErrorBody(dialect: ErrorDialect, code: string, description: string): string {
  if (dialect === 'v4') return renderProtocolError(code, description);
  return JSON.stringify({ error: { code: code.replace(/ /g, '_'), message: description } });
}

export function sendProtocolError(
  ctx: RequestContext,
  dialect: ErrorDialect,
  status: number,
  code: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  ctx.exchange.respond(status, { ...baseHeaders(ctx), ...headers }, protocolErrorBody(dialect, code, description));
}
