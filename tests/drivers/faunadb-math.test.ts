// The official v4 driver's rounding, power, logarithm, bitwise and trigonometric functions (`q.Ceil` … `q.Tanh`)
// against the reference server (profile v4-functions, DEC-065; spec/requirements/functions-math.md): the wire JSON
// the driver builds, and how it decodes the answers. The driver decodes integers and decimals alike as JS numbers
// (and sends a whole JS number as an integer), so result types are checked on the server with IsInteger and IsDouble.
import faunadb from 'faunadb';
import { describe, expect, it } from 'vitest';
import { useDriverServer, expectBadRequest } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

/** The JSON the driver sends for an expression. */
const wire = (expr: faunadb.Expr): unknown => JSON.parse(JSON.stringify(expr));

describe('faunadb 4.x driver: wire JSON of the math functions', () => {
  it('optional arguments are sent under their own keys, and left out when not given', () => {
    expect(wire(q.Round(5.123))).toEqual({ round: 5.123 });
    expect(wire(q.Round(555.666, -2))).toEqual({ round: 555.666, precision: -2 });
    expect(wire(q.Trunc(1234.5678, 1))).toEqual({ trunc: 1234.5678, precision: 1 });
    expect(wire(q.Pow(2))).toEqual({ pow: 2 });
    expect(wire(q.Pow(2, 3))).toEqual({ pow: 2, exp: 3 });
    expect(wire(q.Hypot(3, 4))).toEqual({ hypot: 3, b: 4 });
    expect(wire(q.BitAnd(15, 7, 3))).toEqual({ bitand: [15, 7, 3] });
    expect(wire(q.BitNot(1))).toEqual({ bitnot: 1 });
    expect(wire(q.Exp(1))).toEqual({ exp: 1 });
  });
});

describe('faunadb 4.x driver: rounding', () => {
  it('Ceil, Floor, Round and Trunc answer the real service results', async () => {
    const results = await driver.client.query([
      q.Ceil(1.1),
      q.Ceil(7),
      q.Floor(-0.1),
      q.Round(5.123),
      q.Round(5.999),
      q.Round(555.666, -2),
      q.Round(555.666, 1),
      q.Round(555, -1),
      q.Round(-1.234, 2),
      q.Trunc(1234.5678),
      q.Trunc(1234.5678, -1),
      q.Trunc(1234, -2),
    ]);
    expect(results).toEqual([2, 7, -1, 5.12, 6, 600, 555.7, 560, -1.22, 1234.56, 1230, 1200]);
  });

  it('an integer stays an integer and a decimal a decimal', async () => {
    const types = await driver.client.query([
      q.IsInteger(q.Ceil(7)),
      q.IsDouble(q.Ceil(1.5)),
      q.IsInteger(q.Round(555, -2)),
      q.IsDouble(q.Round(5.5, 0)),
      q.IsInteger(q.Trunc(1234, 2)),
      q.IsDouble(q.Trunc(1.5)),
    ]);
    expect(types).toEqual([true, true, true, true, true, true]);
  });

  it('a precision that is not an integer fails at ["precision"]', async () => {
    await expectBadRequest(driver.client.query(q.Round(1.25, 1.5)), 'invalid argument', 'Integer expected, Double provided.', [
      'precision',
    ]);
  });
});

