/**
 * A strict JSON parser that hands every number to the caller as its source text, so integers and decimals
 * stay apart (`1` vs `1.0`) and long integers keep every digit — what `JSON.parse` cannot do. It accepts and
 * rejects exactly what lossless-json (used before) did, including refusing a repeated object key whose value
 * differs, but parses request bodies several times faster. Its scanner (`JsonScanner`) is shared with parsers
 * that build another tree from the same text (the v4 codec's expression parser).
 */

/** Turns a number's source text into a value; `integer` is true when it has no fraction or exponent. */
export type NumberReader = (token: string, integer: boolean) => unknown;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses `text` (one JSON value, optionally surrounded by whitespace); throws SyntaxError when it is not JSON. */
export function parseExactJson(text: string, readNumber: NumberReader): unknown {
  const parser = new ExactJsonParser(text, readNumber);
  parser.skipWhitespace();
  const value = parser.value();
  parser.skipWhitespace();
  if (parser.at < text.length) parser.fail('end of input');
  return value;
}

/**
 * What every parser of this JSON dialect shares, whatever tree it builds: whitespace, strings, numbers (handed to
 * the `NumberReader` as text), keywords and the failure they raise.
 */
export class JsonScanner {
  at = 0;

  constructor(
    protected readonly text: string,
    private readonly readNumber: NumberReader,
  ) {}

  fail(expected: string): never {
    throw new SyntaxError(`JSON: expected ${expected} at position ${this.at}`);
  }

  skipWhitespace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else break;
    }
    this.at = at;
  }

  /** A string, number, `true`, `false` or `null` at the current position. */
  protected scalar(): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) return this.string();
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number();
    if (this.text.startsWith('true', this.at)) return this.keyword(4, true);
    if (this.text.startsWith('false', this.at)) return this.keyword(5, false);
    if (this.text.startsWith('null', this.at)) return this.keyword(4, null);
    return this.fail('a value');
  }

  private keyword<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  protected string(): string {
    const text = this.text;
    let at = this.at + 1;
    let start = at;
    let out = '';
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === QUOTE) {
        this.at = at + 1;
        return out + text.slice(start, at);
      }
      if (c === BACKSLASH) {
        out += text.slice(start, at);
        const escaped = text[at + 1];
        const simple = escaped === undefined ? undefined : ESCAPES[escaped];
        if (simple !== undefined) {
          out += simple;
          at += 2;
        } else if (escaped === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(at + 2, at + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16));
          at += 6;
        } else {
          this.at = at;
          this.fail('a valid escape');
        }
        start = at;
      } else if (c < 0x20 || Number.isNaN(c)) {
        // Control characters must be escaped; NaN is the end of the text (an unterminated string).
        this.at = at;
        this.fail("'\"'");
      } else {
        at++;
      }
    }
  }

  protected number(): unknown {
    const text = this.text;
    const start = this.at;
    let at = start;
    if (text.charCodeAt(at) === MINUS) at++;
    const first = text.charCodeAt(at);
    if (first === ZERO) at++;
    else if (first > ZERO && first <= NINE) at = digitsEnd(text, at);
    else return this.failAt(at, 'a digit');
    let integer = true;
    if (text.charCodeAt(at) === DOT) {
      integer = false;
      const end = digitsEnd(text, at + 1);
      if (end === at + 1) return this.failAt(end, 'a digit');
      at = end;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45 /* e E */) {
      integer = false;
      at++;
      const sign = text.charCodeAt(at);
      if (sign === MINUS || sign === PLUS) at++;
      const end = digitsEnd(text, at);
      if (end === at) return this.failAt(end, 'a digit');
      at = end;
    }
    this.at = at;
    return this.readNumber(text.slice(start, at), integer);
  }

  protected failAt(at: number, expected: string): never {
    this.at = at;
    return this.fail(expected);
  }
}

/** Builds plain objects and arrays, as `JSON.parse` does. */
class ExactJsonParser extends JsonScanner {
  value(): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b /* { */) return this.object();
    if (c === 0x5b /* [ */) return this.array();
    return this.scalar();
  }

  private object(): Record<string, unknown> {
    const text = this.text;
    const object: Record<string, unknown> = {};
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x7d /* } */) {
      this.at++;
      return object;
    }
    for (;;) {
      if (text.charCodeAt(this.at) !== QUOTE) this.fail('a quoted object key');
      const key = this.string();
      this.skipWhitespace();
      if (text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("':'");
      this.at++;
      this.skipWhitespace();
      const value = this.value();
      // A repeat with the same value is accepted and, as in lossless-json, the later value is kept.
      if (Object.hasOwn(object, key) && !sameJson(object[key], value)) this.fail(`no repeated key '${key}'`);
      if (key === '__proto__') {
        // Assignment would call the inherited `__proto__` setter; JSON.parse defines an own property instead.
        Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        object[key] = value;
      }
      this.skipWhitespace();
      const c = text.charCodeAt(this.at++);
      if (c === 0x7d /* } */) return object;
      if (c !== 0x2c /* , */) {
        this.at--;
        this.fail("',' or '}'");
      }
      this.skipWhitespace();
    }
  }

  private array(): unknown[] {
    const text = this.text;
    const array: unknown[] = [];
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x5d /* ] */) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value());
      this.skipWhitespace();
      const c = text.charCodeAt(this.at++);
      if (c === 0x5d /* ] */) return array;
      if (c !== 0x2c /* , */) {
        this.at--;
        this.fail("',' or ']'");
      }
      this.skipWhitespace();
    }
  }
}

function digitsEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const c = text.charCodeAt(at);
    if (c >= ZERO && c <= NINE) at++;
    else return at;
  }
}

/**
 * Whether a repeated key's two values count as the same (then the repeat is accepted). This keeps
 * lossless-json's rule exactly: arrays item by item, any two objects key by key over the union of their keys.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
    return true;
  }
  return false;
}
