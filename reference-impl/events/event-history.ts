/**
 * The event history: every committed transaction, per database, kept in commit order with its user-document
 * writes in the order every consumer sees them (DEC-037: by document id, then collection). The position of a
 * write in that order is its ordinal, the second half of an event cursor. Fed by `store.onCommit`; listeners
 * receive each commit (of every database) synchronously, which is how open streams get live events.
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

export class EventHistory {
  private readonly byDatabase = new Map<DatabaseId, HistoryTransaction[]>();
  private readonly listeners = new Set<HistoryListener>();

  constructor(readonly store: Store) {
    store.onCommit((record) => this.record(record));
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
  }
}

/** The writes of a transaction strictly after `position`. */
export function writesAfter(transaction: HistoryTransaction, position: EventPosition): readonly HistoryWrite[] {
  if (transaction.ts > position.txnTs) return transaction.writes;
  return transaction.writes.filter((w) => compareEventPositions({ txnTs: transaction.ts, ordinal: w.ordinal }, position) > 0);
}
