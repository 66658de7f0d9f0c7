// The official v4 driver's arithmetic, Max/Min, comparisons and type predicates (`q.Add` … `q.IsRole`) against the
// reference server (profile v4-functions, DEC-065): the wire JSON the driver builds, and how it decodes the answers.
// The driver decodes integers and decimals alike as JS numbers, so result types are checked on the server with
// IsInteger and IsDouble.
import faunadb, { values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstServiceError, useDriverServer, expectBadRequest } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

/** JSON null as an argument: the driver sends it as is, though its type declarations leave null out. */
const NULL = null as unknown as faunadb.Expr;

beforeAll(async () => {
  await driver.client.query(q.CreateCollection({ name: 'scores' }));
  await driver.client.query(
    q.Do([3, 30, 7].map((points) => q.Create(q.Ref(q.Collection('scores'), String(points)), { data: { points } }))),
  );
});

describe('faunadb 4.x driver: arithmetic', () => {
  it('Add, Subtract, Multiply, Divide, Modulo and Abs answer the real service results', async () => {
    const results = await driver.client.query(
      q.Do([
        q.Add(1, 2, 3),
        q.Subtract(10, 3, 2),
        q.Multiply(2, 3, 4),
        q.Divide(7, 2),
        q.Divide(-7, 2),
        q.Modulo(-7, 2),
        q.Abs(-5),
        q.Add(5),
        q.Divide(1, 0.5),
        q.Add(0.25, 0.5),
      ]),
    );
    expect(results).toEqual([6, 5, 24, 3, -3, -1, 5, 5, 2, 0.75]);
  });

  it('integer operations stay integers and a decimal operand makes a decimal', async () => {
    const types = await driver.client.query([
      q.IsInteger(q.Divide(7, 2)),
      q.IsInteger(q.Add(1, 2)),
      q.IsDouble(q.Add(1, 0.5, 0.5)),
      q.IsDouble(q.Multiply(2, 1.5)),
      q.IsInteger(q.Abs(-3)),
    ]);
    expect(types).toEqual([true, true, true, true, true]);
  });

  it('division by zero fails with invalid argument "Illegal division by zero."', async () => {
    await expectBadRequest(driver.client.query(q.Divide(1, 0)), 'invalid argument', 'Illegal division by zero.', []);
    expect(await firstServiceError(driver.client.query(q.Modulo(5, 0)))).toMatchObject({
      code: 'invalid argument',
      description: 'Illegal division by zero.',
    });
  });

  it('a non-number operand fails at its position', async () => {
    await expectBadRequest(driver.client.query(q.Add(1, 'two')), 'invalid argument', 'Number expected, String provided.', ['add', 1]);
    await expectBadRequest(driver.client.query(q.Abs(NULL)), 'invalid argument', 'Number expected, Null provided.', ['abs']);
  });
});

describe('faunadb 4.x driver: Max and Min', () => {
  it('Max and Min of numbers given as arguments or as one array', async () => {
    expect(
      await driver.client.query([
        q.Max(1, 5, 3),
        q.Min([4, 2, 8]),
        q.Max(1, 2.5, 2),
        q.Min(q.Map([3, 1, 2], q.Lambda('x', q.Multiply(q.Var('x'), 10)))),
      ]),
    ).toEqual([5, 2, 2.5, 10]);
  });

  it('Max of a set answers a driver Ref; Min of a page a page holding it', async () => {
    const [max, min] = await driver.client.query<[values.Ref, { data: values.Ref[] }]>([
      q.Max(q.Documents(q.Collection('scores'))),
      q.Min(q.Paginate(q.Documents(q.Collection('scores')))),
    ]);
    expect(max).toBeInstanceOf(values.Ref);
    expect([max.id, max.collection?.id]).toEqual(['30', 'scores']);
    expect(min.data).toHaveLength(1);
    expect([min.data[0]!.id, min.data[0]!.collection?.id]).toEqual(['3', 'scores']);
  });

  it('Max of a lone number fails: the driver sends it unwrapped', async () => {
    await expectBadRequest(driver.client.query(q.Max(5)), 'invalid argument', 'Array, Set, or Page expected, Integer provided.', ['max']);
  });
});

