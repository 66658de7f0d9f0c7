/**
 * The time and date functions of FQL v4 — Epoch, Date, ToTime, ToDate, ToMicros, ToMillis, ToSeconds, TimeAdd,
 * TimeSubtract, TimeDiff and the field functions Second … Year — as the real service evaluates them (profile
 * `v4-functions`, DEC-065; spec/requirements/functions-time.md). Times keep nanoseconds; an integer given where a
 * time is expected counts microseconds (ToTime's counts milliseconds). `Time` and `Now` are core forms.
 */
import { type QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint, failpointWhere } from '../../failpoints.js';
import { DateValue, Time, type Value } from '../../values/value.js';
import type { Transaction } from '../../txn/transaction.js';
import type { EvalContext } from '../context.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import {
  INSTANT_MAX_NANOS,
  INSTANT_MAX_TEXT,
  INSTANT_MIN_NANOS,
  INSTANT_MIN_TEXT,
  LOCAL_DATE_MAX_DAY,
  LOCAL_DATE_MIN_DAY,
  NANOS_PER_DAY,
  NANOS_PER_SECOND,
  epochDayOf,
  floorDiv,
  javaTrim,
  parseLocalDate,
  parseTimestamp,
  timeFieldsOf,
  timeUnitNamed,
  type TimeFields,
  type TimeUnit,
} from '../java-time.js';
import { asInteger, asString, conversionForm, invalidCast, wrongType } from './strings.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The instants the reference server keeps: years 0000 to 9999, the ones its codec writes (and reads) as the real
 * service does. The real service goes on to `Instant.MIN`/`MAX`; see the file's Decisions.
 */
const KEPT_MIN_NANOS = epochDayOf(0n, 1, 1) * NANOS_PER_DAY;
const KEPT_MAX_NANOS = epochDayOf(10_000n, 1, 1) * NANOS_PER_DAY - 1n;
const KEPT_MIN_DAY = epochDayOf(0n, 1, 1);
const KEPT_MAX_DAY = epochDayOf(10_000n, 1, 1) - 1n;

function outOfBounds(position: Position): QueryError {
  return errors.invalidArgument(`dates and times must be between ${INSTANT_MIN_TEXT} and ${INSTANT_MAX_TEXT}`, position);
}

function beyondKeptYears(position: Position): QueryError {
  return errors.invalidArgument('dates and times must be between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z', position);
}

// Implements: FN-TIME-003, FN-TIME-015
/** A Time of `nanos`, or the service's bounds error (beyond `Instant`) or the reference server's (beyond year 9999). */
function timeWithin(nanos: bigint, position: Position): Time {
  if (nanos < INSTANT_MIN_NANOS || nanos > INSTANT_MAX_NANOS) throw outOfBounds(position);
  if (nanos < KEPT_MIN_NANOS || nanos > KEPT_MAX_NANOS) throw beyondKeptYears(position);
  return new Time(failpoint('TIME-MICROSECOND-PRECISION') ? floorDiv(nanos, 1000n) * 1000n : nanos);
}

// Implements: FN-TIME-003, FN-TIME-015
function dateWithin(epochDay: bigint, position: Position): DateValue {
  if (epochDay < LOCAL_DATE_MIN_DAY || epochDay > LOCAL_DATE_MAX_DAY) throw outOfBounds(position);
  if (epochDay < KEPT_MIN_DAY || epochDay > KEPT_MAX_DAY) throw beyondKeptYears(position);
  return new DateValue(Number(epochDay));
}

// Implements: FN-TIME-010, FN-TIME-012
/** A timestamp argument in nanoseconds: a Time, or an integer counting microseconds. */
function timestampArgument(value: Value, position: Position): bigint {
  if (value instanceof Time) return value.epochNanos;
  if (typeof value === 'bigint' && !failpoint('TIME-TIMESTAMP-REJECTS-INTEGER')) return value * 1000n;
  if (value instanceof DateValue && failpoint('TIME-TIMESTAMP-ACCEPTS-DATE')) return BigInt(value.epochDays) * NANOS_PER_DAY;
  throw wrongType('Time', value, position);
}

