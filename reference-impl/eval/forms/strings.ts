/**
 * String functions (Concat, Casefold, StartsWith, EndsWith, ContainsStr, FindStr, Length, LowerCase, UpperCase,
 * TitleCase, Trim, LTrim, RTrim, Repeat, Space, ReplaceStr, SubString) and conversions (ToString, ToNumber, ToDouble,
 * ToInteger) of FQL v4 as the real service evaluates them (profile `v4-functions`, DEC-065;
 * spec/requirements/functions-strings.md). Lengths and offsets count code points; Java's and ICU's text rules apply
 * (eval/java-text.ts).
 */
import { formatIsoDate, formatIsoTime } from '../../codec/iso-time.js';
import { QueryError, errors, type Position } from '../../errors/query-error.js';
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
import { argumentTypeName } from './numbers.js';

/** Repeat and Space repeat at most this many times, as the real service. */
const MAX_REPETITIONS = 1024n;
const DEFAULT_REPETITIONS = 2n;

/**
 * The longest string (UTF-16 units) a string function builds; a longer result is refused (DEC-065, this family's
 * decisions): nested Repeat or a Concat of one variable many times would otherwise grow without bound.
 */
export const MAX_RESULT_LENGTH = 8 * 1024 * 1024;

function wrongType(expected: string, value: Value, position: Position): QueryError {
  return errors.invalidArgument(`${expected} expected, ${argumentTypeName(value)} provided.`, position);
}

function asString(value: Value, position: Position): string {
  if (typeof value !== 'string') throw wrongType('String', value, position);
  return value;
}

function asInteger(value: Value, position: Position): bigint {
  if (typeof value !== 'bigint') throw wrongType('Integer', value, position);
  return value;
}

function invalidCast(value: Value, type: string, position: Position): QueryError {
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

const casefold: FormDefinition = {
  required: ['casefold'],
  optional: ['normalizer'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['casefold', 'normalizer']);
    const terms = elementsOf(values.get('casefold')!, args.position('casefold')).map((e) => {
      if (!isScalar(e.value)) throw wrongType('Scalar', e.value, e.position);
      return e.value;
    });
    let normalize = nfkcCaseFold;
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
    const normalized = terms.map((term) => (typeof term === 'string' ? normalize(term) : term));
    return normalized.length === 1 ? normalized[0]! : normalized;
  },
};

const findstr: FormDefinition = {
  required: ['findstr', 'find'],
  optional: ['start'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['findstr', 'find', 'start']);
    const value = asString(values.get('findstr')!, args.position('findstr'));
    const find = asString(values.get('find')!, args.position('find'));
    const start = values.has('start') ? asInteger(values.get('start')!, args.position('start')) : undefined;
    // The start counts code points, but is only honoured below the UTF-16 length; any other start searches from 0.
    const offset = start !== undefined && start > 0n && start < BigInt(value.length) ? offsetOfCodePoint(value, Number(start)) : 0;
    const index = value.indexOf(find, offset);
    return BigInt(index > 0 ? codePointCount(value, index) : index);
  },
};

const repeat: FormDefinition = {
  required: ['repeat'],
  optional: ['number'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['repeat', 'number']);
    const value = asString(values.get('repeat')!, args.position('repeat'));
    const number = values.has('number') ? asInteger(values.get('number')!, args.position('number')) : DEFAULT_REPETITIONS;
    const times = Number(number < MAX_REPETITIONS ? number : MAX_REPETITIONS);
    if (times <= 0) return '';
    checkResultLength(value.length * times, args.node.position);
    return value.repeat(times);
  },
};

const space: FormDefinition = {
  required: ['space'],
  async evaluate(ctx, args) {
    const count = asInteger(await args.value(ctx, 'space'), args.position('space'));
    return count > 0n ? ' '.repeat(Number(count < MAX_REPETITIONS ? count : MAX_REPETITIONS)) : '';
  },
};

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
    return replaceAll(value, find, replacement, args.node.position);
  },
};

const substring: FormDefinition = {
  required: ['substring'],
  optional: ['start', 'length'],
  async evaluate(ctx, args) {
    const values = await evaluateArguments(ctx, args, ['substring', 'start', 'length']);
    const value = asString(values.get('substring')!, args.position('substring'));
    const start = values.has('start') ? asInteger(values.get('start')!, args.position('start')) : undefined;
    const length = values.has('length') ? asInteger(values.get('length')!, args.position('length')) : undefined;
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

const toStringForm: FormDefinition = {
  required: ['to_string'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'to_string');
    if (typeof value === 'string') return value;
    if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
    if (typeof value === 'number') return javaDoubleToString(value);
    if (value === null) return 'null';
    if (value instanceof Time) return formatIsoTime(value.epochNanos);
    if (value instanceof DateValue) return formatIsoDate(value.epochDays);
    throw invalidCast(value, 'String', args.node.position);
  },
};

/** A number read from a string as the service reads it, or the invalid cast to `type` at `position`. */
function numberFromString(text: string, type: string, position: Position): bigint | number {
  const parsed = parseJavaNumber(text);
  if (parsed === undefined) throw invalidCast(text, type, position);
  return parsed;
}

const toNumber: FormDefinition = {
  required: ['to_number'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'to_number');
    if (typeof value === 'bigint' || typeof value === 'number') return value;
    if (typeof value === 'string') return numberFromString(value, 'Number', args.node.position);
    throw invalidCast(value, 'Number', args.node.position);
  },
};

const toDouble: FormDefinition = {
  required: ['to_double'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'to_double');
    const position = args.position('to_double');
    if (typeof value === 'number') return value;
    if (typeof value === 'bigint') return Number(value);
    if (typeof value === 'string') return Number(numberFromString(value, 'Double', position));
    throw invalidCast(value, 'Double', position);
  },
};

const toInteger: FormDefinition = {
  required: ['to_integer'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'to_integer');
    const position = args.position('to_integer');
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number') return doubleToLong(value);
    if (typeof value === 'string') {
      const parsed = numberFromString(value, 'Integer', position);
      return typeof parsed === 'bigint' ? parsed : doubleToLong(parsed);
    }
    throw invalidCast(value, 'Integer', position);
  },
};

export const stringForms: readonly FormDefinition[] = [
  concat,
  casefold,
  stringFunction(['startswith', 'search'], (value, search) => value.startsWith(search)),
  stringFunction(['endswith', 'search'], (value, search) => value.endsWith(search)),
  stringFunction(['containsstr', 'search'], (value, search) => value.includes(search)),
  findstr,
  stringFunction(['length'], (value) => BigInt(codePointCount(value))),
  stringFunction(['lowercase'], (value) => value.toLowerCase()),
  stringFunction(['uppercase'], (value) => value.toUpperCase()),
  stringFunction(['titlecase'], (value) => titleCase(value)),
  stringFunction(['trim'], (value) => stripTrailing(stripLeading(value))),
  stringFunction(['ltrim'], (value) => stripLeading(value)),
  stringFunction(['rtrim'], (value) => stripTrailing(value)),
  repeat,
  space,
  replacestr,
  substring,
  toStringForm,
  toNumber,
  toDouble,
  toInteger,
];
