// The official v4 driver (default h2c transport) against the reference server.
import faunadb from 'faunadb';
import { describe, expect, it } from 'vitest';
import { useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

describe('faunadb 4.x driver against the reference server', () => {
  it('creates a database, a key, a collection and a document, then reads, updates and deletes it', async () => {
    const db = await driver.client.query<{ name: string }>(q.CreateDatabase({ name: 'driverdb' }));
    expect(db.name).toBe('driverdb');
    const key = await driver.client.query<{ secret: string; role: string }>(
      q.CreateKey({ database: q.Database('driverdb'), role: 'server' }),
    );
    expect(key.role).toBe('server');
    const inner = driver.clientFor(key.secret);
    try {
      const coll = await inner.query<{ name: string; history_days: number }>(q.CreateCollection({ name: 'widgets' }));
      expect(coll.name).toBe('widgets');
      const doc = await inner.query<{ ref: faunadb.values.Ref; ts: number; data: { n: number } }>(
        q.Create(q.Collection('widgets'), { data: { n: 1 } }),
      );
      expect(doc.data).toEqual({ n: 1 });
      expect(doc.ref.collection?.id).toBe('widgets');
      const got = await inner.query<{ data: { n: number } }>(q.Get(doc.ref));
      expect(got.data.n).toBe(1);
      const updated = await inner.query<{ data: { n: number; m: string } }>(q.Update(doc.ref, { data: { m: 'x' } }));
      expect(updated.data).toEqual({ n: 1, m: 'x' });
      await inner.query(q.Delete(doc.ref));
      expect(await inner.query(q.Exists(doc.ref))).toBe(false);
      await expect(inner.query(q.Get(doc.ref))).rejects.toBeInstanceOf(faunadb.errors.NotFound);
    } finally {
      inner.close?.();
    }
  });

  it('stores and returns data whose keys start with @ (sent as {"object": …}, answered as @obj)', async () => {
    await driver.client.query(q.CreateCollection({ name: 'tagged_keys' }));
    const data = { '@kind': 'note', nested: { '@label': 'x', plain: 1 } };
    const doc = await driver.client.query<{ ref: faunadb.values.Ref; data: typeof data }>(q.Create(q.Collection('tagged_keys'), { data }));
    expect(doc.data).toEqual(data);
    expect((await driver.client.query<{ data: typeof data }>(q.Get(doc.ref))).data).toEqual(data);
  });

  it('surfaces a bad secret as the driver Unauthorized error', async () => {
    const bad = driver.clientFor('not-a-secret');
    try {
      await expect(bad.query(q.Now())).rejects.toBeInstanceOf(faunadb.errors.Unauthorized);
    } finally {
      bad.close?.();
    }
  });
});
