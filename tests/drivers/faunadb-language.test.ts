// The official v4 driver's query builder (`q.*`) and its own result decoding against the reference server:
// indexes and sets, the expression forms (Let, Var, Lambda, Map, Foreach, If, Do, Select, Exists), document
// writes, typed values, stored queries, read-only privileges, ping, and the headers the driver sends and reads.
import faunadb, { errors, type ExprArg, values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf, useDriverServer, type Doc, type Page, expectDriverError } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

/** Ref equality as the driver decides it (`Ref.prototype.equals`, which its type declarations leave out). */
function sameRef(a: values.Ref, b: values.Ref): boolean {
  return (a as values.Ref & { equals(other: values.Ref): boolean }).equals(b);
}

/** The driver's last-seen transaction clock (real methods of Client that its type declarations leave out). */
function clockOf(driver: faunadb.Client): { getLastTxnTime(): number; syncLastTxnTime(time: number): void } {
  return driver as unknown as { getLastTxnTime(): number; syncLastTxnTime(time: number): void };
}

beforeAll(async () => {
  await driver.client.query(
    q.Do(q.CreateCollection({ name: 'items' }), q.CreateCollection({ name: 'notes' }), q.CreateCollection({ name: 'readers' })),
  );
  await driver.client.query(
    q.Do(
      q.CreateIndex({
        name: 'items_by_kind_color',
        source: q.Collection('items'),
        terms: [{ field: ['data', 'kind'] }, { field: ['data', 'color'] }],
        values: [{ field: ['data', 'size'], reverse: true }, { field: ['ref'] }],
        active: true,
      }),
      q.CreateIndex({
        name: 'items_by_code',
        source: q.Collection('items'),
        terms: [{ field: ['data', 'code'] }],
        unique: true,
        active: true,
      }),
    ),
  );
});