// Implements: FN-TIME-016, FN-TIME-019
/** A Time or a Date. */
function temporalArgument(value: Value, position: Position): Time | DateValue {
  if (value instanceof Time || value instanceof DateValue) return value;
  throw wrongType('Temporal', value, position);
}

// Implements: FN-TIME-002
/** A unit name; an unknown name is refused like a value of the wrong type. */
function unitArgument(value: Value, position: Position): { unit: TimeUnit; name: string } {
  const unit = typeof value === 'string' ? timeUnitNamed(failpoint('TIME-UNIT-CASE-INSENSITIVE') ? value.toLowerCase() : value) : undefined;
  if (unit === undefined) throw wrongType('Time Unit', value, position);
  return { unit, name: value as string };
}

/** The argument values of a form, all evaluated before any is checked. */
async function argumentValues(ctx: EvalContext, args: FormArgs, keys: readonly string[]): Promise<Value[]> {
  const values: Value[] = [];
  for (const key of keys) values.push(await args.value(ctx, key));
  return values;
}

/** How many times each transaction read the clock, for the failpoint TXN-NOW-IS-WALL-CLOCK. */
const clockReads = new WeakMap<Transaction, bigint>();

// Implements: TXN-TIME-001
/** The request's `now`: its transaction time, but for the failpoints of servers that read another clock. */
export function nowOf(ctx: EvalContext): Time {
  if (failpoint('TXN-NOW-IS-WALL-CLOCK')) {
    const reads = (clockReads.get(ctx.txn) ?? 0n) + 1n;
    clockReads.set(ctx.txn, reads);
    return Time.fromMicros(ctx.txn.ts + reads);
  }
  const behind = failpoint('TXN-NOW-BEHIND-READ-TIME') && ctx.txn.commitRecords().length === 0;
  return Time.fromMicros(behind ? ctx.txn.ts - 1_000_000n : ctx.txn.ts);
}

// Implements: FN-TIME-006, FN-TIME-007, FN-TIME-020
/** `Time` text: "now" is the transaction's time; other text is trimmed and parsed, else `Cannot cast … to a time.`. */
/** `Time(text)` and `ToTime(text)`: `now`, or the text, trimmed, as the service's timestamp parser reads it. */
export function timeFromText(ctx: EvalContext, text: string, position: Position): Time {
  if (text === 'now') return nowOf(ctx);
  const strict = failpointWhere('TIME-TEXT-STRICT', () => text !== text.trim() || /[+-]\d{4}$/.test(text));
  const nanos = strict ? undefined : parseTimestamp(failpoint('TIME-TEXT-NOT-TRIMMED') ? text : javaTrim(text));
  if (nanos === undefined) throw errors.invalidArgument(`Cannot cast '${text}' to a time.`, position);
  return timeWithin(nanos, position);
}

