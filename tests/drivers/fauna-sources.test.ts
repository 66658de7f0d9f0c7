// The official v10 driver `fauna` 2.x against the reference server's event-source surface
// (spec/fql-subset.md, spec/requirements/event-sources.md, events.md, feeds.md, streams.md): every source form
// of the FQL subset built through `fql` fragments and `arguments`, the driver's feed and stream options and
// iterators, its decoding of typed event data, its error classes, and the query headers it sends.
import {
  AuthenticationError,
  type Client,
  DateStub,
  Document,
  DocumentReference,
  type DocumentT,
  fql,
  InvalidRequestError,
  Module,
  Page,
  QueryCheckError,
  QueryRuntimeError,
  ServiceError,
  StreamToken,
  ThrottlingError,
  TimeStub,
  type FeedClientConfiguration,
  type Query,
  type QueryValue,
  type QueryOptions,
  type StreamEventData,
  type StreamEventStatus,
} from 'fauna';
import { describe, expect, it } from 'vitest';
import {
  EVENT_DEADLINE_MS,
  failureOf,
  faunaClient,
  readStream,
  type StreamEvent,
  useFaunaServer,
  v4Query,
  withDeadline,
} from './fauna-client.js';
import { startDriverServer } from './driver-server.js';

const fauna = useFaunaServer();
let collections = 0;

type AnyEvent = StreamEvent<QueryValue>;

/** The values the typed-values test writes, as the driver decodes them with numbers for longs. */
type TypedValues = {
  at: TimeStub;
  day: DateStub;
  small: number;
  negative: number;
  big: number;
  huge: number;
  half: number;
  whole: number;
  blob: Uint8Array;
  link: DocumentReference;
  nested: { list: [number, { deep: TimeStub }, number[]] };
};

/** A v4 query of the file's server, or of the one `url` names. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
function v4(expr: unknown, secret = fauna.server.rootSecret, url = fauna.server.url): Promise<any> {
  return v4Query(url, secret, expr);
}

/** A new user collection per test, so no test sees another's writes. */
async function freshCollection(): Promise<string> {
  collections += 1;
  const name = `Src${collections}`;
  await v4({ create_collection: { object: { name } } });
  return name;
}

interface Written {
  id: string;
  ts: number;
}

async function create(collection: string, data: Record<string, unknown>): Promise<Written> {
  const doc = await v4({ create: { collection }, params: { object: { data: { object: data } } } });
  return { id: String(doc.ref['@ref'].id), ts: Number(doc.ts) };
}

function refOf(collection: string, id: string): unknown {
  return { ref: { collection }, id };
}

async function update(collection: string, id: string, data: Record<string, unknown>): Promise<Written> {
  const doc = await v4({ update: refOf(collection, id), params: { object: { data: { object: data } } } });
  return { id, ts: Number(doc.ts) };
}

async function remove(collection: string, id: string): Promise<void> {
  await v4({ delete: refOf(collection, id) });
}

async function source(query: Query<StreamToken>, options?: QueryOptions, on: Client = fauna.client): Promise<StreamToken> {
  const res = await on.query<StreamToken>(query, options);
  expect(res.data).toBeInstanceOf(StreamToken);
  return res.data;
}

/** Every event of a feed from its start to the last page, through the driver's page iterator. */
async function feedEvents(
  token: StreamToken | Query<StreamToken>,
  options: Partial<FeedClientConfiguration> = {},
  on: Client = fauna.client,
): Promise<StreamEventData<QueryValue>[]> {
  const out: StreamEventData<QueryValue>[] = [];
  for await (const page of on.feed(token, options)) out.push(...page.events);
  return out;
}

/** The driver's service error `run` throws; a failure if it throws another, succeeds or takes longer than the deadline. */
async function serviceFailureOf(run: () => Promise<unknown>): Promise<ServiceError> {
  const error = await failureOf(run);
  if (error instanceof ServiceError) return error;
  throw error;
}

/** A collection or index name as query text (a nested fragment of one text piece), as if written in the query. */
function named(name: string): Query<QueryValue> {
  return fql([name]);
}

function ids(events: StreamEventData<QueryValue>[]): string[] {
  return events.map((event) => (event.data as Document).id);
}

function typesAndIds(events: StreamEventData<QueryValue>[]): string[] {
  return events.map((event) => `${event.type}:${(event.data as Document).id}`);
}

