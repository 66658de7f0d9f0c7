/**
 * Text operations as the real service's JVM and ICU libraries perform them, for the string and conversion functions
 * (spec/requirements/functions-strings.md). JavaScript's own operations differ in small ways that a client can see:
 * which characters are white space, how a double is written, how much of "12abc" is a number, how case is folded.
 */

// Implements: FN-STR-012
/** Code points Java's `Character.isWhitespace` accepts: space separators except the no-break ones, and controls 9–13, 28–31. */
function isJavaWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x1680) return false;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a && code !== 0x2007) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** `String.stripLeading`: without leading Java white space. */
export function stripLeading(text: string): string {
  let start = 0;
  while (start < text.length && isJavaWhitespace(text.charCodeAt(start))) start++;
  return text.slice(start);
}

/** `String.stripTrailing`: without trailing Java white space. */
export function stripTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && isJavaWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** `String.trim`: without leading and trailing characters at or below U+0020 (not the same set as `strip`). */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** The number of code points; a lone surrogate counts as one, as in Java. */
export function codePointCount(text: string, end = text.length): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    count++;
    if (isPairAt(text, i) && i + 1 < end) i++;
  }
  return count;
}

/** The UTF-16 offset `codePoints` code points into `text` (at most its length). */
export function offsetOfCodePoint(text: string, codePoints: number): number {
  let offset = 0;
  for (let n = 0; n < codePoints && offset < text.length; n++) offset += isPairAt(text, offset) ? 2 : 1;
  return offset;
}

function isPairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

// ---- Case folding and titlecasing (ICU) ----

const DOTLESS_I = 0x131;

function isCherokee(code: number): boolean {
  return (code >= 0x13a0 && code <= 0x13fd) || (code >= 0xab70 && code <= 0xabbf);
}

/**
 * Full Unicode case folding of one code point. Lowercasing the uppercase of the lowercase gives it for every code
 * point but two groups: dotless i folds to itself, and Cherokee folds to its capital letters.
 */
function foldCodePoint(char: string): string {
  const code = char.codePointAt(0)!;
  if (code === DOTLESS_I) return char;
  if (isCherokee(code)) return char.toUpperCase();
  return char.toLowerCase().toUpperCase().toLowerCase();
}

function caseFold(text: string): string {
  let out = '';
  for (const char of text) out += foldCodePoint(char);
  return out;
}

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

// Implements: FN-STR-003
/** ICU's NFKC_Casefold normalizer: default-ignorable code points removed, case folded, compatibility composed. */
export function nfkcCaseFold(text: string): string {
  const folded = caseFold(caseFold(text.replace(DEFAULT_IGNORABLE, '').normalize('NFD')).normalize('NFKC'));
  return folded.normalize('NFKC');
}

/** Letters (modifier letters only when cased), numbers, symbols and private use: where ICU starts titlecasing a word. */
const TITLE_START = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{N}\p{S}\p{Co}]|(?=\p{Lm})\p{Cased}/u;
const WORDS = new Intl.Segmenter('en', { granularity: 'word' });

/** Titlecase mappings that differ from the first code point of the uppercase followed by the lowercase of the rest. */
const TITLECASE_SPECIAL: ReadonlyMap<number, string> = new Map([
  [0x1c4, '\u01c5'],
  [0x1c5, '\u01c5'],
  [0x1c6, '\u01c5'],
  [0x1c7, '\u01c8'],
  [0x1c8, '\u01c8'],
  [0x1c9, '\u01c8'],
  [0x1ca, '\u01cb'],
  [0x1cb, '\u01cb'],
  [0x1cc, '\u01cb'],
  [0x1f1, '\u01f2'],
  [0x1f2, '\u01f2'],
  [0x1f3, '\u01f2'],
  [0x149, '\u02bcN'],
]);

const GREEK_CAPITAL_IOTA = '\u0399';
const YPOGEGRAMMENI = '\u0345';

function titlecaseOf(char: string): string {
  const special = TITLECASE_SPECIAL.get(char.codePointAt(0)!);
  if (special !== undefined) return special;
  const upper = char.toUpperCase();
  // Greek letters with a iota subscript keep it as a subscript in titlecase (their uppercase spells it as capital iota).
  if (upper.length > 1 && upper.endsWith(GREEK_CAPITAL_IOTA) && char.normalize('NFD').includes(YPOGEGRAMMENI)) {
    return (upper.slice(0, -1) + YPOGEGRAMMENI).normalize('NFC');
  }
  const [first = '', ...rest] = upper;
  return first + rest.join('').toLowerCase();
}

// Implements: FN-STR-011
/**
 * ICU's `toTitleCase` with a word break iterator: in each word, the characters before the first letter, number or
 * symbol stay as they are, that character is titlecased and the rest of the word lowercased.
 */
export function titleCase(text: string): string {
  let out = '';
  for (const { segment } of WORDS.segment(text)) {
    const match = TITLE_START.exec(segment);
    if (match === null) {
      out += segment;
      continue;
    }
    const start = match.index;
    const first = String.fromCodePoint(segment.codePointAt(start)!);
    out += segment.slice(0, start) + titlecaseOf(first) + segment.slice(start + first.length).toLowerCase();
  }
  return out;
}

// ---- Numbers ----

// Implements: FN-CONV-002
/**
 * Java's `Double.toString`: plain notation for magnitudes in [10^-3, 10^7), else `d.dddE±n`; always a fractional
 * digit; the shortest digits that read back as the same double, two of them when one would be farther from it.
 */