/** The epoch day of a `YYYY-MM-DD` text read as JavaScript's Date.UTC reads it, a day past the month's end rolling over. */
function rolledOver(text: string): bigint | undefined {
  const [, year, month, day] = (/^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? []).map(Number);
  if (month === undefined || day === undefined || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return BigInt(Date.UTC(year!, month - 1, day) / 86_400_000);
}

// Implements: FN-TIME-004, FN-TIME-005, FN-TIME-009
function dateFromText(text: string, position: Position): DateValue {
  const trimmed = failpoint('TIME-TEXT-NOT-TRIMMED') ? text : javaTrim(text);
  const epochDay = parseLocalDate(trimmed) ?? (failpoint('TIME-DATE-ROLLS-OVER') ? rolledOver(trimmed) : undefined);
  if (epochDay === undefined) throw errors.invalidArgument(`Cannot cast '${text}' to a date.`, position);
  return dateWithin(epochDay, position);
}

// Implements: FN-TIME-001
const epoch: FormDefinition = {
  required: ['epoch', 'unit'],
  async evaluate(ctx, args) {
    const [count, unitValue] = await argumentValues(ctx, args, ['epoch', 'unit']);
    const amount = asInteger(count!, args.position('epoch'));
    const { unit } = unitArgument(unitValue!, args.position('unit'));
    return timeWithin(amount * unit.nanos, args.node.position);
  },
};

// Implements: FN-TIME-004
const date: FormDefinition = {
  required: ['date'],
  async evaluate(ctx, args) {
    return dateFromText(asString(await args.value(ctx, 'date'), args.position('date')), args.node.position);
  },
};

// Implements: FN-TIME-006, FN-TIME-007
const toTime = conversionForm('to_time', 'call', (value, position, ctx) => {
  if (value instanceof Time) return value;
  // An integer counts milliseconds here, unlike the microseconds of the timestamp functions.
  if (typeof value === 'bigint') return timeWithin(value * (failpoint('TIME-TOTIME-INTEGER-AS-MICROS') ? 1000n : 1_000_000n), position);
  if (value instanceof DateValue) return timeWithin(BigInt(value.epochDays) * NANOS_PER_DAY, position);
  if (typeof value === 'string') return timeFromText(ctx, value, position);
  throw invalidCast(value, 'Time', position);
});

// Implements: FN-TIME-008, FN-TIME-009
const toDate = conversionForm('to_date', 'call', (value, position) => {
  if (value instanceof DateValue) return value;
  if (value instanceof Time) return dateWithin(floorDiv(value.epochNanos, NANOS_PER_DAY), position);
  if (typeof value === 'string') return dateFromText(value, position);
  throw invalidCast(value, 'Date', position);
});

// Implements: FN-TIME-010
/** A function of one timestamp answering an integer. */
function timestampFunction(name: string, compute: (epochNanos: bigint) => bigint): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      return compute(timestampArgument(await args.value(ctx, name), args.position(name)));
    },
  };
}

// Implements: FN-TIME-011
function fieldFunction(name: string, field: (fields: TimeFields) => number | bigint): FormDefinition {
  return timestampFunction(name, (epochNanos) => BigInt(field(timeFieldsOf(epochNanos))));
}

/** The conversions round down; failpoint TIME-CONVERSIONS-TRUNCATE rounds toward zero. */
const roundDown = (nanos: bigint, per: bigint): bigint => (failpoint('TIME-CONVERSIONS-TRUNCATE') ? nanos / per : floorDiv(nanos, per));

const conversions: readonly FormDefinition[] = [
  timestampFunction('to_micros', (nanos) => roundDown(nanos, 1000n)),
  timestampFunction('to_millis', (nanos) => roundDown(nanos, 1_000_000n)),
  timestampFunction('to_seconds', (nanos) => roundDown(nanos, NANOS_PER_SECOND)),
];

const fields: readonly FormDefinition[] = [
  fieldFunction('second', (f) => f.second),
  fieldFunction('minute', (f) => f.minute),
  fieldFunction('hour', (f) => f.hour),
  fieldFunction('day_of_month', (f) => f.dayOfMonth),
  fieldFunction('day_of_week', (f) => (f.dayOfWeek === 7 && failpoint('TIME-DAY-OF-WEEK-SUNDAY-ZERO') ? 0 : f.dayOfWeek)),
  fieldFunction('day_of_year', (f) => f.dayOfYear),
  fieldFunction('month', (f) => f.month),
  fieldFunction('year', (f) => f.year),
];

