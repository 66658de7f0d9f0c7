// Faults of the `events` area: event streams and event feeds.
import type { Fault, FaultHooks, StreamEventHook } from '../fault.js';
import { isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import { rewriteJson } from './rewrites.js';

function isEvent(value: unknown, ...types: string[]): value is JsonObject {
  return isJsonObject(value) && typeof value.type === 'string' && (types.length === 0 || types.includes(value.type));
}

const DATA_EVENT_TYPES = ['add', 'update', 'remove'];

function onStreams(hook: () => StreamEventHook): FaultHooks {
  return { stream: () => hook() };
}

function isFeed(path: string): boolean {
  return path.split('?')[0] === '/feed/1';
}

function feedPage(body: unknown): (JsonObject & { events: unknown[] }) | undefined {
  return isJsonObject(body) && Array.isArray(body.events) ? (body as JsonObject & { events: unknown[] }) : undefined;
}

function isErrorEvent(value: unknown, code: string): boolean {
  return isEvent(value, 'error') && isJsonObject(value.error) && value.error.code === code;
}

/** Removes `error` events with `code` from streams and feed pages: a server that never checks the limit behind it. */
function withoutErrorEvents(code: string): FaultHooks {
  return {
    stream: () => ({
      onEvent(event, writer) {
        if (!isErrorEvent(event, code)) writer.emit(event);
      },
    }),
    json: rewriteJson((body, ctx) => isFeed(ctx.original.path) && (feedPage(body)?.events.some((e) => isErrorEvent(e, code)) ?? false), (body) => {
      const page = feedPage(body)!;
      page.events = page.events.filter((e) => !isErrorEvent(e, code));
    }),
  };
}

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
    breaks: ['EVT-FIELD-005', 'STREAM-STATUS-002'],
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
    id: 'EVENTS-OVERFLOW-NOT-ENFORCED',
    title: 'The 128-event processing limit is not enforced',
    breaks: ['LIMIT-EVENTS-001'],
    area: 'events',
    description: '`stream_overflow` error events are removed from streams and feed pages, as from a server that processes a transaction of any size.',
    apply: () => withoutErrorEvents('stream_overflow'),
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
];
