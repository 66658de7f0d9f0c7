// Rounding, powers, logarithms, bitwise and trigonometric functions of FQL v4 (profile v4-functions, DEC-065;
// spec/requirements/functions-math.md): exact results with their wire types (integers parse to bigint, decimals to
// number, -0 differs from 0), results of transcendental functions within a relative 1e-12, and exact errors.
import { describe, expect } from 'vitest';
import { check, decimal as d, useTenant, type Response } from '../../../harness/index.js';
import { expectQueryError } from '../../../harness/v4.js';
import type { ErrorCase as FunctionErrorCase, ResultCase as FunctionResultCase } from './function-cases.js';

/** A case of one requirement's table: the requirement is the table's. */
type ResultCase = Omit<FunctionResultCase, 'ids'>;
type ErrorCase = Omit<FunctionErrorCase, 'ids'>;

/** Relative tolerance for results the JVM and another IEEE library may round differently in the last place. */
const TOLERANCE = 1e-12;

/** NaN and infinities as the suite produces them: JSON carries neither, so they come from Pow. */
const NAN = { pow: d('-8.0'), exp: d('0.5') };
const INFINITY = { pow: 0n, exp: -1n };

function expectExactly(res: Response, expected: unknown): void {
  res.expectStatus(200);
  expect(res.resource, res.explain('answered another value')).toStrictEqual(expected);
  if (typeof expected === 'number') expect(Object.is(res.resource, expected), res.explain('has the wrong sign of zero')).toBe(true);
}

function expectClose(res: Response, expected: number): void {
  res.expectStatus(200);
  const actual = res.resource;
  expect(typeof actual, res.explain('answered something other than a decimal')).toBe('number');
  expect(Math.abs((actual as number) - expected), res.explain(`answered ${String(actual)}, not about ${expected}`)).toBeLessThanOrEqual(
    Math.abs(expected) * TOLERANCE,
  );
}

