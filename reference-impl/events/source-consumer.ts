/**
 * Turns history into a source's events: for each write after a position, the trigger table of the plan
 * (`relevant`), then the role filter, then the event with its data. Every write to the source collection is
 * processed and costs operations, also when a filter or the role discards it (EVT-ACCESS-002); the cost of
 * discarded writes is carried into the next event's stats.
 */
import type { Json } from '../codec/tagged.js';
import { encodeEventCursor, type CursorBinding, type EventPosition } from '../event-source/cursor.js';
import type { EventSourcePlan } from '../fql/runtime/event-source-plan.js';
import { FqlError } from '../fql/fql-error.js';
import type { Interpreter } from '../fql/runtime/interpreter.js';
import { convertV4Error } from '../fql/runtime/documents.js';
import { encodeTaggedM, materialize, type M } from '../fql/runtime/render.js';
import { QueryError } from '../errors/query-error.js';
import { DocRef } from '../fql/runtime/values.js';
import type { DatabaseId, DocumentVersion } from '../store/store.js';
import { writesAfter, type HistoryTransaction, type HistoryWrite } from './event-history.js';
import { addCost, renderStats, zeroCost, type EventCost } from './event-stats.js';
import type { EventSecret } from './event-secret.js';
import { failpoint } from '../failpoints.js';

/** The endpoint that consumes a source. */
export type EventEndpoint = 'feed' | 'stream';

/** Whether the identity whose rights filter the source may read this version of a document (the AccessPolicy, passed down). */
export type ReadCheck = (collection: string, id: string, version: DocumentVersion, ts: bigint) => Promise<boolean>;

export interface OpenedSource {
  readonly database: DatabaseId;
  /** Where it is consumed: `/feed/1` or `/stream/1`. */
  readonly endpoint: EventEndpoint;
  readonly plan: EventSourcePlan;
  /** An interpreter reading as of a transaction's time, with the rights of `rights` (where, map and projections run in it). */
  readonly runtimeAt: (ts: bigint) => Interpreter;
  /** Snapshot time of the creating query: the default start. */
  readonly createdAt: bigint;
  /** The secret that created the source, as its token records it. */
  readonly creator: EventSecret;
  /** The secret of the request that consumes the source. */
  readonly consumer: EventSecret;
  /** The secret whose rights filter the events: the consumer's (DEC-036). */
  readonly rights: EventSecret;
  /** Same for every source of the same query, database and rights: they yield the same events. */
  readonly key: string;
}

export type SourceItem =
  | { readonly kind: 'event'; readonly position: EventPosition; readonly json: Record<string, unknown> }
  | {
      readonly kind: 'error';
      readonly position: EventPosition;
      readonly code: string;
      readonly message: string;
      readonly abort?: Json;
      readonly json: Record<string, unknown>;
    };

export interface ProcessedTransaction {
  readonly items: SourceItem[];
  /** Everything this transaction cost (discards included). */
  readonly cost: EventCost;
}

const documentSizes = new WeakMap<DocumentVersion, number>();

function storedSize(version: DocumentVersion): number {
  let size = documentSizes.get(version);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(version.fields, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    documentSizes.set(version, size);
  }
  return size;
}

/**
 * Most characters a transformed event's data may take, strings counted unescaped (DEC-074). A document's data is
 * bounded by the version size (DEC-070), but a `map` can repeat a large field: `[d.s, d.s, …]` is small in memory
 * and arbitrarily long as text. Escapes make a string at most six times longer, so an event within this bound
 * always renders below what a string can hold (~512 Mi characters).
 */
export const MAX_TRANSFORMED_DATA_CHARS = 64 * 1024 * 1024;

/** Whether `json` may render past `limit` characters; stops walking as soon as it passes. */
function mayRenderPast(json: Json, limit: number): boolean {
  let chars = 0;
  const stack: Json[] = [json];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (typeof value === 'string') chars += value.length + 2;
    else if (Array.isArray(value)) {
      chars += value.length + 1;
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      chars += 2;
      for (const key in value) {
        chars += key.length + 4;
        stack.push(value[key]!);
      }
    } else chars += 24;
    if (chars > limit) return true;
  }
  return false;
}

