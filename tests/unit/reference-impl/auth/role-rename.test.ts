// A key created with a role ref keeps acting with that role after the role is renamed (the real service refers to a
// role by identity); keys with other roles are left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-impl/server.js';
import { queryServer, readNotes, roleRef } from './role-fixture.js';

let server: RunningReferenceServer;

const query = (expr: unknown, secret?: string) => queryServer(server, expr, secret);

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  expect((await query({ create_collection: { object: { name: 'notes' } } })).status).toBe(201);
  expect(
    (await query({ create: { ref: { collection: 'notes' }, id: '1' }, params: { object: { data: { object: { n: 1 } } } } })).status,
  ).toBe(201);
  expect((await query({ create_role: readNotes('readers') })).status).toBe(201);
  expect((await query({ create_role: readNotes('others') })).status).toBe(201);
});
afterAll(() => server.close());

describe('renaming a role', () => {
  it('points keys with a ref to it (alone or in a list) at the new name, so they keep its privileges', async () => {
    const single = (await query({ create_key: { object: { role: roleRef('readers') } } })).body.resource.secret as string;
    const listed = (await query({ create_key: { object: { role: [roleRef('others'), roleRef('readers')] } } })).body.resource
      .secret as string;
    const other = (await query({ create_key: { object: { role: roleRef('others') } } })).body.resource;
    const get = { get: { ref: { collection: 'notes' }, id: '1' } };
    expect((await query(get, single)).status).toBe(200);

    expect((await query({ update: { role: 'readers' }, params: { object: { name: 'note_readers' } } })).status).toBe(200);

    expect((await query(get, single)).status).toBe(200);
    expect((await query(get, listed)).status).toBe(200);
    const keys = (
      await query({
        map: { lambda: 'k', expr: { select: ['role'], from: { get: { var: 'k' } } } },
        collection: { paginate: { keys: null } },
      })
    ).body.resource.data;
    expect(keys).toContainEqual(roleRef('note_readers'));
    expect(keys).toContainEqual([roleRef('others'), roleRef('note_readers')]);
    expect(keys).not.toContainEqual(roleRef('readers'));
    expect((await query({ select: ['role'], from: { get: other.ref } })).body.resource).toEqual(roleRef('others'));
  });
});
