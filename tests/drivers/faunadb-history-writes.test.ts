// The official v4 driver's q.Insert and q.Remove against the reference server
// (spec/requirements/functions-history-writes.md): events written into a document's past, read back with Get at a
// time, Events and an index, then removed again; refused arguments as the driver reports them.
import faunadb, { type values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, expectBadRequest, useDriverServer, type Doc } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

type Event = { ts: number; action: string; document: values.Ref; data: unknown };

beforeAll(async () => {
  await createIndexedCollection(
    driver.client,
    { name: 'ledger', history_days: 30 },
    {
      name: 'ledger_by_tag',
      terms: [{ field: ['data', 'tag'] }],
      values: [{ field: ['data', 'v'] }],
    },
  );
});

describe('q.Insert and q.Remove', () => {
  it('inserts past events with an integer or a driver time, and Get at those times reads them', async () => {
    const doc = await driver.client.query<Doc<{ tag: string; v: number }>>(
      q.Create(q.Collection('ledger'), { data: { tag: 'now', v: 2 } }),
    );
    const earlier = doc.ts - 60_000_000;
    const inserted = await driver.client.query<Event>(q.Insert(doc.ref, earlier, 'create', { data: { tag: 'then', v: 1 } }));
    expect(inserted.ts).toBe(earlier);
    expect(inserted.action).toBe('create');
    expect(inserted.document.id).toBe(doc.ref.id);
    expect(inserted.data).toEqual({ tag: 'then', v: 1 });
    const deleted = await driver.client.query<Event>(q.Insert(doc.ref, q.Epoch(earlier + 1, 'microseconds'), 'delete', {}));
    expect(deleted).toMatchObject({ ts: earlier + 1, action: 'delete', data: null });
    expect((await driver.client.query<Doc<{ v: number }>>(q.Get(doc.ref, earlier))).data.v).toBe(1);
    expect(await driver.client.query(q.At(earlier + 1, q.Exists(doc.ref)))).toBe(false);
    const events = await driver.client.query<{ data: Event[] }>(q.Paginate(q.Events(doc.ref)));
    expect(events.data.map((e) => e.ts)).toEqual([earlier, earlier + 1, doc.ts]);

    expect(await driver.client.query(q.Remove(doc.ref, earlier + 1, 'delete'))).toBeNull();
    expect(await driver.client.query(q.Remove(doc.ref, earlier, 'create'))).toBeNull();
    expect((await driver.client.query<{ data: Event[] }>(q.Paginate(q.Events(doc.ref)))).data.map((e) => e.ts)).toEqual([doc.ts]);
  });

  it("an event at the newest version's time replaces it, for Get and the index", async () => {
    const doc = await driver.client.query<Doc<{ tag: string; v: number }>>(
      q.Create(q.Collection('ledger'), { data: { tag: 'old', v: 3 } }),
    );
    await driver.client.query(q.Insert(doc.ref, doc.ts, 'update', { data: { tag: 'new', v: 4 } }));
    expect((await driver.client.query<Doc<unknown>>(q.Get(doc.ref))).data).toEqual({ tag: 'new', v: 4 });
    expect((await driver.client.query<{ data: number[] }>(q.Paginate(q.Match(q.Index('ledger_by_tag'), 'new')))).data).toEqual([4]);
    expect((await driver.client.query<{ data: number[] }>(q.Paginate(q.Match(q.Index('ledger_by_tag'), 'old')))).data).toEqual([]);
  });

  it('reports refused arguments and a time in the future', async () => {
    const doc = await driver.client.query<Doc<unknown>>(q.Create(q.Collection('ledger'), { data: {} }));
    await expectBadRequest(
      driver.client.query(q.Insert(doc.ref, doc.ts, 'modify', {})),
      'invalid argument',
      "String 'create', 'update', or 'delete' expected, String provided.",
      ['action'],
    );
    await expectBadRequest(
      driver.client.query(q.Remove(q.Collection('ledger'), doc.ts, 'create')),
      'invalid argument',
      'Cannot remove event for specified ref.',
      [],
    );
    await expectBadRequest(
      driver.client.query(q.Insert(doc.ref, q.TimeAdd(q.Now(), 1, 'hour'), 'create', {})),
      'invalid write time',
      'Cannot write outside of snapshot time.',
      [],
    );
  });
});
