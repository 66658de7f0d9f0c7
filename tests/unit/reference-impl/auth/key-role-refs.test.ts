// A key's role refs (DEC-044): every write of a key checks that they name roles of the database the key acts in, and a
// key acts only with refs into `roles`, whatever else its stored `role` holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DATABASE } from '../../../../reference-impl/store/store.js';
import { startReferenceServer, type RunningReferenceServerWithParts } from '../../../../reference-impl/server.js';
import { Ref, type Value } from '../../../../reference-impl/values/value.js';
import { queryServer, readNotes, roleRef } from './role-fixture.js';

let server: RunningReferenceServerWithParts;

const query = (expr: unknown, secret?: string) => queryServer(server, expr, secret);
const adminOf = (database: string) => `${server.rootSecret}:${database}:admin`;
const getNote = { get: { ref: { collection: 'notes' }, id: '1' } };
const readersCollection = { '@ref': { id: 'readers', collection: { '@ref': { id: 'collections' } } } };
const keyCount = async () => ((await query({ paginate: { keys: null }, size: 1000 })).body.resource.data as unknown[]).length;

/** The `failures` of a 400 `validation failed` answer. */
async function failuresOf(expr: unknown): Promise<unknown> {
  const { status, body } = await query(expr);
  expect({ status, code: body.errors?.[0]?.code }).toEqual({ status: 400, code: 'validation failed' });
  return body.errors[0].failures.map(({ field, code }: { field: unknown; code: unknown }) => ({ field, code }));
}

async function createKey(params: Record<string, unknown>): Promise<{ secret: string; ref: { '@ref': { id: string } } }> {
  const created = await query({ create_key: { object: params } });
  expect(created.status).toBe(201);
  return created.body.resource;
}

/** A `notes` collection holding note 1 and a role `readers` that may read it, in the root database or a child. */
async function notesAndReaders(database?: string): Promise<void> {
  const secret = database === undefined ? undefined : adminOf(database);
  expect((await query({ create_collection: { object: { name: 'notes' } } }, secret)).status).toBe(201);
  expect(
    (await query({ create: { ref: { collection: 'notes' }, id: '1' }, params: { object: { data: { object: { n: 1 } } } } }, secret)).status,
  ).toBe(201);
  expect((await query({ create_role: readNotes('readers') }, secret)).status).toBe(201);
}

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  await notesAndReaders();
  // A collection named like the role: a ref to it must not stand for the role.
  expect((await query({ create_collection: { object: { name: 'readers' } } })).status).toBe(201);
  for (const child of ['kids', 'others']) {
    expect((await query({ create_database: { object: { name: child } } })).status).toBe(201);
    await notesAndReaders(child);
  }
  expect((await query({ create_role: readNotes('kid_readers') }, adminOf('kids'))).status).toBe(201);
});
afterAll(() => server.close());

