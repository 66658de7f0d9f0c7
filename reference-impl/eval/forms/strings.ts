/**
 * String functions (Concat, Casefold, StartsWith, EndsWith, ContainsStr, FindStr, Length, LowerCase, UpperCase,
 * TitleCase, Trim, LTrim, RTrim, Repeat, Space, ReplaceStr, SubString) and conversions (ToString, ToNumber, ToDouble,
 * ToInteger), the regular-expression functions (ContainsStrRegex, FindStrRegex, ReplaceStrRegex, RegexEscape) and NGram
 * of FQL v4 as the real service evaluates them (profile `v4-functions`, DEC-065;
 * spec/requirements/functions-strings.md). Lengths and offsets count code points; Java's and ICU's text rules apply
 * (eval/java-text.ts).
 */
import { formatIsoDate, formatIsoTime } from '../../codec/iso-time.js';
import { type QueryError, errors, type Position } from '../../errors/query-error.js';
import { activeFailpoints, failpoint } from '../../failpoints.js';
import { DateValue, QueryValue, Time, isObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
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
} from '../java-text.js';
import { functionTimeLimit, withinTimeLimit, type TimeLimit } from '../time-limit.js';
import { InvalidReplacement, compileJavaPattern, findMatches, quotePattern, replaceMatches, type JavaPattern } from '../java-regex.js';
import { argumentTypeName } from '../arguments.js';

/** Repeat and Space repeat at most this many times, as the real service. */
const MAX_REPETITIONS = 1024n;
const DEFAULT_REPETITIONS = 2n;

/**
 * The longest string (UTF-16 units) a string function builds; a longer result is refused (DEC-065, this family's
 * decisions): nested Repeat or a Concat of one variable many times would otherwise grow without bound.
 */
export const MAX_RESULT_LENGTH = 8 * 1024 * 1024;

/** `invalid argument` for a value of another type than the function takes, the value named as the service names it. */
export function wrongType(expected: string, value: Value, position: Position): QueryError {
  const error = failpoint('STR-WRONG-TYPE-INVALID-EXPRESSION') ? errors.invalidExpression : errors.invalidArgument;
  return error(`${expected} expected, ${argumentTypeName(value)} provided.`, position);
}

// Implements: FN-STR-018, FN-STR-029
export function asString(value: Value, position: Position): string {
  if (typeof value !== 'string') throw wrongType('String', value, position);
  return value;
}

// Implements: FN-STR-018, FN-STR-029
export function asInteger(value: Value, position: Position): bigint {
  if (typeof value !== 'bigint') throw wrongType('Integer', value, position);
  return value;
}

export function invalidCast(value: Value, type: string, position: Position): QueryError {
  return errors.invalidArgument(`Cannot cast ${argumentTypeName(value)} to ${type}.`, position);
}

function checkResultLength(length: number, position: Position): void {
  if (length > MAX_RESULT_LENGTH) throw errors.invalidArgument(`result length must be <= ${MAX_RESULT_LENGTH}`, position);
}

/** Scala's `Long.toInt`: the low 32 bits, so that huge offsets behave as on the real service. */
function toInt(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}

interface Element {
  readonly value: Value;
  readonly position: Position;
}

/** An argument taken as zero or more values: an array's elements (at their indexes), or the one value itself. */
function elementsOf(value: Value, position: Position): Element[] {
  if (!Array.isArray(value)) return [{ value, position }];
  return value.map((item, i) => ({ value: item, position: [...position, i] }));
}

/**
 * Evaluates the present arguments in the form's key order before any is checked, as the real service does (so an
 * error raised while evaluating a later argument wins over a wrong type of an earlier one).
 */
async function evaluateArguments(ctx: EvalContext, args: FormArgs, keys: readonly string[]): Promise<Map<string, Value>> {
  const values = new Map<string, Value>();
  for (const key of keys) if (args.has(key)) values.set(key, await args.value(ctx, key));
  return values;
}

