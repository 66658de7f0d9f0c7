import { describe, expect, it } from 'vitest';
import {
  codePointCount,
  doubleToLong,
  javaDoubleToString,
  nfkcCaseFold,
  offsetOfCodePoint,
  parseJavaNumber,
  stripLeading,
  stripTrailing,
  titleCase,
} from '../../../../reference-impl/eval/java-text.js';

describe('javaDoubleToString', () => {
  it.each([
    [1, '1.0'],
    [100, '100.0'],
    [3.14, '3.14'],
    [-2.5, '-2.5'],
    [-0, '-0.0'],
    [0, '0.0'],
    [9999999, '9999999.0'],
    [1e7, '1.0E7'],
    [12345678.9, '1.23456789E7'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [1.5e-5, '1.5E-5'],
    [1e21, '1.0E21'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Number.MAX_VALUE, '1.7976931348623157E308'],
    [Number.MIN_VALUE, '4.9E-324'],
    [2e23, '2.0E23'],
    [NaN, 'NaN'],
    [-Infinity, '-Infinity'],
  ])('%s is written %s', (value, text) => {
    expect(javaDoubleToString(value)).toBe(text);
  });
});

describe('parseJavaNumber', () => {
  it.each<[string, bigint | number | undefined]>([
    ['42', 42n],
    [' \t42\n', 42n],
    ['-42', -42n],
    ['007', 7n],
    ['1.5', 1.5],
    ['1.0', 1n],
    ['5.', 5n],
    ['.5', 0.5],
    ['0.005', 0.005],
    ['1,234', 1234n],
    ['1,234.5', 1234.5],
    ['1,', 1n],
    ['1.2.3', 1.2],
    ['12abc', 12n],
    ['1 000', 1n],
    ['1E3', 1000n],
    ['1.5E1', 15n],
    ['1E-1', 0.1],
    ['1e3', 1n],
    ['1E', 1n],
    ['1E+5', 1n],
    ['0', 0n],
    ['-0', -0],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', 2 ** 63],
    ['-9223372036854775808', -9223372036854775808n],
    ['\u0663\u0664', 34n],
    ['abc', undefined],
    ['', undefined],
    ['+5', undefined],
    ['-', undefined],
    ['.', undefined],
    ['--5', undefined],
    ['\u00a05', undefined],
  ])('%j reads as %s', (text, value) => {
    const parsed = parseJavaNumber(text);
    expect(parsed).toStrictEqual(value);
    if (typeof value === 'number') expect(Object.is(parsed, value)).toBe(true);
  });

  it('reads NaN by name', () => {
    expect(parseJavaNumber('NaN')).toBeNaN();
  });
});

describe('doubleToLong', () => {
  it('truncates toward zero and saturates', () => {
    expect(doubleToLong(2.9)).toBe(2n);
    expect(doubleToLong(-2.9)).toBe(-2n);
    expect(doubleToLong(NaN)).toBe(0n);
    expect(doubleToLong(1e300)).toBe(2n ** 63n - 1n);
    expect(doubleToLong(-1e300)).toBe(-(2n ** 63n));
  });
});

describe('code points', () => {
  it('count a surrogate pair as one, and find offsets by code point', () => {
    const text = '\uD801\uDC00 ABC';
    expect(codePointCount(text)).toBe(5);
    expect(offsetOfCodePoint(text, 2)).toBe(3);
    expect(offsetOfCodePoint(text, 99)).toBe(text.length);
    expect(codePointCount('\uD801')).toBe(1);
  });
});

describe('Java white space', () => {
  it('strips Character.isWhitespace characters but not no-break spaces', () => {
    expect(stripLeading('\t\n\u1680\u001c ABC ')).toBe('ABC ');
    expect(stripTrailing(' ABC\u3000\u2028')).toBe(' ABC');
    expect(stripLeading('\u00a0ABC')).toBe('\u00a0ABC');
    expect(stripTrailing('ABC\u202f')).toBe('ABC\u202f');
    expect(stripLeading('\ufeffABC')).toBe('\ufeffABC');
  });
});

describe('nfkcCaseFold', () => {
  it.each([
    ['John Doe', 'john doe'],
    ['İstanbul', 'i̇stanbul'],
    ['Diyarbakır', 'diyarbakır'],
    ['φιλόσοφος', 'φιλόσοφοσ'],
    ['Weißkopfseeadler', 'weisskopfseeadler'],
    ['ﬁ①Ｆ', 'fi1f'],
    ['a\u00adb', 'ab'],
    ['\uab70', '\u13a0'],
  ])('folds %j to %j', (text, folded) => {
    expect(nfkcCaseFold(text)).toBe(folded);
  });
});

describe('titleCase', () => {
  it.each([
    ['Bob f smith sonny Jones BILL WALSH', 'Bob F Smith Sonny Jones Bill Walsh'],
    ["don't STOP", "Don't Stop"],
    ['hello-world', 'Hello-World'],
    ['1st PLACE', '1st Place'],
    ['ǆemal', 'ǅemal'],
    ['ßa', 'Ssa'],
    ['ᾳ', 'ᾼ'],
    ['', ''],
  ])('titlecases %j as %j', (text, titled) => {
    expect(titleCase(text)).toBe(titled);
  });
});
