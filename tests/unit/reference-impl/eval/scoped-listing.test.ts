// Listings read through a database scope (`Collections(Database("d"))`, `Documents(Collection("c", Database("d")))`)
// answer refs that keep the scope, so a listed ref sent back (as the v4 driver's Map/Get does) designates the same
// record. The child's records are written with a secret scoped to it: writes never take a scoped ref (DEC-050).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-impl/server.js';

let server: RunningReferenceServer;

// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
async function query(expr: unknown, secret = server.rootSecret): Promise<{ status: number; body: any }> {
  const res = await request(server.url, {
    method: 'POST',
    body: JSON.stringify(expr),
    headers: { authorization: `Bearer ${secret}`, 'x-faunadb-api-version': '4' },
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  return { status: res.statusCode, body: await res.body.json() };
}

const child = { database: 'child' };
const childRef = { '@ref': { id: 'child', collection: { '@ref': { id: 'databases' } } } };
const scopedCollection = { collection: 'notes', scope: child };
const scopedCollectionRef = { '@ref': { id: 'notes', collection: { '@ref': { id: 'collections' } }, database: childRef } };
const getEach = (set: unknown) => ({ map: { lambda: 'r', expr: { get: { var: 'r' } } }, collection: { paginate: set } });

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  expect((await query({ create_database: { object: { name: 'child' } } })).status).toBe(201);
  const inChild = `${server.rootSecret}:child:admin`;
  expect((await query({ create_collection: { object: { name: 'notes' } } }, inChild)).status).toBe(201);
  // The parent has no collection `notes`: a listed ref that lost its scope designates nothing.
  for (const n of [1, 2])
    expect((await query({ create: { collection: 'notes' }, params: { object: { data: { object: { n } } } } }, inChild)).status).toBe(201);
});
afterAll(() => server.close());

describe('listings through a database scope', () => {
  it('lists the collections of a child database as refs carrying that database, which Get reads back', async () => {
    const page = await query({ paginate: { collections: child } });
    expect(page.body.resource.data).toEqual([scopedCollectionRef]);
    const read = await query(getEach({ collections: child }));
    expect(read.status).toBe(200);
    expect(read.body.resource.data.map((record: { name: string }) => record.name)).toEqual(['notes']);
  });

  it('lists the documents of a scoped collection under the scoped collection ref, and pages on with the cursor it answered', async () => {
    const first = await query({ paginate: { documents: scopedCollection }, size: 1 });
    expect(first.body.resource.data[0]['@ref'].collection).toEqual(scopedCollectionRef);
    const second = await query({ paginate: { documents: scopedCollection }, size: 1, after: first.body.resource.after });
    expect(second.status).toBe(200);
    expect(second.body.resource.data).toEqual(first.body.resource.after);
    const read = await query(getEach({ documents: scopedCollection }));
    expect(read.status).toBe(200);
    expect(read.body.resource.data.map((doc: { data: { n: number } }) => doc.data.n)).toEqual([1, 2]);
  });
});
