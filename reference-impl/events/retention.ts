/**
 * How far back a source can be consumed: the source collection's `history_days`, plus a minimum window, which is all
 * there is when `history_days` is 0 or unset (SD "Limits": 15 minutes then; DEC-020). The real service keeps that
 * much more for every collection (fauna/faunadb `Collection.scala#L556-L563`, `MVTOffset`). The minimum is a server
 * setting, 15 minutes by default (`--min-retention-ms`), so that a suite can reach the retention error without waiting
 * that long. On a stream, a start before the source's creation is refused first (DEC-029).
 */
import type { DatabaseId, Store } from '../store/store.js';

const DAY_MICROS = 86_400_000_000n;
export const DEFAULT_MIN_RETENTION_MICROS = 15n * 60n * 1_000_000n;

// Implements: EVT-RETAIN-001
export function retentionMicros(store: Store, database: DatabaseId, collection: string, atTs: bigint, minimumMicros: bigint): bigint {
  const days = store.getDocument(database, 'collections', collection, atTs)?.fields.history_days;
  return (typeof days === 'bigint' && days > 0n ? days * DAY_MICROS : 0n) + minimumMicros;
}

/**
 * The longest retention of the database's live collections (at least the minimum): history older than this can never
 * be consumed again — every start before it is answered with the retention error.
 */
export function longestRetentionMicros(store: Store, database: DatabaseId, minimumMicros: bigint): bigint {
  let longest = minimumMicros;
  for (const name of store.documentIds(database, 'collections')) {
    const retention = retentionMicros(store, database, name, store.lastCommitTs, minimumMicros);
    if (retention > longest) longest = retention;
  }
  return longest;
}

export function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

// Implements: EVT-RETAIN-001, EVT-RETAIN-002, EVT-RETAIN-004, EVT-RETAIN-005
/** True when a start (exclusive) at `startTs` reaches further back than the collection keeps history. */
export function startBeyondRetention(
  store: Store,
  database: DatabaseId,
  collection: string,
  startTs: bigint,
  minimumMicros: bigint,
): boolean {
  const now = nowMicros();
  return startTs < now - retentionMicros(store, database, collection, store.lastCommitTs, minimumMicros);
}

export function retentionMessage(startTs: bigint): string {
  return `Stream start time ${startTs} is too far in the past. Recreate the stream and try again.`;
}
