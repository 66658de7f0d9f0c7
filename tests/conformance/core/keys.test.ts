import { describe, expect } from 'vitest';
import { check, rootClient, useTenant } from '../../harness/index.js';
import {
  collection,
  createCollection,
  createDatabase,
  createDoc,
  createKey,
  database,
  expectedDatabaseRef,
  expectQueryError,
  expectRecord,
  NOT_FOUND,
  refPayload,
  txnTime,
} from '../../harness/v4.js';

const t = useTenant({ roles: ['admin', 'server'] });

describe('CreateKey', () => {
  check(['KEY-CREATE-001'], 'CreateKey with an admin key answers 201 with ref, ts, database, role, secret and hashed_secret', async () => {
    (await t.admin.query(createDatabase('app'))).expectStatus(201);
    const res = (await t.admin.query(createKey('app', 'server'))).expectStatus(201);
    const key = res.resource;
    expectRecord('key-created', key);
    expect(refPayload(key.ref).collection).toEqual({ '@ref': { id: 'keys' } });
    expect(key.ts).toBe(txnTime(res));
    expect(key.database).toEqual(expectedDatabaseRef('app'));
    expect(key.role).toBe('server');
    expect(typeof key.secret).toBe('string');
    expect(typeof key.hashed_secret).toBe('string');
  });

  check(['KEY-CREATE-006'], 'CreateKey given a name answers 201; the record and Get of it carry that name, or no name', async () => {
    const res = (await t.admin.query(createKey(undefined, 'server', { name: 'backend' }))).expectStatus(201);
    const got = (await t.admin.query({ get: res.resource.ref })).expectStatus(200).resource;
    for (const record of [res.resource, got]) if ('name' in record) expect(record.name, 'a name kept is the name given').toBe('backend');
    expect('name' in got, 'Get shows the name exactly when CreateKey answered it').toBe('name' in res.resource);
  });

  check(['KEY-CREATE-003'], 'CreateKey without database creates a key for the database of the calling key', async () => {
    const secret = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(201).resource.secret as string;
    (await t.as(secret).query(createCollection('made_by_own_db_key'))).expectStatus(201);
    // The tenant's own server key sees it: both keys act in the same database.
    expect((await t.server.query({ exists: collection('made_by_own_db_key') })).expectStatus(200).resource).toBe(true);
  });

  check(['KEY-CREATE-004'], 'CreateKey without role answers 400 validation failed', async () => {
    (await t.admin.query(createKey(undefined, undefined, { data: { object: { label: 'roleless' } } })))
      .expectStatus(400)
      .expectErrorCode('validation failed');
  });

  check(['KEY-CREATE-005'], 'CreateKey naming a database that does not exist answers a query error', async () => {
    expectQueryError(
      await t.admin.query(createKey('no_such_database', 'server')),
      [400, 'invalid ref'],
      [400, 'validation failed'],
      [404, 'instance not found'],
    );
  });
});

