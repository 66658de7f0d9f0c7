// FQL v4 arithmetic, Max and Min, and the comparisons LT, LTE, GT, GTE (profile v4-functions, DEC-065):
// exact results with their wire types (integers parse to bigint, decimals to number), and exact errors.
import { beforeAll, describe, expect } from 'vitest';
import { check, decimal as d, stringifyWireJson, useTenant } from '../../../harness/index.js';
import { createCollection, createDoc, docRef, expectQueryError, literal } from '../../../harness/v4.js';
import type { ErrorCase as FunctionErrorCase, ResultCase as FunctionResultCase } from './function-cases.js';

/** NaN and infinity as the suite produces them: JSON carries neither, so they come from Pow. */
const NAN = { pow: d('-8.0'), exp: d('0.5') };
const INFINITY = { pow: 0n, exp: -1n };
const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

/** `expected` compared with Object.is semantics, so 3n ≠ 3 (integer vs decimal) and 0 ≠ -0. */
type ResultCase = Omit<FunctionResultCase, 'ids'>;

/** `code` when not `invalid argument`. */
interface ErrorCase extends Omit<FunctionErrorCase, 'ids'> {
  code?: string;
}

// The tests only read (each block's fixtures are its own collections, written before its tests), so they run at once,
// in one tenant for the file.
const t = useTenant();

