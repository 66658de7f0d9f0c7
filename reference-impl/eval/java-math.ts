/**
 * The JVM arithmetic that the real service's Round, Trunc and Pow are built from (fauna/faunadb
 * `ast/functions/NumericFunctions.scala`, `TrigFunctions.scala`), so that the reference server answers the same
 * doubles: Java's narrowing of doubles to int, its powers of ten, and the service's rounding formulas,
 * odd results included (negative numbers round toward zero, NaN rounds to 0.0).
 */
import { doubleToLong } from './java-text.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/** Every integer of at most this magnitude is exactly a double. */
const EXACT_INTEGER_LIMIT = 2n ** 53n;

/** Java's `(int) d`: toward zero, NaN to 0, saturating at the ends of the int range. */
export function doubleToInt(d: number): number {
  if (Number.isNaN(d)) return 0;
  return Math.max(INT_MIN, Math.min(INT_MAX, Math.trunc(d)));
}

/**
 * `Math.pow(10, p)` for an integer `p` as the JVM answers it: the double nearest to 10^p (0 and Infinity beyond the
 * double range). V8's `10 ** p` is one unit in the last place off for some negative `p` (`10 ** -5`).
 */
export function powerOfTen(p: bigint): number {
  return Number(`1e${p}`);
}

/**
 * `Math.pow(base, exponent)`. When both are integers and the exact power is an integer a double holds, the answer is
 * that power or 1 divided by it (correctly rounded, as the JVM's pow is there); otherwise V8's `**`, whose special
 * cases (NaN, infinities, zeros) are Java's.
 */
export function javaPow(base: number, exponent: number): number {
  if (Number.isInteger(base) && Number.isInteger(exponent) && Math.abs(base) >= 2 && Math.abs(exponent) <= 53) {
    const exact = BigInt(base) ** BigInt(Math.abs(exponent));
    if (exact <= EXACT_INTEGER_LIMIT && exact >= -EXACT_INTEGER_LIMIT) return exponent >= 0 ? Number(exact) : 1 / Number(exact);
  }
  return base ** exponent;
}

// Implements: FN-MATH-002
/** Round of an integer to `dp` decimal places: unchanged for `dp` > 0, else to a multiple of 10^-dp, computed in doubles. */
export function roundInteger(n: bigint, dp: bigint): bigint {
  if (dp > 0n) return n;
  const scale = powerOfTen(dp);
  return doubleToLong(Number(doubleToLong(Number(n) * scale + 0.5)) / scale);
}

// Implements: FN-MATH-003, FN-MATH-004, FN-MATH-023
/**
 * Round of a decimal to `dp` places. For `dp` > 0 the whole part is kept and half a unit of the last place is added
 * to the fraction, which is then cut to `dp` places (so a negative number rounds toward zero at the half); for
 * `dp` <= 0 half a unit is added to the scaled number and the result is cut toward zero.
 */
export function roundDecimal(n: number, dp: bigint): number {
  if (dp > 0n) {
    const scale = doubleToInt(powerOfTen(dp));
    const whole = doubleToLong(n);
    const fraction = doubleToLong((n - Number(whole) + 0.5 / scale) * scale);
    return Number(whole) + Number(fraction) / scale;
  }
  const scale = powerOfTen(dp);
  return Number(doubleToLong(Number(doubleToLong(n * scale + 0.5)) / scale));
}

/** Trunc of an integer to `dp` decimal places: unchanged for `dp` > 0, else cut toward zero to a multiple of 10^-dp. */
export function truncInteger(n: bigint, dp: bigint): bigint {
  if (dp > 0n) return n;
  const scale = powerOfTen(dp);
  return doubleToLong(Number(doubleToLong(Number(n) * scale)) / scale);
}

// Implements: FN-MATH-005, FN-MATH-023
/** Trunc of a decimal to `dp` places, toward zero; for `dp` <= 0 the last division is left as a double. */
export function truncDecimal(n: number, dp: bigint): number {
  if (dp > 0n) {
    const scale = doubleToInt(powerOfTen(dp));
    const whole = doubleToLong(n);
    const fraction = doubleToLong((n - Number(whole)) * scale);
    return Number(whole) + Number(fraction) / scale;
  }
  const scale = powerOfTen(dp);
  return Number(doubleToLong(n * scale)) / scale;
}
