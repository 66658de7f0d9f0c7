/**
 * `POST /query/1` (wire-facts §3, DEC-008/009): runs the FQL subset of spec/fql-subset.md, which creates event
 * sources. The answer is `{"data": {"@stream": <token>}, "txn_ts", "summary", "stats", "schema_version"}`
 * (`x-format: tagged`; the default `simple` gives the bare token). Query errors answer 400
 * `{"error": {code, message}, "summary", "txn_ts", "stats", "schema_version"}`.
 */
import { decodeSimple, decodeTagged, encodeSimple, encodeTagged, TaggedDecodeError, TaggedEventSource, toValue, type Json } from '../codec/tagged.js';
import { planEventSource } from '../event-source/plan.js';
import type { EventService } from '../events/event-service.js';
import { eventSecretOf } from '../events/event-secret.js';
import { storeResolver } from '../events/source-resolver.js';
import { FqlError } from '../fql/fql-error.js';
import { parseQuery } from '../fql/parser.js';
import { canonicalQueryText, type QueryInput } from '../fql/query-input.js';
import type { SourceSpan } from '../fql/source-position.js';
import { setField, type Value } from '../values/value.js';
import { sourceReadRefusal } from './event-request.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { readJsonBody, sendV10Error, v10QueryStats } from './v10-responses.js';

type Format = 'tagged' | 'simple';

/** Any other value was refused before (DEC-066); `decorated` is answered as `simple`. */
function formatOf(ctx: RequestContext): Format {
  return ctx.exchange.request.headers['x-format'] === 'tagged' ? 'tagged' : 'simple';
}

// Implements: PROTO-HEADER-016
/** `x-query-tags` as sent (`k=v,k2=v2`): a successful answer echoes it as `query_tags` (DEC-008, wire-facts §3); the drivers read it back. */
function queryTagsOf(ctx: RequestContext): { query_tags?: string } {
  const tags = ctx.exchange.request.headers['x-query-tags']?.trim();
  return tags ? { query_tags: tags } : {};
}

// Implements: ESRC-QUERY-005, ESRC-TRANSFORM-004
/** `error: <message>` and, for a text query, the line with carets under the span (as the service's summaries). */
export function errorSummary(message: string, query: QueryInput, span: SourceSpan | undefined): string {
  const head = `error: ${message}`;
  if (span === undefined || typeof query !== 'string') return head;
  const lineText = query.split('\n')[span.start.line - 1] ?? '';
  const width = span.end.line === span.start.line ? Math.max(1, span.end.column - span.start.column) : 1;
  const gutter = String(span.start.line);
  const pad = ' '.repeat(gutter.length);
  return [
    head,
    `at *query*:${span.start.line}:${span.start.column}`,
    `${pad} |`,
    `${gutter} | ${lineText}`,
    `${pad} | ${' '.repeat(span.start.column - 1)}${'^'.repeat(width)}`,
    `${pad} |`,
  ].join('\n');
}

function decodeArguments(raw: unknown, format: Format): Map<string, Value> {
  if (raw === undefined || raw === null) return new Map();
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new FqlError('invalid_request', 'Invalid request body: `arguments` must be an object.');
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

// Implements: PROTO-ENDPOINT-008, PROTO-STATUS-003, ESRC-QUERY-001, ESRC-QUERY-002, ESRC-QUERY-007, ESRC-TOKEN-001
export function createV10QueryEndpoint(events: EventService): Endpoint {
  async function post(ctx: RequestContext): Promise<void> {
    const started = performance.now();
    const identity = ctx.identity;
    if (!identity) throw new Error('/query/1 needs an authenticated identity');
    const body = readJsonBody(ctx);
    if (!body) return;
    const query = body['query'];
    if (query === undefined) return sendV10Error(ctx, 400, 'invalid_request', 'Invalid request body');
    if (!isQueryInput(query)) return sendV10Error(ctx, 400, 'invalid_request', 'Invalid request body: `query` must be a string or an object {"fql": [...]}.');
    const format = formatOf(ctx);
    const { transactions, store } = ctx.services;
    const headers = { 'content-type': JSON_CONTENT_TYPE };
    let txnTs = transactions.lastTs;
    try {
      const variables = decodeArguments(body['arguments'], format);
      const expr = parseQuery(query);
      const outcome = await transactions.run(async (txn) => {
        txnTs = txn.ts;
        const plan = planEventSource(expr, storeResolver(store, identity.database, txn.ts), { variables });
        // Creating a source needs read rights on its set, as in the real service (ESRC-ACCESS-001).
        const refusal = await sourceReadRefusal(ctx.services, identity, plan, txn.ts);
        if (refusal !== undefined) throw new FqlError('permission_denied', refusal, expr.span);
        const taggedArgs: Record<string, Json> = {};
        for (const [name, value] of variables) setField(taggedArgs, name, encodeTagged(value));
        return { plan, token: events.issueToken(eventSecretOf(identity, ctx.services.authenticator), canonicalQueryText(query, taggedArgs), txn.ts) };
      }, { readOnly: true });
      const source = new TaggedEventSource(outcome.result.token);
      const answer = {
        data: format === 'tagged' ? encodeTagged(source) : encodeSimple(source),
        static_type: `EventSource<${outcome.result.plan.collection}>`,
        summary: '',
        txn_ts: Number(outcome.ts),
        stats: v10QueryStats(performance.now() - started),
        ...queryTagsOf(ctx),
        schema_version: Number(store.lastCommitTs),
      };
      ctx.exchange.respond(200, headers, JSON.stringify(answer));
    } catch (error) {
      if (!(error instanceof FqlError)) throw error;
      if (error.code === 'invalid_request') return sendV10Error(ctx, 400, 'invalid_request', error.message);
      const answer = {
        error: { code: error.code, message: error.message },
        summary: errorSummary(error.message, query, error.span),
        txn_ts: Number(txnTs),
        stats: v10QueryStats(performance.now() - started),
        schema_version: Number(store.lastCommitTs),
      };
      ctx.exchange.respond(400, headers, JSON.stringify(answer));
    }
  }
  return { path: '/query/1', auth: 'required', errors: 'v10', methods: { POST: post } };
}
