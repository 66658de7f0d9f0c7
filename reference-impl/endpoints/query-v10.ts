/**
 * `POST /query/1` (wire-facts §3, DEC-008/009, DEC-150): runs an FQL v10 query as one transaction and answers
 * `{"data", "summary", "txn_ts", "stats", "schema_version", "query_tags"?}` with `data` in the request's format
 * (`x-format`: `simple` by default, `tagged`, or `decorated` FQL text). A query that does not parse answers 400
 * `invalid_query` ("The query failed 1 validation check", the detail and position in `summary`); one that fails
 * while it runs answers 400 with the run-time error's code (`abort`, `invalid_argument`, `document_not_found`, …),
 * and nothing it wrote is kept. As the real service's `FQL2Endpoint`, without typechecking.
 */
import { stringify as stringifyLossless } from 'lossless-json';
import { decodeSimple, decodeTagged, TaggedDecodeError, toValue } from '../codec/tagged.js';
import { DEFAULT_API_VERSION } from '../codec/api-version.js';
import { ProtocolError, QueryError } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import { EvalContext, Scope } from '../eval/context.js';
import { v4Evaluator } from '../eval/evaluator.js';
import { requestLimits } from '../eval/query-limits.js';
import { EventSourcePlan, type EventSourceSpec } from '../fql/runtime/event-source-plan.js';
import type { EventService } from '../events/event-service.js';
import { eventSecretOf } from '../events/event-secret.js';
import { FqlError, runtimeError } from '../fql/fql-error.js';
import { parseQuery } from '../fql/parser.js';
import type { QueryInput } from '../fql/query-input.js';
import { convertV4Error } from '../fql/runtime/documents.js';
import { Interpreter } from '../fql/runtime/interpreter.js';
import { decorate, encodeSimpleM, encodeTaggedM, materialize, type M } from '../fql/runtime/render.js';
import { EventSourceValue, type FqlValue } from '../fql/runtime/values.js';
import { NO_SPAN, type SourceSpan } from '../fql/source-position.js';
import { Time, type Value } from '../values/value.js';
import { sourceReadRefusal } from './event-request.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { queryDeadlineMs, readJsonBody, sendV10Error, timedOutMessage, v10QueryStats } from './v10-responses.js';

type Format = 'tagged' | 'simple' | 'decorated';

/** Any other value was refused before (DEC-066). */
function formatOf(ctx: RequestContext): Format {
  const format = ctx.exchange.request.headers['x-format'];
  return format === 'tagged' || format === 'decorated' ? format : 'simple';
}

// Implements: PROTO-HEADER-016
/** `x-query-tags` as sent (`k=v,k2=v2`): a successful answer echoes it as `query_tags` (DEC-008, wire-facts §3); the drivers read it back. */
function queryTagsOf(ctx: RequestContext): { query_tags?: string } {
  const tags = ctx.exchange.request.headers['x-query-tags']?.trim();
  return tags ? { query_tags: tags } : {};
}

/** The text a summary quotes: a plain query's, or a fragment query's text pieces joined (values take no room). */
function queryText(query: QueryInput): string {
  if (typeof query === 'string') return query;
  const parts: string[] = [];
  const walk = (pieces: readonly unknown[]) => {
    for (const piece of pieces) {
      if (typeof piece === 'string') parts.push(piece);
      else if (typeof piece === 'object' && piece !== null && Array.isArray((piece as { fql?: unknown }).fql))
        walk((piece as { fql: unknown[] }).fql);
    }
  };
  walk(query.fql);
  return parts.join('');
}

// Implements: ESRC-QUERY-005, ESRC-TRANSFORM-004
/**
 * `error: <detail>`, the constraint failures, and the lines of the query the span covers with carets under it, as
 * the real service's summaries (FQL2BasicSpec, FQL2CollectionsSpec).
 */
// Implements: FQL-SYNTAX-001, FQL-ERR-009
export function errorSummary(
  detail: string,
  query: QueryInput,
  span: SourceSpan | undefined,
  failures: readonly { paths: readonly (readonly (string | number)[])[]; message: string }[] = [],
): string {
  const head = [`error: ${detail}`];
  if (failures.length > 0) {
    head.push('constraint failures:');
    for (const failure of failures) {
      const label = failure.paths.map((path) => path.join('.')).join(', ');
      head.push(`  ${label === '' ? '' : `${label}: `}${failure.message}`);
    }
  }
  if (span === undefined) return head.join('\n');
  const lineText = queryText(query).split('\n')[span.start.line - 1] ?? '';
  const width =
    span.end.line === span.start.line
      ? Math.max(1, span.end.column - span.start.column)
      : Math.max(1, lineText.length - span.start.column + 1);
  const gutter = String(span.start.line);
  const pad = ' '.repeat(gutter.length);
  return [
    ...head,
    `at *query*:${span.start.line}:${span.start.column}`,
    `${pad} |`,
    `${gutter} | ${lineText}`,
    `${pad} | ${' '.repeat(span.start.column - 1)}${'^'.repeat(width)}`,
    `${pad} |`,
  ].join('\n');
}

