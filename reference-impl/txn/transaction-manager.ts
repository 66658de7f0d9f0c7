/**
 * Serializes transactions: each runs alone under one lock, gets a timestamp strictly greater than every
 * timestamp handed out before, and commits only if its body completes. A body that throws commits nothing.
 */
import { Mutex } from 'async-mutex';
import type { CommitRecord, Store } from '../store/store.js';
import { Transaction } from './transaction.js';

/**
 * Checks a transaction's writes before they are applied; throwing aborts the transaction with that error
 * (the index helper enforces uniqueness here).
 */
export type CommitValidator = (txn: Transaction, records: readonly CommitRecord[]) => void;

export interface TransactionOutcome<T> {
  result: T;
  /** The transaction's timestamp (sent as `x-txn-time`). */
  ts: bigint;
  committed: boolean;
}

export class TransactionManager {
  private readonly lock = new Mutex();
  private readonly validators = new Set<CommitValidator>();
  private lastIssued = 0n;

  constructor(
    readonly store: Store,
    private readonly clockMicros: () => bigint = () => BigInt(Date.now()) * 1000n,
  ) {}

  /** Registers a pre-commit check; returns a function that removes it. */
  addCommitValidator(validator: CommitValidator): () => void {
    this.validators.add(validator);
    return () => this.validators.delete(validator);
  }

  /** The latest timestamp issued (never decreases). */
  get lastTs(): bigint {
    return this.lastIssued;
  }

  async run<T>(body: (txn: Transaction) => Promise<T>, options: { readOnly?: boolean } = {}): Promise<TransactionOutcome<T>> {
    return this.lock.runExclusive(async () => {
      const now = this.clockMicros();
      const readOnly = options.readOnly ?? false;
      // Reads may share the newest timestamp; a write transaction needs a fresh one.
      const ts = readOnly ? (now > this.lastIssued ? now : this.lastIssued) : now > this.lastIssued ? now : this.lastIssued + 1n;
      this.lastIssued = ts;
      const txn = new Transaction(this.store, ts, readOnly);
      const result = await body(txn);
      const records = txn.commitRecords();
      if (records.length === 0) return { result, ts, committed: false };
      for (const validator of this.validators) validator(txn, records);
      this.store.commit(records);
      return { result, ts, committed: true };
    });
  }
}