describe.concurrent('Arithmetic', () => {
  const expectResult = async ({ expr, expected }: ResultCase) => {
    const res = await t.server.query(expr);
    expect(res.expectStatus(200).resource, res.explain('wrong result')).toStrictEqual(expected);
  };

  const expectError = async ({ expr, code = 'invalid argument', description, position }: ErrorCase) => {
    const error = expectQueryError(await t.server.query(expr), [400, code]);
    expect(error).toMatchObject({ code, description, position });
  };

  check.each<ResultCase>([
    { name: 'integers', expr: { add: [1n, 2n, 3n] }, expected: 6n },
    { name: 'negative integers', expr: { add: [-1n, -1n, 5n] }, expected: 3n },
    { name: 'an integer and a decimal', expr: { add: [1n, d('2.5')] }, expected: 3.5 },
    { name: 'decimals with a whole sum', expr: { add: [d('1.5'), d('1.5')] }, expected: 3 },
  ])(['FN-NUM-001'], 'Add of $name', expectResult);

  check.each<ResultCase>([
    { name: 'Subtract of integers', expr: { subtract: [10n, 3n, 2n] }, expected: 5n },
    { name: 'Subtract with a decimal', expr: { subtract: [10n, d('0.5')] }, expected: 9.5 },
    { name: 'Subtract, a decimal in the middle', expr: { subtract: [1n, d('0.5'), 1n] }, expected: -0.5 },
    { name: 'Multiply of integers', expr: { multiply: [2n, 3n, 4n] }, expected: 24n },
    { name: 'Multiply with a decimal, whole product', expr: { multiply: [2n, d('1.5')] }, expected: 3 },
    { name: 'Divide of integers, left to right', expr: { divide: [10n, 2n, 5n] }, expected: 1n },
    { name: 'Divide of an integer by a decimal', expr: { divide: [7n, d('2.0')] }, expected: 3.5 },
    { name: 'Divide of a decimal by an integer', expr: { divide: [d('1.0'), 4n] }, expected: 0.25 },
    { name: 'Modulo of integers', expr: { modulo: [100n, 11n] }, expected: 1n },
    { name: 'Modulo, left to right', expr: { modulo: [100n, 3n, 5n] }, expected: 1n },
  ])(['FN-NUM-002'], '$name', expectResult);

  check.each<ResultCase>([
    { name: 'Add of a lone integer', expr: { add: 5n }, expected: 5n },
    { name: 'Add of a one-element array', expr: { add: [5n] }, expected: 5n },
    { name: 'Subtract of one integer', expr: { subtract: [5n] }, expected: 5n },
    { name: 'Multiply of one negative integer', expr: { multiply: [-2n] }, expected: -2n },
    { name: 'Divide of one integer', expr: { divide: [4n] }, expected: 4n },
    { name: 'Modulo of a lone decimal', expr: { modulo: d('2.5') }, expected: 2.5 },
    { name: 'Add of one whole decimal', expr: { add: [d('2.0')] }, expected: 2 },
  ])(['FN-NUM-003'], '$name answers the operand unchanged', expectResult);

  check.each<ResultCase>([
    { name: 'Add past the largest integer', expr: { add: [MAX, 1n] }, expected: MIN },
    { name: 'Subtract past the smallest integer', expr: { subtract: [MIN, 1n] }, expected: MAX },
    { name: 'Multiply of the largest integer by 2', expr: { multiply: [MAX, 2n] }, expected: -2n },
    { name: 'Multiply reaching 2^63', expr: { multiply: [4611686018427387904n, 2n] }, expected: MIN },
    { name: 'Divide of the smallest integer by -1', expr: { divide: [MIN, -1n] }, expected: MIN },
  ])(['FN-NUM-004'], '$name wraps around in 64 bits', expectResult);

  check.each<ResultCase>([
    { name: 'Divide(7, 2)', expr: { divide: [7n, 2n] }, expected: 3n },
    { name: 'Divide(-7, 2)', expr: { divide: [-7n, 2n] }, expected: -3n },
    { name: 'Divide(2, 5)', expr: { divide: [2n, 5n] }, expected: 0n },
    { name: 'Modulo(-7, 2)', expr: { modulo: [-7n, 2n] }, expected: -1n },
    { name: 'Modulo(7, -2)', expr: { modulo: [7n, -2n] }, expected: 1n },
    { name: 'Modulo(7.5, 2)', expr: { modulo: [d('7.5'), 2n] }, expected: 1.5 },
    { name: 'Modulo(-7.5, 2)', expr: { modulo: [d('-7.5'), 2n] }, expected: -1.5 },
  ])(['FN-NUM-005'], '$name truncates toward zero', expectResult);

  check.each<ErrorCase>([
    { name: 'Divide(1, 0)', expr: { divide: [1n, 0n] }, description: 'Illegal division by zero.', position: [] },
    { name: 'Divide(10, 2, 0)', expr: { divide: [10n, 2n, 0n] }, description: 'Illegal division by zero.', position: [] },
    { name: 'Divide(1.0, 0.0)', expr: { divide: [d('1.0'), d('0.0')] }, description: 'Illegal division by zero.', position: [] },
    { name: 'Divide(1, -0.0)', expr: { divide: [1n, d('-0.0')] }, description: 'Illegal division by zero.', position: [] },
    { name: 'Modulo(100, 0)', expr: { modulo: [100n, 0n] }, description: 'Illegal division by zero.', position: [] },
    { name: 'Modulo(1.5, 0.0)', expr: { modulo: [d('1.5'), d('0.0')] }, description: 'Illegal division by zero.', position: [] },
    {
      name: 'Divide by zero inside Let',
      expr: { let: { x: 0n }, in: { divide: [1n, { var: 'x' }] } },
      description: 'Illegal division by zero.',
      position: ['in'],
    },
  ])(['FN-NUM-006'], '$name answers invalid argument at the call', expectError);

  check.each<ErrorCase>([
    { name: 'Add of a string element', expr: { add: [1n, 'a'] }, description: 'Number expected, String provided.', position: ['add', 1n] },
    { name: 'Add of a lone string', expr: { add: 'a' }, description: 'Number expected, String provided.', position: ['add'] },
    {
      name: 'Multiply of a boolean',
      expr: { multiply: [true] },
      description: 'Number expected, Boolean provided.',
      position: ['multiply', 0n],
    },
    {
      name: 'Subtract of null',
      expr: { subtract: [1n, null] },
      description: 'Number expected, Null provided.',
      position: ['subtract', 1n],
    },
    {
      name: 'Divide of an array element',
      expr: { divide: [1n, [2n]] },
      description: 'Number expected, Array provided.',
      position: ['divide', 1n],
    },
    {
      name: 'Modulo of an object',
      expr: { modulo: [1n, literal({ a: 1n })] },
      description: 'Number expected, Object provided.',
      position: ['modulo', 1n],
    },
    {
      name: 'Add of a collection ref',
      expr: { add: [1n, { collection: 'no_such_collection' }] },
      description: 'Number expected, Collection Ref provided.',
      position: ['add', 1n],
    },
    {
      name: 'Divide by zero before a string',
      expr: { divide: [1n, 0n, 'a'] },
      description: 'Number expected, String provided.',
      position: ['divide', 2n],
    },
  ])(['FN-NUM-007'], '$name answers invalid argument at the operand', expectError);

  check.each(['add', 'subtract', 'multiply', 'divide', 'modulo', 'lt', 'lte', 'gt', 'gte'])(
    ['FN-NUM-008'],
    '%s of an empty array answers Non-empty array expected',
    async (fn) => {
      await expectError({ name: fn, expr: { [fn]: [] }, description: 'Non-empty array expected.', position: [fn] });
    },
  );

  check.each<ResultCase>([
    { name: 'Abs(-5)', expr: { abs: -5n }, expected: 5n },
    { name: 'Abs(5)', expr: { abs: 5n }, expected: 5n },
    { name: 'Abs(-1.5)', expr: { abs: d('-1.5') }, expected: 1.5 },
    { name: 'Abs(-2.0)', expr: { abs: d('-2.0') }, expected: 2 },
    { name: 'Abs(-0.0)', expr: { abs: d('-0.0') }, expected: 0 },
    { name: 'Abs of the smallest integer', expr: { abs: MIN }, expected: MIN },
    { name: 'Abs of a sum', expr: { abs: { add: [-1n, -2n, -3n] } }, expected: 6n },
  ])(['FN-NUM-009'], '$name', expectResult);

  check.each<ErrorCase>([
    { name: 'a string', expr: { abs: '5' }, description: 'Number expected, String provided.', position: ['abs'] },
    { name: 'an array', expr: { abs: [1n] }, description: 'Number expected, Array provided.', position: ['abs'] },
    { name: 'null', expr: { abs: null }, description: 'Number expected, Null provided.', position: ['abs'] },
  ])(['FN-NUM-009'], 'Abs of $name answers invalid argument', expectError);
});