// Implements: FQL-QUERY-004
function decodeArguments(raw: unknown, format: Format): Map<string, Value> {
  if (raw === undefined || raw === null) return new Map();
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new FqlError('invalid_request', 'Invalid request body: `arguments` must be an object.');
  const out = new Map<string, Value>();
  for (const [name, json] of Object.entries(raw as Record<string, unknown>)) {
    try {
      out.set(name, format === 'tagged' ? toValue(decodeTagged(json)) : decodeSimple(json));
    } catch (error) {
      if (error instanceof TaggedDecodeError) throw new FqlError('invalid_request', `Invalid argument '${name}': ${error.message}`);
      throw error;
    }
  }
  return out;
}

function isQueryInput(query: unknown): query is QueryInput {
  if (typeof query === 'string') return true;
  return typeof query === 'object' && query !== null && !Array.isArray(query) && Array.isArray((query as { fql?: unknown }).fql);
}

// Implements: FQL-QUERY-002, FQL-QUERY-003
/** The answer's `data` in the request's format. */
function encodeData(value: M, format: Format): unknown {
  if (format === 'tagged') return encodeTaggedM(value);
  if (format === 'decorated') return decorate(value);
  return encodeSimpleM(value);
}

function stringifyAnswer(answer: Record<string, unknown>, format: Format): string {
  if (format === 'simple') return stringifyLossless(answer) ?? 'null';
  return JSON.stringify(answer, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
}

/** Where an error no expression of the query caused is placed: the query's first character. */
const QUERY_START: SourceSpan = { start: NO_SPAN.start, end: { line: 1, column: 2, offset: 1 } };

// Implements: FQL-SYNTAX-003
/**
 * What a query's evaluation may throw, as a v10 error (anything else is a fault of the server). An error of the
 * query always names a position (FQL-SYNTAX-003): one that no expression caused (the engine's own stack or string
 * limits) is placed at the query's start.
 */
function asFqlError(error: unknown, started: number, timeoutMs: number): FqlError | ProtocolError {
  const placed = positioned(error, started, timeoutMs);
  return placed instanceof FqlError && placed.code !== 'invalid_request' ? placed.at(QUERY_START) : placed;
}

function positioned(error: unknown, started: number, timeoutMs: number): FqlError | ProtocolError {
  if (error instanceof FqlError) return error;
  if (error instanceof QueryError) return convertV4Error(error, undefined);
  if (error instanceof ProtocolError && error.code === 'time out') {
    const elapsed = Math.round(performance.now() - started);
    return new ProtocolError(440, 'time_out', timedOutMessage(elapsed, timeoutMs));
  }
  if (error instanceof ProtocolError) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return runtimeError('stack_overflow', undefined, 'number of stack frames exceeded limit of 200');
  // A string or array longer than the engine can hold: the value is too large, as the real service's limits say.
  if (error instanceof RangeError && /(string|array) length/i.test(error.message))
    return runtimeError('value_too_large', undefined, 'Value too large: the result is too large to build.');
  throw error;
}

// Implements: PROTO-ENDPOINT-008, PROTO-STATUS-003, ESRC-QUERY-001, ESRC-QUERY-002, ESRC-QUERY-007, ESRC-TOKEN-001
// Implements: FQL-QUERY-001, FQL-ERR-008
export function createV10QueryEndpoint(events: EventService): Endpoint {
  async function post(ctx: RequestContext): Promise<void> {
    const started = performance.now();
    const identity = ctx.identity;
    if (!identity) throw new Error('/query/1 needs an authenticated identity');
    const body = readJsonBody(ctx);
    if (!body) return;
    const query = body.query;
    if (query === undefined) return sendV10Error(ctx, 400, 'invalid_request', 'Invalid request body');
    if (!isQueryInput(query))
      return sendV10Error(ctx, 400, 'invalid_request', 'Invalid request body: `query` must be a string or an object {"fql": [...]}.');
    const format = formatOf(ctx);
    const { transactions, store, evalServices } = ctx.services;
    const headers = { 'content-type': JSON_CONTENT_TYPE };
    const limits = requestLimits(queryDeadlineMs(ctx), evalServices.queryTimeLimitMs);
    const timeoutMs = limits.limitMs;
    let txnTs = transactions.lastTs;
    let used: { read: number; written: number } = { read: 0, written: 0 };
    let sourceCollection: string | undefined;
    let failedAfterCommit: unknown;
    try {
      const variables = decodeArguments(body.arguments, format);
      const expr = parseQuery(query);
      const outcome = await transactions.run(async (txn) => {
        txnTs = txn.ts;
        const evalCtx = new EvalContext(
          txn,
          identity.database,
          identity,
          DEFAULT_API_VERSION,
          evalServices,
          Scope.EMPTY,
          v4Evaluator,
          limits,
        );
        const now = Time.fromMicros(txn.ts);
        const issueEventSource = async (spec: EventSourceSpec, span: SourceSpan): Promise<string> => {
          // Creating a source needs read rights on its set, as in the real service (ESRC-ACCESS-001).
          const refusal = await sourceReadRefusal(ctx.services, identity, new EventSourcePlan(spec), txn.ts);
          if (refusal !== undefined) throw runtimeError('permission_denied', span, refusal);
          return events.issueToken(eventSecretOf(identity, ctx.services.authenticator), spec, txn.ts);
        };
        const rt: Interpreter = new Interpreter({ ctx: evalCtx, now, issueEventSource });
        const args = new Map<string, FqlValue>([...variables].map(([name, value]) => [name, rt.documents.fromStored(value)]));
        let value: FqlValue = null;
        try {
          value = await rt.run(expr, args);
        } catch (error) {
          // The self-check's fault FQL-FAILED-WRITES-KEPT: a query failing at run time commits what it wrote before.
          if (!(error instanceof FqlError && error.code !== 'invalid_query' && failpoint('FQL-FAILED-WRITES-KEPT'))) throw error;
          txn.failAfterCommit ??= error;
        }
        // A failure a failpoint keeps the writes of (Transaction.failAfterCommit, set here or by the v4 forms the
        // query's writes go through) commits them, then answers it, as on the v4 endpoint.
        if (txn.failAfterCommit !== undefined) {
          failedAfterCommit = txn.failAfterCommit;
          return null;
        }
        if (value instanceof EventSourceValue) sourceCollection = value.collection;
        // Rendered before the commit: reads see the transaction's own writes, and a result that cannot be rendered
        // fails the query, which then writes nothing.
        const data = encodeData(await materialize(rt, value), format);
        used = { read: txn.documentsRead, written: txn.documentsWritten };
        // Implements: FQL-TIMEOUT-001
        // Past the client's deadline the answer is 440 `time_out` and nothing is written (FQL-TIMEOUT-001).
        if (performance.now() - started > timeoutMs)
          throw new ProtocolError(440, 'time_out', timedOutMessage(performance.now() - started, timeoutMs));
        return data;
      });
      if (failedAfterCommit !== undefined) throw failedAfterCommit;
      const answer = {
        data: outcome.result,
        ...(sourceCollection === undefined ? {} : { static_type: `EventSource<${sourceCollection}>` }),
        summary: '',
        txn_ts: outcome.ts,
        stats: { ...v10QueryStats(performance.now() - started), read_ops: used.read, write_ops: used.written },
        ...queryTagsOf(ctx),
        schema_version: store.lastCommitTs,
      };
      ctx.exchange.respond(200, headers, stringifyAnswer(answer, format));
    } catch (caught) {
      const error = asFqlError(caught, started, timeoutMs);
      if (error instanceof ProtocolError) {
        const answer = {
          error: { code: error.code === 'time out' ? 'time_out' : error.code, message: error.description },
          summary: error.description,
          txn_ts: txnTs,
          stats: v10QueryStats(performance.now() - started),
          schema_version: store.lastCommitTs,
        };
        return ctx.exchange.respond(error.status, headers, stringifyAnswer(answer, 'tagged'));
      }
      if (error.code === 'invalid_request') return sendV10Error(ctx, 400, 'invalid_request', error.message);
      const failures = error.details.constraintFailures ?? [];
      const abort = error.details.abort === undefined ? {} : { abort: encodeData(error.details.abort as M, format) };
      const answer = {
        error: { code: error.code, message: error.message, ...(failures.length > 0 ? { constraint_failures: failures } : {}), ...abort },
        summary: errorSummary(error.detail, query, error.span, failures),
        txn_ts: txnTs,
        stats: v10QueryStats(performance.now() - started),
        schema_version: store.lastCommitTs,
      };
      ctx.exchange.respond(400, headers, stringifyAnswer(answer, format));
    }
  }
  return { path: '/query/1', auth: 'required', errors: 'v10', methods: { POST: post } };
}
