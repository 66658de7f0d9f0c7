/**
 * The remaining numeric functions of FQL v4 — Ceil, Floor, Round, Trunc, Sign, Sqrt, Pow, Exp, Ln, Log, Hypot, the
 * bitwise BitAnd, BitOr, BitXor and BitNot, and the trigonometric functions — as the real service evaluates them
 * (profile `v4-functions`, DEC-065; spec/requirements/functions-math.md). Integers are `bigint`, decimals `number`;
 * which of the two a function answers follows the service (Ceil of an integer is that integer, Sqrt always a
 * decimal, Sign always an integer). A number outside a function's domain is `invalid argument` at the call.
 */
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import type { Value } from '../../values/value.js';
import type { FormDefinition } from '../form-registry.js';
import { doubleToLong, javaDoubleToString } from '../java-text.js';
import { javaPow, roundDecimal, roundInteger, truncDecimal, truncInteger } from '../java-math.js';
import { whenReady } from '../when-ready.js';
import { argumentTypeName } from '../arguments.js';
import { expectNumber } from './numbers.js';

type Numeric = bigint | number;

/** Decimal places Round and Trunc keep when no precision is given (integers are left as they are). */
const DEFAULT_DECIMAL_PLACES = 2n;

/** A number as the service writes it into a message: Java's `Long.toString` or `Double.toString`. */
function numberText(n: Numeric): string {
  return typeof n === 'bigint' ? n.toString() : javaDoubleToString(n);
}

// Implements: FN-MATH-020
/** A form of one number argument, keyed by its name. */
function unaryForm(name: string, compute: (n: Numeric, call: Position) => Value): FormDefinition {
  return {
    required: [name],
    evaluate(ctx, args) {
      return whenReady(args.valueOrPending(ctx, name), (value) => compute(expectNumber(value, args.position(name)), args.node.position));
    },
  };
}

/** The numbers a function accepts, and how the service words the rule in its error. */
interface Domain {
  readonly holds: (x: number) => boolean;
  readonly rule: string;
}

const NON_NEGATIVE: Domain = { holds: (x) => x >= 0, rule: 'positive' };
const POSITIVE: Domain = { holds: (x) => x > 0, rule: 'greater than 0' };
const UNIT_INTERVAL: Domain = { holds: (x) => x >= -1 && x <= 1, rule: 'between -1 and 1 inclusive' };

/** A decimal result, or null for an infinite or NaN one under failpoint MATH-NONFINITE-AS-NULL. */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) || !failpoint('MATH-NONFINITE-AS-NULL') ? x : null);

// Implements: FN-MATH-008, FN-MATH-010, FN-MATH-018, FN-MATH-023
/** A function that answers a decimal for integers and decimals alike; NaN is outside every domain. */
function decimalForm(name: string, fn: (x: number) => number, domain?: Domain): FormDefinition {
  return unaryForm(name, (n, call) => {
    const x = Number(n);
    if (domain !== undefined && !domain.holds(x)) throw errors.invalidArgument(`${numberText(n)} must be ${domain.rule}`, call);
    return finiteOrNull(fn(x));
  });
}

/** Ceil and Floor: an integer is answered unchanged, a decimal rounded to a whole decimal. */
function wholeForm(name: string, fn: (x: number) => number): FormDefinition {
  return unaryForm(name, (n) => (typeof n === 'bigint' ? n : fn(n)));
}

// Implements: FN-MATH-021
/** Round's and Trunc's `precision`: an integer, else `invalid argument` at its position. */
function expectPrecision(value: Value, position: Position): bigint {
  if (typeof value === 'number' && failpoint('MATH-PRECISION-CUT-TO-INTEGER')) return BigInt(Math.trunc(value));
  if (typeof value !== 'bigint') throw errors.invalidArgument(`Integer expected, ${argumentTypeName(value)} provided.`, position);
  return value;
}

/** Round and Trunc: a number and an optional integer precision; without one a decimal keeps two places. */
function precisionForm(
  name: string,
  integers: (n: bigint, dp: bigint) => bigint,
  decimals: (n: number, dp: bigint) => number,
): FormDefinition {
  return {
    required: [name],
    optional: ['precision'],
    async evaluate(ctx, args) {
      const value = await args.value(ctx, name);
      const precision = await args.optional(ctx, 'precision');
      // Both arguments are evaluated before either is checked, and the number's error comes first.
      const n = expectNumber(value, args.position(name));
      const absent = precision === undefined || (precision === null && failpoint('MATH-PRECISION-CUT-TO-INTEGER'));
      const dp = absent ? undefined : expectPrecision(precision, args.position('precision'));
      if (typeof n === 'bigint') return dp === undefined ? n : integers(n, dp);
      return decimals(n, dp ?? (failpoint('MATH-ROUND-DEFAULT-WHOLE') ? 0n : DEFAULT_DECIMAL_PLACES));
    },
  };
}

/** Pow and Hypot: a number and an optional second number; the answer is a decimal. */
function binaryDecimalForm(
  name: string,
  second: string,
  fn: (a: number, b: number) => number,
  defaultSecond: (a: number) => number,
): FormDefinition {
  return {
    required: [name],
    optional: [second],
    async evaluate(ctx, args) {
      const value = await args.value(ctx, name);
      const secondValue = await args.optional(ctx, second);
      const a = Number(expectNumber(value, args.position(name)));
      const b = secondValue === undefined ? defaultSecond(a) : Number(expectNumber(secondValue, args.position(second)));
      return finiteOrNull(fn(a, b));
    },
  };
}

/** A number cut toward zero to a 64-bit integer, as Java's `(long)` cast. */
function asLong(n: Numeric): bigint {
  return typeof n === 'bigint' ? n : doubleToLong(n);
}