describe.concurrent('Max and Min', () => {
  const COLL = 'nm_things';
  const EMPTY = 'nm_empty';
  const ref = (id: string) => ({ '@ref': { id, collection: { '@ref': { id: COLL, collection: { '@ref': { id: 'collections' } } } } } });

  beforeAll(async () => {
    (await t.server.query({ do: [createCollection(COLL), createCollection(EMPTY)] })).expectStatus(200, 201);
    (await t.server.query({ do: ['2', '10', '1'].map((id) => createDoc(docRef(COLL, id), { id })) })).expectStatus(200, 201);
  });

  const expectResult = async ({ expr, expected }: ResultCase) => {
    const res = await t.server.query(expr);
    expect(res.expectStatus(200).resource, res.explain('wrong result')).toStrictEqual(expected);
  };

  check.each<ResultCase>([
    { name: 'Max of integers', expr: { max: [1n, 3n, 2n] }, expected: 3n },
    { name: 'Min of integers', expr: { min: [2n, 1n, 3n] }, expected: 1n },
    { name: 'Max of mixed numbers', expr: { max: [1n, d('2.5'), 2n] }, expected: 2.5 },
    { name: 'Min of mixed numbers', expr: { min: [d('0.5'), 1n] }, expected: 0.5 },
    { name: 'Max of 1 and 1.0 (the later)', expr: { max: [1n, d('1.0')] }, expected: 1 },
    { name: 'Max of 1.0 and 1 (the later)', expr: { max: [d('1.0'), 1n] }, expected: 1n },
    { name: 'Min of 1 and 1.0 (the later)', expr: { min: [1n, d('1.0')] }, expected: 1 },
    { name: 'Max across types', expr: { max: [1n, 'a', true, null, [1n]] }, expected: null },
    { name: 'Min across types', expr: { min: [null, 'a', 5n, false] }, expected: 5n },
    { name: 'Max of strings', expr: { max: ['a', 'c', 'b'] }, expected: 'c' },
    { name: 'Max of a one-element array', expr: { max: [7n] }, expected: 7n },
  ])(['FN-NUM-010'], '$name', expectResult);

  check.each<ResultCase>([
    { name: 'Max of an array in an array', expr: { max: [[1n, 5n, 3n]] }, expected: 5n },
    { name: 'Max of the Documents set (ids compare as numbers)', expr: { max: { documents: { collection: COLL } } }, expected: ref('10') },
    { name: 'Min of the Documents set', expr: { min: { documents: { collection: COLL } } }, expected: ref('1') },
    {
      name: 'Max of a page (a page holding the element)',
      expr: { max: { paginate: { documents: { collection: COLL } } } },
      expected: { data: [ref('10')] },
    },
    {
      name: 'Min of a page in an array (a page holding the element)',
      expr: { min: [{ paginate: { documents: { collection: COLL } } }] },
      expected: { data: [ref('1')] },
    },
    { name: 'Max of a set in an array', expr: { max: [{ documents: { collection: COLL } }] }, expected: ref('10') },
  ])(['FN-NUM-011'], '$name', expectResult);

  check(['FN-NUM-011'], 'Max and Min of a page keep its cursors', async () => {
    const page = { paginate: { documents: { collection: COLL } }, size: 1n };
    const paged = (await t.server.query(page)).expectStatus(200).resource as Record<string, unknown>;
    expect(paged, 'the page of one element has an after cursor').toHaveProperty('after');
    for (const form of ['max', 'min']) {
      const res = await t.server.query({ [form]: page });
      expect(res.expectStatus(200).resource, res.explain(`${form} of the page`)).toStrictEqual(paged);
    }
  });

  check.each<ErrorCase>([
    { name: 'Max of a lone integer', expr: { max: 5n }, description: 'Array, Set, or Page expected, Integer provided.', position: ['max'] },
    { name: 'Min of a string', expr: { min: 'abc' }, description: 'Array, Set, or Page expected, String provided.', position: ['min'] },
    { name: 'Max of an empty array', expr: { max: [] }, description: 'Non-empty array expected.', position: ['max'] },
    {
      name: 'Min of an empty set',
      expr: { min: { documents: { collection: EMPTY } } },
      description: 'Non-empty array expected.',
      position: ['min'],
    },
    {
      name: 'Max of an empty page',
      expr: { max: { paginate: { documents: { collection: EMPTY } } } },
      description: 'Non-empty array expected.',
      position: ['max'],
    },
  ])(['FN-NUM-012'], '$name answers invalid argument', async ({ expr, description, position }) => {
    const error = expectQueryError(await t.server.query(expr), [400, 'invalid argument']);
    expect(error).toMatchObject({ description, position });
  });
});