// Implements: EVT-FIELD-001, EVT-FIELD-006
export function errorEventJson(code: string, message: string, cost: EventCost): Record<string, unknown> {
  return { type: 'error', error: { code, message }, stats: renderStats(cost) };
}

// Implements: FQL-SRC-001
/**
 * A failure while an event is made, as the error event the real service sends: the FQL error's code and message, and
 * for `abort(value)` the value, tagged (FQL2StreamSpec; the driver's AbortError reads `abort`).
 */
function errorItem(error: unknown, position: EventPosition): SourceItem {
  const failure = error instanceof QueryError ? convertV4Error(error, undefined) : error;
  if (!(failure instanceof FqlError)) {
    return {
      kind: 'error',
      position,
      code: 'internal_error',
      message: 'An internal error occurred while processing the event source.',
      json: {},
    };
  }
  const abort = failure.details.abort === undefined ? undefined : encodeTaggedM(failure.details.abort as M);
  return { kind: 'error', position, code: failure.code, message: failure.message, ...(abort === undefined ? {} : { abort }), json: {} };
}

/** Whether event data is a whole document (`{"@doc": …}`). */
function isDocument(data: Json): data is { '@doc': { [key: string]: Json } } {
  return typeof data === 'object' && data !== null && !Array.isArray(data) && typeof data['@doc'] === 'object';
}

export class SourceConsumer {
  /** Cost of processed writes not yet reported in an event's stats. */
  private pending = zeroCost();

  constructor(
    readonly source: OpenedSource,
    private readonly mayRead: ReadCheck,
    private readonly binding: CursorBinding,
  ) {}

  cursorOf(position: EventPosition): string {
    return encodeEventCursor(position, this.binding);
  }

  get hasPending(): boolean {
    const p = this.pending;
    return p.readOps !== 0 || p.storageBytesRead !== 0 || p.computeOps !== 0 || p.processingTimeMs !== 0;
  }

  /** Carries cost processed elsewhere (a shared result's discarded writes) into the next event's stats. */
  addPending(cost: EventCost): void {
    addCost(this.pending, cost);
  }

  /** Takes the cost carried so far (for a status event or page stats that report it). */
  takePending(): EventCost {
    const cost = this.pending;
    this.pending = zeroCost();
    return cost;
  }

  /** The events one transaction yields after `after`; an error item ends the list. */
  async process(transaction: HistoryTransaction, after: EventPosition): Promise<ProcessedTransaction> {
    const items: SourceItem[] = [];
    const cost = await this.visit(transaction, after, (item) => {
      items.push(item);
    });
    return { items, cost };
  }

