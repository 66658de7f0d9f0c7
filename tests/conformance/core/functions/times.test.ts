// Time and date functions of FQL v4 (profile v4-functions, DEC-065): spec/requirements/functions-time.md.
// Times go in as `@ts` literals and come back as `{"@ts": …}` with 0, 3, 6 or 9 fraction digits; counts are
// integers (bigints here).
import { describe } from 'vitest';
import { check, decimal, useTenant } from '../../../harness/index.js';
import { literal } from '../../../harness/v4.js';
import { expectResult, type ErrorCase, type ResultCase, checkCases } from './function-cases.js';

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;
const BOUNDS = 'dates and times must be between -1000000000-01-01T00:00:00Z and +1000000000-12-31T23:59:59.999999999Z';
const EPOCH = '1970-01-01T00:00:00Z';
const COLLECTIONS_REF = { '@ref': { id: 'collections' } };
const BYTES = { '@bytes': 'AQID' };

const ts = (text: string) => ({ '@ts': text });
const date = (text: string) => ({ '@date': text });

const epoch = (n: number | bigint, unit: string) => ({ epoch: n, unit });
const add = (base: unknown, offset: unknown, unit: unknown) => ({ time_add: base, offset, unit });
const subtract = (base: unknown, offset: unknown, unit: unknown) => ({ time_subtract: base, offset, unit });
const diff = (from: unknown, to: unknown, unit: unknown) => ({ time_diff: from, other: to, unit });

const BUILD_RESULTS: readonly ResultCase[] = [
  { name: 'Epoch(0, "second")', ids: ['FN-TIME-001'], expr: epoch(0, 'second'), expected: ts(EPOCH) },
  { name: 'Epoch(-1, "day")', ids: ['FN-TIME-001'], expr: epoch(-1, 'day'), expected: ts('1969-12-31T00:00:00Z') },
  { name: 'Epoch(2, "days")', ids: ['FN-TIME-001'], expr: epoch(2, 'days'), expected: ts('1970-01-03T00:00:00Z') },
  { name: 'Epoch(1, "half day")', ids: ['FN-TIME-001'], expr: epoch(1, 'half day'), expected: ts('1970-01-01T12:00:00Z') },
  { name: 'Epoch(-1, "half days")', ids: ['FN-TIME-001'], expr: epoch(-1, 'half days'), expected: ts('1969-12-31T12:00:00Z') },
  { name: 'Epoch(1, "hour")', ids: ['FN-TIME-001'], expr: epoch(1, 'hour'), expected: ts('1970-01-01T01:00:00Z') },
  { name: 'Epoch(-1, "minutes")', ids: ['FN-TIME-001'], expr: epoch(-1, 'minutes'), expected: ts('1969-12-31T23:59:00Z') },
  { name: 'Epoch(1700000000, "seconds")', ids: ['FN-TIME-001'], expr: epoch(1700000000, 'seconds'), expected: ts('2023-11-14T22:13:20Z') },
  { name: 'Epoch(-1, "millisecond")', ids: ['FN-TIME-001'], expr: epoch(-1, 'millisecond'), expected: ts('1969-12-31T23:59:59.999Z') },
  {
    name: 'Epoch(1500, "microseconds")',
    ids: ['FN-TIME-001'],
    expr: epoch(1500, 'microseconds'),
    expected: ts('1970-01-01T00:00:00.001500Z'),
  },
  { name: 'Epoch(2^51 µs)', ids: ['FN-TIME-001'], expr: epoch(2147483648000000n, 'microsecond'), expected: ts('2038-01-19T03:14:08Z') },
  { name: 'Epoch(1, "nanosecond")', ids: ['FN-TIME-001'], expr: epoch(1, 'nanosecond'), expected: ts('1970-01-01T00:00:00.000000001Z') },
  {
    name: 'Epoch of the largest integer in nanoseconds',
    ids: ['FN-TIME-001'],
    expr: epoch(LONG_MAX, 'nanoseconds'),
    expected: ts('2262-04-11T23:47:16.854775807Z'),
  },
  {
    name: 'Epoch of the smallest integer in nanoseconds',
    ids: ['FN-TIME-001'],
    expr: epoch(LONG_MIN, 'nanoseconds'),
    expected: ts('1677-09-21T00:12:43.145224192Z'),
  },
  { name: 'Epoch with blanks around the unit', ids: ['FN-TIME-001'], expr: epoch(3, ' hours '), expected: ts('1970-01-01T03:00:00Z') },

  { name: 'Date of an ISO date', ids: ['FN-TIME-004'], expr: { date: '2024-01-31' }, expected: date('2024-01-31') },
  { name: 'Date of a leap day', ids: ['FN-TIME-004'], expr: { date: '2024-02-29' }, expected: date('2024-02-29') },
  { name: 'Date before 1970', ids: ['FN-TIME-004'], expr: { date: '1969-07-20' }, expected: date('1969-07-20') },
  { name: 'Date with blanks around it', ids: ['FN-TIME-004'], expr: { date: ' 1970-01-01\n' }, expected: date('1970-01-01') },
];

