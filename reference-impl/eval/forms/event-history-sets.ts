/**
 * FQL v4 `Events` (DEC-065, spec/requirements/functions-history.md): the history of a document, or of a set, as a
 * set of events ordered by time. A document's events are `create`, `update` and `delete`, each carrying the part
 * of `data` that changed; a set's events are `add` and `remove` of its entries. Paginate walks them with cursors
 * that are events (without `data`) or times.
 *
 * An events set reads as an ordered set whose tuples are `[ts, action, ref]` (set events append their index values),
 * so the ordinary paging (`indexes/ordered-set.ts`) walks it; `eventPageOptions` and `eventCursor` translate the
 * cursors between that tuple form and the event objects the wire shows.
 */
import { apiAtLeast, wording } from '../../codec/api-version.js';
import { failpoint } from '../../failpoints.js';
import { errors, type Position } from '../../errors/query-error.js';
import type { IndexManager } from '../../indexes/index-manager.js';
import { ArraySet, type OrderedSet, type SetPageOptions } from '../../indexes/ordered-set.js';
import { valueKey, type IndexTuple } from '../../indexes/index-store.js';
import { compareTuples, compareValues } from '../../indexes/value-order.js';
import { userCollectionKey, type DocumentVersion } from '../../store/store.js';
import { DateValue, Ref, SetRef, Time, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { isNativeCollection, locateDocument, requireAccess, resolveCollection } from '../documents.js';
import { listedCollectionRef } from './listing-page.js';
import { indexRecord, termTuple, type SetReader } from './set-reading.js';

const MICROS_PER_DAY = 86_400_000_000n;

/** True for the set `{"events": …}` builds. */
export function isEventSet(set: Value): set is SetRef {
  return set instanceof SetRef && 'events' in set.structure;
}

/**
 * True for a set of events: an events set, or a set built from events sets (a Union of them, a Distinct of one, …).
 * The real service combines only sets of one kind (FN-HIST-023).
 */
export function isHistoricalSet(set: Value): boolean {
  if (!(set instanceof SetRef)) return false;
  const s = set.structure;
  if ('events' in s) return true;
  for (const key of ['union', 'intersection', 'difference'] as const) {
    const operands = s[key];
    if (operands !== undefined) return isHistoricalSet(Array.isArray(operands) ? (operands[0] ?? null) : operands);
  }
  for (const key of ['distinct', 'reverse', 'range'] as const) if (s[key] !== undefined) return isHistoricalSet(s[key]!);
  return 'filter' in s ? isHistoricalSet(s.collection ?? null) : false;
}

// Implements: FN-HIST-020
/**
 * The events set of `source` (a ref or a set). `typePosition` is where a source of another type is reported;
 * an events set has no history of its own and is refused at `formPosition`, as the real service does.
 */
export function eventsSetOf(source: Value, typePosition: Position, formPosition: Position): SetRef {
  if (isEventSet(source)) throw errors.invalidArgument('Set does not support events history.', formPosition);
  if (!(source instanceof Ref) && !(source instanceof SetRef))
    throw errors.invalidArgument(`Ref or Set expected, ${typeName(source)} provided.`, typePosition);
  return new SetRef({ events: source });
}

type DocAction = 'create' | 'update' | 'delete';
type SetAction = 'add' | 'remove';

export interface HistoryEvent {
  ts: bigint;
  action: DocAction | SetAction;
  ref: Ref;
  /** A document event's changed `data` (null for a delete); a set event's index values, absent when there are none. */
  data?: Value;
}

/** Before API 2.1 every action is shown as `create` or `delete`: whether the document or entry is there after it. */
function legacyAction(action: Value | undefined): 'create' | 'delete' {
  return action === 'delete' || action === 'remove' ? 'delete' : 'create';
}

// Implements: FN-HIST-019
/** The event as the wire shows it for the request's API version (`instance` before 2.7; only create/delete before 2.1). */
export function renderedEvent(ctx: EvalContext, event: HistoryEvent, withData: boolean): ObjectValue {
  if (!apiAtLeast(ctx.apiVersion, '2.1')) {
    const out: ObjectValue = { ts: event.ts, action: legacyAction(event.action), resource: event.ref };
    if (withData && (event.action === 'add' || event.action === 'remove') && event.data !== undefined) out.values = event.data;
    return out;
  }
  const out: ObjectValue = { ts: event.ts, action: event.action, [wording(ctx.apiVersion).documentKey]: event.ref };
  if (withData && event.data !== undefined) out.data = event.data;
  return out;
}

function tupleOf(event: HistoryEvent, isSetEvent: boolean): IndexTuple {
  return isSetEvent && event.data !== undefined ? [event.ts, event.action, event.ref, event.data] : [event.ts, event.action, event.ref];
}

// Implements: FN-HIST-012
/**
 * The fields of `after` that differ from `before`, as the real service records a version's change: objects on
 * both sides are compared field by field, a field gone is null, an unchanged field is left out.
 */
function changedFields(before: ObjectValue, after: ObjectValue): ObjectValue {
  const out: ObjectValue = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key];
    const now = after[key];
    if (now === undefined) {
      out[key] = null;
    } else if (isObjectValue(was) && isObjectValue(now)) {
      const nested = changedFields(was, now);
      if (Object.keys(nested).length > 0) out[key] = nested;
    } else if (was === undefined || compareValues(was, now) !== 0) {
      out[key] = now;
    }
  }
  return out;
}