/** A form whose arguments are all strings, answering `compute` of them. */
function stringFunction(keys: readonly [string, ...string[]], compute: (...strings: string[]) => Value): FormDefinition {
  return {
    required: keys,
    async evaluate(ctx, args) {
      const values = await evaluateArguments(ctx, args, keys);
      return compute(...keys.map((key) => asString(values.get(key)!, args.position(key))));
    },
  };
}

/** The function time limit (FN-STR-033), or less when the query's own deadline is nearer (LIMIT-TIME-001). */
function timeLimitOf(ctx: EvalContext): TimeLimit {
  return ctx.limits.bound(functionTimeLimit(ctx.services.functionTimeLimitMs));
}

/**
 * A case mapping or normalization of `value`: these can lengthen a string many times over (one character casefolds to
 * eighteen) and TitleCase's word segmentation slows down faster than the text grows, so they run under the function
 * time limit (FN-STR-033) and their result under the length limit (FN-STR-019).
 */
function caseMapped(ctx: EvalContext, name: string, map: (value: string) => string, value: string, position: Position): string {
  const mapped = withinTimeLimit(name, timeLimitOf(ctx), () => map(value));
  checkResultLength(mapped.length, position);
  return mapped;
}

function caseFunction(key: string, name: string, map: (value: string) => string): FormDefinition {
  return {
    required: [key],
    async evaluate(ctx, args) {
      const values = await evaluateArguments(ctx, args, [key]);
      return caseMapped(ctx, name, map, asString(values.get(key)!, args.position(key)), args.node.position);
    },
  };
}

// Implements: FN-STR-001, FN-STR-002
const concat: FormDefinition = {
  required: ['concat'],
  optional: ['separator'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['concat', 'separator']);
    const strings = elementsOf(values.get('concat')!, args.position('concat')).map((e) => asString(e.value, e.position));
    const separator = values.has('separator') ? asString(values.get('separator')!, args.position('separator')) : '';
    const length = strings.reduce((sum, s) => sum + s.length, 0) + separator.length * Math.max(strings.length - 1, 0);
    checkResultLength(length, args.node.position);
    return strings.join(separator);
  },
};

// Implements: FN-STR-004
const NORMALIZERS: ReadonlyMap<string, (text: string) => string> = new Map([
  ['NFKCCaseFold', nfkcCaseFold],
  ['NFC', (text: string) => text.normalize('NFC')],
  ['NFD', (text: string) => text.normalize('NFD')],
  ['NFKC', (text: string) => text.normalize('NFKC')],
  ['NFKD', (text: string) => text.normalize('NFKD')],
]);

function isScalar(value: Value): boolean {
  return !(Array.isArray(value) || isObjectValue(value) || value instanceof QueryValue);
}

// Implements: FN-STR-004, FN-STR-005
const casefold: FormDefinition = {
  required: ['casefold'],
  optional: ['normalizer'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['casefold', 'normalizer']);
    const terms = elementsOf(values.get('casefold')!, args.position('casefold')).map((e) => {
      if (!isScalar(e.value)) throw wrongType('Scalar', e.value, e.position);
      return e.value;
    });
    let normalize = failpoint('STR-CASEFOLD-AS-LOWERCASE') ? (text: string) => text.toLowerCase() : nfkcCaseFold;
    if (values.has('normalizer')) {
      const name = values.get('normalizer')!;
      const chosen = typeof name === 'string' ? NORMALIZERS.get(name) : undefined;
      if (chosen === undefined) {
        throw errors.invalidArgument(
          `String 'NFKCCaseFold', 'NFC', 'NFD', 'NFKC', or 'NFKD' expected, ${argumentTypeName(name)} provided.`,
          args.position('normalizer'),
        );
      }
      normalize = chosen;
    }
    // Strings are normalized, other scalars kept; one term answers itself rather than a one-element array.
    const normalized = terms.map((term) =>
      typeof term === 'string' ? caseMapped(ctx, 'Casefold', normalize, term, args.node.position) : term,
    );
    const alone = normalized.length === 1 && !(Array.isArray(values.get('casefold')) && failpoint('STR-CASEFOLD-SINGLE-ELEMENT-ARRAY'));
    return alone ? normalized[0]! : normalized;
  },
};

