// Reduce, SelectAll, KeyFromSecret, and the errors of Map, Foreach and Filter for what they do not take (profile
// v4-functions; spec/requirements/functions-collections.md and functions-keys.md).
import { beforeAll, describe, expect } from 'vitest';
import { check, target, useTenant } from '../../../harness/index.js';
import {
  collection,
  createCollections,
  createIndex,
  createKey,
  expectQueryError,
  lambda,
  literal,
  match,
  obj,
} from '../../../harness/v4.js';
import { createUser, login } from '../../auth/auth-fixtures.js';
import { expectFailure, named, resultOf } from './function-cases.js';

const t = useTenant();

const sumLambda = lambda(['acc', 'v'], { add: [{ var: 'acc' }, { var: 'v' }] });
const appendLambda = lambda(['acc', 'v'], { append: { var: 'v' }, collection: { var: 'acc' } });
const reduce = (fn: unknown, initial: unknown, coll: unknown): unknown => ({ reduce: fn, initial, collection: coll });
const group = (g: string): unknown => match('fk_values_by_group', g);

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: 'fk_items' } } })).expectStatus(201);
  const byGroup = createIndex({
    name: 'fk_values_by_group',
    source: collection('fk_items'),
    terms: [{ field: ['data', 'g'] }],
    values: [{ field: ['data', 'v'] }],
  });
  (await t.server.query(byGroup)).expectStatus(201);
  const docs = [3n, 1n, 5n, 2n, 4n].map((v) => ({ create: collection('fk_items'), params: literal({ data: { g: 'a', v } }) }));
  (await t.server.query(docs)).expectStatus(200);
});

describe('Reduce', () => {
  check.each([
    { name: 'sums integers from the initial value', expr: reduce(sumLambda, 10n, [1n, 2n, 3n]), expected: 16n },
    {
      name: 'folds first to last',
      expr: reduce(lambda(['acc', 'v'], { concat: [{ var: 'acc' }, { var: 'v' }] }), '', ['Fauna', 'DB', ' ', 'rocks']),
      expected: 'FaunaDB rocks',
    },
    { name: 'of an empty array answers the initial value', expr: reduce(sumLambda, literal({ a: 1n }), []), expected: { a: 1n } },
    {
      name: 'gives a one-parameter lambda the pair as an array',
      expr: reduce(lambda('pair', { var: 'pair' }), 0n, [1n, 2n]),
      expected: [[0n, 1n], 2n],
    },
  ])(['FN-AGG-011'], 'Reduce of an array $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check(['FN-AGG-012'], 'Reduce of a set folds every entry in the set order and answers the result itself', async () => {
    expect(await resultOf(t.server, reduce(appendLambda, [], group('a')))).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(await resultOf(t.server, reduce(sumLambda, 10n, group('a')))).toEqual(25n);
  });

  check(['FN-AGG-012'], 'Reduce of a Match on an index a client key may not read answers 403 permission denied', async () => {
    expectQueryError(await t.client.query(reduce(sumLambda, 0n, group('a'))), [403, 'permission denied']);
  });

  check(['FN-AGG-012'], 'Reduce of an empty set answers the initial value', async () => {
    expect(await resultOf(t.server, reduce(sumLambda, 10n, group('none')))).toEqual(10n);
  });

  check(['FN-AGG-012'], "Reduce of a page answers a page holding the result, with the page's cursors", async () => {
    const first = await resultOf(t.server, { paginate: group('a'), size: 2n });
    const second = await resultOf(t.server, { paginate: group('a'), size: 2n, after: first.after });
    expect(await resultOf(t.server, reduce(sumLambda, 0n, { paginate: group('a'), size: 2n }))).toEqual({ after: first.after, data: [3n] });
    const reducedSecond = await resultOf(t.server, reduce(sumLambda, 100n, { paginate: group('a'), size: 2n, after: first.after }));
    expect(reducedSecond).toEqual({ before: second.before, after: second.after, data: [107n] });
    expect(await resultOf(t.server, reduce(sumLambda, 10n, { paginate: group('none') }))).toEqual({ data: [10n] });
  });

  check.each(
    named([
      { expr: reduce(sumLambda, 0n, 1n), description: 'Array, Set, or Page expected, Integer provided.', position: ['collection'] },
      { expr: reduce(sumLambda, 0n, 'abc'), description: 'Array, Set, or Page expected, String provided.', position: ['collection'] },
      {
        expr: reduce(sumLambda, 0n, literal({ a: 1n })),
        description: 'Array, Set, or Page expected, Object provided.',
        position: ['collection'],
      },
      {
        expr: reduce(lambda(['a', 'b', 'c'], { var: 'a' }), 0n, [1n]),
        description: 'Lambda expects an array with 3 elements. Array contains 2.',
        position: ['reduce', 'lambda'],
      },
      {
        expr: reduce(lambda(['a'], { var: 'a' }), 0n, [1n]),
        description: 'Lambda expects an array with 1 elements. Array contains 2.',
        position: ['reduce', 'lambda'],
      },
    ]),
  )(['FN-AGG-013'], 'Reduce refuses $name with invalid argument', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      { expr: reduce(1n, 0n, [1n]), description: 'Lambda expected, Integer provided.' },
      { expr: reduce('x', 0n, [1n]), description: 'Lambda expected, String provided.' },
      {
        expr: reduce({ let: { f: lambda(['a', 'b'], { var: 'a' }) }, in: { var: 'f' } }, 0n, [1n]),
        description: 'No form/function found, or invalid argument keys: { let, in }.',
      },
    ]),
  )(['FN-AGG-013'], 'Reduce refuses $name, a reduce not written as a lambda, with invalid expression', async ({ expr, description }) => {
    await expectFailure(t.server, expr, 400, 'invalid expression', description, ['reduce']);
  });
});

