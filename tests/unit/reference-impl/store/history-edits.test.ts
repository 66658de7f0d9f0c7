// History edits (Insert, Remove; DEC-068): the store keeps one version per time in time order, tells commit listeners
// only what changed a document's newest version, and a commit log replays the edits after a restart.
import { describe, expect, it } from 'vitest';
import { replayCommitLog } from '../../../../reference-impl/durability/recovery.js';
import { encodeTransaction } from '../../../../reference-impl/durability/transaction-codec.js';
import {
  NO_HIDDEN_FIELDS,
  Store,
  type CommitRecord,
  type DocumentVersion,
  type HistoryEdit,
} from '../../../../reference-impl/store/store.js';
import { Transaction } from '../../../../reference-impl/txn/transaction.js';

const COLL = 'collections/things';
const live = (ts: bigint, n: bigint): DocumentVersion => ({ ts, action: 'create', fields: { data: { n } }, hidden: NO_HIDDEN_FIELDS });
const gone = (ts: bigint): DocumentVersion => ({ ts, action: 'delete', fields: {}, hidden: NO_HIDDEN_FIELDS });
const put = (id: string, version: DocumentVersion): HistoryEdit => ({ kind: 'insert', collection: COLL, id, version });
const take = (id: string, ts: bigint, deleted: boolean): HistoryEdit => ({ kind: 'remove', collection: COLL, id, ts, deleted });
const edits = (ts: bigint, ...historyEdits: HistoryEdit[]): CommitRecord[] => [{ ts, database: '0', writes: [], historyEdits }];
const times = (store: Store, id: string): Array<[bigint, string]> => store.versionsAfter('0', COLL, id, -1n).map((v) => [v.ts, v.action]);

/** A store with document `1` created at 10 and updated at 20, recording what listeners are told. */
function storeWithDocument(): { store: Store; seen: CommitRecord[] } {
  const store = new Store();
  const seen: CommitRecord[] = [];
  store.commit([
    { ts: 10n, database: '0', writes: [{ collection: COLL, id: '1', action: 'create', before: undefined, after: live(10n, 1n) }] },
  ]);
  store.commit([
    {
      ts: 20n,
      database: '0',
      writes: [{ collection: COLL, id: '1', action: 'update', before: live(10n, 1n), after: { ...live(20n, 2n), action: 'update' } }],
    },
  ]);
  store.onCommit((record) => seen.push(record));
  return { store, seen };
}

describe('store history edits', () => {
  it('inserts a past version in time order without telling listeners of a change to the newest version', () => {
    const { store, seen } = storeWithDocument();
    store.commit(edits(30n, put('1', live(5n, 0n)), put('1', gone(15n))));
    expect(times(store, '1')).toEqual([
      [5n, 'create'],
      [10n, 'create'],
      [15n, 'delete'],
      [20n, 'update'],
    ]);
    expect(store.getDocument('0', COLL, '1', 7n)?.fields).toEqual({ data: { n: 0n } });
    expect(store.getDocument('0', COLL, '1', 16n)).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.writes).toEqual([]);
    expect(store.lastCommitTs).toBe(30n);
  });

  it('replaces the version at the same time, and reports a replaced newest version as a write from it to the new one', () => {
    const { store, seen } = storeWithDocument();
    store.commit(edits(30n, put('1', live(20n, 9n))));
    expect(times(store, '1')).toEqual([
      [10n, 'create'],
      [20n, 'create'],
    ]);
    expect(seen[0]!.writes).toEqual([
      { collection: COLL, id: '1', action: 'create', before: { ...live(20n, 2n), action: 'update' }, after: live(20n, 9n) },
    ]);
  });

  it('removes only a version of the named kind at exactly that time', () => {
    const { store } = storeWithDocument();
    store.commit(edits(30n, take('1', 10n, true), take('1', 11n, false)));
    expect(times(store, '1')).toEqual([
      [10n, 'create'],
      [20n, 'update'],
    ]);
    store.commit(edits(31n, take('1', 10n, false)));
    expect(times(store, '1')).toEqual([[20n, 'update']]);
  });

  it('removing the newest version reports the one before it; removing the last one reports a delete', () => {
    const { store, seen } = storeWithDocument();
    store.commit(edits(30n, take('1', 20n, false)));
    expect(seen[0]!.writes).toEqual([
      { collection: COLL, id: '1', action: 'create', before: { ...live(20n, 2n), action: 'update' }, after: live(10n, 1n) },
    ]);
    store.commit(edits(31n, take('1', 10n, false)));
    expect(seen[1]!.writes).toEqual([{ collection: COLL, id: '1', action: 'delete', before: live(10n, 1n), after: gone(10n) }]);
    expect(store.getDocument('0', COLL, '1', 40n)).toBeUndefined();
    expect([...store.scanCollection('0', COLL, 40n)]).toEqual([]);
  });

  it('gives a document that had no history one, reachable by collection walks', () => {
    const { store, seen } = storeWithDocument();
    store.commit(edits(30n, put('abc', live(25n, 7n))));
    expect(store.getDocument('0', COLL, 'abc', 30n)?.fields).toEqual({ data: { n: 7n } });
    expect([...store.scanCollection('0', COLL, 30n)].map(([id]) => id)).toEqual(['1', 'abc']);
    expect(store.hasOnlyCanonicalIds('0', COLL)).toBe(false);
    expect(seen[0]!.writes).toEqual([{ collection: COLL, id: 'abc', action: 'create', before: undefined, after: live(25n, 7n) }]);
  });
});

