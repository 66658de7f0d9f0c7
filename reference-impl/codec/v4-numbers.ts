/**
 * Numbers on the v4 wire: a long is written without a fraction and a double always with one (`1` vs `1.0`), so
 * reading and writing both keep the two apart, which `JSON.parse` and `String(n)` do not.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The longs 0…999, made once: a small integer kept in a document then costs a pointer, not a 24-byte BigInt of its
 * own (BigInts are immutable and compared by value, so sharing one is never seen).
 */
const SMALL_LONGS: readonly bigint[] = Array.from({ length: 1000 }, (_, i) => BigInt(i));

// Implements: PROTO-VALUE-011
/** A JSON number's text (see `NumberReader`) → a long (bigint) or a double, as the service reads it. */
export function wireNumber(token: string, integer: boolean): bigint | number {
  if (!integer) return Number(token);
  // Up to three characters and no sign: 0…999 (JSON has no leading zeros).
  if (token.length <= 3 && token.charCodeAt(0) !== 0x2d /* - */) return SMALL_LONGS[Number(token)]!;
  const n = BigInt(token);
  // Integers beyond 64 bits cannot be longs; the service reads them as decimals.
  return n < INT64_MIN || n > INT64_MAX ? Number(token) : n;
}

/** A double as the service writes one: always with a fraction or exponent, so it is never read back as a long. */
export function renderDecimal(n: number): string {
  // Implements: FN-MATH-022
  if (!Number.isFinite(n)) return JSON.stringify(String(n));
  // String(-0) is "0"; the service (Java Double.toString) keeps the sign of a negative zero.
  const text = Object.is(n, -0) ? '-0' : String(n);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}
