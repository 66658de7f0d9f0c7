import { describe, expect, it } from 'vitest';
import {
  IllegalFormat,
  UnknownConversion,
  formatDateTime,
  formatDouble,
  formatLong,
  formatText,
  parseFormatString,
  type ConversionSpec,
} from '../../../../reference-impl/eval/java-format.js';
import { epochDayOf } from '../../../../reference-impl/eval/java-time.js';

const LIMIT = 1000;

/** The one conversion of a format string such as `%08.3f`. */
function specOf(format: string): ConversionSpec {
  const [piece] = parseFormatString(format);
  if (piece === undefined || !('spec' in piece)) throw new Error(`${format} is not one conversion`);
  return piece.spec;
}

describe('parseFormatString', () => {
  it('splits text, escapes and conversions, keeping the index out of the quoted source', () => {
    expect(parseFormatString('a%%b%nc%2$-5sd')).toEqual([
      { text: 'a' },
      { text: '%' },
      { text: 'b' },
      { text: '\n' },
      { text: 'c' },
      {
        spec: {
          kind: 'string',
          index: 2,
          source: '%-5s',
          flags: '-',
          width: '5',
          precision: undefined,
          dateTime: undefined,
          conversion: 's',
        },
      },
      { text: 'd' },
    ]);
  });

  it('reads date/time conversions with or without a letter', () => {
    expect(specOf('%Tb')).toMatchObject({ kind: 'date-time', dateTime: 'T', conversion: 'b' });
    expect(specOf('%t')).toMatchObject({ kind: 'date-time', dateTime: 't', conversion: undefined });
  });

  it('refuses an unknown conversion quoting the whole specifier', () => {
    expect(() => parseFormatString('x %1$-5h')).toThrow(new UnknownConversion('%1$-5h'));
    expect(() => parseFormatString('100%')).toThrow(new UnknownConversion('%'));
  });
});

describe('Formatter emulation', () => {
  it.each<[string, number, string]>([
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: a double with more digits than %.3f keeps, rounded on purpose
    ['%08.3f', -3.14159, '-003.142'],
    ['%(,.2f', -1234.5, '(1,234.50)'],
    ['%10.3e', 12345.678, ' 1.235e+04'],
    ['%010.2e', -0.000123, '-01.23e-04'],
    ['%.3g', 0.0001234, '0.000123'],
    ['%g', 123456789, '1.23457e+08'],
    ['%#.0f', 3, '3.'],
    ['%.1f', 0.05, '0.1'],
    ['%.1f', 0.04999, '0.0'],
    ['%.2f', 0.0001, '0.00'],
    ['%e', 1e-300, '1.000000e-300'],
    ['%+.1f', NaN, 'NaN'],
    ['%010.2f', Infinity, '  Infinity'],
    ['%(f', -Infinity, '(Infinity)'],
    ['%E', -Infinity, '-INFINITY'],
  ])('%s of %d is %s', (format, value, expected) => {
    expect(formatDouble(specOf(format), value, LIMIT)).toBe(expected);
  });

  it.each<[string, bigint, string]>([
    ['%,d', -1234567n, '-1,234,567'],
    ['%(08d', -42n, '(000042)'],
    ['%#X', 255n, '0XFF'],
    ['%#010x', 255n, '0x000000ff'],
    ['%o', -8n, '1777777777777777777770'],
    ['%d', -(2n ** 63n), '-9223372036854775808'],
  ])('%s of %d is %s', (format, value, expected) => {
    expect(formatLong(specOf(format), value, LIMIT)).toBe(expected);
  });

  it('cuts, upper-cases and pads text', () => {
    expect(formatText(specOf('%-6.2S'), 'abc', LIMIT)).toBe('AB    ');
  });

  it.each(['%#s', '%0s', '%-s', '%<s', '%--4s'])('refuses %s for text', (format) => {
    expect(() => formatText(specOf(format), 'a', LIMIT)).toThrow(IllegalFormat);
  });

  it.each(['%.1d', '%#d', '%,x', '%+o', '%+ d', '%-05d', '%0d'])('refuses %s for an integer', (format) => {
    expect(() => formatLong(specOf(format), 1n, LIMIT)).toThrow(IllegalFormat);
  });

  it.each(['%,e', '%#g', '%-f'])('refuses %s for a double', (format) => {
    expect(() => formatDouble(specOf(format), 1, LIMIT)).toThrow(IllegalFormat);
  });

  it('prints years beyond four digits and years before the era', () => {
    expect(formatDateTime(specOf('%tY'), { date: Number(epochDayOf(12345n, 1, 1)) }, LIMIT)).toBe('12345');
    // Year 0 is 1 BCE: the year of its era is 1.
    expect(formatDateTime(specOf('%tY'), { date: Number(epochDayOf(0n, 1, 1)) }, LIMIT)).toBe('0001');
  });

  it('prints nanoseconds whatever the flags, and refuses a precision on other letters', () => {
    expect(formatDateTime(specOf('%-3tN'), { time: 1_000_000_007n }, LIMIT)).toBe('000000007');
    expect(() => formatDateTime(specOf('%.2tH'), { time: 0n }, LIMIT)).toThrow(IllegalFormat);
  });
});
