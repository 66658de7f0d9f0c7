// The faults of spec/requirements/v4-streams.md that are code; their rows (ids, titles, what they break) are in v4-streams.json.
import type { FaultHooks, ProxiedRequest, StreamEventHook } from '../fault.js';
import { isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import { pathname, v4Expression } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

const V4_EVENT_FIELD_ORDER = ['action', 'document', 'diff', 'prev', 'index'] as const;

function isV4Event(value: unknown, type: string): value is JsonObject {
  return isJsonObject(value) && value.type === type;
}

const isV4Stream = (req: ProxiedRequest) => req.method === 'POST' && pathname(req) === '/stream';

/** A hook for every open v4 stream; `/stream/1` streams pass through. */
function onV4Streams(hook: () => StreamEventHook): FaultHooks {
  return { stream: (ctx) => (isV4Stream(ctx.original) ? hook() : undefined) };
}

/** Rewrites the `fields` URL parameter of v4 stream requests (null: no parameter). */
function withFields(edit: (fields: string | null) => string | null | undefined): FaultHooks {
  return {
    request(req) {
      if (!isV4Stream(req)) return undefined;
      const url = new URL(req.path, 'http://proxy');
      const fields = edit(url.searchParams.get('fields'));
      if (fields === undefined) return undefined;
      if (fields === null) url.searchParams.delete('fields');
      else url.searchParams.set('fields', fields);
      return { ...req, path: `${url.pathname}${url.search}` };
    },
  };
}

function body(event: JsonObject): JsonObject | undefined {
  return isJsonObject(event.event) ? event.event : undefined;
}

/** Sends, for each event of open v4 streams, the events `edit` answers given it and its `event` object (undefined: it). */
function editV4Events(edit: (event: JsonObject, fields: JsonObject | undefined) => unknown[] | undefined): FaultHooks {
  return onV4Streams(() => ({
    onEvent(event, writer) {
      for (const out of (isJsonObject(event) ? edit(event, body(event)) : undefined) ?? [event]) writer.emit(out);
    },
  }));
}

/** Replaces the `event` object of v4 events of `type` with what `edit` answers (undefined: unchanged). */
const editV4Bodies = (type: string, edit: (fields: JsonObject) => JsonObject | undefined) =>
  editV4Events((event, fields) => {
    const edited = event.type === type && fields !== undefined ? edit(fields) : undefined;
    return edited === undefined ? undefined : [{ ...event, event: edited }];
  });

export const code: FaultCode = {
  'V4STREAM-VERSION-REFUSED': () => ({
    request(req) {
      if (!isV4Stream(req)) return undefined;
      const parsed = tryParseJson(req.body);
      if (!parsed.ok || !isJsonObject(parsed.value) || !('get' in parsed.value)) return undefined;
      return { ...req, body: Buffer.from(stringifyJson({ select: ['data'], from: parsed.value })) };
    },
  }),
  'V4STREAM-START-EVENT-DIFFERS': () =>
    editV4Events((event) => (event.type === 'start' ? [{ ...event, event: jsonInt(BigInt(String(event.txn)) + 1n) }] : undefined)),
  'V4STREAM-DELETE-ENDS-STREAM': () =>
    onV4Streams(() => ({
      async onEvent(event, writer) {
        if (!isV4Event(event, 'version') || body(event)?.action !== 'delete') return writer.emit(event);
        // The delete event itself arrives; the connection is cut once it is flushed.
        await writer.writeRaw(`${stringifyJson(event)}\r\n`);
        writer.destroy();
      },
    })),
  'V4STREAM-DEFAULT-EVERY-FIELD': () => withFields((fields) => (fields === null ? V4_EVENT_FIELD_ORDER.join(',') : undefined)),
  'V4STREAM-FIELDS-IN-REQUEST-ORDER': () => ({
    stream: (ctx) => {
      if (!isV4Stream(ctx.original)) return undefined;
      const named = new URL(ctx.original.path, 'http://proxy').searchParams
        .get('fields')
        ?.split(',')
        .map((f) => f.trim());
      if (named === undefined) return undefined;
      return {
        onEvent(event, writer) {
          const fields = isJsonObject(event) ? body(event) : undefined;
          if (!isJsonObject(event) || fields === undefined) return writer.emit(event);
          const reordered: JsonObject = {};
          for (const name of named) if (name in fields) reordered[name] = fields[name];
          writer.emit({ ...event, event: reordered });
        },
      };
    },
  }),
  'V4STREAM-UNKNOWN-FIELD-IGNORED': () =>
    withFields((fields) => {
      if (fields === null) return undefined;
      const known = fields.split(',').filter((f) => (V4_EVENT_FIELD_ORDER as readonly string[]).includes(f.trim()));
      return known.length === fields.split(',').length ? undefined : known.length === 0 ? null : known.join(',');
    }),
  'V4STREAM-SET-DOCUMENT-WITH-DATA': () =>
    editV4Bodies('set', (fields) =>
      isJsonObject(fields.document) ? { ...fields, document: { ...fields.document, data: {} } } : undefined,
    ),
  'V4STREAM-PERMISSION-LOSS-SILENT': () => editV4Events((event) => (event.type === 'error' ? [] : undefined)),
  'V4STREAM-UPDATE-AS-CREATE': () =>
    editV4Bodies('version', (fields) => (fields.action === 'update' ? { ...fields, action: 'create' } : undefined)),
  'V4STREAM-CREATE-AS-UPDATE': () =>
    editV4Bodies('version', (fields) => (fields.action === 'create' ? { ...fields, action: 'update' } : undefined)),
  'V4STREAM-DIFF-IS-DOCUMENT': () =>
    editV4Bodies('version', (fields) =>
      isJsonObject(fields.diff) && isJsonObject(fields.document) ? { ...fields, diff: fields.document } : undefined,
    ),
  'V4STREAM-INDEX-WITHOUT-VALUES': () =>
    editV4Bodies('set', (fields) => (isJsonObject(fields.index) ? { ...fields, index: { ...fields.index, values: [] } } : undefined)),
  'V4STREAM-DOCUMENTS-REMOVE-DROPPED': () =>
    editV4Events((event, fields) => (event.type === 'set' && fields?.action === 'remove' && !('index' in fields) ? [] : undefined)),
  'V4STREAM-HISTORY-EDIT-AS-VERSION': () => {
    const inserts: bigint[] = [];
    return {
      request(req) {
        const expression = v4Expression(req);
        const ts = isJsonObject(expression) && 'insert' in expression ? expression.ts : undefined;
        if (ts !== undefined && /^\d+$/.test(String(ts))) inserts.push(BigInt(String(ts)));
        return undefined;
      },
      ...onV4Streams(() => ({
        onEvent(event, writer) {
          const ts = inserts.shift();
          if (ts !== undefined && isV4Event(event, 'version') && isJsonObject(event.event) && isJsonObject(event.event.document)) {
            writer.emit({
              ...event,
              txn: jsonInt(ts),
              event: { ...event.event, action: 'create', document: { ...event.event.document, ts: jsonInt(ts) } },
            });
          }
          writer.emit(event);
        },
      })),
    };
  },
};
