// The official v10 driver `fauna` 2.x against FQL v10 on the reference server (profile fql10, DEC-150, DEC-151):
// what the driver's own integration tests (fauna/fauna-js __tests__/integration feed, stream and query tests) do,
// written here — setting up a child database with `if`/`Database.byName`/`Database.create`, collections recreated with
// `Collection.byName(…)!.delete()`, writes through `Set.sequence(…).forEach(…)`, feeds and streams whose `map` aborts,
// calls an unknown function or builds times, dates, documents and longs, the error classes of run-time errors, and
// sets paginated by the driver.
import {
  AbortError,
  ClientError,
  Client,
  ConstraintFailureError,
  DateStub,
  Document,
  type DocumentT,
  fql,
  Page,
  QueryCheckError,
  QueryRuntimeError,
  QueryTimeoutError,
  StreamToken,
  TimeStub,
  type StreamEventData,
} from 'fauna';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, faunaClient, readStream, useFaunaServer } from './fauna-client.js';

const CHILD = 'DriverV10DB';

const fauna = useFaunaServer();
let child: Client;
let childSecret: string;
let collections = 0;

beforeAll(async () => {
  // As the driver's tests set up: the child database only when it is missing, then a secret scoped to it.
  for (let i = 0; i < 2; i++) {
    await fauna.client.query(fql`
      if (Database.byName(${CHILD}) == null) {
        Database.create({ name: ${CHILD} })
      }
    `);
  }
  childSecret = `${fauna.server.rootSecret}:${CHILD}:admin`;
  child = faunaClient(fauna.server.url, childSecret, { long_type: 'number' });
});

afterAll(async () => {
  child.close();
});

/** A collection made as the driver's tests make theirs: deleted first when it is there. */
async function freshCollection(): Promise<string> {
  collections += 1;
  const name = `V10Test${collections}`;
  for (let i = 0; i < 2; i++) {
    await child.query(fql`
      if (Collection.byName(${name}) != null) {
        Collection.byName(${name})!.delete()
      }
    `);
    await child.query(fql([`Collection.create({ name: "${name}" });`]));
  }
  return name;
}

/** What the map of the decoding test builds for each document, longs as the client's long_type says. */
type Built<Long> = { time: TimeStub; date: DateStub; doc: Document; bigInt: Long };