export function javaDoubleToString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const magnitude = Math.abs(value);
  let [mantissa = '', exponentText = '0'] = magnitude.toExponential().split('e');
  if (!mantissa.includes('.')) [mantissa = '', exponentText = '0'] = magnitude.toExponential(1).split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  const exponent = Number(exponentText);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const integer = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    return `${sign}${integer}.${digits.slice(exponent + 1) || '0'}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent}`;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const LONG_MAX_DIGITS = 19;
const ZERO_CHAR = 0x30;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/** The value of a decimal digit (any script's, as `Character.digit`), or -1. */
function digitValue(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= ZERO_CHAR && code <= ZERO_CHAR + 9) return code - ZERO_CHAR;
  if (code < 0x80 || !DECIMAL_DIGIT.test(text[i]!)) return -1;
  // Decimal digits come in runs of whole 0–9 blocks; the digit is the offset into its block.
  let runStart = code;
  while (DECIMAL_DIGIT.test(String.fromCharCode(runStart - 1))) runStart--;
  return (code - runStart) % 10;
}

interface ParsedDigits {
  /** Significant digits, without leading zeros. */
  digits: string;
  /** Where the decimal point sits relative to the start of `digits`. */
  decimalAt: number;
  /** Index after the last character taken. */
  end: number;
}

/** One run of digits as `DecimalFormat` reads it from `start`, grouping commas and a point allowed unless `exponentPart`. */
function parseDigits(text: string, start: number, exponentPart: boolean): ParsedDigits | undefined {
  let digits = '';
  let decimalAt = 0;
  let digitCount = 0;
  let sawDigit = false;
  let sawDecimal = false;
  let backup = -1;
  let exponent: number | undefined;
  let i = start;
  for (; i < text.length; i++) {
    const ch = text[i];
    const digit = digitValue(text, i);
    if (digit === 0) {
      backup = -1;
      sawDigit = true;
      if (digits.length === 0) {
        if (sawDecimal) decimalAt--;
        continue;
      }
      digitCount++;
      digits += '0';
    } else if (digit > 0) {
      backup = -1;
      sawDigit = true;
      digitCount++;
      digits += String(digit);
    } else if (!exponentPart && ch === '.') {
      if (sawDecimal) break;
      decimalAt = digitCount;
      sawDecimal = true;
    } else if (!exponentPart && ch === ',') {
      if (sawDecimal) break;
      // A grouping comma counts only when a digit follows it.
      backup = i;
    } else if (!exponentPart && ch === 'E') {
      const parsed = parseExponent(text, i + 1);
      if (parsed !== undefined) {
        exponent = parsed.value;
        i = parsed.end;
      }
      break;
    } else {
      break;
    }
  }
  if (backup !== -1) i = backup;
  if (!sawDecimal) decimalAt = digitCount;
  if (!sawDigit && digitCount === 0) return undefined;
  if (exponent !== undefined) decimalAt += exponent;
  return { digits, decimalAt, end: i };
}

/** The exponent after `E`: an optional minus and digits whose value fits a long (then cut to an int, as Java does). */
function parseExponent(text: string, start: number): { value: number; end: number } | undefined {
  const negative = text[start] === '-';
  const parsed = parseDigits(text, negative ? start + 1 : start, true);
  if (parsed === undefined) return undefined;
  const long = digitsToLong(parsed, !negative, true);
  if (long === undefined) return undefined;
  return { value: Number(BigInt.asIntN(32, long)), end: parsed.end };
}

/**
 * The digits as a long when `DigitList.fitsIntoLong` says they fit: integral and in range; a negative zero fits
 * only when `negativeZeroFits`.
 */
function digitsToLong({ digits, decimalAt }: ParsedDigits, positive: boolean, negativeZeroFits: boolean): bigint | undefined {
  const significant = digits.replace(/0+$/, '');
  if (significant.length === 0) return positive || negativeZeroFits ? 0n : undefined;
  if (decimalAt < significant.length || decimalAt > LONG_MAX_DIGITS) return undefined;
  const magnitude = BigInt(significant + '0'.repeat(decimalAt - significant.length));
  const value = positive ? magnitude : -magnitude;
  return value >= LONG_MIN && value <= LONG_MAX ? value : undefined;
}

// Implements: FN-CONV-004, FN-CONV-005
/**
 * A number read from text as `NumberFormat.getInstance()` (English) reads it, after `String.trim`: an optional minus,
 * digits with grouping commas, an optional point and fraction, an optional `E` exponent; what follows is ignored.
 * An integral value that fits a long is a bigint, anything else a double; undefined when no number starts the text.
 */
export function parseJavaNumber(input: string): bigint | number | undefined {
  const text = javaTrim(input);
  if (text.startsWith('NaN')) return NaN;
  const negative = text.startsWith('-');
  const start = negative ? 1 : 0;
  if (text.startsWith('\u221e', start)) return negative ? -Infinity : Infinity;
  const parsed = parseDigits(text, start, false);
  if (parsed === undefined) return undefined;
  const long = digitsToLong(parsed, !negative, false);
  if (long !== undefined) return long;
  const magnitude = parsed.digits.length === 0 ? 0 : Number(`0.${parsed.digits}e${parsed.decimalAt}`);
  return negative ? -magnitude : magnitude;
}

/** Java's `(long) d`: toward zero, NaN as 0, saturated at the ends of the long range. */
export function doubleToLong(value: number): bigint {
  if (Number.isNaN(value)) return 0n;
  if (value >= 2 ** 63) return LONG_MAX;
  if (value <= -(2 ** 63)) return LONG_MIN;
  return BigInt(Math.trunc(value));
}