describe('fauna 2.x driver: event sources of every form of the FQL subset', () => {
  it('Coll.all().eventSource() yields, from its creation on, add, update and remove events whose data the driver decodes as its Document', async () => {
    const coll = await freshCollection();
    await create(coll, { n: 0 });
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const a = await create(coll, { n: 1 });
    await update(coll, a.id, { n: 2 });
    await remove(coll, a.id);
    const events = await feedEvents(token);
    expect(events.map((e) => e.type)).toEqual(['add', 'update', 'remove']);
    const [added, updated, removed] = events.map((e) => e.data as DocumentT<{ n: number }>);
    expect(added).toBeInstanceOf(Document);
    expect(added!.id).toBe(a.id);
    expect(added!.coll).toBeInstanceOf(Module);
    expect(added!.coll.name).toBe(coll);
    expect(added!.ts).toBeInstanceOf(TimeStub);
    expect(added!.n).toBe(1);
    expect(updated!.n).toBe(2);
    // A delete's remove event describes the last version (EVT-REMOVE-001).
    expect(removed!.n).toBe(2);
    expect(removed!.id).toBe(a.id);
  });

  it('where() with interpolated string, integer, double, boolean and null values keeps only the matching documents', async () => {
    const coll = await freshCollection();
    const token = await source(
      fql`${named(coll)}.where(.color == ${'red'} && .n >= ${2} && .w < ${2.5} && .ok == ${true} && .gone == ${null}).eventSource()`,
    );
    const match = await create(coll, { color: 'red', n: 2, w: 1.5, ok: true });
    await create(coll, { color: 'blue', n: 2, w: 1.5, ok: true });
    await create(coll, { color: 'red', n: 1, w: 1.5, ok: true });
    await create(coll, { color: 'red', n: 2, w: 3.5, ok: true });
    await create(coll, { color: 'red', n: 2, w: 1.5, ok: false });
    await create(coll, { color: 'red', n: 2, w: 1.5, ok: true, gone: 'here' });
    expect(ids(await feedEvents(token))).toEqual([match.id]);
  });

  it('where() compares with interpolated TimeStub, JS Date and DateStub values', async () => {
    const coll = await freshCollection();
    const token = await source(
      fql`${named(coll)}.where(.at > ${TimeStub.from('2024-01-01T00:00:00Z')} && .at < ${new Date('2025-01-01T00:00:00Z')} && .day == ${DateStub.from('2024-06-14')}).eventSource()`,
    );
    const match = await create(coll, { at: { '@ts': '2024-06-14T04:52:31.415639Z' }, day: { '@date': '2024-06-14' } });
    await create(coll, { at: { '@ts': '2023-06-14T00:00:00Z' }, day: { '@date': '2024-06-14' } });
    await create(coll, { at: { '@ts': '2025-06-14T00:00:00Z' }, day: { '@date': '2024-06-14' } });
    await create(coll, { at: { '@ts': '2024-06-14T00:00:00Z' }, day: { '@date': '2024-06-15' } });
    // A string that looks like the time is not a time: order between types is false.
    await create(coll, { at: '2024-06-14T04:52:31Z', day: { '@date': '2024-06-14' } });
    expect(ids(await feedEvents(token))).toEqual([match.id]);
  });

  it('where() compares with interpolated bigint (@long) and Uint8Array (@bytes) values', async () => {
    const coll = await freshCollection();
    const token = await source(
      fql`${named(coll)}.where(.huge == ${9007199254740993n} && .blob == ${new Uint8Array([1, 2, 3])}).eventSource()`,
    );
    const match = await v4(
      `{"create":{"collection":"${coll}"},"params":{"object":{"data":{"object":{"huge":9007199254740993,"blob":{"@bytes":"AQID"}}}}}}`,
    );
    await v4(
      `{"create":{"collection":"${coll}"},"params":{"object":{"data":{"object":{"huge":9007199254740992,"blob":{"@bytes":"AQID"}}}}}}`,
    );
    await v4(
      `{"create":{"collection":"${coll}"},"params":{"object":{"data":{"object":{"huge":9007199254740993,"blob":{"@bytes":"AQIE"}}}}}}`,
    );
    expect(ids(await feedEvents(token))).toEqual([String(match.ref['@ref'].id)]);
  });

  it('where() compares with interpolated array and object values (array and object fragments)', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.where(.tags == ${['a', 1]} && .meta == ${{ k: 'v', depth: { d: 2 } }}).eventSource()`);
    const match = await create(coll, { tags: ['a', 1], meta: { object: { k: 'v', depth: { object: { d: 2 } } } } });
    await create(coll, { tags: ['a', 2], meta: { object: { k: 'v', depth: { object: { d: 2 } } } } });
    await create(coll, { tags: ['a', 1], meta: { object: { k: 'v', depth: { object: { d: 3 } } } } });
    expect(ids(await feedEvents(token))).toEqual([match.id]);
  });

  it('a nested fql fragment is spliced into the predicate', async () => {
    const coll = await freshCollection();
    const predicate = fql`.n > ${10}`;
    const token = await source(fql`${named(coll)}.where(${predicate} && .n < ${20}).eventSource()`);
    const match = await create(coll, { n: 15 });
    await create(coll, { n: 5 });
    await create(coll, { n: 25 });
    expect(ids(await feedEvents(token))).toEqual([match.id]);
  });

  it('query arguments of several types are variables of the query', async () => {
    const coll = await freshCollection();
    const args = { color: 'red', min: 3, since: TimeStub.from('2024-01-01T00:00:00Z'), allowed: ['x', 'y'] };
    const token = await source(
      fql`${named(coll)}.where(.color == color && .n >= min && .at > since && .kind == allowed[1]).eventSource()`,
      { arguments: args },
    );
    const match = await create(coll, { color: 'red', n: 3, at: { '@ts': '2024-02-01T00:00:00Z' }, kind: 'y' });
    await create(coll, { color: 'red', n: 2, at: { '@ts': '2024-02-01T00:00:00Z' }, kind: 'y' });
    await create(coll, { color: 'red', n: 3, at: { '@ts': '2023-02-01T00:00:00Z' }, kind: 'y' });
    await create(coll, { color: 'red', n: 3, at: { '@ts': '2024-02-01T00:00:00Z' }, kind: 'x' });
    expect(ids(await feedEvents(token))).toEqual([match.id]);
  });

  it('a user index set Coll.<index>(term) tracks the documents with that term and ignores changes outside its fields', async () => {
    const coll = await freshCollection();
    const index = `${coll.toLowerCase()}_by_color`;
    await v4({
      create_index: {
        object: {
          name: index,
          source: { collection: coll },
          terms: [{ object: { field: ['data', 'color'] } }],
          values: [{ object: { field: ['data', 'n'] } }],
          active: true,
        },
      },
    });
    const token = await source(fql`${named(coll)}.${named(index)}(${'red'}).eventSource()`);
    const red = await create(coll, { color: 'red', n: 1, note: 'a' });
    await create(coll, { color: 'blue', n: 1 });
    await update(coll, red.id, { note: 'b' });
    await update(coll, red.id, { n: 2 });
    await update(coll, red.id, { color: 'blue' });
    expect(typesAndIds(await feedEvents(token))).toEqual([`add:${red.id}`, `update:${red.id}`, `remove:${red.id}`]);
  });

  it('Set.single() over an interpolated DocumentReference or Document tracks only that document', async () => {
    const coll = await freshCollection();
    const target = await create(coll, { n: 1 });
    const other = await create(coll, { n: 1 });
    const token = await source(fql`Set.single(${new DocumentReference({ coll, id: target.id })}).eventSource()`);
    await update(coll, other.id, { n: 2 });
    await update(coll, target.id, { n: 2 });
    const events = await feedEvents(token);
    expect(typesAndIds(events)).toEqual([`update:${target.id}`]);
    // The Document the driver decoded goes back as a reference when interpolated.
    const again = await source(fql`Set.single(${events[0]!.data as Document}).eventsOn(.n)`);
    await update(coll, target.id, { n: 3 });
    await update(coll, other.id, { n: 3 });
    expect(typesAndIds(await feedEvents(again))).toEqual([`update:${target.id}`]);
  });

  it('Set.single(Coll.byId(id)) accepts the id as an interpolated string', async () => {
    const coll = await freshCollection();
    const target = await create(coll, { n: 1 });
    const token = await source(fql`Set.single(${named(coll)}.byId(${target.id})).eventSource()`);
    await create(coll, { n: 1 });
    await update(coll, target.id, { n: 3 });
    expect(typesAndIds(await feedEvents(token))).toEqual([`update:${target.id}`]);
  });

  it('map() and a projection make event data a plain object, not a Document', async () => {
    const coll = await freshCollection();
    const mapped = await source(fql`${named(coll)}.all().map(w => { label: w.color, twice: [w.n, w.n] }).eventSource()`);
    const projected = await source(fql`${named(coll)}.all() { color, size: .dims.w, dims { h } }.eventSource()`);
    await create(coll, { color: 'red', n: 4, dims: { object: { w: 2, h: 3 } } });
    const [m] = await feedEvents(mapped);
    const [p] = await feedEvents(projected);
    expect(m!.data).not.toBeInstanceOf(Document);
    expect(m!.data).toEqual({ label: 'red', twice: [4, 4] });
    expect(p!.data).not.toBeInstanceOf(Document);
    expect(p!.data).toEqual({ color: 'red', size: 2, dims: { h: 3 } });
  });

  it('eventsOn(.field) emits only for changes of that field, where eventSource() emits for every change', async () => {
    const coll = await freshCollection();
    const on = await source(fql`${named(coll)}.all().eventsOn(.price)`);
    const every = await source(fql`${named(coll)}.all().eventSource()`);
    const doc = await create(coll, { price: 1, name: 'a' });
    await update(coll, doc.id, { name: 'b' });
    await update(coll, doc.id, { price: 2 });
    expect((await feedEvents(on)).map((e) => e.type)).toEqual(['add', 'update']);
    expect((await feedEvents(on)).map((e) => (e.data as DocumentT<{ price: number }>).price)).toEqual([1, 2]);
    expect((await feedEvents(every)).map((e) => e.type)).toEqual(['add', 'update', 'update']);
  });

  it('where() on the event source filters its events; toStream() and changesOn() are accepted aliases', async () => {
    const coll = await freshCollection();
    const filtered = await source(fql`${named(coll)}.all().eventSource().where(.n > ${1})`);
    const aliased = await source(fql`${named(coll)}.all().toStream()`);
    const aliasedOn = await source(fql`${named(coll)}.all().changesOn(.n)`);
    await create(coll, { n: 1 });
    const big = await create(coll, { n: 2 });
    expect(ids(await feedEvents(filtered))).toEqual([big.id]);
    expect(await feedEvents(aliased)).toHaveLength(2);
    expect(await feedEvents(aliasedOn)).toHaveLength(2);
  });

  it('two runs of the same source query give different tokens (ESRC-TOKEN-002)', async () => {
    const coll = await freshCollection();
    const one = await source(fql`${named(coll)}.all().eventSource()`);
    const two = await source(fql`${named(coll)}.all().eventSource()`);
    expect(one.token).not.toBe(two.token);
  });
});

describe('fauna 2.x driver: feed options and page iteration', () => {
  it('page_size bounds every page, and the page iterator reads every event once in order across pages', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const written: string[] = [];
    for (let i = 0; i < 7; i += 1) written.push((await create(coll, { n: i })).id);
    const pages: { size: number; hasNext: boolean }[] = [];
    const seen: string[] = [];
    for await (const page of fauna.client.feed(token, { page_size: 3 })) {
      const events = [...page.events];
      pages.push({ size: events.length, hasNext: page.hasNext });
      seen.push(...ids(events));
      expect(typeof page.cursor).toBe('string');
      // Feed stats are event stats (FEED-PAGE-008), not the query stats the driver's type names.
      const stats = page.stats as Record<string, unknown> | undefined;
      for (const field of ['read_ops', 'storage_bytes_read', 'compute_ops', 'processing_time_ms'])
        expect(Number.isInteger(stats?.[field])).toBe(true);
    }
    expect(pages).toEqual([
      { size: 3, hasNext: true },
      { size: 3, hasNext: true },
      { size: 1, hasNext: false },
    ]);
    expect(seen).toEqual(written);
  });

  it('flatten() yields the events of all pages, with ascending txn_ts', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const written: Written[] = [];
    for (let i = 0; i < 5; i += 1) written.push(await create(coll, { n: i }));
    const events: StreamEventData<QueryValue>[] = [];
    for await (const event of fauna.client.feed(token, { page_size: 2 }).flatten()) events.push(event);
    expect(ids(events)).toEqual(written.map((w) => w.id));
    // Each event's txn_ts is its write's ts (EVT-FIELD-007).
    expect(events.map((e) => e.txn_ts)).toEqual(written.map((w) => w.ts));
  });

  it('without page_size a page holds at most 16 events', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    await v4(Array.from({ length: 18 }, (_, n) => ({ create: { collection: coll }, params: { object: { data: { object: { n } } } } })));
    const first = await fauna.client.feed(token).nextPage();
    expect([...first.events]).toHaveLength(16);
    expect(first.hasNext).toBe(true);
  });

  it('start_ts returns only events committed after it (exclusive)', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    await create(coll, { n: 0 });
    const middle = await create(coll, { n: 1 });
    const last = await create(coll, { n: 2 });
    expect(ids(await feedEvents(token, { start_ts: middle.ts }))).toEqual([last.id]);
  });

  it('cursor of an event resumes right after that event; the cursor is shared with an identical query', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const written: string[] = [];
    for (let i = 0; i < 4; i += 1) written.push((await create(coll, { n: i })).id);
    const all = await feedEvents(token);
    expect(ids(await feedEvents(token, { cursor: all[1]!.cursor }))).toEqual(written.slice(2));
    const twin = await source(fql`${named(coll)}.all().eventSource()`);
    expect(ids(await feedEvents(twin, { cursor: all[0]!.cursor }))).toEqual(written.slice(1));
  });

  it('an empty poll has no events, no next page, and a cursor that later polls resume from', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const empty = await fauna.client.feed(token).nextPage();
    expect([...empty.events]).toEqual([]);
    expect(empty.hasNext).toBe(false);
    const later = await create(coll, { n: 1 });
    expect(ids(await feedEvents(token, { cursor: empty.cursor }))).toEqual([later.id]);
  });

  it('feed() accepts the source query itself and runs it for the token', async () => {
    const coll = await freshCollection();
    const feed = fauna.client.feed(fql`${named(coll)}.all().eventSource()`);
    const first = await feed.nextPage();
    expect([...first.events]).toEqual([]);
    expect(first.hasNext).toBe(false);
    const doc = await create(coll, { n: 1 });
    // A new feed of an identical query resumes from the page cursor (ESRC-TOKEN-004).
    expect(ids(await feedEvents(fql`${named(coll)}.all().eventSource()`, { cursor: first.cursor }))).toEqual([doc.id]);
  });

  it('a start_ts before the source was created returns the changes after it, also those made before the source (FEED-REQ-009)', async () => {
    const coll = await freshCollection();
    const before = await create(coll, { n: 0 });
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const after = await create(coll, { n: 1 });
    expect(typesAndIds(await feedEvents(token, { start_ts: before.ts - 1 }))).toEqual([`add:${before.id}`, `add:${after.id}`]);
  });
});

describe('fauna 2.x driver: stream options, status events and close()', () => {
  it('with status_events the first event is status (txn_ts and cursor, no data), then replayed and live events', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const replayed = await create(coll, { n: 1 });
    let live: Written | undefined;
    const stream = fauna.client.stream(token, { status_events: true });
    const events = await readStream(
      stream,
      (seen) => seen.length === 3,
      async (_event, seen) => {
        if (seen.length === 2) live = await create(coll, { n: 2 });
      },
    );
    const [status, first, second] = events as [StreamEventStatus, StreamEventData<QueryValue>, StreamEventData<QueryValue>];
    expect(status.type).toBe('status');
    expect(typeof status.txn_ts).toBe('number');
    expect(typeof status.cursor).toBe('string');
    expect('data' in status).toBe(false);
    expect(typesAndIds([first, second])).toEqual([`add:${replayed.id}`, `add:${live!.id}`]);
    expect(second.txn_ts).toBe(live!.ts);
    expect(stream.last_ts).toBe(live!.ts);
  });

  it('without status_events the driver hides status events and yields data events only', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const doc = await create(coll, { n: 1 });
    const events = await readStream(fauna.client.stream(token), (seen) => seen.length === 1);
    expect(events.map((e) => e.type)).toEqual(['add']);
    expect(((events[0] as StreamEventData<QueryValue>).data as Document).id).toBe(doc.id);
  });

  it('the cursor option resumes after that event, starting with a new status event; a feed cursor works on a stream', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const written: string[] = [];
    for (let i = 0; i < 3; i += 1) written.push((await create(coll, { n: i })).id);
    const [first] = await feedEvents(token, { page_size: 1 });
    const events = await readStream(
      fauna.client.stream(token, { cursor: first!.cursor, status_events: true }),
      (seen) => seen.length === 3,
    );
    expect(events[0]!.type).toBe('status');
    expect(ids(events.slice(1) as StreamEventData<QueryValue>[])).toEqual(written.slice(1));
  });

  it('stream() accepts the source query itself; changes before the stream start are replayed', async () => {
    const coll = await freshCollection();
    const stream = fauna.client.stream(fql`${named(coll)}.where(.n > ${0}).eventSource()`, { status_events: true });
    let doc: Written | undefined;
    const events = await readStream(
      stream,
      (seen) => seen.length === 2,
      async (event) => {
        if (event.type === 'status') {
          await create(coll, { n: 0 });
          doc = await create(coll, { n: 1 });
        }
      },
    );
    expect(typesAndIds(events.slice(1) as StreamEventData<QueryValue>[])).toEqual([`add:${doc!.id}`]);
  });

  it('close() gives the stream slot back to the server (DEC-043): with one slot, a second stream is refused only while the first is open', async () => {
    const limited = await startDriverServer(['--max-streams-per-secret', '1']);
    const own = faunaClient(limited.url, limited.rootSecret);
    try {
      await v4({ create_collection: { object: { name: 'Slot' } } }, limited.rootSecret, limited.url);
      const token = (await own.query<StreamToken>(fql`Slot.all().eventSource()`)).data;
      const first = own.stream(token, { status_events: true });
      const events = first[Symbol.asyncIterator]();
      // The status event means the server has opened the stream.
      const status = await withDeadline(events.next());
      expect(status.value?.type).toBe('status');
      const refused = await serviceFailureOf(() => readStream(own.stream(token), () => true));
      expect(refused).toBeInstanceOf(ThrottlingError);
      expect(refused.code).toBe('limit_exceeded');
      first.close();
      await withDeadline(events.return(undefined));
      expect(first.closed).toBe(true);
      // The server frees the slot when it sees the reset; poll with a deadline for a stream that opens.
      const deadline = Date.now() + EVENT_DEADLINE_MS;
      let reopened: AnyEvent[] | undefined;
      while (reopened === undefined) {
        try {
          reopened = await readStream(own.stream(token, { status_events: true }), (seen) => seen.length === 1);
        } catch (error) {
          if (!(error instanceof ThrottlingError) || Date.now() > deadline) throw error;
        }
      }
      expect(reopened.map((e) => e.type)).toEqual(['status']);
    } finally {
      own.close();
      await limited.kill();
    }
  });
});

describe('fauna 2.x driver: typed values in event data', () => {
  it('v4 Time, Date, integers, longs, doubles, bytes, refs and nested objects/arrays decode to the driver types', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const other = await create(coll, { n: 0 });
    // Verbatim JSON: 2.0 must stay a double and 2^53+1 an exact long.
    const body = `{"create":{"collection":"${coll}"},"params":{"object":{"data":{"object":{
      "at":{"@ts":"2024-06-14T04:52:31.415639Z"},"day":{"@date":"2024-06-14"},
      "small":7,"negative":-2147483648,"big":1099511627776,"huge":9007199254740993,
      "half":1.5,"whole":2.0,"blob":{"@bytes":"AQID"},
      "link":{"ref":{"collection":"${coll}"},"id":"${other.id}"},
      "nested":{"object":{"list":[1,{"object":{"deep":{"@ts":"2024-01-01T00:00:00Z"}}},[2.5]]}}}}}}}`;
    await v4(body);
    const events = await feedEvents(token, {}, fauna.client);
    const data = events[1]!.data as DocumentT<TypedValues>;
    expect(data.at).toBeInstanceOf(TimeStub);
    expect(data.at.isoString).toBe('2024-06-14T04:52:31.415639Z');
    expect(data.day).toBeInstanceOf(DateStub);
    expect(data.day.dateString).toBe('2024-06-14');
    expect(data.small).toBe(7);
    expect(data.negative).toBe(-2147483648);
    expect(data.big).toBe(1099511627776);
    expect(data.half).toBe(1.5);
    expect(data.whole).toBe(2);
    expect(data.blob).toEqual(new Uint8Array([1, 2, 3]));
    expect(data.link).toBeInstanceOf(DocumentReference);
    expect(data.link).not.toBeInstanceOf(Document);
    expect(data.link.id).toBe(other.id);
    expect(data.link.coll.name).toBe(coll);
    expect(data.nested.list[0]).toBe(1);
    expect(data.nested.list[1].deep).toBeInstanceOf(TimeStub);
    expect(data.nested.list[2]).toEqual([2.5]);

    const bigints = faunaClient(fauna.server.url, fauna.server.rootSecret, { long_type: 'bigint' });
    try {
      const exact = (await feedEvents(token, {}, bigints))[1]!.data as DocumentT<{
        huge: bigint;
        big: bigint;
        small: number;
        negative: number;
      }>;
      // @long comes back as bigint, @int stays a number: the server tags each by range.
      expect(exact.huge).toBe(9007199254740993n);
      expect(exact.big).toBe(1099511627776n);
      expect(exact.small).toBe(7);
      expect(exact.negative).toBe(-2147483648);
    } finally {
      bigints.close();
    }
  });
});

describe('fauna 2.x driver: errors', () => {
  it('a query that does not parse is a QueryCheckError (invalid_query, 400), the position in its summary (FQL-SYNTAX-001)', async () => {
    const coll = await freshCollection();
    const error = await serviceFailureOf(() => fauna.client.query(fql`${named(coll)}.all(.eventSource()`));
    expect(error).toBeInstanceOf(QueryCheckError);
    expect(error.code).toBe('invalid_query');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe('The query failed 1 validation check');
    expect(error.queryInfo?.summary).toMatch(/^error: .*\nat \*query\*:1:\d+\n/);
    expect(typeof error.queryInfo?.txn_ts).toBe('number');
  });

  it('an unknown collection is a QueryRuntimeError (unbound_variable); a set without an event source answers a page (FQL-ERR-002, DEC-150)', async () => {
    const coll = await freshCollection();
    const error = await serviceFailureOf(() => fauna.client.query(fql`NoSuchCollection.all().eventSource()`));
    expect(error).toBeInstanceOf(QueryRuntimeError);
    expect(error.code).toBe('unbound_variable');
    await create(coll, { n: 2 });
    const page = await fauna.client.query<Page<QueryValue>>(fql`${named(coll)}.where(.n > ${1})`);
    expect(page.data).toBeInstanceOf(Page);
    expect(page.data.data).toHaveLength(1);
  });

  it('another set method before eventSource() is a QueryRuntimeError with code invalid_receiver', async () => {
    const coll = await freshCollection();
    const error = await serviceFailureOf(() => fauna.client.query(fql`${named(coll)}.all().drop(1).eventSource()`));
    expect(error).toBeInstanceOf(QueryRuntimeError);
    expect(error).not.toBeInstanceOf(QueryCheckError);
    expect(error.code).toBe('invalid_receiver');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('drop');
  });

  it('a bad secret is an AuthenticationError on query, feed and stream', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const bad = faunaClient(fauna.server.url, 'not-a-secret');
    try {
      const onQuery = await serviceFailureOf(() => bad.query(fql`${named(coll)}.all().eventSource()`));
      const onFeed = await serviceFailureOf(() => bad.feed(token).nextPage());
      const onStream = await serviceFailureOf(() => readStream(bad.stream(token), () => true));
      for (const error of [onQuery, onFeed, onStream]) {
        expect(error).toBeInstanceOf(AuthenticationError);
        expect(error.code).toBe('unauthorized');
        expect(error.httpStatus).toBe(401);
      }
    } finally {
      bad.close();
    }
  });

  it('a forged token is an InvalidRequestError on feed and stream', async () => {
    const forged = new StreamToken('g9WD1YPG2gE2RnJ1aXQAAAAAAAAA');
    const onFeed = await serviceFailureOf(() => fauna.client.feed(forged).nextPage());
    const onStream = await serviceFailureOf(() => readStream(fauna.client.stream(forged), () => true));
    for (const error of [onFeed, onStream]) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.code).toBe('invalid_request');
      expect(error.httpStatus).toBe(400);
    }
  });

  it('a token used with a key of another database is an InvalidRequestError on feed (ESRC-TOKEN-005)', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.all().eventSource()`);
    const db = `other_${coll.toLowerCase()}`;
    await v4({ create_database: { object: { name: db } } });
    const key = await v4({ create_key: { object: { database: { database: db }, role: 'server' } } });
    const elsewhere = faunaClient(fauna.server.url, key.secret);
    try {
      const error = await serviceFailureOf(() => elsewhere.feed(token).nextPage());
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.httpStatus).toBe(400);
    } finally {
      elsewhere.close();
    }
  });

  it('a predicate error while processing events is an error event: the driver throws QueryRuntimeError from the feed page', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.where(.n > 0 && .box.size > 1).eventSource()`);
    const ok = await create(coll, { n: 1, box: { object: { size: 2 } } });
    await create(coll, { n: 1 });
    const page = await fauna.client.feed(token).nextPage();
    const seen: string[] = [];
    const error = await serviceFailureOf(async () => {
      for (const event of page.events) seen.push((event.data as Document).id);
    });
    expect(seen).toEqual([ok.id]);
    expect(error).toBeInstanceOf(QueryRuntimeError);
    expect(error.code).toBe('invalid_null_access');
    expect(error.httpStatus).toBeUndefined();
  });

  it('a predicate that is not boolean is an invalid_type error event: the driver stream throws QueryRuntimeError and closes', async () => {
    const coll = await freshCollection();
    const token = await source(fql`${named(coll)}.where(.n).eventSource()`);
    await create(coll, { n: 5 });
    const stream = fauna.client.stream(token);
    const error = await serviceFailureOf(() => readStream(stream, () => false));
    expect(error).toBeInstanceOf(QueryRuntimeError);
    expect(error.code).toBe('invalid_type');
    expect(error.httpStatus).toBeUndefined();
    expect(stream.closed).toBe(true);
  });
});

describe('fauna 2.x driver: query options sent as headers', () => {
  it('query_tags are accepted and echoed: the driver hands them back as an object', async () => {
    const coll = await freshCollection();
    const res = await fauna.client.query<StreamToken>(fql`${named(coll)}.all().eventSource()`, {
      query_tags: { team: 'search', build: '42' },
    });
    expect(res.data).toBeInstanceOf(StreamToken);
    expect(res.query_tags).toEqual({ team: 'search', build: '42' });
  });

  it('traceparent, typecheck, linearized, max_contention_retries, query_timeout_ms and performance_hints are accepted', async () => {
    const coll = await freshCollection();
    const options: QueryOptions[] = [
      { traceparent: '00-750efa5fb6a131eb2cf4db39f28366cb-000000000000000b-00' },
      { typecheck: true },
      { typecheck: false },
      { linearized: true },
      { max_contention_retries: 3 },
      { query_timeout_ms: 60_000 },
      { performance_hints: true },
    ];
    for (const option of options) {
      const token = await source(fql`${named(coll)}.all().eventSource()`, option);
      const doc = await create(coll, { n: 1 });
      expect(ids(await feedEvents(token))).toEqual([doc.id]);
    }
  });

  it('format simple answers the token as a bare string that the driver can use as an event source', async () => {
    const coll = await freshCollection();
    const res = await fauna.client.query<string>(fql`${named(coll)}.all().eventSource()`, { format: 'simple' });
    expect(typeof res.data).toBe('string');
    const doc = await create(coll, { n: 1 });
    expect(ids(await feedEvents(new StreamToken(res.data)))).toEqual([doc.id]);
  });

  it('the x-last-txn-ts the driver sends after a query does not break the next query', async () => {
    const coll = await freshCollection();
    const fresh = faunaClient(fauna.server.url, fauna.server.rootSecret);
    try {
      await fresh.query(fql`${named(coll)}.all().eventSource()`);
      expect(typeof fresh.lastTxnTs).toBe('number');
      fresh.lastTxnTs = fresh.lastTxnTs! + 1_000_000_000;
      const res = await fresh.query<StreamToken>(fql`${named(coll)}.all().eventSource()`);
      expect(res.data).toBeInstanceOf(StreamToken);
    } finally {
      fresh.close();
    }
  });
});
