/** `POST /` (a write-capable v4 query) and `GET /?q=<json>` (read-only), plus the runner legacy REST reuses. */
import type { Expr } from '../codec/v4-ast.js';
import { parseApiVersion, type ApiVersion } from '../codec/api-version.js';
import { renderQueryErrors } from '../codec/v4-error-body.js';
import { parseExpression } from '../codec/v4-expression-parser.js';
import { renderResource, resultTooLarge } from '../codec/v4-value-renderer.js';
import { QueryError } from '../errors/query-error.js';
import type { Identity } from '../auth/identity.js';
import { failpoint } from '../failpoints.js';
import { EvalContext, Scope } from '../eval/context.js';
import { v4Evaluator } from '../eval/evaluator.js';
import { requestLimits } from '../eval/query-limits.js';
import { ReadOnlyTransactionError, type Transaction } from '../txn/transaction.js';
import type { TransactionOutcome } from '../txn/transaction-manager.js';
import type { Value } from '../values/value.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';

/** What a query cost, sent as the v4 metrics headers (wire-facts §1.3, PROTO-HEADER-003, PROTO-HEADER-018). */
export interface V4Metrics {
  documentsRead: number;
  documentsWritten: number;
  storageBytesRead: number;
  storageBytesWritten: number;
  queryTimeMs: number;
}

/** A success carries its value and `body`, the value rendered as the answer (`{"resource": …}`). */
export type V4Outcome = (
  | { ok: true; value: Value; body: string; created: boolean; ts: bigint }
  | { ok: false; error: QueryError; ts: bigint }
) & { metrics: V4Metrics };

function measured(started: number, txn: Transaction | undefined): V4Metrics {
  return {
    documentsRead: txn?.documentsRead ?? 0,
    documentsWritten: txn?.documentsWritten ?? 0,
    storageBytesRead: txn?.storageBytesRead ?? 0,
    storageBytesWritten: txn?.storageBytesWritten ?? 0,
    queryTimeMs: Math.round(performance.now() - started),
  };
}

// Implements: PROTO-HEADER-001, PROTO-HEADER-002, PROTO-HEADER-016
/**
 * The response headers, as the real service sets them (fauna/faunadb `api/fql1/TMPEndpoint.scala` `setHeaders`;
 * DEC-131): content type, `x-txn-time`, the request's tags when it has any (`x-fauna-tags`, its pairs in reverse
 * order, as the real service's parser folds them), and the metrics. The reference server has no evaluation cost
 * model, so a query costs one compute op; a document read or written is one byte-read or byte-write op; the storage
 * bytes are the sizes of the versions read and written by the measure of the write limits (txn/write-size.ts); the
 * query bytes are the request's and the answer's body lengths; nothing is retried (commits are serialised).
 */
function v4Headers(ctx: RequestContext, ts: bigint, metrics: V4Metrics, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    'x-txn-time': ts.toString(),
    'x-compute-ops': '1',
    'x-byte-read-ops': String(metrics.documentsRead),
    'x-byte-write-ops': String(metrics.documentsWritten),
    'x-query-time': String(metrics.queryTimeMs),
    'x-query-bytes-in': String(ctx.exchange.request.body.length),
    'x-query-bytes-out': String(Buffer.byteLength(body, 'utf8')),
    'x-storage-bytes-read': String(metrics.storageBytesRead),
    'x-storage-bytes-write': String(metrics.storageBytesWritten),
    'x-txn-retries': '0',
  };
  const tags = ctx.exchange.request.headers['x-fauna-tags'];
  // Well-formed here: a malformed value was refused before the request was authenticated (request-parameters.ts).
  if (tags) headers['x-fauna-tags'] = tags.split(',').reverse().join(',');
  return headers;
}

/**
 * Evaluates an expression as one transaction; a failure commits nothing. `writeRefusal`, when given, makes the
 * transaction read-only and is the description a write is refused with. The outcome comes at once when the
 * evaluation waited for nothing (no promise is made for such a request), else as a promise.
 */
export function runV4(ctx: RequestContext, expr: Expr, apiVersion: ApiVersion, writeRefusal?: string): V4Outcome | Promise<V4Outcome> {
  const identity = ctx.identity;
  if (!identity) return Promise.reject(new Error('v4 evaluation needs an authenticated identity'));
  const { transactions, evalServices } = ctx.services;
  let failedAt = transactions.lastTs;
  const started = performance.now();
  const requestedMs = ctx.exchange.request.headers['x-query-timeout'];
  const limits = requestLimits(requestedMs === undefined ? undefined : Number(requestedMs), evalServices.queryTimeLimitMs);
  let used: Transaction | undefined;
  const succeeded = (outcome: TransactionOutcome<{ value: Value; body: string; created: boolean }>): V4Outcome =>
    used?.failAfterCommit === undefined ? answered(outcome) : failed(used.failAfterCommit);
  const answered = (outcome: TransactionOutcome<{ value: Value; body: string; created: boolean }>): V4Outcome => ({
    ok: true,
    value: outcome.result.value,
    body: outcome.result.body,
    created: outcome.result.created,
    // A server whose reads carry the time of a lagging snapshot.
    ts: !outcome.committed && failpoint('TXN-READ-TIME-LAGS') ? outcome.ts - 1_000_000n : outcome.ts,
    metrics: measured(started, used),
  });
  const failed = (error: unknown): V4Outcome => ({
    ok: false,
    error: deniedAtForm(identity, expr, asQueryError(error, writeRefusal)),
    ts: failedAt,
    metrics: measured(started, used),
  });
  let outcome:
    | TransactionOutcome<{ value: Value; body: string; created: boolean }>
    | Promise<TransactionOutcome<{ value: Value; body: string; created: boolean }>>;
  try {
    outcome = transactions.runNow(
      (txn) => {
        failedAt = txn.ts;
        used = txn;
        const evalCtx = new EvalContext(txn, identity.database, identity, apiVersion, evalServices, Scope.EMPTY, v4Evaluator, limits);
        // Rendered before the commit: a result that cannot be rendered (nested too deep, too long for a string) fails the
        // query, which then writes nothing, rather than answering an error about writes that were kept.
        const created = (value: Value) => ({
          value,
          body: renderResource(value, { apiVersion }),
          created: typeof value === 'object' && value !== null && evalCtx.created.has(value),
        });
        // A failure a failpoint keeps the writes of (Transaction.failAfterCommit) commits them, then answers it.
        const kept = (error: unknown) => {
          if (error === undefined || error !== txn.failAfterCommit) throw error;
          return created(null);
        };
        let value: Value | Promise<Value>;
        try {
          value = evalCtx.evalNow(expr);
        } catch (error) {
          return kept(error);
        }
        return value instanceof Promise ? value.then(created, kept) : created(value);
      },
      { readOnly: writeRefusal !== undefined },
    );
  } catch (error) {
    return failed(error);
  }
  return outcome instanceof Promise ? outcome.then(succeeded, failed) : succeeded(outcome);
}