const BUILD_ERRORS: readonly ErrorCase[] = [
  {
    name: 'Epoch in picoseconds',
    ids: ['FN-TIME-002'],
    expr: epoch(0, 'picosecond'),
    position: ['unit'],
    description: 'Time Unit expected, String provided.',
  },
  {
    name: 'Epoch in weeks',
    ids: ['FN-TIME-002'],
    expr: epoch(1, 'week'),
    position: ['unit'],
    description: 'Time Unit expected, String provided.',
  },
  {
    name: 'Epoch with a capitalised unit',
    ids: ['FN-TIME-002'],
    expr: epoch(1, 'Day'),
    position: ['unit'],
    description: 'Time Unit expected, String provided.',
  },
  {
    name: 'Epoch with a number as unit',
    ids: ['FN-TIME-002'],
    expr: { epoch: 1, unit: 1 },
    position: ['unit'],
    description: 'Time Unit expected, Integer provided.',
  },
  {
    name: 'Epoch with a null unit',
    ids: ['FN-TIME-002'],
    expr: { epoch: 1, unit: null },
    position: ['unit'],
    description: 'Time Unit expected, Null provided.',
  },
  {
    name: 'TimeAdd in fortnights',
    ids: ['FN-TIME-002'],
    expr: add(ts(EPOCH), 1, 'fortnight'),
    position: ['unit'],
    description: 'Time Unit expected, String provided.',
  },
  {
    name: 'TimeSubtract with a boolean unit',
    ids: ['FN-TIME-002'],
    expr: subtract(ts(EPOCH), 1, true),
    position: ['unit'],
    description: 'Time Unit expected, Boolean provided.',
  },
  {
    name: 'TimeDiff in jiffies',
    ids: ['FN-TIME-002'],
    expr: diff(date('1970-01-01'), date('1970-01-01'), 'jiffies'),
    position: ['unit'],
    description: 'Time Unit expected, String provided.',
  },
  {
    name: 'a unit error inside an array',
    ids: ['FN-TIME-002'],
    expr: [0, add(ts(EPOCH), 1, 'eon')],
    position: [1, 'unit'],
    description: 'Time Unit expected, String provided.',
  },

  { name: 'Epoch of the largest integer in days', ids: ['FN-TIME-003'], expr: epoch(LONG_MAX, 'day'), position: [], description: BOUNDS },
  {
    name: 'Epoch of the largest integer in seconds',
    ids: ['FN-TIME-003'],
    expr: epoch(LONG_MAX, 'seconds'),
    position: [],
    description: BOUNDS,
  },
  { name: 'Epoch of 10^17 seconds', ids: ['FN-TIME-003'], expr: epoch(100000000000000000n, 'second'), position: [], description: BOUNDS },
  {
    name: 'Epoch of the smallest integer in hours',
    ids: ['FN-TIME-003'],
    expr: epoch(LONG_MIN, 'hours'),
    position: [],
    description: BOUNDS,
  },
  {
    name: 'Epoch beyond the bounds inside Let',
    ids: ['FN-TIME-003'],
    expr: { let: { n: LONG_MAX }, in: { epoch: { var: 'n' }, unit: 'minute' } },
    position: ['in'],
    description: BOUNDS,
  },
  {
    name: 'Epoch of a string',
    ids: ['FN-TIME-003'],
    expr: { epoch: '1', unit: 'second' },
    position: ['epoch'],
    description: 'Integer expected, String provided.',
  },
  {
    name: 'Epoch of a double',
    ids: ['FN-TIME-003'],
    expr: { epoch: decimal('1.0'), unit: 'second' },
    position: ['epoch'],
    description: 'Integer expected, Double provided.',
  },

  {
    name: 'Date without dashes',
    ids: ['FN-TIME-005'],
    expr: { date: '19700101' },
    position: [],
    description: "Cannot cast '19700101' to a date.",
  },
  {
    name: 'Date with one-digit fields',
    ids: ['FN-TIME-005'],
    expr: { date: '1970-1-1' },
    position: [],
    description: "Cannot cast '1970-1-1' to a date.",
  },
  {
    name: 'Date of February 29th of a common year',
    ids: ['FN-TIME-005'],
    expr: { date: '2023-02-29' },
    position: [],
    description: "Cannot cast '2023-02-29' to a date.",
  },
  {
    name: 'Date of April 31st',
    ids: ['FN-TIME-005'],
    expr: { date: '2024-04-31' },
    position: [],
    description: "Cannot cast '2024-04-31' to a date.",
  },
  {
    name: 'Date of month 13',
    ids: ['FN-TIME-005'],
    expr: { date: '2024-13-01' },
    position: [],
    description: "Cannot cast '2024-13-01' to a date.",
  },
  { name: 'Date of a time', ids: ['FN-TIME-005'], expr: { date: EPOCH }, position: [], description: `Cannot cast '${EPOCH}' to a date.` },
  { name: 'Date of an empty string', ids: ['FN-TIME-005'], expr: { date: '' }, position: [], description: "Cannot cast '' to a date." },
  {
    name: 'Date of a padded word, quoted as given',
    ids: ['FN-TIME-005'],
    expr: { date: ' today ' },
    position: [],
    description: "Cannot cast ' today ' to a date.",
  },
  {
    name: 'Date error inside Do',
    ids: ['FN-TIME-005'],
    expr: { do: [1, { date: 'x' }] },
    position: ['do', 1],
    description: "Cannot cast 'x' to a date.",
  },
  {
    name: 'Date of an integer',
    ids: ['FN-TIME-005'],
    expr: { date: 5 },
    position: ['date'],
    description: 'String expected, Integer provided.',
  },
  {
    name: 'Date of a date',
    ids: ['FN-TIME-005'],
    expr: { date: date('1970-01-01') },
    position: ['date'],
    description: 'String expected, Date provided.',
  },
];