describe('faunadb 4.x driver: indexes and sets through the query builder', () => {
  it('CreateIndex answers the record with terms, values and unique as given and the source as a driver Ref', async () => {
    const index = await driver.client.query<{
      ref: values.Ref;
      name: string;
      source: values.Ref;
      terms: unknown[];
      values: unknown[];
      unique?: boolean;
      active: boolean;
    }>(q.Get(q.Index('items_by_kind_color')));
    expect(index.ref).toBeInstanceOf(values.Ref);
    expect(sameRef(index.ref, new values.Ref('items_by_kind_color', values.Native.INDEXES))).toBe(true);
    expect(index.source).toBeInstanceOf(values.Ref);
    expect(sameRef(index.source, new values.Ref('items', values.Native.COLLECTIONS))).toBe(true);
    expect(index.terms).toEqual([{ field: ['data', 'kind'] }, { field: ['data', 'color'] }]);
    expect(index.values).toEqual([{ field: ['data', 'size'], reverse: true }, { field: ['ref'] }]);
    expect(index.active).toBe(true);
    const unique = await driver.client.query<{ unique: boolean }>(q.Get(q.Index('items_by_code')));
    expect(unique.unique).toBe(true);
  });

  it('Match with two terms finds only the documents matching both, as [value, ref] tuples in reversed value order', async () => {
    const made = await driver.client.query<Array<Doc<{ size: number }>>>(
      q.Map(
        [
          ['hat', 'red', 2],
          ['hat', 'red', 7],
          ['hat', 'blue', 5],
          ['cap', 'red', 9],
          ['hat', 'red', 4],
        ],
        q.Lambda(
          ['kind', 'color', 'size'],
          q.Create(q.Collection('items'), { data: { kind: q.Var('kind'), color: q.Var('color'), size: q.Var('size') } }),
        ),
      ),
    );
    const page = await driver.client.query<Page<[number, values.Ref]>>(q.Paginate(q.Match(q.Index('items_by_kind_color'), 'hat', 'red')));
    expect(page.data.map(([size]) => size)).toEqual([7, 4, 2]);
    expect(page.data.map(([, ref]) => ref.id)).toEqual([made[1]!.ref.id, made[4]!.ref.id, made[0]!.ref.id]);
    expect(page.data.every(([, ref]) => ref instanceof values.Ref && ref.collection?.id === 'items')).toBe(true);
    const none = await driver.client.query<Page<unknown>>(q.Paginate(q.Match(q.Index('items_by_kind_color'), 'hat', 'green')));
    expect(none).toEqual({ data: [] });
  });

  it('Paginate walks a tuple set page by page when the driver-decoded after cursor is sent back, and before goes back', async () => {
    await driver.client.query(
      q.Foreach(
        [10, 11, 12, 13, 14],
        q.Lambda('size', q.Create(q.Collection('items'), { data: { kind: 'sock', color: 'grey', size: q.Var('size') } })),
      ),
    );
    const set = q.Match(q.Index('items_by_kind_color'), ['sock', 'grey']);
    const first = await driver.client.query<Page<[number, values.Ref]>>(q.Paginate(set, { size: 2 }));
    expect(first.data.map(([size]) => size)).toEqual([14, 13]);
    expect(first.before).toBeUndefined();
    expect(first.after?.[0]).toBe(12);
    expect(first.after?.at(-1)).toBeInstanceOf(values.Ref);
    const second = await driver.client.query<Page<[number, values.Ref]>>(q.Paginate(set, { size: 2, after: first.after }));
    expect(second.data.map(([size]) => size)).toEqual([12, 11]);
    const third = await driver.client.query<Page<[number, values.Ref]>>(q.Paginate(set, { size: 2, after: second.after }));
    expect(third.data.map(([size]) => size)).toEqual([10]);
    expect(third.after).toBeUndefined();
    const back = await driver.client.query<Page<[number, values.Ref]>>(q.Paginate(set, { size: 2, before: third.before }));
    expect(back.data.map(([size]) => size)).toEqual([12, 11]);
  });

  it('a Create or an Update that would repeat a unique term is the driver BadRequest "instance not unique" and writes nothing', async () => {
    const a = await driver.client.query<Doc<{ code: string }>>(q.Create(q.Collection('items'), { data: { code: 'A-1' } }));
    const b = await driver.client.query<Doc<{ code: string }>>(q.Create(q.Collection('items'), { data: { code: 'B-1' } }));
    expectDriverError(
      await failureOf(driver.client.query(q.Create(q.Collection('items'), { data: { code: 'A-1' } }))),
      errors.BadRequest,
      400,
      'instance not unique',
    );
    expectDriverError(
      await failureOf(driver.client.query(q.Update(b.ref, { data: { code: 'A-1' } }))),
      errors.BadRequest,
      400,
      'instance not unique',
    );
    expect((await driver.client.query<Doc<{ code: string }>>(q.Get(b.ref))).data.code).toBe('B-1');
    const holders = await driver.client.query<Page<values.Ref>>(q.Paginate(q.Match(q.Index('items_by_code'), 'A-1')));
    expect(holders.data.map((ref) => ref.id)).toEqual([a.ref.id]);
  });
});