/** A token's refusal at the top reported at the top-level form's argument instead (the failpoint ABAC-DENIED-AT-FORM). */
function deniedAtForm(identity: Identity, expr: Expr, error: QueryError): QueryError {
  if (error.code !== 'permission denied' || error.position.length > 0 || identity.kind !== 'token' || expr.kind !== 'object') return error;
  const [form] = expr.fields.keys();
  return form !== undefined && failpoint('ABAC-DENIED-AT-FORM') ? new QueryError(error.code, error.description, [form]) : error;
}

/** As the real service refuses a write in `GET /?q=` (fauna/faunadb `api/QueryEndpointSpec.scala` "GET is read-only"). */
export const READ_ONLY_WRITE_REFUSAL = 'Call performs a write, which is not allowed in get requests.';

/** Failures inside evaluation become documented errors; anything unrecognised is rethrown as an internal fault. */
function asQueryError(error: unknown, writeRefusal: string | undefined): QueryError {
  if (error instanceof QueryError) return error;
  if (error instanceof ReadOnlyTransactionError && writeRefusal !== undefined)
    return new QueryError('invalid expression', writeRefusal, []);
  if (error instanceof RangeError && /call stack/i.test(error.message)) return new QueryError('stack overflow', 'Stack overflow.', []);
  if (error instanceof RangeError && /string length/i.test(error.message)) return resultTooLarge();
  throw error;
}

// Implements: PROTO-STATUS-001, PROTO-STATUS-002
export function sendV4Outcome(ctx: RequestContext, outcome: V4Outcome, apiVersion: ApiVersion): void {
  if (outcome.ok) {
    const headers = v4Headers(ctx, outcome.ts, outcome.metrics, outcome.body);
    // A server that sends its transaction time only with writes.
    if (outcome.metrics.documentsWritten === 0 && failpoint('HEADER-TXN-TIME-MISSING-ON-READS')) delete headers['x-txn-time'];
    ctx.exchange.respond(outcome.created ? 201 : 200, headers, outcome.body);
  } else {
    const body = renderQueryErrors([outcome.error], apiVersion);
    ctx.exchange.respond(outcome.error.status, v4Headers(ctx, outcome.ts, outcome.metrics, body), body);
  }
}

/** A v4 query error answered before (or without) evaluation. */
export function sendV4Error(ctx: RequestContext, error: QueryError, apiVersion: ApiVersion): void {
  sendV4Outcome(
    ctx,
    { ok: false, error, ts: ctx.services.transactions.lastTs, metrics: measured(performance.now(), undefined) },
    apiVersion,
  );
}

function query(ctx: RequestContext, text: string, writeRefusal: string | undefined): Promise<void> | undefined {
  const apiVersion = parseApiVersion(ctx.exchange.request.headers['x-faunadb-api-version']);
  let expr: Expr;
  try {
    expr = parseExpression(text);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    sendV4Error(ctx, error, apiVersion);
    return undefined;
  }
  const outcome = runV4(ctx, expr, apiVersion, writeRefusal);
  if (outcome instanceof Promise) return outcome.then((settled) => sendV4Outcome(ctx, settled, apiVersion));
  sendV4Outcome(ctx, outcome, apiVersion);
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// Implements: PROTO-BODY-005
/** The body as text; bytes that are not UTF-8 are refused rather than silently replaced (DEC-023). */
export function bodyText(ctx: RequestContext): string | QueryError {
  try {
    return strictUtf8.decode(ctx.exchange.request.body);
  } catch {
    return new QueryError('invalid expression', 'Request body is not valid UTF-8.', []);
  }
}

// Implements: PROTO-CTYPE-001, PROTO-CTYPE-002, PROTO-ENDPOINT-001
function postQuery(ctx: RequestContext): Promise<void> | undefined {
  const text = bodyText(ctx);
  if (typeof text === 'string') return query(ctx, text, undefined);
  sendV4Error(ctx, text, parseApiVersion(ctx.exchange.request.headers['x-faunadb-api-version']));
  return undefined;
}

export const v4QueryEndpoint: Endpoint = {
  path: '/',
  auth: 'required',
  errors: 'v4',
  methods: {
    POST: postQuery,
    GET: (ctx) => query(ctx, ctx.exchange.request.query.get('q') ?? '', READ_ONLY_WRITE_REFUSAL),
  },
};