const CONVERSION_RESULTS: readonly ResultCase[] = [
  { name: 'ToTime of 0', ids: ['FN-TIME-006'], expr: { to_time: 0 }, expected: ts(EPOCH) },
  {
    name: 'ToTime of an integer counts milliseconds',
    ids: ['FN-TIME-006'],
    expr: { to_time: 1700000000000n },
    expected: ts('2023-11-14T22:13:20Z'),
  },
  { name: 'ToTime of -1', ids: ['FN-TIME-006'], expr: { to_time: -1 }, expected: ts('1969-12-31T23:59:59.999Z') },
  {
    name: 'ToTime of a time keeps its nanoseconds',
    ids: ['FN-TIME-006'],
    expr: { to_time: ts('2020-01-02T03:04:05.123456789Z') },
    expected: ts('2020-01-02T03:04:05.123456789Z'),
  },
  { name: 'ToTime of a date', ids: ['FN-TIME-006'], expr: { to_time: date('2024-01-31') }, expected: ts('2024-01-31T00:00:00Z') },
  {
    name: 'ToTime of a date before 1970',
    ids: ['FN-TIME-006'],
    expr: { to_time: date('1969-07-20') },
    expected: ts('1969-07-20T00:00:00Z'),
  },
  { name: 'ToTime of a UTC string', ids: ['FN-TIME-006'], expr: { to_time: '2019-05-27T05:15:48Z' }, expected: ts('2019-05-27T05:15:48Z') },
  {
    name: 'ToTime of a string with an offset without colon',
    ids: ['FN-TIME-006'],
    expr: { to_time: '2019-05-27T05:15:48+0100' },
    expected: ts('2019-05-27T04:15:48Z'),
  },
  {
    name: 'ToTime of a string with a negative offset and a fraction',
    ids: ['FN-TIME-006'],
    expr: { to_time: '2019-05-27T05:15:48.5-02:00' },
    expected: ts('2019-05-27T07:15:48.500Z'),
  },
  {
    name: 'ToTime of a string without seconds',
    ids: ['FN-TIME-006'],
    expr: { to_time: '2019-05-27T05:15Z' },
    expected: ts('2019-05-27T05:15:00Z'),
  },
  {
    name: 'ToTime of a string with nanoseconds',
    ids: ['FN-TIME-006'],
    expr: { to_time: '1970-01-01T00:00:00.000000001Z' },
    expected: ts('1970-01-01T00:00:00.000000001Z'),
  },
  {
    name: 'ToTime of a padded string',
    ids: ['FN-TIME-006'],
    expr: { to_time: ' 2019-05-27T05:15:48Z\t' },
    expected: ts('2019-05-27T05:15:48Z'),
  },
  { name: 'ToTime of "now" is Now', ids: ['FN-TIME-006'], expr: { equals: [{ to_time: 'now' }, { now: null }] }, expected: true },
  {
    name: 'Time of a string with an offset without colon',
    ids: ['FN-TIME-020'],
    expr: { time: '2019-05-27T05:15:48+0100' },
    expected: ts('2019-05-27T04:15:48Z'),
  },
  {
    name: 'Time of a padded string',
    ids: ['FN-TIME-020'],
    expr: { time: ' 2019-05-27T05:15:48.25Z\n' },
    expected: ts('2019-05-27T05:15:48.250Z'),
  },

  { name: 'ToDate of a date', ids: ['FN-TIME-008'], expr: { to_date: date('2024-01-31') }, expected: date('2024-01-31') },
  {
    name: 'ToDate of a time late in the day',
    ids: ['FN-TIME-008'],
    expr: { to_date: ts('2024-01-31T23:59:59.999999999Z') },
    expected: date('2024-01-31'),
  },
  {
    name: 'ToDate of a time before 1970',
    ids: ['FN-TIME-008'],
    expr: { to_date: ts('1969-12-31T23:59:59Z') },
    expected: date('1969-12-31'),
  },
  { name: 'ToDate of a string', ids: ['FN-TIME-008'], expr: { to_date: '2024-02-29' }, expected: date('2024-02-29') },
  { name: 'ToDate of a padded string', ids: ['FN-TIME-008'], expr: { to_date: ' 2024-02-29 ' }, expected: date('2024-02-29') },

  {
    name: 'ToMicros of a time',
    ids: ['FN-TIME-010'],
    expr: { to_micros: ts('2020-01-02T03:04:05.123456789Z') },
    expected: 1577934245123456n,
  },
  { name: 'ToMillis of a time', ids: ['FN-TIME-010'], expr: { to_millis: ts('2020-01-02T03:04:05.123456789Z') }, expected: 1577934245123n },
  { name: 'ToSeconds of a time', ids: ['FN-TIME-010'], expr: { to_seconds: ts('2020-01-02T03:04:05.999Z') }, expected: 1577934245n },
  { name: 'ToSeconds before 1970 rounds down', ids: ['FN-TIME-010'], expr: { to_seconds: ts('1969-12-31T23:59:59.5Z') }, expected: -1n },
  { name: 'ToMillis before 1970 rounds down', ids: ['FN-TIME-010'], expr: { to_millis: ts('1969-12-31T23:59:59.9995Z') }, expected: -1n },
  {
    name: 'ToMicros before 1970 rounds down',
    ids: ['FN-TIME-010'],
    expr: { to_micros: ts('1969-12-31T23:59:59.999999999Z') },
    expected: -1n,
  },
  { name: 'ToMicros of an integer', ids: ['FN-TIME-010'], expr: { to_micros: 2147483648000000n }, expected: 2147483648000000n },
  { name: 'ToMillis of an integer counts microseconds', ids: ['FN-TIME-010'], expr: { to_millis: 1500 }, expected: 1n },
  { name: 'ToMillis of a negative integer', ids: ['FN-TIME-010'], expr: { to_millis: -1 }, expected: -1n },
  { name: 'ToSeconds of an integer', ids: ['FN-TIME-010'], expr: { to_seconds: 2147483648000000n }, expected: 2147483648n },
  { name: 'ToSeconds of Epoch', ids: ['FN-TIME-010', 'FN-TIME-001'], expr: { to_seconds: epoch(-86400, 'seconds') }, expected: -86400n },
];

