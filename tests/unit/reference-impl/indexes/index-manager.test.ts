import { beforeEach, describe, expect, it } from 'vitest';
import { QueryError } from '../../../../reference-impl/errors/query-error.js';
import {
  BUILD_AT_ONCE_VERSIONS,
  BUILD_BATCH_SIZE,
  IndexManager,
  buildsAtOnce,
  definitionOf,
} from '../../../../reference-impl/indexes/index-manager.js';
import type { IndexTuple } from '../../../../reference-impl/indexes/index-store.js';
import { ROOT_DATABASE, Store } from '../../../../reference-impl/store/store.js';
import type { Transaction } from '../../../../reference-impl/txn/transaction.js';
import { TransactionManager } from '../../../../reference-impl/txn/transaction-manager.js';
import { Ref, type ObjectValue, type Value } from '../../../../reference-impl/values/value.js';

const DB = ROOT_DATABASE;
const COLL = 'collections/people';
const people = new Ref('people', new Ref('collections'));

let store: Store;
let txns: TransactionManager;
let manager: IndexManager;

beforeEach(() => {
  store = new Store();
  txns = new TransactionManager(store);
  manager = new IndexManager(store, txns);
});

const run = (body: (txn: Transaction) => void) => txns.run(async (txn) => body(txn));

function indexFields(name: string, extra: ObjectValue = {}): ObjectValue {
  return { name, source: people, terms: [{ field: ['data', 'k'] }], ...extra };
}

async function createIndex(name: string, extra: ObjectValue = {}): Promise<void> {
  await run((txn) => txn.write(DB, 'indexes', name, 'create', indexFields(name, extra), { indexId: txn.newDocumentId() }));
}

async function createDocs(values: readonly Value[], firstId = 1): Promise<void> {
  await run((txn) => {
    values.forEach((k, i) => {
      txn.write(DB, COLL, String(firstId + i), 'create', { data: { k } }, {});
    });
  });
}

/** The ids of the documents an index holds under term `k`, in index order. */
function idsUnder(name: string, k: Value): string[] {
  const index = manager.lookup(DB, name);
  if (!index) throw new Error(`no index ${name}`);
  const ids: string[] = [];
  const it = index.entries.ascending([k]);
  for (let r = it.next(); !r.done; r = it.next()) ids.push(((r.value as IndexTuple).at(-1) as Ref).id);
  return ids;
}