// Implements: FN-MATH-013, FN-MATH-014, FN-MATH-016
/**
 * BitAnd, BitOr and BitXor fold their operands (an array, or a lone number) from the left: integers while every
 * operand so far is one; from the first decimal on each step cuts both sides to longs and answers a decimal.
 */
function bitwiseForm(name: string, op: (a: bigint, b: bigint) => bigint): FormDefinition {
  return {
    required: [name],
    evaluate(ctx, args) {
      return whenReady(args.valueOrPending(ctx, name), (value) => {
        const at = args.position(name);
        const operands = (Array.isArray(value) ? value.map((item, i) => expectNumber(item, [...at, i])) : [expectNumber(value, at)]).map(
          (n) => (typeof n === 'bigint' && failpoint('MATH-BIT-INT32') ? BigInt.asIntN(32, n) : n),
        );
        if (operands.length === 0) throw errors.invalidArgument('Non-empty array expected.', at);
        let acc = operands[0]!;
        for (const operand of operands.slice(1)) {
          acc = typeof acc === 'bigint' && typeof operand === 'bigint' ? op(acc, operand) : Number(op(asLong(acc), asLong(operand)));
        }
        return acc;
      });
    },
  };
}

// Implements: FN-MATH-006, FN-MATH-023
/** Sign: an integer -1, 0 or 1 for integers; for decimals -1 below zero and 1 otherwise (0.0, -0.0 and NaN included). */
function sign(n: Numeric): bigint {
  if (typeof n === 'bigint') return n > 0n ? 1n : n < 0n ? -1n : 0n;
  return n < 0 ? -1n : 1n;
}

/** A decimal in place of the service's rounding of negative decimals while a failpoint is on (`on`): `step` rounds a scaled value. */
function negativeDecimalsBy(on: () => boolean, step: (x: number) => number, service: (n: number, dp: bigint) => number) {
  return (n: number, dp: bigint): number => (n < 0 && on() ? step(n * 10 ** Number(dp)) / 10 ** Number(dp) : service(n, dp));
}

/** Sin, Cos and Tan of an angle, which failpoint MATH-TRIG-IN-DEGREES reads in degrees. */
const trigonometric = (fn: (x: number) => number) => (x: number) => fn(failpoint('MATH-TRIG-IN-DEGREES') ? x * RADIANS_PER_DEGREE : x);

/** Degrees and Radians multiply by these; failpoint MATH-DEGREES-RADIANS-SWAPPED exchanges them. */
const conversion = (factor: number, other: number) => (x: number) => x * (failpoint('MATH-DEGREES-RADIANS-SWAPPED') ? other : factor);

/** JDK 17's `Math.toDegrees` and `Math.toRadians` multiply by these constants. */
const DEGREES_PER_RADIAN = 180 / Math.PI;
const RADIANS_PER_DEGREE = Math.PI / 180;

export const mathForms: readonly FormDefinition[] = [
  // Implements: FN-MATH-001, FN-MATH-023
  wholeForm('ceil', Math.ceil),
  wholeForm('floor', Math.floor),
  // Implements: FN-MATH-002, FN-MATH-003, FN-MATH-004
  precisionForm(
    'round',
    roundInteger,
    negativeDecimalsBy(
      () => failpoint('MATH-ROUND-HALF-AWAY-FROM-ZERO'),
      (x) => -Math.round(-x),
      roundDecimal,
    ),
  ),
  // Implements: FN-MATH-002, FN-MATH-005
  precisionForm(
    'trunc',
    truncInteger,
    negativeDecimalsBy(() => failpoint('MATH-TRUNC-FLOORS'), Math.floor, truncDecimal),
  ),
  unaryForm('sign', (n) => (typeof n === 'number' && failpoint('MATH-SIGN-AS-DECIMAL') ? Math.sign(n) : sign(n))),
  // Implements: FN-MATH-007, FN-MATH-008
  decimalForm('sqrt', Math.sqrt, NON_NEGATIVE),
  // Implements: FN-MATH-011
  binaryDecimalForm('pow', 'exp', javaPow, () => 2),
  // Implements: FN-MATH-009
  decimalForm('exp', Math.exp),
  // Implements: FN-MATH-009, FN-MATH-010
  decimalForm('ln', Math.log, POSITIVE),
  decimalForm('log', Math.log10, POSITIVE),
  // Implements: FN-MATH-012
  binaryDecimalForm('hypot', 'b', Math.hypot, (a) => a),
  bitwiseForm('bitand', (a, b) => a & b),
  bitwiseForm('bitor', (a, b) => a | b),
  bitwiseForm('bitxor', (a, b) => a ^ b),
  // Implements: FN-MATH-015
  unaryForm('bitnot', (n) => (typeof n === 'number' && failpoint('MATH-BITNOT-DECIMAL') ? Number(~asLong(n)) : ~asLong(n))),
  // Implements: FN-MATH-017, FN-MATH-018
  decimalForm('acos', Math.acos, UNIT_INTERVAL),
  decimalForm('asin', Math.asin, UNIT_INTERVAL),
  decimalForm('atan', Math.atan),
  decimalForm('cos', trigonometric(Math.cos)),
  decimalForm('cosh', Math.cosh),
  // Implements: FN-MATH-019
  decimalForm('degrees', conversion(DEGREES_PER_RADIAN, RADIANS_PER_DEGREE)),
  decimalForm('radians', conversion(RADIANS_PER_DEGREE, DEGREES_PER_RADIAN)),
  decimalForm('sin', trigonometric(Math.sin)),
  decimalForm('sinh', Math.sinh),
  decimalForm('tan', trigonometric(Math.tan)),
  decimalForm('tanh', Math.tanh),
];