/** A document's versions up to `untilTs`, oldest first, with the request's own write to it (at its time) last. */
function versionsOf(ctx: EvalContext, database: string, collection: string, id: string, untilTs: bigint): DocumentVersion[] {
  const versions = ctx.txn.store.versionsAfter(database, collection, id, -1n).filter((v) => v.ts <= untilTs && v.ts < ctx.txn.ts);
  if (untilTs < ctx.txn.ts) return versions;
  for (const record of ctx.txn.commitRecords()) {
    if (record.database !== database) continue;
    const own = record.writes.find((w) => w.collection === collection && w.id === id);
    if (own) versions.push({ ...own.after, ts: ctx.txn.ts });
  }
  return versions;
}

// Implements: FN-HIST-011, FN-HISTW-005
/**
 * Each version as an event: `create` when the document did not exist before it, `update` otherwise, or `delete`.
 * A version Insert put after a live one (DEC-068) is an `update` too, and so is the version after an inserted live
 * one: the real service re-labels a history as it is edited (FN-HISTW-005).
 */
function documentEvents(versions: readonly DocumentVersion[], ref: Ref): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let previous: ObjectValue | undefined;
  for (const version of versions) {
    if (version.action === 'delete') {
      events.push({ ts: version.ts, action: 'delete', ref, data: null });
      previous = undefined;
      continue;
    }
    const created = previous === undefined || (failpoint('HISTW-INSERTED-LISTED-AS-CREATE') && version.action === 'create');
    const changed = created ? version.fields : changedFields(previous!, version.fields);
    events.push({ ts: version.ts, action: created ? 'create' : 'update', ref, data: changed.data ?? null });
    previous = version.fields;
  }
  return events;
}

// Implements: FN-HIST-018
/** Membership events of a one-document set (Singleton, a Documents listing): `add` at each create, `remove` at each delete. */
function membershipEvents(versions: readonly DocumentVersion[], ref: Ref): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let present = false;
  for (const version of versions) {
    const exists = version.action !== 'delete';
    if (exists !== present) events.push({ ts: version.ts, action: exists ? 'add' : 'remove', ref });
    present = exists;
  }
  return events;
}

// Implements: FN-HIST-018
/**
 * The add and remove events of an index's entries under `terms`: at each version of a covered document, the
 * entries it no longer contributes are removed and the new ones added, with the index values as `data` when the
 * index has values.
 */
function indexEvents(ctx: EvalContext, indexes: IndexManager, database: string, indexId: string, terms: Value[]): HistoryEvent[] {
  const index = indexes.byIndexId(database, indexId);
  if (!index) return [];
  const withValues = index.definition.values.length > 0;
  const sameTerms = (entryTerms: Value[]): boolean => valueKey(entryTerms) === valueKey(terms);
  const events: HistoryEvent[] = [];
  const keys = new Set<string>([...(ctx.txn.store.database(database)?.orderedIds.keys() ?? [])]);
  for (const key of keys) {
    if (!indexes.covers(index, key)) continue;
    const ids = new Set(ctx.txn.store.documentIds(database, key));
    for (const record of ctx.txn.commitRecords())
      for (const w of record.writes) if (record.database === database && w.collection === key) ids.add(w.id);
    for (const id of ids) {
      let previous = new Map<string, { values: Value[]; ref: Ref }>();
      for (const version of versionsOf(ctx, database, key, id, ctx.txn.ts)) {
        const current = new Map<string, { values: Value[]; ref: Ref }>();
        for (const entry of indexes.entriesOf(index, key, id, version))
          if (sameTerms(entry.terms)) current.set(valueKey([...entry.values, entry.ref]), entry);
        const eventOf = (action: SetAction, entry: { values: Value[]; ref: Ref }): HistoryEvent => ({
          ts: version.ts,
          action,
          ref: entry.ref,
          ...(withValues ? { data: entry.values } : {}),
        });
        for (const [k, entry] of previous) if (!current.has(k)) events.push(eventOf('remove', entry));
        for (const [k, entry] of current) if (!previous.has(k)) events.push(eventOf('add', entry));
        previous = current;
      }
    }
  }
  return events;
}

