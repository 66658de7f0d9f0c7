// The official v4 driver (default h2c transport) against the reference server: values of every wire type come back
// as the driver's own classes, indexes answer through the driver's query builder, and failures surface as the
// driver's error classes with the codes the spec gives them.
import faunadb, { errors, values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

interface Thing {
  ref: values.Ref;
  ts: number;
  data: {
    sku: string;
    price: number;
    at: values.FaunaTime;
    blob: values.Bytes;
    ratio: number;
    nested: { list: unknown[]; owner: values.Ref };
  };
}

/** The code of the first error the driver read from the response (its `errors()` is typed as a bare object). */
function firstErrorCode(failure: unknown): string | undefined {
  return ((failure as errors.FaunaHTTPError).errors() as Array<{ code?: string }>)[0]?.code;
}

beforeAll(async () => {
  await driver.client.query(q.CreateCollection({ name: 'things' }));
  await driver.client.query(
    q.CreateIndex({ name: 'things_by_sku', source: q.Collection('things'), terms: [{ field: ['data', 'sku'] }], unique: true }),
  );
  await driver.client.query(
    q.CreateIndex({ name: 'things_by_price', source: q.Collection('things'), values: [{ field: ['data', 'price'] }, { field: ['ref'] }] }),
  );
});

describe('faunadb 4.x driver: values, indexes and errors', () => {
  it('stores a Time, Bytes, a decimal and a nested ref, and reads them back as the driver classes with the same content', async () => {
    const owner = await driver.client.query<{ ref: values.Ref }>(q.Create(q.Collection('things'), { data: { sku: 'owner', price: 0 } }));
    const created = await driver.client.query<Thing>(
      q.Create(q.Collection('things'), {
        data: {
          sku: 'a1',
          price: 3,
          at: q.Time('2024-01-02T03:04:05.123456Z'),
          blob: q.Bytes('AQID'),
          ratio: 1.5,
          nested: { list: [1, 'x', null, true], owner: owner.ref },
        },
      }),
    );
    const read = await driver.client.query<Thing>(q.Get(created.ref));
    for (const doc of [created, read]) {
      expect(doc.ref).toBeInstanceOf(values.Ref);
      expect(doc.ref.id).toBe(created.ref.id);
      expect(doc.ref.collection?.id).toBe('things');
      expect(doc.data.at).toBeInstanceOf(values.FaunaTime);
      expect(doc.data.at.toJSON()).toEqual({ '@ts': '2024-01-02T03:04:05.123456Z' });
      expect(doc.data.blob).toBeInstanceOf(values.Bytes);
      expect(doc.data.blob.toJSON()).toEqual({ '@bytes': 'AQID' });
      expect(doc.data.ratio).toBe(1.5);
      // A null element is not stored, as the real service patches data (DEC-006).
      expect(doc.data.nested.list).toEqual([1, 'x', true]);
      expect(doc.data.nested.owner).toBeInstanceOf(values.Ref);
      expect(doc.data.nested.owner.id).toBe(owner.ref.id);
    }
    expect(read.ts).toBe(created.ts);
  });

  it('finds a document by index term, and pages a values index as [value, ref] tuples in value order', async () => {
    const refs = await driver.client.query<values.Ref[]>(
      q.Map(
        ['p-30', 'p-10', 'p-20'],
        q.Lambda('sku', q.Select('ref', q.Create(q.Collection('things'), { data: { sku: q.Var('sku'), price: q.Var('sku') } }))),
      ),
    );
    const bySku = await driver.client.query<{ data: values.Ref[] }>(q.Paginate(q.Match(q.Index('things_by_sku'), 'p-20')));
    expect(bySku.data.map((ref) => ref.id)).toEqual([refs[2]!.id]);
    const byPrice = await driver.client.query<{ data: Array<[unknown, values.Ref]> }>(
      q.Paginate(q.Match(q.Index('things_by_price')), { size: 100 }),
    );
    const tuples = byPrice.data.filter(([price]) => typeof price === 'string');
    expect(tuples.map(([price]) => price)).toEqual(['p-10', 'p-20', 'p-30']);
    expect(tuples.map(([, ref]) => ref.id)).toEqual([refs[1]!.id, refs[2]!.id, refs[0]!.id]);
    expect(tuples.every(([, ref]) => ref instanceof values.Ref)).toBe(true);
  });

  it('refuses a second document with a unique term as the driver BadRequest "instance not unique", and writes nothing', async () => {
    await driver.client.query(q.Create(q.Collection('things'), { data: { sku: 'unique-1', price: 1 } }));
    const failure = await driver.client
      .query(q.Create(q.Collection('things'), { data: { sku: 'unique-1', price: 2 } }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(errors.BadRequest);
    expect((failure as errors.FaunaHTTPError).requestResult.statusCode).toBe(400);
    expect(firstErrorCode(failure)).toBe('instance not unique');
    const matches = await driver.client.query<{ data: values.Ref[] }>(q.Paginate(q.Match(q.Index('things_by_sku'), 'unique-1')));
    expect(matches.data).toHaveLength(1);
  });

  it('surfaces a read of a missing or deleted document as the driver NotFound "instance not found"', async () => {
    const doc = await driver.client.query<{ ref: values.Ref }>(q.Create(q.Collection('things'), { data: { sku: 'gone', price: 1 } }));
    await driver.client.query(q.Delete(doc.ref));
    for (const ref of [doc.ref, q.Ref(q.Collection('things'), '123456789')]) {
      const failure = await driver.client.query(q.Get(ref)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(errors.NotFound);
      expect((failure as errors.FaunaHTTPError).requestResult.statusCode).toBe(404);
      expect(firstErrorCode(failure)).toBe('instance not found');
    }
  });

  it('answers the driver ping', async () => {
    await expect(driver.client.ping()).resolves.toEqual(expect.any(String));
  });
});
