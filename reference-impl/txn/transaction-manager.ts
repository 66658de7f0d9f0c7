/**
 * Serializes transactions: each runs alone under one lock, gets a timestamp strictly greater than every
 * timestamp handed out before, and commits only if its body completes. A body that throws commits nothing.
 */
import type { CommitRecord, Store } from '../store/store.js';
import { failpoint } from '../failpoints.js';
import { SerialQueue } from './serial-queue.js';
import { Transaction } from './transaction.js';

/**
 * Checks a transaction's writes before they are applied; throwing aborts the transaction with that error
 * (the index helper enforces uniqueness here).
 */
export type CommitValidator = (txn: Transaction, records: readonly CommitRecord[]) => void;

/**
 * Where committed transactions are made durable (`reference-impl/durability/`, with `--data-dir`): `append`
 * runs under the commit lock in commit order and may throw to abort; `durable()` resolves once everything
 * appended so far is on disk. Every transaction awaits it before its outcome is returned, so no response
 * reports (or reads) state that a crash could lose.
 */
export interface CommitLog {
  append(records: readonly CommitRecord[]): void;
  durable(): Promise<void>;
}

export interface TransactionOutcome<T> {
  result: T;
  /** The transaction's timestamp (sent as `x-txn-time`). */
  ts: bigint;
  committed: boolean;
}

// Implements: TXN-ATOMIC-001, TXN-ATOMIC-002, TXN-CONC-001, TXN-CONC-003, TXN-ORDER-001, TXN-ORDER-002, TXN-ORDER-003
export class TransactionManager {
  private readonly lock = new SerialQueue();
  private readonly validators = new Set<CommitValidator>();
  private lastIssued = 0n;
  private commitLog: CommitLog | undefined;

  constructor(
    readonly store: Store,
    private readonly clockMicros: () => bigint = () => BigInt(Date.now()) * 1000n,
  ) {}

  /** Registers a pre-commit check; returns a function that removes it. */
  addCommitValidator(validator: CommitValidator): () => void {
    this.validators.add(validator);
    return () => this.validators.delete(validator);
  }

  /** Makes commits durable through `log` (set once, before serving). */
  setCommitLog(log: CommitLog): void {
    this.commitLog = log;
  }

  /** Resolves once every commit so far is on disk; undefined without a commit log (a commit is final at once). */
  whenDurable(): Promise<void> | undefined {
    return this.commitLog?.durable();
  }

  /** The latest timestamp issued (never decreases; after recovery at least the last recovered commit). */
  get lastTs(): bigint {
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
    return this.lastIssued > this.store.lastCommitTs ? this.lastIssued : this.store.lastCommitTs;
  }

  /**
   * The snapshot time a read-only transaction beginning now gets: what a request is judged against before its
   * transaction begins (whether a key's or token's `ttl` has passed).
   */
  get readTs(): bigint {
    const now = this.clockMicros();
    const last = this.lastTs;
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
    return now > last ? now : last;
  }

  run<T>(body: (txn: Transaction) => Promise<T>, options: { readOnly?: boolean } = {}): Promise<TransactionOutcome<T>> {
    const readOnly = options.readOnly ?? false;
    const committing = this.lock.run(() => {
      const txn = this.begin(readOnly);
      // Chained rather than awaited in an async function: one frame and suspension less per request.
      return body(txn).then((result) => this.commit(txn, result));
    });
    if (!this.commitLog) return committing;
    return this.afterDurable(committing, this.commitLog);
  }

  /**
   * The same for a body that may answer at once: when no other transaction is running and the body waits for
   * nothing, the transaction runs and commits before this returns (failures are then thrown at once). With a
   * commit log every outcome waits for the disk anyway, so it is always a promise.
   */
  runNow<T>(
    body: (txn: Transaction) => T | Promise<T>,
    options: { readOnly?: boolean } = {},
  ): TransactionOutcome<T> | Promise<TransactionOutcome<T>> {
    const readOnly = options.readOnly ?? false;
    if (this.commitLog) {
      return this.run((txn) => {
        const result = body(txn);
        return result instanceof Promise ? result : Promise.resolve(result);
      }, options);
    }
    return this.lock.runNow(() => {
      const txn = this.begin(readOnly);
      const result = body(txn);
      return result instanceof Promise ? result.then((value) => this.commit(txn, value)) : this.commit(txn, result);
    });
  }

  // Implements: DOC-CREATE-007, DOC-UPDATE-004, DOC-REPLACE-002, TXN-ATOMIC-001, TXN-ORDER-001, TXN-ORDER-002
  // Implements: TXN-TIME-001
  private begin(readOnly: boolean): Transaction {
    // Reads may share the newest timestamp; a write transaction needs a fresh one.
    const read = this.readTs;
    const ts = readOnly || read > this.lastTs ? read : read + 1n;
    this.lastIssued = ts;
    return new Transaction(this.store, ts, readOnly);
  }

  // Implements: TXN-ATOMIC-002, TXN-ATOMIC-003, TXN-CONC-002, LIMIT-TIME-002, LIMIT-WRITE-001, LIMIT-WRITE-002
  /** Applies `txn`'s writes (if any) under the lock, after the validators and the commit log accepted them. */
  private commit<T>(txn: Transaction, result: T): TransactionOutcome<T> {
    const records = txn.commitRecords();
    if (records.length === 0) return { result, ts: txn.ts, committed: false };
    try {
      for (const validator of this.validators) validator(txn, records);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'instance not unique' || !failpoint('TXN-UNIQUE-VIOLATION-KEEPS-EARLIER-WRITES'))
        throw error;
      // A server that stores the writes before the one that broke a unique index, and still answers the violation.
      const last = records.at(-1)!;
      const earlier = [...records.slice(0, -1), { ...last, writes: last.writes.slice(0, -1) }].filter((r) => r.writes.length > 0);
      if (earlier.length === 0) throw error;
      for (const validator of this.validators) validator(txn, earlier);
      this.commitLog?.append(earlier);
      this.store.commit(earlier);
      throw error;
    }
    this.commitLog?.append(records);
    this.store.commit(records);
    return { result, ts: txn.ts, committed: true };
  }

  private async afterDurable<T>(committing: Promise<TransactionOutcome<T>>, log: CommitLog): Promise<TransactionOutcome<T>> {
    try {
      return await committing;
    } finally {
      // Failed transactions wait too: their error may describe state (a conflict) that is not yet on disk.
      await log.durable();
    }
  }
}
