import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NO_HIDDEN_FIELDS,
  ROOT_DATABASE,
  Store,
  type DatabaseId,
  type DocumentVersion,
  type WriteAction,
} from '../../../../reference-impl/store/store.js';
import { Transaction } from '../../../../reference-impl/txn/transaction.js';
import type { ObjectValue } from '../../../../reference-impl/values/value.js';

/** A transaction's own writes, as a reader of the transaction and its commit must see them, against a plain model. */
describe('transaction: pending writes', () => {
  const COLLECTIONS = ['collections/a', 'collections/b'];
  const IDS = ['1', '2', '3', '4', '5', '6'];

  function storeWithCommitted(): { store: Store; other: DatabaseId } {
    const store = new Store();
    const other = store.allocateDatabase(ROOT_DATABASE);
    // Id 1 of every collection exists before the transaction, so its writes have a `before`.
    for (const database of [ROOT_DATABASE, other]) {
      const writes = COLLECTIONS.map((collection) => ({
        collection,
        id: '1',
        action: 'create' as const,
        before: undefined,
        after: { ts: 1n, action: 'create' as const, fields: { data: { n: 0n } }, hidden: NO_HIDDEN_FIELDS },
      }));
      store.commit([{ ts: 1n, database, writes }]);
    }
    return { store, other };
  }

  const op = fc.record({
    database: fc.nat(1),
    collection: fc.nat(COLLECTIONS.length - 1),
    id: fc.nat(IDS.length - 1),
    action: fc.constantFrom<WriteAction>('create', 'update', 'delete'),
    n: fc.nat(1000),
  });

  it('reads, lists, counts and commits every write, whether few (searched) or many (indexed)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const { store, other } = storeWithCommitted();
        const databases = [ROOT_DATABASE, other];
        const txn = new Transaction(store, 2n, false);
        const model = new Map<
          string,
          {
            database: DatabaseId;
            collection: string;
            id: string;
            before: DocumentVersion | undefined;
            after: DocumentVersion;
            first: WriteAction;
          }
        >();
        for (const { database: d, collection: c, id: i, action, n } of ops) {
          const [database, collection, id] = [databases[d]!, COLLECTIONS[c]!, IDS[i]!];
          const fields: ObjectValue = action === 'delete' ? {} : { data: { n: BigInt(n) } };
          const after = txn.write(database, collection, id, action, fields, NO_HIDDEN_FIELDS);
          const key = `${database} ${collection} ${id}`;
          const known = model.get(key);
          const first = known?.first ?? action;
          const effective: WriteAction = action === 'delete' ? 'delete' : first === 'create' || action === 'create' ? 'create' : 'update';
          expect(after).toEqual({ ts: 2n, action: effective, fields, hidden: NO_HIDDEN_FIELDS });
          model.set(key, {
            database,
            collection,
            id,
            before: known ? known.before : store.getDocument(database, collection, id, 2n),
            after,
            first,
          });
          // Every document the transaction wrote reads as its newest write.
          for (const entry of model.values())
            expect(txn.get(entry.database, entry.collection, entry.id)).toBe(entry.after.action === 'delete' ? undefined : entry.after);
        }
        expect(txn.documentsWritten).toBe(model.size);
        for (const database of databases) {
          for (const collection of COLLECTIONS) {
            const own = [...model.values()].filter((e) => e.database === database && e.collection === collection);
            expect(txn.hasWritesTo(database, collection)).toBe(own.length > 0);
            const live = new Map(
              store.getDocument(database, collection, '1', 2n) ? [['1', store.getDocument(database, collection, '1', 2n)!]] : [],
            );
            for (const e of own) e.after.action === 'delete' ? live.delete(e.id) : live.set(e.id, e.after);
            expect(txn.scan(database, collection)).toEqual([...live.entries()].sort(([a], [b]) => Number(a) - Number(b)));
          }
        }
        const committed = txn.commitRecords().flatMap((record) => record.writes.map((w) => ({ database: record.database, ...w })));
        const expected = [...model.values()]
          .filter((e) => !(e.before === undefined && e.after.action === 'delete'))
          .map(({ database, collection, id, before, after }) => ({ database, collection, id, action: after.action, before, after }));
        const order = (a: { database: string; collection: string; id: string }, b: typeof a) =>
          `${a.database} ${a.collection} ${a.id}`.localeCompare(`${b.database} ${b.collection} ${b.id}`);
        expect(committed.sort(order)).toEqual(expected.sort(order));
        // One record per database written.
        const records = txn.commitRecords();
        expect(new Set(records.map((r) => r.database)).size).toBe(records.length);
      }),
      { numRuns: 300 },
    );
  });
});

/** The basis of `x-storage-bytes-read` and `-write` (DEC-131): the write-size measure of the versions read and written. */
describe('transaction: storage bytes', () => {
  it('counts the size of each version read, and of the newest pending version of each document written', () => {
    const store = new Store();
    const fields: ObjectValue = { data: { name: 'café' } };
    store.commit([
      {
        ts: 1n,
        database: ROOT_DATABASE,
        writes: [
          {
            collection: 'collections/a',
            id: '1',
            action: 'create',
            before: undefined,
            after: { ts: 1n, action: 'create', fields, hidden: NO_HIDDEN_FIELDS },
          },
        ],
      },
    ]);
    const size = Buffer.byteLength(JSON.stringify(fields));
    const txn = new Transaction(store, 2n, false);
    expect([txn.storageBytesRead, txn.storageBytesWritten]).toEqual([0, 0]);
    txn.get(ROOT_DATABASE, 'collections/a', '1');
    txn.scan(ROOT_DATABASE, 'collections/a');
    expect(txn.storageBytesRead).toBe(2 * size);
    txn.write(ROOT_DATABASE, 'collections/a', '2', 'create', { data: { n: 1n } }, NO_HIDDEN_FIELDS);
    txn.write(ROOT_DATABASE, 'collections/a', '2', 'update', { data: { n: 12n } }, NO_HIDDEN_FIELDS);
    expect(txn.storageBytesWritten).toBe(Buffer.byteLength('{"data":{"n":12}}'));
    // A pending write is read from the transaction, not from storage.
    txn.get(ROOT_DATABASE, 'collections/a', '2');
    expect(txn.storageBytesRead).toBe(2 * size);
  });
});
