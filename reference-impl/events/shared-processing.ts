/**
 * Fan-out: many streams of one source query opened by one creating identity see the same events for a live
 * transaction. The first of them to handle it runs the trigger table, the role check and the encoding; the others
 * reuse that result, its wire bytes included (one buffer, so the transport frames it once for all of them). A stream
 * carrying cost from discarded writes computes its own (its stats differ).
 *
 * Only the results of the latest transactions are kept (DEC-077; SHARED_TRANSACTIONS_KEPT, SHARED_BYTES_KEPT): streams that
 * are keeping up handle a transaction as soon as it is published, and one that has fallen further behind computes its
 * own. Kept for as long as the event history keeps the transaction (15 minutes at least), every stream's rendered
 * events took memory without bound: 60,000 writes of 1 KB with four streams open took the server from 200 to 1,000 MB.
 */
import type { EventCost } from './event-stats.js';
import type { HistoryTransaction } from './event-history.js';

/** A live transaction's events for one stream, as written. */
export interface WireBatch {
  /** What processing the transaction cost. */
  readonly cost: EventCost;
  /** The wire lines of the events before any error item, as one buffer (one write per stream per commit). */
  readonly bytes: Buffer;
  /** The error item that ends the list, if any. */
  readonly error: Record<string, unknown> | undefined;
}

export interface SharedTransaction extends WireBatch {
  /** Cost of writes after the last event (discarded ones), for the next event's stats. */
  readonly leftover: EventCost;
}

/** Transactions whose shared results are kept at most. */
export const SHARED_TRANSACTIONS_KEPT = 256;
/** Bytes of events the kept results may hold together; past it the oldest go first (the newest is always kept). */
export const SHARED_BYTES_KEPT = 64 * 1024 * 1024;

interface Kept {
  readonly bySource: Map<string, Promise<SharedTransaction>>;
  bytes: number;
}

// Implements: STREAM-LIVE-002
export class SharedProcessing {
  /** In the order the transactions were first handled: the oldest first. */
  private readonly kept = new Map<HistoryTransaction, Kept>();
  private keptBytes = 0;

  constructor(
    private readonly maxTransactions = SHARED_TRANSACTIONS_KEPT,
    private readonly maxBytes = SHARED_BYTES_KEPT,
  ) {}

  /** The result for `sourceKey` (source query, database and creator), computed once while it is kept. */
  get(transaction: HistoryTransaction, sourceKey: string, compute: () => Promise<SharedTransaction>): Promise<SharedTransaction> {
    let entry = this.kept.get(transaction);
    if (!entry) {
      entry = { bySource: new Map(), bytes: 0 };
      this.kept.set(transaction, entry);
      this.evict();
    }
    let result = entry.bySource.get(sourceKey);
    if (!result) {
      const kept = entry;
      result = compute();
      entry.bySource.set(sourceKey, result);
      result.then(
        (shared) => {
          if (this.kept.get(transaction) !== kept) return;
          kept.bytes += shared.bytes.length;
          this.keptBytes += shared.bytes.length;
          this.evict();
        },
        () => {},
      );
    }
    return result;
  }

  private evict(): void {
    while (this.kept.size > 1 && (this.kept.size > this.maxTransactions || this.keptBytes > this.maxBytes)) {
      const [oldest, entry] = this.kept.entries().next().value as [HistoryTransaction, Kept];
      this.kept.delete(oldest);
      this.keptBytes -= entry.bytes;
    }
  }
}