/**
 * Set events of an index with one value, and that value: a query that selects such an event's `data` reads the value
 * itself, while the event is shown with `data` as an array of the one value (FN-HIST-018), as in the real service.
 */
const singleValueEvents = new WeakMap<ObjectValue, Value>();

/** The `data` a query reads from `event` when it is a set event of an index with one value; undefined otherwise. */
export function singleSetEventValue(event: ObjectValue): { value: Value } | undefined {
  if (!singleValueEvents.has(event) || failpoint('SET-EVENT-DATA-AS-ARRAY')) return undefined;
  return { value: singleValueEvents.get(event)! };
}

function eventSet(ctx: EvalContext, events: HistoryEvent[], isSetEvent: boolean): OrderedSet {
  const entries = events.map((event) => {
    const element = renderedEvent(ctx, event, true);
    if (isSetEvent && Array.isArray(event.data) && event.data.length === 1 && 'data' in element)
      singleValueEvents.set(element, event.data[0]!);
    return { tuple: tupleOf(event, isSetEvent), element };
  });
  entries.sort((a, b) => compareTuples(a.tuple, b.tuple, []));
  return new ArraySet(entries, []);
}

// Implements: FN-HIST-017, FN-HIST-022
/**
 * The events of `source` up to `atTs` (else the transaction's time, the request's own writes included). A document's
 * history needs `history_read` on it, as in the real service; the history of a Documents listing or of a Match holds
 * only the documents whose history the caller may read (a Match is first checked as Match checks it). Other sets
 * (Union, Join, …) have no history here: `invalid argument`.
 */
export async function eventHistory(
  ctx: EvalContext,
  source: Value,
  position: Position,
  atTs: bigint | undefined,
  reader: SetReader,
): Promise<OrderedSet> {
  const untilTs = atTs ?? ctx.txn.ts;
  if (source instanceof Ref) {
    const location = locateDocument(ctx, source, position);
    const current =
      untilTs >= ctx.txn.ts
        ? ctx.txn.get(location.database, location.collection, location.id)
        : ctx.txn.getAt(location.database, location.collection, location.id, untilTs);
    await requireAccess(ctx, 'history_read', location, position, current);
    return eventSet(ctx, documentEvents(versionsOf(ctx, location.database, location.collection, location.id, untilTs), source), false);
  }
  const structure = source instanceof SetRef ? source.structure : {};
  const singleton = structure.singleton;
  if (singleton instanceof Ref && singleton.collection !== undefined) {
    const location = locateDocument(ctx, singleton, position);
    await requireAccess(ctx, 'history_read', location, position, ctx.txn.get(location.database, location.collection, location.id));
    return eventSet(ctx, membershipEvents(versionsOf(ctx, location.database, location.collection, location.id, untilTs), singleton), true);
  }
  const collection = structure.documents;
  if (collection instanceof Ref && !isNativeCollection(collection)) {
    const { database, collection: key } = resolveCollection(ctx, collection, position);
    const listed = listedCollectionRef(collection, key);
    const ids = new Set(ctx.txn.store.documentIds(database, key));
    for (const record of ctx.txn.commitRecords())
      for (const w of record.writes) if (record.database === database && w.collection === key) ids.add(w.id);
    const events: HistoryEvent[] = [];
    for (const id of ids) {
      const ref = new Ref(id, listed);
      if (await mayReadHistory(ctx, database, key, ref)) events.push(...membershipEvents(versionsOf(ctx, database, key, id, untilTs), ref));
    }
    return eventSet(ctx, events, true);
  }
  const indexRef = structure.match;
  if (indexRef !== undefined) {
    // The index is read as Match reads it now, so that its access rules (and its errors) are Match's.
    await reader.read(ctx, source, position, undefined);
    const { database, version } = indexRecord(ctx, indexRef, position);
    const indexId = version.hidden.indexId;
    const index = indexId === undefined ? undefined : reader.indexes.byIndexId(database, indexId);
    const terms = index === undefined ? undefined : termTuple(index.definition.terms.length, structure.terms);
    if (indexId === undefined || terms === undefined) return eventSet(ctx, [], true);
    const readable: HistoryEvent[] = [];
    for (const event of indexEvents(ctx, reader.indexes, database, indexId, terms)) {
      if (event.ts > untilTs) continue;
      const parent = event.ref.collection;
      const key = parent === undefined ? undefined : isNativeCollection(parent) ? parent.id : userCollectionKey(parent.id);
      if (key !== undefined && (await mayReadHistory(ctx, database, key, event.ref))) readable.push(event);
    }
    return eventSet(ctx, readable, true);
  }
  throw errors.invalidArgument('Set does not support events history.', position);
}