describe('faunadb 4.x driver: Sign, Sqrt, Pow, Hypot, logarithms', () => {
  it('answer the real service results and types', async () => {
    const results = await driver.client.query([
      q.Sign(-5),
      q.Sign(0.5),
      q.Sqrt(9),
      q.Pow(2),
      q.Pow(2, 3),
      q.Pow(10, -3),
      q.Hypot(3, 4),
      q.Hypot(0),
      q.Log(1000),
      q.Ln(1),
      q.Exp(0),
    ]);
    expect(results).toEqual([-1, 1, 3, 4, 8, 0.001, 5, 0, 3, 0, 1]);
    const types = await driver.client.query([
      q.IsInteger(q.Sign(0.5)),
      q.IsDouble(q.Sqrt(9)),
      q.IsDouble(q.Pow(2, 3)),
      q.IsDouble(q.Hypot(3, 4)),
      q.IsDouble(q.Log(1000)),
    ]);
    expect(types).toEqual([true, true, true, true, true]);
  });

  it('a number outside the domain fails with the service description at the call', async () => {
    await expectBadRequest(driver.client.query(q.Sqrt(-4)), 'invalid argument', '-4 must be positive', []);
    await expectBadRequest(driver.client.query(q.Ln(0)), 'invalid argument', '0 must be greater than 0', []);
    await expectBadRequest(driver.client.query(q.Let({ x: -2.5 }, q.Log(q.Var('x')))), 'invalid argument', '-2.5 must be greater than 0', [
      'in',
    ]);
  });

  it('infinite and undefined results come back as the strings the service writes', async () => {
    expect(await driver.client.query([q.Pow(0, -1), q.Pow(-8, 0.5), q.Exp(1000)])).toEqual(['Infinity', 'NaN', 'Infinity']);
  });

  it('a non-number argument fails at its position', async () => {
    await expectBadRequest(driver.client.query(q.Pow(2, 'three')), 'invalid argument', 'Number expected, String provided.', ['exp']);
    await expectBadRequest(driver.client.query(q.Hypot(3, true)), 'invalid argument', 'Number expected, Boolean provided.', ['b']);
  });
});

describe('faunadb 4.x driver: bitwise functions', () => {
  it('BitAnd, BitOr, BitXor and BitNot answer the real service results', async () => {
    const results = await driver.client.query([
      q.BitAnd(15, 7, 3),
      q.BitAnd(255, 7, 15),
      q.BitOr(1, 2, 4, 8),
      q.BitXor(1, 0, 1),
      q.BitNot(0),
      q.BitNot(1),
      q.BitAnd(5.5, 3),
      q.BitNot(1.5),
    ]);
    expect(results).toEqual([3, 7, 15, 0, -1, -2, 1, -2]);
    const types = await driver.client.query([q.IsInteger(q.BitOr(1, 2)), q.IsDouble(q.BitAnd(5.5, 3)), q.IsInteger(q.BitNot(1.5))]);
    expect(types).toEqual([true, true, true]);
  });

  it('a non-number operand fails at its index', async () => {
    await expectBadRequest(driver.client.query(q.BitOr(1, 'two')), 'invalid argument', 'Number expected, String provided.', ['bitor', 1]);
  });
});

describe('faunadb 4.x driver: trigonometric functions', () => {
  it('answer decimals close to the double-precision functions', async () => {
    const results = await driver.client.query<number[]>([
      q.Sin(1),
      q.Cos(0),
      q.Tan(1),
      q.Asin(1),
      q.Acos(-1),
      q.Atan(1),
      q.Sinh(2),
      q.Cosh(2),
      q.Tanh(100),
      q.Degrees(2),
      q.Radians(180),
    ]);
    const expected = [
      Math.sin(1),
      1,
      Math.tan(1),
      Math.PI / 2,
      Math.PI,
      Math.PI / 4,
      Math.sinh(2),
      Math.cosh(2),
      1,
      114.59155902616465,
      Math.PI,
    ];
    results.forEach((result, i) => {
      expect(result).toBeCloseTo(expected[i]!, 12);
    });
    expect(await driver.client.query(q.IsDouble(q.Cos(0)))).toBe(true);
  });

  it('Acos and Asin outside [-1, 1] fail at the call', async () => {
    await expectBadRequest(driver.client.query(q.Acos(2)), 'invalid argument', '2 must be between -1 and 1 inclusive', []);
    await expectBadRequest(driver.client.query(q.Asin(-1.5)), 'invalid argument', '-1.5 must be between -1 and 1 inclusive', []);
  });
});
