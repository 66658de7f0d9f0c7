// Once a database is deleted nothing can reach its contents again, so the store drops them, with its descendants',
// its indexes and its event history (DEC-073); a rename, which deletes the record under the old name, drops nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServerWithParts } from '../../../../reference-impl/server.js';
import { ROOT_DATABASE, type DatabaseId } from '../../../../reference-impl/store/store.js';
import { Transaction } from '../../../../reference-impl/txn/transaction.js';
import { queryServer } from '../auth/role-fixture.js';

let server: RunningReferenceServerWithParts;
const query = (expr: unknown, secret?: string) => queryServer(server, expr, secret);

/** `path` of database names from the root, as a scoped admin secret names it. */
const adminOf = (path: string) => `${server.rootSecret}:${path}:admin`;

/** The store's id of the database at `path` (names from the root, `/`-separated), as it is now. */
function databaseId(path: string): DatabaseId {
  const { store } = server.parts;
  const txn = new Transaction(store, store.lastCommitTs, true);
  let id = ROOT_DATABASE;
  for (const name of path.split('/')) {
    const found = txn.get(id, 'databases', name)?.hidden.databaseId;
    if (found === undefined) throw new Error(`no database ${path}`);
    id = found;
  }
  return id;
}

/** A database at `path` holding a collection, an index over it and three documents. */
async function filled(path: string): Promise<void> {
  const [parent, name] = path.includes('/')
    ? [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)]
    : [undefined, path];
  expect((await query({ create_database: { object: { name } } }, parent === undefined ? undefined : adminOf(parent))).status).toBe(201);
  const secret = adminOf(path);
  expect((await query({ create_collection: { object: { name: 'things' } } }, secret)).status).toBe(201);
  expect(
    (
      await query(
        {
          create_index: {
            object: { name: 'things_by_n', source: { collection: 'things' }, terms: [{ object: { field: ['data', 'n'] } }] },
          },
        },
        secret,
      )
    ).status,
  ).toBe(201);
  for (let n = 0; n < 3; n++)
    expect((await query({ create: { collection: 'things' }, params: { object: { data: { object: { n } } } } }, secret)).status).toBe(201);
}

function holdings(id: DatabaseId): { collections: number; indexes: number; events: number } {
  const { store, indexes, events } = server.parts;
  return { collections: store.database(id)?.orderedIds.size ?? 0, indexes: indexes.indexesOf(id).length, events: events.history.size(id) };
}

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  await filled('gone');
  await filled('gone/inner');
  await filled('kept');
  await filled('renamed');
});
afterAll(() => server.close());

describe('deleting a database', () => {
  it("drops its contents, its children's, their indexes and event history, and leaves other databases alone", async () => {
    const gone = databaseId('gone');
    const inner = databaseId('gone/inner');
    const kept = databaseId('kept');
    for (const id of [gone, inner, kept])
      expect(holdings(id)).toEqual({ collections: expect.any(Number), indexes: 1, events: expect.any(Number) });
    expect(holdings(inner).collections).toBeGreaterThan(0);
    const keptBefore = holdings(kept);
    const key = await query({ create_key: { object: { role: 'server' } } }, adminOf('gone'));
    expect(key.status).toBe(201);

    expect((await query({ delete: { database: 'gone' } })).status).toBe(200);

    expect(holdings(gone)).toEqual({ collections: 0, indexes: 0, events: 0 });
    expect(holdings(inner)).toEqual({ collections: 0, indexes: 0, events: 0 });
    expect(holdings(kept)).toEqual(keptBefore);
    expect((await query({ count: { match: { index: 'things_by_n' }, terms: 1 } }, adminOf('kept'))).body.resource).toBe(1);
    expect((await query({ get: { collection: 'things' } }, key.body.resource.secret)).status).toBe(401);
  });

  it('a new database of the same name starts empty and works', async () => {
    await filled('gone');
    expect((await query({ count: { documents: { collection: 'things' } } }, adminOf('gone'))).body.resource).toBe(3);
  });

  it('renaming drops nothing: the content stays reachable under the new name', async () => {
    const id = databaseId('renamed');
    const before = holdings(id);
    expect((await query({ update: { database: 'renamed' }, params: { object: { name: 'moved' } } })).status).toBe(200);
    expect(databaseId('moved')).toBe(id);
    expect(holdings(id)).toEqual(before);
    expect((await query({ count: { match: { index: 'things_by_n' }, terms: 2 } }, adminOf('moved'))).body.resource).toBe(1);
  });
});