// Implements: FN-STR-007
const findstr: FormDefinition = {
  required: ['findstr', 'find'],
  optional: ['start'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['findstr', 'find', 'start']);
    const value = asString(values.get('findstr')!, args.position('findstr'));
    const find = asString(values.get('find')!, args.position('find'));
    const start = values.has('start') ? asInteger(values.get('start')!, args.position('start')) : undefined;
    if (failpoint('STR-FINDSTR-UTF16-OFFSETS')) return BigInt(value.indexOf(find, Number(start ?? 0n)));
    // The start counts code points, but is only honoured below the UTF-16 length; any other start searches from 0.
    const offset = start !== undefined && start > 0n && start < BigInt(value.length) ? offsetOfCodePoint(value, Number(start)) : 0;
    const index = value.indexOf(find, offset);
    return BigInt(index > 0 ? codePointCount(value, index) : index);
  },
};

// Implements: FN-STR-013
const repeat: FormDefinition = {
  required: ['repeat'],
  optional: ['number'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['repeat', 'number']);
    const value = asString(values.get('repeat')!, args.position('repeat'));
    const number = values.has('number') ? asInteger(values.get('number')!, args.position('number')) : DEFAULT_REPETITIONS;
    const times = Number(number < MAX_REPETITIONS || failpoint('STR-REPEAT-UNCAPPED') ? number : MAX_REPETITIONS);
    if (times <= 0) return '';
    checkResultLength(value.length * times, args.node.position);
    return value.repeat(times);
  },
};

// Implements: FN-STR-014
const space: FormDefinition = {
  required: ['space'],
  async evaluate(ctx, args) {
    const count = asInteger(await args.value(ctx, 'space'), args.position('space'));
    if (count <= 0n) return '';
    const times = Number(count < MAX_REPETITIONS || failpoint('STR-REPEAT-UNCAPPED') ? count : MAX_REPETITIONS);
    checkResultLength(times, args.node.position);
    return ' '.repeat(times);
  },
};

// Implements: FN-STR-015
/** Java's `String.replace`: every occurrence, left to right; an empty `find` matches before every UTF-16 unit and at the end. */
function replaceAll(value: string, find: string, replacement: string, position: Position): string {
  if (find === '') {
    checkResultLength(value.length + (value.length + 1) * replacement.length, position);
    let out = replacement;
    for (let i = 0; i < value.length; i++) out += value[i]! + replacement;
    return out;
  }
  const parts = value.split(find);
  checkResultLength(value.length + (parts.length - 1) * (replacement.length - find.length), position);
  return parts.join(replacement);
}

const replacestr: FormDefinition = {
  required: ['replacestr', 'find', 'replace'],
  async evaluate(ctx, args) {
    const keys = ['replacestr', 'find', 'replace'] as const;
    const values = await evaluateArguments(ctx, args, keys);
    const [value, find, replacement] = keys.map((key) => asString(values.get(key)!, args.position(key))) as [string, string, string];
    if (failpoint('STR-REPLACESTR-FIRST-ONLY')) return value.replace(find, () => replacement);
    return replaceAll(value, find, replacement, args.node.position);
  },
};

// Implements: FN-STR-016, FN-STR-017
const substring: FormDefinition = {
  required: ['substring'],
  optional: ['start', 'length'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['substring', 'start', 'length']);
    const value = asString(values.get('substring')!, args.position('substring'));
    const start = values.has('start') ? asInteger(values.get('start')!, args.position('start')) : undefined;
    const length = values.has('length') ? asInteger(values.get('length')!, args.position('length')) : undefined;
    if (failpoint('STR-SUBSTRING-UTF16-OFFSETS')) {
      const from = start === undefined ? 0 : start < 0n ? value.length + Number(start) : Number(start);
      return value.slice(from, length === undefined ? undefined : from + Number(length));
    }
    const total = codePointCount(value);
    // Positions in code points; a negative start counts from the end. Arithmetic as the service's (64-bit, then 32-bit).
    const from = start === undefined ? 0 : toInt(start >= 0n ? start : BigInt.asIntN(64, BigInt(total) + start));
    let to: number;
    if (length === undefined) to = total;
    else if (length === 0n) to = from;
    else if (length > 0n) {
      const end = BigInt.asIntN(64, BigInt(from) + length);
      to = toInt(end < BigInt(total) ? end : BigInt(total));
    } else to = -1;
    if (from > total || from < 0) throw errors.invalidArgument('start must be less than or equal to the string length', args.node.position);
    if (to < 0 && to < from) throw errors.invalidArgument('length must be positive', args.node.position);
    return value.slice(offsetOfCodePoint(value, from), offsetOfCodePoint(value, to));
  },
};