describe('faunadb 4.x driver: expression forms', () => {
  it('Let binds in order so a later binding reads an earlier one with Var, and If/Equals picks the branch', async () => {
    const result = await driver.client.query(
      q.Let(
        { a: 'left', b: q.Var('a'), same: q.Equals(q.Var('a'), q.Var('b')) },
        q.If(q.Var('same'), { picked: q.Var('b') }, 'wrong branch'),
      ),
    );
    expect(result).toEqual({ picked: 'left' });
    expect(await driver.client.query(q.If(q.Equals(1, 2), 'then', 'else'))).toBe('else');
  });

  it('Select reads nested paths and array indexes, answers the default for a missing path, and without one is the driver NotFound "value not found"', async () => {
    const source = { a: { list: ['x', { deep: 'y' }] } };
    expect(await driver.client.query(q.Select(['a', 'list', 1, 'deep'], source))).toBe('y');
    expect(await driver.client.query(q.Select(['a', 'missing'], source, 'fallback'))).toBe('fallback');
    expectDriverError(await failureOf(driver.client.query(q.Select(['a', 'missing'], source))), errors.NotFound, 404, 'value not found');
  });

  it('Map applies a multi-parameter Lambda and a JavaScript arrow function, over arrays and over a page keeping its cursor', async () => {
    const pairs = await driver.client.query(
      q.Map(
        [
          ['k1', 1],
          ['k2', 2],
        ],
        q.Lambda(['key', 'value'], { key: q.Var('key'), value: q.Var('value') }),
      ),
    );
    expect(pairs).toEqual([
      { key: 'k1', value: 1 },
      { key: 'k2', value: 2 },
    ]);
    const wrapped = await driver.client.query(q.Map(['p', 'q'], (item) => [item, item]));
    expect(wrapped).toEqual([
      ['p', 'p'],
      ['q', 'q'],
    ]);
    const page = await driver.client.query<Page<number>>(
      q.Map(q.Paginate(q.Match(q.Index('items_by_kind_color'), 'hat', 'red'), { size: 2 }), q.Lambda(['size', 'ref'], q.Var('size'))),
    );
    expect(page.data).toEqual([7, 4]);
    expect(page.after?.[0]).toBe(2);
  });

  it('Foreach runs its writes for every element and answers the input unchanged', async () => {
    const input = ['n1', 'n2', 'n3'];
    expect(
      await driver.client.query(q.Foreach(input, q.Lambda('title', q.Create(q.Collection('notes'), { data: { title: q.Var('title') } })))),
    ).toEqual(input);
    const titles = await driver.client.query<Page<string>>(
      q.Map(q.Paginate(q.Documents(q.Collection('notes'))), q.Lambda('ref', q.Select(['data', 'title'], q.Get(q.Var('ref'))))),
    );
    expect([...titles.data].sort()).toEqual(input);
  });

  it('Do answers its last value, sees its own earlier writes, and its writes share one ts', async () => {
    const [created, read] = await driver.client.query<[Doc<{ v: number }>, Doc<{ v: number }>]>(
      q.Let(
        { doc: q.Create(q.Collection('notes'), { data: { v: 1 } }) },
        q.Do(q.Update(q.Select('ref', q.Var('doc')), { data: { v: 2 } }), [q.Var('doc'), q.Get(q.Select('ref', q.Var('doc')))]),
      ),
    );
    expect(created.data.v).toBe(1);
    expect(read.data.v).toBe(2);
    expect(read.ts).toBe(created.ts);
    expect(await driver.client.query(q.Do('first', 'second', 'last'))).toBe('last');
  });

  it('an Abort inside Do is the driver BadRequest "transaction aborted" and the writes before it are gone', async () => {
    const failure = await failureOf(
      driver.client.query(q.Do(q.Create(q.Ref(q.Collection('notes'), '4242'), { data: { lost: true } }), q.Abort('stop here'))),
    );
    expectDriverError(failure, errors.BadRequest, 400, 'transaction aborted');
    expect((failure as errors.FaunaHTTPError).description).toBe('stop here');
    expect(await driver.client.query(q.Exists(q.Ref(q.Collection('notes'), '4242')))).toBe(false);
  });
});

describe('faunadb 4.x driver: document writes', () => {
  it('Update merges (null removes a field), Replace drops what it is not given, Delete answers the last version, Exists follows', async () => {
    const doc = await driver.client.query<Doc<Record<string, unknown>>>(
      q.Create(q.Collection('notes'), { data: { a: 1, b: { c: 2, d: 3 }, gone: 'x' } }),
    );
    expect(await driver.client.query(q.Exists(doc.ref))).toBe(true);
    const updated = await driver.client.query<Doc<Record<string, unknown>>>(
      q.Update(doc.ref, { data: { b: { c: 20 }, gone: null, e: [1] } }),
    );
    expect(updated.data).toEqual({ a: 1, b: { c: 20, d: 3 }, e: [1] });
    expect(updated.ts).toBeGreaterThan(doc.ts);
    const replaced = await driver.client.query<Doc<Record<string, unknown>>>(q.Replace(doc.ref, { data: { only: true } }));
    expect(replaced.data).toEqual({ only: true });
    expect(sameRef(replaced.ref, doc.ref)).toBe(true);
    const deleted = await driver.client.query<Doc<Record<string, unknown>>>(q.Delete(doc.ref));
    expect(deleted.data).toEqual({ only: true });
    expect(await driver.client.query(q.Exists(doc.ref))).toBe(false);
  });

  it('Get, Update, Replace and Delete of a deleted document are each the driver NotFound "instance not found"', async () => {
    const doc = await driver.client.query<Doc<object>>(q.Create(q.Collection('notes'), { data: { short: 'lived' } }));
    await driver.client.query(q.Delete(doc.ref));
    for (const expr of [q.Get(doc.ref), q.Update(doc.ref, { data: { x: 1 } }), q.Replace(doc.ref, { data: { x: 1 } }), q.Delete(doc.ref)]) {
      expectDriverError(await failureOf(driver.client.query(expr)), errors.NotFound, 404, 'instance not found');
    }
  });
});

