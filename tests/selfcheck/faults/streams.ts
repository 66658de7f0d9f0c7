// The faults of spec/requirements/streams.md that are code; their rows (ids, titles, what they break) are in streams.json.
import { isJsonObject, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import {
  DATA_EVENT_TYPES,
  editEvents,
  bigintOf,
  holdOpen,
  isErrorEvent,
  isEvent,
  isRetentionError,
  isStreamRequest,
  nowMicros,
  onStreams,
  requestObject,
} from './lib/event-rewrites.js';
import type { FaultCode } from './lib/table.js';

const STREAMS = { feed: false, stream: true };

export const code: FaultCode = {
  'STREAM-STATUS-DROPPED': () =>
    onStreams(() => ({
      onEvent(event, writer, index) {
        if (!(index === 0 && isEvent(event, 'status'))) writer.emit(event);
      },
    })),
  'STREAM-STATUS-WITH-DATA': () => editEvents((event) => (isEvent(event, 'status') ? [{ ...event, data: null }] : undefined), STREAMS),
  'STREAM-FIRST-EVENT-DROPPED': () =>
    onStreams(() => {
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
  'STREAM-STATS-MISSING': () => editEvents(({ stats, ...rest }) => (isEvent(rest) && stats !== undefined ? [rest] : undefined), STREAMS),
  'STREAM-KEEPALIVE-COMMENT': () =>
    onStreams(() => ({
      async onEvent(event, writer) {
        if (!isEvent(event, 'status')) return writer.emit(event);
        await writer.writeRaw(`: keep-alive\r\n${stringifyJson(event)}\r\n`);
      },
    })),
  'STREAM-NO-TOKEN-OPENS': () => ({
    response(response, ctx) {
      const body = requestObject(ctx.original);
      if (!isStreamRequest(ctx.original) || response.status !== 400 || body === undefined || 'token' in body) return undefined;
      const event = {
        type: 'error',
        error: { code: 'invalid_request', message: 'Missing field: token.' },
        stats: { read_ops: 0, storage_bytes_read: 0, compute_ops: 1, processing_time_ms: 0, rate_limits_hit: [] },
      };
      return {
        status: 200,
        headers: { ...response.headers, 'content-type': 'application/json' },
        body: Buffer.from(`${stringifyJson(event)}\r\n`),
      };
    },
  }),
  'STREAM-RESUME-REPLAYS-TWICE': () => ({
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
  'STREAM-LARGE-REPLAY-CUT': () =>
    onStreams(() => {
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
  'STREAM-RESUME-WITHOUT-STATUS': () => ({
    stream: (ctx) =>
      typeof requestObject(ctx.original)?.cursor !== 'string'
        ? undefined
        : {
            onEvent(event, writer, index) {
              if (!(index === 0 && isEvent(event, 'status'))) writer.emit(event);
            },
          },
  }),
  'STREAM-ONE-SUBSCRIBER-PER-TOKEN': () => {
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
  'STREAM-IDLE-TIMEOUT': () => ({
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
  'STREAM-OPEN-AFTER-ERROR': () =>
    onStreams(() => ({
      async onEvent(event, writer) {
        writer.emit(event);
        if (isEvent(event, 'error')) {
          writer.emit({
            type: 'status',
            txn_ts: jsonInt(nowMicros()),
            cursor: typeof event.cursor === 'string' ? event.cursor : '',
            stats: isJsonObject(event.stats) ? event.stats : {},
          });
          await holdOpen(writer);
        }
      },
    })),
  'STREAM-PERMISSION-LOSS-CODE': () =>
    editEvents(
      (event) =>
        isErrorEvent(event, 'permission_loss')
          ? [{ ...event, error: { ...(event.error as JsonObject), code: 'unauthorized' } }]
          : undefined,
      STREAMS,
    ),
  'STREAM-RETENTION-WITHOUT-STATUS': () => ({
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
  'STREAM-BUFFERED': () =>
    onStreams(() => {
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
  'STREAM-ENDS-AFTER-STATUS': () =>
    onStreams(() => ({
      async onEvent(event, writer, index) {
        if (index > 0) return writer.emit(event);
        await writer.writeRaw(`${stringifyJson(event)}\r\n`);
        writer.destroy();
      },
    })),
};
