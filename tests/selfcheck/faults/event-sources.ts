// The faults of spec/requirements/event-sources.md that are code; their rows (ids, titles, what they break) are in event-sources.json.
import { isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import {
  acceptRefusedQueries,
  errorCodeOf,
  isQueryV10,
  requestObject,
  tokenOf,
  v10ErrorResponse,
  withoutPositions,
} from './lib/event-rewrites.js';
import { onJson } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

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
  'ESRC-CREATE-WITHOUT-READ-RIGHTS': acceptRefusedQueries(/\.(?:eventSource|eventsOn)\(/, 'permission_denied'),
};
