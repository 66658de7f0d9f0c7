import { describe, expect, it } from 'vitest';
import {
  INSTANT_MAX_NANOS,
  INSTANT_MIN_NANOS,
  LOCAL_DATE_MAX_DAY,
  LOCAL_DATE_MIN_DAY,
  NANOS_PER_DAY,
  civilDateOf,
  epochDayOf,
  floorDiv,
  floorMod,
  javaTrim,
  parseLocalDate,
  parseTimestamp,
  timeFieldsOf,
  timeUnitNamed,
} from '../../../../reference-impl/eval/java-time.js';

const MS_PER_DAY = 86_400_000;

/** JS's own calendar, without Date.UTC's reading of years 0–99 as 1900–1999. */
function jsEpochDay(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.round(d.getTime() / MS_PER_DAY);
}

describe('floorDiv and floorMod', () => {
  it.each([
    [7n, 2n, 3n, 1n],
    [-7n, 2n, -4n, 1n],
    [7n, -2n, -4n, -1n],
    [-8n, 2n, -4n, 0n],
    [-1n, 1000n, -1n, 999n],
  ])('%s by %s', (a, b, q, r) => {
    expect(floorDiv(a, b)).toBe(q);
    expect(floorMod(a, b)).toBe(r);
  });
});

describe('the proleptic Gregorian calendar', () => {
  it('agrees with JS dates on days spread over the years -270000 to 270000', () => {
    const first = jsEpochDay(-270_000, 1, 1);
    const last = jsEpochDay(270_000, 1, 1);
    for (let day = first; day <= last; day += 37 * 1013) {
      const js = new Date(day * MS_PER_DAY);
      const civil = civilDateOf(BigInt(day));
      expect([civil.year, civil.month, civil.day]).toEqual([BigInt(js.getUTCFullYear()), js.getUTCMonth() + 1, js.getUTCDate()]);
      expect(epochDayOf(civil.year, civil.month, civil.day)).toBe(BigInt(day));
    }
  });

  it('round-trips every day around year 0 and the 400-year turns', () => {
    for (const start of [jsEpochDay(-1, 1, 1), jsEpochDay(1599, 1, 1), jsEpochDay(1899, 12, 1)]) {
      for (let day = start; day < start + 2000; day++) {
        const civil = civilDateOf(BigInt(day));
        expect(epochDayOf(civil.year, civil.month, civil.day)).toBe(BigInt(day));
        const js = new Date(day * MS_PER_DAY);
        expect(civil.day).toBe(js.getUTCDate());
      }
    }
  });

  it('knows the LocalDate bounds', () => {
    expect(civilDateOf(LOCAL_DATE_MIN_DAY)).toEqual({ year: -999_999_999n, month: 1, day: 1 });
    expect(civilDateOf(LOCAL_DATE_MAX_DAY)).toEqual({ year: 999_999_999n, month: 12, day: 31 });
    // The values java.time.temporal.ChronoField.EPOCH_DAY allows.
    expect(LOCAL_DATE_MIN_DAY).toBe(-365243219162n);
    expect(LOCAL_DATE_MAX_DAY).toBe(365241780471n);
  });

  it('puts the Instant bounds on the first and last day of the years ±1000000000', () => {
    expect(civilDateOf(floorDiv(INSTANT_MIN_NANOS, NANOS_PER_DAY))).toEqual({ year: -1_000_000_000n, month: 1, day: 1 });
    expect(civilDateOf(floorDiv(INSTANT_MAX_NANOS, NANOS_PER_DAY))).toEqual({ year: 1_000_000_000n, month: 12, day: 31 });
  });
});

describe('timeFieldsOf', () => {
  it('agrees with JS dates, before and after 1970', () => {
    for (let ms = -5_000_000_000_000; ms < 5_000_000_000_000; ms += 7_777_777_777) {
      const js = new Date(ms);
      const fields = timeFieldsOf(BigInt(ms) * 1_000_000n + 123n);
      const startOfYear = Date.UTC(js.getUTCFullYear(), 0, 1);
      expect(fields).toEqual({
        year: BigInt(js.getUTCFullYear()),
        month: js.getUTCMonth() + 1,
        dayOfMonth: js.getUTCDate(),
        dayOfWeek: js.getUTCDay() === 0 ? 7 : js.getUTCDay(),
        dayOfYear: Math.floor((ms - startOfYear) / MS_PER_DAY) + 1,
        hour: js.getUTCHours(),
        minute: js.getUTCMinutes(),
        second: js.getUTCSeconds(),
      });
    }
  });

  it('takes the nanosecond before 1970 as 1969-12-31T23:59:59', () => {
    expect(timeFieldsOf(-1n)).toMatchObject({
      year: 1969n,
      month: 12,
      dayOfMonth: 31,
      dayOfWeek: 3,
      dayOfYear: 365,
      hour: 23,
      minute: 59,
      second: 59,
    });
  });
});

