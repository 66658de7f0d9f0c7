// parseWireJson reads long strings with JSON.parse and the rest with lossless-json: the answer must be what
// lossless-json alone reads (integers as bigint, decimals as numbers), whatever the strings hold.
import fc from 'fast-check';
import { isInteger, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseWireJson } from '../../harness/wire-json.js';

const lossless = (text: string) => parse(text, null, (digits) => (isInteger(digits) ? BigInt(digits) : Number.parseFloat(digits)));

describe('parseWireJson', () => {
  it('reads long strings, escapes and all, and keeps numbers exact', () => {
    const long = `a"b\\c\u0000é😀`.repeat(2_000);
    const text = `{"n":9007199254740993,"d":1.5,"s":${JSON.stringify(long)},"list":[${JSON.stringify(`${long}\\`)},2],${JSON.stringify('k'.repeat(5_000))}:true,"__proto__":${JSON.stringify(long)}}`;
    const value = parseWireJson(text) as Record<string, unknown>;
    expect(value.n).toBe(9007199254740993n);
    expect(value.d).toBe(1.5);
    expect(value.s).toBe(long);
    expect(value.list).toEqual([`${long}\\`, 2n]);
    expect(value['k'.repeat(5_000)]).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(long);
  });

  it('answers what lossless-json answers for any JSON holding long strings', () => {
    const longString = fc.string({ unit: 'binary', minLength: 4_000, maxLength: 6_000 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        longString,
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), longString), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v);
        expect(parseWireJson(text)).toEqual(lossless(text));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses what is not JSON, as lossless-json does', () => {
    for (const text of [`{"s":"${'x'.repeat(5_000)}`, `{"s":"${'x'.repeat(5_000)}",}`, `["${'x'.repeat(5_000)}\u0001"]`]) {
      expect(() => parseWireJson(text)).toThrow(SyntaxError);
    }
  });
});
