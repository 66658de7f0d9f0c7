import { describe, expect, it } from 'vitest';
import {
  doubleToInt,
  javaPow,
  powerOfTen,
  roundDecimal,
  roundInteger,
  truncDecimal,
  truncInteger,
} from '../../../../reference-impl/eval/java-math.js';

/** Object.is, so -0 and 0 differ. */
const same = (actual: number, expected: number) => expect(Object.is(actual, expected), `${actual} is ${expected}`).toBe(true);

describe('doubleToInt', () => {
  it.each([
    [1.9, 1],
    [-1.9, -1],
    [Number.NaN, 0],
    [1e10, 2147483647],
    [-1e10, -2147483648],
    [Infinity, 2147483647],
  ])('(int) %d is %d', (d, expected) => expect(doubleToInt(d)).toBe(expected));
});

describe('powerOfTen', () => {
  it('answers the double nearest to 10^p, where V8 is a unit off', () => {
    same(powerOfTen(-5n), 1e-5);
    same(powerOfTen(-4n), 1e-4);
    same(powerOfTen(0n), 1);
    same(powerOfTen(22n), 1e22);
  });

  it('answers 0 and Infinity beyond the double range, however far', () => {
    same(powerOfTen(-400n), 0);
    same(powerOfTen(400n), Infinity);
    same(powerOfTen(-(2n ** 63n)), 0);
    same(powerOfTen(2n ** 63n - 1n), Infinity);
  });
});

describe('javaPow', () => {
  it.each([
    [10, -5, 1e-5],
    [10, -3, 0.001],
    [2, 10, 1024],
    [-3, 3, -27],
    [2, -1, 0.5],
    [4, 0.5, 2],
    [0, -1, Infinity],
    [-8, 0.5, Number.NaN],
    [1, Infinity, Number.NaN],
    [Number.NaN, 0, 1],
    [-10, 401, -Infinity],
  ])('pow(%d, %d) is %d', (base, exponent, expected) => same(javaPow(base, exponent), expected));
});

describe('roundInteger and truncInteger', () => {
  it.each([
    [555n, -2n, 600n, 500n],
    [555n, -1n, 560n, 550n],
    [444n, -2n, 400n, 400n],
    [-1299n, -2n, -1200n, -1200n],
    [1234n, 2n, 1234n, 1234n],
    [7n, 0n, 7n, 7n],
    [5n, -400n, 0n, 0n],
  ])('%s to %s places: Round %s, Trunc %s', (n, dp, rounded, truncated) => {
    expect(roundInteger(n, dp)).toBe(rounded);
    expect(truncInteger(n, dp)).toBe(truncated);
  });

  it('computes in doubles, so an integer beyond 2^53 loses its last bits with a precision of 0', () => {
    expect(roundInteger(9007199254740993n, 0n)).toBe(9007199254740992n);
    expect(roundInteger(9007199254740993n, 1n)).toBe(9007199254740993n);
  });
});

describe('roundDecimal', () => {
  it.each([
    [5.123, 2n, 5.12],
    [5.666, 2n, 5.67],
    [5.999, 2n, 6],
    [555.666, 1n, 555.7],
    [555.666, 0n, 556],
    [555.666, -2n, 600],
    [444.444, -1n, 440],
    [-1.234, 2n, -1.22],
    [-555.666, 0n, -555],
    [-555.666, 1n, -555.6],
    [Number.NaN, 2n, 0],
    [123.456, -400n, 0],
  ])('Round(%d, %s) is %d', (n, dp, expected) => same(roundDecimal(n, dp), expected));

  it("scales by the largest int for 10 places or more, as the service's int conversion of 10^p does", () => {
    same(roundDecimal(1.5, 20n), 1 + 1073741824 / 2147483647);
  });
});

describe('truncDecimal', () => {
  it.each([
    [1234.5678, 2n, 1234.56],
    [1234.5678, 1n, 1234.5],
    [1234.5678, 0n, 1234],
    [1234.5678, -1n, 1230],
    [1234.5678, -2n, 1200],
    [-1.789, 1n, -1.7],
    [-0.5, 0n, 0],
    [-0.5, 2n, -0.5],
    [Number.NaN, 1n, 0],
  ])('Trunc(%d, %s) is %d', (n, dp, expected) => same(truncDecimal(n, dp), expected));
});
