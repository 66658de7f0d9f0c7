// The faults of spec/requirements/event-sources.md that are code; their rows (ids, titles, what they break) are in event-sources.json.
import { isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import {
  acceptRefusedQueries,
  errorCodeOf,
  feedPage,
  fqlText,
  isFeedRequest,
  isQueryV10,
  requestObject,
  tokenOf,
  v10ErrorResponse,
  withoutPositions,
} from './lib/event-rewrites.js';
import { onJson, withJsonBody } from './lib/rewrites.js';
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
  'ESRC-SYSTEM-COLLECTION-ACCEPTED': acceptRefusedQueries(
    /\b(?:Collection|Key|Database|Role|Function|AccessProvider|Credential|Token)\.all\(\)/,
  ),
  'ESRC-MIXED-SET-ACCEPTED': acceptRefusedQueries(/\.concat\(/),
  'ESRC-EVENTS-ON-UNCHECKED': acceptRefusedQueries(/\.eventsOn\(/),
  'ESRC-RECEIVER-ERROR-NO-POSITION': () => withoutPositions(['invalid_receiver']),
  'ESRC-EVENTS-ON-ANY-SET': acceptRefusedQueries(/\.(?:eventsOn|changesOn)\(/, 'invalid_receiver'),
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
};