describe.concurrent('Comparisons', () => {
  const COLL = 'cmp_things';
  const IDX = 'cmp_idx';

  beforeAll(async () => {
    (await t.server.query(createCollection(COLL))).expectStatus(201);
  });

  interface CmpCase {
    expr: unknown;
    expected: boolean;
  }

  /** Each case titled by its request body, as the wire has it. */
  const titled = <T extends { expr: unknown }>(cases: T[]) => cases.map((c) => ({ ...c, name: stringifyWireJson(c.expr) }));

  const expectAnswer = async ({ expr, expected }: CmpCase) => {
    const res = await t.server.query(expr);
    expect(res.expectStatus(200).resource, res.explain('wrong answer')).toBe(expected);
  };

  check.each(
    titled<CmpCase>([
      { expr: { lt: [1n, 2n, 3n] }, expected: true },
      { expr: { lt: [1n, 3n, 2n] }, expected: false },
      { expr: { lt: [1n, 1n] }, expected: false },
      { expr: { lte: [1n, 1n, 2n] }, expected: true },
      { expr: { lte: [2n, 1n] }, expected: false },
      { expr: { gt: [3n, 2n, 1n] }, expected: true },
      { expr: { gt: [3n, 3n] }, expected: false },
      { expr: { gte: [3n, 3n, 1n] }, expected: true },
      { expr: { gte: [1n, 2n] }, expected: false },
      { expr: { lt: 5n }, expected: true },
      { expr: { gt: ['a'] }, expected: true },
      { expr: { lte: [null] }, expected: true },
      { expr: { gte: d('1.1') }, expected: true },
    ]),
  )(['FN-CMP-001'], '$name is $expected', expectAnswer);

  check.each(
    titled<CmpCase>([
      { expr: { lt: [1n, d('1.5'), 2n] }, expected: true },
      { expr: { lt: [d('0.9'), 1n, d('1.1')] }, expected: true },
      { expr: { lte: [1n, d('1.0'), 1n] }, expected: true },
      { expr: { gte: [1n, d('1.0'), 1n] }, expected: true },
      { expr: { gt: [2n, d('1.5'), 1n] }, expected: true },
      { expr: { lt: [1n, d('1.0')] }, expected: false },
      { expr: { gt: [d('1.0'), 1n] }, expected: false },
      { expr: { lt: [d('2.5'), 2n] }, expected: false },
      { expr: { lt: [-1n, d('-0.5'), 0n] }, expected: true },
      // As Java's Double.compare: -0.0 before 0 and 0.0, NaN after every other number and equal to itself.
      { expr: { lt: [d('-0.0'), 0n] }, expected: true },
      { expr: { lte: [0n, d('-0.0')] }, expected: false },
      { expr: { gt: [d('0.0'), d('-0.0')] }, expected: true },
      { expr: { lt: [INFINITY, NAN] }, expected: true },
      { expr: { lte: [NAN, NAN] }, expected: true },
      { expr: { lt: [NAN, NAN] }, expected: false },
    ]),
  )(['FN-CMP-002'], '$name is $expected', expectAnswer);

  check.each(
    titled<CmpCase>([
      { expr: { lt: [1n, d('1.1'), 'str', [], literal({}), false, true, null] }, expected: true },
      { expr: { gt: [null, true, false, literal({}), [], 'a', d('1.5'), 1n] }, expected: true },
      { expr: { lt: [1n, '1'] }, expected: true },
      { expr: { lt: ['1', 1n] }, expected: false },
      { expr: { lt: [d('1e300'), ''] }, expected: true },
      { expr: { lt: [d('1.0'), true] }, expected: true },
      { expr: { lt: [d('1.0'), null] }, expected: true },
      { expr: { lt: [MAX, 'a', [null], literal({ a: null })] }, expected: true },
      {
        expr: { lt: [literal({ z: 1n }), { collection: COLL }, { '@ts': '2020-01-01T00:00:00Z' }, { '@date': '1970-01-01' }, false] },
        expected: true,
      },
      { expr: { gt: [{ '@date': '1970-01-01' }, { '@ts': '2099-01-01T00:00:00Z' }] }, expected: true },
      { expr: { lt: [[], literal({})] }, expected: true },
    ]),
  )(['FN-CMP-003'], '$name is $expected', expectAnswer);

  check.each(
    titled<CmpCase>([
      { expr: { lt: [MIN, -1n, 0n, MAX] }, expected: true },
      { expr: { lt: [d('-1e80'), d('0.0'), d('1e80')] }, expected: true },
      { expr: { lt: ['', 'a', 'aa', 'aaa', 'z'] }, expected: true },
      { expr: { lt: ['a', 'B'] }, expected: true },
      { expr: { lt: ['abcd', 'abce'] }, expected: true },
      { expr: { lt: [false, true] }, expected: true },
      {
        expr: {
          lt: [
            [1n, 2n],
            [1n, 3n],
            [2n, 1n],
            [3n, 1n],
            [3n, 2n],
          ],
        },
        expected: true,
      },
      { expr: { lt: [[1n], [1n, 0n]] }, expected: true },
      {
        expr: { lt: [literal({ a: 1n, b: 2n }), literal({ a: 1n, b: 3n }), literal({ a: 2n, b: 1n }), literal({ a: 3n, b: 2n })] },
        expected: true,
      },
      { expr: { lt: [literal({ a: 1n }), literal({ a: 1n, b: 0n })] }, expected: true },
      { expr: { lt: [{ '@ts': '2020-01-01T00:00:00Z' }, { '@ts': '2020-01-01T00:00:00.000001Z' }] }, expected: true },
      { expr: { lt: [{ '@date': '2019-12-31' }, { '@date': '2020-01-01' }] }, expected: true },
      {
        expr: {
          gte: [
            [2n, true],
            [2n, true],
          ],
        },
        expected: true,
      },
      { expr: { lt: [literal({ a: 3n }), literal({ a: 3n })] }, expected: false },
    ]),
  )(['FN-CMP-004'], '$name is $expected', expectAnswer);

  check.each(
    titled([
      { expr: { lt: { collection: 'no_such_coll' } }, position: ['lt'], description: "Ref refers to undefined collection 'no_such_coll'" },
      {
        expr: { lte: [1n, { collection: 'no_such_coll' }] },
        position: ['lte'],
        description: "Ref refers to undefined collection 'no_such_coll'",
      },
      {
        expr: { gt: [{ ref: { collection: 'no_such_coll' }, id: '1' }, 1n] },
        position: ['gt'],
        description: "Ref refers to undefined collection 'no_such_coll'",
      },
      { expr: { gte: [{ index: IDX }] }, position: ['gte'], description: `Ref refers to undefined index '${IDX}'` },
      {
        expr: { max: [1n, { collection: 'no_such_coll' }] },
        position: ['max'],
        description: "Ref refers to undefined collection 'no_such_coll'",
      },
      {
        expr: { min: [{ collection: 'no_such_coll' }, 1n] },
        position: ['min'],
        description: "Ref refers to undefined collection 'no_such_coll'",
      },
    ]),
  )(['FN-CMP-005'], '$name answers invalid ref', async ({ expr, position, description }) => {
    const error = expectQueryError(await t.server.query(expr), [400, 'invalid ref']);
    expect(error).toMatchObject({ code: 'invalid ref', description, position });
  });

  check(['FN-CMP-005'], 'refs to an existing collection and its documents compare without error', async () => {
    const res = await t.server.query([{ lt: [1n, { collection: COLL }] }, { gt: [{ ref: { collection: COLL }, id: '1' }, 'x'] }]);
    expect(res.expectStatus(200).resource).toEqual([true, true]);
  });

  check.each(
    titled([
      { expr: { equals: [1n, d('1.0')] }, expected: true },
      { expr: { equals: [d('2.0'), 2n, d('2.0')] }, expected: true },
      { expr: { equals: [1n, d('1.5')] }, expected: false },
      { expr: { equals: [d('0.0'), d('-0.0')] }, expected: false },
      { expr: { equals: [[1n], [d('1.0')]] }, expected: false },
      { expr: { equals: [literal({ n: 1n }), literal({ n: d('1.0') })] }, expected: false },
      { expr: { equals: [9007199254740993n, 9007199254740993n] }, expected: true },
      { expr: { equals: [9007199254740993n, 9007199254740992n] }, expected: false },
    ]),
  )(['FN-CMP-006'], '$name is $expected', expectAnswer);
});