describe('fauna 2.x driver: FQL v10 queries', () => {
  it('evaluates expressions, let, if/else and functions, and decodes the values', async () => {
    const res = await child.query<{ n: number; label: string; at: TimeStub; day: DateStub; list: (number | string)[] }>(fql`
      let double = (x) => x * 2
      let label = if (${3} > 2) "big" else "small"
      { n: double(21), label: label, at: Time("2024-01-02T00:00:00Z"), day: Date("2024-01-02"), list: [1, 2.5, "a"] }
    `);
    expect(res.data.n).toBe(42);
    expect(res.data.label).toBe('big');
    expect(res.data.at).toBeInstanceOf(TimeStub);
    expect(res.data.day).toBeInstanceOf(DateStub);
    expect(res.data.list).toEqual([1, 2.5, 'a']);
    expect(typeof res.txn_ts).toBe('number');
    expect(typeof res.summary).toBe('string');
  });

  it('answers documents as Documents, and reads, updates and deletes them', async () => {
    const coll = await freshCollection();
    const created = await child.query<Document>(fql([`${coll}.create({ value: 1 })`]));
    expect(created.data).toBeInstanceOf(Document);
    expect(created.data.id).toMatch(/^\d+$/);
    const updated = await child.query<DocumentT<{ value: number; extra: boolean }>>(
      fql([`${coll}.byId("${created.data.id}")!.update({ value: 2, extra: true })`]),
    );
    expect(updated.data.value).toBe(2);
    expect(updated.data.extra).toBe(true);
    await child.query(fql([`${coll}.all().forEach(d => d.delete())`]));
    expect((await child.query<boolean>(fql([`${coll}.byId("${created.data.id}").exists()`]))).data).toBe(false);
  });

  it('pages a set through the driver, following the cursors', async () => {
    const coll = await freshCollection();
    await child.query(fql([`Set.sequence(0, 40).forEach(v => ${coll}.create({ value: v }));`]));
    const first = await child.query<Page<Document>>(fql([`${coll}.all()`]));
    expect(first.data).toBeInstanceOf(Page);
    expect(first.data.data).toHaveLength(16);
    expect(typeof first.data.after).toBe('string');
    const values: number[] = [];
    for await (const page of child.paginate<number>(fql([`${coll}.all().map(.value)`]))) values.push(...page);
    expect(values).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('throws the driver error of each run-time error', async () => {
    const abort = (await failureOf(() => child.query(fql`abort("oops")`))) as AbortError;
    expect(abort).toBeInstanceOf(AbortError);
    expect(abort.httpStatus).toBe(400);
    expect(abort.abort).toBe('oops');
    expect(abort.queryInfo?.summary).toContain('at *query*:1:6');
    const runtime = (await failureOf(() => child.query(fql`2 + "2"`, { typecheck: false }))) as QueryRuntimeError;
    expect(runtime).toBeInstanceOf(QueryRuntimeError);
    expect(runtime.code).toBe('invalid_argument');
    const check = (await failureOf(() => child.query(fql`happy little fox`))) as QueryCheckError;
    expect(check).toBeInstanceOf(QueryCheckError);
    expect(check.code).toBe('invalid_query');
    expect(check.queryInfo?.summary).toBeDefined();
    const coll = await freshCollection();
    const conflict = (await failureOf(() => child.query(fql([`Collection.create({ name: "${coll}" })`])))) as ConstraintFailureError;
    expect(conflict).toBeInstanceOf(ConstraintFailureError);
    expect(conflict.constraint_failures).toEqual([{ message: expect.any(String), paths: expect.arrayContaining([expect.any(Array)]) }]);
  });

  it('throws a QueryTimeoutError for a query that outlasts query_timeout_ms, which then wrote nothing', async () => {
    const coll = await freshCollection();
    const error = (await failureOf(() =>
      child.query(fql([`${coll}.create({ a: 1 })\nSet.sequence(0, 50000).map(x => x + 1).count()`]), { query_timeout_ms: 1 }),
    )) as QueryTimeoutError;
    expect(error).toBeInstanceOf(QueryTimeoutError);
    expect(error.httpStatus).toBe(440);
    expect(error.message).toContain('aggressive deadline');
    expect((await child.query<number>(fql([`${coll}.all().count()`]))).data).toBe(0);
  });

  it('makes a key whose secret opens the child database', async () => {
    const name = 'DriverKeyChild';
    const secret = await fauna.client.query<string>(fql`
      if (Database.byName(${name}).exists()) {
        Database.byName(${name})!.delete()
      }
      Database.create({ name: ${name} })
      Key.create({ role: "admin", database: ${name} }).secret
    `);
    const keyed = faunaClient(fauna.server.url, secret.data);
    try {
      expect((await keyed.query<number>(fql`Collection.all().count()`)).data).toBe(0);
      await keyed.query(fql`Collection.create({ name: "OnlyInChild" })`);
      expect((await fauna.client.query<boolean>(fql`Collection.byName("OnlyInChild").exists()`)).data).toBe(false);
    } finally {
      keyed.close();
    }
  });
});

describe('fauna 2.x driver: feeds and streams of FQL v10 sources', () => {
  it('feeds the writes of Set.sequence(…).forEach, in pages, from a start time and from a cursor', async () => {
    const coll = await freshCollection();
    const startAt = (await child.query(fql([`${coll}.create({ value: 0 })`]))).txn_ts;
    await child.query(fql([`Set.sequence(0, 3).forEach(v => ${coll}.create({ value: v + 1 }));`]));
    const pages = [];
    for await (const page of child.feed(fql([`${coll}.all().eventSource()`]), { page_size: 1, start_ts: startAt })) pages.push(page);
    expect(pages).toHaveLength(3);
    expect((Array.from(pages[0]!.events)[0]!.data as DocumentT<{ value: number }>).value).toBe(1);
    const resumed = [];
    for await (const page of child.feed(fql([`${coll}.all().eventSource()`]), { cursor: pages[0]!.cursor })) resumed.push(...page.events);
    expect(resumed.map((event) => (event.data as DocumentT<{ value: number }>).value)).toEqual([2, 3]);
  });

  it('a feed of a query that is not an event source is a ClientError', async () => {
    const error = await failureOf(async () => {
      for await (const _page of child.feed(fql`1+1`)) {
        /* the driver refuses before the first page */
      }
    });
    expect(error).toBeInstanceOf(ClientError);
  });

  it('an abort while an event is made is an AbortError of the feed and of the stream, after the source was created', async () => {
    const coll = await freshCollection();
    const token = (await child.query<StreamToken>(fql([`${coll}.all().map((doc) => abort("oops")).toStream()`]))).data;
    expect(token).toBeInstanceOf(StreamToken);
    const stream = child.stream(token);
    await child.query(fql([`${coll}.create({ value: 0 })`]));
    const streamError = (await failureOf(() => readStream(stream, () => false))) as AbortError;
    expect(streamError).toBeInstanceOf(AbortError);
    expect(streamError.httpStatus).toBeUndefined();
    expect(streamError.abort).toBe('oops');
    const feedError = await failureOf(async () => {
      for await (const _event of child.feed(token).flatten()) {
        /* the error event ends the feed */
      }
    });
    expect(feedError).toBeInstanceOf(AbortError);
  });

  it('an unknown function in a map is a QueryRuntimeError of the stream, not of the query that made the source', async () => {
    const coll = await freshCollection();
    const token = (await child.query<StreamToken>(fql([`${coll}.all().map((doc) => notARealFn(doc)).toStream()`]))).data;
    const stream = child.stream(token);
    await child.query(fql([`${coll}.create({ value: 0 })`]));
    const error = (await failureOf(() => readStream(stream, () => false))) as QueryRuntimeError;
    expect(error).toBeInstanceOf(QueryRuntimeError);
    expect(error.httpStatus).toBeUndefined();
  });

  it('decodes times, dates, documents and longs that a map builds', async () => {
    const coll = await freshCollection();
    const token = (
      await child.query<StreamToken>(
        fql([`${coll}.all().map((doc) => { time: Time.now(), date: Date.today(), doc: doc, bigInt: 922337036854775808 }).toStream()`]),
      )
    ).data;
    const numbers = child.stream<Built<number>>(token);
    const bigintClient = new Client({ secret: childSecret, endpoint: new URL(fauna.server.url), max_attempts: 1, long_type: 'bigint' });
    try {
      const bigints = bigintClient.stream<Built<bigint>>(token);
      await child.query(fql([`${coll}.create({ value: 0 })`]));
      const [event] = (await readStream(numbers, (events) => events.length === 1)) as StreamEventData<Built<number>>[];
      expect(event!.type).toBe('add');
      expect(event!.data.time).toBeInstanceOf(TimeStub);
      expect(event!.data.date).toBeInstanceOf(DateStub);
      expect(event!.data.doc).toBeInstanceOf(Document);
      expect(event!.data.bigInt).toBe(Number(922337036854775808n));
      const [exact] = (await readStream(bigints, (events) => events.length === 1)) as StreamEventData<Built<bigint>>[];
      expect(exact!.data.bigInt).toBe(922337036854775808n);
    } finally {
      bigintClient.close();
    }
  });

  it('streams the events of writes and deletes made with FQL, several in one transaction', async () => {
    const coll = await freshCollection();
    const stream = child.stream(fql([`${coll}.all().toStream()`]), { status_events: true });
    const events = await readStream(stream, (seen) => {
      if (seen.length === 1) {
        // Not awaited: a query of the same client awaited inside the stream's iteration stalls it past the deadline.
        void child
          .query(fql([`${coll}.create({ value: 0 })\n${coll}.create({ value: 1 })\n${coll}.create({ value: 2 })`]))
          .then(() => child.query(fql([`${coll}.all().forEach(.delete())`])));
      }
      return seen.length === 7;
    });
    expect(events.map((event) => event.type)).toEqual(['status', 'add', 'add', 'add', 'remove', 'remove', 'remove']);
  });
});
