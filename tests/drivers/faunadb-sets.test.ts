// The official v4 driver's set functions beyond the SD's list (q.Range, q.Singleton, q.Filter of a set) and Map of a
// set refused, against the reference server (spec/requirements/functions-sets.md).
import faunadb, { values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadRequest, useDriverServer, type Page } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

type Doc = { ref: values.Ref; ts: number; data: { n: number; neg: number } };

const byN = q.Match(q.Index('sets_by_n'));
const byNNeg = q.Match(q.Index('sets_by_n_neg'));
const refs = q.Match(q.Index('sets_refs'));
let docs: Doc[];

async function pageOf<T>(set: faunadb.ExprArg, size = 100): Promise<T[]> {
  return (await driver.client.query<Page<T>>(q.Paginate(set, { size }))).data;
}

beforeAll(async () => {
  await driver.client.query(q.CreateCollection({ name: 'sets_items' }));
  await driver.client.query(
    q.Do(
      q.CreateIndex({ name: 'sets_by_n', source: q.Collection('sets_items'), values: [{ field: ['data', 'n'] }] }),
      q.CreateIndex({
        name: 'sets_by_n_neg',
        source: q.Collection('sets_items'),
        values: [{ field: ['data', 'n'] }, { field: ['data', 'neg'] }],
      }),
      q.CreateIndex({ name: 'sets_refs', source: q.Collection('sets_items') }),
    ),
  );
  docs = await driver.client.query<Doc[]>(
    q.Map(
      [1, 2, 3, 4, 5, 6, 7, 8],
      q.Lambda(
        'i',
        q.Create(q.Ref(q.Collection('sets_items'), q.ToString(q.Var('i'))), { data: { n: q.Var('i'), neg: q.Subtract(0, q.Var('i')) } }),
      ),
    ),
  );
});

describe('q.Range', () => {
  it('pages the entries between the bounds, both included, and pages on with the driver cursor', async () => {
    expect(await pageOf<number>(q.Range(byN, 3, 6))).toEqual([3, 4, 5, 6]);
    const first = await driver.client.query<Page<number>>(q.Paginate(q.Range(byN, 3, 6), { size: 2 }));
    expect(first.data).toEqual([3, 4]);
    const second = await driver.client.query<Page<number>>(q.Paginate(q.Range(byN, 3, 6), { size: 2, after: first.after }));
    expect(second.data).toEqual([5, 6]);
    expect(second.after).toBeUndefined();
  });

  it('takes prefixes, empty arrays and refs as bounds', async () => {
    expect(await pageOf<number[]>(q.Range(byNNeg, 2, [4]))).toEqual([
      [2, -2],
      [3, -3],
      [4, -4],
    ]);
    expect(await pageOf<number>(q.Range(byN, [], 2))).toEqual([1, 2]);
    const got = await pageOf<values.Ref>(q.Range(refs, docs[5]!.ref, []));
    expect(got.map((r) => r.id)).toEqual(['6', '7', '8']);
  });

  it('answers a SetRef the driver sends back as it got it, and the aggregates fold it', async () => {
    const set = await driver.client.query<values.SetRef>(q.Range(byN, 3, 6));
    expect(set).toBeInstanceOf(values.SetRef);
    expect(await pageOf<number>(set)).toEqual([3, 4, 5, 6]);
    expect(await driver.client.query(q.Count(q.Range(byN, 3, 6)))).toBe(4);
  });

  it('refuses a value that is not a set', async () => {
    await expectBadRequest(driver.client.query(q.Range(5, 1, 2)), 'invalid argument', 'Set expected, Integer provided.', ['range']);
  });
});

describe('q.Singleton', () => {
  it('is the set of one existing document', async () => {
    const got = await pageOf<values.Ref>(q.Singleton(docs[2]!.ref));
    expect(got.map((r) => r.id)).toEqual(['3']);
    expect(await pageOf(q.Singleton(q.Ref(q.Collection('sets_items'), '999')))).toEqual([]);
  });

  it('refuses a value that is not a ref', async () => {
    await expectBadRequest(driver.client.query(q.Singleton('3')), 'invalid argument', 'Ref expected, String provided.', ['singleton']);
  });
});

describe('q.Filter and q.Map of a set', () => {
  it('Filter of a set is a set that Paginate pages', async () => {
    const evenAbove = q.Filter(byN, q.Lambda('n', q.And(q.GT(q.Var('n'), 2), q.Equals(q.Modulo(q.Var('n'), 2), 0))));
    expect(await driver.client.query(evenAbove)).toBeInstanceOf(values.SetRef);
    expect(await pageOf<number>(evenAbove)).toEqual([4, 6, 8]);
    expect(await driver.client.query(q.Count(evenAbove))).toBe(3);
  });

  it('Filter of a set with a lambda answering no boolean fails when the set is read', async () => {
    await expectBadRequest(
      driver.client.query(q.Paginate(q.Filter(byN, q.Lambda('n', q.Var('n'))))),
      'invalid argument',
      'Boolean expected, Integer provided.',
      ['paginate', 'filter'],
    );
  });

  it('Map of a set is refused; Map of its page is not', async () => {
    await expectBadRequest(
      driver.client.query(q.Map(byN, q.Lambda('n', q.Var('n')))),
      'invalid argument',
      'Array or Page expected, Set provided.',
      ['collection'],
    );
    expect(await driver.client.query(q.Map(q.Paginate(q.Range(byN, 1, 2)), q.Lambda('n', q.Multiply(q.Var('n'), 10))))).toEqual({
      data: [10, 20],
    });
  });
});
