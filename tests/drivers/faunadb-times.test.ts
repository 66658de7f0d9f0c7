// The official v4 driver's time and date functions (`q.Epoch`, `q.Date`, `q.ToTime` … `q.TimeDiff`, `q.Year` …)
// against the reference server (profile v4-functions, DEC-065): the wire JSON the driver builds, and how it decodes
// the answers — times as values.FaunaTime, dates as values.FaunaDate, counts as numbers.
import faunadb, { values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDriverServer, expectBadRequest } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

/** The wire text of a driver time or date (the driver keeps it as `value`, which its type declarations leave out). */
function textOf(value: unknown): string {
  expect(value instanceof values.FaunaTime || value instanceof values.FaunaDate).toBe(true);
  return (value as { value: string }).value;
}

beforeAll(async () => {
  await driver.client.query(q.CreateCollection({ name: 'bookings' }));
  await driver.client.query(
    q.Create(q.Ref(q.Collection('bookings'), '1'), { data: { starts: q.Time('2024-02-28T18:30:00Z'), day: q.Date('2024-02-28') } }),
  );
});

describe('faunadb 4.x driver: building and converting times', () => {
  it('Epoch, Date, ToTime and ToDate answer driver times and dates', async () => {
    const results = await driver.client.query<unknown[]>([
      q.Epoch(1700000000, 'seconds'),
      q.Epoch(-1, 'millisecond'),
      q.Date('2024-01-31'),
      q.ToTime(1700000000000),
      q.ToTime('2019-05-27T05:15:48+0100'),
      q.ToTime(q.Date('2024-01-31')),
      q.ToDate(q.Time('2024-01-31T23:59:59Z')),
      q.ToDate(' 2024-02-29 '),
    ]);
    expect(results.map(textOf)).toEqual([
      '2023-11-14T22:13:20Z',
      '1969-12-31T23:59:59.999Z',
      '2024-01-31',
      '2023-11-14T22:13:20Z',
      '2019-05-27T04:15:48Z',
      '2024-01-31T00:00:00Z',
      '2024-01-31',
      '2024-02-29',
    ]);
    expect(results[0]).toBeInstanceOf(values.FaunaTime);
    expect((results[0] as values.FaunaTime).date.getTime()).toBe(1700000000000);
    expect(results[2]).toBeInstanceOf(values.FaunaDate);
  });

  it('ToMicros, ToMillis and ToSeconds of a time and of microseconds', async () => {
    const time = q.Time('2020-01-02T03:04:05.123456Z');
    expect(
      await driver.client.query([
        q.ToMicros(time),
        q.ToMillis(time),
        q.ToSeconds(time),
        q.ToMillis(1500),
        q.ToSeconds(q.Time('1969-12-31T23:59:59.5Z')),
      ]),
    ).toEqual([1577934245123456, 1577934245123, 1577934245, 1, -1]);
  });

  it('ToTime("now") is Now()', async () => {
    expect(await driver.client.query(q.Equals(q.ToTime('now'), q.Now()))).toBe(true);
  });
});

describe('faunadb 4.x driver: fields of a stored time', () => {
  it('Second … Year of a document field', async () => {
    const starts = q.Select(['data', 'starts'], q.Get(q.Ref(q.Collection('bookings'), '1')));
    const fields = await driver.client.query([
      q.Second(starts),
      q.Minute(starts),
      q.Hour(starts),
      q.DayOfMonth(starts),
      q.DayOfWeek(starts),
      q.DayOfYear(starts),
      q.Month(starts),
      q.Year(starts),
    ]);
    expect(fields).toEqual([0, 30, 18, 28, 3, 59, 2, 2024]);
  });
});

describe('faunadb 4.x driver: time arithmetic', () => {
  it('TimeAdd and TimeSubtract of times and dates', async () => {
    const booking = q.Get(q.Ref(q.Collection('bookings'), '1'));
    const results = await driver.client.query<unknown[]>([
      q.TimeAdd(q.Select(['data', 'starts'], booking), 1, 'day'),
      q.TimeSubtract(q.Select(['data', 'starts'], booking), 90, 'minutes'),
      q.TimeAdd(q.Select(['data', 'day'], booking), 1, 'days'),
      q.TimeSubtract(q.Date('2024-03-01'), 1, 'day'),
      q.TimeAdd(q.Epoch(0, 'second'), 1, 'nanosecond'),
    ]);
    expect(results.map(textOf)).toEqual([
      '2024-02-29T18:30:00Z',
      '2024-02-28T17:00:00Z',
      '2024-02-29',
      '2024-02-29',
      '1970-01-01T00:00:00.000000001Z',
    ]);
  });

  it('TimeDiff of times and of dates', async () => {
    expect(
      await driver.client.query([
        q.TimeDiff(q.Time('1970-01-01T00:00:00Z'), q.Time('1970-01-02T00:00:00Z'), 'hours'),
        q.TimeDiff(q.Time('1970-01-01T01:59:59Z'), q.Time('1970-01-01T00:00:00Z'), 'hours'),
        q.TimeDiff(q.Date('2024-01-01'), q.Date('2025-01-01'), 'days'),
      ]),
    ).toEqual([24, -1, 366]);
  });

  it('errors: a bad unit, a time unit on a date, mixed arguments, and the bounds', async () => {
    await expectBadRequest(driver.client.query(q.Epoch(0, 'picosecond')), 'invalid argument', 'Time Unit expected, String provided.', [
      'unit',
    ]);
    await expectBadRequest(
      driver.client.query(q.TimeAdd(q.Date('2024-01-31'), 1, 'hour')),
      'invalid argument',
      "Invalid time unit 'hour'.",
      ['unit'],
    );
    await expectBadRequest(
      driver.client.query(q.TimeDiff(q.Date('1970-01-01'), q.Time('1970-01-01T00:00:00Z'), 'days')),
      'invalid argument',
      'Incompatible time arguments.',
      ['time_diff'],
    );
    await expectBadRequest(
      driver.client.query(q.TimeAdd(q.Now(), '9223372036854775807', 'seconds')),
      'invalid argument',
      'Integer expected, String provided.',
      ['offset'],
    );
    await expectBadRequest(
      driver.client.query(q.Epoch(100000000000000000, 'seconds')),
      'invalid argument',
      'dates and times must be between -1000000000-01-01T00:00:00Z and +1000000000-12-31T23:59:59.999999999Z',
      [],
    );
    await expectBadRequest(driver.client.query(q.Date('2023-02-29')), 'invalid argument', "Cannot cast '2023-02-29' to a date.", []);
    await expectBadRequest(driver.client.query(q.ToTime(true)), 'invalid argument', 'Cannot cast Boolean to Time.', []);
  });
});