const CONVERSION_ERRORS: readonly ErrorCase[] = [
  {
    name: 'ToTime of a string without offset',
    ids: ['FN-TIME-007'],
    expr: { to_time: '2019-05-27T05:15:48' },
    position: [],
    description: "Cannot cast '2019-05-27T05:15:48' to a time.",
  },
  {
    name: 'ToTime of a word',
    ids: ['FN-TIME-007'],
    expr: { to_time: 'yesterday' },
    position: [],
    description: "Cannot cast 'yesterday' to a time.",
  },
  {
    name: 'Time of a word',
    ids: ['FN-TIME-020'],
    expr: { time: 'yesterday' },
    position: [],
    description: "Cannot cast 'yesterday' to a time.",
  },
  {
    name: 'Time of a string without offset, inside Let',
    ids: ['FN-TIME-020'],
    expr: { let: { s: '2019-05-27T05:15:48' }, in: { time: { var: 's' } } },
    position: ['in'],
    description: "Cannot cast '2019-05-27T05:15:48' to a time.",
  },
  {
    name: 'ToTime of a date string',
    ids: ['FN-TIME-007'],
    expr: { to_time: '2019-05-27' },
    position: [],
    description: "Cannot cast '2019-05-27' to a time.",
  },
  {
    name: 'ToTime of a padded "now"',
    ids: ['FN-TIME-007'],
    expr: { to_time: ' now ' },
    position: [],
    description: "Cannot cast ' now ' to a time.",
  },
  {
    name: 'ToTime error inside Let',
    ids: ['FN-TIME-007'],
    expr: { let: { s: 'x' }, in: { to_time: { var: 's' } } },
    position: ['in'],
    description: "Cannot cast 'x' to a time.",
  },
  { name: 'ToTime of a double', ids: ['FN-TIME-007'], expr: { to_time: 1.5 }, position: [], description: 'Cannot cast Double to Time.' },
  { name: 'ToTime of a boolean', ids: ['FN-TIME-007'], expr: { to_time: true }, position: [], description: 'Cannot cast Boolean to Time.' },
  { name: 'ToTime of null', ids: ['FN-TIME-007'], expr: { to_time: null }, position: [], description: 'Cannot cast Null to Time.' },
  {
    name: 'ToTime of an array',
    ids: ['FN-TIME-007'],
    expr: { to_time: [1, 2, 3] },
    position: [],
    description: 'Cannot cast Array to Time.',
  },
  {
    name: 'ToTime of an object',
    ids: ['FN-TIME-007'],
    expr: { to_time: literal({ a: 1 }) },
    position: [],
    description: 'Cannot cast Object to Time.',
  },
  { name: 'ToTime of bytes', ids: ['FN-TIME-007'], expr: { to_time: BYTES }, position: [], description: 'Cannot cast Bytes to Time.' },
  {
    name: 'ToTime of a collection ref',
    ids: ['FN-TIME-007'],
    expr: { to_time: COLLECTIONS_REF },
    position: [],
    description: 'Cannot cast Collection Ref to Time.',
  },

  { name: 'ToDate of a word', ids: ['FN-TIME-009'], expr: { to_date: 'x' }, position: [], description: "Cannot cast 'x' to a date." },
  {
    name: 'ToDate of a time string',
    ids: ['FN-TIME-009'],
    expr: { to_date: '2024-01-31T00:00:00Z' },
    position: [],
    description: "Cannot cast '2024-01-31T00:00:00Z' to a date.",
  },
  {
    name: 'ToDate of February 30th',
    ids: ['FN-TIME-009'],
    expr: { to_date: '2024-02-30' },
    position: [],
    description: "Cannot cast '2024-02-30' to a date.",
  },
  { name: 'ToDate of an integer', ids: ['FN-TIME-009'], expr: { to_date: 0 }, position: [], description: 'Cannot cast Integer to Date.' },
  { name: 'ToDate of a double', ids: ['FN-TIME-009'], expr: { to_date: 1.5 }, position: [], description: 'Cannot cast Double to Date.' },
  {
    name: 'ToDate of a boolean',
    ids: ['FN-TIME-009'],
    expr: { to_date: false },
    position: [],
    description: 'Cannot cast Boolean to Date.',
  },
  { name: 'ToDate of null', ids: ['FN-TIME-009'], expr: { to_date: null }, position: [], description: 'Cannot cast Null to Date.' },
  {
    name: 'ToDate error inside an array',
    ids: ['FN-TIME-009'],
    expr: [{ to_date: [] }],
    position: [0],
    description: 'Cannot cast Array to Date.',
  },

  {
    name: 'ToMicros of a string',
    ids: ['FN-TIME-012'],
    expr: { to_micros: 'one' },
    position: ['to_micros'],
    description: 'Time expected, String provided.',
  },
  {
    name: 'ToMillis of a date',
    ids: ['FN-TIME-012'],
    expr: { to_millis: date('1970-01-01') },
    position: ['to_millis'],
    description: 'Time expected, Date provided.',
  },
  {
    name: 'ToSeconds of a double',
    ids: ['FN-TIME-012'],
    expr: { to_seconds: 1.5 },
    position: ['to_seconds'],
    description: 'Time expected, Double provided.',
  },
  {
    name: 'Second of null',
    ids: ['FN-TIME-012'],
    expr: { second: null },
    position: ['second'],
    description: 'Time expected, Null provided.',
  },
  {
    name: 'Minute of an array',
    ids: ['FN-TIME-012'],
    expr: { minute: [0] },
    position: ['minute'],
    description: 'Time expected, Array provided.',
  },
  {
    name: 'Hour of a boolean',
    ids: ['FN-TIME-012'],
    expr: { hour: true },
    position: ['hour'],
    description: 'Time expected, Boolean provided.',
  },
  {
    name: 'DayOfMonth of an object',
    ids: ['FN-TIME-012'],
    expr: { day_of_month: literal({}) },
    position: ['day_of_month'],
    description: 'Time expected, Object provided.',
  },
  {
    name: 'DayOfWeek of a date',
    ids: ['FN-TIME-012'],
    expr: { day_of_week: date('2024-01-31') },
    position: ['day_of_week'],
    description: 'Time expected, Date provided.',
  },
  {
    name: 'DayOfYear of a time string',
    ids: ['FN-TIME-012'],
    expr: { day_of_year: EPOCH },
    position: ['day_of_year'],
    description: 'Time expected, String provided.',
  },
  {
    name: 'Month of a collection ref',
    ids: ['FN-TIME-012'],
    expr: { month: COLLECTIONS_REF },
    position: ['month'],
    description: 'Time expected, Collection Ref provided.',
  },
  { name: 'Year of bytes', ids: ['FN-TIME-012'], expr: { year: BYTES }, position: ['year'], description: 'Time expected, Bytes provided.' },
];