// Implements: FN-TIME-013, FN-TIME-014, FN-TIME-015
/** TimeAdd (`sign` 1) or TimeSubtract (-1): a Time moves by any unit, a Date by days only. */
function timeMath(name: 'time_add' | 'time_subtract', sign: bigint): FormDefinition {
  return {
    required: [name, 'offset', 'unit'],
    async evaluate(ctx, args) {
      const [baseValue, offsetValue, unitValue] = await argumentValues(ctx, args, [name, 'offset', 'unit']);
      const base = temporalArgument(baseValue!, args.position(name));
      const truncated = typeof offsetValue === 'number' && Number.isFinite(offsetValue) && failpoint('TIME-OFFSET-DOUBLE-TRUNCATED');
      const offset = truncated ? BigInt(Math.trunc(offsetValue)) : asInteger(offsetValue!, args.position('offset'));
      const { unit, name: unitName } = unitArgument(unitValue!, args.position('unit'));
      if (base instanceof Time) return timeWithin(base.epochNanos + sign * offset * unit.nanos, args.position('offset'));
      if (!unit.dateBased && failpoint('TIME-DATE-TIME-UNITS-ACCEPTED')) return base;
      if (!unit.dateBased) throw errors.invalidArgument(`Invalid time unit '${unitName}'.`, args.position('unit'));
      return dateWithin(BigInt(base.epochDays) + sign * offset, args.position('offset'));
    },
  };
}

// Implements: FN-TIME-017
/** `unit`s from `start` to `end`, truncated toward zero, as `ChronoUnit.between` of two instants computes them. */
function unitsBetween(start: bigint, end: bigint, unit: TimeUnit, position: Position): bigint {
  if (failpoint('TIME-DIFF-FLOORS')) return floorDiv(end - start, unit.nanos);
  // Nanoseconds and microseconds are counted through the nanosecond difference, which must fit in 64 bits.
  if (unit.nanos < 1_000_000n) {
    const nanos = end - start;
    if (nanos < INT64_MIN || nanos > INT64_MAX)
      throw errors.invalidArgument('The difference in nanoseconds does not fit in a 64-bit integer.', position);
    return nanos / unit.nanos;
  }
  // Milliseconds: the difference of the two instants' milliseconds, each rounded down.
  if (unit.nanos === 1_000_000n) return floorDiv(end, 1_000_000n) - floorDiv(start, 1_000_000n);
  return (end - start) / unit.nanos;
}

// Implements: FN-TIME-017, FN-TIME-018, FN-TIME-019
const timeDiff: FormDefinition = {
  required: ['time_diff', 'other', 'unit'],
  async evaluate(ctx, args) {
    const [startValue, endValue, unitValue] = await argumentValues(ctx, args, ['time_diff', 'other', 'unit']);
    const start = temporalArgument(startValue!, args.position('time_diff'));
    const end = temporalArgument(endValue!, args.position('other'));
    const { unit, name: unitName } = unitArgument(unitValue!, args.position('unit'));
    if (start instanceof Time && end instanceof Time) return unitsBetween(start.epochNanos, end.epochNanos, unit, args.node.position);
    if (start instanceof DateValue && end instanceof DateValue) {
      const days = BigInt(end.epochDays - start.epochDays);
      if (!unit.dateBased && failpoint('TIME-DATE-TIME-UNITS-ACCEPTED')) return (days * NANOS_PER_DAY) / unit.nanos;
      if (!unit.dateBased) throw errors.invalidArgument(`Invalid time unit '${unitName}'.`, args.position('unit'));
      return days;
    }
    // Failpoint TIME-DIFF-MIXED-ACCEPTED takes a date for its midnight.
    const nanosOf = (t: Time | DateValue): bigint => (t instanceof Time ? t.epochNanos : BigInt(t.epochDays) * NANOS_PER_DAY);
    if (failpoint('TIME-DIFF-MIXED-ACCEPTED')) return unitsBetween(nanosOf(start), nanosOf(end), unit, args.node.position);
    throw errors.invalidArgument('Incompatible time arguments.', args.position('time_diff'));
  },
};

export const timeForms: readonly FormDefinition[] = [
  epoch,
  date,
  toTime,
  toDate,
  ...conversions,
  ...fields,
  timeMath('time_add', 1n),
  timeMath('time_subtract', -1n),
  timeDiff,
];
