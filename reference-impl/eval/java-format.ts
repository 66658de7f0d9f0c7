/**
 * The format strings of FQL v4 `Format` (DEC-065; spec/requirements/functions-format.md): the service splits the
 * string into literal text and conversions with its own pattern, then prints each conversion with
 * `java.util.Formatter` (US locale) given one argument. This module parses the string as the service does and
 * emulates the Formatter's checks and output for the conversions the service passes to it.
 */
import { failpoint } from '../failpoints.js';
import { floorDiv, floorMod, NANOS_PER_DAY, NANOS_PER_SECOND, timeFieldsOf, type TimeFields } from './java-time.js';

/** The Formatter refused a conversion (any `IllegalFormatException`). */
export class IllegalFormat extends Error {}

/** A width or precision that would build a result longer than the caller's limit. */
export class FormatTooLong extends Error {}

/** A conversion letter the service does not know; `text` is the whole matched specifier. */
export class UnknownConversion extends Error {
  constructor(readonly text: string) {
    super(`unknown conversion ${text}`);
  }
}

export type ConversionKind = 'double' | 'long' | 'string' | 'boolean' | 'debug' | 'fixed-debug' | 'date-time';

/** One conversion: what the Formatter is given (`%` and everything after the argument index) and its parts. */
export interface ConversionSpec {
  readonly kind: ConversionKind;
  /** 1-based explicit argument index, or 0 for the next argument in turn. */
  readonly index: number;
  /** The specifier without its argument index, as errors quote it. */
  readonly source: string;
  readonly flags: string;
  readonly width: string | undefined;
  readonly precision: string | undefined;
  /** `t` or `T` for date/time conversions. */
  readonly dateTime: string | undefined;
  readonly conversion: string | undefined;
}

export type FormatPiece = { readonly text: string } | { readonly spec: ConversionSpec };

