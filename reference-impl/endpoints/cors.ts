/**
 * Cross-origin requests (DEC-061), as the real service answers them, so that drivers run in a browser: a request
 * carrying `Origin` gets that origin allowed, with credentials, and the response's `x-` headers exposed; a preflight
 * (`OPTIONS` with `Origin`) is answered here, before authentication, with the methods and headers drivers send.
 * Requests without `Origin` get none of this.
 */
import type { Exchange, ResponseStream } from '../transport/exchange.js';

const MAX_AGE = '86400';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = [
  'accept-encoding',
  'authorization',
  'content-type',
  'x-driver-env',
  'x-faunadb-api-version',
  'x-fauna-driver',
  'x-fauna-source',
  'x-fauna-tags',
  'x-format',
  'x-last-seen-txn',
  'x-last-txn-ts',
  'x-linearized',
  'x-max-contention-retries',
  'x-max-retries-on-contention',
  'x-query-tags',
  'x-query-timeout',
  'x-query-timeout-ms',
  'x-runtime-environment',
  'x-runtime-environment-os',
  'x-nodejs-version',
  'traceparent',
  'x-typecheck',
  'x-performance-hints',
].join(', ');

function corsHeaders(origin: string, headers: Record<string, string>): Record<string, string> {
  const exposed = Object.keys(headers).filter((name) => name.toLowerCase().startsWith('x-'));
  return {
    ...headers,
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': exposed.join(', '),
  };
}

// Implements: PROTO-CORS-001
/** The exchange, with the CORS headers added to whatever it answers. */
export function withCors(exchange: Exchange, origin: string): Exchange {
  return {
    request: exchange.request,
    get responded() {
      return exchange.responded;
    },
    respond: (status, headers, body) => exchange.respond(status, corsHeaders(origin, headers), body),
    openStream: (status, headers): ResponseStream => exchange.openStream(status, corsHeaders(origin, headers)),
  };
}

// Implements: PROTO-CORS-002
/** Answers a preflight: 204 with what may be sent, and nothing exposed. */
export function answerPreflight(exchange: Exchange, origin: string): void {
  exchange.respond(
    204,
    {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': '',
      'access-control-max-age': MAX_AGE,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
    },
    '',
  );
}