describe('Key roles', () => {
  check.each(['admin', 'server', 'client'] as const)(
    ['KEY-ROLE-001'],
    'CreateKey accepts role %s and the record repeats it',
    async (role) => {
      const key = (await t.admin.query(createKey(undefined, role))).expectStatus(201).resource;
      expect(key.role).toBe(role);
    },
  );

  check.each(['superuser', 'Server', ''])(['KEY-ROLE-002'], 'CreateKey with role "%s" answers 400 validation failed', async (role) => {
    (await t.admin.query(createKey(undefined, role))).expectStatus(400).expectErrorCode('validation failed');
  });

  check(
    ['KEY-ROLE-015'],
    'CreateKey with role server-readonly makes a key that reads as a server key and writes nothing, or answers 400 validation failed',
    async () => {
      (await t.server.query(createCollection('read_only_target'))).expectStatus(201);
      const doc = (await t.server.query(createDoc(collection('read_only_target'), { n: 1n }))).expectStatus(201).resource;
      const res = await t.admin.query(createKey(undefined, 'server-readonly'));
      if (res.status === 400) {
        res.expectErrorCode('validation failed');
        return;
      }
      const key = res.expectStatus(201).resource;
      expect(key.role).toBe('server-readonly');
      const readOnly = t.as(key.secret);
      expect((await readOnly.query({ get: doc.ref })).expectStatus(200).resource.data).toEqual({ n: 1n });
      (await readOnly.query(createDoc(collection('read_only_target'), { n: 2n }))).expectStatus(403).expectErrorCode('permission denied');
      (await readOnly.query({ update: doc.ref, params: { object: { data: { object: { n: 3n } } } } }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      (await readOnly.query(createCollection('not_by_read_only'))).expectStatus(403).expectErrorCode('permission denied');
      expect((await t.server.query({ get: doc.ref })).expectStatus(200).resource.data).toEqual({ n: 1n });
      expect((await t.server.query({ exists: collection('not_by_read_only') })).expectStatus(200).resource).toBe(false);
    },
  );

  check(['KEY-ROLE-003'], 'A server key can create collections and documents in its database', async () => {
    (await t.server.query(createCollection('by_server'))).expectStatus(201);
    (await t.server.query(createDoc(collection('by_server'), { ok: true }))).expectStatus(201);
  });

  check(['KEY-ROLE-003'], 'A server key can create indexes in its database', async () => {
    (await t.server.query(createCollection('indexed_by_server'))).expectStatus(201);
    const res = (
      await t.server.query({ create_index: { object: { name: 'by_server_index', source: { collection: 'indexed_by_server' } } } })
    ).expectStatus(201);
    expect(res.resource.name).toBe('by_server_index');
  });

  check(['KEY-ROLE-004'], 'A server key cannot create databases or keys: both answer 403 permission denied', async () => {
    (await t.server.query(createDatabase('not_by_server'))).expectStatus(403).expectErrorCode('permission denied');
    (await t.server.query(createKey(undefined, 'server'))).expectStatus(403).expectErrorCode('permission denied');
    // Nothing was half-created.
    expect((await t.admin.query({ exists: database('not_by_server') })).expectStatus(200).resource).toBe(false);
  });

  check(['KEY-ROLE-005'], 'An admin key can create keys and child databases of its database', async () => {
    (await t.admin.query(createDatabase('by_admin'))).expectStatus(201);
    const key = (await t.admin.query(createKey('by_admin', 'admin'))).expectStatus(201).resource;
    // The new admin key manages its own database in turn.
    (await t.as(key.secret).query(createDatabase('grandchild_by_admin'))).expectStatus(201);
    (await t.as(key.secret).query(createKey('grandchild_by_admin', 'server'))).expectStatus(201);
  });

  check(['KEY-ROLE-008'], 'The root secret acts as an admin key of the top-level database', async () => {
    const root = rootClient();
    const record = (await root.query({ get: database(t.name) })).expectStatus(200).resource;
    expect(record.ref).toEqual(expectedDatabaseRef(t.name));
    const key = (await root.query(createKey(t.name, 'server'))).expectStatus(201).resource;
    (await t.as(key.secret).query({ exists: collection('anything') })).expectStatus(200);
    (await root.query({ delete: key.ref })).expectStatus(200);
  });
});

describe('Key scope', () => {
  check(['KEY-SCOPE-003'], 'A key of database A cannot create a key for sibling database B', async () => {
    for (const name of ['sib_a', 'sib_b']) (await t.admin.query(createDatabase(name))).expectStatus(201);
    const a = t.as((await t.admin.query(createKey('sib_a', 'admin'))).expectStatus(201).resource.secret);
    expectQueryError(
      await a.query(createKey('sib_b', 'server')),
      [400, 'invalid ref'],
      [400, 'validation failed'],
      [404, 'instance not found'],
    );
    expectQueryError(await a.query({ get: database('sib_b') }), ...NOT_FOUND);
  });
});
