/**
 * The legacy REST API: `GET /<ref path>` reads the document at that path (`/tokens/self`,
 * `/collections/c/1`, `/databases/db`, …) as `Get(ref)`. Paths that are not refs, and refs that resolve to
 * nothing, answer 404 `not found`.
 */
import type { Expr } from '../codec/v4-ast.js';
import { parseApiVersion } from '../codec/api-version.js';
import { parseRefPath } from '../codec/v4-refs.js';
import type { QueryError } from '../errors/query-error.js';
import type { Ref } from '../values/value.js';
import { sendProtocolError } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { runV4, sendV4Outcome } from './v4-query.js';

function refOfPath(path: string): Ref | undefined {
  try {
    return parseRefPath(decodeURIComponent(path.replace(/^\/+|\/+$/g, '')), []);
  } catch {
    return undefined;
  }
}

function getExpression(ref: Ref): Expr {
  const literal: Expr = { kind: 'literal', value: ref, position: ['get'], raw: null };
  return { kind: 'object', fields: new Map([['get', literal]]), position: [], raw: null };
}

// Implements: AUTH-SELF-001, AUTH-SELF-003, AUTH-SELF-004, AUTH-SELF-007
async function restGet(ctx: RequestContext): Promise<void> {
  const apiVersion = parseApiVersion(ctx.exchange.request.headers['x-faunadb-api-version']);
  const ref = refOfPath(ctx.exchange.request.path);
  if (!ref) {
    sendProtocolError(ctx, 'v4', 404, 'not found', 'Not Found');
    return;
  }
  const outcome = await runV4(ctx, getExpression(ref), apiVersion, true);
  if (!outcome.ok && isMissing(outcome.error)) {
    sendProtocolError(ctx, 'v4', 404, 'not found', 'Not Found');
    return;
  }
  sendV4Outcome(ctx, outcome, apiVersion);
}

function isMissing(error: QueryError): boolean {
  return error.code === 'instance not found' || error.code === 'invalid ref';
}

/** Other methods: a ref path is read-only here (405). */
async function restOther(ctx: RequestContext): Promise<void> {
  sendProtocolError(ctx, 'v4', 405, 'method not allowed', 'Allowed methods are GET.', { allow: 'GET' });
}

/** Registered as the route table's fallback; paths that are not refs are not served at all (404, before authentication). */
export const legacyRestEndpoint: Endpoint = {
  path: '/<ref path>',
  auth: 'required',
  errors: 'v4',
  methods: { GET: restGet, POST: restOther, PUT: restOther, PATCH: restOther, DELETE: restOther },
  serves: (path) => refOfPath(path) !== undefined,
};
