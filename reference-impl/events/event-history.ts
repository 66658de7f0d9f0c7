/**
 * The event history: every committed transaction, per database, kept in commit order with its user-document
 * writes in the order every consumer sees them (DEC-037: by document id, then collection). The position of a
 * write in that order is its ordinal, the second half of an event cursor. Fed by `store.onCommit`; listeners
 * receive each commit (of every database) synchronously, which is how open streams get live events.
 *
 * Memory: transactions older than the database's longest retention (plus a margin) are pruned, every
 * `PRUNE_EVERY_COMMITS` commits. A start or cursor that old gets the retention error before the history is read
 * (retention.ts), so nothing a consumable cursor needs is dropped.
 */
import { compareEventPositions, type EventPosition } from '../event-source/cursor.js';
import { compareIds, userCollectionName, type CommitRecord, type DatabaseId, type DocumentVersion, type Store } from '../store/store.js';

export interface HistoryWrite {
  /** User collection name. */
  readonly collection: string;
  readonly id: string;
  readonly ordinal: number;
  /** Live version before the transaction (undefined for a create). */
  readonly before: DocumentVersion | undefined;
  /** The version written; `action: 'delete'` for a delete. */
  readonly after: DocumentVersion;
}

export interface HistoryTransaction {
  readonly ts: bigint;
  readonly database: DatabaseId;
  /** Writes to user documents, in event order. */
  readonly writes: readonly HistoryWrite[];
  /** The commit as the store reported it (schema and security records included). */
  readonly record: CommitRecord;
}

export type HistoryListener = (transaction: HistoryTransaction) => void;

export const PRUNE_EVERY_COMMITS = 1_000;
/** Kept beyond the retention window, so that a start exactly at its edge never races the pruning. */
export const PRUNE_MARGIN_MICROS = 60_000_000n;

/** How far back `database` may be consumed, and the clock; injectable for tests. */
export interface PruneClock {
  retentionMicros(database: DatabaseId): bigint;
  nowMicros(): bigint;
}

export class EventHistory {
  private readonly byDatabase = new Map<DatabaseId, HistoryTransaction[]>();
  private readonly listeners = new Set<HistoryListener>();
  private commitsSincePrune = 0;

  constructor(
    readonly store: Store,
    private readonly clock: PruneClock,
  ) {
    store.onCommit((record) => this.record(record));
  }

  /** Transactions held for `database` (for tests and memory figures). */
  size(database: DatabaseId): number {
    return this.byDatabase.get(database)?.length ?? 0;
  }

  /** Drops, in every database, the transactions committed before its retention window (minus the margin). */
  prune(): void {
    this.commitsSincePrune = 0;
    const now = this.clock.nowMicros();
    for (const [database, list] of this.byDatabase) {
      const cutoff = now - this.clock.retentionMicros(database) - PRUNE_MARGIN_MICROS;
      let keepFrom = 0;
      while (keepFrom < list.length && (list[keepFrom] as HistoryTransaction).ts < cutoff) keepFrom++;
      if (keepFrom === list.length) this.byDatabase.delete(database);
      else if (keepFrom > 0) list.splice(0, keepFrom);
    }
  }

  /** Called with every committed transaction of every database, after it is recorded. */
  subscribe(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Transactions of `database` holding a write after `position`, oldest first, up to and including `untilTs`. */
  *transactionsAfter(database: DatabaseId, position: EventPosition, untilTs: bigint): Iterable<HistoryTransaction> {
    const list = this.byDatabase.get(database) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((list[mid] as HistoryTransaction).ts < position.txnTs) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < list.length; i++) {
      const txn = list[i] as HistoryTransaction;
      if (txn.ts > untilTs) return;
      yield txn;
    }
  }

  private record(record: CommitRecord): void {
    const writes = record.writes
      .flatMap((write) => {
        const collection = userCollectionName(write.collection);
        return collection === undefined ? [] : [{ collection, id: write.id, before: write.before, after: write.after }];
      })
      .sort((a, b) => compareIds(a.id, b.id) || (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0))
      .map((write, ordinal) => ({ ...write, ordinal }));
    const transaction: HistoryTransaction = { ts: record.ts, database: record.database, writes, record };
    let list = this.byDatabase.get(record.database);
    if (!list) this.byDatabase.set(record.database, (list = []));
    list.push(transaction);
    for (const listener of this.listeners) listener(transaction);
    if (++this.commitsSincePrune >= PRUNE_EVERY_COMMITS) this.prune();
  }
}

/** The writes of a transaction strictly after `position`. */
export function writesAfter(transaction: HistoryTransaction, position: EventPosition): readonly HistoryWrite[] {
  if (transaction.ts > position.txnTs) return transaction.writes;
  return transaction.writes.filter((w) => compareEventPositions({ txnTs: transaction.ts, ordinal: w.ordinal }, position) > 0);
}
