/**
 * How far back a source can be consumed: the source collection's `history_days`, or 15 minutes when it is 0 or
 * unset (SD "Limits"; wire-facts §4.3). On a stream, a start before the source's creation is refused first (DEC-029).
 */
import type { DatabaseId, Store } from '../store/store.js';

const DAY_MICROS = 86_400_000_000n;
export const MINIMUM_RETENTION_MICROS = 15n * 60n * 1_000_000n;

export function retentionMicros(store: Store, database: DatabaseId, collection: string, atTs: bigint): bigint {
  const days = store.getDocument(database, 'collections', collection, atTs)?.fields['history_days'];
  return typeof days === 'bigint' && days > 0n ? days * DAY_MICROS : MINIMUM_RETENTION_MICROS;
}

/**
 * The longest retention of the database's live collections (at least the 15-minute minimum): history older
 * than this can never be consumed again — every start before it is answered with the retention error.
 */
export function longestRetentionMicros(store: Store, database: DatabaseId): bigint {
  let longest = MINIMUM_RETENTION_MICROS;
  for (const name of store.documentIds(database, 'collections')) {
    const retention = retentionMicros(store, database, name, store.lastCommitTs);
    if (retention > longest) longest = retention;
  }
  return longest;
}

export function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** True when a start (exclusive) at `startTs` reaches further back than the collection keeps history. */
export function startBeyondRetention(store: Store, database: DatabaseId, collection: string, startTs: bigint): boolean {
  const now = nowMicros();
  return startTs < now - retentionMicros(store, database, collection, store.lastCommitTs);
}

export function retentionMessage(startTs: bigint): string {
  return `Stream start time ${startTs} is too far in the past. Recreate the stream and try again.`;
}