// The service's specifier pattern: index, flags, width, precision, date/time prefix, conversion, all optional.
const SPECIFIER = /%(\d+\$)?(([-#+ 0,(<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%@^])?)/g;

const KIND_OF_CONVERSION: Readonly<Record<string, ConversionKind>> = {
  f: 'double',
  e: 'double',
  E: 'double',
  g: 'double',
  G: 'double',
  d: 'long',
  x: 'long',
  X: 'long',
  o: 'long',
  s: 'string',
  S: 'string',
  b: 'boolean',
  B: 'boolean',
  '@': 'debug',
  '^': 'fixed-debug',
};

// Implements: FN-FMT-009
/** Splits a format string into text and conversions; throws `UnknownConversion` for an unknown conversion. */
export function parseFormatString(format: string): FormatPiece[] {
  const pieces: FormatPiece[] = [];
  const pattern = new RegExp(SPECIFIER.source, 'g');
  let i = 0;
  while (i < format.length) {
    pattern.lastIndex = i;
    const m = pattern.exec(format);
    if (m === null) {
      pieces.push({ text: format.slice(i) });
      break;
    }
    if (m.index !== i) pieces.push({ text: format.slice(i, m.index) });
    const [whole, indexText, rest = '', flags = '', width, precision, dateTime, conversion] = m;
    if (dateTime === undefined && conversion === '%') pieces.push({ text: '%' });
    else if (dateTime === undefined && conversion === 'n') pieces.push({ text: failpoint('FMT-NEWLINE-CRLF') ? '\r\n' : '\n' });
    else {
      const kind = dateTime !== undefined ? 'date-time' : conversion === undefined ? undefined : KIND_OF_CONVERSION[conversion];
      if (kind === undefined) throw new UnknownConversion(whole);
      const index = indexText === undefined ? 0 : Number(indexText.slice(0, -1));
      pieces.push({ spec: { kind, index, source: `%${rest}`, flags, width, precision: precision?.slice(1), dateTime, conversion } });
    }
    i = m.index + whole.length;
  }
  return pieces;
}

interface Flags {
  readonly left: boolean;
  readonly alternate: boolean;
  readonly plus: boolean;
  readonly space: boolean;
  readonly zero: boolean;
  readonly group: boolean;
  readonly parentheses: boolean;
  readonly previous: boolean;
}

/** The Formatter's flags; a repeated flag is refused. */
function flagsOf(spec: ConversionSpec): Flags {
  if (new Set(spec.flags).size !== spec.flags.length) throw new IllegalFormat('duplicate flag');
  const has = (flag: string): boolean => spec.flags.includes(flag);
  return {
    left: has('-'),
    alternate: has('#'),
    plus: has('+'),
    space: has(' '),
    zero: has('0'),
    group: has(','),
    parentheses: has('('),
    previous: has('<'),
  };
}

/** A width or precision as a number; beyond `limit` the output could not be built within it. */
function sizeOf(digits: string | undefined, limit: number): number | undefined {
  if (digits === undefined) return undefined;
  const size = Number(digits);
  if (size > limit) throw new FormatTooLong('size');
  return size;
}

// Implements: FN-FMT-008
function refuseIf(condition: boolean): void {
  if (condition) throw new IllegalFormat('illegal format');
}

function isUpperCase(letter: string | undefined): boolean {
  return letter !== undefined && letter !== letter.toLowerCase();
}

// Implements: FN-FMT-007
/** Pads to the width with spaces, on the right when left-justified. */
function justify(text: string, flags: Flags, width: number | undefined): string {
  if (width === undefined || text.length >= width) return text;
  const padding = ' '.repeat(width - text.length);
  return flags.left ? text + padding : padding + text;
}

/**
 * `%s`/`%S` of a string or `%b`/`%B` of a truth value: a precision cuts the text, the upper-case conversion upper-cases
 * it. Only `-` is a valid flag (with a width); `#` needs a `Formattable`, which no FQL value is; an argument reused with
 * `<` has no previous argument, as the Formatter is given only this one.
 */
export function formatText(spec: ConversionSpec, text: string, limit: number): string {
  const flags = flagsOf(spec);
  const width = sizeOf(spec.width, limit);
  const precision = sizeOf(spec.precision, limit);
  refuseIf(flags.alternate || flags.previous);
  refuseIf(width === undefined && flags.left);
  refuseIf(flags.plus || flags.space || flags.zero || flags.group || flags.parentheses);
  let out = precision !== undefined && precision < text.length ? text.slice(0, precision) : text;
  if (isUpperCase(spec.conversion)) out = out.toUpperCase();
  return justify(out, flags, width);
}

/** The checks every numeric conversion shares. */
function checkNumeric(flags: Flags, width: number | undefined): void {
  refuseIf(width === undefined && (flags.left || flags.zero));
  refuseIf((flags.plus && flags.space) || (flags.left && flags.zero));
  refuseIf(flags.previous);
}

// Implements: FN-FMT-007
function leadingSign(negative: boolean, flags: Flags): string {
  if (negative) return flags.parentheses ? '(' : '-';
  if (flags.plus) return '+';
  return flags.space ? ' ' : '';
}

function groupThousands(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/** The digits after the sign: grouped when asked, then zero-padded so that sign and digits fill `width`. */
function magnitude(sign: string, digits: string, flags: Flags, width: number | undefined): string {
  const point = digits.indexOf('.');
  const integer = point === -1 ? digits : digits.slice(0, point);
  const body = (flags.group ? groupThousands(integer) : integer) + (point === -1 ? '' : digits.slice(point));
  const zeros = width !== undefined && flags.zero ? Math.max(0, width - sign.length - body.length) : 0;
  return sign + '0'.repeat(zeros) + body;
}

/** A negative number in parentheses takes one more character of the width. */
function adjustedWidth(width: number | undefined, flags: Flags, negative: boolean): number | undefined {
  return width !== undefined && negative && flags.parentheses ? width - 1 : width;
}

/** `%d`, `%o`, `%x`, `%X` of a long; octal and hexadecimal print the 64-bit two's complement. */
export function formatLong(spec: ConversionSpec, value: bigint, limit: number): string {
  const flags = flagsOf(spec);
  const width = sizeOf(spec.width, limit);
  checkNumeric(flags, width);
  refuseIf(spec.precision !== undefined);
  if (spec.conversion === 'd') {
    refuseIf(flags.alternate);
    const negative = value < 0n;
    const sign = leadingSign(negative, flags);
    const body = magnitude(sign, (negative ? -value : value).toString(), flags, adjustedWidth(width, flags, negative));
    return justify(body + (negative && flags.parentheses ? ')' : ''), flags, width);
  }
  refuseIf(flags.group || flags.parentheses || flags.space || flags.plus);
  const hex = spec.conversion !== 'o';
  // Failpoint FMT-HEX-SIGNED prints the signed value instead of the 64-bit two's complement.
  let digits = (failpoint('FMT-HEX-SIGNED') ? value : BigInt.asUintN(64, value)).toString(hex ? 16 : 8);
  const prefix = flags.alternate ? (hex ? '0x' : '0') : '';
  if (flags.zero && width !== undefined) digits = '0'.repeat(Math.max(0, width - prefix.length - digits.length)) + digits;
  const out = prefix + digits;
  return justify(spec.conversion === 'X' ? out.toUpperCase() : out, flags, width);
}

/** A double's shortest decimal digits (no trailing zeros) and the exponent of the first one. */
interface Decimal {
  readonly digits: string;
  readonly exponent: number;
}

function decimalOf(value: number): Decimal {
  if (value === 0) return { digits: '0', exponent: 0 };
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  return { digits: mantissa.replace('.', '').replace(/0+$/, '') || '0', exponent: Number(exponent) };
}

/**
 * Keeps `count` leading digits, rounding half up on the decimal digits (as the Formatter does on the digits of
 * `Double.toString`, not on the binary value); a count below zero leaves nothing, i.e. zero.
 */
function roundDigits(decimal: Decimal, count: number): Decimal {
  const { digits, exponent } = decimal;
  if (count >= digits.length) return decimal;
  if (count < 0) return { digits: '0', exponent };
  if (count === 0) return digits[0]! >= '5' ? { digits: '1', exponent: exponent + 1 } : { digits: '0', exponent };
  let kept = digits.slice(0, count);
  if (digits[count]! >= '5') {
    const increased = (BigInt(kept) + 1n).toString();
    if (increased.length > kept.length) return { digits: '1', exponent: exponent + 1 };
    kept = increased;
  }
  return { digits: kept.replace(/0+$/, '') || '0', exponent };
}

/** Plain notation with `decimals` fraction digits (no point when none). */
function plainDigits(value: Decimal, decimals: number): string {
  const rounded = value.digits === '0' ? value : roundDigits(value, value.exponent + 1 + decimals);
  const { digits, exponent } = rounded;
  let integer: string;
  let fraction: string;
  if (digits === '0') {
    integer = '0';
    fraction = '';
  } else if (exponent >= 0) {
    integer = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    fraction = digits.slice(exponent + 1);
  } else {
    integer = '0';
    fraction = '0'.repeat(-exponent - 1) + digits;
  }
  fraction = fraction.slice(0, decimals).padEnd(decimals, '0');
  return decimals > 0 ? `${integer}.${fraction}` : integer;
}

/** Scientific notation's mantissa with `decimals` fraction digits and its exponent text (sign, two digits or more). */
function scientificParts(value: Decimal, decimals: number): { mantissa: string; exponent: string } {
  const rounded = value.digits === '0' ? value : roundDigits(value, decimals + 1);
  const fraction = rounded.digits.slice(1).padEnd(decimals, '0');
  const mantissa = decimals > 0 ? `${rounded.digits[0]}.${fraction}` : rounded.digits[0]!;
  const exponent = value.digits === '0' ? 0 : rounded.exponent;
  return { mantissa, exponent: (exponent < 0 ? '-' : '+') + String(Math.abs(exponent)).padStart(2, '0') };
}

// Implements: FN-FMT-005
/** `%f`, `%e`, `%E`, `%g`, `%G` of a double. */
export function formatDouble(spec: ConversionSpec, value: number, limit: number): string {
  const flags = flagsOf(spec);
  const width = sizeOf(spec.width, limit);
  const precision = sizeOf(spec.precision, limit);
  checkNumeric(flags, width);
  const conversion = spec.conversion!.toLowerCase();
  refuseIf(conversion === 'e' && flags.group);
  refuseIf(conversion === 'g' && flags.alternate);
  const upper = isUpperCase(spec.conversion);
  if (Number.isNaN(value)) return justify(upper ? 'NAN' : 'NaN', flags, width);
  const negative = value < 0 || Object.is(value, -0);
  const sign = leadingSign(negative, flags);
  const closing = negative && flags.parentheses ? ')' : '';
  if (!Number.isFinite(value)) return justify(sign + (upper ? 'INFINITY' : 'Infinity') + closing, flags, width);
  const decimal = decimalOf(Math.abs(value));
  const withPoint = (digits: string, decimals: number): string => (flags.alternate && decimals === 0 ? `${digits}.` : digits);
  let body: string;
  if (conversion === 'f') {
    const decimals = precision ?? 6;
    body = magnitude(sign, withPoint(plainDigits(decimal, decimals), decimals), flags, adjustedWidth(width, flags, negative));
  } else {
    let significant = precision ?? 6;
    if (significant === 0) significant = 1;
    const rounded = roundDigits(decimal, significant);
    const plain = conversion === 'g' && (decimal.digits === '0' || (rounded.exponent >= -4 && rounded.exponent < significant));
    if (plain) {
      const decimals = significant - 1 - (decimal.digits === '0' ? 0 : rounded.exponent);
      body = magnitude(sign, plainDigits(decimal, decimals), flags, adjustedWidth(width, flags, negative));
    } else {
      const decimals = conversion === 'g' ? significant - 1 : (precision ?? 6);
      const { mantissa, exponent } = scientificParts(decimal, decimals);
      const mantissaWidth = width === undefined ? undefined : adjustedWidth(width - exponent.length - 1, flags, negative);
      body = magnitude(sign, withPoint(mantissa, decimals), flags, mantissaWidth) + (upper ? 'E' : 'e') + exponent;
    }
  }
  return justify(body + closing, flags, width);
}

// ---- Dates and times ----

/** A Date (days from the epoch) or a Time (nanoseconds from the epoch), as `%t` conversions read them. */
export type Temporal = { readonly date: number } | { readonly time: bigint };

/** Suffixes a Date answers; a Time answers these and the time-of-day ones. */
const DATE_SUFFIXES = new Set(['b', 'B', 'h', 'a', 'A', 'C', 'y', 'Y', 'd', 'e', 'm', 'j', 'D', 'F']);
const TIME_SUFFIXES = new Set(['H', 'I', 'k', 'l', 'M', 'S', 'L', 'p', 'z', 'Z', 's', 'Q', 'R', 'T', 'r', 'c']);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Whether a `%t` suffix applies to the value: false is the service's `invalid date/time suffix`. */
export function dateTimeSuffixApplies(spec: ConversionSpec, value: Temporal): boolean {
  const suffix = spec.conversion;
  if (suffix === undefined || DATE_SUFFIXES.has(suffix)) return true;
  return 'time' in value && (suffix === 'N' || TIME_SUFFIXES.has(suffix));
}

function pad(value: number | bigint, size: number): string {
  return value.toString().padStart(size, '0');
}

function fieldsOf(value: Temporal): TimeFields & { nanos: bigint; epochNanos: bigint } {
  const epochNanos = 'time' in value ? value.time : BigInt(value.date) * NANOS_PER_DAY;
  return { ...timeFieldsOf(epochNanos), nanos: floorMod(epochNanos, NANOS_PER_SECOND), epochNanos };
}

// Implements: FN-FMT-010
/** One `%t` suffix's text in the US locale, before any upper-casing. */
function dateTimeText(suffix: string, value: Temporal): string {
  const f = fieldsOf(value);
  const yearOfEra = f.year > 0n ? f.year : 1n - f.year;
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
  const part = (s: string): string => dateTimeText(s, value);
  switch (suffix) {
    case 'B':
      return MONTHS[f.month - 1]!;
    case 'b':
    case 'h':
      return MONTHS[f.month - 1]!.slice(0, 3);
    case 'A':
      return DAYS[f.dayOfWeek - 1]!;
    case 'a':
      return DAYS[f.dayOfWeek - 1]!.slice(0, 3);
    case 'C':
      return pad(yearOfEra / 100n, 2);
    case 'y':
      return pad(yearOfEra % 100n, 2);
    case 'Y':
      return pad(yearOfEra, 4);
    case 'd':
      return pad(f.dayOfMonth, 2);
    case 'e':
      return String(f.dayOfMonth);
    case 'm':
      return pad(f.month, 2);
    case 'j':
      return pad(f.dayOfYear, 3);
    case 'D':
      return `${part('m')}/${part('d')}/${part('y')}`;
    case 'F':
      return `${part('Y')}-${part('m')}-${part('d')}`;
    case 'H':
      return pad(f.hour, 2);
    case 'I':
      return pad(hour12, 2);
    case 'k':
      return String(f.hour);
    case 'l':
      return String(hour12);
    case 'M':
      return pad(f.minute, 2);
    case 'S':
      return pad(f.second, 2);
    case 'L':
      return pad(f.nanos / 1_000_000n, 3);
    case 'p':
      return f.hour < 12 ? 'am' : 'pm';
    case 'z':
      return '+0000';
    case 'Z':
      return 'Z';
    case 's':
      return floorDiv(f.epochNanos, NANOS_PER_SECOND).toString();
    case 'Q':
      return (floorDiv(f.epochNanos, NANOS_PER_SECOND) * 1000n + f.nanos / 1_000_000n).toString();
    case 'R':
      return `${part('H')}:${part('M')}`;
    case 'T':
      return `${part('H')}:${part('M')}:${part('S')}`;
    case 'r':
      return `${part('I')}:${part('M')}:${part('S')} ${part('p').toUpperCase()}`;
    default:
      return `${part('a')} ${part('b')} ${part('d')} ${part('T')} ${part('Z')} ${part('Y')}`;
  }
}

/**
 * A `%t`/`%T` conversion with a suffix that applies (see `dateTimeSuffixApplies`). `%tN` is the nanosecond of the
 * second in nine digits whatever the flags (the service prints it itself); the others take `-` with a width only.
 */
export function formatDateTime(spec: ConversionSpec, value: Temporal, limit: number): string {
  const suffix = spec.conversion!;
  if (suffix === 'N') return pad(fieldsOf(value).nanos, 9);
  const flags = flagsOf(spec);
  const width = sizeOf(spec.width, limit);
  refuseIf(spec.precision !== undefined);
  refuseIf(flags.alternate || flags.plus || flags.space || flags.zero || flags.group || flags.parentheses || flags.previous);
  refuseIf(width === undefined && flags.left);
  const text = dateTimeText(suffix, value);
  return justify(spec.dateTime === 'T' ? text.toUpperCase() : text, flags, width);
}