describe('creating a key with role refs', () => {
  it('refuses a role that does not exist, alone or in a list, with CreateKey and with Create on keys, and stores nothing', async () => {
    const before = await keyCount();
    expect(await failuresOf({ create_key: { object: { role: roleRef('nobody') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(await failuresOf({ create: { keys: null }, params: { object: { role: roleRef('nobody') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(await failuresOf({ create_key: { object: { role: [roleRef('readers'), roleRef('nobody')] } } })).toEqual([
      { field: ['role', '1'], code: 'invalid reference' },
    ]);
    // A child's roles are not the root's: a key acting in the root database cannot name them.
    expect(await failuresOf({ create_key: { object: { role: roleRef('kid_readers') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(await keyCount()).toBe(before);
  });

  it('refuses a ref that is not a role, even to a collection named like one', async () => {
    expect(await failuresOf({ create_key: { object: { role: { collection: 'readers' } } } })).toEqual([
      { field: ['role'], code: 'invalid type' },
    ]);
    expect(await failuresOf({ create_key: { object: { role: [roleRef('readers'), readersCollection] } } })).toEqual([
      { field: ['role'], code: 'invalid type' },
    ]);
  });

  it('refuses a role that is neither a string nor a ref, alone or in a list, as the wrong type', async () => {
    for (const role of [5, true, { object: { name: 'readers' } }, [roleRef('readers'), 5]]) {
      expect(await failuresOf({ create_key: { object: { role } } })).toEqual([{ field: ['role'], code: 'invalid type' }]);
    }
  });

  it('accepts an empty role list: the key acts with no privileges', async () => {
    const key = await createKey({ role: [] });
    expect((await query({ select: ['role'], from: { get: key.ref } })).body.resource).toEqual([]);
    expect((await query(getNote, key.secret)).status).toBe(403);
  });

  it('refuses any database scope, even one naming the database the key acts in (DEC-048)', async () => {
    const scoped = (database: string) => ({ role: 'readers', scope: { database } });
    expect(await failuresOf({ create_key: { object: { role: scoped('others') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(await failuresOf({ create_key: { object: { database: { database: 'kids' }, role: scoped('kids') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(
      await failuresOf({ create_key: { object: { database: { database: 'kids' }, role: [roleRef('readers'), scoped('kids')] } } }),
    ).toEqual([{ field: ['role', '1'], code: 'invalid reference' }]);
  });

  it("acts with the child's role of the name for a key made for a child, which must resolve where the query runs too", async () => {
    const key = await createKey({ database: { database: 'kids' }, role: roleRef('readers') });
    expect((await query(getNote, key.secret)).status).toBe(200);
    // kid_readers exists in the child only: the ref does not resolve in the root database, where the query runs.
    expect(await failuresOf({ create_key: { object: { database: { database: 'kids' }, role: roleRef('kid_readers') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect((await query({ create_key: { object: { role: roleRef('kid_readers') } } }, adminOf('kids'))).status).toBe(201);
  });

  it('names a role made in the same request', async () => {
    const both = await query([{ create_role: readNotes('new_readers') }, { create_key: { object: { role: roleRef('new_readers') } } }]);
    expect(both.status).toBe(200);
    expect((await query(getNote, both.body.resource[1].secret)).status).toBe(200);
  });
});

describe('updating or replacing a key', () => {
  it('refuses a role ref that names no role, or a ref that is not a role, and leaves the key as it was', async () => {
    const key = await createKey({ role: roleRef('readers') });
    expect(await failuresOf({ update: key.ref, params: { object: { role: roleRef('nobody') } } })).toEqual([
      { field: ['role'], code: 'invalid reference' },
    ]);
    expect(await failuresOf({ replace: key.ref, params: { object: { role: [readersCollection] } } })).toEqual([
      { field: ['role'], code: 'invalid type' },
    ]);
    expect(await failuresOf({ update: key.ref, params: { object: { role: 'emperor' } } })).toEqual([
      { field: ['role'], code: 'invalid value' },
    ]);
    expect((await query({ select: ['role'], from: { get: key.ref } })).body.resource).toEqual(roleRef('readers'));
    expect((await query({ update: key.ref, params: { object: { role: [roleRef('readers')] } } })).status).toBe(200);
    expect((await query(getNote, key.secret)).status).toBe(200);
  });
});

describe('a stored key whose role holds refs that are not roles', () => {
  /** Rewrites a key's `role` as the store holds it, as a key written before role refs were validated would be. */
  async function storeRole(key: { ref: { '@ref': { id: string } } }, role: Value): Promise<void> {
    const id = key.ref['@ref'].id;
    await server.parts.transactions.run(async (txn) => {
      const version = txn.get(ROOT_DATABASE, 'keys', id)!;
      txn.write(ROOT_DATABASE, 'keys', id, 'update', { ...version.fields, role }, version.hidden);
    });
  }

  it('acts with no role named by them, alone or in a list', async () => {
    const readersRef = new Ref('readers', new Ref('collections'));
    const single = await createKey({ role: roleRef('readers') });
    const listed = await createKey({ role: [roleRef('readers')] });
    expect((await query(getNote, single.secret)).status).toBe(200);
    await storeRole(single, readersRef);
    await storeRole(listed, [readersRef]);
    // Dropped from the identity itself, so event sources the key creates (which keep role refs by id) carry none either.
    expect(server.parts.services.authenticator.authenticate(single.secret)?.roleRefs).toEqual([]);
    for (const secret of [single.secret, listed.secret]) {
      const denied = await query(getNote, secret);
      expect({ status: denied.status, code: denied.body.errors?.[0]?.code }).toEqual({ status: 403, code: 'permission denied' });
    }
  });
});