describe('faunadb 4.x driver: a child database through scoped refs', () => {
  it('lists the collections and documents of a child database as scoped driver Refs that Map/Get reads back', async () => {
    await driver.client.query(q.CreateDatabase({ name: 'branch' }));
    // Written with a secret scoped to the child: writes never take a scoped ref (DEC-050).
    const inBranch = driver.clientFor(`${driver.server.rootSecret}:branch:admin`);
    await inBranch.query(q.CreateCollection({ name: 'leaves' }));
    const written = await inBranch.query<Doc<{ n: number }>>(q.Create(q.Collection('leaves'), { data: { n: 1 } }));
    const leaf = await driver.client.query<Doc<{ n: number }>>(q.Get(q.Ref(q.Collection('leaves', q.Database('branch')), written.ref.id)));
    expect(leaf.ref.collection?.database?.id).toBe('branch');
    await expect(driver.client.query(q.Create(q.Collection('leaves', q.Database('branch')), { data: { n: 2 } }))).rejects.toMatchObject({
      requestResult: { statusCode: 400 },
    });
    const collections = await driver.client.query<Page<{ name: string; ref: values.Ref }>>(
      q.Map(q.Paginate(q.Collections(q.Database('branch'))), q.Lambda('ref', q.Get(q.Var('ref')))),
    );
    expect(collections.data.map(({ name }) => name)).toEqual(['leaves']);
    expect(collections.data[0]!.ref.database?.id).toBe('branch');
    const leaves = await driver.client.query<Page<Doc<{ n: number }>>>(
      q.Map(q.Paginate(q.Documents(q.Collection('leaves', q.Database('branch')))), q.Lambda('ref', q.Get(q.Var('ref')))),
    );
    expect(leaves.data.map((doc) => doc.data.n)).toEqual([1]);
    expect(sameRef(leaves.data[0]!.ref, leaf.ref)).toBe(true);
  });
});