// Implements: FN-CONV-001, FN-CONV-003
/** ToString's text of a scalar (Format's `%s` prints the same); any other value is an invalid cast at `position`. */
export function castToString(value: Value, position: Position): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return javaDoubleToString(value);
  if (value === null) return 'null';
  if (value instanceof Time) return formatIsoTime(value.epochNanos);
  if (value instanceof DateValue) return formatIsoDate(value.epochDays);
  throw invalidCast(value, 'String', position);
}

/**
 * A conversion function (ToString, ToNumber, ToTime, …): its one argument converted by `convert`, which is told where a
 * failed cast is reported: at the call, or at the argument (the other one under failpoint CONV-CAST-ERROR-POSITIONS-SWAPPED).
 */
export function conversionForm(
  name: string,
  castAt: 'call' | 'argument',
  convert: (value: Value, position: Position, ctx: EvalContext) => Value | Promise<Value>,
): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const value = await args.value(ctx, name);
      const [at, other] = castAt === 'call' ? [args.node.position, args.position(name)] : [args.position(name), args.node.position];
      if (activeFailpoints() === undefined) return convert(value, at, ctx);
      // Asked only when the cast fails, so the fault counts as applied only where it changes an answer.
      try {
        return await convert(value, at, ctx);
      } catch (error) {
        if (failpoint('CONV-CAST-ERROR-POSITIONS-SWAPPED')) return convert(value, other, ctx);
        throw error;
      }
    },
  };
}

const PYTHON_NAMES = new Map<Value, string>([
  [true, 'True'],
  [false, 'False'],
  [null, 'None'],
]);

const toStringForm = conversionForm('to_string', 'call', (value, position) => {
  if (PYTHON_NAMES.has(value) && failpoint('CONV-TOSTRING-PYTHON-STYLE')) return PYTHON_NAMES.get(value)!;
  if (typeof value === 'number' && failpoint('CONV-TOSTRING-JAVASCRIPT-DOUBLES')) return String(value);
  return castToString(value, position);
});

/** A number read from a string as the service reads it, or the invalid cast to `type` at `position`. */
function numberFromString(text: string, type: string, position: Position): bigint | number {
  const parsed = parseJavaNumber(text);
  if (parsed === undefined) throw invalidCast(text, type, position);
  return parsed;
}

// Implements: FN-CONV-004, FN-CONV-006
const toNumber = conversionForm('to_number', 'call', (value, position) => {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (typeof value === 'string' && failpoint('CONV-TONUMBER-JAVASCRIPT-NUMBER')) {
    const [text, n] = [value.trim(), value.trim() === '' ? Number.NaN : Number(value)];
    if (Number.isNaN(n)) throw invalidCast(value, 'Number', position);
    return /[.eE]/.test(text) || !Number.isSafeInteger(n) ? n : BigInt(n);
  }
  if (typeof value === 'string') return numberFromString(value, 'Number', position);
  throw invalidCast(value, 'Number', position);
});

// Implements: FN-CONV-007
const toDouble = conversionForm('to_double', 'argument', (value, position) => {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return Number(numberFromString(value, 'Double', position));
  throw invalidCast(value, 'Double', position);
});

// Implements: FN-CONV-008
const toInteger = conversionForm('to_integer', 'argument', (value, position) => {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isFinite(value) && failpoint('CONV-TOINTEGER-ROUNDS')) return BigInt(Math.round(value));
  if (typeof value === 'number') return doubleToLong(value);
  if (typeof value === 'string') {
    const parsed = numberFromString(value, 'Integer', position);
    return typeof parsed === 'bigint' ? parsed : doubleToLong(parsed);
  }
  throw invalidCast(value, 'Integer', position);
});

