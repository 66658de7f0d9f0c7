/**
 * Splits FQL v10 query segments into tokens with source spans. Text segments are scanned character by character;
 * interpolated values and object/array pieces become single zero-width tokens at the point they occur. Each token
 * records whether a line break came before it: FQL separates statements by line breaks, and a call's `(`, an
 * index's `[`, a `!` and most binary operators continue an expression only on the same line (as the real service's
 * parser, fauna/faunadb `fql/parser/ExprParser.scala`).
 */
import type { Value } from '../values/value.js';
import { fqlErrorAt } from './fql-error.js';
import type { QuerySegment } from './query-input.js';
import type { SourcePosition, SourceSpan } from './source-position.js';

export const PUNCTUATORS = [
  '**',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '?.',
  '??',
  '=~',
  '!~',
  '.',
  ',',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ':',
  ';',
  '<',
  '>',
  '!',
  '-',
  '+',
  '*',
  '/',
  '%',
  '=',
  '|',
  '&',
  '^',
  '~',
] as const;
export type Punctuator = (typeof PUNCTUATORS)[number];

/** A piece of an interpolated string: text, or the source of an embedded expression and where it starts. */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'expr'; readonly source: string; readonly start: SourcePosition };

interface TokenBase {
  readonly span: SourceSpan;
  /** A line break (or a comment holding one) separates this token from the one before. */
  readonly newlineBefore: boolean;
}

export type Token =
  | (TokenBase & { readonly kind: 'identifier'; readonly text: string })
  | (TokenBase & { readonly kind: 'string'; readonly value: string })
  | (TokenBase & { readonly kind: 'template'; readonly parts: readonly TemplatePart[] })
  | (TokenBase & { readonly kind: 'integer'; readonly value: bigint })
  | (TokenBase & { readonly kind: 'decimal'; readonly value: number })
  | (TokenBase & { readonly kind: 'punctuator'; readonly text: Punctuator })
  | (TokenBase & { readonly kind: 'value'; readonly value: Value })
  | (TokenBase & { readonly kind: 'piece'; readonly segment: Extract<QuerySegment, { kind: 'object' | 'array' }> })
  | (TokenBase & { readonly kind: 'eof' });