describe('faunadb 4.x driver: typed values', () => {
  it('Time, Date and Bytes are stored and read back as FaunaTime, FaunaDate and Bytes with the same content', async () => {
    const bytes = new Uint8Array([0, 1, 127, 128, 255]);
    const doc = await driver.client.query<
      Doc<{ at: values.FaunaTime; literal: values.FaunaTime; day: values.FaunaDate; blob: values.Bytes }>
    >(
      q.Create(q.Collection('notes'), {
        data: {
          at: q.Time('2024-02-29T23:59:58.5Z'),
          literal: new values.FaunaTime('1999-12-31T00:00:00Z'),
          day: new values.FaunaDate('2024-02-29'),
          blob: new values.Bytes(bytes),
        },
      }),
    );
    const read = await driver.client.query<typeof doc>(q.Get(doc.ref));
    for (const { data } of [doc, read]) {
      expect(data.at).toBeInstanceOf(values.FaunaTime);
      expect(data.at.date.toISOString()).toBe('2024-02-29T23:59:58.500Z');
      expect(data.literal).toBeInstanceOf(values.FaunaTime);
      expect(data.literal.date.getTime()).toBe(Date.UTC(1999, 11, 31));
      expect(data.day).toBeInstanceOf(values.FaunaDate);
      expect(data.day.toJSON()).toEqual({ '@date': '2024-02-29' });
      expect(data.blob).toBeInstanceOf(values.Bytes);
      expect(data.blob.toJSON()).toEqual(new values.Bytes(bytes).toJSON());
    }
    expect(await driver.client.query(q.Equals(read.data.day, new values.FaunaDate('2024-02-29')))).toBe(true);
    expect(await driver.client.query(q.Equals(read.data.blob, new values.Bytes(bytes)))).toBe(true);
  });

  it('Now answers a FaunaTime at the transaction time the response reports', async () => {
    let txnTime: string | undefined;
    const now = await driver.client.query<values.FaunaTime>(q.Now(), {
      observer: (result) => {
        txnTime = (result.responseHeaders as Record<string, string>)['x-txn-time'];
      },
    });
    expect(now).toBeInstanceOf(values.FaunaTime);
    expect(txnTime).toMatch(/^\d+$/);
    expect(Math.floor(now.date.getTime())).toBe(Math.floor(Number(BigInt(txnTime!) / 1000n)));
  });

  it('refs nested in objects and arrays (documents, collections, indexes) come back as driver Refs equal to what was stored', async () => {
    const target = await driver.client.query<Doc<object>>(q.Create(q.Collection('notes'), { data: { target: true } }));
    const doc = await driver.client.query<Doc<{ links: { list: values.Ref[]; byName: { coll: values.Ref; index: values.Ref } } }>>(
      q.Create(q.Collection('notes'), {
        data: { links: { list: [target.ref, target.ref], byName: { coll: q.Collection('items'), index: q.Index('items_by_code') } } },
      }),
    );
    const { links } = (await driver.client.query<typeof doc>(q.Get(doc.ref))).data;
    expect(links.list.every((ref) => ref instanceof values.Ref && sameRef(ref, target.ref))).toBe(true);
    expect(sameRef(links.byName.coll, new values.Ref('items', values.Native.COLLECTIONS))).toBe(true);
    expect(sameRef(links.byName.index, new values.Ref('items_by_code', values.Native.INDEXES))).toBe(true);
    // The decoded refs go back out as @ref literals the server reads as the same refs.
    expect(await driver.client.query(q.Equals(links.byName.coll, q.Collection('items')))).toBe(true);
    expect(await driver.client.query(q.Select(['data', 'target'], q.Get(links.list[0]!)))).toBe(true);
  });

  it('Query(Lambda) answers the driver Query value, which survives storage in a document and is sent back unchanged', async () => {
    const query = await driver.client.query<values.Query>(q.Query(q.Lambda('x', q.Select(['data', 'n'], q.Var('x')))));
    expect(query).toBeInstanceOf(values.Query);
    expect(query.toJSON()).toMatchObject({ '@query': { lambda: 'x', expr: { select: ['data', 'n'], from: { var: 'x' } } } });
    const doc = await driver.client.query<Doc<{ fn: values.Query }>>(
      // biome-ignore lint/correctness/noUnusedFunctionParameters: faunadb-js names the lambda's variable after the parameter, so `x` is what Var('x') reads
      q.Create(q.Collection('notes'), { data: { fn: q.Query((x) => q.Var('x')) } }),
    );
    const stored = (await driver.client.query<typeof doc>(q.Get(doc.ref))).data.fn;
    expect(stored).toBeInstanceOf(values.Query);
    expect(stored.toJSON()).toMatchObject({ '@query': { lambda: 'x', expr: { var: 'x' } } });
    const copy = await driver.client.query<Doc<{ fn: values.Query }>>(q.Create(q.Collection('notes'), { data: { fn: stored } }));
    expect(copy.data.fn.toJSON()).toEqual(stored.toJSON());
  });
});