/** The fields of a time (or microsecond count), in the order second, minute, hour, day of month, day of week, day of year, month, year. */
function fieldCases(name: string, time: unknown, fields: readonly number[]): ResultCase[] {
  const functions = ['second', 'minute', 'hour', 'day_of_month', 'day_of_week', 'day_of_year', 'month', 'year'];
  return functions.map((fn, i) => ({ name: `${fn} of ${name}`, ids: ['FN-TIME-011'], expr: { [fn]: time }, expected: BigInt(fields[i]!) }));
}

const FIELD_RESULTS: readonly ResultCase[] = [
  ...fieldCases('2038-01-19T03:14:08Z as microseconds', 2147483648000000n, [8, 14, 3, 19, 2, 19, 1, 2038]),
  ...fieldCases('the last second of leap year 2024', ts('2024-12-31T23:59:58.999Z'), [58, 59, 23, 31, 2, 366, 12, 2024]),
  ...fieldCases('0 microseconds', 0, [0, 0, 0, 1, 4, 1, 1, 1970]),
  ...fieldCases('-1 microsecond', -1, [59, 59, 23, 31, 3, 365, 12, 1969]),
  { name: 'day_of_week of a Sunday', ids: ['FN-TIME-011'], expr: { day_of_week: ts('2024-06-30T12:00:00Z') }, expected: 7n },
  { name: 'day_of_week of a Monday', ids: ['FN-TIME-011'], expr: { day_of_week: ts('2024-07-01T00:00:00Z') }, expected: 1n },
  {
    name: 'hour in UTC of a time given with an offset',
    ids: ['FN-TIME-011', 'FN-TIME-006'],
    expr: { hour: { to_time: '2024-07-01T01:30:00+02:00' } },
    expected: 23n,
  },
  {
    name: 'day_of_year of March 1st of a common year',
    ids: ['FN-TIME-011'],
    expr: { day_of_year: ts('2023-03-01T00:00:00Z') },
    expected: 60n,
  },
];

