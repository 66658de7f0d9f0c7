// The official v4 driver's q.Reduce, q.SelectAll and q.KeyFromSecret, and q.Map / q.Foreach of what they do not take,
// against the reference server (spec/requirements/functions-collections.md, functions-keys.md).
import faunadb, { type values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, driverClient, expectBadRequest, firstServiceError, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

const red = q.Match(q.Index('points_by_team'), 'red');
const add = q.Lambda(['acc', 'v'], q.Add(q.Var('acc'), q.Var('v')));

beforeAll(async () => {
  await createIndexedCollection(
    driver.client,
    { name: 'points' },
    {
      name: 'points_by_team',
      terms: [{ field: ['data', 'team'] }],
      values: [{ field: ['data', 'n'] }],
    },
  );
  await driver.client.query(
    q.Foreach([4, 1, 3, 2], q.Lambda('n', q.Create(q.Collection('points'), { data: { team: 'red', n: q.Var('n') } }))),
  );
});

describe('faunadb 4.x driver: Reduce', () => {
  it('folds arrays, sets and pages', async () => {
    expect(await driver.client.query(q.Reduce(add, 10, [1, 2, 3]))).toBe(16);
    expect(await driver.client.query(q.Reduce(q.Lambda(['acc', 'v'], q.Concat([q.Var('acc'), q.Var('v')])), '', ['Fauna', 'DB']))).toBe(
      'FaunaDB',
    );
    expect(await driver.client.query(q.Reduce(q.Lambda(['acc', 'v'], q.Append(q.Var('v'), q.Var('acc'))), [], red))).toEqual([1, 2, 3, 4]);
    expect(await driver.client.query(q.Reduce(add, 0, q.Match(q.Index('points_by_team'), 'blue')))).toBe(0);
    const page = await driver.client.query<{ data: number[]; after?: unknown[] }>(q.Reduce(add, 0, q.Paginate(red, { size: 3 })));
    expect(page.data).toEqual([6]);
    const paged = await driver.client.query<{ after?: unknown[] }>(q.Paginate(red, { size: 3 }));
    expect(page.after).toEqual(paged.after);
  });

  it('refuses what it cannot fold', async () => {
    await expectBadRequest(
      driver.client.query(q.Reduce(add, 0, 5)),
      'invalid argument',
      'Array, Set, or Page expected, Integer provided.',
      ['collection'],
    );
    await expectBadRequest(
      driver.client.query(q.Reduce(q.Lambda(['a', 'b', 'c'], q.Var('a')), 0, [1])),
      'invalid argument',
      'Lambda expects an array with 3 elements. Array contains 2.',
      ['reduce', 'lambda'],
    );
  });
});

describe('faunadb 4.x driver: Map and Foreach of what they do not take', () => {
  it('names arrays, sets and pages for a non-collection, arrays and pages for a set', async () => {
    const identity = q.Lambda('x', q.Var('x'));
    await expectBadRequest(driver.client.query(q.Map(5, identity)), 'invalid argument', 'Array, Set, or Page expected, Integer provided.', [
      'collection',
    ]);
    await expectBadRequest(
      driver.client.query(q.Foreach('abc', identity)),
      'invalid argument',
      'Array, Set, or Page expected, String provided.',
      ['collection'],
    );
    await expectBadRequest(driver.client.query(q.Map(red, identity)), 'invalid argument', 'Array or Page expected, Set provided.', [
      'collection',
    ]);
  });
});

describe('faunadb 4.x driver: SelectAll', () => {
  it('collects every value at the path', async () => {
    expect(await driver.client.query(q.SelectAll('a', [{ a: 1 }, { b: 2 }, { a: [3, 4] }]))).toEqual([1, 3, 4]);
    expect(await driver.client.query(q.SelectAll(['a', 'b'], { a: [{ b: 1 }, { b: 2 }] }))).toEqual([1, 2]);
    expect(await driver.client.query(q.SelectAll('z', { a: 1 }))).toEqual([]);
    await expectBadRequest(
      driver.client.query(q.SelectAll(['a', true], {})),
      'invalid argument',
      'String or Integer expected, Boolean provided.',
      ['select_all', 1],
    );
  });
});

describe('faunadb 4.x driver: KeyFromSecret', () => {
  it('answers the key record of a key secret and the token record of a token secret', async () => {
    const key = await driver.client.query<{ ref: values.Ref; secret: string }>(q.CreateKey({ role: 'server' }));
    const found = await driver.client.query<{ ref: values.Ref }>(q.KeyFromSecret(key.secret));
    expect(found).toEqual(await driver.client.query(q.Get(key.ref)));

    await driver.client.query(q.CreateCollection({ name: 'people' }));
    const ada = await driver.client.query<{ ref: values.Ref }>(q.Create(q.Collection('people'), { credentials: { password: 'sekrit' } }));
    const token = await driver.client.query<{ ref: values.Ref; secret: string }>(q.Login(ada.ref, { password: 'sekrit' }));
    const asServer = driverClient(driver.server, key.secret);
    try {
      expect(await asServer.query(q.KeyFromSecret(token.secret))).toEqual(await asServer.query(q.Get(token.ref)));
      const refused = await firstServiceError(asServer.query(q.KeyFromSecret(key.secret)));
      expect(refused).toEqual({
        status: 404,
        code: 'instance not found',
        description: `No key found for secret ${key.secret}.`,
        position: [],
      });
    } finally {
      await asServer.close();
    }
  });

  it('answers instance not found for an unknown secret and invalid argument for a non-string', async () => {
    const unknown = await firstServiceError(driver.client.query(q.KeyFromSecret('nope')));
    expect(unknown).toEqual({ status: 404, code: 'instance not found', description: 'No key found for secret nope.', position: [] });
    await expectBadRequest(
      driver.client.query(q.KeyFromSecret(1 as unknown as string)),
      'invalid argument',
      'String expected, Integer provided.',
      ['key_from_secret'],
    );
  });
});
