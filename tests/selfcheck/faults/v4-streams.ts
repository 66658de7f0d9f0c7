// Faults of v4 streams (`POST /stream`, DEC-064): a server whose driver streams open, but send the wrong events.
import type { Fault, FaultHooks, ProxiedRequest, StreamEventHook } from '../fault.js';
import { isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import { bodyJson, forwardInstead, hasErrorCode, pathname, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

const V4_EVENT_FIELD_ORDER = ['action', 'document', 'diff', 'prev', 'index'] as const;

function isV4Event(value: unknown, type: string): value is JsonObject {
  return isJsonObject(value) && value.type === type;
}

const isV4Stream = (req: ProxiedRequest) => req.method === 'POST' && pathname(req) === '/stream';

/** What the body V4STREAM-MISSING-DOCUMENT-REFUSED sends aborts with when the document does not exist. */
const MISSING_DOCUMENT = 'fault: the streamed document does not exist';

/** A JSON hook giving the errors of a refused v4 stream request answered `status` and `from` the code `to` instead. */
function refusalCodeAs(status: number, from: string, to: string): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => isV4Stream(context.original) && context.status === status && hasErrorCode(body, from),
    (body) => {
      const errors = v4Errors(body).filter((error) => error.code === from);
      for (const error of errors) error.code = to;
      return errors.length;
    },
  );
}

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

/** Replaces the `event` object of v4 events of `type` with what `edit` answers (undefined: unchanged). */
function editV4Bodies(type: string, edit: (fields: JsonObject) => JsonObject | undefined): FaultHooks {
  return onV4Streams(() => ({
    onEvent(event, writer) {
      const fields = isV4Event(event, type) ? body(event) : undefined;
      const edited = fields === undefined ? undefined : edit(fields);
      writer.emit(edited === undefined ? event : { ...(event as JsonObject), event: edited });
    },
  }));
}

