/**
 * Recursive-descent parser for the FQL v10 subset (grammar: spec/fql-subset.md). Errors are `invalid_query`
 * FqlErrors whose message starts with `line:column`.
 */
import type { Value } from '../values/value.js';
import type {
  BinaryOperator,
  Expr,
  LambdaExpr,
  ObjectEntry,
  ProjectionField,
} from './ast.js';
import { fqlErrorAt, type FqlError } from './fql-error.js';
import { querySegments, type QueryInput, type QuerySegment } from './query-input.js';
import { spanBetween, type SourcePosition, type SourceSpan } from './source-position.js';
import { describeToken, tokenize, type Punctuator, type Token } from './tokenizer.js';

const INT64_MAX = 2n ** 63n - 1n;
const KEYWORD_LITERALS: Readonly<Record<string, Value>> = { true: true, false: false, null: null };
const RESERVED = new Set(['true', 'false', 'null', 'let', 'if', 'else', 'at', 'isa']);

// Implements: ESRC-QUERY-008, ESRC-QUERY-009
/**
 * Most levels a query's expressions may nest (DEC-076), as v4 expressions (LIMIT-NEST-001): parentheses, arrays,
 * objects, unary operators and projections, and also chains (`a.b.c…`, `x && y && …`), which nest in the tree as
 * deeply as they are long. Everything that walks a query afterwards recurses, and a query nested a hundred
 * thousand levels deep would end it with a stack overflow.
 */
export const MAX_QUERY_NESTING = 512;

// Implements: ESRC-QUERY-005
/** Parses a whole query (plain text or fragment form) into one expression. */
export function parseQuery(input: QueryInput): Expr {
  const expr = parseSegments(querySegments(input));
  checkNesting(expr);
  return expr;
}

export function parseSegments(segments: readonly QuerySegment[], start?: SourcePosition): Expr {
  const parser = new Parser(tokenize(segments, start));
  const expr = parser.parseExpression();
  parser.expectEnd();
  return expr;
}

class Parser {
  /** Tokens read from the source but not consumed yet (lookahead). */
  private readonly buffer: Token[] = [];
  /** Recursive parsing calls under way (see MAX_QUERY_NESTING). */
  private depth = 0;

  constructor(private readonly source: Iterator<Token, void>) {}

  private peek(ahead = 0): Token {
    while (this.buffer.length <= ahead) {
      const last = this.buffer[this.buffer.length - 1];
      if (last?.kind === 'eof') return last;
      const read = this.source.next();
      if (read.done) throw new Error('token stream ended without eof');
      this.buffer.push(read.value);
    }
    return this.buffer[ahead] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.buffer.shift();
    return token;
  }

  private isPunctuator(text: Punctuator, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'punctuator' && token.text === text;
  }

  private expectPunctuator(text: Punctuator, context: string): SourceSpan {
    const token = this.peek();
    if (token.kind === 'punctuator' && token.text === text) {
      this.next();
      return token.span;
    }
    throw fqlErrorAt('invalid_query', token.span, `expected \`${text}\` ${context}, found ${describeToken(token)}`);
  }