describe('Results that cannot be answered', () => {
  check(
    ['LIMIT-RESULT-001'],
    'a result nested ten thousand deep is answered whole, or refused with 400 stack overflow and nothing written',
    async () => {
      const levels = 10_000;
      const deep = reduce(
        lambda(['acc', 'v'], [{ var: 'acc' }]),
        [],
        Array.from({ length: levels }, (_, i) => BigInt(i)),
      );
      const write = { create: { ref: { collection: 'fk_items' }, id: '424242' }, params: literal({ data: { kept: false } }) };
      // Not parsed or checked against a schema: the suite's own parser and validator recurse, and a server that can
      // render the result answers 10,001 nested arrays, which is compared as text.
      const res = await t.server.query({ do: [write, deep] }, { validate: false });
      const written = async () => resultOf(t.server, { exists: { ref: { collection: 'fk_items' }, id: '424242' } });
      if (res.status === 200) {
        expect(
          res.text.replace(/\s/g, '') === `{"resource":${'['.repeat(levels + 1)}${']'.repeat(levels + 1)}}`,
          'a 200 answers the whole nested result',
        ).toBe(true);
        expect(await written()).toBe(true);
        return;
      }
      expectQueryError(res, [400, 'stack overflow']);
      expect(await written()).toBe(false);
    },
  );

  check(
    ['LIMIT-RESULT-001'],
    'a result of 2^40 leaves (Reduce doubling [acc, acc] forty times) answers 400 invalid argument, and the query writes nothing',
    async () => {
      // The value shares its halves, so it is forty arrays in memory; only its text is too large.
      const doubled = reduce(
        lambda(['acc', 'v'], [{ var: 'acc' }, { var: 'acc' }]),
        [],
        Array.from({ length: 40 }, (_, i) => BigInt(i)),
      );
      const write = { create: { ref: { collection: 'fk_items' }, id: '424243' }, params: literal({ data: { kept: false } }) };
      expectQueryError(await t.server.query({ do: [write, doubled] }), [400, 'invalid argument']);
      expect(await resultOf(t.server, { exists: { ref: { collection: 'fk_items' }, id: '424243' } })).toBe(false);
    },
  );
});

describe('Map and Foreach of what they do not take', () => {
  const identity = lambda('x', { var: 'x' });
  check.each(
    named([
      { expr: { map: identity, collection: 1n }, description: 'Array, Set, or Page expected, Integer provided.' },
      { expr: { foreach: identity, collection: 'abc' }, description: 'Array, Set, or Page expected, String provided.' },
      { expr: { map: identity, collection: literal({ a: 1n }) }, description: 'Array, Set, or Page expected, Object provided.' },
      { expr: { foreach: identity, collection: null }, description: 'Array, Set, or Page expected, Null provided.' },
    ]),
  )(['FN-ARR-009'], '$name answers invalid argument at ["collection"]', async ({ expr, description }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, ['collection']);
  });

  check.each(
    named([
      { expr: { map: 1n, collection: [1n] }, description: 'Lambda expected, Integer provided.', position: ['map'] },
      { expr: { foreach: 'x', collection: [1n] }, description: 'Lambda expected, String provided.', position: ['foreach'] },
      {
        expr: { filter: { let: { f: identity }, in: { var: 'f' } }, collection: [1n] },
        description: 'No form/function found, or invalid argument keys: { let, in }.',
        position: ['filter'],
      },
    ]),
  )(
    ['FN-ARR-011'],
    '$name, a lambda not written as a lambda form, answers invalid expression at the form',
    async ({ expr, description, position }) => {
      await expectFailure(t.server, expr, 400, 'invalid expression', description, position);
    },
  );

  const pair = lambda(['a', 'b'], true);
  check.each(
    named([
      { expr: { map: pair, collection: [1n, 2n] }, position: ['map', 'lambda'] },
      { expr: { filter: pair, collection: [1n, 2n] }, position: ['filter', 'lambda'] },
      { expr: { filter: pair, collection: { paginate: group('a') } }, position: ['filter', 'lambda'] },
      { expr: { paginate: { filter: pair, collection: group('a') } }, position: ['paginate', 'filter', 'lambda'] },
    ]),
  )(
    ['FN-ARR-011'],
    '$name, an element that does not fit the parameters, answers invalid argument at the lambda',
    async ({ expr, position }) => {
      await expectFailure(t.server, expr, 400, 'invalid argument', 'Lambda expects an array with 2 elements. Array contains 1.', position);
    },
  );
});

