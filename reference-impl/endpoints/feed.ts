/**
 * `POST /feed/1` (SD "Endpoints 3", wire-facts §4.1): one page of a source's events. Body `{token, start_ts?,
 * cursor?, page_size?}`; answer `{events, cursor, has_next, stats}`. Request problems are 400
 * `invalid_request`; an error while consuming (retention, overflow, a failing filter) is an error event that
 * ends the page. With the `free` plan the endpoint answers 403 `forbidden` (DEC-028); past the account's operations
 * limit, 429 `limit_exceeded` (DEC-016).
 */
import { accountLimitMessage } from '../events/account-operations.js';
import { failpoint } from '../failpoints.js';
import { EventRequestError, type AccountPlan, type EventService } from '../events/event-service.js';
import { stringifyEvent } from '../events/event-text.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import { EventRequestBodyError, openRequestedSource, parseEventRequest, readCheckFor } from './event-request.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { queryDeadlineMs, readJsonBody, sendV10Error, timedOutMessage } from './v10-responses.js';

// Implements: PROTO-ENDPOINT-006, PROTO-STATUS-003, FEED-REQ-001, LIMIT-OPS-004
export function createFeedEndpoint(events: EventService, plan: AccountPlan = 'pro'): Endpoint {
  async function post(ctx: RequestContext): Promise<void> {
    const started = performance.now();
    const identity = ctx.identity;
    if (!identity) throw new Error('/feed/1 needs an authenticated identity');
    if (plan === 'free') return sendV10Error(ctx, 403, 'forbidden', 'Event feeds require a Pro or Enterprise plan.');
    const body = readJsonBody(ctx);
    if (!body) return;
    try {
      const request = parseEventRequest(body, true);
      const { source, start } = await openRequestedSource(ctx, identity, events, request, 'feed');
      // Past the account's operations limit a poll is refused, as the real service's rate limiter refuses it (DEC-016);
      // serving it anyway, as this server did before, is kept only as the self-check's fault FEED-OPS-LIMIT-IGNORED.
      if (events.accounts.exceeded(source.database) && !failpoint('FEED-OPS-LIMIT-IGNORED'))
        return sendV10Error(ctx, 429, 'limit_exceeded', accountLimitMessage(events.accounts.limit));
      const page = await events.feedPage(source, start, request.pageSize, readCheckFor(ctx.services, source.rights.identity));
      // Implements: FQL-TIMEOUT-002
      // A page not ready within the request's `x-query-timeout-ms` is not sent: 440 `time_out`, as the real service's
      // deadline ends a poll (FQL-TIMEOUT-002; fauna-js feed.test.ts "throws a QueryTimeoutError").
      const deadline = queryDeadlineMs(ctx);
      if (deadline !== undefined && performance.now() - started > deadline) {
        return sendV10Error(ctx, 440, 'time_out', timedOutMessage(performance.now() - started, deadline));
      }
      const answer = `{"events":[${page.events.join(',')}],"cursor":${JSON.stringify(page.cursor)},"has_next":${page.hasNext},"stats":${stringifyEvent(page.stats)}}`;
      ctx.exchange.respond(200, { 'content-type': JSON_CONTENT_TYPE }, answer);
    } catch (error) {
      if (error instanceof EventRequestBodyError || error instanceof EventRequestError)
        return sendV10Error(ctx, 400, 'invalid_request', error.message);
      throw error;
    }
  }
  return { path: '/feed/1', auth: 'required', errors: 'v10', methods: { POST: post } };
}
