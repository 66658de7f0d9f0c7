// Resources a role names (DEC-045): every write of a role checks that its privileges and membership name resources of
// the role's database, and deleting one of them leaves the role's other privileges working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-impl/server.js';
import { queryServer, roleRef } from './role-fixture.js';

let server: RunningReferenceServer;

const query = (expr: unknown, secret?: string) => queryServer(server, expr, secret);
const adminOf = (database: string) => `${server.rootSecret}:${database}:admin`;
const roleNames = async () =>
  ((await query({ paginate: { roles: null }, size: 1000 })).body.resource.data as Array<{ '@ref': { id: string } }>).map(
    (ref) => ref['@ref'].id,
  );

const readable = (resource: unknown) => ({ object: { resource, actions: { object: { read: true } } } });
const role = (name: string, privileges: unknown[], membership?: unknown[]) => ({
  object: {
    name,
    privileges,
    ...(membership === undefined ? {} : { membership: membership.map((resource) => ({ object: { resource } })) }),
  },
});
const getNote = (collection: string) => ({ get: { ref: { collection }, id: '1' } });

/** The `failures` of a 400 `validation failed` answer. */
async function failuresOf(expr: unknown, secret?: string): Promise<unknown> {
  const { status, body } = await query(expr, secret);
  expect({ status, code: body.errors?.[0]?.code }).toEqual({ status: 400, code: 'validation failed' });
  return body.errors[0].failures.map(({ field, code, description }: Record<string, unknown>) => ({ field, code, description }));
}

const cannotRead = (field: unknown[]) => ({ field, code: 'invalid reference', description: 'Cannot read reference.' });

/** What the tests read of a created record (a role's, a key's). */
interface CreatedRecord {
  ref: unknown;
  privileges?: unknown;
  secret?: string;
}

async function created(expr: unknown, secret?: string): Promise<CreatedRecord> {
  const res = await query(expr, secret);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.resource;
}

/** Collections `notes` and `others`, each holding document 1, in the root database or a child. */
async function notesAndOthers(secret?: string): Promise<void> {
  for (const name of ['notes', 'others']) {
    await created({ create_collection: { object: { name } } }, secret);
    await created({ create: { ref: { collection: name }, id: '1' }, params: { object: { data: { object: { n: 1 } } } } }, secret);
  }
}

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  await notesAndOthers();
  await created({ create_index: { object: { name: 'all_notes', source: { collection: 'notes' } } } });
  await created({ create_database: { object: { name: 'kids' } } });
  await created({ create_collection: { object: { name: 'notes' } } }, adminOf('kids'));
});
afterAll(() => server.close());

