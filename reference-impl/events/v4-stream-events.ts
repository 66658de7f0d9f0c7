/**
 * What a v4 stream (`POST /stream`, DEC-064) sends for one committed write: `version` events for a document
 * stream, `set` events for a Match or Documents stream. Each event object holds the fields the request asked for
 * (default `action` and `document`) in the real service's fixed order (fauna/faunadb stream/EventEncoder.scala),
 * whatever order the request named them in.
 */
import { failpoint } from '../failpoints.js';
import type { IndexEntry } from '../indexes/entries.js';
import { valueKey } from '../indexes/index-store.js';
import { valuesEqual } from '../eval/value-equality.js';
import { userCollectionKey, type CollectionKey, type DatabaseId, type DocumentVersion } from '../store/store.js';
import { Ref, isObjectValue, type ObjectValue, type Value } from '../values/value.js';
import type { HistoryWrite } from './event-history.js';

export const V4_EVENT_FIELDS = ['action', 'document', 'diff', 'prev', 'index'] as const;
export type V4EventField = (typeof V4_EVENT_FIELDS)[number];
// Implements: V4STREAM-FIELDS-001
export const DEFAULT_V4_EVENT_FIELDS: ReadonlySet<V4EventField> = new Set(['action', 'document']);

export interface V4StreamEvent {
  readonly type: 'version' | 'set';
  /** The document the event shows: the reader must be allowed to read `readVersion` of it to receive the event. */
  readonly collection: string;
  readonly id: string;
  readonly readVersion: DocumentVersion;
  readonly event: ObjectValue;
}

export interface V4StreamTarget {
  readonly database: DatabaseId;
  /** The events `write`, committed at `txnTs`, causes on this stream, in the order they are sent. */
  eventsOf(write: HistoryWrite, txnTs: bigint): V4StreamEvent[];
}

/**
 * The entries a document version contributes to the streamed index (none for `undefined`, a delete, or a collection
 * the index does not cover): the index layer's answer, passed in.
 */
export type EntriesOf = (collection: CollectionKey, id: string, version: DocumentVersion | undefined) => IndexEntry[];

const COLLECTIONS = new Ref('collections');

// Implements: V4STREAM-FIELDS-001, V4STREAM-FIELDS-002
/** Keeps the requested fields, in the order of `V4_EVENT_FIELDS`. */
function select(fields: ReadonlySet<V4EventField>, all: Partial<Record<V4EventField, Value>>): ObjectValue {
  const out: ObjectValue = {};
  for (const name of V4_EVENT_FIELDS) if (fields.has(name) && all[name] !== undefined) out[name] = all[name]!;
  return out;
}

// Implements: V4STREAM-FIELDS-003
/**
 * The fields of `after` that differ from `before`: changed or added fields with their new value, removed ones as
 * null, objects compared member by member.
 */
export function fieldDiff(before: ObjectValue, after: ObjectValue): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, value] of Object.entries(after)) {
    const old = before[name];
    if (old === undefined) out[name] = value;
    else if (isObjectValue(old) && isObjectValue(value)) {
      const inner = fieldDiff(old, value);
      if (Object.keys(inner).length > 0) out[name] = inner;
    } else if (!valuesEqual(old, value)) out[name] = value;
  }
  for (const name of Object.keys(before)) if (!(name in after)) out[name] = null;
  return out;
}

