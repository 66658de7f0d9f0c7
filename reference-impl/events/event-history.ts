/**
 * The event history: every committed transaction, per database, kept in commit order with its user-document
 * writes in the order every consumer sees them (DEC-037: by document id, then collection). The position of a
 * write in that order is its ordinal, the second half of an event cursor. Fed by `store.onCommit`; listeners
 * receive each commit (of every database), which is how open streams get live events.
 *
 * Publication: with a data directory, an event must never be delivered before its commit is on disk (a crash
 * could otherwise un-happen what a consumer saw). A commit is recorded at once but *published* — handed to
 * listeners, and visible to readers through `publishedTs` — only once `whenDurable` resolves, in commit order.
 * Without `whenDurable` (in memory) publication is synchronous.
 *
 * Memory: transactions older than the database's longest retention (plus a margin) are pruned, every
 * `PRUNE_EVERY_COMMITS` commits. A start or cursor that old gets the retention error before the history is read
 * (retention.ts), so nothing a consumable cursor needs is dropped.
 */
import { compareEventPositions, type EventPosition } from '../event-source/cursor.js';
import {
  compareIds,
  userCollectionName,
  type CollectionKey,
  type CommitRecord,
  type DatabaseId,
  type DocumentVersion,
  type DocumentWrite,
  type Store,
} from '../store/store.js';

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
  /**
   * The commit's other writes (to schema and security records), as the store reported them. Keeping each user
   * write once, and no copy of the commit record, is most of what a retained transaction costs.
   */
  readonly nativeWrites: readonly DocumentWrite[];
}

/** The native writes of the many transactions that have none: one frozen array shared by all of them. */
const NO_WRITES: readonly DocumentWrite[] = Object.freeze([]);
const NO_USER_WRITES: readonly HistoryWrite[] = Object.freeze([]);

export type HistoryListener = (transaction: HistoryTransaction) => void;

export const PRUNE_EVERY_COMMITS = 1_000;
/** Kept beyond the retention window, so that a start exactly at its edge never races the pruning. */
export const PRUNE_MARGIN_MICROS = 60_000_000n;

/** How far back `database` may be consumed, and the clock; injectable for tests. */
export interface PruneClock {
  retentionMicros(database: DatabaseId): bigint;
  nowMicros(): bigint;
}

/**
 * Resolves once every commit made so far is durable, rejects when the commit log failed; undefined when commits are
 * final at once (no commit log).
 */
export type WhenDurable = () => Promise<void> | undefined;

export class EventHistory {
  private readonly byDatabase = new Map<DatabaseId, HistoryTransaction[]>();
  private readonly listeners = new Set<HistoryListener>();
  private commitsSincePrune = 0;
  /** Recorded, not yet durable: published in this order. */
  private readonly unpublished: HistoryTransaction[] = [];
  private published: bigint;
  private readonly collectionNames = new Map<CollectionKey, string | undefined>();

  constructor(
    readonly store: Store,
    private readonly clock: PruneClock,
    private readonly whenDurable?: WhenDurable,
  ) {
    this.published = store.lastCommitTs;
    store.onCommit((record) => this.record(record));
    // A deleted database's events can no longer be read: its sources no longer open, and its streams are silenced.
    store.onPurge((databases) => {
      for (const database of databases) this.byDatabase.delete(database);
    });
  }

