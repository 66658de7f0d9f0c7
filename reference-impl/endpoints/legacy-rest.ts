/**
 * The legacy REST API: `GET /<ref path>` reads the document at that path (`/tokens/self`,
 * `/collections/c/1`, `/databases/db`, …) as `Get(ref)`. Paths that are not refs, and refs that resolve to
 * nothing, answer 404 `not found`.
 */
import type { Expr } from '../codec/v4-ast.js';
import { createHash } from 'node:crypto';
import { parseApiVersion, type ApiVersion } from '../codec/api-version.js';
import { renderResource } from '../codec/v4-value-renderer.js';
import { secretFromAuthorization } from '../auth/credentials-header.js';
import { failpoint } from '../failpoints.js';
import { parseRefPath } from '../codec/v4-refs.js';
import type { QueryError } from '../errors/query-error.js';
import { isObjectValue, type ObjectValue, type Ref } from '../values/value.js';
import { sendProtocolError } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { READ_ONLY_WRITE_REFUSAL, runV4, sendV4Outcome, type V4Outcome } from './v4-query.js';

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
  const outcome = await runV4(ctx, getExpression(ref), apiVersion, READ_ONLY_WRITE_REFUSAL);
  if (!outcome.ok && isMissing(outcome.error)) {
    sendProtocolError(ctx, 'v4', 404, 'not found', 'Not Found');
    return;
  }
  sendV4Outcome(ctx, ref.id === 'self' && ref.collection?.id === 'tokens' ? selfAnswer(ctx, outcome, apiVersion) : outcome, apiVersion);
}

/** `GET /tokens/self` as the self-check's failpoints of servers that answer it otherwise render it. */
function selfAnswer(ctx: RequestContext, outcome: V4Outcome, apiVersion: ApiVersion): V4Outcome {
  if (!outcome.ok || !isObjectValue(outcome.value)) return outcome;
  const shown = failpoint('AUTH-SELF-RETURNS-SECRET');
  const digest = typeof outcome.value.hashed_secret === 'string' && failpoint('AUTH-SELF-HASHED-SECRET-SHA256');
  const legacy = failpoint('AUTH-SELF-LEGACY-REFS');
  const bare = failpoint('AUTH-SELF-UNWRAPPED');
  if (!shown && !digest && !legacy && !bare) return outcome;
  const secret = secretFromAuthorization(ctx.exchange.request.headers.authorization) ?? '';
  const record: ObjectValue = { ...outcome.value };
  if (shown) record.secret = secret;
  if (digest) record.hashed_secret = createHash('sha256').update(secret).digest('hex');
  const body = renderResource(record, { apiVersion: legacy ? '2.0' : apiVersion });
  return { ...outcome, body: bare ? body.slice('{"resource":'.length, -1) : body };
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