  /** A name; field names (`fieldName`) may be reserved words, as in `.at` or `{ if }`. */
  private expectIdentifier(context: string, fieldName = false): { text: string; span: SourceSpan } {
    const token = this.peek();
    if (token.kind === 'identifier' && (fieldName || !RESERVED.has(token.text))) {
      this.next();
      return { text: token.text, span: token.span };
    }
    throw fqlErrorAt('invalid_query', token.span, `expected a name ${context}, found ${describeToken(token)}`);
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'eof') {
      throw fqlErrorAt('invalid_query', token.span, `unexpected ${describeToken(token)} after the end of the expression`);
    }
  }

  parseExpression(): Expr {
    return this.nested(() => this.tryParseLambda() ?? this.parseBinary(0));
  }

  /** Runs a parsing step that may recurse, refusing past MAX_QUERY_NESTING levels. */
  private nested<T>(step: () => T): T {
    if (this.depth >= MAX_QUERY_NESTING) throw tooDeep(this.peek().span);
    this.depth++;
    try {
      return step();
    } finally {
      this.depth--;
    }
  }

  /** `x => e` or `(x, …) => e`; looks ahead so that a parenthesised expression is not mistaken for one. */
  private tryParseLambda(): LambdaExpr | undefined {
    const first = this.peek();
    if (first.kind === 'identifier' && this.isPunctuator('=>', 1)) {
      const param = this.expectIdentifier('as a lambda parameter');
      this.next();
      const body = this.parseExpression();
      return { kind: 'lambda', params: [param.text], body, span: spanBetween(first.span, body.span) };
    }
    if (!this.isPunctuator('(')) return undefined;
    let ahead = 1;
    if (!this.isPunctuator(')', ahead)) {
      for (;;) {
        if (this.peek(ahead).kind !== 'identifier') return undefined;
        ahead++;
        if (this.isPunctuator(',', ahead)) ahead++;
        else break;
      }
    }
    if (!this.isPunctuator(')', ahead) || !this.isPunctuator('=>', ahead + 1)) return undefined;
    this.next();
    const params: string[] = [];
    while (!this.isPunctuator(')')) {
      const param = this.expectIdentifier('as a lambda parameter');
      if (params.includes(param.text)) {
        throw fqlErrorAt('invalid_query', param.span, `duplicate lambda parameter \`${param.text}\``);
      }
      params.push(param.text);
      if (this.isPunctuator(',')) this.next();
    }
    this.next();
    this.next();
    const body = this.parseExpression();
    return { kind: 'lambda', params, body, span: spanBetween(first.span, body.span) };
  }

  private static readonly LEVELS: readonly (readonly BinaryOperator[])[] = [
    ['||'],
    ['&&'],
    ['==', '!='],
    ['<', '<=', '>', '>='],
  ];

  private parseBinary(level: number): Expr {
    const operators = Parser.LEVELS[level];
    if (operators === undefined) return this.parseUnary();
    let left = this.parseBinary(level + 1);
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'punctuator' || !(operators as readonly string[]).includes(token.text)) return left;
      this.next();
      const right = this.parseBinary(level + 1);
      left = {
        kind: 'binary',
        operator: token.text as BinaryOperator,
        left,
        right,
        span: spanBetween(left.span, right.span),
      };
    }
  }

  private parseUnary(): Expr {
    const token = this.peek();
    if (token.kind === 'punctuator' && token.text === '!') {
      this.next();
      const operand = this.nested(() => this.parseUnary());
      return { kind: 'unary', operator: '!', operand, span: spanBetween(token.span, operand.span) };
    }
    if (token.kind === 'punctuator' && token.text === '-') {
      this.next();
      const number = this.peek();
      if (number.kind === 'integer') {
        this.next();
        return this.parsePostfix(this.integerLiteral(-number.value, spanBetween(token.span, number.span)));
      }
      const operand = this.nested(() => this.parseUnary());
      return { kind: 'unary', operator: '-', operand, span: spanBetween(token.span, operand.span) };
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private integerLiteral(value: bigint, span: SourceSpan): Expr {
    if (value > INT64_MAX || value < -INT64_MAX - 1n) {
      throw fqlErrorAt('invalid_query', span, 'integer literal does not fit in 64 bits');
    }
    return { kind: 'literal', value, interpolated: false, span };
  }

  private parsePostfix(start: Expr): Expr {
    let expr = start;
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'punctuator') return expr;
      if (token.text === '.' || token.text === '?.') {
        this.next();
        const name = this.expectIdentifier(`after \`${token.text}\``, true);
        expr = {
          kind: 'member',
          target: expr,
          name: name.text,
          optional: token.text === '?.',
          nameSpan: name.span,
          span: spanBetween(expr.span, name.span),
        };
      } else if (token.text === '(') {
        this.next();
        const args = this.parseList(')', 'in the argument list', () => this.parseExpression());
        expr = { kind: 'call', callee: expr, args: args.items, span: spanBetween(expr.span, args.close) };
      } else if (token.text === '[') {
        this.next();
        const index = this.parseExpression();
        const close = this.expectPunctuator(']', 'after the index');
        expr = { kind: 'index', target: expr, index, span: spanBetween(expr.span, close) };
      } else if (token.text === '{') {
        const projection = this.parseProjection();
        expr = { kind: 'projection', target: expr, fields: projection.fields, span: spanBetween(expr.span, projection.span) };
      } else {
        return expr;
      }
    }
  }

  /** Comma-separated items up to `close`; a trailing comma is allowed. */
  private parseList<T>(close: Punctuator, context: string, item: () => T): { items: T[]; close: SourceSpan } {
    const items: T[] = [];
    while (!this.isPunctuator(close)) {
      items.push(item());
      if (this.isPunctuator(',')) this.next();
      else break;
    }
    return { items, close: this.expectPunctuator(close, context) };
  }

  private parseProjection(): { fields: ProjectionField[]; span: SourceSpan } {
    const open = this.expectPunctuator('{', 'to start a projection');
    const list = this.parseList('}', 'to close the projection', () => this.parseProjectionField());
    return { fields: list.items, span: spanBetween(open, list.close) };
  }

  private parseProjectionField(): ProjectionField {
    const name = this.expectIdentifier('of a projected field', true);
    if (this.isPunctuator(':')) {
      this.next();
      const value = this.parseExpression();
      return { kind: 'computed', name: name.text, value, span: spanBetween(name.span, value.span) };
    }
    if (this.isPunctuator('{')) {
      const nested = this.nested(() => this.parseProjection());
      return { kind: 'nested', name: name.text, fields: nested.fields, span: spanBetween(name.span, nested.span) };
    }
    return { kind: 'copy', name: name.text, span: name.span };
  }

  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'integer':
        return this.integerLiteral(token.value, token.span);
      case 'decimal':
        return { kind: 'literal', value: token.value, interpolated: false, span: token.span };
      case 'string':
        return { kind: 'literal', value: token.value, interpolated: false, span: token.span };
      case 'value':
        return { kind: 'literal', value: token.value, interpolated: true, span: token.span };
      case 'piece':
        return this.parsePiece(token.segment, token.span);
      case 'identifier': {
        const literal = KEYWORD_LITERALS[token.text];
        if (literal !== undefined) return { kind: 'literal', value: literal, interpolated: false, span: token.span };
        if (RESERVED.has(token.text)) {
          throw fqlErrorAt('invalid_query', token.span, `\`${token.text}\` is not supported by this FQL subset`);
        }
        return { kind: 'identifier', name: token.text, span: token.span };
      }
      case 'punctuator':
        return this.parsePunctuatorPrimary(token.text, token.span);
      case 'eof':
        throw fqlErrorAt('invalid_query', token.span, 'expected an expression, found the end of the query');
    }
  }

  private parsePunctuatorPrimary(text: Punctuator, span: SourceSpan): Expr {
    if (text === '(') {
      const inner = this.parseExpression();
      this.expectPunctuator(')', 'to close the parenthesis');
      return inner;
    }
    if (text === '.') {
      const name = this.expectIdentifier('after `.`', true);
      return { kind: 'implicit-field', name: name.text, span: spanBetween(span, name.span) };
    }
    if (text === '[') {
      const list = this.parseList(']', 'to close the array', () => this.parseExpression());
      return { kind: 'array', elements: list.items, span: spanBetween(span, list.close) };
    }
    if (text === '{') {
      const list = this.parseList('}', 'to close the object', () => this.parseObjectEntry());
      const seen = new Set<string>();
      for (const entry of list.items) {
        if (seen.has(entry.key)) throw fqlErrorAt('invalid_query', entry.span, `duplicate object key \`${entry.key}\``);
        seen.add(entry.key);
      }
      return { kind: 'object', entries: list.items, span: spanBetween(span, list.close) };
    }
    throw fqlErrorAt('invalid_query', span, `expected an expression, found \`${text}\``);
  }

  private parseObjectEntry(): ObjectEntry {
    const token = this.next();
    let key: string;
    if (token.kind === 'identifier') key = token.text;
    else if (token.kind === 'string') key = token.value;
    else throw fqlErrorAt('invalid_query', token.span, `expected an object key, found ${describeToken(token)}`);
    this.expectPunctuator(':', `after the object key \`${key}\``);
    const value = this.parseExpression();
    return { key, value, span: spanBetween(token.span, value.span) };
  }

  /** A fragment's `{"object": …}` or `{"array": …}` piece: each member is a complete expression. */
  private parsePiece(segment: Extract<QuerySegment, { kind: 'object' | 'array' }>, span: SourceSpan): Expr {
    if (segment.kind === 'array') {
      return { kind: 'array', elements: segment.items.map((item) => parseSegments(item, span.start)), span };
    }
    const entries = segment.entries.map(([key, member]) => ({ key, value: parseSegments(member, span.start), span }));
    return { kind: 'object', entries, span };
  }
}