  /**
   * Commits up to this time are published: feeds and stream replays read the history up to it, never further
   * (a later commit may not be on disk yet).
   */
  get publishedTs(): bigint {
    return this.published;
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

  /** Called with every committed transaction of every database once it is published, in commit order. */
  subscribe(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  // Implements: EVT-ORDER-001, EVT-ORDER-002
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

  // Implements: V4STREAM-DOC-005
  private record(record: CommitRecord): void {
    // A rewrite of past versions (Insert, Remove) is no feed or stream event here: DEC-068.
    if (record.historyEdits !== undefined) return;
    const transaction = this.historyTransaction(record);
    let list = this.byDatabase.get(record.database);
    if (!list) {
      list = [];
      this.byDatabase.set(record.database, list);
    }
    list.push(transaction);
    if (++this.commitsSincePrune >= PRUNE_EVERY_COMMITS) this.prune();
    // The commit log appends before the store commits, so this covers the transaction.
    const durable = this.whenDurable?.();
    if (durable === undefined && this.unpublished.length === 0) {
      this.publish(transaction);
      return;
    }
    this.unpublished.push(transaction);
    // A failed log stops the server; what it could not write is never published.
    (durable ?? Promise.resolve()).then(
      () => this.publishUpTo(transaction.ts),
      () => undefined,
    );
  }

  // Implements: EVT-ORDER-003, EVT-TRIGGER-008
  /** A commit as the history keeps it: its user-document writes in event order, and its other writes. */
  private historyTransaction({ ts, database, writes: all }: CommitRecord): HistoryTransaction {
    if (all.length === 1) {
      // Most commits write one document: no sorting, and one object kept.
      const only = all[0]!;
      const name = this.collectionName(only.collection);
      return name === undefined
        ? { ts, database, writes: NO_USER_WRITES, nativeWrites: all }
        : new SingleWriteTransaction(ts, database, name, only.id, only.before, only.after);
    }
    const userWrites: DocumentWrite[] = [];
    const nativeWrites: DocumentWrite[] = [];
    for (const write of all) (this.collectionName(write.collection) === undefined ? nativeWrites : userWrites).push(write);
    // User collection keys share one prefix, so key order is collection-name order.
    userWrites.sort((a, b) => compareIds(a.id, b.id) || (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0));
    const writes =
      userWrites.length === 0
        ? NO_USER_WRITES
        : userWrites.map((write, ordinal) => historyWrite(write, this.collectionName(write.collection)!, ordinal));
    return { ts, database, writes, nativeWrites: nativeWrites.length === 0 ? NO_WRITES : nativeWrites };
  }

  /**
   * The user collection name of a key (undefined for native collections), one string per name: a slice per
   * write copied the name into every write. Holds one entry per collection key ever written, like the store.
   */
  private collectionName(key: CollectionKey): string | undefined {
    let name = this.collectionNames.get(key);
    if (name === undefined && !this.collectionNames.has(key)) {
      name = userCollectionName(key);
      this.collectionNames.set(key, name);
    }
    return name;
  }

  private publishUpTo(ts: bigint): void {
    while (this.unpublished.length > 0 && (this.unpublished[0] as HistoryTransaction).ts <= ts)
      this.publish(this.unpublished.shift() as HistoryTransaction);
  }

  private publish(transaction: HistoryTransaction): void {
    if (transaction.ts > this.published) this.published = transaction.ts;
    for (const listener of this.listeners) listener(transaction);
  }
}

/**
 * The transactions a history publishes after `afterTs`, handled one at a time in publication order, as a stream session
 * follows them: subscribed at once (build it in the tick that read `afterTs`, so no commit is missed), handled from
 * `resume()` on (a stream replays first), until `close()`. A fault while handling goes to `failed`.
 */
export class PublishedTransactions {
  private readonly queue: HistoryTransaction[] = [];
  private readonly unsubscribe: () => void;
  private draining = false;
  private closed = false;
  private paused = true;

  constructor(
    history: EventHistory,
    afterTs: bigint,
    private readonly handle: (transaction: HistoryTransaction) => Promise<void>,
    private readonly failed: () => void,
  ) {
    this.unsubscribe = history.subscribe((transaction) => {
      if (transaction.ts <= afterTs) return;
      this.queue.push(transaction);
      void this.drain();
    });
  }

  /** True while a published transaction waits or is being handled. */
  get busy(): boolean {
    return this.draining || this.queue.length > 0;
  }

  /** Handles `first` (transactions replayed from before), what was published since, then each one as it is published. */
  resume(first: readonly HistoryTransaction[] = []): Promise<void> {
    this.queue.unshift(...first);
    this.paused = false;
    return this.drain();
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    if (this.paused || this.draining) return;
    this.draining = true;
    try {
      while (!this.closed && this.queue.length > 0) await this.handle(this.queue.shift() as HistoryTransaction);
    } catch {
      this.failed();
    } finally {
      this.draining = false;
    }
  }
}

/**
 * A transaction that wrote one user document, as most do, kept as one object that is also its only write: held as a
 * transaction, an array and a write, it cost ~180 bytes per commit, nearly a third of what each Create left on the
 * heap.
 */
class SingleWriteTransaction implements HistoryTransaction, HistoryWrite {
  constructor(
    readonly ts: bigint,
    readonly database: DatabaseId,
    readonly collection: string,
    readonly id: string,
    readonly before: DocumentVersion | undefined,
    readonly after: DocumentVersion,
  ) {}

  get ordinal(): number {
    return 0;
  }

  get writes(): readonly HistoryWrite[] {
    return [this];
  }

  get nativeWrites(): readonly DocumentWrite[] {
    return NO_WRITES;
  }
}

/** A literal with every field: all entries share one hidden class, where a spread gave each its own (~270 bytes per write). */
function historyWrite(write: DocumentWrite, collection: string, ordinal: number): HistoryWrite {
  return { collection, id: write.id, ordinal, before: write.before, after: write.after };
}

// Implements: EVT-ORDER-002
/** The writes of a transaction strictly after `position`. */
export function writesAfter(transaction: HistoryTransaction, position: EventPosition): readonly HistoryWrite[] {
  if (transaction.ts > position.txnTs) return transaction.writes;
  return transaction.writes.filter((w) => compareEventPositions({ txnTs: transaction.ts, ordinal: w.ordinal }, position) > 0);
}
