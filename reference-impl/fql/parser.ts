/**
 * Recursive-descent parser for FQL v10 (grammar: spec/fql-subset.md; the real service's is fauna/faunadb
 * `fql/parser/ExprParser.scala`). A query is a block of statements. Errors are compile-time `invalid_query`
 * FqlErrors that point at the offending token.
 */
import { failpoint } from '../failpoints.js';
import type { Value } from '../values/value.js';
import {
  childrenOf,
  usesThis,
  type BinaryOperator,
  type Expr,
  type LambdaExpr,
  type ObjectEntry,
  type ProjectionField,
  type Statement,
} from './ast.js';
import { fqlErrorAt, type FqlError } from './fql-error.js';
import { querySegments, type QueryInput, type QuerySegment } from './query-input.js';
import { spanBetween, type SourcePosition, type SourceSpan } from './source-position.js';
import { describeToken, tokenize, type Punctuator, type Token } from './tokenizer.js';

const INT64_MAX = 2n ** 63n - 1n;
/** A map, not an object: a name such as `__proto__` or `constructor` must not find an object's inherited member. */
const KEYWORD_LITERALS: ReadonlyMap<string, Value> = new Map<string, Value>([
  ['true', true],
  ['false', false],
  ['null', null],
]);
/** Words that cannot name a variable (fauna/faunadb `fql/parser/Tokens.scala` `invalidIdents`). */
const RESERVED = new Set(['if', 'else', 'at', 'match', 'case', 'let', 'null', 'true', 'false', 'isa', 'join', 'on', 'of']);

// Implements: ESRC-QUERY-008, ESRC-QUERY-009
/**
 * Most levels a query's expressions may nest (DEC-076), as v4 expressions (LIMIT-NEST-001): parentheses, arrays,
 * objects, unary operators and projections, and also chains (`a.b.c…`, `x && y && …`), which nest in the tree as
 * deeply as they are long. Everything that walks a query afterwards recurses, and a query nested a hundred
 * thousand levels deep would end it with a stack overflow.
 */
export const MAX_QUERY_NESTING = 512;

/** Binary operators from the loosest to the tightest (ExprParser.scala `ExprOpPrecedences`). */
const PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  '??': 0,
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  isa: 5,
  '|': 6,
  '^': 7,
  '&': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
  '**': 11,
};
/** Operators that may begin a new line and still continue the expression before it. */
const LINE_CONTINUING = new Set<BinaryOperator>(['??', '||', '&&', '|', '^', '&']);

// Implements: ESRC-QUERY-005
/** Parses a whole query (plain text or fragment form) into one block. */
// Implements: FQL-SYNTAX-001
export function parseQuery(input: QueryInput): Expr {
  const expr = parseSegments(querySegments(input));
  checkTree(expr);
  return expr;
}

