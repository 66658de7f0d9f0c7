import { describe, expect, it } from 'vitest';
import { ROOT_DATABASE, Store, isExpired, type DocumentVersion } from '../../../../reference-impl/store/store.js';
import { Transaction } from '../../../../reference-impl/txn/transaction.js';
import { Time } from '../../../../reference-impl/values/value.js';

const USERS = 'collections/users';

/** A live version written at `ts` whose ttl is `ttlMicros` (none when undefined). */
function version(ts: bigint, ttlMicros?: bigint): DocumentVersion {
  return {
    ts,
    action: 'create',
    fields: ttlMicros === undefined ? { data: {} } : { data: {}, ttl: Time.fromMicros(ttlMicros) },
    hidden: {},
  };
}

function storeWith(docs: Record<string, DocumentVersion>, collection = USERS): Store {
  const store = new Store();
  for (const [id, after] of Object.entries(docs))
    store.commit([{ ts: after.ts, database: ROOT_DATABASE, writes: [{ collection, id, action: 'create', before: undefined, after }] }]);
  return store;
}

const ids = (walk: Iterable<[string, DocumentVersion]>) => [...walk].map(([id]) => id);

describe('document ttl (DEC-067)', () => {
  it('a user document is expired from its ttl on (inclusive), to the nanosecond', () => {
    const doc = version(1n, 100n);
    expect(isExpired(USERS, doc, 99n)).toBe(false);
    expect(isExpired(USERS, doc, 100n)).toBe(true);
    expect(isExpired(USERS, doc, 101n)).toBe(true);
    const oneNanoLater = { ...doc, fields: { ttl: new Time(100_001n) } };
    expect(isExpired(USERS, oneNanoLater, 100n)).toBe(false);
    expect(isExpired(USERS, version(1n), 10n ** 18n)).toBe(false);
  });

  it('key and token records are judged as documents are (AUTH-TOKEN-011); other native records are not', () => {
    expect(isExpired('tokens', version(1n, 5n), 10n)).toBe(true);
    expect(isExpired('keys', version(1n, 5n), 10n)).toBe(true);
    expect(isExpired('keys', version(1n, 50n), 10n)).toBe(false);
    expect(isExpired('collections', version(1n, 5n), 10n)).toBe(false);
  });

  it('collection walks leave out documents expired at expiresBy, which defaults to the walk time', () => {
    const store = storeWith({ '1': version(1n, 50n), '2': version(1n), '3': version(1n, 500n) });
    expect(ids(store.scanCollection(ROOT_DATABASE, USERS, 10n))).toEqual(['1', '2', '3']);
    expect(ids(store.scanCollection(ROOT_DATABASE, USERS, 100n))).toEqual(['2', '3']);
    expect(ids(store.scanCollection(ROOT_DATABASE, USERS, 10n, 1000n))).toEqual(['2']);
    expect(ids(store.walkCollection(ROOT_DATABASE, USERS, 100n, 'descending'))).toEqual(['3', '2']);
  });

  it('a past version with a ttl put in by a history insert is judged too, in a database that had no ttl before', () => {
    const store = storeWith({ '1': version(10n) });
    store.commit([
      {
        ts: 20n,
        database: ROOT_DATABASE,
        writes: [],
        historyEdits: [{ kind: 'insert', collection: USERS, id: '1', version: version(5n, 8n) }],
      },
    ]);
    expect(ids(store.scanCollection(ROOT_DATABASE, USERS, 6n, 100n))).toEqual([]);
    expect(ids(store.scanCollection(ROOT_DATABASE, USERS, 12n, 100n))).toEqual(['1']);
  });

  it('a walk of the tokens leaves out tokens with a past ttl; a walk of another native collection keeps its records', () => {
    const tokens = storeWith({ '1': version(1n, 5n), '2': version(1n) }, 'tokens');
    expect(ids(tokens.scanCollection(ROOT_DATABASE, 'tokens', 100n))).toEqual(['2']);
    const roles = storeWith({ '1': version(1n, 5n) }, 'roles');
    expect(ids(roles.scanCollection(ROOT_DATABASE, 'roles', 100n))).toEqual(['1']);
  });

  it('getDocument stays a raw read (writes need the expired version as their before)', () => {
    const store = storeWith({ '1': version(1n, 5n) });
    expect(store.getDocument(ROOT_DATABASE, USERS, '1', 100n)).toBeDefined();
  });

  it('a transaction misses expired documents, committed or its own, and At reads judge ttl at its own time', () => {
    const store = storeWith({ '1': version(1n, 50n), '2': version(1n) });
    const txn = new Transaction(store, 100n, false);
    expect(txn.get(ROOT_DATABASE, USERS, '1')).toBeUndefined();
    expect(txn.getAt(ROOT_DATABASE, USERS, '1', 10n)).toBeUndefined();
    expect(txn.get(ROOT_DATABASE, USERS, '2')).toBeDefined();
    txn.write(ROOT_DATABASE, USERS, '3', 'create', { data: {}, ttl: Time.fromMicros(100n) }, {});
    expect(txn.get(ROOT_DATABASE, USERS, '3')).toBeUndefined();
    expect(ids(txn.scan(ROOT_DATABASE, USERS))).toEqual(['2']);
    expect(store.mayHoldExpiringDocuments(ROOT_DATABASE)).toBe(true);
    expect(new Store().mayHoldExpiringDocuments(ROOT_DATABASE)).toBe(false);
  });
});
