// The faults of spec/requirements/events.md that are code; their rows (ids, titles, what they break) are in events.json.
import { isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  DATA_EVENT_TYPES,
  bigintOf,
  editEvents,
  eventDoc,
  feedPage,
  isEvent,
  isFeedRequest,
  isRetentionError,
  nowMicros,
  onStreams,
  requestObject,
  tagged,
  withDoc,
  chainJson,
  eventDocId,
  observeV4Forms,
  resultDocument,
} from './lib/event-rewrites.js';
import { onJson, rewriteJson } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'STREAM-EVENT-DUPLICATED': () =>
    onStreams(() => ({
      onEvent(event, writer) {
        writer.emit(event);
        if (isEvent(event, ...DATA_EVENT_TYPES)) writer.emit(event);
      },
    })),
  'STREAM-EVENTS-SWAPPED': () =>
    onStreams(() => {
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
  'FEED-TXN-ORDER-UNSTABLE': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && (feedPage(body)?.events.length ?? 0) >= 2,
    (body) => {
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
    },
  ),
  'EVT-TYPE-V4-NAMES': () =>
    editEvents((event) => {
      const renamed = { add: 'create', remove: 'delete' }[String(event.type)];
      return renamed === undefined ? undefined : [{ ...event, type: renamed }];
    }),
  'EVT-TXN-TS-STRING': () =>
    editEvents((event) =>
      isEvent(event, ...DATA_EVENT_TYPES) && isJsonInteger(event.txn_ts) ? [{ ...event, txn_ts: String(event.txn_ts) }] : undefined,
    ),
  'EVT-COLL-PLAIN-STRING': () =>
    editEvents((event) => {
      const doc = eventDoc(event);
      if (doc === undefined || !isJsonObject(doc.coll) || typeof doc.coll['@mod'] !== 'string') return undefined;
      return [withDoc(event, { ...doc, coll: doc.coll['@mod'] })];
    }),
  'EVT-PROJECTION-UNTAGGED': () =>
    editEvents((event) => {
      if (!isEvent(event, ...DATA_EVENT_TYPES) || !isJsonObject(event.data) || '@doc' in event.data) return undefined;
      const data = Object.fromEntries(
        Object.entries(event.data).map(([k, v]) => [
          k,
          isJsonObject(v) && typeof (v['@int'] ?? v['@long']) === 'string' ? jsonInt(BigInt(String(v['@int'] ?? v['@long']))) : v,
        ]),
      );
      return [{ ...event, data }];
    }),
  'EVT-MAPPED-VALUE-WRAPPED': () =>
    editEvents((event) => {
      if (!isEvent(event, ...DATA_EVENT_TYPES) || !isJsonObject(event.data)) return undefined;
      const keys = Object.keys(event.data);
      return keys.length === 1 && keys[0]!.startsWith('@') && keys[0] !== '@doc' ? [{ ...event, data: { value: event.data } }] : undefined;
    }),
  'EVT-ERROR-WITH-POSITION': () => {
    let lastCursor = 'ZXJyb3ItZXZlbnQtY3Vyc29y';
    return editEvents((event) => {
      if (typeof event.cursor === 'string') lastCursor = event.cursor;
      return isEvent(event, 'error') && !('cursor' in event) ? [{ ...event, txn_ts: jsonInt(nowMicros()), cursor: lastCursor }] : undefined;
    });
  },
  'EVT-TXN-TS-MILLIS': () =>
    editEvents((event) => {
      const ts = isEvent(event, ...DATA_EVENT_TYPES) ? bigintOf(event.txn_ts) : undefined;
      return ts === undefined ? undefined : [{ ...event, txn_ts: jsonInt(ts / 1000n) }];
    }),
  'EVT-REMOVE-TOMBSTONE': () =>
    editEvents((event) => {
      const doc = isEvent(event, 'remove') ? eventDoc(event) : undefined;
      if (doc === undefined) return undefined;
      return [withDoc(event, { id: doc.id, coll: doc.coll, ts: doc.ts })];
    }),
  'EVT-ADD-DUPLICATED': () =>
    editEvents((event) => (isEvent(event, 'add') ? [event, { ...event }] : undefined), { feed: true, stream: false }),
  'EVT-UPDATE-AS-ADD': () => editEvents((event) => (isEvent(event, 'update') ? [{ ...event, type: 'add' }] : undefined)),
  'EVT-EVENT-PER-WRITE': () => {
    // How many writes each document got in each transaction, by `<id>@<ts>`.
    const writes = new Map<string, number>();
    const observe = observeV4Forms((form, result, ts) => {
      const key = `${resultDocument(result)?.id}@${ts}`;
      if (['create', 'update', 'delete'].some((kind) => kind in form)) writes.set(key, (writes.get(key) ?? 0) + 1);
    });
    const events = editEvents((event) => {
      const n = isEvent(event, ...DATA_EVENT_TYPES) ? (writes.get(`${eventDocId(event)}@${String(event.txn_ts)}`) ?? 0) : 0;
      return n > 1 ? Array.from({ length: n }, () => ({ ...event })) : undefined;
    });
    return { ...events, json: chainJson(observe, events.json) };
  },
  'EVT-TXN-TS-PER-WRITE': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined,
    (body) => {
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
    },
  ),
  'EVT-RETENTION-CODE': () =>
    editEvents((event) =>
      isRetentionError(event) ? [{ ...event, error: { ...(event.error as JsonObject), code: 'invalid_request' } }] : undefined,
    ),
  'EVT-TRANSIENT-DOC-ADDED': () => {
    // The documents `Let(…, Delete(…))` created and deleted, as events show them, by transaction time.
    const transient: { ts: bigint; doc: JsonObject }[] = [];
    const observe = observeV4Forms((form, result, ts) => {
      const written = 'let' in form && isJsonObject(form.in) && 'delete' in form.in ? resultDocument(result) : undefined;
      if (written === undefined) return;
      const fields = tagged(isJsonObject(result.data) ? result.data : {}) as JsonObject;
      const at = { '@time': new Date(Number(ts / 1000n)).toISOString() };
      transient.push({ ts, doc: { id: written.id, coll: { '@mod': written.coll }, ts: at, ...fields } });
    });
    const add = rewriteJson(
      // Only a read from the source's creation is sure to cover the transaction.
      (body, ctx) => {
        const request = isFeedRequest(ctx.original) ? requestObject(ctx.original) : undefined;
        return request !== undefined && !('cursor' in request) && !('start_ts' in request) && feedPage(body) !== undefined;
      },
      (body) => {
        const page = feedPage(body)!;
        return transient.filter(({ ts, doc }) => {
          const next = page.events.findIndex((e) => isJsonObject(e) && (bigintOf(e.txn_ts) ?? 0n) > ts);
          const neighbour = page.events[next] as JsonObject | undefined;
          if (neighbour === undefined) return false;
          page.events.splice(next, 0, {
            type: 'add',
            data: { '@doc': doc },
            txn_ts: jsonInt(ts),
            cursor: neighbour.cursor,
            stats: neighbour.stats,
          });
          return true;
        }).length;
      },
    );
    return { json: chainJson(observe, add) };
  },
};
