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
      return typeof e.value === 'string' ? JSON.stringify(e.value) : e.value instanceof Ref ? `ref(${e.value.toPath()})` : e.value instanceof Time ? 'time' : String(e.value);
    case 'identifier':
      return e.name;
    case 'implicit-field':
      return `.${e.name}`;
    case 'member':
      return `${show(e.target)}${e.optional ? '?.' : '.'}${e.name}`;
    case 'index':
      return `${show(e.target)}[${show(e.index)}]`;
    case 'call':
      return `${show(e.callee)}(${e.args.map(show).join(', ')})`;
    case 'unary':
      return `(${e.operator}${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.operator} ${show(e.right)})`;
    case 'lambda':
      return `(${e.params.join(', ')}) => ${show(e.body)}`;
    case 'array':
      return `[${e.elements.map(show).join(', ')}]`;
    case 'object':
      return `{${e.entries.map((x) => `${x.key}: ${show(x.value)}`).join(', ')}}`;
    case 'projection':
      return `${show(e.target)} {${e.fields.map((f) => (f.kind === 'copy' ? f.name : f.kind === 'computed' ? `${f.name}: ${show(f.value)}` : `${f.name} {…}`)).join(', ')}}`;
  }
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

describe('FQL subset parser', () => {
  it.each([
    ['Product.all().eventSource()', 'Product.all().eventSource()'],
    ['Product.where(.price > 10 && .stock != 0)', 'Product.where(((.price > 10) && (.stock != 0)))'],
    ['Product.where(p => p.a.b == "x" || !p.c)', 'Product.where((p) => ((p.a.b == "x") || (!p.c)))'],
    ['Product.where((p) => p.a <= 1.5)', 'Product.where((p) => (p.a <= 1.5))'],
    ['Set.single(Product.byId("123")).eventsOn(.price, .stock)', 'Set.single(Product.byId("123")).eventsOn(.price, .stock)'],
    ['Product.all() { name, price: .price.amount }', 'Product.all() {name, price: .price.amount}'],
    ['Product.byCategory("tools").map(x => { n: x.name, tags: [1, -2, true, null] })', 'Product.byCategory("tools").map((x) => {n: x.name, tags: [1, -2, true, null]})'],
    ['a < b == c >= d', '((a < b) == (c >= d))'],
    ['(a || b) && c', '((a || b) && c)'],
    ['x?.y[0]["z"]', 'x?.y[0]["z"]'],
    ['() => 1', '() => 1'],
    ['Coll.all() // trailing comment\n/* block */ .eventSource()', 'Coll.all().eventSource()'],
  ])('parses %s', (text, expected) => {
    expect(show(parseQuery(text))).toBe(expected);
  });

  it('decodes string escapes in both quote styles', () => {
    const e = parseQuery(String.raw`["a\"b\n", 'it\'s', "\u00e9\u{1F600}\\"]`);
    expect(e.kind === 'array' && e.elements.map((x) => (x.kind === 'literal' ? x.value : undefined))).toEqual([
      'a"b\n', "it's", 'é😀\\',
    ]);
  });

  it('reads integers as bigints (64-bit range enforced) and decimals as numbers', () => {
    const e = parseQuery('[9223372036854775807, -9223372036854775808, 1.0, 2.5e3, 1_000]');
    expect(e.kind === 'array' && e.elements.map((x) => (x.kind === 'literal' ? x.value : undefined))).toEqual([
      9223372036854775807n, -9223372036854775808n, 1, 2500, 1000n,
    ]);
    expect(parseError('9223372036854775808').message).toBe('1:1: integer literal does not fit in 64 bits');
  });

  it('records line, column, offset and span of every node', () => {
    const e = parseQuery('Product\n  .where(.a == 1)');
    expect(e.kind).toBe('call');
    if (e.kind !== 'call') return;
    expect(e.span).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 2, column: 18, offset: 25 } });
    const arg = e.args[0] as Expr;
    expect(arg.span.start).toEqual({ line: 2, column: 10, offset: 17 });
    expect(arg.span.end).toEqual({ line: 2, column: 17, offset: 24 });
  });

  it.each([
    ['Product.all(', '1:13: expected an expression, found the end of the query'],
    ['Product.all())', '1:14: unexpected `)` after the end of the expression'],
    ['Product.where(.a = 1)', '1:18: `=` is not supported by this FQL subset'],
    ['Product.where(.a == 1 + 2)', '1:23: `+` is not supported by this FQL subset'],
    ['Product.\n  where(.a == "x)', '2:15: unterminated string literal'],
    ['"bad \\q escape"', '1:6: invalid escape `\\q` in string literal'],
    ['"#{x}"', '1:2: string interpolation `#{…}` is not supported by this FQL subset; use `\\#` for a literal `#`'],
    ['Product.all() { a: }', '1:20: expected an expression, found `}`'],
    ['{ a: 1, a: 2 }', '1:9: duplicate object key `a`'],
    ['Product.12', '1:9: expected a name after `.`, found a number'],
    ['let x = 1', '1:1: `let` is not supported by this FQL subset'],
    ['/* open', '1:1: unterminated `/*` comment'],
    ['12abc', '1:1: invalid number literal `12a`'],
    ['(a, b) == 1', '1:3: expected `)` to close the parenthesis, found `,`'],
  ])('rejects %j with a positioned invalid_query error', (text, message) => {
    const error = parseError(text);
    expect(error.code).toBe('invalid_query');
    expect(error.message).toBe(message);
    expect(error.span?.start.line).toBe(Number(message.split(':')[0]));
  });

  describe('fragment queries', () => {
    it('turns interpolated values into literal nodes (tagged decoding)', () => {
      const e = parseQuery({
        fql: ['Product.where(.price > ', { value: { '@int': '10' } }, ' && .at < ', { value: { '@time': '2024-01-01T00:00:00Z' } }, ')'],
      });
      expect(show(e)).toBe('Product.where(((.price > 10) && (.at < time)))');
      if (e.kind !== 'call') throw new Error('expected a call');
      const arg = e.args[0];
      if (arg?.kind !== 'binary' || arg.right.kind !== 'binary' || arg.right.right.kind !== 'literal') throw new Error('shape');
      expect(arg.right.right.value).toEqual(Time.fromMicros(1704067200000000n));
      expect(arg.right.right.interpolated).toBe(true);
    });

    it('flattens nested fragments and continues positions across text pieces', () => {
      const error = parseError({ fql: ['Product', { fql: ['.where(.a == ', { value: 'x' }] }, ' ==)'] });
      expect(error.message).toBe('1:24: expected an expression, found `)`');
    });

    it('parses object and array pieces as expressions', () => {
      const e = parseQuery({
        fql: ['Product.where(.tags == ', { array: [{ value: 'a' }, { fql: ['"b"'] }] }, ' && .o == ', { object: { k: { value: { '@long': '5' } } } }, ')'],
      });
      expect(show(e)).toBe('Product.where(((.tags == ["a", "b"]) && (.o == {k: 5})))');
    });

    it('interpolates a document ref so that Set.single can take it', () => {
      const e = parseQuery({ fql: ['Set.single(', { value: { '@ref': { id: '7', coll: { '@mod': 'Product' } } } }, ')'] });
      expect(show(e)).toBe('Set.single(ref(collections/Product/7))');
    });

    it.each([
      [{ fql: 'Product' }, 'Invalid request body: `query` must be a string or an object {"fql": [...]}.'],
      [{ fql: [42] }, 'Invalid request body: query.fql[0] must be a string, {"value": …}, {"fql": [...]}, {"object": {...}} or {"array": [...]}.'],
      [{ fql: [{ value: { '@int': '2147483648' } }] }, 'Invalid request body: query.fql[0].value.@int: 2147483648 does not fit in a 32-bit integer'],
      [{ fql: [{ object: { k: 'raw text' } }] }, 'Invalid request body: query.fql[0].object.k must be a string, {"value": …}, {"fql": [...]}, {"object": {...}} or {"array": [...]}.'],
    ])('rejects malformed fragment %j as invalid_request', (input, message) => {
      const error = parseError(input as QueryInput);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toBe(message);
    });
  });
});