export function parseSegments(segments: readonly QuerySegment[], start?: SourcePosition): Expr {
  const parser = new Parser(tokenize(segments, start));
  return parser.parseQueryBody();
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

  private isKeyword(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'identifier' && token.text === word;
  }

  private expectPunctuator(text: Punctuator, context: string): SourceSpan {
    const token = this.peek();
    if (token.kind === 'punctuator' && token.text === text) {
      this.next();
      return token.span;
    }
    throw fqlErrorAt('invalid_query', token.span, `Expected \`${text}\` ${context}, found ${describeToken(token)}`);
  }

  /** A name; field names (`fieldName`) may be reserved words, as in `.at` or `{ if }`. */
  private expectName(context: string, fieldName = false): { text: string; span: SourceSpan } {
    const token = this.peek();
    if (token.kind === 'identifier' && (fieldName || !RESERVED.has(token.text))) {
      this.next();
      return { text: token.text, span: token.span };
    }
    if (token.kind === 'identifier') throw fqlErrorAt('invalid_query', token.span, `Invalid identifier \`${token.text}\``);
    throw fqlErrorAt('invalid_query', token.span, `Expected ${context}, found ${describeToken(token)}`);
  }

  /** Runs a parsing step that may recurse, refusing past MAX_QUERY_NESTING levels. */
  private nested<T>(step: () => T): T {
    // The self-check's fault FQL-NESTING-32 refuses past 32 levels.
    if (this.depth >= MAX_QUERY_NESTING || (this.depth >= 32 && failpoint('FQL-NESTING-32'))) throw tooDeep(this.peek().span);
    this.depth++;
    try {
      return step();
    } finally {
      this.depth--;
    }
  }

  parseQueryBody(): Expr {
    const first = this.peek();
    const statements = this.parseStatements('eof');
    const end = this.peek();
    if (end.kind !== 'eof') throw fqlErrorAt('invalid_query', end.span, `Unexpected ${describeToken(end)}`);
    return { kind: 'block', statements, span: spanBetween(first.span, statements[statements.length - 1]?.span ?? first.span) };
  }

  /** Statements up to `}` or the end of the query, separated by line breaks or `;`; the last is an expression. */
  private parseStatements(end: '}' | 'eof'): Statement[] {
    const statements: Statement[] = [];
    const atEnd = () => (end === 'eof' ? this.peek().kind === 'eof' : this.isPunctuator('}'));
    while (this.isPunctuator(';')) this.next();
    while (!atEnd()) {
      statements.push(this.parseStatement());
      if (atEnd()) break;
      const after = this.peek();
      if (this.isPunctuator(';')) {
        while (this.isPunctuator(';')) this.next();
      } else if (!after.newlineBefore) {
        throw fqlErrorAt('invalid_query', after.span, `Unexpected ${describeToken(after)}`);
      }
    }
    const last = statements[statements.length - 1];
    const here = this.peek().span;
    if (last === undefined) {
      throw fqlErrorAt('invalid_query', here, end === 'eof' ? 'Unexpected end of query' : 'Unexpected end of block');
    }
    // Implements: FQL-SYNTAX-002
    if (last.kind === 'let')
      throw fqlErrorAt('invalid_query', here, 'Missing return value: the block ends with a `let` statement, not an expression');
    return statements;
  }

  private parseStatement(): Statement {
    const token = this.peek();
    if (token.kind === 'identifier' && token.text === 'let') {
      this.next();
      const name = this.expectName('a variable name after `let`');
      if (name.text === '_' || name.text === 'FQL') throw fqlErrorAt('invalid_query', name.span, `Invalid identifier \`${name.text}\``);
      if (this.isPunctuator(':')) this.skipTypeAnnotation();
      this.expectPunctuator('=', `after \`let ${name.text}\``);
      const value = this.parseExpression();
      return { kind: 'let', name: name.text, value, span: spanBetween(token.span, value.span) };
    }
    const expr = this.parseExpression();
    return { kind: 'expr', expr, span: expr.span };
  }

  /** `: Type` of a `let`: types are not checked here (the reference server runs queries without typechecking). */
  private skipTypeAnnotation(): void {
    this.next();
    let depth = 0;
    for (;;) {
      const token = this.peek();
      if (token.kind === 'eof') throw fqlErrorAt('invalid_query', token.span, 'Expected `=` after the type, found end of the query');
      if (depth === 0 && token.kind === 'punctuator' && token.text === '=') return;
      if (token.kind === 'punctuator' && ['<', '{', '[', '('].includes(token.text)) depth++;
      if (token.kind === 'punctuator' && ['>', '}', ']', ')'].includes(token.text)) depth--;
      this.next();
    }
  }

  parseExpression(): Expr {
    return this.nested(() => {
      if (this.isKeyword('if')) return this.parseIf();
      if (this.isKeyword('at') && this.isPunctuator('(', 1)) return this.parseAt();
      return this.tryParseLambda() ?? this.parseBinary(0);
    });
  }

  private parseIf(): Expr {
    const start = this.next().span;
    const condition = this.parseKeywordOperand('if', 'condition');
    const then = this.parseExpression();
    if (this.isKeyword('else')) {
      this.next();
      const otherwise = this.parseExpression();
      return { kind: 'if', condition, then, otherwise, span: spanBetween(start, otherwise.span) };
    }
    return { kind: 'if', condition, then, span: spanBetween(start, then.span) };
  }

  private parseAt(): Expr {
    const start = this.next().span;
    const time = this.parseKeywordOperand('at', 'time');
    const body = this.parseExpression();
    return { kind: 'at', time, body, span: spanBetween(start, body.span) };
  }

  /** The parenthesised operand after `if` or `at` (the keyword already read). */
  private parseKeywordOperand(keyword: string, operand: string): Expr {
    this.expectPunctuator('(', `after \`${keyword}\``);
    const expr = this.parseExpression();
    this.expectPunctuator(')', `to close the ${operand}`);
    return expr;
  }

  /** `x => e` or `(x, …) => e`; looks ahead so that a parenthesised expression is not mistaken for one. */
  private tryParseLambda(): LambdaExpr | undefined {
    const first = this.peek();
    if (first.kind === 'identifier' && this.isPunctuator('=>', 1)) {
      const param = this.expectName('a lambda parameter');
      this.next();
      const body = this.parseExpression();
      return {
        kind: 'lambda',
        params: [param.text === '_' ? null : param.text],
        short: false,
        body,
        span: spanBetween(first.span, body.span),
      };
    }
    if (!this.isPunctuator('(')) return undefined;
    let ahead = 1;
    if (!this.isPunctuator(')', ahead)) {
      for (;;) {
        if (this.peek(ahead).kind !== 'identifier') return undefined;
        ahead++;
        if (this.isPunctuator(',', ahead)) ahead++;
        else break;
        if (this.isPunctuator(')', ahead)) break;
      }
    }
    if (!this.isPunctuator(')', ahead) || !this.isPunctuator('=>', ahead + 1)) return undefined;
    this.next();
    const params: (string | null)[] = [];
    while (!this.isPunctuator(')')) {
      const param = this.expectName('a lambda parameter');
      if (param.text !== '_' && params.includes(param.text))
        throw fqlErrorAt('invalid_query', param.span, `Duplicate lambda argument \`${param.text}\``);
      params.push(param.text === '_' ? null : param.text);
      if (this.isPunctuator(',')) this.next();
    }
    this.next();
    this.next();
    const body = this.parseExpression();
    return { kind: 'lambda', params, short: false, body, span: spanBetween(first.span, body.span) };
  }

  /** The binary operator the next token is, when it continues the expression at the given level. */
  private binaryOperator(minLevel: number): { operator: BinaryOperator; token: Token } | undefined {
    const token = this.peek();
    let operator: BinaryOperator | undefined;
    if (token.kind === 'punctuator' && token.text in PRECEDENCE) operator = token.text as BinaryOperator;
    else if (token.kind === 'identifier' && token.text === 'isa') operator = 'isa';
    if (operator === undefined || PRECEDENCE[operator] < minLevel) return undefined;
    if (token.newlineBefore && !LINE_CONTINUING.has(operator)) return undefined;
    return { operator, token };
  }

  /** Precedence climbing; `**` binds to the right, every other operator to the left. */
  private parseBinary(minLevel: number): Expr {
    let left = this.parseUnary();
    for (;;) {
      const found = this.binaryOperator(minLevel);
      if (found === undefined) return left;
      this.next();
      const level = PRECEDENCE[found.operator];
      const right = this.nested(() => this.parseBinary(found.operator === '**' ? level : level + 1));
      left = {
        kind: 'binary',
        operator: found.operator,
        left,
        right,
        operatorSpan: found.token.span,
        span: spanBetween(left.span, right.span),
      };
    }
  }

  private parseUnary(): Expr {
    const token = this.peek();
    if (token.kind === 'punctuator' && (token.text === '!' || token.text === '~' || token.text === '-')) {
      this.next();
      const number = this.peek();
      if (token.text === '-' && (number.kind === 'integer' || number.kind === 'decimal') && !number.newlineBefore) {
        this.next();
        const span = spanBetween(token.span, number.span);
        const literal =
          number.kind === 'integer'
            ? this.integerLiteral(-number.value, span)
            : { kind: 'literal' as const, value: -number.value, interpolated: false, span };
        return this.parsePostfix(literal);
      }
      const operand = this.nested(() => this.parseUnary());
      return { kind: 'unary', operator: token.text, operand, span: spanBetween(token.span, operand.span) };
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private integerLiteral(value: bigint, span: SourceSpan): Expr {
    if (value > INT64_MAX || value < -INT64_MAX - 1n) throw fqlErrorAt('invalid_query', span, 'Integer literal does not fit in 64 bits');
    return { kind: 'literal', value, interpolated: false, span };
  }

  private parsePostfix(start: Expr): Expr {
    let expr = start;
    for (let links = 0; ; links++) {
      if (links >= MAX_QUERY_NESTING) throw tooDeep(this.peek().span);
      const token = this.peek();
      if (token.kind !== 'punctuator') return expr;
      if (token.text === '.') {
        this.next();
        expr = memberOf(expr, this.expectName('a field name after `.`', true), false);
      } else if (token.text === '?.') {
        this.next();
        if (this.isPunctuator('(')) expr = this.parseCall(expr, true);
        else if (this.isPunctuator('[')) expr = this.parseIndex(expr, true);
        else {
          expr = memberOf(expr, this.expectName('a field name after `?.`', true), true);
        }
      } else if (token.newlineBefore) {
        return expr;
      } else if (token.text === '(') {
        expr = this.parseCall(expr, false);
      } else if (token.text === '[') {
        expr = this.parseIndex(expr, false);
      } else if (token.text === '!') {
        this.next();
        expr = { kind: 'non-null', target: expr, span: spanBetween(expr.span, token.span) };
      } else if (token.text === '{') {
        const projection = this.nested(() => this.parseProjection());
        expr = { kind: 'projection', target: expr, fields: projection.fields, span: spanBetween(expr.span, projection.span) };
      } else {
        return expr;
      }
    }
  }

  private parseCall(callee: Expr, optional: boolean): Expr {
    const open = this.next().span;
    const args = this.nested(() => this.parseList(')', 'to close the argument list', () => this.parseArgument()));
    const argsSpan = spanBetween(open, args.close);
    return { kind: 'call', callee, args: args.items, optional, argsSpan, span: spanBetween(callee.span, args.close) };
  }

  private parseIndex(target: Expr, optional: boolean): Expr {
    this.next();
    const index = this.nested(() => this.parseExpression());
    const close = this.expectPunctuator(']', 'after the index');
    return { kind: 'index', target, index, optional, span: spanBetween(target.span, close) };
  }

  /** An argument: an expression that reads `this` is a short-form lambda (`.price > 10`, `.delete()`). */
  private parseArgument(): Expr {
    const expr = this.parseExpression();
    if (!usesThis(expr)) return expr;
    return { kind: 'lambda', params: [], short: true, body: expr, span: expr.span };
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

  /** `name` (copy the field), `name: expr` (computed with the projected value as `this`), `name { … }` (nested). */
  private parseProjectionField(): ProjectionField {
    const name = this.expectName('a field name in the projection', true);
    if (this.isPunctuator(':')) {
      this.next();
      const value = this.parseExpression();
      return { name: name.text, value, span: spanBetween(name.span, value.span) };
    }
    const self = { kind: 'this' as const, span: { start: name.span.start, end: name.span.start } };
    const copy: Expr = { kind: 'member', target: self, name: name.text, optional: false, nameSpan: name.span, span: name.span };
    if (this.isPunctuator('{') && !this.peek().newlineBefore) {
      const nested = this.nested(() => this.parseProjection());
      return {
        name: name.text,
        value: { kind: 'projection', target: copy, fields: nested.fields, span: spanBetween(name.span, nested.span) },
        span: spanBetween(name.span, nested.span),
      };
    }
    return { name: name.text, value: copy, span: name.span };
  }

  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'integer':
        return this.integerLiteral(token.value, token.span);
      case 'decimal':
      case 'string':
        return { kind: 'literal', value: token.value, interpolated: false, span: token.span };
      case 'template':
        return {
          kind: 'template',
          parts: token.parts.map((part) =>
            part.kind === 'text' ? part.text : parseSegments([{ kind: 'text', text: part.source }], part.start),
          ),
          span: token.span,
        };
      case 'value':
        return { kind: 'literal', value: token.value, interpolated: true, span: token.span };
      case 'piece':
        return this.parsePiece(token.segment, token.span);
      case 'identifier': {
        const literal = KEYWORD_LITERALS.get(token.text);
        if (literal !== undefined) return { kind: 'literal', value: literal, interpolated: false, span: token.span };
        if (RESERVED.has(token.text)) throw fqlErrorAt('invalid_query', token.span, `Unexpected keyword \`${token.text}\``);
        return { kind: 'identifier', name: token.text, span: token.span };
      }
      case 'punctuator':
        return this.parsePunctuatorPrimary(token.text, token.span);
      case 'eof':
        throw fqlErrorAt('invalid_query', token.span, 'Unexpected end of query');
    }
  }

  private parsePunctuatorPrimary(text: Punctuator, span: SourceSpan): Expr {
    if (text === '(') {
      const inner = this.parseExpression();
      this.expectPunctuator(')', 'to close the parenthesis');
      return inner;
    }
    if (text === '.') {
      const name = this.expectName('a field name after `.`', true);
      const self = { kind: 'this' as const, span: { start: span.start, end: span.start } };
      return { kind: 'member', target: self, name: name.text, optional: false, nameSpan: name.span, span: spanBetween(span, name.span) };
    }
    if (text === '[') {
      const list = this.parseList(']', 'to close the array', () => this.parseExpression());
      return { kind: 'array', elements: list.items, span: spanBetween(span, list.close) };
    }
    if (text === '{') return this.parseObjectOrBlock(span);
    throw fqlErrorAt('invalid_query', span, `Unexpected \`${text}\``);
  }

  /** `{}` and `{ key: … }` are objects; anything else between braces is a block. */
  private parseObjectOrBlock(open: SourceSpan): Expr {
    const first = this.peek();
    const isObject = this.isPunctuator('}') || ((first.kind === 'identifier' || first.kind === 'string') && this.isPunctuator(':', 1));
    if (!isObject) {
      const statements = this.parseStatements('}');
      const close = this.expectPunctuator('}', 'to close the block');
      return { kind: 'block', statements, span: spanBetween(open, close) };
    }
    const list = this.parseList('}', 'to close the object', () => this.parseObjectEntry());
    const seen = new Set<string>();
    for (const entry of list.items) {
      if (seen.has(entry.key)) throw fqlErrorAt('invalid_query', entry.span, `Duplicate object key \`${entry.key}\``);
      seen.add(entry.key);
    }
    return { kind: 'object', entries: list.items, span: spanBetween(open, list.close) };
  }

  private parseObjectEntry(): ObjectEntry {
    const token = this.next();
    let key: string;
    if (token.kind === 'identifier') key = token.text;
    else if (token.kind === 'string') key = token.value;
    else if (token.kind === 'template') throw fqlErrorAt('invalid_query', token.span, 'Object keys do not support interpolation');
    else throw fqlErrorAt('invalid_query', token.span, `Expected an object key, found ${describeToken(token)}`);
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

/** `target.name` (`target?.name` when optional), spanning from the target to the name. */
function memberOf(target: Expr, name: { text: string; span: SourceSpan }, optional: boolean): Expr {
  return { kind: 'member', target, name: name.text, optional, nameSpan: name.span, span: spanBetween(target.span, name.span) };
}

function tooDeep(span: SourceSpan): FqlError {
  return fqlErrorAt('invalid_query', span, `The query nests more than ${MAX_QUERY_NESTING} levels deep`);
}

// Implements: ESRC-QUERY-009
/**
 * Refuses a tree deeper than MAX_QUERY_NESTING, and a `this` (`.field`) outside a short-form lambda or a projection;
 * walked with a stack of its own, so any depth is measured.
 */
function checkTree(root: Expr): void {
  const stack: Array<[Expr, number, boolean]> = [[root, 1, false]];
  while (stack.length > 0) {
    const [expr, depth, thisBound] = stack.pop()!;
    if (depth > MAX_QUERY_NESTING) throw tooDeep(expr.span);
    if (expr.kind === 'this' && !thisBound) throw fqlErrorAt('invalid_query', expr.span, 'Short form lambdas are not allowed here');
    if (expr.kind === 'lambda') {
      stack.push([expr.body, depth + 1, expr.short || thisBound]);
    } else if (expr.kind === 'projection') {
      stack.push([expr.target, depth + 1, thisBound]);
      for (const field of expr.fields) stack.push([field.value, depth + 1, true]);
    } else {
      for (const child of childrenOf(expr)) stack.push([child, depth + 1, thisBound]);
    }
  }
}
