/**
 * `POST /stream/1` (SD "Endpoints 4", wire-facts §4.2): 200 with `x-fauna-stream-id`, then newline-delimited
 * JSON events (`\r\n` after each) until the client leaves, an error event ends it, or the server closes.
 * Request problems are 400 `invalid_request` before any event; a secret already holding the most open streams
 * allowed (DEC-043) gets 429 `limit_exceeded` for a valid request.
 */
import { randomUUID } from 'node:crypto';
import { EventRequestError, type EventService } from '../events/event-service.js';
import { StreamSession } from '../events/stream-session.js';
import { failpoint } from '../failpoints.js';
import { tooManyStreamsMessage } from '../events/stream-limit.js';
import { JSON_CONTENT_TYPE } from './responses.js';
import { EventRequestBodyError, openRequestedSource, parseEventRequest, readCheckFor, streamGuardsFor } from './event-request.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { readJsonBody, sendV10Error } from './v10-responses.js';

// Implements: PROTO-ENDPOINT-007, PROTO-STATUS-003, STREAM-FRAME-004, STREAM-REQ-001, STREAM-REQ-002, STREAM-REQ-003
// Implements: STREAM-REQ-006, STREAM-REQ-008, LIMIT-STREAMS-001
export function createStreamEndpoint(events: EventService): Endpoint {
  async function post(ctx: RequestContext): Promise<void> {
    const identity = ctx.identity;
    if (!identity) throw new Error('/stream/1 needs an authenticated identity');
    const body = readJsonBody(ctx);
    if (!body) return;
    let session: StreamSession;
    try {
      const request = parseEventRequest(body, false);
      const { source, start } = await openRequestedSource(ctx, identity, events, request, 'stream');
      // Revoking the secret that opened the stream ends it (DEC-036); watching the creator's secret instead is the
      // SD's reading, kept only as the self-check's fault STREAM-OPENER-REVOCATION-IGNORED (asked before the answer's
      // headers go out, which name the failpoints that fired).
      const watched = failpoint('STREAM-OPENER-REVOCATION-IGNORED') ? source.creator : source.consumer;
      // The self-check's failpoint STREAMS-PER-SECRET-UNLIMITED: a stream past the per-secret limit opens all the same.
      const release = events.streams.acquire(identity) ?? (failpoint('STREAMS-PER-SECRET-UNLIMITED') ? () => undefined : undefined);
      if (release === undefined) return sendV10Error(ctx, 429, 'limit_exceeded', tooManyStreamsMessage(events.streams.limit));
      const sink = ctx.exchange.openStream(200, { 'content-type': JSON_CONTENT_TYPE, 'x-fauna-stream-id': randomUUID() });
      session = new StreamSession(
        events,
        source,
        start,
        readCheckFor(ctx.services, source.rights.identity),
        sink,
        streamGuardsFor(ctx.services, watched, source.database),
        release,
      );
    } catch (error) {
      if (error instanceof EventRequestBodyError || error instanceof EventRequestError)
        return sendV10Error(ctx, 400, 'invalid_request', error.message);
      throw error;
    }
    await session.run();
  }
  return { path: '/stream/1', auth: 'required', errors: 'v10', methods: { POST: post } };
}