  // Implements: EVT-ERROR-001, EVT-FIELD-002, EVT-FIELD-005, LIMIT-OPS-002
  /**
   * Hands each event one transaction yields after `after` to `visitor` as it is made, and waits for it, so that a
   * caller that sends or counts events holds one at a time (DEC-077); an error item is the last. Answers the cost.
   */
  async visit(
    transaction: HistoryTransaction,
    after: EventPosition,
    visitor: (item: SourceItem) => void | Promise<void>,
  ): Promise<EventCost> {
    const total = zeroCost();
    const { plan } = this.source;
    for (const write of writesAfter(transaction, after)) {
      // The self-check's fault EVT-OTHER-COLLECTION-LEAKS lets the creates of other collections through.
      if (write.collection !== plan.collection && !(write.before === undefined && failpoint('EVT-OTHER-COLLECTION-LEAKS'))) continue;
      const started = performance.now();
      const cost: EventCost = {
        readOps: 1,
        storageBytesRead: storedSize(write.after.action === 'delete' ? (write.before ?? write.after) : write.after),
        computeOps: 1,
        processingTimeMs: 0,
      };
      const position = { txnTs: transaction.ts, ordinal: write.ordinal };
      let item: SourceItem | undefined;
      try {
        item = await this.eventFor(write, transaction.ts, position);
      } catch (error) {
        item = errorItem(error, position);
        // The self-check's fault EVT-PROJECTION-ERROR-SKIPPED drops a failed projection's event and carries on.
        if (item.kind === 'error' && item.code === 'invalid_null_access' && failpoint('EVT-PROJECTION-ERROR-SKIPPED')) item = undefined;
      }
      cost.processingTimeMs = performance.now() - started;
      addCost(total, cost);
      addCost(this.pending, cost);
      if (item === undefined) continue;
      const stats = renderStats(this.takePending());
      if (item.kind === 'error') {
        const visited = visitor({
          ...item,
          json: {
            type: 'error',
            error: { code: item.code, message: item.message, ...(item.abort === undefined ? {} : { abort: item.abort }) },
            stats,
          },
        });
        if (visited !== undefined) await visited;
        break;
      }
      const visited = visitor({ ...item, json: { ...item.json, cursor: this.cursorOf(position), stats } });
      // The event is the visitor's now: while it waits (for a slow client), nothing here holds the document's copy.
      item = undefined;
      // Only a visitor that has to wait costs a microtask per event.
      if (visited !== undefined) await visited;
    }
    return total;
  }

  // Implements: EVT-ACCESS-001, EVT-ACCESS-005, EVT-FIELD-001, EVT-FIELD-002, EVT-FIELD-007, EVT-REMOVE-001
  // Implements: EVT-REMOVE-002, EVT-REMOVE-003
  private async eventFor(write: HistoryWrite, ts: bigint, position: EventPosition): Promise<SourceItem | undefined> {
    const { plan } = this.source;
    const collection = { kind: 'user' as const, name: write.collection };
    const beforeDoc = write.before ? new DocRef(collection, write.id, write.before) : null;
    const afterDoc = write.after.action === 'delete' ? null : new DocRef(collection, write.id, write.after);
    const rt = this.source.runtimeAt(ts);
    const relevance = await plan.relevant(rt, beforeDoc, afterDoc);
    if (relevance.change === 'none') return undefined;
    const change = relevance.change;
    // The failpoints here are the self-check's faults of the same names: the wrong event for a write.
    if (change === 'remove' && afterDoc === null && failpoint('EVT-DELETE-SILENT')) return undefined;
    const asUpdate =
      change !== 'update' &&
      beforeDoc !== null &&
      afterDoc !== null &&
      (change === 'add' ? failpoint('EVT-ENTER-AS-UPDATE') : failpoint('EVT-LEAVE-AS-UPDATE'));
    // A remove shows the document as it was just before it left the set (DEC-013).
    const showsAfter = change === 'remove' && afterDoc !== null && failpoint('EVT-REMOVE-NEW-VERSION');
    const version = change === 'remove' && !showsAfter ? write.before : write.after;
    if (version === undefined) return undefined;
    const readable = await this.mayRead(write.collection, write.id, version, change === 'remove' ? ts - 1n : ts);
    if (!readable && !failpoint('EVT-READ-RIGHTS-IGNORED')) return undefined;
    // Implements: FQL-SRC-002
    const data = encodeTaggedM(await materialize(rt, showsAfter && afterDoc !== null ? afterDoc : relevance.data));
    if (plan.transformed && mayRenderPast(data, MAX_TRANSFORMED_DATA_CHARS)) {
      throw new FqlError(
        'value_too_large',
        `Value too large: the event's data would take more than ${MAX_TRANSFORMED_DATA_CHARS} characters.`,
      );
    }
    if (version.hidden.credentialsHash !== undefined && isDocument(data) && failpoint('EVT-CREDENTIALS-LEAKED'))
      data['@doc'].credentials = { hashed_password: version.hidden.credentialsHash };
    const json = { type: asUpdate ? 'update' : change, data, txn_ts: ts };
    return { kind: 'event', position, json };
  }
}