describe('creating a role', () => {
  it('refuses privileges on a collection, index, function or document that does not exist, alone or next to existing ones, and stores nothing', async () => {
    const before = await roleNames();
    expect(await failuresOf({ create_role: role('r', [readable({ collection: 'notes' }), readable({ collection: 'nope' })]) })).toEqual([
      cannotRead(['privileges', '1', 'resource']),
    ]);
    expect(await failuresOf({ create_role: role('r', [readable({ index: 'nope' }), readable({ function: 'nope' })]) })).toEqual([
      cannotRead(['privileges', '0', 'resource']),
      cannotRead(['privileges', '1', 'resource']),
    ]);
    expect(await failuresOf({ create: { roles: null }, params: role('r', [readable({ role: 'nope' })]) })).toEqual([
      cannotRead(['privileges', '0', 'resource']),
    ]);
    expect(await failuresOf({ create_role: role('r', [readable({ ref: { collection: 'notes' }, id: '999' })]) })).toEqual([
      { field: ['privileges', '0', 'resource'], code: 'invalid reference', description: 'Reference was not found.' },
    ]);
    expect(await roleNames()).toEqual(before);
  });

  it('refuses a membership collection that does not exist', async () => {
    expect(
      await failuresOf({ create_role: role('r', [readable({ collection: 'notes' })], [{ collection: 'notes' }, { collection: 'nope' }]) }),
    ).toEqual([cannotRead(['membership', '1', 'resource'])]);
  });

  it('refuses a scoped resource, even when the scoped database has it', async () => {
    const scoped = { collection: 'notes', scope: { database: 'kids' } };
    const cannotBeScoped = (field: unknown[]) => ({ field, code: 'invalid reference', description: 'Reference cannot be scoped.' });
    expect(await failuresOf({ create_role: role('r', [readable(scoped)]) })).toEqual([cannotBeScoped(['privileges', '0', 'resource'])]);
    expect(await failuresOf({ create_role: role('r', [readable({ collection: 'notes' })], [scoped]) })).toEqual([
      cannotBeScoped(['membership', '0', 'resource']),
    ]);
  });

  it("accepts existing resources, including one created earlier in the same request, and reads a child's role against the child's resources", async () => {
    await created({
      create_role: role(
        'everything',
        [readable({ collection: 'notes' }), readable({ index: 'all_notes' }), readable({ collections: null })],
        [{ collection: 'notes' }],
      ),
    });
    const both = await query([
      { create_collection: { object: { name: 'fresh' } } },
      { create_role: role('fresh_readers', [readable({ collection: 'fresh' })]) },
    ]);
    expect(both.status).toBe(200);
    // Written in kids: its refs name kids' resources, and kids has notes but no others.
    await created({ create_role: role('kid_readers', [readable({ collection: 'notes' })]) }, adminOf('kids'));
    expect(await failuresOf({ create_role: role('kid_others', [readable({ collection: 'others' })]) }, adminOf('kids'))).toEqual([
      cannotRead(['privileges', '0', 'resource']),
    ]);
  });
});

describe('updating or replacing a role', () => {
  it('refuses new privileges or membership naming nothing, and leaves the role as it was', async () => {
    const record = await created({ create_role: role('editable', [readable({ collection: 'notes' })]) });
    expect(await failuresOf({ update: record.ref, params: role('editable', [readable({ collection: 'nope' })]) })).toEqual([
      cannotRead(['privileges', '0', 'resource']),
    ]);
    expect(
      await failuresOf({ replace: record.ref, params: role('editable', [readable({ collection: 'notes' })], [{ collection: 'nope' }]) }),
    ).toEqual([cannotRead(['membership', '0', 'resource'])]);
    // A ref that does not resolve is named by its path in the object as given (DEC-048), before the role is normalised.
    expect(await failuresOf({ update: record.ref, params: { object: { privileges: readable({ index: 'nope' }) } } })).toEqual([
      cannotRead(['privileges', 'resource']),
    ]);
    const stored = (await query({ get: record.ref })).body.resource;
    expect({ privileges: stored.privileges, membership: stored.membership }).toEqual({
      privileges: record.privileges,
      membership: undefined,
    });
  });
});

describe('deleting a collection a role names', () => {
  it('leaves the role granting its other privileges, and refuses Updates that keep the stale privilege', async () => {
    await created({ create_collection: { object: { name: 'doomed' } } });
    const record = await created({
      create_role: role('survivor', [readable({ collection: 'doomed' }), readable({ collection: 'notes' })]),
    });
    const key = await created({ create_key: { object: { role: roleRef('survivor') } } });
    expect((await query({ delete: { collection: 'doomed' } })).status).toBe(200);
    expect((await query(getNote('notes'), key.secret)).status).toBe(200);
    expect(await failuresOf({ update: record.ref, params: { object: { data: { object: { a: 1 } } } } })).toEqual([
      cannotRead(['privileges', '0', 'resource']),
    ]);
    expect((await query({ update: record.ref, params: { object: { privileges: [readable({ collection: 'notes' })] } } })).status).toBe(200);
    expect((await query(getNote('notes'), key.secret)).status).toBe(200);
  });
});