export const V4_STREAM_FAULTS: readonly Fault[] = [
  {
    id: 'V4STREAM-VERSION-REFUSED',
    title: 'A document as Get answers it is not streamable',
    breaks: ['V4STREAM-REQ-007'],
    area: 'events',
    description: 'A `/stream` body that is a top-level `Get` is sent on as the `data` of that Get, which no server streams, as by a server that streams refs and sets only.',
    apply: () => ({
      request(req) {
        if (!isV4Stream(req)) return undefined;
        const parsed = tryParseJson(req.body);
        if (!parsed.ok || !isJsonObject(parsed.value) || !('get' in parsed.value)) return undefined;
        return { ...req, body: Buffer.from(stringifyJson({ select: ['data'], from: parsed.value })) };
      },
    }),
  },
  {
    id: 'V4STREAM-START-EVENT-DIFFERS',
    title: 'The start event carries a time other than its txn',
    breaks: ['V4STREAM-START-001'],
    area: 'events',
    description: 'The `event` of the `start` event is one microsecond after its `txn`.',
    apply: () => onV4Streams(() => ({
      onEvent(event, writer) {
        if (isV4Event(event, 'start')) writer.emit({ ...event, event: jsonInt(BigInt(String(event.txn)) + 1n) });
        else writer.emit(event);
      },
    })),
  },
  {
    id: 'V4STREAM-DELETE-ENDS-STREAM',
    title: 'Deleting the streamed document ends the stream',
    breaks: ['V4STREAM-DOC-003'],
    area: 'events',
    description: 'After a `version` event with action `delete` the connection is cut.',
    apply: () => onV4Streams(() => ({
      async onEvent(event, writer) {
        if (!isV4Event(event, 'version') || body(event)?.action !== 'delete') return writer.emit(event);
        // The delete event itself arrives; the connection is cut once it is flushed.
        await writer.writeRaw(stringifyJson(event) + '\r\n');
        writer.destroy();
      },
    })),
  },
  {
    id: 'V4STREAM-DEFAULT-EVERY-FIELD',
    title: 'Without `fields`, events carry every field',
    breaks: ['V4STREAM-FIELDS-001'],
    area: 'events',
    description: 'A v4 stream request without `fields` is served as if it named action, document, diff, prev and index.',
    apply: () => withFields((fields) => (fields === null ? V4_EVENT_FIELD_ORDER.join(',') : undefined)),
  },
  {
    id: 'V4STREAM-FIELDS-IN-REQUEST-ORDER',
    title: 'Event fields come in the order the request named them',
    breaks: ['V4STREAM-FIELDS-002'],
    area: 'events',
    description: 'The fields of each event are reordered to the order of the request\'s `fields` parameter.',
    apply: () => ({
      stream: (ctx) => {
        if (!isV4Stream(ctx.original)) return undefined;
        const named = new URL(ctx.original.path, 'http://proxy').searchParams.get('fields')?.split(',').map((f) => f.trim());
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
  },
  {
    id: 'V4STREAM-UNKNOWN-FIELD-IGNORED',
    title: 'Unknown names in `fields` are ignored',
    breaks: ['V4STREAM-REQ-005'],
    area: 'events',
    description: 'Names in `fields` that are not event fields are dropped from the request instead of refused.',
    apply: () => withFields((fields) => {
      if (fields === null) return undefined;
      const known = fields.split(',').filter((f) => (V4_EVENT_FIELD_ORDER as readonly string[]).includes(f.trim()));
      return known.length === fields.split(',').length ? undefined : known.length === 0 ? null : known.join(',');
    }),
  },
  {
    id: 'V4STREAM-SET-DOCUMENT-WITH-DATA',
    title: 'Set events show the document\'s data',
    breaks: ['V4STREAM-SET-001'],
    area: 'events',
    description: 'The `document` of every `set` event carries an empty `data` object besides `ref` and `ts`.',
    apply: () => onV4Streams(() => ({
      onEvent(event, writer) {
        const fields = isV4Event(event, 'set') ? body(event) : undefined;
        const document = fields?.document;
        if (fields === undefined || !isJsonObject(document)) return writer.emit(event);
        writer.emit({ ...(event as JsonObject), event: { ...fields, document: { ...document, data: {} } } });
      },
    })),
  },
  {
    id: 'V4STREAM-NO-STREAM-ID',
    title: 'A v4 stream opens without x-fauna-stream-id',
    breaks: ['V4STREAM-REQ-001'],
    area: 'events',
    description: 'An open `/stream` response carries no `x-fauna-stream-id` header, as from a server that sends only what `/stream/1` sends.',
    apply: () => ({
      streamHeaders(headers, context) {
        if (!isV4Stream(context.original) || !('x-fauna-stream-id' in headers)) return undefined;
        delete headers['x-fauna-stream-id'];
        return headers;
      },
    }),
  },
  {
    id: 'V4STREAM-MISSING-DOCUMENT-REFUSED',
    title: 'A stream of a document that does not exist is refused',
    breaks: ['V4STREAM-REQ-002'],
    area: 'events',
    description: 'A `/stream` body that is a ref to a document that does not exist answers 404 `instance not found`, as from a server that reads the document before streaming it. The server is sent a body that aborts when the document does not exist.',
    apply: () =>
      forwardInstead(
        (req) => {
          if (!isV4Stream(req)) return undefined;
          const parsed = tryParseJson(req.body);
          if (!parsed.ok || !isJsonObject(parsed.value) || !('ref' in parsed.value) || !('id' in parsed.value)) return undefined;
          const ref = parsed.value;
          return Buffer.from(stringifyJson({ if: { exists: ref }, then: ref, else: { abort: MISSING_DOCUMENT } }));
        },
        (response) => {
          const refused = v4Errors(bodyJson(response)).some((error) => error.code === 'transaction aborted' && error.description === MISSING_DOCUMENT);
          return refused ? withJsonBody(withStatus(response, 404), { errors: [{ position: [], code: 'instance not found', description: 'Document not found.' }] }) : response;
        },
      ),
  },
  {
    id: 'V4STREAM-UNSTREAMABLE-AS-INVALID-EXPRESSION',
    title: 'A body that is not a streamable ref or set is refused as an invalid expression',
    breaks: ['V4STREAM-REQ-003'],
    area: 'events',
    description: 'A `/stream` body that evaluates to a collection ref, a string or a Union answers 400 `invalid expression` instead of `invalid argument`, as from a server with one code for every body it will not stream.',
    apply: () => ({ json: refusalCodeAs(400, 'invalid argument', 'invalid expression') }),
  },
  {
    id: 'V4STREAM-WRITE-AS-INVALID-ARGUMENT',
    title: 'A body that writes is refused as an invalid argument',
    breaks: ['V4STREAM-REQ-004'],
    area: 'events',
    description: 'A `/stream` body whose evaluation writes answers 400 `invalid argument` instead of `invalid expression`, as from a server that only checks what the body evaluates to.',
    apply: () => ({ json: refusalCodeAs(400, 'invalid expression', 'invalid argument') }),
  },
  {
    id: 'V4STREAM-BAD-SECRET-FORBIDDEN',
    title: 'A stream request with a bad secret is answered 403',
    breaks: ['V4STREAM-REQ-006'],
    area: 'events',
    description: '`POST /stream` with a secret that is not valid answers 403 `permission denied` instead of 401 `unauthorized`, as from a server that checks stream access as a read permission.',
    apply: () => ({
      response: rewriteResponse(
        (response, context) => isV4Stream(context.original) && response.status === 401 && hasErrorCode(bodyJson(response), 'unauthorized'),
        (response) => withJsonBody(withStatus(response, 403), { errors: [{ position: [], code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }),
      ),
    }),
  },
  {
    id: 'V4STREAM-PERMISSION-LOSS-SILENT',
    title: 'A revoked secret\'s stream ends without an error event',
    breaks: ['V4STREAM-ACCESS-002'],
    area: 'events',
    description: 'The `permission denied` error event is dropped; the stream still ends.',
    apply: () => onV4Streams(() => ({
      onEvent(event, writer) {
        if (!isV4Event(event, 'error')) writer.emit(event);
      },
    })),
  },
  {
    id: 'V4STREAM-UPDATE-AS-CREATE',
    title: 'An Update of the streamed document is sent as a create',
    breaks: ['V4STREAM-DOC-001'],
    area: 'events',
    description: 'Every `version` event with action `update` says `create`.',
    apply: () => editV4Bodies('version', (fields) => (fields.action === 'update' ? { ...fields, action: 'create' } : undefined)),
  },
  {
    id: 'V4STREAM-CREATE-AS-UPDATE',
    title: 'Creating the streamed document is sent as an update',
    breaks: ['V4STREAM-DOC-002'],
    area: 'events',
    description: 'Every `version` event with action `create` says `update` (an upsert view of writes).',
    apply: () => editV4Bodies('version', (fields) => (fields.action === 'create' ? { ...fields, action: 'update' } : undefined)),
  },
  {
    id: 'V4STREAM-DIFF-IS-DOCUMENT',
    title: '`diff` holds the whole document',
    breaks: ['V4STREAM-FIELDS-003'],
    area: 'events',
    description: 'The `diff` of a `version` event is replaced by its `document`: every field, not only the changed ones.',
    apply: () => editV4Bodies('version', (fields) => (isJsonObject(fields.diff) && isJsonObject(fields.document) ? { ...fields, diff: fields.document } : undefined)),
  },
  {
    id: 'V4STREAM-INDEX-WITHOUT-VALUES',
    title: 'The `index` of a set event loses its values',
    breaks: ['V4STREAM-SET-002'],
    area: 'events',
    description: 'The `index` field of every `set` event carries an empty `values` list.',
    apply: () => editV4Bodies('set', (fields) => (isJsonObject(fields.index) ? { ...fields, index: { ...fields.index, values: [] } } : undefined)),
  },
  {
    id: 'V4STREAM-DOCUMENTS-REMOVE-DROPPED',
    title: 'A Documents stream never reports deletes',
    breaks: ['V4STREAM-SET-003'],
    area: 'events',
    description: '`remove` events without an `index` field (those of `Documents` streams) are dropped.',
    apply: () => onV4Streams(() => ({
      onEvent(event, writer) {
        const fields = isV4Event(event, 'set') ? body(event) : undefined;
        if (fields?.action === 'remove' && !('index' in fields)) return;
        writer.emit(event);
      },
    })),
  },
  {
    id: 'V4STREAM-HISTORY-EDIT-AS-VERSION',
    title: 'An Insert of a past version is sent as a version event',
    breaks: ['V4STREAM-DOC-005'],
    area: 'events',
    description: 'After an Insert of a past version of a document, its streams get a `version` event (action `create`, the inserted version\'s time) before their next event, as from a server that reports history edits as live writes.',
    apply: () => {
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
              writer.emit({ ...event, txn: jsonInt(ts), event: { ...event.event, action: 'create', document: { ...event.event.document, ts: jsonInt(ts) } } });
            }
            writer.emit(event);
          },
        })),
      };
    },
  },
];
