/**
 * The calendar and text rules of Java's `java.time` that the real service's v4 time functions follow: the proleptic
 * Gregorian calendar in UTC, the bounds of `Instant` and `LocalDate`, the time units of `Epoch`, `TimeAdd`,
 * `TimeSubtract` and `TimeDiff`, and the parsing of `Time` and `Date` text. All arithmetic is exact (bigint), so
 * no input can lose precision or overflow on the way to a bounds check.
 */

export const NANOS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400n;
export const NANOS_PER_DAY = SECONDS_PER_DAY * NANOS_PER_SECOND;

/** Division rounding toward negative infinity, as Java's `Math.floorDiv`. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** The remainder of `floorDiv`, with the divisor's sign, as Java's `Math.floorMod`. */
export function floorMod(a: bigint, b: bigint): bigint {
  return a - floorDiv(a, b) * b;
}

export function isLeapYear(year: bigint): boolean {
  return year % 4n === 0n && (year % 100n !== 0n || year % 400n === 0n);
}

export function monthLength(year: bigint, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (year 0 is 1 BC); month 1–12, day 1–31. */
export function epochDayOf(year: bigint, month: number, day: number): bigint {
  // Counted in 400-year eras that start on March 1st, so that the leap day ends a year.
  const y = month <= 2 ? year - 1n : year;
  const era = floorDiv(y, 400n);
  const yearOfEra = y - era * 400n;
  const shiftedMonth = BigInt(month > 2 ? month - 3 : month + 9);
  const dayOfYear = (153n * shiftedMonth + 2n) / 5n + BigInt(day) - 1n;
  const dayOfEra = yearOfEra * 365n + yearOfEra / 4n - yearOfEra / 100n + dayOfYear;
  return era * 146_097n + dayOfEra - 719_468n;
}

export interface CivilDate {
  readonly year: bigint;
  readonly month: number;
  readonly day: number;
}

/** The date `epochDay` days after 1970-01-01 (the inverse of `epochDayOf`). */
export function civilDateOf(epochDay: bigint): CivilDate {
  const shifted = epochDay + 719_468n;
  const era = floorDiv(shifted, 146_097n);
  const dayOfEra = shifted - era * 146_097n;
  const yearOfEra = (dayOfEra - dayOfEra / 1460n + dayOfEra / 36_524n - dayOfEra / 146_096n) / 365n;
  const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);
  const shiftedMonth = (5n * dayOfYear + 2n) / 153n;
  const day = Number(dayOfYear - (153n * shiftedMonth + 2n) / 5n + 1n);
  const month = Number(shiftedMonth < 10n ? shiftedMonth + 3n : shiftedMonth - 9n);
  return { year: yearOfEra + era * 400n + (month <= 2 ? 1n : 0n), month, day };
}