// Every test evaluates an expression and writes nothing, so the tests run at once.
describe.concurrent('Math functions', () => {
  const t = useTenant();

  const expectResult = async ({ expr, expected }: ResultCase) => expectExactly(await t.server.query(expr), expected);
  const expectApproximately = async ({ expr, expected }: ResultCase) => expectClose(await t.server.query(expr), expected as number);
  const expectError = async ({ expr, description, position }: ErrorCase) => {
    const res = await t.server.query(expr);
    const error = expectQueryError(res, [400, 'invalid argument']);
    expect(error.description, res.explain('has another description')).toBe(description);
    expect(error.position, res.explain('reports another position')).toEqual(position);
  };

  describe('Ceil, Floor, Round and Trunc', () => {
    check.each<ResultCase>([
      { name: 'Ceil(1)', expr: { ceil: 1n }, expected: 1n },
      { name: 'Ceil(-7)', expr: { ceil: -7n }, expected: -7n },
      { name: 'Ceil(1.1)', expr: { ceil: d('1.1') }, expected: 2 },
      { name: 'Ceil(1.9)', expr: { ceil: d('1.9') }, expected: 2 },
      { name: 'Ceil(2.0)', expr: { ceil: d('2.0') }, expected: 2 },
      { name: 'Ceil(-0.1)', expr: { ceil: d('-0.1') }, expected: -0 },
      { name: 'Ceil(-1.5)', expr: { ceil: d('-1.5') }, expected: -1 },
      { name: 'Floor(1)', expr: { floor: 1n }, expected: 1n },
      { name: 'Floor(2.9)', expr: { floor: d('2.9') }, expected: 2 },
      { name: 'Floor(-0.1)', expr: { floor: d('-0.1') }, expected: -1 },
      { name: 'Floor(-0.0)', expr: { floor: d('-0.0') }, expected: -0 },
    ])(['FN-MATH-001'], '$name', expectResult);

    check.each<ResultCase>([
      { name: 'Round(5)', expr: { round: 5n }, expected: 5n },
      { name: 'Round(555, -2)', expr: { round: 555n, precision: -2n }, expected: 600n },
      { name: 'Round(555, -1)', expr: { round: 555n, precision: -1n }, expected: 560n },
      { name: 'Round(444, -2)', expr: { round: 444n, precision: -2n }, expected: 400n },
      { name: 'Round(444, -1)', expr: { round: 444n, precision: -1n }, expected: 440n },
      { name: 'Round(-555, -2)', expr: { round: -555n, precision: -2n }, expected: -500n },
      { name: 'Round(-549, -1)', expr: { round: -549n, precision: -1n }, expected: -540n },
      { name: 'Round(7, 0)', expr: { round: 7n, precision: 0n }, expected: 7n },
      { name: 'Round(7, 3)', expr: { round: 7n, precision: 3n }, expected: 7n },
      { name: 'Trunc(5)', expr: { trunc: 5n }, expected: 5n },
      { name: 'Trunc(1234, -2)', expr: { trunc: 1234n, precision: -2n }, expected: 1200n },
      { name: 'Trunc(1299, -2)', expr: { trunc: 1299n, precision: -2n }, expected: 1200n },
      { name: 'Trunc(-1299, -2)', expr: { trunc: -1299n, precision: -2n }, expected: -1200n },
      { name: 'Trunc(1234, 2)', expr: { trunc: 1234n, precision: 2n }, expected: 1234n },
    ])(['FN-MATH-002'], '$name answers an integer', expectResult);

    check.each<ResultCase>([
      { name: 'Round(5.123)', expr: { round: d('5.123') }, expected: 5.12 },
      { name: 'Round(5.666)', expr: { round: d('5.666') }, expected: 5.67 },
      { name: 'Round(5.999)', expr: { round: d('5.999') }, expected: 6 },
      { name: 'Round(2.0)', expr: { round: d('2.0') }, expected: 2 },
      { name: 'Round(555.666, 2)', expr: { round: d('555.666'), precision: 2n }, expected: 555.67 },
      { name: 'Round(555.666, 1)', expr: { round: d('555.666'), precision: 1n }, expected: 555.7 },
      { name: 'Round(555.666, 0)', expr: { round: d('555.666'), precision: 0n }, expected: 556 },
      { name: 'Round(555.666, -1)', expr: { round: d('555.666'), precision: -1n }, expected: 560 },
      { name: 'Round(555.666, -2)', expr: { round: d('555.666'), precision: -2n }, expected: 600 },
      { name: 'Round(444.444, 2)', expr: { round: d('444.444'), precision: 2n }, expected: 444.44 },
      { name: 'Round(444.444, 0)', expr: { round: d('444.444'), precision: 0n }, expected: 444 },
      { name: 'Round(444.444, -2)', expr: { round: d('444.444'), precision: -2n }, expected: 400 },
    ])(['FN-MATH-003'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Round(-1.234, 2)', expr: { round: d('-1.234'), precision: 2n }, expected: -1.22 },
      { name: 'Round(-555.666, 0)', expr: { round: d('-555.666'), precision: 0n }, expected: -555 },
      { name: 'Round(-555.666, 1)', expr: { round: d('-555.666'), precision: 1n }, expected: -555.6 },
      { name: 'Round(-5.123)', expr: { round: d('-5.123') }, expected: -5.11 },
    ])(['FN-MATH-004'], '$name adds half a unit and cuts toward zero', expectResult);

    check.each<ResultCase>([
      { name: 'Trunc(1234.5678)', expr: { trunc: d('1234.5678') }, expected: 1234.56 },
      { name: 'Trunc(1234.5678, 2)', expr: { trunc: d('1234.5678'), precision: 2n }, expected: 1234.56 },
      { name: 'Trunc(1234.5678, 1)', expr: { trunc: d('1234.5678'), precision: 1n }, expected: 1234.5 },
      { name: 'Trunc(1234.5678, 0)', expr: { trunc: d('1234.5678'), precision: 0n }, expected: 1234 },
      { name: 'Trunc(1234.5678, -1)', expr: { trunc: d('1234.5678'), precision: -1n }, expected: 1230 },
      { name: 'Trunc(1234.5678, -2)', expr: { trunc: d('1234.5678'), precision: -2n }, expected: 1200 },
      { name: 'Trunc(-1.789, 1)', expr: { trunc: d('-1.789'), precision: 1n }, expected: -1.7 },
      { name: 'Trunc(9.999)', expr: { trunc: d('9.999') }, expected: 9.99 },
    ])(['FN-MATH-005'], '$name cuts toward zero', expectResult);
  });

  describe('Sign, Sqrt, Exp, Ln and Log', () => {
    check.each<ResultCase>([
      { name: 'Sign(5)', expr: { sign: 5n }, expected: 1n },
      { name: 'Sign(-5)', expr: { sign: -5n }, expected: -1n },
      { name: 'Sign(0)', expr: { sign: 0n }, expected: 0n },
      { name: 'Sign(5.9)', expr: { sign: d('5.9') }, expected: 1n },
      { name: 'Sign(-5.0)', expr: { sign: d('-5.0') }, expected: -1n },
      { name: 'Sign(0.0)', expr: { sign: d('0.0') }, expected: 1n },
      { name: 'Sign(-0.0)', expr: { sign: d('-0.0') }, expected: 1n },
    ])(['FN-MATH-006'], '$name', expectResult);

    check.each<ResultCase>([
      { name: 'Sqrt(9)', expr: { sqrt: 9n }, expected: 3 },
      { name: 'Sqrt(4)', expr: { sqrt: 4n }, expected: 2 },
      { name: 'Sqrt(0)', expr: { sqrt: 0n }, expected: 0 },
      { name: 'Sqrt(2.25)', expr: { sqrt: d('2.25') }, expected: 1.5 },
      { name: 'Sqrt(-0.0)', expr: { sqrt: d('-0.0') }, expected: -0 },
    ])(['FN-MATH-007'], '$name answers a decimal', expectResult);

    check(['FN-MATH-007'], 'Sqrt(2) answers the square root of 2', async () => {
      await expectApproximately({ name: 'Sqrt(2)', expr: { sqrt: 2n }, expected: Math.SQRT2 });
    });

    check.each<ErrorCase>([
      { name: 'Sqrt(-4)', expr: { sqrt: -4n }, description: '-4 must be positive', position: [] },
      { name: 'Sqrt(-4.5)', expr: { sqrt: d('-4.5') }, description: '-4.5 must be positive', position: [] },
      { name: 'Sqrt(-1.0E10)', expr: { sqrt: d('-1.0E10') }, description: '-1.0E10 must be positive', position: [] },
      {
        name: 'Sqrt(-0.5) inside Let',
        expr: { let: { x: d('-0.5') }, in: { sqrt: { var: 'x' } } },
        description: '-0.5 must be positive',
        position: ['in'],
      },
      { name: 'Sqrt(-1) inside an array', expr: [1n, { sqrt: -1n }], description: '-1 must be positive', position: [1n] },
    ])(['FN-MATH-008'], '$name answers invalid argument at the call', expectError);

    check.each<ResultCase>([
      { name: 'Ln(1)', expr: { ln: 1n }, expected: 0 },
      { name: 'Log(1000)', expr: { log: 1000n }, expected: 3 },
      { name: 'Log(1)', expr: { log: d('1.0') }, expected: 0 },
      { name: 'Log(0.01)', expr: { log: d('0.01') }, expected: -2 },
      { name: 'Exp(0)', expr: { exp: 0n }, expected: 1 },
    ])(['FN-MATH-009'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Ln(100)', expr: { ln: 100n }, expected: Math.log(100) },
      { name: 'Ln(0.5)', expr: { ln: d('0.5') }, expected: Math.log(0.5) },
      { name: 'Log(2)', expr: { log: 2n }, expected: Math.log10(2) },
      { name: 'Exp(1)', expr: { exp: 1n }, expected: Math.E },
      { name: 'Exp(-0.5)', expr: { exp: d('-0.5') }, expected: Math.exp(-0.5) },
    ])(['FN-MATH-009'], '$name', expectApproximately);

    check.each<ErrorCase>([
      { name: 'Ln(0)', expr: { ln: 0n }, description: '0 must be greater than 0', position: [] },
      { name: 'Ln(-1)', expr: { ln: -1n }, description: '-1 must be greater than 0', position: [] },
      { name: 'Log(-0.0)', expr: { log: d('-0.0') }, description: '-0.0 must be greater than 0', position: [] },
      { name: 'Log(-2.5)', expr: { log: d('-2.5') }, description: '-2.5 must be greater than 0', position: [] },
      {
        name: 'Log(0) inside Let',
        expr: { let: { x: 0n }, in: { log: { var: 'x' } } },
        description: '0 must be greater than 0',
        position: ['in'],
      },
    ])(['FN-MATH-010'], '$name answers invalid argument at the call', expectError);
  });

  describe('Pow and Hypot', () => {
    check.each<ResultCase>([
      { name: 'Pow(2)', expr: { pow: 2n }, expected: 4 },
      { name: 'Pow(-2)', expr: { pow: -2n }, expected: 4 },
      { name: 'Pow(2, 3)', expr: { pow: 2n, exp: 3n }, expected: 8 },
      { name: 'Pow(10, 4)', expr: { pow: 10n, exp: 4n }, expected: 10000 },
      { name: 'Pow(10, -3)', expr: { pow: 10n, exp: -3n }, expected: 0.001 },
      { name: 'Pow(4, 0.5)', expr: { pow: 4n, exp: d('0.5') }, expected: 2 },
      { name: 'Pow(1.5, 2)', expr: { pow: d('1.5'), exp: 2n }, expected: 2.25 },
      { name: 'Pow(7, 0)', expr: { pow: 7n, exp: 0n }, expected: 1 },
      { name: 'Pow with exp first in the object', expr: { exp: 3n, pow: 2n }, expected: 8 },
    ])(['FN-MATH-011'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Hypot(3, 4)', expr: { hypot: 3n, b: 4n }, expected: 5 },
      { name: 'Hypot(-3, 4)', expr: { hypot: -3n, b: 4n }, expected: 5 },
      { name: 'Hypot(0)', expr: { hypot: 0n }, expected: 0 },
      { name: 'Hypot(0, 0)', expr: { hypot: 0n, b: 0n }, expected: 0 },
      { name: 'Hypot(1.5, 2.0)', expr: { hypot: d('1.5'), b: d('2.0') }, expected: 2.5 },
    ])(['FN-MATH-012'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Hypot(2)', expr: { hypot: 2n }, expected: 2 * Math.SQRT2 },
      { name: 'Hypot(4.1, 5.1)', expr: { hypot: d('4.1'), b: d('5.1') }, expected: Math.hypot(4.1, 5.1) },
    ])(['FN-MATH-012'], '$name', expectApproximately);
  });

  describe('Bitwise functions', () => {
    check.each<ResultCase>([
      { name: 'BitAnd(1, 1)', expr: { bitand: [1n, 1n] }, expected: 1n },
      { name: 'BitAnd(3, 7)', expr: { bitand: [3n, 7n] }, expected: 3n },
      { name: 'BitAnd(16, 17)', expr: { bitand: [16n, 17n] }, expected: 16n },
      { name: 'BitAnd(15, 7, 3)', expr: { bitand: [15n, 7n, 3n] }, expected: 3n },
      { name: 'BitAnd(255, 7, 15)', expr: { bitand: [255n, 7n, 15n] }, expected: 7n },
      { name: 'BitAnd(-1, 12)', expr: { bitand: [-1n, 12n] }, expected: 12n },
      { name: 'BitOr(1, 2, 4, 8)', expr: { bitor: [1n, 2n, 4n, 8n] }, expected: 15n },
      { name: 'BitOr(1, 0, 16)', expr: { bitor: [1n, 0n, 16n] }, expected: 17n },
      { name: 'BitOr(-8, 3)', expr: { bitor: [-8n, 3n] }, expected: -5n },
      { name: 'BitXor(1, 0)', expr: { bitxor: [1n, 0n] }, expected: 1n },
      { name: 'BitXor(1, 0, 1)', expr: { bitxor: [1n, 0n, 1n] }, expected: 0n },
      { name: 'BitXor(-1, 9223372036854775807)', expr: { bitxor: [-1n, 9223372036854775807n] }, expected: -9223372036854775808n },
      { name: 'BitAnd of a lone integer', expr: { bitand: 6n }, expected: 6n },
      { name: 'BitOr of a one-element array', expr: { bitor: [6n] }, expected: 6n },
      { name: 'BitAnd(1.5)', expr: { bitand: d('1.5') }, expected: 1.5 },
    ])(['FN-MATH-013'], '$name', expectResult);

    check.each<ResultCase>([
      { name: 'BitAnd(5.5, 3)', expr: { bitand: [d('5.5'), 3n] }, expected: 1 },
      { name: 'BitOr(1, 2.9)', expr: { bitor: [1n, d('2.9')] }, expected: 3 },
      { name: 'BitXor(6.7, 3)', expr: { bitxor: [d('6.7'), 3n] }, expected: 5 },
      { name: 'BitAnd(7, 6.5, 12)', expr: { bitand: [7n, d('6.5'), 12n] }, expected: 4 },
      { name: 'BitOr(-2.5, 0)', expr: { bitor: [d('-2.5'), 0n] }, expected: -2 },
    ])(['FN-MATH-014'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'BitNot(0)', expr: { bitnot: 0n }, expected: -1n },
      { name: 'BitNot(-1)', expr: { bitnot: -1n }, expected: 0n },
      { name: 'BitNot(1)', expr: { bitnot: 1n }, expected: -2n },
      { name: 'BitNot(9223372036854775807)', expr: { bitnot: 9223372036854775807n }, expected: -9223372036854775808n },
      { name: 'BitNot(1.5)', expr: { bitnot: d('1.5') }, expected: -2n },
      { name: 'BitNot(-2.5)', expr: { bitnot: d('-2.5') }, expected: 1n },
    ])(['FN-MATH-015'], '$name answers an integer', expectResult);

    check.each<ErrorCase>([
      { name: 'BitAnd of an empty array', expr: { bitand: [] }, description: 'Non-empty array expected.', position: ['bitand'] },
      { name: 'BitOr of an empty array', expr: { bitor: [] }, description: 'Non-empty array expected.', position: ['bitor'] },
      { name: 'BitXor of an empty array', expr: { bitxor: [] }, description: 'Non-empty array expected.', position: ['bitxor'] },
      {
        name: 'BitAnd with a string operand',
        expr: { bitand: [1n, 'a'] },
        description: 'Number expected, String provided.',
        position: ['bitand', 1n],
      },
      { name: 'BitOr of a lone boolean', expr: { bitor: true }, description: 'Number expected, Boolean provided.', position: ['bitor'] },
      {
        name: 'BitXor with a null operand',
        expr: { bitxor: [null, 1n] },
        description: 'Number expected, Null provided.',
        position: ['bitxor', 0n],
      },
    ])(['FN-MATH-016'], '$name answers invalid argument', expectError);
  });

  describe('Trigonometric functions', () => {
    check.each<ResultCase>([
      { name: 'Cos(0)', expr: { cos: 0n }, expected: 1 },
      { name: 'Sin(0)', expr: { sin: 0n }, expected: 0 },
      { name: 'Tan(0.0)', expr: { tan: d('0.0') }, expected: 0 },
      { name: 'Cosh(0)', expr: { cosh: 0n }, expected: 1 },
      { name: 'Sinh(0)', expr: { sinh: 0n }, expected: 0 },
      { name: 'Tanh(0)', expr: { tanh: 0n }, expected: 0 },
      { name: 'Tanh(100)', expr: { tanh: 100n }, expected: 1 },
      { name: 'Atan(0)', expr: { atan: 0n }, expected: 0 },
      { name: 'Sin(-0.0)', expr: { sin: d('-0.0') }, expected: -0 },
    ])(['FN-MATH-017'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Sin(1)', expr: { sin: 1n }, expected: Math.sin(1) },
      { name: 'Sin(1.5)', expr: { sin: d('1.5') }, expected: Math.sin(1.5) },
      { name: 'Cos(0.5)', expr: { cos: d('0.5') }, expected: Math.cos(0.5) },
      { name: 'Tan(1)', expr: { tan: 1n }, expected: Math.tan(1) },
      { name: 'Sinh(2)', expr: { sinh: 2n }, expected: Math.sinh(2) },
      { name: 'Cosh(2)', expr: { cosh: 2n }, expected: Math.cosh(2) },
      { name: 'Tanh(0.5)', expr: { tanh: d('0.5') }, expected: Math.tanh(0.5) },
      { name: 'Atan(1)', expr: { atan: 1n }, expected: Math.PI / 4 },
      { name: 'Atan(-10)', expr: { atan: -10n }, expected: Math.atan(-10) },
    ])(['FN-MATH-017'], '$name', expectApproximately);

    check.each<ResultCase>([
      { name: 'Acos(1)', expr: { acos: 1n }, expected: 0 },
      { name: 'Acos(-1)', expr: { acos: -1n }, expected: Math.PI },
      { name: 'Asin(1)', expr: { asin: 1n }, expected: Math.PI / 2 },
      { name: 'Asin(0.0)', expr: { asin: d('0.0') }, expected: 0 },
      { name: 'Asin(-1.0)', expr: { asin: d('-1.0') }, expected: -Math.PI / 2 },
    ])(['FN-MATH-018'], '$name answers a decimal', expectResult);

    check.each<ResultCase>([
      { name: 'Acos(0.5)', expr: { acos: d('0.5') }, expected: Math.acos(0.5) },
      { name: 'Asin(-0.5)', expr: { asin: d('-0.5') }, expected: Math.asin(-0.5) },
    ])(['FN-MATH-018'], '$name', expectApproximately);

    check.each<ErrorCase>([
      { name: 'Acos(2)', expr: { acos: 2n }, description: '2 must be between -1 and 1 inclusive', position: [] },
      { name: 'Acos(-1.5)', expr: { acos: d('-1.5') }, description: '-1.5 must be between -1 and 1 inclusive', position: [] },
      { name: 'Asin(1.0001)', expr: { asin: d('1.0001') }, description: '1.0001 must be between -1 and 1 inclusive', position: [] },
      {
        name: 'Asin(-2) inside Let',
        expr: { let: { x: -2n }, in: { asin: { var: 'x' } } },
        description: '-2 must be between -1 and 1 inclusive',
        position: ['in'],
      },
    ])(['FN-MATH-018'], '$name answers invalid argument at the call', expectError);

    check.each<ResultCase>([
      { name: 'Degrees(0)', expr: { degrees: 0n }, expected: 0 },
      { name: 'Degrees(2)', expr: { degrees: 2n }, expected: 114.59155902616465 },
      { name: 'Degrees(π)', expr: { degrees: d(String(Math.PI)) }, expected: 180 },
      { name: 'Radians(180)', expr: { radians: 180n }, expected: Math.PI },
      { name: 'Radians(0.0)', expr: { radians: d('0.0') }, expected: 0 },
    ])(['FN-MATH-019'], '$name answers a decimal', expectResult);

    check(['FN-MATH-019'], 'Radians(50) is about 0.8727', async () => {
      await expectApproximately({ name: 'Radians(50)', expr: { radians: 50n }, expected: (50 * Math.PI) / 180 });
    });
  });

  describe('Errors and special values', () => {
    check.each<ErrorCase>([
      { name: 'Ceil of a string', expr: { ceil: '1.5' }, description: 'Number expected, String provided.', position: ['ceil'] },
      { name: 'Floor of null', expr: { floor: null }, description: 'Number expected, Null provided.', position: ['floor'] },
      { name: 'Round of a boolean', expr: { round: true }, description: 'Number expected, Boolean provided.', position: ['round'] },
      { name: 'Trunc of an array', expr: { trunc: [1n] }, description: 'Number expected, Array provided.', position: ['trunc'] },
      { name: 'Sign of a string', expr: { sign: 'x' }, description: 'Number expected, String provided.', position: ['sign'] },
      { name: 'Sqrt of an array', expr: { sqrt: [4n] }, description: 'Number expected, Array provided.', position: ['sqrt'] },
      { name: 'Pow of a string', expr: { pow: 'a', exp: 2n }, description: 'Number expected, String provided.', position: ['pow'] },
      { name: 'Pow with a string exp', expr: { pow: 2n, exp: 'a' }, description: 'Number expected, String provided.', position: ['exp'] },
      { name: 'Pow with a null exp', expr: { pow: 2n, exp: null }, description: 'Number expected, Null provided.', position: ['exp'] },
      { name: 'Exp of a string', expr: { exp: 'a' }, description: 'Number expected, String provided.', position: ['exp'] },
      { name: 'Hypot with a boolean b', expr: { hypot: 3n, b: false }, description: 'Number expected, Boolean provided.', position: ['b'] },
      {
        name: 'Ln of a collection ref',
        expr: { ln: { collection: 'no_such_collection' } },
        description: 'Number expected, Collection Ref provided.',
        position: ['ln'],
      },
      { name: 'BitNot of a string', expr: { bitnot: '1' }, description: 'Number expected, String provided.', position: ['bitnot'] },
      {
        name: 'Cos of a time',
        expr: { cos: { '@ts': '2020-01-01T00:00:00Z' } },
        description: 'Number expected, Time provided.',
        position: ['cos'],
      },
      { name: 'Degrees of an array', expr: { degrees: [1n] }, description: 'Number expected, Array provided.', position: ['degrees'] },
      {
        name: 'Sqrt of a string inside Let',
        expr: { let: { x: 's' }, in: { sqrt: { var: 'x' } } },
        description: 'Number expected, String provided.',
        position: ['in', 'sqrt'],
      },
      {
        name: 'Round with both arguments wrong (the number first)',
        expr: { round: 'a', precision: 'b' },
        description: 'Number expected, String provided.',
        position: ['round'],
      },
    ])(['FN-MATH-020'], '$name answers invalid argument at the argument', expectError);

    check.each<ErrorCase>([
      {
        name: 'Round with a decimal precision',
        expr: { round: d('1.5'), precision: d('1.0') },
        description: 'Integer expected, Double provided.',
        position: ['precision'],
      },
      {
        name: 'Round with a null precision',
        expr: { round: d('1.5'), precision: null },
        description: 'Integer expected, Null provided.',
        position: ['precision'],
      },
      {
        name: 'Trunc with a string precision',
        expr: { trunc: 1n, precision: '2' },
        description: 'Integer expected, String provided.',
        position: ['precision'],
      },
      {
        name: 'Trunc of an integer with a decimal precision',
        expr: { trunc: 1234n, precision: d('2.5') },
        description: 'Integer expected, Double provided.',
        position: ['precision'],
      },
    ])(['FN-MATH-021'], '$name answers invalid argument at the precision', expectError);

    check.each<ResultCase>([
      { name: 'Pow(0, -1)', expr: INFINITY, expected: 'Infinity' },
      { name: 'Pow(-8.0, 0.5)', expr: NAN, expected: 'NaN' },
      { name: 'Exp(1000)', expr: { exp: 1000n }, expected: 'Infinity' },
      { name: 'Cosh(1000)', expr: { cosh: 1000n }, expected: 'Infinity' },
      { name: 'Sinh(-1000)', expr: { sinh: -1000n }, expected: '-Infinity' },
      { name: 'Pow(-10, 401)', expr: { pow: -10n, exp: 401n }, expected: '-Infinity' },
      { name: 'IsDouble(Pow(0, -1))', expr: { is_double: INFINITY }, expected: true },
      { name: 'IsDouble(Pow(-8.0, 0.5))', expr: { is_double: NAN }, expected: true },
      { name: 'Sign(Pow(0, -1))', expr: { sign: INFINITY }, expected: 1n },
    ])(['FN-MATH-022'], '$name', expectResult);

    check.each<ResultCase>([
      { name: 'Sign(NaN)', expr: { sign: NAN }, expected: 1n },
      { name: 'Ceil(NaN)', expr: { ceil: NAN }, expected: 'NaN' },
      { name: 'Floor(NaN)', expr: { floor: NAN }, expected: 'NaN' },
      { name: 'Round(NaN)', expr: { round: NAN }, expected: 0 },
      { name: 'Trunc(NaN, 1)', expr: { trunc: NAN, precision: 1n }, expected: 0 },
    ])(['FN-MATH-023'], '$name', expectResult);

    check.each<ErrorCase>([
      { name: 'Sqrt(NaN)', expr: { sqrt: NAN }, description: 'NaN must be positive', position: [] },
      { name: 'Ln(NaN)', expr: { ln: NAN }, description: 'NaN must be greater than 0', position: [] },
      { name: 'Log(NaN)', expr: { log: NAN }, description: 'NaN must be greater than 0', position: [] },
      { name: 'Acos(NaN)', expr: { acos: NAN }, description: 'NaN must be between -1 and 1 inclusive', position: [] },
      { name: 'Asin(NaN)', expr: { asin: NAN }, description: 'NaN must be between -1 and 1 inclusive', position: [] },
    ])(['FN-MATH-023'], '$name answers invalid argument', expectError);
  });
});
