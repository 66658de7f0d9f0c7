/**
 * The `traceparent` header every response carries (DEC-131), as the real service sets it (fauna/faunadb
 * `net/http/HttpRequestHandler.scala`, `trace/TraceContext.scala`): W3C `00-<trace id>-<span id>-<flags>`. A request
 * whose own `traceparent` is valid keeps its trace id; otherwise the trace is new. The span id is always new (the
 * server's own span), and the flags are `00`: the server decides alone whether it samples.
 */
import { randomFillSync } from 'node:crypto';

/** `00-` + 32 hex digits + `-` + 16 + `-` + 2: 55 characters. */
const VALID = /^[0-9a-fA-F]{2}-([0-9a-fA-F]{32})-([0-9a-fA-F]{16})-[0-9a-fA-F]{2}$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/** Random bytes drawn from a pool refilled at once, so a request pays a slice of it rather than a call into OpenSSL. */
const pool = Buffer.alloc(24 * 512);
let taken = pool.length;

function randomHex(bytes: number, zero: string): string {
  for (;;) {
    if (taken + bytes > pool.length) {
      randomFillSync(pool);
      taken = 0;
    }
    const hex = pool.toString('hex', taken, taken + bytes);
    taken += bytes;
    // An id must have a non-zero byte.
    if (hex !== zero) return hex;
  }
}

/** The trace id of a valid request `traceparent` (trace id and span id not all zeros), lower case, else undefined. */
function requestTraceId(header: string | undefined): string | undefined {
  if (header === undefined || header.length !== 55) return undefined;
  const match = VALID.exec(header);
  if (!match) return undefined;
  const traceId = match[1]!.toLowerCase();
  return traceId === ZERO_TRACE_ID || match[2] === ZERO_SPAN_ID ? undefined : traceId;
}

/** The response's `traceparent` for a request that carried `header` (or none). */
export function responseTraceparent(header: string | undefined): string {
  return `00-${requestTraceId(header) ?? randomHex(16, ZERO_TRACE_ID)}-${randomHex(8, ZERO_SPAN_ID)}-00`;
}