const ARITHMETIC_RESULTS: readonly ResultCase[] = [
  { name: 'TimeAdd of -1 day', ids: ['FN-TIME-013'], expr: add(ts(EPOCH), -1, 'day'), expected: ts('1969-12-31T00:00:00Z') },
  { name: 'TimeAdd of 1 half day', ids: ['FN-TIME-013'], expr: add(ts(EPOCH), 1, 'half day'), expected: ts('1970-01-01T12:00:00Z') },
  { name: 'TimeAdd of 25 hours', ids: ['FN-TIME-013'], expr: add(ts(EPOCH), 25, 'hours'), expected: ts('1970-01-02T01:00:00Z') },
  { name: 'TimeAdd of 1 minute', ids: ['FN-TIME-013'], expr: add(ts(EPOCH), 1, 'minute'), expected: ts('1970-01-01T00:01:00Z') },
  {
    name: 'TimeAdd of 1 second across a year',
    ids: ['FN-TIME-013'],
    expr: add(ts('1999-12-31T23:59:59Z'), 1, 'second'),
    expected: ts('2000-01-01T00:00:00Z'),
  },
  {
    name: 'TimeAdd of 1 millisecond',
    ids: ['FN-TIME-013'],
    expr: add(ts(EPOCH), 1, 'millisecond'),
    expected: ts('1970-01-01T00:00:00.001Z'),
  },
  {
    name: 'TimeAdd of 1 microsecond to nanoseconds',
    ids: ['FN-TIME-013'],
    expr: add(ts('2020-01-02T03:04:05.123456789Z'), 1, 'microseconds'),
    expected: ts('2020-01-02T03:04:05.123457789Z'),
  },
  {
    name: 'TimeAdd of 1 nanosecond',
    ids: ['FN-TIME-013'],
    expr: add(ts(EPOCH), 1, 'nanosecond'),
    expected: ts('1970-01-01T00:00:00.000000001Z'),
  },
  {
    name: 'TimeAdd of 1 day onto a leap day',
    ids: ['FN-TIME-013'],
    expr: add(ts('2024-02-28T12:00:00Z'), 1, 'days'),
    expected: ts('2024-02-29T12:00:00Z'),
  },
  {
    name: 'TimeAdd of the largest integer in nanoseconds',
    ids: ['FN-TIME-013'],
    expr: add(ts(EPOCH), LONG_MAX, 'nanosecond'),
    expected: ts('2262-04-11T23:47:16.854775807Z'),
  },
  { name: 'TimeSubtract of 1 day', ids: ['FN-TIME-013'], expr: subtract(ts(EPOCH), 1, 'day'), expected: ts('1969-12-31T00:00:00Z') },
  { name: 'TimeSubtract of -1 hour', ids: ['FN-TIME-013'], expr: subtract(ts(EPOCH), -1, 'hour'), expected: ts('1970-01-01T01:00:00Z') },
  {
    name: 'TimeSubtract of 1 half day',
    ids: ['FN-TIME-013'],
    expr: subtract(ts(EPOCH), 1, 'half days'),
    expected: ts('1969-12-31T12:00:00Z'),
  },
  {
    name: 'TimeSubtract of 1 millisecond',
    ids: ['FN-TIME-013'],
    expr: subtract(ts(EPOCH), 1, 'milliseconds'),
    expected: ts('1969-12-31T23:59:59.999Z'),
  },
  {
    name: 'TimeSubtract of the largest integer in nanoseconds',
    ids: ['FN-TIME-013'],
    expr: subtract(ts(EPOCH), LONG_MAX, 'nanosecond'),
    expected: ts('1677-09-21T00:12:43.145224193Z'),
  },
  {
    name: 'TimeSubtract of the smallest integer in nanoseconds',
    ids: ['FN-TIME-013'],
    expr: subtract(ts(EPOCH), LONG_MIN, 'nanoseconds'),
    expected: ts('2262-04-11T23:47:16.854775808Z'),
  },

  { name: 'TimeAdd of 1 day to a date', ids: ['FN-TIME-014'], expr: add(date('2024-02-28'), 1, 'day'), expected: date('2024-02-29') },
  { name: 'TimeAdd of 2 days to a date', ids: ['FN-TIME-014'], expr: add(date('2024-02-28'), 2, 'days'), expected: date('2024-03-01') },
  { name: 'TimeAdd of -31 days to a date', ids: ['FN-TIME-014'], expr: add(date('1970-01-31'), -31, 'days'), expected: date('1969-12-31') },
  {
    name: 'TimeSubtract of 1 day from a date',
    ids: ['FN-TIME-014'],
    expr: subtract(date('2023-03-01'), 1, 'day'),
    expected: date('2023-02-28'),
  },
  {
    name: 'TimeSubtract of -366 days from a date',
    ids: ['FN-TIME-014'],
    expr: subtract(date('2024-01-01'), -366, 'days'),
    expected: date('2025-01-01'),
  },

  { name: 'TimeDiff of one day in days', ids: ['FN-TIME-017'], expr: diff(ts(EPOCH), ts('1970-01-02T00:00:00Z'), 'days'), expected: 1n },
  {
    name: 'TimeDiff of one day back in days',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-02T00:00:00Z'), ts(EPOCH), 'days'),
    expected: -1n,
  },
  {
    name: 'TimeDiff of just under a day',
    ids: ['FN-TIME-017'],
    expr: diff(ts(EPOCH), ts('1970-01-01T23:59:59.999999999Z'), 'day'),
    expected: 0n,
  },
  {
    name: 'TimeDiff across a leap day',
    ids: ['FN-TIME-017'],
    expr: diff(ts('2024-02-28T00:00:00Z'), ts('2024-03-01T00:00:00Z'), 'days'),
    expected: 2n,
  },
  { name: 'TimeDiff in half days', ids: ['FN-TIME-017'], expr: diff(ts(EPOCH), ts('1970-01-01T12:00:00Z'), 'half days'), expected: 1n },
  { name: 'TimeDiff in hours', ids: ['FN-TIME-017'], expr: diff(ts(EPOCH), ts('1970-01-01T01:59:59Z'), 'hours'), expected: 1n },
  {
    name: 'TimeDiff in hours back truncates toward zero',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T01:59:59Z'), ts(EPOCH), 'hours'),
    expected: -1n,
  },
  { name: 'TimeDiff in minutes', ids: ['FN-TIME-017'], expr: diff(ts(EPOCH), ts('1970-01-01T00:01:00Z'), 'minutes'), expected: 1n },
  {
    name: 'TimeDiff in seconds with fractions',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T00:00:00.5Z'), ts('1970-01-01T00:00:02Z'), 'seconds'),
    expected: 1n,
  },
  {
    name: 'TimeDiff in seconds back with fractions',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T00:00:02Z'), ts('1970-01-01T00:00:00.5Z'), 'seconds'),
    expected: -1n,
  },
  {
    name: 'TimeDiff in seconds from 1970 to 2038',
    ids: ['FN-TIME-017'],
    expr: diff(ts(EPOCH), ts('2038-01-19T03:14:08Z'), 'second'),
    expected: 2147483648n,
  },
  {
    name: 'TimeDiff in milliseconds',
    ids: ['FN-TIME-017'],
    expr: diff(ts(EPOCH), ts('1970-01-01T00:00:00.001Z'), 'milliseconds'),
    expected: 1n,
  },
  {
    name: 'TimeDiff in milliseconds back',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T00:00:00.001Z'), ts(EPOCH), 'millisecond'),
    expected: -1n,
  },
  {
    name: 'TimeDiff in microseconds',
    ids: ['FN-TIME-017'],
    expr: diff(ts(EPOCH), ts('1970-01-01T00:00:00.0000015Z'), 'microseconds'),
    expected: 1n,
  },
  {
    name: 'TimeDiff in microseconds back',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T00:00:00.0000015Z'), ts(EPOCH), 'microseconds'),
    expected: -1n,
  },
  {
    name: 'TimeDiff in nanoseconds',
    ids: ['FN-TIME-017'],
    expr: diff(ts('1970-01-01T00:00:00.000000001Z'), ts(EPOCH), 'nanoseconds'),
    expected: -1n,
  },
  { name: 'TimeDiff of equal times', ids: ['FN-TIME-017'], expr: diff(ts(EPOCH), ts(EPOCH), 'nanosecond'), expected: 0n },

  { name: 'TimeDiff of dates in days', ids: ['FN-TIME-018'], expr: diff(date('1970-01-01'), date('1970-01-02'), 'days'), expected: 1n },
  { name: 'TimeDiff of dates back', ids: ['FN-TIME-018'], expr: diff(date('1970-01-02'), date('1970-01-01'), 'day'), expected: -1n },
  {
    name: 'TimeDiff of dates across a leap year',
    ids: ['FN-TIME-018'],
    expr: diff(date('2024-01-01'), date('2025-01-01'), 'days'),
    expected: 366n,
  },
];