/** The fields of an instant in UTC, as `OffsetDateTime` at offset zero reports them. */
export interface TimeFields {
  readonly year: bigint;
  readonly month: number;
  readonly dayOfMonth: number;
  /** ISO: Monday is 1, Sunday 7. */
  readonly dayOfWeek: number;
  readonly dayOfYear: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

export function timeFieldsOf(epochNanos: bigint): TimeFields {
  const epochDay = floorDiv(epochNanos, NANOS_PER_DAY);
  const secondOfDay = Number(floorMod(epochNanos, NANOS_PER_DAY) / NANOS_PER_SECOND);
  const { year, month, day } = civilDateOf(epochDay);
  return {
    year,
    month,
    dayOfMonth: day,
    // 1970-01-01 was a Thursday (4).
    dayOfWeek: Number(floorMod(epochDay + 3n, 7n)) + 1,
    dayOfYear: Number(epochDay - epochDayOf(year, 1, 1)) + 1,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
  };
}

/** `Instant.MIN` and `Instant.MAX` in nanoseconds from the epoch, and as `Instant.toString` writes them. */
export const INSTANT_MIN_NANOS = -31_557_014_167_219_200n * NANOS_PER_SECOND;
export const INSTANT_MAX_NANOS = 31_556_889_864_403_199n * NANOS_PER_SECOND + 999_999_999n;
export const INSTANT_MIN_TEXT = '-1000000000-01-01T00:00:00Z';
export const INSTANT_MAX_TEXT = '+1000000000-12-31T23:59:59.999999999Z';

/** The years a `LocalDate` can hold. */
const MAX_LOCAL_YEAR = 999_999_999n;
export const LOCAL_DATE_MIN_DAY = epochDayOf(-MAX_LOCAL_YEAR, 1, 1);
export const LOCAL_DATE_MAX_DAY = epochDayOf(MAX_LOCAL_YEAR, 12, 31);

/** A unit of time arithmetic: its length, and whether `LocalDate` accepts it (only the day does). */
export interface TimeUnit {
  readonly nanos: bigint;
  readonly dateBased: boolean;
}

const DAY: TimeUnit = { nanos: NANOS_PER_DAY, dateBased: true };
const HALF_DAY: TimeUnit = { nanos: NANOS_PER_DAY / 2n, dateBased: false };
const HOUR: TimeUnit = { nanos: 3600n * NANOS_PER_SECOND, dateBased: false };
const MINUTE: TimeUnit = { nanos: 60n * NANOS_PER_SECOND, dateBased: false };
const SECOND: TimeUnit = { nanos: NANOS_PER_SECOND, dateBased: false };
const MILLISECOND: TimeUnit = { nanos: 1_000_000n, dateBased: false };
const MICROSECOND: TimeUnit = { nanos: 1000n, dateBased: false };
const NANOSECOND: TimeUnit = { nanos: 1n, dateBased: false };

const UNITS: ReadonlyMap<string, TimeUnit> = new Map([
  ['day', DAY],
  ['days', DAY],
  ['half day', HALF_DAY],
  ['half days', HALF_DAY],
  ['hour', HOUR],
  ['hours', HOUR],
  ['minute', MINUTE],
  ['minutes', MINUTE],
  ['second', SECOND],
  ['seconds', SECOND],
  ['millisecond', MILLISECOND],
  ['milliseconds', MILLISECOND],
  ['microsecond', MICROSECOND],
  ['microseconds', MICROSECOND],
  ['nanosecond', NANOSECOND],
  ['nanoseconds', NANOSECOND],
]);

/** The unit a name stands for: lower case, singular or plural, surrounding blanks ignored. */
export function timeUnitNamed(name: string): TimeUnit | undefined {
  return UNITS.get(javaTrim(name));
}

/** Java's `String.trim`: drops every character up to U+0020 at both ends (control characters included). */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/**
 * Year, month and day of an ISO local date at the start of `text`: a year of exactly four digits, or a sign and
 * more digits ('+' needs five or more; '-' four or more and not zero), up to ten; two-digit month and day.
 */
const DATE_PATTERN = /^([+-]?)(\d{4,10})-(\d{2})-(\d{2})/;

interface DateFields {
  readonly year: bigint;
  readonly month: number;
  readonly day: number;
  readonly length: number;
}

function dateFieldsAt(text: string): DateFields | undefined {
  const m = DATE_PATTERN.exec(text);
  if (m === null) return undefined;
  const [whole, sign, digits, month, day] = m as unknown as [string, string, string, string, string];
  if (sign === '' && digits.length !== 4) return undefined;
  if (sign === '+' && digits.length <= 4) return undefined;
  const magnitude = BigInt(digits);
  if (sign === '-' && magnitude === 0n) return undefined;
  if (magnitude > MAX_LOCAL_YEAR) return undefined;
  const fields = { year: sign === '-' ? -magnitude : magnitude, month: Number(month), day: Number(day), length: whole.length };
  if (fields.month < 1 || fields.month > 12 || fields.day < 1 || fields.day > 31) return undefined;
  return fields;
}

/** `LocalDate.parse`: epoch day of an ISO date, or undefined when the text is not one (strict: no 2023-02-29). */
export function parseLocalDate(text: string): bigint | undefined {
  const fields = dateFieldsAt(text);
  if (fields === undefined || fields.length !== text.length) return undefined;
  if (fields.day > monthLength(fields.year, fields.month)) return undefined;
  return epochDayOf(fields.year, fields.month, fields.day);
}

/** What follows the date in a timestamp: `T`, hours and minutes, optional seconds and fraction, then the offset. */
const TIME_OF_DAY_PATTERN =
  /^[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2})(?::(\d{2}))?|([+-])(\d{2})(\d{2}))?$/;

/**
 * The service's timestamp text: an ISO local date-time and an offset (`Z`, `+HH:MM`, `+HH:MM:ss` or `+HHMM`);
 * epoch nanoseconds, or undefined when the text is not one. Resolved as `java.time`'s default (smart) resolver
 * does: a day past the end of its month is the month's last day, and `24:00` is the next day's midnight.
 */
export function parseTimestamp(text: string): bigint | undefined {
  const date = dateFieldsAt(text);
  if (date === undefined) return undefined;
  const m = TIME_OF_DAY_PATTERN.exec(text.slice(date.length));
  if (m === null) return undefined;
  const [
    ,
    hh,
    mm,
    ss = '0',
    fraction = '',
    zulu,
    colonSign,
    colonHours,
    colonMinutes,
    colonSeconds = '0',
    plainSign,
    plainHours,
    plainMinutes,
  ] = m;
  const offset =
    zulu !== undefined
      ? 0
      : colonSign !== undefined
        ? offsetSeconds(colonSign, colonHours!, colonMinutes!, colonSeconds)
        : plainSign !== undefined
          ? offsetSeconds(plainSign, plainHours!, plainMinutes!, '0')
          : undefined;
  // Without an offset the text names no instant.
  if (offset === undefined || Number.isNaN(offset)) return undefined;
  let hour = Number(hh);
  const minute = Number(mm);
  const second = Number(ss);
  const nanos = BigInt(fraction.padEnd(9, '0'));
  let extraDays = 0n;
  if (hour === 24 && minute === 0 && second === 0 && nanos === 0n) {
    hour = 0;
    extraDays = 1n;
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const day = Math.min(date.day, monthLength(date.year, date.month));
  const epochDay = epochDayOf(date.year, date.month, day) + extraDays;
  const seconds = epochDay * SECONDS_PER_DAY + BigInt(hour * 3600 + minute * 60 + second) - BigInt(offset);
  return seconds * NANOS_PER_SECOND + nanos;
}

/** Seconds of a zone offset; NaN beyond ±18:00 or with minutes or seconds past 59. */
function offsetSeconds(sign: string, hours: string, minutes: string, seconds: string): number {
  const h = Number(hours);
  const m = Number(minutes);
  const s = Number(seconds);
  const total = h * 3600 + m * 60 + s;
  if (h > 18 || m > 59 || s > 59 || total > 18 * 3600) return Number.NaN;
  return sign === '-' ? -total : total;
}
