/**
 * The bodies of the errors the transport answers on its own — before a handler runs (a body over the limit,
 * an unparseable HTTP/1.1 request) or after one failed without answering — in the error dialect of the
 * endpoint the request was addressed to (DEC-023: v4 `request too large`, v10 `request_size_exceeded`; DEC-075: 429 v4
 * `too many requests`, v10 `limit_exceeded`).
 */
import { DEFAULT_MAX_BODY_BYTES, type CannedResponse, type DualProtocolServerOptions } from '../transport/dual-protocol-server.js';
import { JSON_CONTENT_TYPE, protocolErrorBody } from './responses.js';
import type { ErrorDialect, RouteTable } from './route-table.js';

const HEADERS = { 'content-type': JSON_CONTENT_TYPE };

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MiB`;
}

function body(dialect: ErrorDialect, v4Code: string, v10Code: string, message: string): string {
  return dialect === 'v4' ? protocolErrorBody('v4', v4Code, message) : JSON.stringify({ error: { code: v10Code, message } });
}

// Implements: PROTO-STATUS-004, LIMIT-BODY-002
export function transportErrors(
  routes: RouteTable,
  maxBodyBytes: number = DEFAULT_MAX_BODY_BYTES,
): Pick<DualProtocolServerOptions, 'tooLarge' | 'busy' | 'internalError' | 'malformed'> {
  const dialectOf = (path: string): ErrorDialect => routes.resolve(path)?.errors ?? 'v4';
  return {
    tooLarge: (path): CannedResponse => ({
      status: 413,
      headers: HEADERS,
      body: body(
        dialectOf(path),
        'request too large',
        'request_size_exceeded',
        `Request body exceeds the ${mebibytes(maxBodyBytes)} limit.`,
      ),
    }),
    busy: (path): CannedResponse => ({
      status: 429,
      headers: HEADERS,
      body: body(dialectOf(path), 'too many requests', 'limit_exceeded', 'Too many request bodies are arriving at once; retry later.'),
    }),
    internalError: (path): CannedResponse => ({
      status: 500,
      headers: HEADERS,
      body: body(dialectOf(path), 'internal server error', 'internal_server_error', 'Internal server error.'),
    }),
    malformed: (status): CannedResponse => ({
      status,
      headers: HEADERS,
      body: body(
        'v4',
        'bad request',
        'invalid_request',
        status === 431 ? 'Request line or headers are too large.' : 'Malformed HTTP request.',
      ),
    }),
  };
}