const ARITHMETIC_ERRORS: readonly ErrorCase[] = [
  {
    name: 'TimeAdd of hours to a date',
    ids: ['FN-TIME-014'],
    expr: add(date('2024-01-31'), 1, 'hour'),
    position: ['unit'],
    description: "Invalid time unit 'hour'.",
  },
  {
    name: 'TimeSubtract of half days from a date',
    ids: ['FN-TIME-014'],
    expr: subtract(date('2024-01-31'), 1, 'half day'),
    position: ['unit'],
    description: "Invalid time unit 'half day'.",
  },
  {
    name: 'TimeAdd of seconds to a date, unit as given',
    ids: ['FN-TIME-014'],
    expr: add(date('2024-01-31'), 1, ' seconds '),
    position: ['unit'],
    description: "Invalid time unit ' seconds '.",
  },

  {
    name: 'TimeAdd of the smallest integer in days',
    ids: ['FN-TIME-015'],
    expr: add(ts(EPOCH), LONG_MIN, 'day'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeAdd of 2^63/86400 days',
    ids: ['FN-TIME-015'],
    expr: add(ts(EPOCH), LONG_MAX / 86400n, 'day'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeAdd of 2^63/43200 half days',
    ids: ['FN-TIME-015'],
    expr: add(ts(EPOCH), LONG_MAX / 43200n, 'half day'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeAdd of the largest integer in seconds',
    ids: ['FN-TIME-015'],
    expr: add(ts(EPOCH), LONG_MAX, 'second'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeSubtract of the smallest integer in seconds',
    ids: ['FN-TIME-015'],
    expr: subtract(ts(EPOCH), LONG_MIN, 'second'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeSubtract of 2^63/3600 hours',
    ids: ['FN-TIME-015'],
    expr: subtract(ts(EPOCH), LONG_MAX / 3600n, 'hour'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeAdd of the largest integer in days to a date',
    ids: ['FN-TIME-015'],
    expr: add(date('1970-01-01'), LONG_MAX, 'days'),
    position: ['offset'],
    description: BOUNDS,
  },
  {
    name: 'TimeSubtract of the smallest integer in days from a date',
    ids: ['FN-TIME-015'],
    expr: subtract(date('1970-01-01'), LONG_MIN, 'day'),
    position: ['offset'],
    description: BOUNDS,
  },

  {
    name: 'TimeAdd to a string',
    ids: ['FN-TIME-016'],
    expr: add(EPOCH, 1, 'day'),
    position: ['time_add'],
    description: 'Temporal expected, String provided.',
  },
  {
    name: 'TimeAdd to an integer',
    ids: ['FN-TIME-016'],
    expr: add(0, 1, 'day'),
    position: ['time_add'],
    description: 'Temporal expected, Integer provided.',
  },
  {
    name: 'TimeSubtract from null',
    ids: ['FN-TIME-016'],
    expr: subtract(null, 1, 'day'),
    position: ['time_subtract'],
    description: 'Temporal expected, Null provided.',
  },
  {
    name: 'TimeAdd of a double offset',
    ids: ['FN-TIME-016'],
    expr: add(ts(EPOCH), 1.5, 'day'),
    position: ['offset'],
    description: 'Integer expected, Double provided.',
  },
  {
    name: 'TimeSubtract of a string offset',
    ids: ['FN-TIME-016'],
    expr: subtract(date('2024-01-31'), '1', 'day'),
    position: ['offset'],
    description: 'Integer expected, String provided.',
  },

  {
    name: 'TimeDiff of dates in hours',
    ids: ['FN-TIME-018'],
    expr: diff(date('1970-01-01'), date('1970-01-01'), 'hours'),
    position: ['unit'],
    description: "Invalid time unit 'hours'.",
  },
  {
    name: 'TimeDiff of dates in half days',
    ids: ['FN-TIME-018'],
    expr: diff(date('1970-01-01'), date('1970-01-02'), 'half days'),
    position: ['unit'],
    description: "Invalid time unit 'half days'.",
  },
  {
    name: 'TimeDiff of dates in nanoseconds',
    ids: ['FN-TIME-018'],
    expr: diff(date('1970-01-01'), date('1970-01-02'), 'nanoseconds'),
    position: ['unit'],
    description: "Invalid time unit 'nanoseconds'.",
  },

  {
    name: 'TimeDiff of a date and a time',
    ids: ['FN-TIME-019'],
    expr: diff(date('1970-01-01'), ts(EPOCH), 'hours'),
    position: ['time_diff'],
    description: 'Incompatible time arguments.',
  },
  {
    name: 'TimeDiff of a time and a date',
    ids: ['FN-TIME-019'],
    expr: diff(ts(EPOCH), date('1970-01-01'), 'days'),
    position: ['time_diff'],
    description: 'Incompatible time arguments.',
  },
  {
    name: 'TimeDiff from a string',
    ids: ['FN-TIME-019'],
    expr: diff(EPOCH, ts(EPOCH), 'days'),
    position: ['time_diff'],
    description: 'Temporal expected, String provided.',
  },
  {
    name: 'TimeDiff to an integer',
    ids: ['FN-TIME-019'],
    expr: diff(ts(EPOCH), 0, 'days'),
    position: ['other'],
    description: 'Temporal expected, Integer provided.',
  },
];

// Every test evaluates an expression and writes nothing, so the tests run at once, in one tenant for the file.
const t = useTenant();

describe.concurrent('Building times and dates', () => {
  checkCases(() => t.server, BUILD_RESULTS, BUILD_ERRORS);
});

describe.concurrent('Time and date conversions', () => {
  checkCases(() => t.server, CONVERSION_RESULTS, CONVERSION_ERRORS);

  check(['FN-TIME-006', 'FN-TIME-010'], 'ToTime of an integer and ToMillis are inverses', async () => {
    expectResult(await t.server.query({ to_millis: { to_time: -62135596800000n } }), -62135596800000n);
  });
});

describe.concurrent('Time and date fields', () => {
  checkCases(() => t.server, FIELD_RESULTS);
});

describe.concurrent('Time arithmetic', () => {
  checkCases(() => t.server, ARITHMETIC_RESULTS, ARITHMETIC_ERRORS);

  check(['FN-TIME-013', 'FN-TIME-017'], 'TimeDiff undoes TimeAdd', async () => {
    const start = ts('2021-06-15T08:30:00.25Z');
    const expr = diff(start, add(start, 1234567, 'milliseconds'), 'milliseconds');
    expectResult(await t.server.query(expr), 1234567n);
  });
});
