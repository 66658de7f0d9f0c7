/**
 * Fan-out: many streams of one source query opened by one creating identity see the same events for a live
 * transaction. The first of them to handle it runs the trigger table, the role check and the encoding; the others
 * reuse that result, its wire bytes included (one buffer, so the transport frames it once for all of them). Keyed by the transaction object (a WeakMap), so results go
 * away with the transaction; a stream carrying cost from discarded writes computes its own (its stats differ).
 */
import type { EventCost } from './event-stats.js';
import type { HistoryTransaction } from './event-history.js';
import type { ProcessedTransaction } from './source-consumer.js';

export interface SharedTransaction {
  readonly processed: ProcessedTransaction;
  /** Cost of writes after the last event (discarded ones), for the next event's stats. */
  readonly leftover: EventCost;
  /** The wire lines of the events before any error item, as one buffer (one write per stream per commit). */
  readonly bytes: Buffer;
  /** The error item that ends the list, if any. */
  readonly error: Record<string, unknown> | undefined;
  /** Event items in the list (against the per-run limit). */
  readonly eventCount: number;
}

export class SharedProcessing {
  private readonly results = new WeakMap<HistoryTransaction, Map<string, Promise<SharedTransaction>>>();

  /** The result for `sourceKey` (source query, database and creator), computed once per transaction. */
  get(transaction: HistoryTransaction, sourceKey: string, compute: () => Promise<SharedTransaction>): Promise<SharedTransaction> {
    let bySource = this.results.get(transaction);
    if (!bySource) this.results.set(transaction, (bySource = new Map()));
    let result = bySource.get(sourceKey);
    if (!result) bySource.set(sourceKey, (result = compute()));
    return result;
  }
}