describe('transaction history edits', () => {
  it('commit after the ordinary writes of the same transaction, as records of their own', () => {
    const { store } = storeWithDocument();
    const txn = new Transaction(store, 30n, false);
    txn.editHistory('0', put('1', live(12n, 5n)));
    txn.write('0', COLL, '1', 'update', { data: { n: 3n } }, NO_HIDDEN_FIELDS);
    const records = txn.commitRecords();
    expect(records.map((r) => [r.writes.length, r.historyEdits?.length])).toEqual([
      [1, undefined],
      [0, 1],
    ]);
    expect(txn.hasWrites).toBe(true);
    store.commit(records);
    expect(times(store, '1')).toEqual([
      [10n, 'create'],
      [12n, 'create'],
      [20n, 'update'],
      [30n, 'update'],
    ]);
  });

  it('are refused in a read-only transaction', () => {
    const txn = new Transaction(new Store(), 30n, true);
    expect(() => txn.editHistory('0', put('1', live(12n, 5n)))).toThrow('read-only');
  });
});

describe('recovery of history edits', () => {
  it('replays inserts and removes from the commit log, next to ordinary writes and logs without edits', () => {
    const txns: CommitRecord[][] = [
      [{ ts: 10n, database: '0', writes: [{ collection: COLL, id: '1', action: 'create', before: undefined, after: live(10n, 1n) }] }],
      edits(20n, put('1', live(5n, 0n)), put('1', gone(7n)), put('2', { ...live(15n, 4n), fields: { data: { n: 4n }, ttl: null } })),
      edits(30n, take('1', 7n, true)),
      edits(31n, take('1', 10n, false)),
    ];
    const payloads = txns.map((records) => JSON.parse(JSON.stringify(encodeTransaction(records))));
    expect(payloads[0].records[0]).not.toHaveProperty('history');
    const store = new Store();
    const seen: CommitRecord[] = [];
    store.onCommit((record) => seen.push(record));
    expect(replayCommitLog(store, payloads)).toEqual({ transactions: 4, lastTs: 31n });
    expect(times(store, '1')).toEqual([[5n, 'create']]);
    expect(store.getDocument('0', COLL, '1', 40n)?.fields).toEqual({ data: { n: 0n } });
    expect(store.getDocument('0', COLL, '2', 40n)?.fields).toEqual({ data: { n: 4n }, ttl: null });
    // The last removal took out the newest version: listeners (indexes) are told again on replay.
    expect(seen[3]!.writes).toEqual([{ collection: COLL, id: '1', action: 'create', before: live(10n, 1n), after: live(5n, 0n) }]);
    expect(BigInt(store.newDocumentId())).toBeGreaterThan(2n);
  });
});