/** How a token reads in an error message. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'identifier':
    case 'punctuator':
      return `\`${token.text}\``;
    case 'string':
    case 'template':
      return 'a string';
    case 'integer':
    case 'decimal':
      return 'a number';
    case 'value':
    case 'piece':
      return 'an interpolated value';
    case 'eof':
      return 'end of the query';
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '`': '`',
  '#': '#',
  '/': '/',
};

class Scanner {
  private line = 1;
  private column = 1;
  private offset = 0;
  private text = '';
  private index = 0;
  private newline = false;

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

  /** The flag for the next token: whether a line break was passed since the last one. */
  private takeNewline(): boolean {
    const seen = this.newline;
    this.newline = false;
    return seen;
  }

  zeroWidth(): TokenBase {
    const here = this.position();
    return { span: { start: here, end: here }, newlineBefore: this.takeNewline() };
  }

  /** Yields the tokens of one text segment, one at a time, so that the first error in reading order wins. */
  *scanText(text: string): Generator<Token> {
    this.text = text;
    this.index = 0;
    while (this.index < this.text.length) {
      const ch = this.peek();
      if (ch === '\n' || ch === '\r') {
        this.newline = true;
        this.advance();
      } else if (ch === ' ' || ch === '\t') {
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
      } else if (ch === '<' && this.peek(1) === '<' && (this.peek(2) === '+' || this.peek(2) === '-')) {
        const start = this.position();
        throw fqlErrorAt(
          'invalid_query',
          { start, end: start },
          'heredoc strings (`<<+`, `<<-`) are not supported by the reference server',
        );
      } else {
        yield this.scanPunctuator();
      }
    }
  }

  /** Block comments nest, as the real service's (`/* a /* b *\/ c *\/`). */
  private skipBlockComment(): void {
    const start = this.position();
    let depth = 0;
    do {
      if (this.index >= this.text.length) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'unterminated `/*` comment');
      if (this.peek() === '/' && this.peek(1) === '*') {
        depth++;
        this.advance();
        this.advance();
      } else if (this.peek() === '*' && this.peek(1) === '/') {
        depth--;
        this.advance();
        this.advance();
      } else {
        if (this.peek() === '\n') this.newline = true;
        this.advance();
      }
    } while (depth > 0);
  }

  private scanIdentifier(): Token {
    const newlineBefore = this.takeNewline();
    const start = this.position();
    let text = '';
    while (isIdentifierPart(this.peek())) text += this.advance();
    return { kind: 'identifier', text, span: this.spanFrom(start), newlineBefore };
  }

  private scanNumber(): Token {
    const newlineBefore = this.takeNewline();
    const start = this.position();
    if (this.peek() === '0' && /[xXoObB]/.test(this.peek(1))) {
      this.advance();
      const radixChar = this.advance().toLowerCase();
      const radix = radixChar === 'x' ? 16 : radixChar === 'o' ? 8 : 2;
      const valid = radix === 16 ? /[0-9a-fA-F_]/ : radix === 8 ? /[0-7_]/ : /[01_]/;
      let digits = '';
      while (valid.test(this.peek())) digits += this.advance();
      digits = digits.replaceAll('_', '');
      if (digits === '' || isIdentifierPart(this.peek())) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'invalid number literal');
      const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : '0b';
      return { kind: 'integer', value: BigInt(prefix + digits), span: this.spanFrom(start), newlineBefore };
    }
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
    if (
      (this.peek() === 'e' || this.peek() === 'E') &&
      (isDigit(this.peek(1)) || ((this.peek(1) === '+' || this.peek(1) === '-') && isDigit(this.peek(2))))
    ) {
      decimal = true;
      digits += this.advance();
      if (this.peek() === '+' || this.peek() === '-') digits += this.advance();
      readDigits();
    }
    if (isIdentifierPart(this.peek())) {
      throw fqlErrorAt('invalid_query', this.spanFrom(start), `invalid number literal \`${digits}${this.peek()}\``);
    }
    const span = this.spanFrom(start);
    return decimal
      ? { kind: 'decimal', value: Number(digits), span, newlineBefore }
      : { kind: 'integer', value: BigInt(digits), span, newlineBefore };
  }

  /** A string; a double-quoted one may embed expressions as `#{…}`, which makes it a template. */
  private scanString(quote: string): Token {
    const newlineBefore = this.takeNewline();
    const start = this.position();
    this.advance();
    const parts: TemplatePart[] = [];
    let text = '';
    for (;;) {
      if (this.index >= this.text.length) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'unterminated string literal');
      const ch = this.peek();
      if (ch === quote) {
        this.advance();
        break;
      }
      if (ch === '#' && quote === '"' && this.peek(1) === '{') {
        if (text !== '') parts.push({ kind: 'text', text });
        text = '';
        this.advance();
        this.advance();
        parts.push(this.scanTemplateExpression());
      } else if (ch === '\\') {
        text += this.scanEscape();
      } else {
        text += this.advance();
      }
    }
    const span = this.spanFrom(start);
    if (parts.length === 0) return { kind: 'string', value: text, span, newlineBefore };
    if (text !== '') parts.push({ kind: 'text', text });
    return { kind: 'template', parts, span, newlineBefore };
  }

  /** The source of `#{…}` up to its closing brace (braces and strings inside counted), the brace consumed. */
  private scanTemplateExpression(): TemplatePart {
    const start = this.position();
    let source = '';
    let depth = 0;
    let quote: string | undefined;
    for (;;) {
      if (this.index >= this.text.length) throw fqlErrorAt('invalid_query', this.spanFrom(start), 'unterminated `#{` in a string');
      const ch = this.peek();
      if (quote !== undefined) {
        if (ch === '\\') source += this.advance();
        else if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'") {
        quote = ch;
      } else if (ch === '{') {
        depth++;
      } else if (ch === '}') {
        if (depth === 0) {
          this.advance();
          return { kind: 'expr', source, start };
        }
        depth--;
      }
      source += this.advance();
    }
  }

  private scanEscape(): string {
    const start = this.position();
    this.advance();
    const ch = this.advance();
    const mapped = SIMPLE_ESCAPES[ch];
    if (mapped !== undefined) return mapped;
    if (ch === 'u') {
      let hex = '';
      if (this.peek() === '{') {
        this.advance();
        while (/[0-9a-fA-F]/.test(this.peek())) hex += this.advance();
        if (this.peek() !== '}' || hex === '' || hex.length > 6)
          throw fqlErrorAt('invalid_query', this.spanFrom(start), 'invalid `\\u{…}` escape');
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
    const newlineBefore = this.takeNewline();
    const start = this.position();
    const two = this.peek() + this.peek(1);
    const punctuator = PUNCTUATORS.find((p) => (p.length === 2 ? two === p : this.peek() === p));
    if (punctuator !== undefined) {
      for (let i = 0; i < punctuator.length; i++) this.advance();
      return { kind: 'punctuator', text: punctuator, span: this.spanFrom(start), newlineBefore };
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
 * of an enclosing query (for the members of a fragment's object/array pieces and a template's expressions).
 */
export function* tokenize(segments: readonly QuerySegment[], start?: SourcePosition): Generator<Token, void, undefined> {
  const scanner = new Scanner(start);
  for (const segment of segments) {
    if (segment.kind === 'text') yield* scanner.scanText(segment.text);
    else if (segment.kind === 'value') yield { kind: 'value', value: segment.value, ...scanner.zeroWidth() };
    else yield { kind: 'piece', segment, ...scanner.zeroWidth() };
  }
  yield { kind: 'eof', ...scanner.zeroWidth() };
}
