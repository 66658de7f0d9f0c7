// JSON as the wire has it: integers and decimals stay distinct. Integers parse to bigint, decimals to number;
// on the way out a bigint is an integer and `decimal('1.0')` keeps its decimal point.
import { isInteger, LosslessNumber, parse, stringify } from 'lossless-json';

export function parseWireJson(text: string): unknown {
  if (text.length <= LONG_STRING_CHARS) return parseLossless(text);
  const longStrings: string[] = [];
  const skeleton = withoutLongStrings(text, longStrings);
  return longStrings.length === 0 ? parseLossless(text) : restoreLongStrings(parseLossless(skeleton), longStrings);
}

function parseLossless(text: string): unknown {
  return parse(text, null, (digits) => (isInteger(digits) ? BigInt(digits) : Number.parseFloat(digits)));
}

/**
 * String literals longer than this are decoded by JSON.parse: lossless-json reads a string character by character
 * (~110 ms per MB), and the suite reads documents of megabytes. Strings hold no numbers, so nothing is lost.
 */
const LONG_STRING_CHARS = 4096;

/** The string that stands for the n-th long string: a NUL, then a random tag, so no string a server sends is one. */
const MARKER = `\u0000long-string-${Math.random().toString(36).slice(2)}-`;
/** MARKER as JSON text. */
const PLACEHOLDER = JSON.stringify(MARKER).slice(1, -1);

/** `text` with each long string literal replaced by a placeholder literal; the literals go to `longStrings`. */
function withoutLongStrings(text: string, longStrings: string[]): string {
  let skeleton = '';
  let copied = 0;
  for (let start = text.indexOf('"'); start !== -1; ) {
    let end = start + 1;
    for (;;) {
      end = text.indexOf('"', end);
      // An unterminated string: left for lossless-json to report.
      if (end === -1) return text;
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
      end++;
    }
    if (end - start > LONG_STRING_CHARS) {
      skeleton += `${text.slice(copied, start)}"${PLACEHOLDER}${longStrings.length}"`;
      longStrings.push(text.slice(start, end + 1));
      copied = end + 1;
    }
    start = text.indexOf('"', end + 1);
  }
  return skeleton + text.slice(copied);
}

function restoreLongStrings(value: unknown, longStrings: readonly string[]): unknown {
  const restore = (s: string): string => (s.startsWith(MARKER) ? (JSON.parse(longStrings[Number(s.slice(MARKER.length))]!) as string) : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return restore(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // Defined, not assigned: a `__proto__` key stays a field, as lossless-json made it.
      for (const [key, field] of Object.entries(v))
        Object.defineProperty(out, restore(key), { value: walk(field), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return v;
  };
  return walk(value);
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
