// The official v4 driver's aggregate, array and object functions (q.Count, q.Sum, q.Mean, q.Any, q.All, q.IsEmpty,
// q.IsNonEmpty, q.Take, q.Drop, q.Append, q.Prepend, q.Reverse, q.Merge, q.ContainsPath, q.Contains, q.ContainsField,
// q.ContainsValue, q.ToObject, q.ToArray) against the reference server (spec/requirements/functions-collections.md).
import faunadb, { values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, expectBadRequest, useDriverServer, type Doc, type Page } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

const scores = q.Match(q.Index('scores_by_team'), 'red');

let firstScore: Doc<{ team: string; score: number }>;

beforeAll(async () => {
  await createIndexedCollection(
    driver.client,
    { name: 'scores' },
    {
      name: 'scores_by_team',
      terms: [{ field: ['data', 'team'] }],
      values: [{ field: ['data', 'score'] }],
    },
  );
  const made = await driver.client.query<Array<Doc<{ team: string; score: number }>>>(
    q.Map(
      [
        ['red', 3],
        ['red', 5],
        ['red', 10],
        ['blue', 1],
      ],
      q.Lambda(['team', 'score'], q.Create(q.Collection('scores'), { data: { team: q.Var('team'), score: q.Var('score') } })),
    ),
  );
  firstScore = made[0]!;
});

describe('faunadb 4.x driver: aggregates', () => {
  it('Count, Sum, Mean, Any and All of arrays', async () => {
    expect(await driver.client.query(q.Count([1, 2, 3]))).toBe(3);
    expect(await driver.client.query(q.Sum([1, 2, 3]))).toBe(6);
    expect(await driver.client.query(q.Sum([1, 2.5]))).toBe(3.5);
    expect(await driver.client.query(q.Mean([1, 2]))).toBe(1.5);
    expect(await driver.client.query(q.Any([false, true]))).toBe(true);
    expect(await driver.client.query(q.All([true, false]))).toBe(false);
  });

  it('Count, Sum and Mean of a Match read the whole set; of a Paginate they answer a page', async () => {
    expect(await driver.client.query(q.Count(scores))).toBe(3);
    expect(await driver.client.query(q.Sum(scores))).toBe(18);
    expect(await driver.client.query(q.Mean(scores))).toBe(6);
    expect(await driver.client.query(q.Count(q.Documents(q.Collection('scores'))))).toBe(4);
    expect(await driver.client.query(q.Count(q.Collections()))).toBe(1);
    const page = await driver.client.query<Page<number>>(q.Sum(q.Paginate(scores, { size: 2 })));
    expect(page.data).toEqual([8]);
    expect(page.after?.[0]).toBe(10);
  });

  it('IsEmpty and IsNonEmpty of sets, pages and arrays', async () => {
    expect(await driver.client.query(q.IsEmpty(scores))).toBe(false);
    expect(await driver.client.query(q.IsEmpty(q.Match(q.Index('scores_by_team'), 'green')))).toBe(true);
    expect(await driver.client.query(q.IsNonEmpty(q.Paginate(scores)))).toBe(true);
    expect(await driver.client.query(q.IsNonEmpty([]))).toBe(false);
  });

  it('errors arrive as the driver’s BadRequest with the service’s description and position', async () => {
    await expectBadRequest(driver.client.query(q.Mean([])), 'invalid argument', 'Non-empty array expected.', ['mean']);
    await expectBadRequest(driver.client.query(q.Sum([1, 'x'])), 'invalid argument', 'Number expected, String provided.', ['sum']);
    await expectBadRequest(driver.client.query(q.Count(5)), 'invalid argument', 'Array, Set, or Page expected, Integer provided.', [
      'count',
    ]);
  });
});

describe('faunadb 4.x driver: arrays', () => {
  it('Take, Drop, Append, Prepend and Reverse of arrays', async () => {
    expect(await driver.client.query(q.Take(2, [1, 2, 3]))).toEqual([1, 2]);
    expect(await driver.client.query(q.Drop(2, [1, 2, 3]))).toEqual([3]);
    expect(await driver.client.query(q.Append([3], [1, 2]))).toEqual([1, 2, 3]);
    expect(await driver.client.query(q.Prepend([0], [1, 2]))).toEqual([0, 1, 2]);
    expect(await driver.client.query(q.Reverse([1, 2, 3]))).toEqual([3, 2, 1]);
  });

  it('Take and Reverse of a page keep it a page; Take of a set is refused', async () => {
    expect(await driver.client.query(q.Take(1, q.Paginate(scores)))).toMatchObject({ data: [3] });
    expect(await driver.client.query(q.Reverse(q.Paginate(scores)))).toEqual({ data: [10, 5, 3] });
    await expectBadRequest(driver.client.query(q.Take(1, scores)), 'invalid argument', 'Array or Page expected, Set provided.', [
      'collection',
    ]);
  });

  it('Paginate(Reverse(set)) pages newest first, and its after cursor continues', async () => {
    const first = await driver.client.query<Page<number>>(q.Paginate(q.Reverse(scores), { size: 2 }));
    expect(first.data).toEqual([10, 5]);
    const rest = await driver.client.query<Page<number>>(q.Paginate(q.Reverse(scores), { size: 2, after: first.after }));
    expect(rest.data).toEqual([3]);
  });
});

describe('faunadb 4.x driver: objects', () => {
  it('Merge, with and without a resolver lambda', async () => {
    expect(await driver.client.query(q.Merge({ a: 1, b: 2 }, { b: null, c: 3 }))).toEqual({ a: 1, c: 3 });
    expect(await driver.client.query(q.Merge({}, [{ a: 1 }, { b: 2 }]))).toEqual({ a: 1, b: 2 });
    expect(await driver.client.query(q.Merge({ a: 1 }, { a: 2 }, q.Lambda(['key', 'left', 'right'], q.Var('left'))))).toEqual({ a: 1 });
    const merged = await driver.client.query<Doc<{ score: number; extra: boolean }>>(
      q.Merge(q.Get(firstScore.ref), { data: { extra: true } }),
    );
    expect(merged.ref).toBeInstanceOf(values.Ref);
    expect(merged.data).toEqual({ extra: true });
  });

  it('ContainsPath, Contains, ContainsField and ContainsValue', async () => {
    expect(await driver.client.query(q.ContainsPath(['a', 0], { a: [1] }))).toBe(true);
    expect(await driver.client.query(q.Contains(['a', 1], { a: [1] }))).toBe(false);
    expect(await driver.client.query(q.ContainsField('data', q.Get(firstScore.ref)))).toBe(true);
    expect(await driver.client.query(q.ContainsValue(5, scores))).toBe(true);
    expect(await driver.client.query(q.ContainsValue(7, [1, 2]))).toBe(false);
    await expectBadRequest(
      driver.client.query(q.ContainsValue(1, 'abc')),
      'invalid argument',
      'Object, Array, Page, Set, or Ref expected, Scalar provided.',
      ['in'],
    );
  });

  it('ToObject and ToArray', async () => {
    expect(
      await driver.client.query(
        q.ToObject([
          ['x', 1],
          ['y', 2],
        ]),
      ),
    ).toEqual({ x: 1, y: 2 });
    expect(await driver.client.query(q.ToArray({ x: 1 }))).toEqual([['x', 1]]);
    await expectBadRequest(driver.client.query(q.ToObject('str')), 'invalid argument', 'Cannot cast String to Object.', ['to_object']);
  });
});