describe('IndexManager', () => {
  it('builds an index without active: true in the background, then marks its record active', async () => {
    const count = BUILD_BATCH_SIZE * 2 + 10;
    await createDocs(Array.from({ length: count }, () => 'x'));
    await createIndex('by_k', { active: false });
    const index = manager.lookup(DB, 'by_k')!;
    expect(index.built).toBe(false);
    expect(store.getDocument(DB, 'indexes', 'by_k', txns.lastTs)!.fields.active).toBe(false);
    await manager.whenBuilt();
    expect(index.built).toBe(true);
    expect(idsUnder('by_k', 'x')).toHaveLength(count);
    expect(store.getDocument(DB, 'indexes', 'by_k', txns.lastTs)!.fields.active).toBe(true);
  });

  it('keeps documents written during a build exactly once, with their latest values', async () => {
    await createDocs(Array.from({ length: BUILD_BATCH_SIZE * 2 }, () => 'x'));
    await createIndex('by_k');
    await run((txn) => {
      txn.write(DB, COLL, '1', 'update', { data: { k: 'y' } }, {});
      txn.write(DB, COLL, '2', 'delete', {}, {});
      txn.write(DB, COLL, '9999', 'create', { data: { k: 'x' } }, {});
    });
    await manager.whenBuilt();
    const x = idsUnder('by_k', 'x');
    expect(x).toHaveLength(BUILD_BATCH_SIZE * 2 - 2 + 1);
    expect(x).not.toContain('1');
    expect(x).not.toContain('2');
    expect(new Set(x).size).toBe(x.length);
    expect(idsUnder('by_k', 'y')).toEqual(['1']);
  });

  it('builds a small source in the creating commit, active: true or not, and follows later writes', async () => {
    await createDocs(['x', 'x']);
    await createIndex('live', { active: true });
    expect(manager.lookup(DB, 'live')!.built).toBe(true);
    expect(idsUnder('live', 'x')).toEqual(['1', '2']);
    await createDocs(['x'], 10);
    await run((txn) => txn.write(DB, COLL, '1', 'update', { data: { k: 'y' } }, {}));
    expect(idsUnder('live', 'x')).toEqual(['2', '10']);
    await createIndex('plain');
    expect(manager.lookup(DB, 'plain')!.built).toBe(true);
    expect(idsUnder('plain', 'x')).toEqual(['2', '10']);
    await manager.whenBuilt();
    expect(store.getDocument(DB, 'indexes', 'plain', txns.lastTs)!.fields.active).toBe(true);
  });

  it('builds a source of more than 128 versions in the background, even with active: true', async () => {
    await createDocs(Array.from({ length: BUILD_AT_ONCE_VERSIONS }, () => 'x'));
    expect(buildsAtOnce(store, DB, definitionOf(indexFields('probe')))).toBe(true);
    await run((txn) => txn.write(DB, COLL, '1', 'update', { data: { k: 'x', again: true } }, {}));
    expect(buildsAtOnce(store, DB, definitionOf(indexFields('probe')))).toBe(false);
    await createIndex('big', { active: true });
    const index = manager.lookup(DB, 'big')!;
    expect(index.built).toBe(false);
    await manager.whenBuilt();
    expect(idsUnder('big', 'x')).toHaveLength(BUILD_AT_ONCE_VERSIONS);
    expect(store.getDocument(DB, 'indexes', 'big', txns.lastTs)!.fields.active).toBe(true);
  });

  it('builds an index of several source objects in the background', async () => {
    await createDocs(['x']);
    const source = [{ collection: people }, { collection: new Ref('others', new Ref('collections')) }];
    expect(buildsAtOnce(store, DB, definitionOf(indexFields('probe', { source })))).toBe(false);
    expect(buildsAtOnce(store, DB, definitionOf(indexFields('probe', { source: [{ collection: people }] })))).toBe(true);
  });

  it('keeps the same entries across a rename (the record moves, the internal id stays)', async () => {
    await createIndex('old', { active: true });
    await createDocs(['x', 'y']);
    const before = manager.lookup(DB, 'old')!;
    await run((txn) => {
      const record = txn.get(DB, 'indexes', 'old')!;
      txn.write(DB, 'indexes', 'old', 'delete', {}, record.hidden);
      txn.write(DB, 'indexes', 'new', 'create', { ...record.fields, name: 'new' }, record.hidden);
    });
    expect(manager.lookup(DB, 'old')).toBeUndefined();
    expect(manager.lookup(DB, 'new')).toBe(before);
    expect(before.name).toBe('new');
    expect(idsUnder('new', 'x')).toEqual(['1']);
    await createDocs(['x'], 5);
    expect(idsUnder('new', 'x')).toEqual(['1', '5']);
  });

  it('refuses a commit that would duplicate a unique entry, and commits nothing of it', async () => {
    await createIndex('uniq', { active: true, unique: true });
    await createDocs(['a']);
    await expect(createDocs(['a'], 2)).rejects.toMatchObject({ code: 'instance not unique' });
    expect(store.getDocument(DB, COLL, '2', txns.lastTs)).toBeUndefined();
    await expect(
      run((txn) => {
        txn.write(DB, COLL, '3', 'create', { data: { k: 'b' } }, {});
        txn.write(DB, COLL, '4', 'create', { data: { k: 'b' } }, {});
      }),
    ).rejects.toBeInstanceOf(QueryError);
    expect(idsUnder('uniq', 'b')).toEqual([]);
    await createDocs(['b'], 5);
    await expect(run((txn) => txn.write(DB, COLL, '5', 'update', { data: { k: 'a' } }, {}))).rejects.toMatchObject({
      code: 'instance not unique',
    });
    // Moving the existing entry away and another onto its old value in one commit is no conflict.
    await run((txn) => {
      txn.write(DB, COLL, '1', 'update', { data: { k: 'c' } }, {});
      txn.write(DB, COLL, '5', 'update', { data: { k: 'a' } }, {});
    });
    expect(idsUnder('uniq', 'a')).toEqual(['5']);
  });

  it('refuses a change of terms, values or partitions on the record', async () => {
    await createIndex('fixed', { active: true });
    const changes: ObjectValue[] = [{ terms: [{ field: ['data', 'other'] }] }, { values: [{ field: ['data', 'k'] }] }, { partitions: 2n }];
    for (const change of changes) {
      await expect(
        run((txn) => {
          const record = txn.get(DB, 'indexes', 'fixed')!;
          txn.write(DB, 'indexes', 'fixed', 'update', { ...record.fields, ...change }, record.hidden);
        }),
      ).rejects.toMatchObject({ code: 'validation failed' });
    }
    await run((txn) => {
      const record = txn.get(DB, 'indexes', 'fixed')!;
      txn.write(DB, 'indexes', 'fixed', 'update', { ...record.fields, unique: true }, record.hidden);
    });
    expect(manager.lookup(DB, 'fixed')!.fields.unique).toBe(true);
  });

  it('forgets a deleted index: no lookup by name or id, not listed, later writes do not reach it', async () => {
    await createIndex('gone', { active: true });
    await createDocs(['x']);
    const index = manager.lookup(DB, 'gone')!;
    await run((txn) => txn.write(DB, 'indexes', 'gone', 'delete', {}, txn.get(DB, 'indexes', 'gone')!.hidden));
    expect(manager.lookup(DB, 'gone')).toBeUndefined();
    expect(manager.byIndexId(DB, index.id)).toBeUndefined();
    expect(manager.indexesOf(DB)).toEqual([]);
    await createIndex('gone', { active: true, terms: [{ field: ['data', 'other'] }] });
    expect(manager.lookup(DB, 'gone')).not.toBe(index);
    expect(idsUnder('gone', 'x')).toEqual([]);
  });

  it('retires a deleted collection from an index naming others too: its documents leave, a namesake is not covered', async () => {
    const others = new Ref('others', new Ref('collections'));
    await run((txn) => txn.write(DB, 'collections', 'people', 'create', { name: 'people' }, {}));
    await createIndex('both', { active: true, source: [{ collection: people }, { collection: others }] });
    await createDocs(['x']);
    await run((txn) => txn.write(DB, 'collections/others', '7', 'create', { data: { k: 'x' } }, {}));
    expect(idsUnder('both', 'x')).toEqual(['1', '7']);
    await run((txn) => {
      txn.write(DB, COLL, '1', 'delete', {}, {});
      txn.write(DB, 'collections', 'people', 'delete', {}, {});
    });
    expect(idsUnder('both', 'x')).toEqual(['7']);
    await createDocs(['x'], 20);
    expect(idsUnder('both', 'x')).toEqual(['7']);
  });

  it('stops building an index deleted mid-build', async () => {
    await createDocs(Array.from({ length: BUILD_BATCH_SIZE * 3 }, () => 'x'));
    await createIndex('short_lived');
    const index = manager.lookup(DB, 'short_lived')!;
    await run((txn) => txn.write(DB, 'indexes', 'short_lived', 'delete', {}, txn.get(DB, 'indexes', 'short_lived')!.hidden));
    await manager.whenBuilt();
    expect(index.built).toBe(false);
    expect(store.getDocument(DB, 'indexes', 'short_lived', txns.lastTs)).toBeUndefined();
  });
});
