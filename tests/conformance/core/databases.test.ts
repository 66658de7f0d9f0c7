import { describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import {
  collection,
  createCollection,
  createDatabase,
  createDoc,
  createKey,
  database,
  docRef,
  expectedDatabaseRef,
  expectQueryError,
  expectRecord,
  NOT_FOUND,
  refPayload,
  txnTime,
  walkForward,
} from '../../harness/v4.js';

// One tenant per file: the harness names it after the file.
const t = useTenant({ roles: ['admin'] });

// The tests of the first two blocks write databases, collections and keys of names of their own, so they run at once.
// The listings compare two listings of the whole tenant, so they run one by one, after those (vitest runs a run of
// concurrent blocks to its end before the next block).
describe.concurrent('Database records', () => {
  check(
    ['DB-CREATE-001', 'DB-CREATE-002', 'DB-CREATE-005', 'DB-CREATE-007'],
    'CreateDatabase with an admin key answers 201 with ref (databases/<name>), ts = x-txn-time and the data given',
    async () => {
      const res = (await t.admin.query(createDatabase('created', { data: { team: 'core', size: 3n } }))).expectStatus(201);
      const record = res.resource;
      expectRecord('database', record);
      expect(record.ref).toEqual(expectedDatabaseRef('created'));
      expect(record.name).toBe('created');
      expect(typeof record.ts, 'ts is an integer').toBe('bigint');
      expect(record.ts).toBe(txnTime(res));
      expect(record.data).toEqual({ team: 'core', size: 3n });
    },
  );

  check(['DB-CREATE-003'], 'CreateDatabase without name answers 400 validation failed', async () => {
    (await t.admin.query({ create_database: { object: { data: { object: { a: 1n } } } } }))
      .expectStatus(400)
      .expectErrorCode('validation failed');
  });

  check(['DB-CREATE-004'], 'CreateDatabase with a name already used in the same parent answers 400 instance already exists', async () => {
    (await t.admin.query(createDatabase('twice'))).expectStatus(201);
    (await t.admin.query(createDatabase('twice'))).expectStatus(400).expectErrorCode('instance already exists');
  });

  check(['DB-GET-001'], 'Get of a database with an admin key of the parent answers the record CreateDatabase answered', async () => {
    const created = (await t.admin.query(createDatabase('fetched', { data: { n: 1n } }))).expectStatus(201).resource;
    const got = (await t.admin.query({ get: database('fetched') })).expectStatus(200).resource;
    expectRecord('database', got);
    expect(got.ref).toEqual(created.ref);
    expect(got.ts).toBe(created.ts);
    expect(got.name).toBe('fetched');
    expect(got.data).toEqual({ n: 1n });
  });

  check(['DB-GET-002'], 'Get of a database name that does not exist answers 404 instance not found or 400 invalid ref', async () => {
    expectQueryError(await t.admin.query({ get: database('never_created') }), ...NOT_FOUND);
  });

  check(
    ['DB-LIFE-001', 'DB-LIFE-006'],
    'Delete of a database answers the deleted record; Exists is true before and false after',
    async () => {
      const created = (await t.admin.query(createDatabase('doomed'))).expectStatus(201).resource;
      expect((await t.admin.query({ exists: database('doomed') })).expectStatus(200).resource).toBe(true);
      const deleted = (await t.admin.query({ delete: database('doomed') })).expectStatus(200).resource;
      expectRecord('database', deleted);
      expect(deleted.ref).toEqual(created.ref);
      expect(deleted.name).toBe('doomed');
      expect(deleted.ts).toBe(created.ts);
      expect((await t.admin.query({ exists: database('doomed') })).expectStatus(200).resource).toBe(false);
      expectQueryError(await t.admin.query({ get: database('doomed') }), ...NOT_FOUND);
    },
  );

  check(
    ['DB-LIFE-002', 'DB-LIFE-004'],
    'After a database is deleted, its keys and the keys of its child databases answer 401 unauthorized',
    async () => {
      (await t.admin.query(createDatabase('cut'))).expectStatus(201);
      const own = (await t.admin.query(createKey('cut', 'admin'))).expectStatus(201).resource.secret as string;
      const ownServer = (await t.admin.query(createKey('cut', 'server'))).expectStatus(201).resource.secret as string;
      (await t.as(own).query(createDatabase('inner'))).expectStatus(201);
      const inner = (await t.as(own).query(createKey('inner', 'server'))).expectStatus(201).resource.secret as string;
      // Every key works before the deletion, so a 401 afterwards can only come from the deletion.
      (await t.as(own).query(createCollection('alive'))).expectStatus(201);
      (await t.as(inner).query(createCollection('alive'))).expectStatus(201);
      expect((await t.as(ownServer).query({ exists: collection('alive') })).expectStatus(200).resource).toBe(true);

      (await t.admin.query({ delete: database('cut') })).expectStatus(200);
      for (const secret of [own, ownServer, inner]) {
        (await t.as(secret).query({ get: collection('alive') })).expectStatus(401).expectErrorCode('unauthorized');
      }
    },
  );

  check(
    ['DB-LIFE-005', 'DB-LIFE-002'],
    'A database created again with the name of a deleted one holds none of its collections, and the old keys stay dead',
    async () => {
      (await t.admin.query(createDatabase('reborn'))).expectStatus(201);
      const first = (await t.admin.query(createKey('reborn', 'server'))).expectStatus(201).resource.secret as string;
      (await t.as(first).query(createCollection('old'))).expectStatus(201);
      (await t.as(first).query(createDoc(docRef('old', '1'), { v: 1n }))).expectStatus(201);
      (await t.admin.query({ delete: database('reborn') })).expectStatus(200);

      (await t.admin.query(createDatabase('reborn'))).expectStatus(201);
      const second = (await t.admin.query(createKey('reborn', 'server'))).expectStatus(201).resource.secret as string;
      expect((await t.as(second).query({ exists: collection('old') })).expectStatus(200).resource).toBe(false);
      // A key of the deleted database does not open its namesake either.
      (await t.as(first).query({ exists: collection('old') })).expectStatus(401).expectErrorCode('unauthorized');
      expectQueryError(await t.as(second).query({ get: docRef('old', '1') }), ...NOT_FOUND);
      // The name is free again in the new database.
      (await t.as(second).query(createCollection('old'))).expectStatus(201);
    },
  );

  check(
    ['DB-LIFE-008'],
    'Update or Replace of a database with a field CreateDatabase refuses answers 400 validation failed and leaves the database unchanged',
    async () => {
      (await t.admin.query(createDatabase('kept_shape'))).expectStatus(201);
      const stored = (await t.admin.query({ get: database('kept_shape') })).expectStatus(200).resource;
      for (const fields of [{ data: 5n }, { name: 5n }, { name: 'bad name!' }]) {
        (await t.admin.query({ update: database('kept_shape'), params: { object: fields } }))
          .expectStatus(400)
          .expectErrorCode('validation failed');
      }
      (await t.admin.query({ replace: database('kept_shape'), params: { object: { name: 'kept_shape', data: 'x' } } }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await t.admin.query({ get: database('kept_shape') })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(['DB-LIFE-009'], 'Replace of a database without name keeps its name and replaces the rest', async () => {
    (await t.admin.query(createDatabase('replaced_db', { data: { a: 1n } }))).expectStatus(201);
    (await t.admin.query({ replace: database('replaced_db'), params: { object: { data: { object: { b: 2n } } } } })).expectStatus(200);
    const after = (await t.admin.query({ get: database('replaced_db') })).expectStatus(200).resource;
    expect([after.name, after.data]).toEqual(['replaced_db', { b: 2n }]);
  });

  check(['DB-LIFE-007'], 'Renaming a database keeps its content reachable through its existing keys', async () => {
    (await t.admin.query(createDatabase('before_rename'))).expectStatus(201);
    const secret = (await t.admin.query(createKey('before_rename', 'server'))).expectStatus(201).resource.secret as string;
    (await t.as(secret).query(createCollection('kept'))).expectStatus(201);
    (await t.as(secret).query(createDoc(docRef('kept', '7'), { v: 'still here' }))).expectStatus(201);

    const renamed = (await t.admin.query({ update: database('before_rename'), params: { object: { name: 'after_rename' } } })).expectStatus(
      200,
    ).resource;
    expect(renamed.name).toBe('after_rename');
    expect((await t.admin.query({ exists: database('after_rename') })).expectStatus(200).resource).toBe(true);
    const doc = (await t.as(secret).query({ get: docRef('kept', '7') })).expectStatus(200).resource;
    expect(doc.data).toEqual({ v: 'still here' });
  });
});

describe.concurrent('Child databases', () => {
  check(
    ['DB-CHILD-001', 'KEY-SCOPE-002'],
    'A key of a child database reaches the child and its content only, never its parent',
    async () => {
      (await t.admin.query(createCollection('parent_only'))).expectStatus(201);
      (await t.admin.query(createDatabase('kid'))).expectStatus(201);
      const kid = t.as((await t.admin.query(createKey('kid', 'admin'))).expectStatus(201).resource.secret);

      (await kid.query(createCollection('kid_only'))).expectStatus(201);
      expect((await kid.query({ exists: collection('kid_only') })).expectStatus(200).resource).toBe(true);
      // The collection lives in the child: the parent's own key does not see it.
      expect((await t.admin.query({ exists: collection('kid_only') })).expectStatus(200).resource).toBe(false);

      expectQueryError(await kid.query({ get: collection('parent_only') }), ...NOT_FOUND);
      expectQueryError(await kid.query({ get: database(t.name) }), ...NOT_FOUND);
      expectQueryError(await kid.query({ get: database('kid') }), ...NOT_FOUND);
    },
  );

  check(['DB-CHILD-002'], 'Databases created in a child database are invisible to a key of a sibling database', async () => {
    for (const name of ['left', 'right']) (await t.admin.query(createDatabase(name))).expectStatus(201);
    const left = t.as((await t.admin.query(createKey('left', 'admin'))).expectStatus(201).resource.secret);
    const right = t.as((await t.admin.query(createKey('right', 'admin'))).expectStatus(201).resource.secret);
    (await left.query(createDatabase('grandchild'))).expectStatus(201);

    expect((await left.query({ exists: database('grandchild') })).expectStatus(200).resource).toBe(true);
    expect((await right.query({ exists: database('grandchild') })).expectStatus(200).resource).toBe(false);
    expectQueryError(await right.query({ get: database('grandchild') }), ...NOT_FOUND);
    expectQueryError(await right.query({ get: database('left') }), ...NOT_FOUND);
  });

  check(
    ['DB-CHILD-004'],
    "An admin or server key reads its child database's documents through scoped refs, and writes none through them",
    async () => {
      (await t.admin.query(createDatabase('nursery'))).expectStatus(201);
      const nursery = t.as((await t.admin.query(createKey('nursery', 'server'))).expectStatus(201).resource.secret);
      (await nursery.query(createCollection('toys'))).expectStatus(201);
      const doc = (await nursery.query(createDoc(collection('toys'), { kind: 'kite' }))).expectStatus(201).resource;
      const id = refPayload(doc.ref).id;
      const server = t.as((await t.admin.query(createKey(undefined, 'server'))).expectStatus(201).resource.secret);
      const toys = { collection: 'toys', scope: { database: 'nursery' } };
      const scopedDoc = { ref: toys, id };
      const idsOf = (page: { data: unknown[] }) => page.data.map((ref) => refPayload(ref).id);
      for (const parent of [t.admin, server]) {
        expect((await parent.query({ get: scopedDoc })).expectStatus(200).resource.data).toEqual({ kind: 'kite' });
        expect((await parent.query({ exists: scopedDoc })).expectStatus(200).resource).toBe(true);
        expect(idsOf((await parent.query({ paginate: { documents: toys } })).expectStatus(200).resource)).toEqual([id]);
        expect(idsOf((await parent.query({ paginate: { collections: { database: 'nursery' } } })).expectStatus(200).resource)).toEqual([
          'toys',
        ]);
        (await parent.query({ update: scopedDoc, params: { object: { data: { object: { kind: 'drone' } } } } }))
          .expectStatus(400)
          .expectErrorCode('invalid argument');
      }
      expect((await nursery.query({ get: doc.ref })).expectStatus(200).resource.data).toEqual({ kind: 'kite' });
    },
  );

  check(
    ['DB-CHILD-003', 'KEY-SCOPE-001'],
    'Same-named collections in sibling databases are independent: a document of one is not found with a key of the other',
    async () => {
      for (const name of ['east', 'west']) (await t.admin.query(createDatabase(name))).expectStatus(201);
      const east = t.as((await t.admin.query(createKey('east', 'server'))).expectStatus(201).resource.secret);
      const west = t.as((await t.admin.query(createKey('west', 'server'))).expectStatus(201).resource.secret);
      for (const c of [east, west]) (await c.query(createCollection('shared_name'))).expectStatus(201);

      const doc = (await east.query(createDoc(collection('shared_name'), { side: 'east' }))).expectStatus(201).resource;
      const id = refPayload(doc.ref).id;
      expect((await east.query({ get: docRef('shared_name', id) })).expectStatus(200).resource.data).toEqual({ side: 'east' });
      expectQueryError(await west.query({ get: docRef('shared_name', id) }), ...NOT_FOUND);
      expectQueryError(await west.query({ get: doc.ref }), ...NOT_FOUND);
      expect((await west.query({ exists: doc.ref })).expectStatus(200).resource).toBe(false);
    },
  );
});

describe('Listings of databases, keys and schema records', () => {
  const NATIVES = ['collections', 'indexes', 'functions', 'roles', 'databases', 'keys'];
  const listing = (native: string) => ({ paginate: { [native]: null }, size: 1000n });

  check(
    ['DB-LIST-001'],
    'Paginate of collections, indexes, functions, roles, databases or keys with a client key answers 403 permission denied',
    async () => {
      (await t.admin.query(createCollection('listed_collection'))).expectStatus(201);
      const client = t.as((await t.admin.query(createKey(undefined, 'client'))).expectStatus(201).resource.secret);
      for (const native of NATIVES) (await client.query(listing(native))).expectStatus(403).expectErrorCode('permission denied');
    },
  );

  check(
    ['DB-LIST-003'],
    'Paginate of collections or databases lists each record once, in the same order every time and page by page',
    async () => {
      (await t.admin.query(createDatabase('ordered'))).expectStatus(201);
      const ordered = t.as((await t.admin.query(createKey('ordered', 'admin'))).expectStatus(201).resource.secret);
      // Created out of name order: the real service lists in creation order, another server may list by name.
      for (const name of ['zeta', 'alpha', 'mid', 'beta']) {
        (await ordered.query(createCollection(name))).expectStatus(201);
        (await ordered.query(createDatabase(name))).expectStatus(201);
      }
      for (const native of ['collections', 'databases']) {
        const whole = (await ordered.query(listing(native))).expectStatus(200).resource.data as unknown[];
        expect(whole.map((ref) => refPayload(ref).id).sort()).toEqual(['alpha', 'beta', 'mid', 'zeta']);
        expect((await ordered.query(listing(native))).expectStatus(200).resource.data).toEqual(whole);
        const paged = (await walkForward(ordered, { [native]: null }, 1)).flatMap((page) => page.data);
        expect(paged, `paging through ${native} one by one`).toEqual(whole);
      }
    },
  );

  check(
    ['DB-LIST-002'],
    'Paginate of keys or databases with a server key answers 403 permission denied, or every record the admin key lists',
    async () => {
      (await t.admin.query(createDatabase('listed_database'))).expectStatus(201);
      (await t.admin.query(createKey('listed_database', 'server'))).expectStatus(201);
      const server = t.as((await t.admin.query(createKey(undefined, 'server'))).expectStatus(201).resource.secret);
      for (const native of ['keys', 'databases']) {
        const all = (await t.admin.query(listing(native))).expectStatus(200).resource.data as unknown[];
        expect(all.length, `the admin key lists ${native}`).toBeGreaterThan(0);
        const res = await server.query(listing(native));
        if (res.status === 403) res.expectErrorCode('permission denied');
        else expect(res.expectStatus(200).resource.data, `the server key lists every one of the ${native} or is refused`).toEqual(all);
      }
    },
  );
});