// Implements: FN-STR-022
/** The pattern argument read as Java reads it (eval/java-regex.ts), or the service's invalid-pattern error. */
function asPattern(value: Value, position: Position): JavaPattern {
  const text = asString(value, position);
  const pattern = failpoint('STR-REGEX-EMBEDDED-FLAGS-IGNORED') ? text.replace(/^\(\?[ims]+\)/, '') : text;
  const compiled = compileJavaPattern(pattern);
  if (compiled === undefined) throw errors.invalidArgument(`Search pattern /${pattern}/ is not a valid regular expression.`, position);
  return compiled;
}

function asBoolean(value: Value, position: Position): boolean {
  if (typeof value !== 'boolean') throw wrongType('Boolean', value, position);
  return value;
}

// Implements: FN-STR-020
const containsstrregex: FormDefinition = {
  required: ['containsstrregex', 'pattern'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['containsstrregex', 'pattern']);
    const value = asString(values.get('containsstrregex')!, args.position('containsstrregex'));
    const given = values.get('pattern')!;
    const whole = typeof given === 'string' && failpoint('STR-CONTAINSSTRREGEX-WHOLE-STRING');
    const pattern = asPattern(whole ? `\\A(?:${given})\\z` : given, args.position('pattern'));
    return findMatches(pattern, value, 1, timeLimitOf(ctx)).length > 0;
  },
};

/** FindStrRegex answers at most this many matches, as the real service. */
const MAX_FOUND = 1024n;

// Implements: FN-STR-023, FN-STR-024, FN-STR-025
const findstrregex: FormDefinition = {
  required: ['findstrregex', 'pattern'],
  optional: ['start', 'num_results'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['findstrregex', 'pattern', 'start', 'num_results']);
    const value = asString(values.get('findstrregex')!, args.position('findstrregex'));
    const pattern = asPattern(values.get('pattern')!, args.position('pattern'));
    const start = values.has('start') ? asInteger(values.get('start')!, args.position('start')) : undefined;
    const wanted = values.has('num_results') ? asInteger(values.get('num_results')!, args.position('num_results')) : MAX_FOUND;
    const limit = toInt(wanted < MAX_FOUND ? wanted : MAX_FOUND);
    // As FindStr, the start counts code points but is only honoured below the UTF-16 length; the search runs on the
    // rest of the string, so `^` matches at the start and offsets are the start plus offsets into the rest.
    const honoured = start !== undefined && start > 0n && start < BigInt(value.length);
    const skipped = honoured ? toInt(start) : 0;
    const rest = honoured ? value.slice(offsetOfCodePoint(value, skipped)) : value;
    return findMatches(pattern, rest, limit, timeLimitOf(ctx)).map((match) => ({
      start: BigInt(skipped + codePointCount(rest, match.start)),
      // The end is the offset of the last character matched (of the match itself when it is empty).
      end: BigInt(skipped + codePointCount(rest, match.end > match.start ? lastMatched(rest, match.end) : match.end)),
      data: rest.slice(match.start, match.end),
    }));
  },
};

/**
 * The offset of the last UTF-16 unit of a non-empty match ending at `end`; failpoint STR-FINDSTRREGEX-END-EXCLUSIVE
 * answers `end` itself, STR-FINDSTRREGEX-END-AT-LAST-CODE-POINT the first unit of a last character outside the BMP.
 */
function lastMatched(text: string, end: number): number {
  if (failpoint('STR-FINDSTRREGEX-END-EXCLUSIVE')) return end;
  return (text.codePointAt(end - 2) ?? 0) > 0xffff && failpoint('STR-FINDSTRREGEX-END-AT-LAST-CODE-POINT') ? end - 2 : end - 1;
}