describe('faunadb 4.x driver: comparisons', () => {
  it('LT, LTE, GT and GTE compare numbers of both kinds and values of different types', async () => {
    const answers = await driver.client.query([
      q.LT(1, 2, 3),
      q.LT(1, 3, 2),
      q.LTE(1, 1.0, 1.5),
      q.GT(3, 2.5, 2),
      q.GTE(2, 2),
      q.LT(3),
      q.LT(1, 'a', [], {}, false, true, NULL),
      q.GT('b', 'a'),
    ]);
    expect(answers).toEqual([true, false, true, true, true, true, true, true]);
  });

  it('a comparison inside a Filter lambda keeps the matching elements', async () => {
    expect(await driver.client.query(q.Filter([1, 5, 10, 3], q.Lambda('x', q.GT(q.Var('x'), 3))))).toEqual([5, 10]);
    const high = await driver.client.query<values.Ref[]>(
      q.Filter(
        q.Select('data', q.Paginate(q.Documents(q.Collection('scores')))),
        q.Lambda('r', q.GTE(q.Select(['data', 'points'], q.Get(q.Var('r'))), 7)),
      ),
    );
    expect(high.map((ref) => ref.id).sort()).toEqual(['30', '7']);
  });

  it('a comparison with a ref to a missing collection fails with invalid ref', async () => {
    await expectBadRequest(
      driver.client.query(q.LT(q.Collection('missing'), 1)),
      'invalid ref',
      "Ref refers to undefined collection 'missing'",
      ['lt'],
    );
  });
});

describe('faunadb 4.x driver: type predicates', () => {
  it('each predicate answers true for its own kind of value', async () => {
    const scores = q.Collection('scores');
    const answers = await driver.client.query([
      q.IsNumber(1),
      q.IsInteger(1),
      q.IsDouble(1.5),
      q.IsBoolean(false),
      q.IsNull(null),
      q.IsString('s'),
      q.IsArray([1]),
      q.IsObject({ a: 1 }),
      q.IsBytes(new values.Bytes(new Uint8Array([1, 2]))),
      q.IsTimestamp(q.Now()),
      q.IsDate(new values.FaunaDate('2020-01-01')),
      q.IsRef(q.Ref(scores, '3')),
      q.IsSet(q.Documents(scores)),
      q.IsDoc(q.Get(q.Ref(scores, '3'))),
      q.IsLambda(q.Query(q.Lambda('x', q.Var('x')))),
      q.IsCollection(scores),
      q.IsDatabase(q.Select('ref', q.CreateDatabase({ name: 'child' }))),
      q.IsIndex(q.Select('ref', q.CreateIndex({ name: 'scores_by_points', source: scores, terms: [{ field: ['data', 'points'] }] }))),
      q.IsRole(q.Select('ref', q.CreateRole({ name: 'reader', privileges: [] }))),
      q.IsKey(q.Select('ref', q.CreateKey({ role: 'server' }))),
      q.IsCredentials(q.Ref(q.Credentials(), '1')),
      q.IsToken(q.Ref(q.Tokens(), '1')),
    ]);
    expect(answers).toEqual(new Array(22).fill(true));
  });

  it('each predicate answers false for other values', async () => {
    const scores = q.Collection('scores');
    const answers = await driver.client.query([
      q.IsNumber('1'),
      q.IsInteger(1.5),
      q.IsDouble(1),
      q.IsBoolean(null),
      q.IsNull(false),
      q.IsString(1),
      q.IsArray({}),
      q.IsObject(q.Ref(scores, '3')),
      q.IsTimestamp(new values.FaunaDate('2020-01-01')),
      q.IsDate(q.Now()),
      q.IsRef(q.Get(q.Ref(scores, '3'))),
      q.IsSet([1]),
      q.IsDoc(q.Collection('missing')),
      q.IsLambda('x'),
      q.IsCollection(q.Ref(scores, '3')),
      q.IsIndex(scores),
      q.IsFunction(scores),
      q.IsKey(q.Get(q.Ref(scores, '3'))),
    ]);
    expect(answers).toEqual(new Array(18).fill(false));
  });
});
