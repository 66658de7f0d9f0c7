// The official v4 driver's q.At against the reference server (spec/requirements/functions-history.md): reads of
// documents and index sets at an earlier time, the driver's time values as the time, and refused writes.
import faunadb from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, expectBadRequest, firstServiceError, useDriverServer, type Doc } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

let created: Doc<{ tag: string; v: number }>;
let updated: Doc<{ tag: string; v: number }>;

beforeAll(async () => {
  // history_days is explicit so that reads at an earlier time are within retention.
  await createIndexedCollection(
    driver.client,
    { name: 'entries', history_days: 30 },
    {
      name: 'entries_by_tag',
      terms: [{ field: ['data', 'tag'] }],
      values: [{ field: ['data', 'v'] }],
    },
  );
  created = await driver.client.query(q.Create(q.Collection('entries'), { data: { tag: 'x', v: 1 } }));
  updated = await driver.client.query(q.Update(created.ref, { data: { v: 2 } }));
});

describe('q.At', () => {
  it('reads a document as of a ts given as an integer or as the driver time of it', async () => {
    const asInteger = await driver.client.query<Doc<{ v: number }>>(q.At(created.ts, q.Get(created.ref)));
    expect(asInteger.ts).toBe(created.ts);
    expect(asInteger.data.v).toBe(1);
    const asTime = await driver.client.query<Doc<{ v: number }>>(q.At(q.Epoch(updated.ts, 'microseconds'), q.Get(created.ref)));
    expect(asTime.data.v).toBe(2);
    expect(await driver.client.query(q.At(q.Epoch(created.ts - 1, 'microseconds'), q.Exists(created.ref)))).toBe(false);
  });

  it('pages an index set as of that time', async () => {
    const page = (ts: number) => q.Select('data', q.At(ts, q.Paginate(q.Match(q.Index('entries_by_tag'), 'x'))));
    expect(await driver.client.query([page(created.ts - 1), page(created.ts), page(updated.ts)])).toEqual([[], [1], [2]]);
  });

  it('answers instance not found for a document that did not exist yet', async () => {
    const error = await firstServiceError(driver.client.query(q.At(created.ts - 1, q.Get(created.ref))));
    expect(error).toMatchObject({ status: 404, code: 'instance not found', position: ['expr'] });
  });

  it('refuses writes at an earlier time and allows them at q.Now()', async () => {
    await expectBadRequest(
      driver.client.query(q.At(created.ts, q.Update(created.ref, { data: { v: 9 } }))),
      'invalid write time',
      'Cannot write outside of snapshot time.',
      ['expr'],
    );
    const written = await driver.client.query<Doc<{ v: number }>>(
      q.At(created.ts, q.At(q.Now(), q.Update(created.ref, { data: { v: 3 } }))),
    );
    expect(written.data.v).toBe(3);
  });

  it('refuses a time that is not one', async () => {
    await expectBadRequest(
      driver.client.query(q.At('yesterday', q.Get(created.ref))),
      'invalid argument',
      'Time expected, String provided.',
      ['at'],
    );
  });
});
