// Faults of the `events` area: event streams and event feeds.
import type { Fault, StreamWriter } from '../fault.js';
import { isJsonInteger, isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import {
  DATA_EVENT_TYPES,
  EventTraffic,
  WriteLog,
  acceptRefusedQueries,
  addCreatedDocs,
  bigintOf,
  chainJson,
  clampStartToCreation,
  editEventRequest,
  editEvents,
  editFql,
  errorCodeOf,
  eventDoc,
  eventDocId,
  feedPage,
  fqlText,
  holdOpen,
  ignorePermissionLoss,
  isErrorEvent,
  isEvent,
  isFeed,
  isFeedRequest,
  isQueryV10,
  isRetentionError,
  isStreamRequest,
  nowMicros,
  onStreams,
  refuseQueries,
  requestObject,
  tagged,
  tokenOf,
  triggerRewrite,
  v10ErrorResponse,
  v4Writes,
  withDoc,
  withoutErrorEvents,
  withoutPositions,
} from './lib/event-rewrites.js';
import { pathname, rewriteJson, v4Expression, withJsonBody } from './lib/rewrites.js';

export const EVENT_FAULTS: readonly Fault[] = [
  {
    id: 'STREAM-STATUS-DROPPED',
    title: 'A stream without its first status event',
    breaks: ['STREAM-STATUS-001'],
    area: 'events',
    description: 'The first event of every stream is dropped when it is a `status` event.',
    apply: () => onStreams(() => ({
      onEvent(event, writer, index) {
        if (!(index === 0 && isEvent(event, 'status'))) writer.emit(event);
      },
    })),
  },
  {
    id: 'STREAM-CONTENT-TYPE-NDJSON',
    title: 'A stream is answered as application/x-ndjson',
    breaks: ['STREAM-FRAME-004'],
    area: 'events',
    description: 'An open `/stream/1` response says `Content-Type: application/x-ndjson`, the usual type of newline-separated JSON, instead of `application/json`.',
    apply: () => ({
      streamHeaders: (headers, context) => (pathname(context.original) === '/stream/1' ? { ...headers, 'content-type': 'application/x-ndjson' } : undefined),
    }),
  },
  {
    id: 'STREAM-STATUS-WITH-DATA',
    title: 'Status events carry `data`',
    breaks: ['STREAM-STATUS-002'],
    area: 'events',
    description: 'Every `status` event gets `"data": null`.',
    apply: () => onStreams(() => ({
      onEvent(event, writer) {
        writer.emit(isEvent(event, 'status') ? { ...event, data: null } : event);
      },
    })),
  },
  {
    id: 'STREAM-EVENT-DUPLICATED',
    title: 'Stream events are delivered twice',
    breaks: ['EVT-ORDER-002'],
    area: 'events',
    description: 'Every `add`, `update` and `remove` event of a stream is sent twice.',
    apply: () => onStreams(() => ({
      onEvent(event, writer) {
        writer.emit(event);
        if (isEvent(event, ...DATA_EVENT_TYPES)) writer.emit(event);
      },
    })),
  },
  {
    id: 'STREAM-FIRST-EVENT-DROPPED',
    title: 'A stream loses its first data event',
    breaks: ['STREAM-LIVE-001', 'EVT-ORDER-002'],
    area: 'events',
    description: 'The first `add`, `update` or `remove` event of every stream is dropped.',
    apply: () => onStreams(() => {
      let dropped = false;
      return {
        onEvent(event, writer) {
          if (!dropped && isEvent(event, ...DATA_EVENT_TYPES)) {
            dropped = true;
            return;
          }
          writer.emit(event);
        },
      };
    }),
  },
  {
    id: 'STREAM-EVENTS-SWAPPED',
    title: 'Stream events arrive out of order',
    breaks: ['EVT-ORDER-001'],
    area: 'events',
    description: 'The first data event of every stream is held back and sent right after the second.',
    apply: () => onStreams(() => {
      let held: unknown;
      let seen = 0;
      return {
        onEvent(event, writer) {
          if (!isEvent(event, ...DATA_EVENT_TYPES)) return writer.emit(event);
          seen += 1;
          if (seen === 1) {
            held = event;
            return;
          }
          writer.emit(event);
          if (seen === 2) writer.emit(held);
        },
      };
    }),
  },
  {
    id: 'STREAM-STATS-MISSING',
    title: 'Stream events lack `stats`',
    breaks: ['STREAM-STATUS-002', 'EVT-FIELD-005'],
    area: 'events',
    description: '`stats` is removed from every stream event.',
    apply: () => onStreams(() => ({
      onEvent(event, writer) {
        if (!isEvent(event) || !('stats' in event)) return writer.emit(event);
        const copy = { ...event };
        delete copy.stats;
        writer.emit(copy);
      },
    })),
  },
  {
    id: 'FEED-STATUS-EVENT',
    title: 'Feed pages contain a status event',
    breaks: ['FEED-CONTENT-001'],
    area: 'events',
    description: 'A `status` event is put at the start of every feed page.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeed(ctx.original.path) && feedPage(body) !== undefined, (body) => {
        const page = feedPage(body)!;
        page.events.unshift({ type: 'status', txn_ts: jsonInt(1), cursor: String(page.cursor ?? ''), stats: page.stats ?? {} });
      }),
    }),
  },
  {
    id: 'FEED-START-TS-INCLUSIVE',
    title: 'Feed `start_ts` is inclusive',
    breaks: ['FEED-START-002'],
    area: 'events',
    description: 'The `start_ts` of every feed request is lowered by one microsecond, so an event at exactly `start_ts` is returned.',
    apply: () => ({
      request: (req) => {
        if (!isFeed(req.path)) return undefined;
        const parsed = tryParseJson(req.body);
        if (!parsed.ok || !isJsonObject(parsed.value) || !/^\d+$/.test(String(parsed.value.start_ts ?? ''))) return undefined;
        parsed.value.start_ts = jsonInt(BigInt(String(parsed.value.start_ts)) - 1n);
        return { ...req, body: Buffer.from(stringifyJson(parsed.value)) };
      },
    }),
  },
  {
    id: 'FEED-PAGE-SIZE-IGNORED',
    title: 'Feed `page_size` is ignored',
    breaks: ['FEED-PAGE-001'],
    area: 'events',
    description: '`page_size` is removed from every valid feed request (so pages hold up to the default).',
    apply: () => ({
      request: (req) => {
        if (!isFeed(req.path)) return undefined;
        const parsed = tryParseJson(req.body);
        if (!parsed.ok || !isJsonObject(parsed.value) || !/^[1-9]\d*$/.test(String(parsed.value.page_size ?? ''))) return undefined;
        delete parsed.value.page_size;
        return { ...req, body: Buffer.from(stringifyJson(parsed.value)) };
      },
    }),
  },
  {
    id: 'FEED-HAS-NEXT-FALSE',
    title: 'Feed `has_next` is always false',
    breaks: ['FEED-PAGE-004'],
    area: 'events',
    description: '`has_next` is false on every feed page.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeed(ctx.original.path) && feedPage(body)?.has_next === true, (body) => {
        feedPage(body)!.has_next = false;
      }),
    }),
  },
  {
    id: 'FEED-SHORT-PAGE-ENDS-FEED',
    title: 'A feed page that ends before `page_size` events ends the feed',
    breaks: ['FEED-PAGE-009'],
    area: 'events',
    description: '`has_next` is false on a page that holds fewer events than its `page_size` (16 without one), as from a server that bounds a page by size and then forgets that more events wait.',
    apply: () => ({
      json: rewriteJson((body, ctx) => {
        const page = isFeed(ctx.original.path) ? feedPage(body) : undefined;
        if (page?.has_next !== true) return false;
        const size = bigintOf(requestObject(ctx.original)?.page_size) ?? 16n;
        return BigInt(page.events.length) < size;
      }, (body) => {
        feedPage(body)!.has_next = false;
      }),
    }),
  },
  {
    id: 'FEED-STATS-MISSING',
    title: 'Feed pages lack `stats`',
    breaks: ['FEED-PAGE-008', 'FEED-REQ-001'],
    area: 'events',
    description: 'The top-level `stats` is removed from every feed page.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeed(ctx.original.path) && feedPage(body) !== undefined && 'stats' in feedPage(body)!, (body) => {
        delete feedPage(body)!.stats;
      }),
    }),
  },
  {
    id: 'FEED-OVERSIZED-TRANSACTION-DROPPED',
    title: 'A feed skips a transaction of more than 128 events',
    breaks: ['LIMIT-EVENTS-007'],
    area: 'events',
    description: 'A feed page holding more than 128 events of one transaction is answered with a `stream_overflow` error event instead, whose page cursor leads past the transaction (as this project\'s reference server did).',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined, (body) => {
        const page = feedPage(body)!;
        const perTxn = new Map<string, number>();
        for (const event of page.events) if (isEvent(event, ...DATA_EVENT_TYPES)) perTxn.set(String(event.txn_ts), (perTxn.get(String(event.txn_ts)) ?? 0) + 1);
        if (![...perTxn.values()].some((count) => count > 128)) return 0;
        page.events = [{ type: 'error', error: { code: 'stream_overflow', message: 'Too many events to process.' }, stats: page.stats ?? {} }];
        page.has_next = false;
        return 1;
      }),
    }),
  },
  {
    id: 'STREAM-OVERSIZED-TRANSACTION-TRUNCATED',
    title: 'A stream sends 128 events of a larger transaction and goes on',
    breaks: ['LIMIT-EVENTS-008'],
    area: 'events',
    description: 'A stream drops the events of one transaction past its 128th and carries on without an error, as a server that processes 128 events at a time and loses the rest.',
    apply: () => onStreams(() => {
      const perTxn = new Map<string, number>();
      return {
        onEvent(event, writer) {
          if (!isEvent(event, ...DATA_EVENT_TYPES)) return writer.emit(event);
          const txn = String(event.txn_ts);
          const seen = (perTxn.get(txn) ?? 0) + 1;
          perTxn.set(txn, seen);
          if (seen <= 128) writer.emit(event);
        },
      };
    }),
  },
  {
    id: 'EVT-PROJECTION-ERROR-SKIPPED',
    title: 'A failing projection skips its event silently',
    breaks: ['EVT-ERROR-001'],
    area: 'events',
    description: 'An `invalid_null_access` error event (a projection that failed for one document) is left out of feeds and streams, as from a server that drops the event and carries on.',
    apply: () => withoutErrorEvents('invalid_null_access'),
  },
  {
    id: 'EVENTS-REPLAY-LIMIT-NOT-ENFORCED',
    title: 'The 128-event replay limit is not enforced',
    breaks: ['LIMIT-EVENTS-002'],
    area: 'events',
    description: '`stream_replay_volume_exceeded` error events are removed from streams, as from a server that replays any number of events.',
    apply: () => withoutErrorEvents('stream_replay_volume_exceeded'),
  },
  {
    id: 'FEED-OPS-LIMIT-IGNORED',
    title: 'Feed polls are not refused past the account operations limit',
    breaks: ['LIMIT-OPS-004'],
    area: 'events',
    description: 'A feed poll of an account past its operations limit is answered with its page, as if feeds did not count against the limit (reference server failpoint).',
    apply: () => ({ failpoints: ['FEED-OPS-LIMIT-IGNORED'] }),
  },
  {
    id: 'STREAMS-PER-SECRET-UNLIMITED',
    title: 'Open streams per secret are not limited',
    breaks: ['LIMIT-STREAMS-001', 'LIMIT-STREAMS-002'],
    area: 'events',
    description: 'A `/stream/1` refused with 429 `limit_exceeded` is answered 200 with a `status` event instead, as from a server that opens any number of streams per secret.',
    apply: () => ({
      response(response, ctx) {
        if (ctx.original.path.split('?')[0] !== '/stream/1' || response.status !== 429) return undefined;
        const body = tryParseJson(response.body);
        if (!body.ok || !isJsonObject(body.value) || !isJsonObject(body.value.error) || body.value.error.code !== 'limit_exceeded') return undefined;
        const status = { type: 'status', txn_ts: BigInt(Date.now()) * 1000n, cursor: 'c3RyZWFtLWxpbWl0LWZhdWx0', stats: { read_ops: 0, storage_bytes_read: 0, compute_ops: 1, processing_time_ms: 0, rate_limits_hit: [] } };
        return { status: 200, headers: { ...response.headers, 'content-type': 'application/json' }, body: Buffer.from(`${stringifyJson(status)}\r\n`) };
      },
    }),
  },
  // Creating sources on /query/1.
  {
    id: 'ESRC-TOKEN-UNTAGGED',
    title: 'Event source tokens are not tagged',
    breaks: ['ESRC-TOKEN-001'],
    area: 'events',
    description: 'In the tagged format, `data` of an event source answer is the bare token string instead of `{"@stream": <token>}`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isQueryV10(ctx.original) && tokenOf(body) !== undefined, (body) => {
        const answer = body as JsonObject;
        answer.data = tokenOf(answer);
      }),
    }),
  },
  {
    id: 'ESRC-TOKEN-PER-QUERY',
    title: 'One token per query text',
    breaks: ['ESRC-TOKEN-002'],
    area: 'events',
    description: 'Tokens are derived from the query alone: running the same event source query again answers the token it answered the first time.',
    apply: () => {
      const first = new Map<string, string>();
      return {
        json: rewriteJson((body, ctx) => isQueryV10(ctx.original) && tokenOf(body) !== undefined, (body, ctx) => {
          const text = stringifyJson(requestObject(ctx.original)?.query ?? null);
          const token = tokenOf(body)!;
          const earlier = first.get(text);
          if (earlier === undefined) {
            first.set(text, token);
            return false;
          }
          (body as JsonObject & { data: JsonObject }).data['@stream'] = earlier;
          return true;
        }),
      };
    },
  },
  {
    id: 'ESRC-FORMAT-HEADER-IGNORED',
    title: '`x-format` is ignored on /query/1',
    breaks: ['ESRC-QUERY-002'],
    area: 'events',
    description: 'The `x-format` header is dropped from `/query/1` requests, so every answer comes in the server\'s default format.',
    apply: () => ({
      request: (req) => {
        if (!isQueryV10(req) || req.headers['x-format'] === undefined) return undefined;
        const headers = { ...req.headers };
        delete headers['x-format'];
        return { ...req, headers };
      },
    }),
  },
  {
    id: 'ESRC-VALUE-FRAGMENT-AS-TEXT',
    title: '`value` fragments are pasted into the query as JSON text',
    breaks: ['ESRC-QUERY-003'],
    area: 'events',
    description: 'Each `{"value": <tagged>}` fragment of an `fql` template is joined into the query text as its JSON, as by a naive template join.',
    apply: () => ({
      request: (req) => {
        const body = isQueryV10(req) ? requestObject(req) : undefined;
        const template = isJsonObject(body?.query) && Array.isArray(body.query.fql) ? body.query.fql : undefined;
        if (body === undefined || template === undefined || !template.some((part) => isJsonObject(part) && 'value' in part)) return undefined;
        body.query = template.map((part) => (typeof part === 'string' ? part : isJsonObject(part) && 'value' in part ? stringifyJson(part.value) : '')).join('');
        return { ...req, body: Buffer.from(stringifyJson(body)) };
      },
    }),
  },
  {
    id: 'ESRC-BAD-BODY-INVALID-QUERY',
    title: 'A missing or broken /query/1 body answers invalid_query',
    breaks: ['ESRC-QUERY-004'],
    area: 'events',
    description: 'A `/query/1` request without a body or with invalid JSON is treated as an unparsable query: 400 `invalid_query` instead of `invalid_request`.',
    apply: () => ({
      response(response, ctx) {
        if (!isQueryV10(ctx.original) || response.status !== 400 || requestObject(ctx.original) !== undefined || errorCodeOf(response) !== 'invalid_request') return undefined;
        return v10ErrorResponse(response, 400, 'invalid_query', 'The query failed to parse.');
      },
    }),
  },
  {
    id: 'ESRC-PARSE-ERROR-NO-POSITION',
    title: 'Parse errors do not say where',
    breaks: ['ESRC-QUERY-005'],
    area: 'events',
    description: 'The `line:column` position is removed from the message and summary of `invalid_query` errors.',
    apply: () => withoutPositions(['invalid_query']),
  },
  {
    id: 'ESRC-STATS-INCOMPLETE',
    title: '/query/1 stats lack the write and contention counters',
    breaks: ['ESRC-QUERY-006'],
    area: 'events',
    description: '`storage_bytes_write` and `contention_retries` are removed from the `stats` of `/query/1` answers.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isQueryV10(ctx.original) && isJsonObject(body) && isJsonObject(body.stats), (body) => {
        const stats = (body as JsonObject & { stats: JsonObject }).stats;
        delete stats.storage_bytes_write;
        delete stats.contention_retries;
      }),
    }),
  },
  {
    id: 'ESRC-ERROR-BARE',
    title: '/query/1 errors carry only `error`',
    breaks: ['ESRC-QUERY-007'],
    area: 'events',
    description: 'Query errors of `/query/1` answer `{"error": {…}}` alone, without `summary`, `txn_ts` and `stats`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isQueryV10(ctx.original) && isJsonObject(body) && isJsonObject(body.error) && 'summary' in body, (body) => {
        const answer = body as JsonObject;
        delete answer.summary;
        delete answer.txn_ts;
        delete answer.stats;
      }),
    }),
  },
  {
    id: 'ESRC-SYSTEM-COLLECTION-ACCEPTED',
    title: 'Event sources on system collections are accepted',
    breaks: ['ESRC-SET-005'],
    area: 'events',
    description: 'An event source query over a system collection (`Collection`, `Key`, …) answers 200 with a token instead of a 400 error.',
    apply: acceptRefusedQueries(/\b(?:Collection|Key|Database|Role|Function|AccessProvider|Credential|Token)\.all\(\)/),
  },
  {
    id: 'ESRC-MIXED-SET-ACCEPTED',
    title: 'Event sources over several collections are accepted',
    breaks: ['ESRC-SET-006'],
    area: 'events',
    description: 'An event source query over a set concatenating two collections answers 200 with a token instead of a 400 error.',
    apply: acceptRefusedQueries(/\.concat\(/),
  },
  {
    id: 'ESRC-EVENTS-ON-UNCHECKED',
    title: '`eventsOn` fields of an index set are not checked',
    breaks: ['ESRC-ON-002'],
    area: 'events',
    description: '`eventsOn` naming a field outside an index\'s terms and values answers 200 with a token instead of a 400 error.',
    apply: acceptRefusedQueries(/\.eventsOn\(/),
  },
  {
    id: 'ESRC-SET-METHOD-IGNORED',
    title: 'Unsupported set methods before `eventSource()` are ignored',
    breaks: ['ESRC-TRANSFORM-003'],
    area: 'events',
    description: '`drop`, `take`, `order` and `reverse` calls right before `.eventSource()` are silently left out, so the query answers 200.',
    apply: () => ({ request: editFql((text) => text.replace(/\.(?:drop|take|order|reverse)\([^()]*\)(?=\.eventSource\(\))/g, '')) }),
  },
  {
    id: 'ESRC-RECEIVER-ERROR-NO-POSITION',
    title: '`invalid_receiver` errors do not say where',
    breaks: ['ESRC-TRANSFORM-004'],
    area: 'events',
    description: 'The `line:column` position is removed from the message and summary of `invalid_receiver` errors.',
    apply: () => withoutPositions(['invalid_receiver']),
  },
  {
    id: 'ESRC-SOURCE-WHERE-IGNORED',
    title: '`where` on an event source is ignored',
    breaks: ['ESRC-TRANSFORM-002'],
    area: 'events',
    description: 'A `.where(…)` called on the event source itself is accepted but does not filter: the source tracks the unfiltered set.',
    apply: () => ({ request: editFql((text) => text.replace(/(\.eventSource\(\))\.where\((?:[^()]|\([^()]*\))*\)/g, '$1')) }),
  },
  {
    id: 'ESRC-EVENTS-ON-IGNORED',
    title: '`eventsOn` tracks every field',
    breaks: ['ESRC-ON-001', 'EVT-TRIGGER-009'],
    area: 'events',
    description: '`.eventsOn(…)` is treated as `.eventSource()`: a change to any field emits an event.',
    apply: () => ({ request: editFql((text) => text.replace(/\.eventsOn\([^()]*\)/g, '.eventSource()')) }),
  },
  {
    id: 'ESRC-WHERE-FILTER-IGNORED',
    title: 'A filtered collection source tracks the whole collection',
    breaks: ['ESRC-SET-002'],
    area: 'events',
    description: '`<Coll>.where(…).eventSource()` becomes a source over `<Coll>.all()`: documents outside the filter emit events.',
    apply: () => ({ request: editFql((text) => text.replace(/^(\s*[A-Za-z_]\w*)\.where\((?:[^()]|\([^()]*\))*\)(?=\.eventSource\(\))/, '$1.all()')) }),
  },
  {
    id: 'ESRC-EVENTS-ON-ANY-SET',
    title: '`eventsOn` is accepted on filtered and transformed sets',
    breaks: ['ESRC-ON-004'],
    area: 'events',
    description: '`eventsOn` called after `where`, `map` or a projection, refused with `invalid_receiver`, answers 200 with a token instead.',
    apply: acceptRefusedQueries(/\.(?:eventsOn|changesOn)\(/, 'invalid_receiver'),
  },
  {
    id: 'ESRC-SOURCE-MAP-REFUSED',
    title: '`map` on an event source is refused',
    breaks: ['ESRC-TRANSFORM-005'],
    area: 'events',
    description: 'A `.map(…)` called on the event source itself is refused with 400 `invalid_receiver`, as only `where()` were an event source method.',
    apply: () => refuseQueries(/\.(?:eventSource|eventsOn)\([^()]*\)\.map\(/),
  },
  {
    id: 'ESRC-SINGLE-TRACKS-COLLECTION',
    title: 'A single-document source tracks its whole collection',
    breaks: ['EVT-TRIGGER-011', 'ESRC-SET-004'],
    area: 'events',
    description: '`Set.single(<Coll>.byId(…)).eventSource()` becomes a source over `<Coll>.all()`: changes to other documents emit events.',
    apply: () => ({ request: editFql((text) => text.replace(/Set\.single\(\s*([A-Za-z_]\w*)\.byId\([^()]*\)\s*\)\.eventSource\(\)/g, '$1.all().eventSource()')) }),
  },
  // Feed requests.
  {
    id: 'FEED-TOKEN-MISSING-CODE',
    title: 'A feed without token answers a made-up code',
    breaks: ['FEED-REQ-002'],
    area: 'events',
    description: 'A `/feed/1` body without `token` answers 400 with code `invalid_argument` instead of `invalid_request`.',
    apply: () => ({
      response(response, ctx) {
        const body = requestObject(ctx.original);
        if (!isFeedRequest(ctx.original) || response.status !== 400 || body === undefined || 'token' in body) return undefined;
        return v10ErrorResponse(response, 400, 'invalid_argument', 'Missing field: token.');
      },
    }),
  },
  {
    id: 'FEED-CURSOR-WINS-OVER-START',
    title: 'A feed with both `start_ts` and `cursor` uses the cursor',
    breaks: ['FEED-REQ-003'],
    area: 'events',
    description: '`start_ts` is dropped from feed requests that also carry `cursor`, so they answer 200 instead of 400 `invalid_request`.',
    apply: () => ({ request: editEventRequest({ feed: true }, (body) => 'start_ts' in body && 'cursor' in body && delete body.start_ts) }),
  },
  {
    id: 'FEED-START-TS-TYPE-UNCHECKED',
    title: 'A feed `start_ts` of the wrong type is ignored',
    breaks: ['FEED-REQ-004'],
    area: 'events',
    description: 'A `start_ts` that is not an integer is dropped from feed requests (read as absent) instead of answering 400 `invalid_request`.',
    apply: () => ({ request: editEventRequest({ feed: true }, (body) => 'start_ts' in body && !isJsonInteger(body.start_ts) && delete body.start_ts) }),
  },
  {
    id: 'FEED-BAD-CURSOR-CRASH',
    title: 'A malformed feed cursor is a server error',
    breaks: ['FEED-REQ-005'],
    area: 'events',
    description: 'A feed request refused for its `cursor` answers 500 `internal_error` (the decoder throws) instead of 400 `invalid_request`.',
    apply: () => ({
      response(response, ctx) {
        const body = requestObject(ctx.original);
        if (!isFeedRequest(ctx.original) || response.status !== 400 || body === undefined || typeof body.cursor !== 'string' || 'start_ts' in body) return undefined;
        return v10ErrorResponse(response, 500, 'internal_error', 'Unexpected error decoding the cursor.');
      },
    }),
  },
  {
    id: 'FEED-START-TS-CLAMPED',
    title: 'A feed `start_ts` before the source is moved up to it',
    breaks: ['FEED-REQ-009'],
    area: 'events',
    description: 'A feed `start_ts` earlier than the source\'s creation is replaced by the creation time, so the changes between the two are missing.',
    apply: () => clampStartToCreation({ feed: true }),
  },
  {
    id: 'FEED-START-BEFORE-CREATION-REFUSED',
    title: 'A feed `start_ts` before the source is refused',
    breaks: ['FEED-REQ-009'],
    area: 'events',
    description: 'A feed `start_ts` earlier than the source\'s creation answers 400 `invalid_request`, as streams do (this project\'s former reading of DEC-029).',
    apply: () => {
      const traffic = new EventTraffic();
      return {
        json: traffic.observer().json,
        response(response, ctx) {
          const body = requestObject(ctx.original);
          const created = typeof body?.token === 'string' ? traffic.createdAt.get(body.token) : undefined;
          const start = bigintOf(body?.start_ts);
          if (!isFeedRequest(ctx.original) || response.status !== 200 || created === undefined || start === undefined || start >= created) return undefined;
          return v10ErrorResponse(response, 400, 'invalid_request', 'Invalid stream start time: Stream start time can not be before the stream create time.');
        },
      };
    },
  },
  {
    id: 'FEED-UNAUTHORIZED-V4-BODY',
    title: 'A bad secret on /feed/1 gets the v4 error body',
    breaks: ['FEED-REQ-007'],
    area: 'events',
    description: 'The 401 of `/feed/1` answers `{"errors": [{"code": "unauthorized", …}]}` (the v4 shape) instead of `{"error": {…}}`.',
    apply: () => ({
      response(response, ctx) {
        if (!isFeedRequest(ctx.original) || response.status !== 401) return undefined;
        return withJsonBody(response, { errors: [{ code: 'unauthorized', description: 'Unauthorized. Check that endpoint, schema, port and secret are correct during setup.' }] });
      },
    }),
  },
  {
    id: 'FEED-BASIC-AUTH-REFUSED',
    title: '/feed/1 reads only Bearer secrets',
    breaks: ['FEED-REQ-008'],
    area: 'events',
    description: 'A `Basic` authorization on `/feed/1` is read as a Bearer secret (its base64 text), so it answers 401.',
    apply: () => ({
      request: (req) => {
        const auth = req.headers.authorization;
        if (!isFeedRequest(req) || auth === undefined || !/^basic /i.test(auth)) return undefined;
        return { ...req, headers: { ...req.headers, authorization: `Bearer ${auth.slice(6)}` } };
      },
    }),
  },
  // Feed positions and pages.
  {
    id: 'FEED-START-AT-REQUEST',
    title: 'A feed without position starts at the request',
    breaks: ['FEED-START-001', 'ESRC-TOKEN-003'],
    area: 'events',
    description: 'A feed request with neither `start_ts` nor `cursor` starts at the time of the request instead of the source\'s creation, so it finds nothing written before.',
    apply: () => ({ request: editEventRequest({ feed: true }, (body) => {
      if ('start_ts' in body || 'cursor' in body || typeof body.token !== 'string') return false;
      body.start_ts = jsonInt(nowMicros());
      return true;
    }) }),
  },
  {
    id: 'FEED-CURSOR-INCLUSIVE',
    title: 'A feed cursor is inclusive',
    breaks: ['FEED-START-003'],
    area: 'events',
    description: 'A feed read with the cursor of an event starts with that event again.',
    apply: () => {
      const traffic = new EventTraffic();
      return {
        json: chainJson(rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined, (body, ctx) => {
          const cursor = requestObject(ctx.original)?.cursor;
          const event = typeof cursor === 'string' ? traffic.eventAt.get(cursor) : undefined;
          if (event === undefined) return false;
          feedPage(body)!.events.unshift(event);
          return true;
        }), traffic.observer().json),
      };
    },
  },
  {
    id: 'FEED-CURSOR-PER-TRANSACTION',
    title: 'Event cursors only name the transaction',
    breaks: ['FEED-START-004'],
    area: 'events',
    description: 'Every event of one transaction gets the cursor of the transaction\'s last event, so resuming from any of them skips the rest of that transaction.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined, (body) => {
        const events = feedPage(body)!.events.filter(isJsonObject);
        let changed = 0;
        for (const [i, event] of events.entries()) {
          const last = events.findLast((other) => String(other.txn_ts) === String(event.txn_ts) && typeof other.cursor === 'string');
          if (last !== undefined && last !== event && events.indexOf(last) > i && 'cursor' in event) {
            event.cursor = last.cursor;
            changed += 1;
          }
        }
        return changed;
      }),
    }),
  },
  {
    id: 'FEED-DEFAULT-PAGE-SIZE-100',
    title: 'The default feed page holds 100 events',
    breaks: ['FEED-PAGE-002'],
    area: 'events',
    description: 'A feed request without `page_size` is read with a page size of 100 instead of 16.',
    apply: () => ({ request: editEventRequest({ feed: true }, (body) => {
      if ('page_size' in body || typeof body.token !== 'string') return false;
      body.page_size = jsonInt(100);
      return true;
    }) }),
  },
  {
    id: 'FEED-PAGE-SIZE-CLAMPED',
    title: 'An out-of-range feed `page_size` is clamped',
    breaks: ['FEED-PAGE-003'],
    area: 'events',
    description: 'A `page_size` below 1 or above 16000 is clamped into that range instead of answering 400 `invalid_request`.',
    apply: () => ({ request: editEventRequest({ feed: true }, (body) => {
      const size = bigintOf(body.page_size);
      if (size === undefined || (size >= 1n && size <= 16000n)) return false;
      body.page_size = jsonInt(size < 1n ? 1n : 16000n);
      return true;
    }) }),
  },
  {
    id: 'FEED-CURSOR-MISSING-WITH-NEXT',
    title: 'A feed page with more to read has no cursor',
    breaks: ['FEED-PAGE-005'],
    area: 'events',
    description: '`cursor` is removed from feed pages whose `has_next` is true.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body)?.has_next === true && 'cursor' in feedPage(body)!, (body) => {
        delete feedPage(body)!.cursor;
      }),
    }),
  },
  {
    id: 'FEED-PAGE-CURSOR-BEHIND',
    title: 'The page cursor points one event back',
    breaks: ['FEED-PAGE-006'],
    area: 'events',
    description: 'A page with `has_next` answers the cursor of its second-to-last event, so the next page repeats the last one.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body)?.has_next === true && feedPage(body)!.events.length >= 2, (body) => {
        const page = feedPage(body)!;
        const previous = page.events[page.events.length - 2];
        if (!isJsonObject(previous) || typeof previous.cursor !== 'string') return false;
        page.cursor = previous.cursor;
        return true;
      }),
    }),
  },
  {
    id: 'FEED-EMPTY-PAGE-NO-CURSOR',
    title: 'An empty feed page has no cursor',
    breaks: ['FEED-PAGE-007'],
    area: 'events',
    description: '`cursor` is removed from feed pages without events (there is no event to point at).',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body)?.events.length === 0 && 'cursor' in feedPage(body)!, (body) => {
        delete feedPage(body)!.cursor;
      }),
    }),
  },
  {
    id: 'FEED-ERROR-OUTSIDE-EVENTS',
    title: 'Feed error events are put beside `events`',
    breaks: ['FEED-CONTENT-002'],
    area: 'events',
    description: 'An `error` event of a feed page is moved out of `events` into a top-level `error` field of the page.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && (feedPage(body)?.events.some((e) => isEvent(e, 'error')) ?? false), (body) => {
        const page = feedPage(body)!;
        const error = page.events.find((e) => isEvent(e, 'error')) as JsonObject;
        page.events = page.events.filter((e) => e !== error);
        page.error = error.error;
      }),
    }),
  },
  {
    id: 'FEED-RETENTION-ERROR-AS-400',
    title: 'The retention error of a feed is an HTTP error',
    breaks: ['FEED-CONTENT-003'],
    area: 'events',
    description: 'A feed page ending with the retention error event answers 400 with that error as the body instead of 200.',
    apply: () => ({
      response(response, ctx) {
        if (!isFeedRequest(ctx.original) || response.status !== 200) return undefined;
        const parsed = tryParseJson(response.body);
        const page = parsed.ok ? feedPage(parsed.value) : undefined;
        const error = page?.events.find(isRetentionError) as JsonObject | undefined;
        if (error === undefined) return undefined;
        return withJsonBody({ ...response, status: 400 }, { error: error.error });
      },
    }),
  },
  {
    id: 'FEED-TXN-ORDER-UNSTABLE',
    title: 'Events of one transaction come in no fixed order',
    breaks: ['EVT-ORDER-003', 'FEED-ORDER-001'],
    area: 'events',
    description: 'Within a feed page, the events of one transaction are reversed (as from iterating a hash map), so clients reading with other page sizes see another order.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && (feedPage(body)?.events.length ?? 0) >= 2, (body) => {
        const page = feedPage(body)!;
        const out: unknown[] = [];
        let changed = false;
        let run: unknown[] = [];
        const flush = () => {
          if (run.length > 1) changed = true;
          out.push(...run.reverse());
          run = [];
        };
        for (const event of page.events) {
          const ts = isJsonObject(event) ? String(event.txn_ts) : undefined;
          const runTs = isJsonObject(run[0]) ? String(run[0].txn_ts) : undefined;
          if (run.length > 0 && (ts === undefined || ts !== runTs || !isEvent(event, ...DATA_EVENT_TYPES))) flush();
          run.push(event);
        }
        flush();
        page.events = out;
        return changed;
      }),
    }),
  },
  // Event fields, in feeds and streams.
  {
    id: 'EVT-TYPE-V4-NAMES',
    title: 'Events are named `create` and `delete`',
    breaks: ['EVT-FIELD-001'],
    area: 'events',
    description: '`add` events are sent with type `create` and `remove` events with type `delete` (the v4 stream action names).',
    apply: () => editEvents((event) => {
      const renamed = { add: 'create', remove: 'delete' }[String(event.type)];
      return renamed === undefined ? undefined : [{ ...event, type: renamed }];
    }),
  },
  {
    id: 'EVT-TXN-TS-STRING',
    title: 'Event `txn_ts` is a string',
    breaks: ['EVT-FIELD-002'],
    area: 'events',
    description: '`txn_ts` of data events is sent as a decimal string (to spare JSON numbers above 2^53).',
    apply: () => editEvents((event) => (isEvent(event, ...DATA_EVENT_TYPES) && isJsonInteger(event.txn_ts) ? [{ ...event, txn_ts: String(event.txn_ts) }] : undefined)),
  },
  {
    id: 'EVT-COLL-PLAIN-STRING',
    title: 'Event documents name their collection as a plain string',
    breaks: ['EVT-FIELD-003'],
    area: 'events',
    description: '`coll` of an event\'s `@doc` is the collection name as a string instead of `{"@mod": <name>}`.',
    apply: () => editEvents((event) => {
      const doc = eventDoc(event);
      if (doc === undefined || !isJsonObject(doc.coll) || typeof doc.coll['@mod'] !== 'string') return undefined;
      return [withDoc(event, { ...doc, coll: doc.coll['@mod'] })];
    }),
  },
  {
    id: 'EVT-PROJECTION-UNTAGGED',
    title: 'Projected event data is untagged',
    breaks: ['EVT-FIELD-004'],
    area: 'events',
    description: 'In the plain object of a projecting source\'s events, `{"@int": "5"}` scalars are sent as bare JSON numbers.',
    apply: () => editEvents((event) => {
      if (!isEvent(event, ...DATA_EVENT_TYPES) || !isJsonObject(event.data) || '@doc' in event.data) return undefined;
      const data = Object.fromEntries(Object.entries(event.data).map(([k, v]) => [k, isJsonObject(v) && typeof (v['@int'] ?? v['@long']) === 'string' ? jsonInt(BigInt(String(v['@int'] ?? v['@long']))) : v]));
      return [{ ...event, data }];
    }),
  },
  {
    id: 'EVT-MAPPED-VALUE-WRAPPED',
    title: 'A mapped value that is not an object is sent wrapped in an object',
    breaks: ['EVT-FIELD-010'],
    area: 'events',
    description: 'The data of an event whose source maps documents to a tagged scalar is sent as `{"value": <scalar>}`, as if the SD allowed only plain objects.',
    apply: () => editEvents((event) => {
      if (!isEvent(event, ...DATA_EVENT_TYPES) || !isJsonObject(event.data)) return undefined;
      const keys = Object.keys(event.data);
      return keys.length === 1 && keys[0]!.startsWith('@') && keys[0] !== '@doc' ? [{ ...event, data: { value: event.data } }] : undefined;
    }),
  },
  {
    id: 'EVT-ERROR-WITH-POSITION',
    title: 'Error events carry `txn_ts` and `cursor`',
    breaks: ['EVT-FIELD-006'],
    area: 'events',
    description: 'Every `error` event gets a `txn_ts` (the time it was sent) and a `cursor` (the last one handed out before it).',
    apply: () => {
      let lastCursor = 'ZXJyb3ItZXZlbnQtY3Vyc29y';
      return editEvents((event) => {
        if (typeof event.cursor === 'string') lastCursor = event.cursor;
        return isEvent(event, 'error') && !('cursor' in event) ? [{ ...event, txn_ts: jsonInt(nowMicros()), cursor: lastCursor }] : undefined;
      });
    },
  },
  {
    id: 'EVT-TXN-TS-MILLIS',
    title: 'Event `txn_ts` is in milliseconds',
    breaks: ['EVT-FIELD-007'],
    area: 'events',
    description: '`txn_ts` of data events is the commit time in milliseconds instead of microseconds.',
    apply: () => editEvents((event) => {
      const ts = isEvent(event, ...DATA_EVENT_TYPES) ? bigintOf(event.txn_ts) : undefined;
      return ts === undefined ? undefined : [{ ...event, txn_ts: jsonInt(ts / 1000n) }];
    }),
  },
  {
    id: 'EVT-CREDENTIALS-LEAKED',
    title: 'Event documents carry their credentials',
    breaks: ['EVT-FIELD-008'],
    area: 'events',
    description: 'The `@doc` of an event for a document created with credentials includes `credentials` with its password hash.',
    apply: () => {
      const writes = new WriteLog();
      const events = editEvents((event) => {
        const doc = eventDoc(event);
        const id = eventDocId(event);
        if (doc === undefined || id === undefined || !writes.withCredentials.has(id)) return undefined;
        return [withDoc(event, { ...doc, credentials: { hashed_password: '$2a$05$abcdefghijklmnopqrstuuNKmT0k8zvJ7cB3eRQ1K4sA7zvEwPyO' } })];
      });
      return { ...events, json: chainJson(writes.observe, events.json) };
    },
  },
  {
    id: 'EVT-REMOVE-TOMBSTONE',
    title: 'Remove events carry only the document\'s identity',
    breaks: ['EVT-REMOVE-001'],
    area: 'events',
    description: 'The `@doc` of a `remove` event keeps `id`, `coll` and `ts` and loses the user fields of the last version.',
    apply: () => editEvents((event) => {
      const doc = isEvent(event, 'remove') ? eventDoc(event) : undefined;
      if (doc === undefined) return undefined;
      return [withDoc(event, { id: doc.id, coll: doc.coll, ts: doc.ts })];
    }),
  },
  {
    id: 'EVT-REMOVE-NEW-VERSION',
    title: 'Remove events carry the version after the update',
    breaks: ['EVT-REMOVE-002', 'EVT-REMOVE-003'],
    area: 'events',
    description: 'A `remove` caused by an update out of the set carries the version the update wrote (projected, on a projecting source) instead of the version before it.',
    apply: () => {
      const writes = new WriteLog();
      const events = editEvents((event) => {
        if (!isEvent(event, 'remove') || !isJsonObject(event.data)) return undefined;
        const doc = eventDoc(event);
        const id = doc === undefined ? undefined : eventDocId(event);
        if (doc !== undefined) {
          const update = writes.at(id, event.txn_ts).findLast((w) => w.kind === 'update');
          return update?.data === undefined ? undefined : [withDoc(event, { ...doc, ...(tagged(update.data) as JsonObject) })];
        }
        // A projecting source's data has no id: only a transaction with a single update tells which write it was.
        const updates = writes.updatesAt(event.txn_ts);
        if (updates.length !== 1) return undefined;
        const after = tagged(updates[0]) as JsonObject;
        const before = event.data;
        return [{ ...event, data: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, k in after ? after[k] : v])) }];
      });
      return { ...events, json: chainJson(writes.observe, events.json) };
    },
  },
  // Which writes emit which events.
  {
    id: 'EVT-ADD-DUPLICATED',
    title: 'Creating a document emits two `add` events',
    breaks: ['EVT-TRIGGER-001'],
    area: 'events',
    description: 'Every `add` event of a feed page is sent twice (once for the document, once for its index entry).',
    apply: () => editEvents((event) => (isEvent(event, 'add') ? [event, { ...event }] : undefined), { feed: true, stream: false }),
  },
  {
    id: 'EVT-ENTER-AS-UPDATE',
    title: 'A document moving into the set emits `update`',
    breaks: ['EVT-TRIGGER-002'],
    area: 'events',
    description: 'An `add` caused by an update (a document moving into a filtered set) is sent as an `update` event.',
    apply: () => triggerRewrite((event, writes) => (isEvent(event, 'add') && writes.some((w) => w.kind === 'update') ? [{ ...event, type: 'update' }] : undefined)),
  },
  {
    id: 'EVT-UPDATE-AS-ADD',
    title: 'An update inside the set emits `add`',
    breaks: ['EVT-TRIGGER-003'],
    area: 'events',
    description: 'Every `update` event is sent as an `add` event (upsert semantics).',
    apply: () => editEvents((event) => (isEvent(event, 'update') ? [{ ...event, type: 'add' }] : undefined)),
  },
  {
    id: 'EVT-LEAVE-AS-UPDATE',
    title: 'A document leaving the set emits `update`',
    breaks: ['EVT-TRIGGER-004'],
    area: 'events',
    description: 'A `remove` caused by an update (a document leaving a filtered set) is sent as an `update` event.',
    apply: () => triggerRewrite((event, writes) => (isEvent(event, 'remove') && writes.some((w) => w.kind === 'update') ? [{ ...event, type: 'update' }] : undefined)),
  },
  {
    id: 'EVT-DELETE-SILENT',
    title: 'Deleting a document emits nothing',
    breaks: ['EVT-TRIGGER-005'],
    area: 'events',
    description: 'A `remove` event caused by a delete is dropped.',
    apply: () => triggerRewrite((event, writes) => (isEvent(event, 'remove') && writes.some((w) => w.kind === 'delete') ? [] : undefined)),
  },
  {
    id: 'EVT-EVENT-PER-WRITE',
    title: 'One event per write, not per document',
    breaks: ['EVT-TRIGGER-007'],
    area: 'events',
    description: 'A document written several times in one transaction gets one event per write.',
    apply: () => triggerRewrite((event, writes) => (isEvent(event, ...DATA_EVENT_TYPES) && writes.length > 1 ? writes.map(() => ({ ...event })) : undefined)),
  },
  {
    id: 'EVT-TXN-TS-PER-WRITE',
    title: 'Events of one transaction get distinct `txn_ts`',
    breaks: ['EVT-TRIGGER-008'],
    area: 'events',
    description: 'The n-th event of a transaction in a feed page gets `txn_ts` + n (a per-write clock).',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined, (body) => {
        let changed = 0;
        let previous: string | undefined;
        let n = 0n;
        for (const event of feedPage(body)!.events) {
          const ts = isEvent(event, ...DATA_EVENT_TYPES) ? bigintOf(event.txn_ts) : undefined;
          if (ts === undefined) continue;
          n = String(ts) === previous ? n + 1n : 0n;
          previous = String(ts);
          if (n > 0n) {
            (event as JsonObject).txn_ts = jsonInt(ts + n);
            changed += 1;
          }
        }
        return changed;
      }),
    }),
  },
  {
    id: 'EVT-RETENTION-CODE',
    title: 'The retention error has a generic code',
    breaks: ['EVT-RETAIN-001'],
    area: 'events',
    description: 'The retention error event carries code `invalid_request` instead of `invalid_stream_start_time`.',
    apply: () => editEvents((event) => (isRetentionError(event) ? [{ ...event, error: { ...(event.error as JsonObject), code: 'invalid_request' } }] : undefined)),
  },
  // Streams.
  {
    id: 'STREAM-KEEPALIVE-COMMENT',
    title: 'Streams carry keep-alive comment lines',
    breaks: ['STREAM-FRAME-001'],
    area: 'events',
    description: 'An SSE-style `: keep-alive` line is written before every `status` event.',
    apply: () => onStreams(() => ({
      async onEvent(event, writer) {
        if (!isEvent(event, 'status')) return writer.emit(event);
        await writer.writeRaw(`: keep-alive\r\n${stringifyJson(event)}\r\n`);
      },
    })),
  },
  {
    id: 'STREAM-NO-TOKEN-OPENS',
    title: 'A stream without token opens and then fails',
    breaks: ['STREAM-REQ-002'],
    area: 'events',
    description: 'A `/stream/1` body without `token` answers 200 with an `invalid_request` error event instead of 400 before any event.',
    apply: () => ({
      response(response, ctx) {
        const body = requestObject(ctx.original);
        if (!isStreamRequest(ctx.original) || response.status !== 400 || body === undefined || 'token' in body) return undefined;
        const event = { type: 'error', error: { code: 'invalid_request', message: 'Missing field: token.' }, stats: { read_ops: 0, storage_bytes_read: 0, compute_ops: 1, processing_time_ms: 0, rate_limits_hit: [] } };
        return { status: 200, headers: { ...response.headers, 'content-type': 'application/json' }, body: Buffer.from(`${stringifyJson(event)}\r\n`) };
      },
    }),
  },
  {
    id: 'STREAM-CURSOR-WINS-OVER-START',
    title: 'A stream with both `start_ts` and `cursor` uses the cursor',
    breaks: ['STREAM-REQ-003'],
    area: 'events',
    description: '`start_ts` is dropped from stream requests that also carry `cursor`, so they open instead of answering 400 `invalid_request`.',
    apply: () => ({ request: editEventRequest({ stream: true }, (body) => 'start_ts' in body && 'cursor' in body && delete body.start_ts) }),
  },
  {
    id: 'STREAM-UNAUTHORIZED-403',
    title: 'A bad secret on /stream/1 answers 403',
    breaks: ['STREAM-REQ-004'],
    area: 'events',
    description: 'The 401 `unauthorized` of `/stream/1` is answered as 403 `forbidden`.',
    apply: () => ({
      response(response, ctx) {
        if (!isStreamRequest(ctx.original) || response.status !== 401) return undefined;
        return v10ErrorResponse(response, 403, 'forbidden', 'Forbidden.');
      },
    }),
  },
  {
    id: 'STREAM-UNAUTHORIZED-V4-BODY',
    title: 'A bad secret on /stream/1 gets the SD\'s "Any endpoint" error body',
    breaks: ['STREAM-REQ-004'],
    area: 'events',
    description: 'The 401 of `/stream/1` answers `{"errors": [{"code": "unauthorized", "description": …}]}`, the SD\'s row for any endpoint, which fauna-js cannot read, instead of `{"error": {…}}`.',
    apply: () => ({
      response(response, ctx) {
        if (!isStreamRequest(ctx.original) || response.status !== 401) return undefined;
        return withJsonBody(response, { errors: [{ code: 'unauthorized', description: 'Unauthorized. Check that endpoint, schema, port and secret are correct during setup.' }] });
      },
    }),
  },
  {
    id: 'STREAM-START-TS-CLAMPED',
    title: 'A stream `start_ts` before the source is moved up to it',
    breaks: ['STREAM-REQ-005'],
    area: 'events',
    description: 'A stream `start_ts` earlier than the source\'s creation is replaced by the creation time instead of answering 400 `invalid_request`.',
    apply: () => clampStartToCreation({ stream: true }),
  },
  {
    id: 'STREAM-START-TS-TYPE-UNCHECKED',
    title: 'A stream `start_ts` of the wrong type is ignored',
    breaks: ['STREAM-REQ-008'],
    area: 'events',
    description: 'A `start_ts` that is not an integer is dropped from stream requests (read as absent), so the stream opens instead of answering 400 `invalid_request`.',
    apply: () => ({ request: editEventRequest({ stream: true }, (body) => 'start_ts' in body && !isJsonInteger(body.start_ts) && delete body.start_ts) }),
  },
  {
    id: 'STREAM-ID-HEADER-MISSING',
    title: 'A stream answer has no `x-fauna-stream-id`',
    breaks: ['STREAM-REQ-007'],
    area: 'events',
    description: 'The `x-fauna-stream-id` header is removed from every `/stream/1` answer.',
    apply: () => ({
      streamHeaders: (headers, context) => {
        if (pathname(context.original) !== '/stream/1' || !('x-fauna-stream-id' in headers)) return undefined;
        const { 'x-fauna-stream-id': _id, ...rest } = headers;
        return rest;
      },
    }),
  },
  {
    id: 'STREAM-UNKNOWN-CURSOR-IGNORED',
    title: 'A stream cursor the server never issued is ignored',
    breaks: ['STREAM-REQ-006'],
    area: 'events',
    description: 'A stream `cursor` that was never handed out is dropped (the stream starts at the source\'s creation) instead of answering 400 `invalid_request`.',
    apply: () => {
      const traffic = new EventTraffic();
      const observer = traffic.observer();
      return {
        json: observer.json,
        request: editEventRequest({ stream: true }, (body) => typeof body.cursor === 'string' && !traffic.cursors.has(body.cursor) && delete body.cursor),
        stream: () => ({
          onEvent(event, writer) {
            observer.streamEvent(event);
            writer.emit(event);
          },
        }),
      };
    },
  },
  {
    id: 'STREAM-NO-REPLAY',
    title: 'A stream without position starts at the request',
    breaks: ['STREAM-REPLAY-001'],
    area: 'events',
    description: 'A stream opened with neither `start_ts` nor `cursor` leaves out the changes committed before it opened (no replay from the source\'s creation).',
    apply: () => ({
      stream: (ctx) => {
        const body = requestObject(ctx.original);
        if (body === undefined || 'start_ts' in body || 'cursor' in body) return undefined;
        const openedAt = nowMicros();
        return {
          onEvent(event, writer) {
            const ts = isEvent(event, ...DATA_EVENT_TYPES) ? bigintOf(event.txn_ts) : undefined;
            if (ts === undefined || ts >= openedAt) writer.emit(event);
          },
        };
      },
    }),
  },
  {
    id: 'STREAM-CURSOR-INCLUSIVE',
    title: 'A stream cursor is inclusive',
    breaks: ['STREAM-REPLAY-002'],
    area: 'events',
    description: 'A stream opened with the cursor of an event replays that event again, right after the first `status` event.',
    apply: () => {
      const traffic = new EventTraffic();
      return {
        json: traffic.observer().json,
        stream: (ctx) => {
          const cursor = requestObject(ctx.original)?.cursor;
          return {
            onEvent(event, writer, index) {
              traffic.observeEvent(event);
              writer.emit(event);
              const again = typeof cursor === 'string' ? traffic.eventAt.get(cursor) : undefined;
              if (index === 0 && again !== undefined) writer.emit(again);
            },
          };
        },
      };
    },
  },
  {
    id: 'STREAM-START-TS-INCLUSIVE',
    title: 'A stream `start_ts` is inclusive',
    breaks: ['STREAM-REPLAY-003'],
    area: 'events',
    description: 'The `start_ts` of every stream request is lowered by one microsecond, so an event at exactly `start_ts` is replayed.',
    apply: () => ({ request: editEventRequest({ stream: true }, (body) => {
      const ts = bigintOf(body.start_ts);
      if (ts === undefined || ts <= 1n) return false;
      body.start_ts = jsonInt(ts - 1n);
      return true;
    }) }),
  },
  {
    id: 'STREAM-RESUME-REPLAYS-TWICE',
    title: 'A resumed stream sends its replay twice',
    breaks: ['STREAM-REPLAY-004'],
    area: 'events',
    description: 'A stream resumed with `cursor` sends every replayed event twice (the replay and the live subscription overlap).',
    apply: () => ({
      stream: (ctx) => {
        const body = requestObject(ctx.original);
        if (typeof body?.cursor !== 'string') return undefined;
        const openedAt = nowMicros();
        return {
          onEvent(event, writer) {
            writer.emit(event);
            const ts = isEvent(event, ...DATA_EVENT_TYPES) ? bigintOf(event.txn_ts) : undefined;
            if (ts !== undefined && ts < openedAt) writer.emit({ ...(event as JsonObject) });
          },
        };
      },
    }),
  },
  {
    id: 'FQL-DEEP-QUERY-CRASHES',
    title: 'A deeply nested `/query/1` query answers 500',
    breaks: ['ESRC-QUERY-009'],
    area: 'events',
    description: 'A `/query/1` query of more than 100,000 characters is answered 500 `internal_error`, as by a server whose recursive parser overflows its stack.',
    apply: () => ({
      response(response, ctx) {
        const text = fqlText(ctx.original);
        if (text === undefined || text.length <= 100_000) return undefined;
        return v10ErrorResponse(response, 500, 'internal_error', 'Internal server error.');
      },
    }),
  },
  {
    id: 'FQL-NESTING-32',
    title: '`/query/1` refuses queries nested more than 32 levels',
    breaks: ['ESRC-QUERY-008'],
    area: 'events',
    description: 'A `/query/1` query whose brackets nest more than 32 levels, or with more than 32 `!` in a row, answers 400 `invalid_query`.',
    apply: () => ({
      response(response, ctx) {
        const text = fqlText(ctx.original);
        if (text === undefined || response.status !== 200 || bracketDepth(text) <= 32) return undefined;
        return withJsonBody({ ...response, status: 400 }, { error: { code: 'invalid_query', message: '1:1: the query is nested too deeply' }, summary: 'error: the query is nested too deeply' });
      },
    }),
  },
  {
    id: 'STREAM-LARGE-REPLAY-CUT',
    title: 'A stream is cut once it has sent 16 MiB',
    breaks: ['STREAM-REPLAY-005'],
    area: 'events',
    description: 'The connection of a stream is cut once the events it relayed pass 16 MiB, as from a server that pushes a whole replay at its client and cuts it for being behind.',
    apply: () => onStreams(() => {
      let sent = 0;
      return {
        onEvent(event, writer) {
          if (writer.closed) return;
          writer.emit(event);
          sent += stringifyJson(event).length;
          if (sent > 16 * 1024 * 1024) writer.destroy();
        },
      };
    }),
  },
  {
    id: 'STREAM-RESUME-WITHOUT-STATUS',
    title: 'A resumed stream has no first status event',
    breaks: ['STREAM-STATUS-003'],
    area: 'events',
    description: 'A stream opened with `cursor` starts straight with the replayed events: its first `status` event is dropped.',
    apply: () => ({
      stream: (ctx) => (typeof requestObject(ctx.original)?.cursor !== 'string' ? undefined : {
        onEvent(event, writer, index) {
          if (!(index === 0 && isEvent(event, 'status'))) writer.emit(event);
        },
      }),
    }),
  },
  {
    id: 'STREAM-ONE-SUBSCRIBER-PER-TOKEN',
    title: 'A token has one live subscriber',
    breaks: ['STREAM-LIVE-002'],
    area: 'events',
    description: 'Subscribers are kept per token: a newer stream on the same token takes the live events and the older open one gets none.',
    apply: () => {
      const newest = new Map<string, number>();
      let opened = 0;
      return {
        stream: (ctx) => {
          const token = requestObject(ctx.original)?.token;
          if (typeof token !== 'string') return undefined;
          const serial = ++opened;
          newest.set(token, serial);
          return {
            onEvent(event, writer) {
              if (isEvent(event, ...DATA_EVENT_TYPES) && newest.get(token) !== serial) return;
              writer.emit(event);
            },
          };
        },
      };
    },
  },
  {
    id: 'STREAM-IDLE-TIMEOUT',
    title: 'Idle streams are closed after a second',
    breaks: ['STREAM-LIVE-003'],
    area: 'events',
    description: 'A stream without a data event for one second is cut (an idle timeout that does not count status events as activity).',
    apply: () => ({
      // The timeout is armed on every stream: each stream request counts as an application.
      request: (req) => (isStreamRequest(req) ? { ...req } : undefined),
      stream: () => {
        let timer: NodeJS.Timeout | undefined;
        return {
          onEvent(event, writer, index) {
            writer.emit(event);
            if (index > 0 && !isEvent(event, ...DATA_EVENT_TYPES)) return;
            clearTimeout(timer);
            timer = setTimeout(() => writer.destroy(), 1_000);
          },
        };
      },
    }),
  },
  {
    id: 'STREAM-OPEN-AFTER-ERROR',
    title: 'A stream stays open after an error event',
    breaks: ['STREAM-CLOSE-004', 'STREAM-CLOSE-002'],
    area: 'events',
    description: 'After an `error` event the response is not ended: a `status` event follows and the stream stays open until the client leaves.',
    apply: () => onStreams(() => ({
      async onEvent(event, writer) {
        writer.emit(event);
        if (isEvent(event, 'error')) {
          writer.emit({ type: 'status', txn_ts: jsonInt(nowMicros()), cursor: typeof event.cursor === 'string' ? event.cursor : '', stats: isJsonObject(event.stats) ? event.stats : {} });
          await holdOpen(writer);
        }
      },
    })),
  },
  {
    id: 'STREAM-PERMISSION-LOSS-CODE',
    title: 'A revoked secret is reported as `unauthorized`',
    breaks: ['STREAM-CLOSE-001'],
    area: 'events',
    description: 'The `permission_loss` error event of a stream carries code `unauthorized` instead.',
    apply: () => onStreams(() => ({
      onEvent(event, writer) {
        writer.emit(isErrorEvent(event, 'permission_loss') ? { ...(event as JsonObject), error: { ...((event as JsonObject).error as JsonObject), code: 'unauthorized' } } : event);
      },
    })),
  },
  {
    id: 'STREAM-ROLE-CHANGE-UNWATCHED',
    title: 'Role changes do not reach open streams',
    breaks: ['STREAM-CLOSE-002'],
    area: 'events',
    description: 'After a role is updated, the `permission_loss` error event is not sent: the stream stays open.',
    apply: ignorePermissionLoss((req) => v4Writes(req, 'update', (ref) => isJsonObject(ref) && 'role' in ref)),
  },
  {
    id: 'STREAM-LOGOUT-UNWATCHED',
    title: 'Logging out does not reach open streams',
    breaks: ['STREAM-CLOSE-003', 'EVT-ACCESS-006'],
    area: 'events',
    description: 'After a token logs out, the `permission_loss` error event is not sent: the stream stays open.',
    apply: ignorePermissionLoss((req) => v4Writes(req, 'logout')),
  },
  {
    id: 'ESRC-CREATE-WITHOUT-READ-RIGHTS',
    title: 'Event sources are created without read rights on their set',
    breaks: ['ESRC-ACCESS-001'],
    area: 'events',
    description: 'A `/query/1` event source refused with `permission_denied` is answered 200 with a token instead, as from a server that hands tokens to secrets that may not read the source collection.',
    apply: acceptRefusedQueries(/\.(?:eventSource|eventsOn)\(/, 'permission_denied'),
  },
  {
    id: 'EVENTS-FILTERED-BY-CREATOR',
    title: 'Events are filtered with the rights of the secret that created the source',
    breaks: ['EVT-ACCESS-005', 'ESRC-ACCESS-002'],
    area: 'events',
    description: 'The SD\'s creator-only reading: feeds and streams filter events with the rights of the secret that created the source instead of the consuming secret\'s, so a server key\'s source shows a restricted token, or a key without read rights, every document (reference server failpoint).',
    apply: () => ({ failpoints: ['EVENTS-FILTERED-BY-CREATOR'] }),
  },
  {
    id: 'STREAM-OPENER-REVOCATION-IGNORED',
    title: 'Revoking the secret that opened a stream does not end it',
    breaks: ['EVT-ACCESS-006'],
    area: 'events',
    description: 'A stream watches the secret that created its source instead of the one that opened it: logging out the token that opened a stream on a server key\'s source leaves it running (reference server failpoint).',
    apply: () => ({ failpoints: ['STREAM-OPENER-REVOCATION-IGNORED'] }),
  },
  {
    id: 'EVT-RETENTION-ONLY-FOR-START-TS',
    title: 'Only a `start_ts` can fall outside retention',
    breaks: ['EVT-RETAIN-005', 'EVT-RETAIN-002'],
    area: 'events',
    description: 'The retention error is sent only to requests that give a `start_ts`: a source\'s own start and cursors never expire, so a feed answers a page without the error and a stream ends after its `status` event (as from a server that checks only `start_ts`).',
    apply: () => editEvents((event, req) => (isRetentionError(event) && !('start_ts' in (requestObject(req) ?? {})) ? [] : undefined)),
  },
  {
    id: 'STREAM-RETENTION-WITHOUT-STATUS',
    title: 'The retention error comes without a status event',
    breaks: ['STREAM-CLOSE-005'],
    area: 'events',
    description: 'A stream whose start is outside retention sends the error event alone, without the `status` event before it.',
    apply: () => ({
      stream: (ctx) => {
        const body = requestObject(ctx.original);
        if (body === undefined || !('start_ts' in body || 'cursor' in body)) return undefined;
        let held: unknown;
        return {
          onEvent(event, writer, index) {
            if (index === 0 && isEvent(event, 'status')) {
              held = event;
              return;
            }
            if (held !== undefined && !isRetentionError(event)) writer.emit(held);
            held = undefined;
            writer.emit(event);
          },
        };
      },
    }),
  },
  {
    id: 'STREAM-ENDS-ON-COLLECTION-DELETE',
    title: 'Deleting the source collection ends its streams',
    breaks: ['STREAM-DELETE-001'],
    area: 'events',
    description: 'When the collection a stream\'s source tracks is deleted, the stream is ended instead of staying open and silent.',
    apply: () => {
      const traffic = new EventTraffic();
      const open: { collection: string; writer: StreamWriter }[] = [];
      return {
        json: traffic.observer().json,
        // The delete request that ends streams counts as the application.
        request(req) {
          const expression = v4Expression(req);
          let ended = 0;
          for (const form of Array.isArray(expression) ? expression : [expression]) {
            const target = isJsonObject(form) && isJsonObject(form.delete) ? form.delete.collection : undefined;
            for (const stream of open) {
              if (stream.collection === target && !stream.writer.closed) {
                stream.writer.destroy();
                ended += 1;
              }
            }
          }
          return ended > 0 ? { ...req } : undefined;
        },
        stream: (ctx) => {
          const token = requestObject(ctx.original)?.token;
          const collection = typeof token === 'string' ? traffic.collectionOf.get(token) : undefined;
          if (collection === undefined) return undefined;
          return {
            onEvent(event, writer, index) {
              if (index === 0) open.push({ collection, writer });
              writer.emit(event);
            },
          };
        },
      };
    },
  },
  {
    id: 'ESRC-SUCCESS-WITHOUT-SUMMARY',
    title: '/query/1 successes lack `summary`',
    breaks: ['ESRC-QUERY-001'],
    area: 'events',
    description: '`summary` is left out of successful `/query/1` answers (it is empty anyway).',
    apply: () => ({
      json: rewriteJson((body, ctx) => isQueryV10(ctx.original) && isJsonObject(body) && 'data' in body && 'summary' in body, (body) => {
        delete (body as JsonObject).summary;
      }),
    }),
  },
  {
    id: 'ESRC-INDEX-SOURCE-REFUSED',
    title: 'Index sets cannot be event sources',
    breaks: ['ESRC-SET-003'],
    area: 'events',
    description: 'An event source over a user-defined index (`<Coll>.<index>(<terms>)`) is refused with 400 `invalid_receiver`; only `all()` and `where()` sets convert.',
    apply: () => refuseQueries(/^\s*[A-Za-z_]\w*\.(?!all\(|where\(|byId\()[A-Za-z_]\w*\([^()]*\)\.(?:eventSource|eventsOn)\(/),
  },
  {
    id: 'ESRC-SINGLE-SOURCE-REFUSED',
    title: 'Single-document sets cannot be event sources',
    breaks: ['ESRC-SET-004', 'ESRC-ON-003'],
    area: 'events',
    description: 'An event source over `Set.single(<Coll>.byId(…))` is refused with 400 `invalid_receiver`.',
    apply: () => refuseQueries(/^\s*Set\.single\(/),
  },
  {
    id: 'ESRC-PROJECTION-REFUSED',
    title: 'Projected sets cannot be event sources',
    breaks: ['ESRC-TRANSFORM-001'],
    area: 'events',
    description: 'A `.map(…)` or a projection `{ … }` before `.eventSource()` is refused with 400 `invalid_receiver`.',
    apply: () => refuseQueries(/(?:\.map\(|\}\s*)[^]*\.eventSource\(\)/),
  },
  {
    id: 'ESRC-CURSOR-BOUND-TO-TOKEN',
    title: 'An event cursor works only with the token that issued it',
    breaks: ['ESRC-TOKEN-004'],
    area: 'events',
    description: 'A feed request whose cursor was handed out for another token (even one of an identical query) answers 400 `invalid_request`.',
    apply: () => {
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
  },
  {
    id: 'ESRC-FOREIGN-TOKEN-ACCEPTED',
    title: 'A token of another database reads as an empty source',
    breaks: ['ESRC-TOKEN-005'],
    area: 'events',
    description: 'A feed request with a token created in another database answers 200 with an empty page (the source is looked up in the caller\'s database and finds nothing) instead of refusing it.',
    apply: () => ({
      response(response, ctx) {
        if (!isFeedRequest(ctx.original) || response.status !== 400) return undefined;
        const parsed = tryParseJson(response.body);
        const message = parsed.ok && isJsonObject(parsed.value) && isJsonObject(parsed.value.error) ? String(parsed.value.error.message) : '';
        if (!/another database/i.test(message)) return undefined;
        return withJsonBody({ ...response, status: 200 }, { events: [], cursor: 'AQAAAAAAAAAB/////wAAAAAAAAAA', has_next: false, stats: { read_ops: jsonInt(0), storage_bytes_read: jsonInt(0), compute_ops: jsonInt(1), processing_time_ms: jsonInt(0), rate_limits_hit: [] } });
      },
    }),
  },
  {
    id: 'ESRC-BAD-TOKEN-CRASH',
    title: 'A string that is not a token is a server error',
    breaks: ['ESRC-TOKEN-006'],
    area: 'events',
    description: '`/feed/1` and `/stream/1` answer 500 `internal_error` (the token decoder throws) for a token the server never issued, instead of 400 `invalid_request`.',
    apply: () => {
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
  },
  {
    id: 'STREAM-ENDS-ON-DATABASE-DELETE',
    title: 'Deleting a database ends its streams',
    breaks: ['STREAM-DELETE-002'],
    area: 'events',
    description: 'When a database is deleted, the open streams of its secrets are ended instead of staying open and silent.',
    apply: () => {
      const open: { authorization: string | undefined; writer: StreamWriter }[] = [];
      return {
        // The delete request that ends streams counts as the application.
        request(req) {
          if (!v4Writes(req, 'delete', (ref) => isJsonObject(ref) && 'database' in ref)) return undefined;
          let ended = 0;
          for (const stream of open) {
            // Streams opened with another secret than the deleting one: those of the deleted (child) database.
            if (stream.authorization !== req.headers.authorization && !stream.writer.closed) {
              stream.writer.destroy();
              ended += 1;
            }
          }
          return ended > 0 ? { ...req } : undefined;
        },
        stream: (ctx) => ({
          onEvent(event, writer, index) {
            if (index === 0) open.push({ authorization: ctx.original.headers.authorization, writer });
            writer.emit(event);
          },
        }),
      };
    },
  },
  {
    id: 'STREAM-BUFFERED',
    title: 'Stream events wait in an output buffer',
    breaks: ['STREAM-FRAME-003'],
    area: 'events',
    description: 'Data events are held in a 16 KiB output buffer and written only once it is full, so a single write\'s event does not arrive while the stream is open.',
    apply: () => onStreams(() => {
      let buffered = '';
      return {
        async onEvent(event, writer) {
          if (!isEvent(event, ...DATA_EVENT_TYPES)) return writer.emit(event);
          buffered += `${stringifyJson(event)}\r\n`;
          if (buffered.length < 16 * 1024) return;
          const out = buffered;
          buffered = '';
          await writer.writeRaw(out);
        },
      };
    }),
  },
  {
    id: 'STREAM-ENDS-AFTER-STATUS',
    title: 'A stream ends after its status event',
    breaks: ['STREAM-REQ-001'],
    area: 'events',
    description: 'The stream response is ended right after the first `status` event, like a long poll answering a handshake, instead of staying open for events.',
    apply: () => onStreams(() => ({
      async onEvent(event, writer, index) {
        if (index > 0) return writer.emit(event);
        await writer.writeRaw(`${stringifyJson(event)}\r\n`);
        writer.destroy();
      },
    })),
  },
  {
    id: 'EVT-INDEX-SOURCE-AS-FILTER',
    title: 'An index source reacts to every field',
    breaks: ['EVT-TRIGGER-010', 'ESRC-SET-003'],
    area: 'events',
    description: 'An event source over an index is run as a `where` filter on the index terms, so an update that changes no term or value field still emits an event.',
    apply: () => {
      const terms = new Map<string, string[]>();
      return {
        request: (req) => {
          const expression = v4Expression(req);
          const index = isJsonObject(expression) && isJsonObject(expression.create_index) && isJsonObject(expression.create_index.object) ? expression.create_index.object : undefined;
          if (index !== undefined && typeof index.name === 'string' && Array.isArray(index.terms)) {
            const fields = index.terms.map((term) => (isJsonObject(term) && isJsonObject(term.object) && Array.isArray(term.object.field) ? term.object.field.at(-1) : undefined));
            if (fields.every((field): field is string => typeof field === 'string')) terms.set(index.name, fields);
            return undefined;
          }
          return editFql((text) => text.replace(/([A-Za-z_]\w*)\.([A-Za-z_]\w*)\(([^()]*)\)\.eventSource\(\)/g, (call, coll: string, name: string, args: string) => {
            const fields = terms.get(name);
            const values = args.split(',').map((arg) => arg.trim());
            if (fields === undefined || fields.length !== values.length) return call;
            return `${coll}.where(d => ${fields.map((field, i) => `d.${field} == ${values[i]}`).join(' && ')}).eventSource()`;
          }))!(req);
        },
      };
    },
  },
  {
    id: 'ESRC-WHERE-SOURCE-REFUSED',
    title: 'Filtered collection sets cannot be event sources',
    breaks: ['ESRC-SET-002'],
    area: 'events',
    description: 'An event source over `<Coll>.where(…)` (the filter before `.eventSource()`) is refused with 400 `invalid_receiver`; only `all()` converts.',
    apply: () => refuseQueries(/^\s*[A-Za-z_]\w*\.where\([^]*\.eventSource\(\)/),
  },
  {
    id: 'EVT-TRANSIENT-DOC-ADDED',
    title: 'A document created and deleted in one transaction emits `add`',
    breaks: ['EVT-TRIGGER-012'],
    area: 'events',
    description: 'A transaction that creates a tracked document and deletes it again emits an `add` event for it (each write is turned into an event before the transaction is folded).',
    apply: () => {
      const transient: { ts: bigint; doc: JsonObject }[] = [];
      return {
        json: (body, ctx) => {
          const expression = v4Expression(ctx.original);
          const ts = /^\d+$/.test(ctx.headers['x-txn-time'] ?? '') ? BigInt(ctx.headers['x-txn-time']!) : undefined;
          if (isJsonObject(expression) && 'let' in expression && isJsonObject(expression.in) && 'delete' in expression.in && ts !== undefined && isJsonObject(body) && isJsonObject(body.resource)) {
            const { ref, data } = body.resource;
            const refBody = isJsonObject(ref) && isJsonObject(ref['@ref']) ? ref['@ref'] : undefined;
            const coll = isJsonObject(refBody?.collection) && isJsonObject(refBody.collection['@ref']) ? refBody.collection['@ref'].id : undefined;
            if (typeof refBody?.id === 'string' && typeof coll === 'string') {
              transient.push({ ts, doc: { id: refBody.id, coll: { '@mod': coll }, ts: { '@time': new Date(Number(ts / 1000n)).toISOString() }, ...(tagged(isJsonObject(data) ? data : {}) as JsonObject) } });
            }
            return undefined;
          }
          // Only a read from the source's creation is sure to cover the transaction.
          const request = isFeedRequest(ctx.original) ? requestObject(ctx.original) : undefined;
          const page = request !== undefined && !('cursor' in request) && !('start_ts' in request) ? feedPage(body) : undefined;
          if (page === undefined) return undefined;
          let changed = false;
          for (const { ts: at, doc } of transient) {
            const next = page.events.findIndex((e) => isJsonObject(e) && (bigintOf(e.txn_ts) ?? 0n) > at);
            if (next === -1) continue;
            const neighbour = page.events[next] as JsonObject;
            page.events.splice(next, 0, { type: 'add', data: { '@doc': doc }, txn_ts: jsonInt(at), cursor: neighbour.cursor, stats: neighbour.stats });
            changed = true;
          }
          return changed ? body : undefined;
        },
      };
    },
  },
  {
    id: 'EVT-RETENTION-UNITS',
    title: 'Every `start_ts` is outside retention',
    breaks: ['EVT-RETAIN-004'],
    area: 'events',
    description: 'The retention check compares the microsecond `start_ts` with a millisecond clock, so any feed read with `start_ts` answers the retention error event instead of the events after it.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isFeedRequest(ctx.original) && isJsonInteger(requestObject(ctx.original)?.start_ts) && feedPage(body) !== undefined && !feedPage(body)!.events.some(isRetentionError), (body, ctx) => {
        const page = feedPage(body)!;
        const start = String(requestObject(ctx.original)!.start_ts);
        page.events = [{ type: 'error', error: { code: 'invalid_stream_start_time', message: `Stream start time ${start} is too far in the past. Recreate the stream and try again.` }, stats: page.stats ?? {} }];
        page.has_next = false;
      }),
    }),
  },
  {
    id: 'EVT-OTHER-COLLECTION-LEAKS',
    title: 'A collection source emits creates of other collections',
    breaks: ['EVT-TRIGGER-006', 'ESRC-SET-001'],
    area: 'events',
    description: 'A source over one collection also emits `add` events for documents created in other collections (the source filters writes by time only).',
    apply: () => addCreatedDocs((create, source) => create.coll !== source.collection),
  },
  {
    id: 'EVT-READ-RIGHTS-IGNORED',
    title: 'Event sources ignore read permissions',
    breaks: ['EVT-ACCESS-001', 'EVT-ACCESS-005'],
    area: 'events',
    description: 'A source over a whole collection emits `add` events for every document created in it, including those the roles of the secret that consumes the source may not read.',
    apply: () => addCreatedDocs((create, source) => create.coll === source.collection && /^\s*[A-Za-z_]\w*\.all\(\)\.eventSource\(\)\s*$/.test(source.query)),
  },
];

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