describe('faunadb 4.x driver: privileges', () => {
  it('a token whose role only reads is refused Create, Update and Delete as the driver PermissionDenied, and nothing changes', async () => {
    const note = await driver.client.query<Doc<{ text: string }>>(q.Create(q.Collection('notes'), { data: { text: 'keep' } }));
    const role = await driver.client.query<{ privileges: Array<{ actions: { read: boolean } }> }>(
      q.CreateRole({
        name: 'notes_reader',
        membership: [{ resource: q.Collection('readers') }],
        privileges: [{ resource: q.Collection('notes'), actions: { read: true } }],
      }),
    );
    expect(role.privileges[0]!.actions.read).toBe(true);
    const reader = await driver.client.query<Doc<object>>(q.Create(q.Collection('readers'), { credentials: { password: 'pw' } }));
    const { secret } = await driver.client.query<{ secret: string }>(q.Login(reader.ref, { password: 'pw' }));
    const session = driver.clientFor(secret);
    expect((await session.query<Doc<{ text: string }>>(q.Get(note.ref))).data.text).toBe('keep');
    for (const expr of [
      q.Create(q.Collection('notes'), { data: { text: 'new' } }),
      q.Update(note.ref, { data: { text: 'changed' } }),
      q.Delete(note.ref),
    ]) {
      expectDriverError(await failureOf(session.query(expr)), errors.PermissionDenied, 403, 'permission denied');
    }
    expect((await driver.client.query<Doc<{ text: string }>>(q.Get(note.ref))).data.text).toBe('keep');
  });

  it('a client key is refused CreateCollection and a server key CreateKey, both as the driver PermissionDenied', async () => {
    const refused: Array<[role: string, expr: ExprArg]> = [
      ['client', q.CreateCollection({ name: 'refused' })],
      ['server', q.CreateKey({ role: 'client' })],
    ];
    for (const [role, expr] of refused) {
      const key = await driver.client.query<{ secret: string }>(q.CreateKey({ role }));
      expectDriverError(await failureOf(driver.clientFor(key.secret).query(expr)), errors.PermissionDenied, 403, 'permission denied');
    }
    expect(await driver.client.query(q.Exists(q.Collection('refused')))).toBe(false);
  });

  it('a role read predicate comes back on the role record as the driver Query value', async () => {
    const role = await driver.client.query<{ privileges: Array<{ actions: { read: values.Query } }> }>(
      q.CreateRole({
        name: 'own_items',
        membership: [{ resource: q.Collection('readers') }],
        privileges: [
          {
            resource: q.Collection('items'),
            actions: { read: q.Query(q.Lambda('ref', q.Equals(q.CurrentIdentity(), q.Select(['data', 'owner'], q.Get(q.Var('ref')))))) },
          },
        ],
      }),
    );
    const read = (await driver.client.query<typeof role>(q.Get(q.Role('own_items')))).privileges[0]!.actions.read;
    for (const predicate of [role.privileges[0]!.actions.read, read]) {
      expect(predicate).toBeInstanceOf(values.Query);
      expect(predicate.toJSON()).toMatchObject({ '@query': { lambda: 'ref', expr: { equals: expect.any(Array) } } });
    }
  });
});

describe('faunadb 4.x driver: ping and headers', () => {
  it('answers the driver ping with a string, with and without a scope', async () => {
    await expect(driver.client.ping()).resolves.toEqual(expect.any(String));
    await expect(driver.client.ping('write')).resolves.toEqual(expect.any(String));
  });

  it('the observer sees x-txn-time equal to the written ts and the metrics headers, which queryWithMetrics reads as numbers', async () => {
    const seen: Array<Record<string, string>> = [];
    const observed = driver.clientFor(driver.server.rootSecret, {
      observer: (result) => void seen.push(result.responseHeaders as Record<string, string>),
    });
    const doc = await observed.query<Doc<object>>(q.Create(q.Collection('notes'), { data: { observed: true } }));
    expect(seen).toHaveLength(1);
    expect(seen[0]!['x-txn-time']).toBe(String(doc.ts));
    expect(clockOf(observed).getLastTxnTime()).toBe(doc.ts);
    for (const header of ['x-compute-ops', 'x-byte-read-ops', 'x-byte-write-ops', 'x-query-time'])
      expect(seen[0]![header]).toMatch(/^\d+$/);
    const { value, metrics } = await observed.queryWithMetrics<Doc<object>>(q.Get(doc.ref));
    expect(value.ts).toBe(doc.ts);
    for (const metric of Object.values(metrics)) expect(Number.isInteger(metric)).toBe(true);
    expect(Object.keys(metrics)).toEqual(expect.arrayContaining(['x-compute-ops', 'x-byte-read-ops', 'x-byte-write-ops', 'x-query-time']));
  });

  it('accepts what the driver adds to requests: X-Last-Seen-Txn (even ahead of the server), X-Query-Timeout, tags, traceparent and custom headers', async () => {
    const configured = driver.clientFor(driver.server.rootSecret, { queryTimeout: 5000, headers: { 'x-custom-header': 'yes' } });
    const doc = await configured.query<Doc<object>>(q.Create(q.Collection('notes'), { data: { headers: true } }));
    expect(clockOf(configured).getLastTxnTime()).toBe(doc.ts);
    // From here on every request carries X-Last-Seen-Txn; one an hour ahead of the server must not fail.
    clockOf(configured).syncLastTxnTime(doc.ts + 3_600_000_000);
    const read = await configured.query<Doc<object>>(q.Get(doc.ref), {
      tags: { team: 'drivers', run: 'language' },
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(read.ts).toBe(doc.ts);
  });
});
