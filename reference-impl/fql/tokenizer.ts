/**
 * Splits FQL query segments into tokens with source spans. Text segments are scanned character by character;
 * interpolated values and object/array pieces become single zero-width tokens at the point they occur.
 */
import type { Value } from '../values/value.js';
import { fqlErrorAt } from './fql-error.js';
import type { QuerySegment } from './query-input.js';
import type { SourcePosition, SourceSpan } from './source-position.js';

export const PUNCTUATORS = [
  '=>', '==', '!=', '<=', '>=', '&&', '||', '?.',
  '.', ',', '(', ')', '{', '}', '[', ']', ':', '<', '>', '!', '-',
] as const;
export type Punctuator = (typeof PUNCTUATORS)[number];

/** Operators of full FQL that this subset does not have; named in the error rather than "unexpected `+`". */
const UNSUPPORTED_OPERATORS = ['??', '+', '*', '/', '%', '=', ';', '|', '&', '^', '~', '?', '#', '@', '$', '`'];

export type Token =
  | { readonly kind: 'identifier'; readonly text: string; readonly span: SourceSpan }
  | { readonly kind: 'string'; readonly value: string; readonly span: SourceSpan }
  | { readonly kind: 'integer'; readonly value: bigint; readonly span: SourceSpan }
  | { readonly kind: 'decimal'; readonly value: number; readonly span: SourceSpan }
  | { readonly kind: 'punctuator'; readonly text: Punctuator; readonly span: SourceSpan }
  | { readonly kind: 'value'; readonly value: Value; readonly span: SourceSpan }
  | {
      readonly kind: 'piece';
      readonly segment: Extract<QuerySegment, { kind: 'object' | 'array' }>;
      readonly span: SourceSpan;
    }
  | { readonly kind: 'eof'; readonly span: SourceSpan };