// Implements: FN-STR-026
const replacestrregex: FormDefinition = {
  required: ['replacestrregex', 'pattern', 'replace'],
  optional: ['first'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['replacestrregex', 'pattern', 'replace', 'first']);
    const value = asString(values.get('replacestrregex')!, args.position('replacestrregex'));
    const pattern = asPattern(values.get('pattern')!, args.position('pattern'));
    const replacement = asString(values.get('replace')!, args.position('replace'));
    const first = values.get('first');
    const truthy = first !== undefined && typeof first !== 'boolean' && failpoint('STR-REPLACESTRREGEX-TRUTHY-FIRST');
    const firstOnly = first === undefined ? false : truthy || asBoolean(first, args.position('first'));
    const tooLong = (): QueryError => errors.invalidArgument(`result length must be <= ${MAX_RESULT_LENGTH}`, args.node.position);
    try {
      return replaceMatches(pattern, value, replacement, firstOnly, MAX_RESULT_LENGTH, tooLong, timeLimitOf(ctx));
    } catch (error) {
      if (!(error instanceof InvalidReplacement)) throw error;
      throw errors.invalidArgument(`Replacement /${replacement}/ is not valid: ${error.message}.`, args.position('replace'));
    }
  },
};

/** Lucene's NGramTokenizer defaults and the widest spread between the sizes the real service allows. */
const NGRAM_DEFAULT_MIN = 1n;
const NGRAM_DEFAULT_MAX = 2n;
const NGRAM_MAX_SPREAD = 1n;

// Implements: FN-STR-031
/** The size errors of NGram in the service's order, for the sizes as given (undefined when left out). */
function ngramSizeErrors(min: bigint | undefined, max: bigint | undefined): string[] {
  const found: string[] = [];
  if (min !== undefined && max !== undefined) {
    if (min > max || min <= 0n) found.push('min ngram size must be > 0 and <= max');
    if (max <= 0n) found.push('max ngram size must be > 0');
    if (max - min > NGRAM_MAX_SPREAD) found.push(`max ngram size must be <= min + ${NGRAM_MAX_SPREAD}`);
  } else if (min !== undefined) {
    if (min > NGRAM_DEFAULT_MAX || min <= 0n) found.push('min ngram size must be > 0 and <= max');
    if (NGRAM_DEFAULT_MAX - min > NGRAM_MAX_SPREAD) found.push(`min ngram size must be >= max - ${NGRAM_MAX_SPREAD}`);
  } else if (max !== undefined) {
    if (max <= 0n || (max <= NGRAM_DEFAULT_MIN && !(max === 1n && failpoint('STR-NGRAM-ONLY-MAX-ONE-ACCEPTED'))))
      found.push('max ngram size must be > 0 and >= min');
    if (max - NGRAM_DEFAULT_MIN > NGRAM_MAX_SPREAD) found.push(`max ngram size must be <= min + ${NGRAM_MAX_SPREAD}`);
  }
  return found;
}

/** The grams of `term` in Lucene's order: by starting code point, then by size; sizes count code points. */
function ngramsOf(term: string, smallest: number, largest: number): string[] {
  if (smallest < largest && failpoint('STR-NGRAM-BY-SIZE'))
    return Array.from({ length: largest - smallest + 1 }, (_, k) => ngramsOf(term, smallest + k, smallest + k)).flat();
  const codePoints = Array.from(term);
  const grams: string[] = [];
  for (let from = 0; from < codePoints.length; from++) {
    for (let size = smallest; size <= largest && from + size <= codePoints.length; size++)
      grams.push(codePoints.slice(from, from + size).join(''));
  }
  return grams;
}

/** The total UTF-16 length of the grams of `strings`, computed without building them. */
function ngramLength(strings: readonly string[], smallest: number, largest: number): number {
  let total = 0;
  for (const term of strings) {
    const ends = [0];
    for (const char of term) ends.push(ends.at(-1)! + char.length);
    const count = ends.length - 1;
    for (let size = smallest; size <= largest && size <= count; size++) {
      for (let from = 0; from + size <= count; from++) total += ends[from + size]! - ends[from]!;
    }
  }
  return total;
}

