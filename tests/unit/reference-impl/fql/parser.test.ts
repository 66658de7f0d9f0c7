import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../../reference-impl/fql/ast.js';
import { FqlError } from '../../../../reference-impl/fql/fql-error.js';
import { parseQuery } from '../../../../reference-impl/fql/parser.js';
import type { QueryInput } from '../../../../reference-impl/fql/query-input.js';
import { Ref, Time } from '../../../../reference-impl/values/value.js';

/** A compact rendering of a tree, so expectations read like the query. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return typeof e.value === 'string'
        ? JSON.stringify(e.value)
        : e.value instanceof Ref
          ? `ref(${e.value.toPath()})`
          : e.value instanceof Time
            ? 'time'
            : String(e.value);
    case 'template':
      return `\`${e.parts.map((p) => (typeof p === 'string' ? p : `#{${show(p)}}`)).join('')}\``;
    case 'identifier':
      return e.name;
    case 'this':
      return '';
    case 'member':
      return `${show(e.target)}${e.optional ? '?.' : '.'}${e.name}`;
    case 'index':
      return `${show(e.target)}${e.optional ? '?.' : ''}[${show(e.index)}]`;
    case 'call':
      return `${show(e.callee)}${e.optional ? '?.' : ''}(${e.args.map(show).join(', ')})`;
    case 'non-null':
      return `${show(e.target)}!`;
    case 'unary':
      return `(${e.operator}${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.operator} ${show(e.right)})`;
    case 'lambda':
      return e.short ? show(e.body) : `(${e.params.map((p) => p ?? '_').join(', ')}) => ${show(e.body)}`;
    case 'array':
      return `[${e.elements.map(show).join(', ')}]`;
    case 'object':
      return `{${e.entries.map((x) => `${x.key}: ${show(x.value)}`).join(', ')}}`;
    case 'block':
      return e.statements.length === 1 && e.statements[0]?.kind === 'expr'
        ? show(e.statements[0].expr)
        : `{ ${e.statements.map((st) => (st.kind === 'let' ? `let ${st.name} = ${show(st.value)}` : show(st.expr))).join('; ')} }`;
    case 'if':
      return `if (${show(e.condition)}) ${show(e.then)}${e.otherwise ? ` else ${show(e.otherwise)}` : ''}`;
    case 'at':
      return `at (${show(e.time)}) ${show(e.body)}`;
    case 'projection':
      return `${show(e.target)} {${e.fields.map((f) => `${f.name}: ${show(f.value)}`).join(', ')}}`;
  }
}

/** The one expression of a one-statement query. */
function only(e: Expr): Expr {
  return e.kind === 'block' && e.statements.length === 1 && e.statements[0]?.kind === 'expr' ? e.statements[0].expr : e;
}

function parseError(input: QueryInput): FqlError {
  try {
    parseQuery(input);
  } catch (error) {
    if (error instanceof FqlError) return error;
    throw error;
  }
  throw new Error('expected a syntax error');
}