/** How a token reads in an error message. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'identifier':
      return `\`${token.text}\``;
    case 'string':
      return 'a string';
    case 'integer':
    case 'decimal':
      return 'a number';
    case 'punctuator':
      return `\`${token.text}\``;
    case 'value':
    case 'piece':
      return 'an interpolated value';
    case 'eof':
      return 'the end of the query';
  }
}

class Scanner {
  private line = 1;
  private column = 1;
  private offset = 0;
  private text = '';
  private index = 0;

  constructor(start?: SourcePosition) {
    if (start) {
      this.line = start.line;
      this.column = start.column;
      this.offset = start.offset;
    }
  }

  position(): SourcePosition {
    return { line: this.line, column: this.column, offset: this.offset };
  }

  private peek(ahead = 0): string {
    return this.text[this.index + ahead] ?? '';
  }

  private advance(): string {
    const ch = this.text[this.index++] ?? '';
    this.offset++;
    if (ch === '\n') {
      this.line++;
      this.column = 1;
    } else {
      this.column++;
    }
    return ch;
  }

  private spanFrom(start: SourcePosition): SourceSpan {
    return { start, end: this.position() };
  }

  zeroWidth(): SourceSpan {
    const here = this.position();
    return { start: here, end: here };
  }

  /** Yields the tokens of one text segment, one at a time, so that the first error in reading order wins. */
  *scanText(text: string): Generator<Token> {
    this.text = text;
    this.index = 0;
    while (this.index < this.text.length) {
      const ch = this.peek();
      if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') {
        this.advance();
      } else if (ch === '/' && this.peek(1) === '/') {
        while (this.index < this.text.length && this.peek() !== '\n') this.advance();
      } else if (ch === '/' && this.peek(1) === '*') {
        this.skipBlockComment();
      } else if (isIdentifierStart(ch)) {
        yield this.scanIdentifier();
      } else if (isDigit(ch)) {
        yield this.scanNumber();
      } else if (ch === '"' || ch === "'") {
        yield this.scanString(ch);
      } else {
        yield this.scanPunctuator();
      }
    }
  }

  private skipBlockComment(): void {
    const start = this.position();
    this.advance();
    this.advance();
    while (!(this.peek() === '*' && this.peek(1) === '/')) {
      if (this.index >= this.text.length) {
        throw fqlErrorAt('invalid_query', this.spanFrom(start), 'unterminated `/*` comment');
      }
      this.advance();
    }
    this.advance();
    this.advance();
  }

  private scanIdentifier(): Token {
    const start = this.position();
    let text = '';
    while (isIdentifierPart(this.peek())) text += this.advance();
    return { kind: 'identifier', text, span: this.spanFrom(start) };
  }

  private scanNumber(): Token {
    const start = this.position();
    let digits = '';
    const readDigits = (): void => {
      while (isDigit(this.peek()) || (this.peek() === '_' && isDigit(this.peek(1)))) {
        const ch = this.advance();
        if (ch !== '_') digits += ch;
      }
    };
    readDigits();
    let decimal = false;
    if (this.peek() === '.' && isDigit(this.peek(1))) {
      decimal = true;
      digits += this.advance();
      readDigits();
    }
    if ((this.peek() === 'e' || this.peek() === 'E') &&
        (isDigit(this.peek(1)) || ((this.peek(1) === '+' || this.peek(1) === '-') && isDigit(this.peek(2))))) {
      decimal = true;
      digits += this.advance();
      if (this.peek() === '+' || this.peek() === '-') digits += this.advance();
      readDigits();
    }
    if (isIdentifierPart(this.peek())) {
      throw fqlErrorAt('invalid_query', this.spanFrom(start), `invalid number literal \`${digits}${this.peek()}\``);
    }
    const span = this.spanFrom(start);
    return decimal ? { kind: 'decimal', value: Number(digits), span } : { kind: 'integer', value: BigInt(digits), span };
  }

  private scanString(quote: string): Token {
    const start = this.position();
    this.advance();
    let value = '';
    for (;;) {
      if (this.index >= this.text.length) {
        throw fqlErrorAt('invalid_query', this.spanFrom(start), 'unterminated string literal');
      }
      const ch = this.peek();
      if (ch === quote) {
        this.advance();
        break;
      }
      if (ch === '#' && quote === '"' && this.peek(1) === '{') {
        const at = this.position();
        throw fqlErrorAt('invalid_query', { start: at, end: at },
          'string interpolation `#{…}` is not supported by this FQL subset; use `\\#` for a literal `#`');
      }
      if (ch === '\\') value += this.scanEscape();
      else value += this.advance();
    }
    return { kind: 'string', value, span: this.spanFrom(start) };
  }

  private scanEscape(): string {
    const start = this.position();
    this.advance();
    const ch = this.advance();
    const simple: Record<string, string> = {
      n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0',
      '\\': '\\', '"': '"', "'": "'", '`': '`', '#': '#', '/': '/',
    };
    const mapped = simple[ch];
    if (mapped !== undefined) return mapped;
    if (ch === 'u') {
      let hex = '';
      if (this.peek() === '{') {
        this.advance();
        while (/[0-9a-fA-F]/.test(this.peek())) hex += this.advance();
        if (this.peek() !== '}' || hex === '' || hex.length > 6) {
          throw fqlErrorAt('invalid_query', this.spanFrom(start), 'invalid `\\u{…}` escape');
        }
        this.advance();
      } else {
        for (let i = 0; i < 4 && /[0-9a-fA-F]/.test(this.peek()); i++) hex += this.advance();
        if (hex.length !== 4) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'invalid `\\uXXXX` escape');
      }
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'invalid `\\u{…}` escape');
      return String.fromCodePoint(code);
    }
    throw fqlErrorAt('invalid_query', this.spanFrom(start), `invalid escape \`\\${ch}\` in string literal`);
  }

  private scanPunctuator(): Token {
    const start = this.position();
    const two = this.peek() + this.peek(1);
    const unsupported = UNSUPPORTED_OPERATORS.find((op) => (op.length === 2 ? two === op : this.peek() === op));
    const punctuator = PUNCTUATORS.find((p) => (p.length === 2 ? two === p : this.peek() === p));
    if (punctuator !== undefined && !(unsupported !== undefined && unsupported.length > punctuator.length)) {
      for (let i = 0; i < punctuator.length; i++) this.advance();
      return { kind: 'punctuator', text: punctuator, span: this.spanFrom(start) };
    }
    if (unsupported !== undefined) {
      for (let i = 0; i < unsupported.length; i++) this.advance();
      throw fqlErrorAt('invalid_query', this.spanFrom(start),
        `\`${unsupported}\` is not supported by this FQL subset`);
    }
    const ch = this.advance();
    throw fqlErrorAt('invalid_query', this.spanFrom(start), `unexpected character \`${ch}\``);
  }
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

function isIdentifierStart(ch: string): boolean {
  return /^[A-Za-z_]$/.test(ch);
}

function isIdentifierPart(ch: string): boolean {
  return /^[A-Za-z0-9_]$/.test(ch);
}

/**
 * The tokens of the segments, read lazily and ending with one `eof` token. `start` continues the positions
 * of an enclosing query (for the members of a fragment's object/array pieces).
 */
export function* tokenize(segments: readonly QuerySegment[], start?: SourcePosition): Generator<Token, void, undefined> {
  const scanner = new Scanner(start);
  for (const segment of segments) {
    if (segment.kind === 'text') yield* scanner.scanText(segment.text);
    else if (segment.kind === 'value') yield { kind: 'value', value: segment.value, span: scanner.zeroWidth() };
    else yield { kind: 'piece', segment, span: scanner.zeroWidth() };
  }
  yield { kind: 'eof', span: scanner.zeroWidth() };
}