// Implements: FN-STR-030
const ngram: FormDefinition = {
  required: ['ngram'],
  optional: ['min', 'max'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['ngram', 'min', 'max']);
    const terms = elementsOf(values.get('ngram')!, args.position('ngram')).map((e) => {
      if (!isScalar(e.value)) throw wrongType('Scalar', e.value, e.position);
      return e.value;
    });
    const min = values.has('min') ? asInteger(values.get('min')!, args.position('min')) : undefined;
    const max = values.has('max') ? asInteger(values.get('max')!, args.position('max')) : undefined;
    const [sizeError] = ngramSizeErrors(min, max);
    if (sizeError !== undefined) throw errors.invalidArgument(sizeError, args.node.position);
    // The service hands the sizes to Lucene as 32-bit ints; where that truncation makes them invalid it fails
    // internally, and this server answers the bounds error instead (DEC-065, this family's decisions).
    const smallest = toInt(min ?? NGRAM_DEFAULT_MIN);
    const largest = toInt(max ?? NGRAM_DEFAULT_MAX);
    if (smallest < 1 || largest < smallest) throw errors.invalidArgument('min ngram size must be > 0 and <= max', args.node.position);
    const strings = terms.filter((term): term is string => typeof term === 'string');
    // Each gram of size k is at most 2k UTF-16 units and a string has fewer grams of a size than units, so this bounds
    // the result before any gram is built.
    const bound = strings.reduce((sum, term) => sum + term.length * (smallest + largest) * 2 * (largest - smallest + 1), 0);
    if (bound > MAX_RESULT_LENGTH) checkResultLength(ngramLength(strings, smallest, largest), args.node.position);
    return terms.flatMap((term): Value[] => (typeof term === 'string' ? ngramsOf(term, smallest, largest) : [term]));
  },
};

/** Text as StartsWith, EndsWith and ContainsStr compare it: as given, or lower-cased under failpoint STR-SEARCH-CASE-INSENSITIVE. */
const caseOf = (text: string): string => (failpoint('STR-SEARCH-CASE-INSENSITIVE') ? text.toLowerCase() : text);

export const stringForms: readonly FormDefinition[] = [
  concat,
  casefold,
  // Implements: FN-STR-006
  stringFunction(['startswith', 'search'], (value, search) => caseOf(value).startsWith(caseOf(search))),
  stringFunction(['endswith', 'search'], (value, search) => caseOf(value).endsWith(caseOf(search))),
  stringFunction(['containsstr', 'search'], (value, search) => caseOf(value).includes(caseOf(search))),
  findstr,
  // Implements: FN-STR-009
  stringFunction(['length'], (value) => BigInt(failpoint('STR-LENGTH-UTF16') ? value.length : codePointCount(value))),
  // Implements: FN-STR-010
  caseFunction('lowercase', 'LowerCase', (value) => value.toLowerCase()),
  caseFunction('uppercase', 'UpperCase', (value) =>
    failpoint('STR-UPPERCASE-SIMPLE-MAPPING')
      ? [...value].map((c) => (c.toUpperCase().length === c.length ? c.toUpperCase() : c)).join('')
      : value.toUpperCase(),
  ),
  caseFunction('titlecase', 'TitleCase', (value) =>
    failpoint('STR-TITLECASE-FIRST-LETTER-ONLY') ? value.charAt(0).toUpperCase() + value.slice(1).toLowerCase() : titleCase(value),
  ),
  stringFunction(['trim'], (value) => (failpoint('STR-TRIM-JAVASCRIPT-WHITESPACE') ? value.trim() : stripTrailing(stripLeading(value)))),
  stringFunction(['ltrim'], (value) => (failpoint('STR-TRIM-JAVASCRIPT-WHITESPACE') ? value.trimStart() : stripLeading(value))),
  stringFunction(['rtrim'], (value) => (failpoint('STR-TRIM-JAVASCRIPT-WHITESPACE') ? value.trimEnd() : stripTrailing(value))),
  repeat,
  space,
  replacestr,
  substring,
  toStringForm,
  toNumber,
  toDouble,
  toInteger,
  containsstrregex,
  findstrregex,
  replacestrregex,
  stringFunction(['regexescape'], (value) =>
    failpoint('STR-REGEXESCAPE-BACKSLASHES') ? value.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') : quotePattern(value),
  ),
  ngram,
];