describe('SelectAll', () => {
  check.each(
    named([
      { expr: { select_all: 'a', from: literal([{ a: 1n }, { b: 2n }, { a: [3n, [4n]] }]) }, expected: [1n, 3n, 4n] },
      { expr: { select_all: ['a', 'b'], from: literal({ a: [{ b: 1n }, { c: 3n }, { b: 2n }] }) }, expected: [1n, 2n] },
      { expr: { select_all: ['a', 1n], from: literal({ a: ['p', 'q'] }) }, expected: ['q'] },
      { expr: { select_all: ['a', 0n, 'b'], from: literal({ a: [{ b: [1n, 2n] }, { b: 3n }] }) }, expected: [1n, 2n] },
      { expr: { select_all: 'a', from: literal({ a: 1n }) }, expected: [1n] },
      { expr: { select_all: 'a', from: literal({ a: [[1n], 2n] }) }, expected: [1n, 2n] },
      { expr: { select_all: [], from: [[1n, [2n]], 3n] }, expected: [1n, 2n, 3n] },
      { expr: { select_all: [], from: 5n }, expected: [5n] },
      { expr: { select_all: 'z', from: literal({ a: 1n }) }, expected: [] },
      { expr: { select_all: 'a', from: 5n }, expected: [] },
      { expr: { select_all: 5n, from: [1n] }, expected: [] },
    ]),
  )(['FN-OBJ-012'], '$name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each(
    named([
      {
        expr: { select_all: ['a', true], from: literal({}) },
        description: 'String or Integer expected, Boolean provided.',
        position: ['select_all', 1n],
      },
      {
        expr: { select_all: null, from: literal({}) },
        description: 'String or Integer expected, Null provided.',
        position: ['select_all'],
      },
      {
        expr: { select_all: [literal({ a: 1n })], from: [] },
        description: 'String or Integer expected, Object provided.',
        position: ['select_all', 0n],
      },
    ]),
  )(['FN-OBJ-013'], 'a wrong path element answers invalid argument: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      { expr: { select: 'a', from: literal({ a: [1n, 2n] }), all: true }, expected: [1n, 2n] },
      { expr: { select: 'a', from: literal([{ a: 1n }, { b: 2n }, { a: [3n, [4n]] }]), all: true }, expected: [1n, 3n, 4n] },
      { expr: { select: ['a', 'b'], from: literal({ a: [{ b: 1n }, { c: 3n }, { b: 2n }] }), all: true }, expected: [1n, 2n] },
      { expr: { select: 'z', from: literal({ a: 1n }), all: true }, expected: [] },
    ]),
  )(['FN-OBJ-014'], 'Select with all: true answers as SelectAll: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });
});

