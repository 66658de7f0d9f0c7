// The faults of spec/requirements/event-sources.md that are code; their rows (ids, titles, what they break) are in event-sources.json.
import { jsonInt, isJsonObject, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import {
  EventTraffic,
  acceptRefusedQueries,
  editFql,
  errorCodeOf,
  feedPage,
  fqlText,
  isFeedRequest,
  isQueryV10,
  isStreamRequest,
  refuseQueries,
  requestObject,
  tokenOf,
  v10ErrorResponse,
  withoutPositions,
} from './lib/event-rewrites.js';
import { onJson, rewriteJson, withJsonBody } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** The deepest nesting of brackets in `text`, or its longest run of `!`, whichever is larger. */
function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let bangs = 0;
  for (const char of text) {
    if (char === '(' || char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ')' || char === ']' || char === '}') depth--;
    bangs = char === '!' ? bangs + 1 : 0;
    deepest = Math.max(deepest, bangs);
  }
  return deepest;
}

export const code: FaultCode = {
  'ESRC-TOKEN-UNTAGGED': onJson(
    (body, ctx) => isQueryV10(ctx.original) && tokenOf(body) !== undefined,
    (body) => {
      const answer = body as JsonObject;
      answer.data = tokenOf(answer);
    },
  ),
  'ESRC-TOKEN-PER-QUERY': () => {
    const first = new Map<string, string>();
    return {
      json: rewriteJson(
        (body, ctx) => isQueryV10(ctx.original) && tokenOf(body) !== undefined,
        (body, ctx) => {
          const text = stringifyJson(requestObject(ctx.original)?.query ?? null);
          const token = tokenOf(body)!;
          const earlier = first.get(text);
          if (earlier === undefined) {
            first.set(text, token);
            return false;
          }
          (body as JsonObject & { data: JsonObject }).data['@stream'] = earlier;
          return true;
        },
      ),
    };
  },
  'ESRC-VALUE-FRAGMENT-AS-TEXT': () => ({
    request: (req) => {
      const body = isQueryV10(req) ? requestObject(req) : undefined;
      const template = isJsonObject(body?.query) && Array.isArray(body.query.fql) ? body.query.fql : undefined;
      if (body === undefined || template === undefined || !template.some((part) => isJsonObject(part) && 'value' in part)) return undefined;
      body.query = template
        .map((part) => (typeof part === 'string' ? part : isJsonObject(part) && 'value' in part ? stringifyJson(part.value) : ''))
        .join('');
      return { ...req, body: Buffer.from(stringifyJson(body)) };
    },
  }),
  'ESRC-BAD-BODY-INVALID-QUERY': () => ({
    response(response, ctx) {
      if (
        !isQueryV10(ctx.original) ||
        response.status !== 400 ||
        requestObject(ctx.original) !== undefined ||
        errorCodeOf(response) !== 'invalid_request'
      )
        return undefined;
      return v10ErrorResponse(response, 400, 'invalid_query', 'The query failed to parse.');
    },
  }),
  'ESRC-PARSE-ERROR-NO-POSITION': () => withoutPositions(['invalid_query']),
  'ESRC-STATS-INCOMPLETE': onJson(
    (body, ctx) => isQueryV10(ctx.original) && isJsonObject(body) && isJsonObject(body.stats),
    (body) => {
      const stats = (body as JsonObject & { stats: JsonObject }).stats;
      delete stats.storage_bytes_write;
      delete stats.contention_retries;
    },
  ),
  'ESRC-SYSTEM-COLLECTION-ACCEPTED': acceptRefusedQueries(
    /\b(?:Collection|Key|Database|Role|Function|AccessProvider|Credential|Token)\.all\(\)/,
  ),
  'ESRC-MIXED-SET-ACCEPTED': acceptRefusedQueries(/\.concat\(/),
  'ESRC-EVENTS-ON-UNCHECKED': acceptRefusedQueries(/\.eventsOn\(/),
  'ESRC-SET-METHOD-IGNORED': () => ({
    request: editFql((text) => text.replace(/\.(?:drop|take|order|reverse)\([^()]*\)(?=\.eventSource\(\))/g, '')),
  }),
  'ESRC-RECEIVER-ERROR-NO-POSITION': () => withoutPositions(['invalid_receiver']),
  'ESRC-SOURCE-WHERE-IGNORED': () => ({
    request: editFql((text) => text.replace(/(\.eventSource\(\))\.where\((?:[^()]|\([^()]*\))*\)/g, '$1')),
  }),
  'ESRC-EVENTS-ON-IGNORED': () => ({ request: editFql((text) => text.replace(/\.eventsOn\([^()]*\)/g, '.eventSource()')) }),
  'ESRC-WHERE-FILTER-IGNORED': () => ({
    request: editFql((text) => text.replace(/^(\s*[A-Za-z_]\w*)\.where\((?:[^()]|\([^()]*\))*\)(?=\.eventSource\(\))/, '$1.all()')),
  }),
  'ESRC-EVENTS-ON-ANY-SET': acceptRefusedQueries(/\.(?:eventsOn|changesOn)\(/, 'invalid_receiver'),
  'ESRC-SOURCE-MAP-REFUSED': () => refuseQueries(/\.(?:eventSource|eventsOn)\([^()]*\)\.map\(/),
  'FQL-DEEP-QUERY-CRASHES': () => ({
    response(response, ctx) {
      const text = fqlText(ctx.original);
      if (text === undefined || text.length <= 100_000) return undefined;
      return v10ErrorResponse(response, 500, 'internal_error', 'Internal server error.');
    },
  }),
  'FQL-NESTING-32': () => ({
    response(response, ctx) {
      const text = fqlText(ctx.original);
      if (text === undefined || response.status !== 200 || bracketDepth(text) <= 32) return undefined;
      return withJsonBody(
        { ...response, status: 400 },
        {
          error: { code: 'invalid_query', message: '1:1: the query is nested too deeply' },
          summary: 'error: the query is nested too deeply',
        },
      );
    },
  }),
  'ESRC-CREATE-WITHOUT-READ-RIGHTS': acceptRefusedQueries(/\.(?:eventSource|eventsOn)\(/, 'permission_denied'),
  'ESRC-INDEX-SOURCE-REFUSED': () =>
    refuseQueries(/^\s*[A-Za-z_]\w*\.(?!all\(|where\(|byId\()[A-Za-z_]\w*\([^()]*\)\.(?:eventSource|eventsOn)\(/),
  'ESRC-SINGLE-SOURCE-REFUSED': () => refuseQueries(/^\s*Set\.single\(/),
  'ESRC-PROJECTION-REFUSED': () => refuseQueries(/(?:\.map\(|\}\s*)[\s\S]*\.eventSource\(\)/),
  'ESRC-CURSOR-BOUND-TO-TOKEN': () => {
    const issuedFor = new Map<string, string>();
    return {
      json: (body, ctx) => {
        const token = isFeedRequest(ctx.original) ? requestObject(ctx.original)?.token : undefined;
        const page = feedPage(body);
        if (typeof token !== 'string' || page === undefined) return undefined;
        for (const event of page.events) if (isJsonObject(event) && typeof event.cursor === 'string') issuedFor.set(event.cursor, token);
        if (typeof page.cursor === 'string') issuedFor.set(page.cursor, token);
        return undefined;
      },
      response(response, ctx) {
        const body = isFeedRequest(ctx.original) ? requestObject(ctx.original) : undefined;
        const owner = typeof body?.cursor === 'string' ? issuedFor.get(body.cursor) : undefined;
        if (response.status !== 200 || owner === undefined || owner === body!.token) return undefined;
        return v10ErrorResponse(response, 400, 'invalid_request', 'Invalid request body: the cursor belongs to another event source.');
      },
    };
  },
  'ESRC-FOREIGN-TOKEN-ACCEPTED': () => ({
    response(response, ctx) {
      if (!isFeedRequest(ctx.original) || response.status !== 400) return undefined;
      const parsed = tryParseJson(response.body);
      const message = parsed.ok && isJsonObject(parsed.value) && isJsonObject(parsed.value.error) ? String(parsed.value.error.message) : '';
      if (!/another database/i.test(message)) return undefined;
      return withJsonBody(
        { ...response, status: 200 },
        {
          events: [],
          cursor: 'AQAAAAAAAAAB/////wAAAAAAAAAA',
          has_next: false,
          stats: {
            read_ops: jsonInt(0),
            storage_bytes_read: jsonInt(0),
            compute_ops: jsonInt(1),
            processing_time_ms: jsonInt(0),
            rate_limits_hit: [],
          },
        },
      );
    },
  }),
  'ESRC-BAD-TOKEN-CRASH': () => {
    const traffic = new EventTraffic();
    return {
      json: traffic.observer().json,
      response(response, ctx) {
        const token = isFeedRequest(ctx.original) || isStreamRequest(ctx.original) ? requestObject(ctx.original)?.token : undefined;
        if (response.status !== 400 || typeof token !== 'string' || traffic.createdAt.has(token)) return undefined;
        return v10ErrorResponse(response, 500, 'internal_error', 'Unexpected error decoding the event source token.');
      },
    };
  },
  'ESRC-WHERE-SOURCE-REFUSED': () => refuseQueries(/^\s*[A-Za-z_]\w*\.where\([\s\S]*\.eventSource\(\)/),
};
