// The official v4 driver's client.paginate(...) helper walks a multi-page set against the reference server:
// it resends each page's `after` cursor (with `@ref` literals) until the set is exhausted.
import faunadb from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

beforeAll(async () => {
  // Created active before the documents exist, so every later write is indexed at once.
  await createIndexedCollection(
    driver.client,
    { name: 'things' },
    { name: 'things_by_i', values: [{ field: ['data', 'i'] }, { field: ['ref'] }], active: true },
  );
  await driver.client.query(q.CreateIndex({ name: 'all_things', source: q.Collection('things'), active: true }));
  await driver.client.query(
    q.Map(
      Array.from({ length: 23 }, (_, i) => i),
      q.Lambda('i', q.Create(q.Collection('things'), { data: { i: q.Var('i') } })),
    ),
  );
});

describe('faunadb client.paginate', () => {
  it('walks every page of a ref set (after cursors resent as @ref literals) without gaps or repeats', async () => {
    const pages: faunadb.values.Ref[][] = [];
    await driver.client.paginate(q.Match(q.Index('all_things')), { size: 5 }).each((page) => {
      pages.push(page as faunadb.values.Ref[]);
    });
    expect(pages.length).toBe(5);
    const ids = pages.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(23);
    expect(ids).toEqual([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
  });

  it('walks a values index and maps each page with Get', async () => {
    const values: number[] = [];
    await driver.client
      .paginate(q.Match(q.Index('things_by_i')), { size: 4 })
      .map((entry) => q.Select(['data', 'i'], q.Get(q.Select(1, entry))))
      .each((page) => {
        values.push(...(page as number[]));
      });
    expect(values).toEqual(Array.from({ length: 23 }, (_, i) => i));
  });
});