/** Whether the caller may read the history of the document `ref` (every document, or this one by `history_read`). */
async function mayReadHistory(ctx: EvalContext, database: string, key: string, ref: Ref): Promise<boolean> {
  if (ctx.services.access.readsEveryDocument(ctx, database, key)) return true;
  const allowed = ctx.services.access.allows(ctx, {
    action: 'history_read',
    database,
    collection: key,
    ref,
    before: ctx.txn.get(database, key, ref.id),
  });
  return allowed === true || (allowed !== false && (await allowed));
}

// Implements: FN-HIST-014, FN-HIST-021
/** An event cursor as the tuple it stands for: an event object (its `data` ignored unless index values), or a time. */
function cursorKey(cursor: Value, position: Position): IndexTuple {
  if (typeof cursor === 'bigint') return [cursor];
  if (cursor instanceof Time) return [cursor.micros];
  if (cursor instanceof DateValue) return [BigInt(cursor.epochDays) * MICROS_PER_DAY];
  if (!isObjectValue(cursor))
    throw errors.invalidArgument(`Object, Integer, Time, or Date expected, ${typeName(cursor)} provided.`, position);
  const { ts, action } = cursor;
  const document = cursor.document ?? cursor.instance ?? cursor.resource;
  const values = cursor.data ?? cursor.values;
  const known = ['ts', 'action', 'document', 'instance', 'resource', 'data', 'values'];
  if (ts === undefined || Object.keys(cursor).some((key) => !known.includes(key))) {
    throw errors.invalidArgument(`Cannot create event cursor with keys ${Object.keys(cursor).join(', ')}`, position);
  }
  if (typeof ts !== 'bigint') throw errors.invalidArgument(`Integer expected, ${typeName(ts)} provided.`, [...position, 'ts']);
  if (action === undefined) return [ts];
  if (typeof action !== 'string' || !['create', 'update', 'delete', 'add', 'remove'].includes(action)) {
    throw errors.invalidArgument(`String 'create', 'update', or 'delete' expected, ${typeName(action)} provided.`, [...position, 'action']);
  }
  if (document === undefined) return [ts, action];
  if (!(document instanceof Ref)) throw errors.invalidArgument(`Ref expected, ${typeName(document)} provided.`, position);
  return Array.isArray(values) && values.length > 0 ? [ts, action, document, values] : [ts, action, document];
}

// Implements: FN-HIST-013, FN-HIST-014
/** The paging options with the cursors given (each a tuple of one value, see paging.ts) read as event cursors. */
export function eventPageOptions(options: SetPageOptions, cursorPosition: Position): SetPageOptions {
  const key = (tuple: IndexTuple | undefined): IndexTuple | undefined =>
    tuple === undefined ? undefined : cursorKey(tuple.length === 1 ? tuple[0]! : tuple, cursorPosition);
  const out: SetPageOptions = { ...options };
  const after = key(options.after);
  const before = key(options.before);
  if (after === undefined) delete out.after;
  else out.after = after;
  if (before === undefined) delete out.before;
  else out.before = before;
  return out;
}

// Implements: FN-HIST-013
/**
 * A page cursor as the wire shows it: the event without its `data` (a document's changes are not part of its
 * place in the history; a set event's values are), or, for a cursor given as a time, that time with the action
 * `add` and no document, as the real service renders it.
 */
export function eventCursor(ctx: EvalContext, tuple: IndexTuple): ObjectValue {
  const [ts, action, ref, values] = tuple;
  const current = apiAtLeast(ctx.apiVersion, '2.1');
  const out: ObjectValue = { ts: ts ?? null, action: current ? (action ?? 'add') : legacyAction(action) };
  if (ref !== undefined) out[current ? wording(ctx.apiVersion).documentKey : 'resource'] = ref;
  if (values !== undefined) out[current ? 'data' : 'values'] = values;
  return out;
}