function tooDeep(span: SourceSpan): FqlError {
  return fqlErrorAt('invalid_query', span, `the query nests more than ${MAX_QUERY_NESTING} levels deep`);
}

// Implements: ESRC-QUERY-009
/** Refuses a tree deeper than MAX_QUERY_NESTING; walked with a stack of its own, so any depth is measured. */
function checkNesting(root: Expr): void {
  const stack: Array<[Expr, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [expr, depth] = stack.pop()!;
    if (depth > MAX_QUERY_NESTING) throw tooDeep(expr.span);
    for (const child of childrenOf(expr)) stack.push([child, depth + 1]);
  }
}

function childrenOf(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case 'literal':
    case 'identifier':
    case 'implicit-field':
      return [];
    case 'member':
      return [expr.target];
    case 'index':
      return [expr.target, expr.index];
    case 'call':
      return [expr.callee, ...expr.args];
    case 'unary':
      return [expr.operand];
    case 'binary':
      return [expr.left, expr.right];
    case 'lambda':
      return [expr.body];
    case 'array':
      return expr.elements;
    case 'object':
      return expr.entries.map((entry) => entry.value);
    case 'projection':
      return [expr.target, ...computedValues(expr.fields)];
  }
}

/** The expressions of a projection's computed fields, nested projections included (their depth the parser bounds). */
function computedValues(fields: readonly ProjectionField[]): Expr[] {
  return fields.flatMap((field) => (field.kind === 'computed' ? [field.value] : field.kind === 'nested' ? computedValues(field.fields) : []));
}