describe('parseLocalDate', () => {
  it.each([
    ['1970-01-01', 0n],
    ['2024-02-29', BigInt(jsEpochDay(2024, 2, 29))],
    ['0000-01-01', BigInt(jsEpochDay(0, 1, 1))],
    ['-0001-12-31', BigInt(jsEpochDay(-1, 12, 31))],
    ['+10000-01-01', BigInt(jsEpochDay(10000, 1, 1))],
  ])('reads %s', (text, day) => {
    expect(parseLocalDate(text)).toBe(day);
  });

  it.each([
    '19700101',
    '1970-1-01',
    '1970-01-1',
    '2023-02-29',
    '2024-04-31',
    '2024-00-10',
    '2024-13-01',
    '2024-01-00',
    '10000-01-01',
    '+2024-01-01',
    '-0000-01-01',
    ' 1970-01-01',
    '1970-01-01Z',
    '',
  ])('refuses %j', (text) => {
    expect(parseLocalDate(text)).toBeUndefined();
  });
});

describe('parseTimestamp', () => {
  const at = (iso: string, extraNanos = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extraNanos;

  it.each([
    ['1970-01-01T00:00:00Z', 0n],
    ['1970-01-01T00:00Z', 0n],
    ['1970-01-01t00:00:00z', 0n],
    ['1970-01-01T00:00:00.000000001Z', 1n],
    ['1969-12-31T23:59:59.999999999Z', -1n],
    ['2019-05-27T05:15:48+0100', at('2019-05-27T04:15:48Z')],
    ['2019-05-27T05:15:48+01:00', at('2019-05-27T04:15:48Z')],
    ['2019-05-27T05:15:48-02:30', at('2019-05-27T07:45:48Z')],
    ['2019-05-27T05:15:48+01:00:30', at('2019-05-27T04:15:18Z')],
    ['2019-05-27T05:15:48.5+00:00', at('2019-05-27T05:15:48.500Z')],
    ['2019-05-27T05:15:48.Z', at('2019-05-27T05:15:48Z')],
    // The smart resolver: the month's last day, and 24:00 as the next midnight.
    ['2023-02-30T10:00:00Z', at('2023-02-28T10:00:00Z')],
    ['2024-04-31T00:00:00Z', at('2024-04-30T00:00:00Z')],
    ['2023-12-31T24:00Z', at('2024-01-01T00:00:00Z')],
  ])('reads %s', (text, nanos) => {
    expect(parseTimestamp(text)).toBe(nanos);
  });

  it.each([
    '2019-05-27T05:15:48',
    '2019-05-27',
    '2019-05-27 05:15:48Z',
    '2019-05-27T05:15:48+1',
    '2019-05-27T05:15:48+19:00',
    '2019-05-27T05:60:00Z',
    '2019-05-27T23:59:60Z',
    '2019-05-27T24:00:01Z',
    '2019-05-32T00:00:00Z',
    '2019-13-01T00:00:00Z',
    '2019-05-27T05:15:48.1234567890Z',
    ' 2019-05-27T05:15:48Z',
    'now',
  ])('refuses %j', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });
});

describe('time units and trimming', () => {
  it('knows the singular and plural names, blanks around them ignored', () => {
    expect(timeUnitNamed('day')).toEqual({ nanos: NANOS_PER_DAY, dateBased: true });
    expect(timeUnitNamed(' half days\t')).toEqual({ nanos: NANOS_PER_DAY / 2n, dateBased: false });
    expect(timeUnitNamed('nanoseconds')?.nanos).toBe(1n);
  });

  it.each(['Day', 'week', 'picosecond', 'halfday', 'constructor', '__proto__', ''])('refuses %j', (name) => {
    expect(timeUnitNamed(name)).toBeUndefined();
  });

  it('trims like Java: every character up to U+0020, and nothing else', () => {
    expect(javaTrim('\u0000\t a b \n\u001f')).toBe('a b');
    expect(javaTrim('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });
});
