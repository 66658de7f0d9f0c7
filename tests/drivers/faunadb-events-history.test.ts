// The official v4 driver's q.Events against the reference server (spec/requirements/functions-history.md): a
// document's history as pages of events, walked with the driver's own page helper and with the cursors it decodes,
// and Paginate's events option.
import faunadb, { type values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadRequest, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

type Doc = { ref: values.Ref; ts: number };
type Event = { ts: number; action: string; document: values.Ref; data?: unknown };
type Page<T> = { before?: unknown; after?: unknown; data: T[] };

let created: Doc;
let updated: Doc;
/** The delete's transaction time (Delete answers the document as it was before). */
let deletedTs: number;

beforeAll(async () => {
  // history_days is explicit so that the whole history is within retention.
  await driver.client.query(q.CreateCollection({ name: 'notes', history_days: 30 }));
  created = await driver.client.query(q.Create(q.Collection('notes'), { data: { title: 'draft', tags: ['a'] } }));
  updated = await driver.client.query(q.Update(created.ref, { data: { title: 'final' } }));
  deletedTs = await driver.client.query(q.Do(q.Delete(created.ref), q.ToMicros(q.Now())));
});

function history(): Event[] {
  return [
    { ts: created.ts, action: 'create', document: created.ref, data: { title: 'draft', tags: ['a'] } },
    { ts: updated.ts, action: 'update', document: created.ref, data: { title: 'final' } },
    { ts: deletedTs, action: 'delete', document: created.ref, data: null },
  ];
}

describe('q.Events', () => {
  it("is a set value the driver decodes, and pages to the document's events", async () => {
    const set = await driver.client.query<values.SetRef>(q.Events(created.ref));
    expect(set).toBeInstanceOf(faunadb.values.SetRef);
    // The driver's typings declare a string payload; at run time it holds the decoded `@set` structure.
    expect((set as unknown as { value: unknown }).value).toEqual({ events: created.ref });
    const page = await driver.client.query<Page<Event>>(q.Paginate(q.Events(created.ref)));
    expect(page).toEqual({ data: history() });
  });

  it('walks pages with the cursors it answers, forward and back', async () => {
    const first = await driver.client.query<Page<Event>>(q.Paginate(q.Events(created.ref), { size: 1 }));
    expect(first.data).toEqual(history().slice(0, 1));
    expect(first.after).toEqual({ ts: updated.ts, action: 'update', document: created.ref });
    const second = await driver.client.query<Page<Event>>(q.Paginate(q.Events(created.ref), { size: 1, after: first.after }));
    expect(second.data).toEqual(history().slice(1, 2));
    const back = await driver.client.query<Page<Event>>(q.Paginate(q.Events(created.ref), { size: 1, before: second.before }));
    expect(back.data).toEqual(history().slice(0, 1));
  });

  it("is walked whole by the driver's page helper, and matches Paginate with events: true", async () => {
    const pages: Event[][] = [];
    await driver.client.paginate(q.Events(created.ref), { size: 2 }).each((page) => {
      pages.push(page as Event[]);
    });
    expect(pages).toEqual([history().slice(0, 2), history().slice(2)]);
    expect(await driver.client.query(q.Paginate(created.ref, { events: true }))).toEqual({ data: history() });
  });

  it('takes a ts, a driver time or a date as a cursor', async () => {
    const eventsAfter = (cursor: unknown) => q.Select('data', q.Paginate(q.Events(created.ref), { after: cursor }));
    const [asTs, asTime] = await driver.client.query<Event[][]>([
      eventsAfter(updated.ts),
      eventsAfter(q.Epoch(updated.ts, 'microseconds')),
    ]);
    expect(asTs).toEqual(history().slice(1));
    expect(asTime).toEqual(history().slice(1));
    expect(await driver.client.query(q.Select('data', q.Paginate(q.Events(created.ref), { before: q.Date('1970-01-02') })))).toEqual([]);
  });

  it('refuses what has no history', async () => {
    await expectBadRequest(driver.client.query(q.Events('notes')), 'invalid argument', 'Ref or Set expected, String provided.', ['events']);
    await expectBadRequest(
      driver.client.query(q.Paginate(q.Events(q.Events(created.ref)))),
      'invalid argument',
      'Set does not support events history.',
      ['paginate'],
    );
  });
});