// Implements: V4STREAM-DOC-001, V4STREAM-DOC-002, V4STREAM-DOC-003, V4STREAM-DOC-004
/** A document stream: every create, update, replace and delete of one document; a delete does not end it. */
export function documentTarget(database: DatabaseId, ref: Ref, fields: ReadonlySet<V4EventField>): V4StreamTarget {
  const collection = ref.collection!.id;
  return {
    database,
    eventsOf(write, txnTs) {
      // The self-check's fault V4STREAM-OTHER-DOCUMENTS-SENT sends the writes of every document of the collection.
      const other = write.id !== ref.id && write.collection === collection && failpoint('V4STREAM-OTHER-DOCUMENTS-SENT');
      if ((write.id !== ref.id && !other) || write.collection !== collection) return [];
      const { before, after } = write;
      const shown = other ? new Ref(write.id, ref.collection) : ref;
      const head = (ts: bigint): ObjectValue => ({ ref: shown, ts });
      let event: ObjectValue;
      if (after.action === 'delete') {
        // The deleted version's data, as of the delete (the real service swaps it in for the empty delete version).
        event = select(fields, {
          action: 'delete',
          document: { ...head(txnTs), ...before?.fields },
          diff: head(txnTs),
          prev: before ? { ...head(before.ts), ...before.fields } : head(txnTs),
        });
      } else if (before === undefined) {
        event = select(fields, {
          action: 'create',
          document: { ...head(after.ts), ...after.fields },
          diff: { ...head(after.ts), ...after.fields },
          prev: head(after.ts),
        });
      } else {
        event = select(fields, {
          action: 'update',
          document: { ...head(after.ts), ...after.fields },
          diff: { ...head(after.ts), ...fieldDiff(before.fields, after.fields) },
          prev: { ...head(before.ts), ...before.fields },
        });
      }
      const readVersion = after.action === 'delete' && before !== undefined ? before : after;
      return [{ type: 'version', collection, id: write.id, readVersion, event }];
    },
  };
}

// Implements: V4STREAM-SET-001, V4STREAM-SET-002
/** `Match(index, terms)`: a document whose entries for those terms appear is added, whose entries go is removed. */
export function matchTarget(
  database: DatabaseId,
  index: Ref,
  terms: readonly Value[],
  entriesOf: EntriesOf,
  fields: ReadonlySet<V4EventField>,
): V4StreamTarget {
  const termsKey = valueKey(terms as Value[]);
  const matching = (write: HistoryWrite, version: DocumentVersion | undefined): Map<string, IndexEntry> => {
    const out = new Map<string, IndexEntry>();
    for (const entry of entriesOf(userCollectionKey(write.collection), write.id, version)) {
      if (valueKey(entry.terms) === termsKey) out.set(valueKey(entry.values), entry);
    }
    return out;
  };
  return {
    database,
    eventsOf(write, txnTs) {
      const before = matching(write, write.before);
      const after = matching(write, write.after.action === 'delete' ? undefined : write.after);
      const events: V4StreamEvent[] = [];
      const setEvent = (action: 'add' | 'remove', entry: IndexEntry, readVersion: DocumentVersion): V4StreamEvent => ({
        type: 'set',
        collection: write.collection,
        id: write.id,
        readVersion,
        event: select(fields, {
          action,
          document: { ref: entry.ref, ts: txnTs },
          index: { ref: index, terms: entry.terms, values: entry.values },
        }),
      });
      for (const [key, entry] of before) if (!after.has(key)) events.push(setEvent('remove', entry, write.before!));
      for (const [key, entry] of after) if (!before.has(key)) events.push(setEvent('add', entry, write.after));
      return events;
    },
  };
}

// Implements: V4STREAM-SET-003
/**
 * `Documents(collection)`: a created document is added, a deleted one removed; updates change nothing. The set
 * has no index record, so its events carry no `index` field (DEC-064).
 */
export function documentsTarget(database: DatabaseId, collection: string, fields: ReadonlySet<V4EventField>): V4StreamTarget {
  const collectionRef = new Ref(collection, COLLECTIONS);
  return {
    database,
    eventsOf(write, txnTs) {
      if (write.collection !== collection) return [];
      const deleted = write.after.action === 'delete';
      if (!deleted && write.before !== undefined) return [];
      if (deleted && write.before === undefined) return [];
      const readVersion = deleted ? write.before! : write.after;
      const event = select(fields, { action: deleted ? 'remove' : 'add', document: { ref: new Ref(write.id, collectionRef), ts: txnTs } });
      return [{ type: 'set', collection, id: write.id, readVersion, event }];
    },
  };
}
