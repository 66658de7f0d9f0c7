/**
 * Replays a commit log into a freshly composed server: each stored transaction goes through `Store.commit`
 * exactly as it did when it first committed, so every commit and schema listener (indexes, event history,
 * caches) rebuilds its state from the same sequence of records.
 */
import type { CommitRecord, DocumentWrite, Store } from '../store/store.js';
import { decodeTransaction } from './transaction-codec.js';

export interface RecoverySummary {
  readonly transactions: number;
  readonly lastTs: bigint;
}

export function replayCommitLog(store: Store, payloads: readonly unknown[]): RecoverySummary {
  let lastTs = 0n;
  for (const payload of payloads) {
    const transaction = decodeTransaction(payload);
    // A transaction may create a database and write into it, so every database it names exists first.
    for (const record of transaction.records) {
      for (const write of record.writes) {
        if (write.collection === 'databases' && write.after.hidden.databaseId !== undefined)
          store.restoreDatabase(write.after.hidden.databaseId, record.database);
      }
    }
    const records: CommitRecord[] = transaction.records.map((record) => {
      if (record.historyEdits !== undefined) {
        for (const edit of record.historyEdits) store.reserveDocumentId(edit.id);
        return { ts: transaction.ts, database: record.database, writes: [], historyEdits: record.historyEdits };
      }
      const writes: DocumentWrite[] = record.writes.map((write) => {
        store.reserveDocumentId(write.id);
        // The store holds exactly what the transaction saw, so the live version now is its `before`.
        const before = store.getDocument(record.database, write.collection, write.id, store.lastCommitTs);
        return { collection: write.collection, id: write.id, action: write.after.action, before, after: write.after };
      });
      return { ts: transaction.ts, database: record.database, writes };
    });
    store.commit(records);
    lastTs = transaction.ts;
  }
  return { transactions: payloads.length, lastTs };
}
