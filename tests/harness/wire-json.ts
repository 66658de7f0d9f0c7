// JSON as the wire has it: integers and decimals stay distinct. Integers parse to bigint, decimals to number;
// on the way out a bigint is an integer and `decimal('1.0')` keeps its decimal point.
import { isInteger, LosslessNumber, parse, stringify } from 'lossless-json';

export function parseWireJson(text: string): unknown {
  return parse(text, null, (digits) => (isInteger(digits) ? BigInt(digits) : Number.parseFloat(digits)));
}

export function stringifyWireJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be encoded as JSON');
  return text;
}

/** A decimal literal sent exactly as written, e.g. `decimal('1.0')` goes out as `1.0`, not `1`. */
export function decimal(literal: string | number): LosslessNumber {
  const text = String(literal);
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) throw new TypeError(`not a decimal literal: ${text}`);
  return new LosslessNumber(/[.eE]/.test(text) ? text : `${text}.0`);
}
