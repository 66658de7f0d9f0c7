// A key made in a parent database for a child (its `database` field) with a role ref of the child keeps acting with
// that role after the child renames it; keys for another child, and the parent's own keys, are left alone. So does a
// key the child made for itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-impl/server.js';
import { queryServer, readNotes, roleRef } from './role-fixture.js';

let server: RunningReferenceServer;

const query = (expr: unknown, secret?: string) => queryServer(server, expr, secret);

const adminOf = (database: string) => `${server.rootSecret}:${database}:admin`;
const getNote = { get: { ref: { collection: 'notes' }, id: '1' } };

/** A database with a `notes` collection holding note 1 and a role `readers` that may read it. */
async function databaseWithReaders(name: string): Promise<void> {
  expect((await query({ create_database: { object: { name } } })).status).toBe(201);
  expect((await query({ create_collection: { object: { name: 'notes' } } }, adminOf(name))).status).toBe(201);
  expect(
    (await query({ create: { ref: { collection: 'notes' }, id: '1' }, params: { object: { data: { object: { n: 1 } } } } }, adminOf(name)))
      .status,
  ).toBe(201);
  expect((await query({ create_role: readNotes('readers') }, adminOf(name))).status).toBe(201);
}

const roleOf = async (key: { ref: unknown }) => (await query({ select: ['role'], from: { get: key.ref } })).body.resource;

async function keyFor(database: string | undefined, role: unknown): Promise<{ secret: string; ref: unknown }> {
  const params = database === undefined ? { role } : { role, database: { database } };
  const created = await query({ create_key: { object: params } });
  expect(created.status).toBe(201);
  return created.body.resource;
}

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  await databaseWithReaders('kids');
  await databaseWithReaders('others');
  expect((await query({ create_collection: { object: { name: 'notes' } } })).status).toBe(201);
  expect((await query({ create_role: readNotes('readers') })).status).toBe(201);
});
afterAll(() => server.close());

describe('renaming a role in a child database', () => {
  it("points the parent's keys for that child at the new name, so they keep its privileges", async () => {
    const single = await keyFor('kids', roleRef('readers'));
    const listed = await keyFor('kids', [roleRef('readers')]);
    const otherChild = await keyFor('others', roleRef('readers'));
    const parentOwn = await keyFor(undefined, roleRef('readers'));
    expect((await query(getNote, single.secret)).status).toBe(200);

    expect((await query({ update: { role: 'readers' }, params: { object: { name: 'note_readers' } } }, adminOf('kids'))).status).toBe(200);

    expect(await roleOf(single)).toEqual(roleRef('note_readers'));
    expect(await roleOf(listed)).toEqual([roleRef('note_readers')]);
    expect((await query(getNote, single.secret)).status).toBe(200);
    expect((await query(getNote, listed.secret)).status).toBe(200);
    expect(await roleOf(otherChild)).toEqual(roleRef('readers'));
    expect(await roleOf(parentOwn)).toEqual(roleRef('readers'));
    expect((await query(getNote, otherChild.secret)).status).toBe(200);
  });
});

describe('renaming a role that keys of its own database name', () => {
  it('points those keys at the new name, so they keep its privileges; a scoped role ref cannot be written (DEC-048)', async () => {
    await databaseWithReaders('own');
    const keyInOwn = async (role: unknown): Promise<{ secret: string; ref: unknown }> => {
      const created = await query({ create_key: { object: { role } } }, adminOf('own'));
      expect(created.status).toBe(201);
      return created.body.resource;
    };
    const single = await keyInOwn(roleRef('readers'));
    const listed = await keyInOwn([roleRef('readers')]);
    const scoped = await query({
      create_key: { object: { database: { database: 'own' }, role: { role: 'readers', scope: { database: 'own' } } } },
    });
    expect({ status: scoped.status, codes: scoped.body.errors[0].failures.map((f: { code: string }) => f.code) }).toEqual({
      status: 400,
      codes: ['invalid reference'],
    });
    expect((await query(getNote, single.secret)).status).toBe(200);

    expect((await query({ update: { role: 'readers' }, params: { object: { name: 'note_readers' } } }, adminOf('own'))).status).toBe(200);

    const roleIn = async (key: { ref: unknown }) =>
      (await query({ select: ['role'], from: { get: key.ref } }, adminOf('own'))).body.resource;
    expect(await roleIn(single)).toEqual(roleRef('note_readers'));
    expect(await roleIn(listed)).toEqual([roleRef('note_readers')]);
    expect((await query(getNote, single.secret)).status).toBe(200);
    expect((await query(getNote, listed.secret)).status).toBe(200);
  });
});
