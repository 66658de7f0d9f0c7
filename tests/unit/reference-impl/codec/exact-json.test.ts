import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../../../reference-impl/codec/exact-json.js';

/** Numbers as tagged source text, so both parsers' results compare exactly. */
const tagged = (token: string, integer: boolean) => `${integer ? 'int' : 'dec'}:${token}`;
const exact = (text: string) => parseExactJson(text, tagged);
const lossless = (text: string) => parseLossless(text, null, (token: string) => `${/^-?\d+$/.test(token) ? 'int' : 'dec'}:${token}`);

/** The outcome of a parse: its value, or that it failed. */
function outcome(parse: (text: string) => unknown, text: string): { value: unknown } | 'invalid' {
  try {
    return { value: parse(text) };
  } catch (error) {
    if (error instanceof SyntaxError) return 'invalid';
    throw error;
  }
}

const EDGE_CASES = [
  '1',
  '-0',
  '0.5',
  '1.0',
  '1e3',
  '1E+3',
  '-1.5e-7',
  '01',
  '-',
  '1.',
  '.5',
  '1e',
  '+1',
  '--1',
  '9223372036854775808',
  '"a"',
  '""',
  '"\\u00e9\\n\\t\\/\\"\\\\"',
  '"\\x"',
  '"\\u12"',
  '"\\u12G4"',
  '"tab\there"',
  '"unterminated',
  '"\\',
  '[]',
  '[ ]',
  '[1,]',
  '[,1]',
  '[1 2]',
  '[1,,2]',
  '{}',
  '{ }',
  '{"a":1,}',
  '{"a" 1}',
  '{a:1}',
  '{"a":1 "b":2}',
  '{"a":1,"a":1}',
  '{"a":1,"a":2}',
  '{"a":[1],"a":{"0":1}}',
  '{"a":{"x":1},"a":{"x":1,"y":2}}',
  '{"__proto__":{"x":1}}',
  'true',
  'false',
  'null',
  'nul',
  'truex',
  ' \n\t\r1 \n',
  '',
  '   ',
  '\u00a01',
  '1 2',
  '[1]]',
  '{"a":1}}',
  'NaN',
  'Infinity',
];

describe('parseExactJson', () => {
  it.each(EDGE_CASES)('agrees with lossless-json on %j', (text) => {
    expect(outcome(exact, text)).toEqual(outcome(lossless, text));
  });

  it('keeps a __proto__ key as an own property, like JSON.parse', () => {
    const parsed = exact('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('agrees with lossless-json on generated JSON and on damaged JSON', () => {
    const json = fc.tuple(fc.jsonValue(), fc.boolean()).map(([v, indented]) => JSON.stringify(v, null, indented ? 1 : 0));
    const damaged = fc
      .tuple(json, fc.nat(), fc.constantFrom('', ',', '"', '\\', '}', ']', '-', '.', 'e', ' ', '\u0001', 'u'))
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)));
    fc.assert(
      fc.property(fc.oneof(json, damaged, fc.string()), (text) => {
        expect(outcome(exact, text)).toEqual(outcome(lossless, text));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses deep nesting with an error rather than crashing', () => {
    expect(() => exact('['.repeat(200_000))).toThrow();
  });
});