describe('FQL v10 parser', () => {
  it.each([
    ['Product.all().eventSource()', 'Product.all().eventSource()'],
    ['Product.where(.price > 10 && .stock != 0)', 'Product.where(((.price > 10) && (.stock != 0)))'],
    ['Product.where(p => p.a.b == "x" || !p.c)', 'Product.where((p) => ((p.a.b == "x") || (!p.c)))'],
    ['Product.where((p) => p.a <= 1.5)', 'Product.where((p) => (p.a <= 1.5))'],
    ['Set.single(Product.byId("123")).eventsOn(.price, .stock)', 'Set.single(Product.byId("123")).eventsOn(.price, .stock)'],
    ['Product.all() { name, price: .price.amount }', 'Product.all() {name: .name, price: .price.amount}'],
    [
      'Product.byCategory("tools").map(x => { n: x.name, tags: [1, -2, true, null] })',
      'Product.byCategory("tools").map((x) => {n: x.name, tags: [1, -2, true, null]})',
    ],
    ['a < b == c >= d', '((a < b) == (c >= d))'],
    ['(a || b) && c', '((a || b) && c)'],
    ['x?.y[0]["z"]', 'x?.y[0]["z"]'],
    ['() => 1', '() => 1'],
    ['Coll.all() // trailing comment\n/* block */ .eventSource()', 'Coll.all().eventSource()'],
    ['1 + 2 * 3 - 4 / 2 % 3', '((1 + (2 * 3)) - ((4 / 2) % 3))'],
    ['2 ** 3 ** 2', '(2 ** (3 ** 2))'],
    ['a ?? b || c', '(a ?? (b || c))'],
    ['x isa String', '(x isa String)'],
    ['let x = 1\nx + 1', '{ let x = 1; (x + 1) }'],
    ['let x = 1; x', '{ let x = 1; x }'],
    ['if (a) b else c', 'if (a) b else c'],
    ['if (a) { b }', 'if (a) b'],
    ['{ x }', 'x'],
    ['{}', '{}'],
    ['{ "a b": 1 }', '{a b: 1}'],
    ['Coll.byId("1")!.delete()', 'Coll.byId("1")!.delete()'],
    ['f?.(1)', 'f?.(1)'],
    ['xs.forEach(.delete())', 'xs.forEach(.delete())'],
    ['xs.map(_ => 1)', 'xs.map((_) => 1)'],
    ['"a#{1 + 1}b"', '`a#{(1 + 1)}b`'],
    ['a\n(b)', '{ a; b }'],
    ['a\n-1', '{ a; -1 }'],
    ['a\n  .b', 'a.b'],
    ['a\n  || b', '(a || b)'],
    ['at (t) x', 'at (t) x'],
    ['0x1F + 0b11 + 0o7', '((31 + 3) + 7)'],
  ])('parses %s', (text, expected) => {
    expect(show(parseQuery(text))).toBe(expected);
  });

  it('decodes string escapes in both quote styles', () => {
    const e = only(parseQuery(String.raw`["a\"b\n", 'it\'s', "\u00e9\u{1F600}\\"]`));
    expect(e.kind === 'array' && e.elements.map((x) => (x.kind === 'literal' ? x.value : undefined))).toEqual(['a"b\n', "it's", 'é😀\\']);
  });

  it('reads integers as bigints (64-bit range enforced) and decimals as numbers', () => {
    const e = only(parseQuery('[9223372036854775807, -9223372036854775808, 1.0, 2.5e3, 1_000]'));
    expect(e.kind === 'array' && e.elements.map((x) => (x.kind === 'literal' ? x.value : undefined))).toEqual([
      9223372036854775807n,
      -9223372036854775808n,
      1,
      2500,
      1000n,
    ]);
    expect(parseError('9223372036854775808').detail).toBe('Integer literal does not fit in 64 bits');
  });

  it('records line, column, offset and span of every node', () => {
    const e = only(parseQuery('Product\n  .where(.a == 1)'));
    expect(e.kind).toBe('call');
    if (e.kind !== 'call') return;
    expect(e.span).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 2, column: 18, offset: 25 } });
    const arg = e.args[0] as Expr;
    expect(arg.kind).toBe('lambda');
    expect(arg.span.start).toEqual({ line: 2, column: 10, offset: 17 });
    expect(arg.span.end).toEqual({ line: 2, column: 17, offset: 24 });
  });

  it.each([
    ['Product.all(', '1:13', 'Unexpected end of query'],
    ['Product.all())', '1:14', 'Unexpected `)`'],
    ['Product.where(.a = 1)', '1:18', 'Expected `)` to close the argument list, found `=`'],
    ['Product.\n  where(.a == "x)', '2:15', 'unterminated string literal'],
    ['"bad \\q escape"', '1:6', 'invalid escape `\\q` in string literal'],
    ['Product.all() { a: }', '1:20', 'Unexpected `}`'],
    ['{ a: 1, a: 2 }', '1:9', 'Duplicate object key `a`'],
    ['Product.12', '1:9', 'Expected a field name after `.`, found a number'],
    ['let x = 1', '1:10', 'Missing return value: the block ends with a `let` statement, not an expression'],
    ['{ let x = 5 }', '1:13', 'Missing return value: the block ends with a `let` statement, not an expression'],
    ['/* open', '1:1', 'unterminated `/*` comment'],
    ['12abc', '1:1', 'invalid number literal `12a`'],
    ['(a, b) == 1', '1:3', 'Expected `)` to close the parenthesis, found `,`'],
    ['1 2', '1:3', 'Unexpected a number'],
    ['.a', '1:1', 'Short form lambdas are not allowed here'],
    ['let if = 1\n2', '1:5', 'Invalid identifier `if`'],
    ['', '1:1', 'Unexpected end of query'],
  ])('rejects %j with a positioned invalid_query error', (text, position, detail) => {
    const error = parseError(text);
    expect(error.code).toBe('invalid_query');
    expect(error.message).toBe('The query failed 1 validation check');
    expect(error.detail).toBe(detail);
    expect(`${error.span?.start.line}:${error.span?.start.column}`).toBe(position);
  });

  describe('fragment queries', () => {
    it('turns interpolated values into literal nodes (tagged decoding)', () => {
      const e = only(
        parseQuery({
          fql: ['Product.where(.price > ', { value: { '@int': '10' } }, ' && .at < ', { value: { '@time': '2024-01-01T00:00:00Z' } }, ')'],
        }),
      );
      expect(show(e)).toBe('Product.where(((.price > 10) && (.at < time)))');
      if (e.kind !== 'call') throw new Error('expected a call');
      const lambda = e.args[0];
      const arg = lambda?.kind === 'lambda' ? lambda.body : undefined;
      if (arg?.kind !== 'binary' || arg.right.kind !== 'binary' || arg.right.right.kind !== 'literal') throw new Error('shape');
      expect(arg.right.right.value).toEqual(Time.fromMicros(1704067200000000n));
      expect(arg.right.right.interpolated).toBe(true);
    });

    it('flattens nested fragments and continues positions across text pieces', () => {
      const error = parseError({ fql: ['Product', { fql: ['.where(.a == ', { value: 'x' }] }, ' ==)'] });
      expect(error.detail).toBe('Unexpected `)`');
      expect(error.span?.start).toEqual({ line: 1, column: 24, offset: 23 });
    });

    it('parses object and array pieces as expressions', () => {
      const e = parseQuery({
        fql: [
          'Product.where(.tags == ',
          { array: [{ value: 'a' }, { fql: ['"b"'] }] },
          ' && .o == ',
          { object: { k: { value: { '@long': '5' } } } },
          ')',
        ],
      });
      expect(show(e)).toBe('Product.where(((.tags == ["a", "b"]) && (.o == {k: 5})))');
    });

    it('interpolates a document ref so that Set.single can take it', () => {
      const e = parseQuery({ fql: ['Set.single(', { value: { '@ref': { id: '7', coll: { '@mod': 'Product' } } } }, ')'] });
      expect(show(e)).toBe('Set.single(ref(collections/Product/7))');
    });

    it.each([
      [{ fql: 'Product' }, 'Invalid request body: `query` must be a string or an object {"fql": [...]}.'],
      [
        { fql: [42] },
        'Invalid request body: query.fql[0] must be a string, {"value": …}, {"fql": [...]}, {"object": {...}} or {"array": [...]}.',
      ],
      [
        { fql: [{ value: { '@int': '2147483648' } }] },
        'Invalid request body: query.fql[0].value.@int: 2147483648 does not fit in a 32-bit integer',
      ],
      [
        { fql: [{ object: { k: 'raw text' } }] },
        'Invalid request body: query.fql[0].object.k must be a string, {"value": …}, {"fql": [...]}, {"object": {...}} or {"array": [...]}.',
      ],
    ])('rejects malformed fragment %j as invalid_request', (input, message) => {
      const error = parseError(input as QueryInput);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toBe(message);
    });
  });
});