describe('KeyFromSecret', () => {
  const CHILD = 'fk_child';
  const keyFromSecret = (secret: unknown): unknown => ({ key_from_secret: secret });
  const notFound = (secret: string) => `No key found for secret ${secret}.`;
  const PAST = { '@ts': '2001-01-01T00:00:00Z' };
  let serverKey: { ref: unknown; secret: string };
  let childAdminSecret: string;
  let grandchildKey: { ref: unknown; secret: string };
  let token: { ref: unknown; secret: string };

  beforeAll(async () => {
    serverKey = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(201).resource;
    (await t.admin.query({ create_database: obj({ name: CHILD }) })).expectStatus(201);
    childAdminSecret = (await t.admin.query(createKey(CHILD, 'admin'))).expectStatus(201).resource.secret;
    grandchildKey = (
      await t.as(childAdminSecret).query({ create_key: obj({ role: 'client', data: obj({ note: 'in child' }) }) })
    ).expectStatus(201).resource;
    await createCollections(t.server, 'fk_users');
    const user = await createUser(t.server, 'fk_users');
    const { secret, response } = await login(t.server, user);
    token = { ref: response.resource.ref, secret };
  });

  check(['FN-KEY-001'], "an admin key gets the key record of a key of its database, as Get of the key's ref answers it", async () => {
    const found = await resultOf(t.admin, keyFromSecret(serverKey.secret));
    expect(found).toEqual(await resultOf(t.admin, { get: serverKey.ref }));
    expect(found.ref).toEqual(serverKey.ref);
    expect(found).not.toHaveProperty('secret');
  });

  check(['FN-KEY-001'], 'an admin key gets the record of a key of a child database, its ref naming that database', async () => {
    const found = await resultOf(t.admin, keyFromSecret(grandchildKey.secret));
    const id = (grandchildKey.ref as { '@ref': { id: string } })['@ref'].id;
    expect(found).toEqual(await resultOf(t.admin, { get: { ref: { keys: { database: CHILD } }, id } }));
    expect(found.data).toEqual({ note: 'in child' });
  });

  check(['FN-KEY-002'], "a server key gets the token record of a token's secret, as Get of the token's ref answers it", async () => {
    const found = await resultOf(t.server, keyFromSecret(token.secret));
    expect(found).toEqual(await resultOf(t.server, { get: token.ref }));
    expect(found.ref).toEqual(token.ref);
  });

  check(['FN-KEY-003'], 'a text that is no live secret answers 404 instance not found at []', async () => {
    for (const text of ['not a secret', '', `${t.secrets.admin}:${CHILD}:admin`]) {
      await expectFailure(t.admin, keyFromSecret(text), 404, 'instance not found', notFound(text), []);
    }
    const doomed = (await t.admin.query(createKey(undefined, 'client'))).expectStatus(201).resource;
    (await t.admin.query({ delete: doomed.ref })).expectStatus(200);
    await expectFailure(t.admin, keyFromSecret(doomed.secret), 404, 'instance not found', notFound(doomed.secret), []);
    // The suite's own secret: the root secret (or an admin key of a database above the tenant's).
    const root = target().secret;
    await expectFailure(t.admin, keyFromSecret(root), 404, 'instance not found', notFound(root), []);
  });

  check(
    ['FN-KEY-003'],
    'the secret of an expired key or token, or of a token whose user was deleted, answers 404 instance not found at []',
    async () => {
      const expiredKey = (await t.admin.query(createKey(undefined, 'client', { ttl: PAST }))).expectStatus(201).resource.secret as string;
      await expectFailure(t.admin, keyFromSecret(expiredKey), 404, 'instance not found', notFound(expiredKey), []);
      const user = await createUser(t.server, 'fk_users');
      const expiredToken = (await t.server.query({ login: user.ref, params: obj({ password: user.password, ttl: PAST }) })).expectStatus(
        201,
      ).resource.secret as string;
      await expectFailure(t.server, keyFromSecret(expiredToken), 404, 'instance not found', notFound(expiredToken), []);
      const leaving = await createUser(t.server, 'fk_users');
      const orphan = await login(t.server, leaving);
      expect((await resultOf(t.server, keyFromSecret(orphan.secret))).ref).toEqual(orphan.response.resource.ref);
      (await t.server.query({ delete: leaving.ref })).expectStatus(200);
      await expectFailure(t.server, keyFromSecret(orphan.secret), 404, 'instance not found', notFound(orphan.secret), []);
    },
  );

  check(['FN-KEY-004'], 'a caller that may not read the record gets the same instance not found, not permission denied', async () => {
    await expectFailure(t.server, keyFromSecret(serverKey.secret), 404, 'instance not found', notFound(serverKey.secret), []);
    await expectFailure(t.client, keyFromSecret(serverKey.secret), 404, 'instance not found', notFound(serverKey.secret), []);
    await expectFailure(t.client, keyFromSecret(token.secret), 404, 'instance not found', notFound(token.secret), []);
    // The child's admin key cannot reach a key of the parent database.
    await expectFailure(t.as(childAdminSecret), keyFromSecret(serverKey.secret), 404, 'instance not found', notFound(serverKey.secret), []);
  });

  check.each(
    named([
      { expr: keyFromSecret(1n), description: 'String expected, Integer provided.' },
      { expr: keyFromSecret(null), description: 'String expected, Null provided.' },
      { expr: keyFromSecret(['a']), description: 'String expected, Array provided.' },
    ]),
  )(['FN-KEY-005'], '$name answers invalid argument at ["key_from_secret"]', async ({ expr, description }) => {
    await expectFailure(t.admin, expr, 400, 'invalid argument', description, ['key_from_secret']);
  });
});
