// The faults of spec/requirements/events.md that are code; their rows (ids, titles, what they break) are in events.json.
import { isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  DATA_EVENT_TYPES,
  WriteLog,
  addCreatedDocs,
  bigintOf,
  chainJson,
  editEvents,
  editFql,
  eventDoc,
  eventDocId,
  feedPage,
  isEvent,
  isFeedRequest,
  isRetentionError,
  nowMicros,
  onStreams,
  requestObject,
  tagged,
  triggerRewrite,
  withDoc,
  withoutErrorEvents,
} from './lib/event-rewrites.js';
import { onJson, v4Expression } from './lib/rewrites.js';
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
  'EVT-PROJECTION-ERROR-SKIPPED': () => withoutErrorEvents('invalid_null_access'),
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
  'EVT-CREDENTIALS-LEAKED': () => {
    const writes = new WriteLog();
    const events = editEvents((event) => {
      const doc = eventDoc(event);
      const id = eventDocId(event);
      if (doc === undefined || id === undefined || !writes.withCredentials.has(id)) return undefined;
      return [withDoc(event, { ...doc, credentials: { hashed_password: '$2a$05$abcdefghijklmnopqrstuuNKmT0k8zvJ7cB3eRQ1K4sA7zvEwPyO' } })];
    });
    return { ...events, json: chainJson(writes.observe, events.json) };
  },
  'EVT-REMOVE-TOMBSTONE': () =>
    editEvents((event) => {
      const doc = isEvent(event, 'remove') ? eventDoc(event) : undefined;
      if (doc === undefined) return undefined;
      return [withDoc(event, { id: doc.id, coll: doc.coll, ts: doc.ts })];
    }),
  'EVT-REMOVE-NEW-VERSION': () => {
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
  'EVT-ADD-DUPLICATED': () =>
    editEvents((event) => (isEvent(event, 'add') ? [event, { ...event }] : undefined), { feed: true, stream: false }),
  'EVT-ENTER-AS-UPDATE': () =>
    triggerRewrite((event, writes) =>
      isEvent(event, 'add') && writes.some((w) => w.kind === 'update') ? [{ ...event, type: 'update' }] : undefined,
    ),
  'EVT-UPDATE-AS-ADD': () => editEvents((event) => (isEvent(event, 'update') ? [{ ...event, type: 'add' }] : undefined)),
  'EVT-LEAVE-AS-UPDATE': () =>
    triggerRewrite((event, writes) =>
      isEvent(event, 'remove') && writes.some((w) => w.kind === 'update') ? [{ ...event, type: 'update' }] : undefined,
    ),
  'EVT-DELETE-SILENT': () =>
    triggerRewrite((event, writes) => (isEvent(event, 'remove') && writes.some((w) => w.kind === 'delete') ? [] : undefined)),
  'EVT-EVENT-PER-WRITE': () =>
    triggerRewrite((event, writes) =>
      isEvent(event, ...DATA_EVENT_TYPES) && writes.length > 1 ? writes.map(() => ({ ...event })) : undefined,
    ),
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
  'EVT-RETENTION-ONLY-FOR-START-TS': () =>
    editEvents((event, req) => (isRetentionError(event) && !('start_ts' in (requestObject(req) ?? {})) ? [] : undefined)),
  'EVT-INDEX-SOURCE-AS-FILTER': () => {
    const terms = new Map<string, string[]>();
    return {
      request: (req) => {
        const expression = v4Expression(req);
        const index =
          isJsonObject(expression) && isJsonObject(expression.create_index) && isJsonObject(expression.create_index.object)
            ? expression.create_index.object
            : undefined;
        if (index !== undefined && typeof index.name === 'string' && Array.isArray(index.terms)) {
          const fields = index.terms.map((term) =>
            isJsonObject(term) && isJsonObject(term.object) && Array.isArray(term.object.field) ? term.object.field.at(-1) : undefined,
          );
          if (fields.every((field): field is string => typeof field === 'string')) terms.set(index.name, fields);
          return undefined;
        }
        return editFql((text) =>
          text.replace(/([A-Za-z_]\w*)\.([A-Za-z_]\w*)\(([^()]*)\)\.eventSource\(\)/g, (call, coll: string, name: string, args: string) => {
            const fields = terms.get(name);
            const values = args.split(',').map((arg) => arg.trim());
            if (fields === undefined || fields.length !== values.length) return call;
            return `${coll}.where(d => ${fields.map((field, i) => `d.${field} == ${values[i]}`).join(' && ')}).eventSource()`;
          }),
        )!(req);
      },
    };
  },
  'EVT-TRANSIENT-DOC-ADDED': () => {
    const transient: { ts: bigint; doc: JsonObject }[] = [];
    return {
      json: (body, ctx) => {
        const expression = v4Expression(ctx.original);
        const ts = /^\d+$/.test(ctx.headers['x-txn-time'] ?? '') ? BigInt(ctx.headers['x-txn-time']!) : undefined;
        if (
          isJsonObject(expression) &&
          'let' in expression &&
          isJsonObject(expression.in) &&
          'delete' in expression.in &&
          ts !== undefined &&
          isJsonObject(body) &&
          isJsonObject(body.resource)
        ) {
          const { ref, data } = body.resource;
          const refBody = isJsonObject(ref) && isJsonObject(ref['@ref']) ? ref['@ref'] : undefined;
          const coll =
            isJsonObject(refBody?.collection) && isJsonObject(refBody.collection['@ref']) ? refBody.collection['@ref'].id : undefined;
          if (typeof refBody?.id === 'string' && typeof coll === 'string') {
            transient.push({
              ts,
              doc: {
                id: refBody.id,
                coll: { '@mod': coll },
                ts: { '@time': new Date(Number(ts / 1000n)).toISOString() },
                ...(tagged(isJsonObject(data) ? data : {}) as JsonObject),
              },
            });
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
          page.events.splice(next, 0, {
            type: 'add',
            data: { '@doc': doc },
            txn_ts: jsonInt(at),
            cursor: neighbour.cursor,
            stats: neighbour.stats,
          });
          changed = true;
        }
        return changed ? body : undefined;
      },
    };
  },
  'EVT-RETENTION-UNITS': onJson(
    (body, ctx) =>
      isFeedRequest(ctx.original) &&
      isJsonInteger(requestObject(ctx.original)?.start_ts) &&
      feedPage(body) !== undefined &&
      !feedPage(body)!.events.some(isRetentionError),
    (body, ctx) => {
      const page = feedPage(body)!;
      const start = String(requestObject(ctx.original)!.start_ts);
      page.events = [
        {
          type: 'error',
          error: {
            code: 'invalid_stream_start_time',
            message: `Stream start time ${start} is too far in the past. Recreate the stream and try again.`,
          },
          stats: page.stats ?? {},
        },
      ];
      page.has_next = false;
    },
  ),
  'EVT-OTHER-COLLECTION-LEAKS': () => addCreatedDocs((create, source) => create.coll !== source.collection),
  'EVT-READ-RIGHTS-IGNORED': () =>
    addCreatedDocs(
      (create, source) => create.coll === source.collection && /^\s*[A-Za-z_]\w*\.all\(\)\.eventSource\(\)\s*$/.test(source.query),
    ),
};
