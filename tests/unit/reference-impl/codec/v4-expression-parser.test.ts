/**
 * `parseExpression` builds expression nodes straight from the text. Its contract: for every body it gives what the
 * long way gives (the text parsed to plain JSON, then turned into nodes): the same tree (kinds, positions, raw JSON,
 * literal values, key order) or the same error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../../reference-impl/codec/v4-ast.js';
import { MAX_EXPRESSION_DEPTH, parseExpression, parseJsonText, toExpr } from '../../../../reference-impl/codec/v4-expression-parser.js';
import { QueryError } from '../../../../reference-impl/errors/query-error.js';

/** A tree as plain data, every part the evaluator can read. */
function shape(expr: Expr): unknown {
  const common = { kind: expr.kind, position: expr.position, raw: expr.raw };
  if (expr.kind === 'literal') return { ...common, value: expr.value };
  if (expr.kind === 'array') return { ...common, items: expr.items.map(shape) };
  return { ...common, fields: [...expr.fields].map(([name, field]) => [name, shape(field)]), size: expr.fields.size };
}

function outcome(parse: (text: string) => Expr, text: string): unknown {
  try {
    return { tree: shape(parse(text)) };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return { error: { code: error.code, description: error.description, position: error.position } };
  }
}

const longWay = (text: string): Expr => {
  if (text.trim() === '') throw new QueryError('invalid expression', 'No query provided.', []);
  return toExpr(parseJsonText(text), []);
};

function agrees(text: string): void {
  expect(outcome(parseExpression, text)).toEqual(outcome(longWay, text));
}

const CASES = [
  '{"create":{"collection":"bench"},"params":{"object":{"data":{"object":{"n":1,"name":"new"}}}}}',
  '{"get":{"@ref":"collections/c/1"}}',
  '{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}',
  '{"@ts":"2020-01-01T00:00:00Z"}',
  '{"@ts":"yesterday"}',
  '{"@date":"2020-01-01"}',
  '{"@bytes":"AQID"}',
  '{"@bytes":"!"}',
  '{"@obj":{"@ref":1,"a":[1,1.0]}}',
  '{"@query":{"lambda":"x","expr":{"var":"x"}}}',
  '{"@query":{"lambda":1,"expr":1}}',
  '{"@set":{"match":{"@ref":"indexes/i"}}}',
  '{"@unknown":1}',
  '{"@ref":"x","b":1}',
  '{"@ref":"collections/c/1","@ref":"collections/c/1"}',
  '{"a":1,"a":1}',
  '{"a":1,"a":2}',
  '{"a":{"x":1},"a":{"x":1}}',
  '{"b":1,"1":2,"a":3,"0":4}',
  '{"01":1,"1a":2}',
  '{"__proto__":{"x":1}}',
  '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"a":1}',
  '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"j":11}',
  '[1, 1.0, 1e3, -0, -7, 9223372036854775807, 9223372036854775808, -9223372036854775809, 0.1]',
  '"\\u00e9\\n"',
  'true',
  'null',
  ' {"let":{"x":1},"in":{"var":"x"}} ',
  '{}',
  '[]',
  '',
  '   ',
  '{',
  '{"a":}',
  '[1,]',
  '{"a":1}}',
  '"\\x"',
  '['.repeat(MAX_EXPRESSION_DEPTH) + ']'.repeat(MAX_EXPRESSION_DEPTH),
  '['.repeat(MAX_EXPRESSION_DEPTH + 1) + ']'.repeat(MAX_EXPRESSION_DEPTH + 1),
  `${'{"a":'.repeat(MAX_EXPRESSION_DEPTH + 1)}1${'}'.repeat(MAX_EXPRESSION_DEPTH + 1)}`,
  `{"@obj":${'['.repeat(MAX_EXPRESSION_DEPTH + 2)}${']'.repeat(MAX_EXPRESSION_DEPTH + 2)}}`,
  '['.repeat(100_000),
];

/** JSON text with what the expression parser treats specially: wire tags, array-index keys, repeated keys, long numbers. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string().map((s) => JSON.stringify(s)),
      fc.constantFrom('true', 'false', 'null', '0', '-0', '1.0', '1e3', '-12', '9223372036854775807', '9223372036854775808', '0.25'),
      fc.bigInt().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    ),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.string(), fc.constantFrom('a', 'b', '0', '7', '01', '__proto__', 'object', 'lambda', 'expr', '@x')),
          tie('value'),
        ),
        { maxLength: 10 },
      )
      .chain((entries) => fc.constantFrom(entries, [...entries, ...entries.slice(0, 1)]))
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    fc
      .tuple(fc.constantFrom('@ref', '@ts', '@date', '@bytes', '@query', '@obj', '@set'), tie('value'))
      .map(([tag, v]) => `{${JSON.stringify(tag)}:${v}}`),
    fc.constantFrom(
      '{"@ref":"collections/c/1"}',
      '{"@ts":"2020-01-01T00:00:00Z"}',
      '{"@query":{"lambda":["a"],"expr":{"var":"a"}}}',
      '{"@set":{"x":1}}',
    ),
  ),
})).value;

const damaged = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '"', '\\', '}', ']', '{', '[', ':', '-', '.', 'e', ' ', '\u0001'))
  .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)));

describe('parseExpression: one pass over the text, the same tree as the long way', () => {
  it.each(CASES.map((text) => [text.length > 60 ? `${text.slice(0, 60)}… (${text.length} chars)` : text, text]))(
    'agrees on %s',
    (_name, text) => {
      agrees(text);
    },
  );

  it('agrees on generated JSON with tags, array-index and repeated keys, and on damaged JSON', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, damaged), (text) => agrees(text)),
      { numRuns: 3000 },
    );
  });

  it('builds raw JSON on request that is the same as the long way kept, a __proto__ key as an own field', () => {
    const expr = parseExpression('{"lambda":"x","expr":{"__proto__":[1,2.5,{"@ts":"2020-01-01T00:00:00Z"}]}}');
    if (expr.kind !== 'object') throw new Error('an object node was expected');
    const body = expr.fields.get('expr')!;
    expect(Object.keys(body.raw as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(body.raw)).toBe(Object.prototype);
    expect(body.raw).toEqual(toExpr(parseJsonText('{"__proto__":[1,2.5,{"@ts":"2020-01-01T00:00:00Z"}]}'), []).raw);
    expect(body.raw).toBe(body.raw);
  });
});
