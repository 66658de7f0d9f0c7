// Values that share their parts (Reduce nesting [acc, acc]) are tiny in memory and exponential when walked: the
// comparisons remember pairs found equal, and index keys refuse them, so none of them holds the server.
import { describe, expect, it } from 'vitest';
import { compareForComparison } from '../../../../reference-impl/eval/comparison-order.js';
import { valuesEqual } from '../../../../reference-impl/eval/value-equality.js';
import { valueKey } from '../../../../reference-impl/indexes/index-store.js';
import { doubled } from '../shared-value.js';

describe('comparisons of values that share their parts', () => {
  it('finds two separately built values of 2^50 leaves equal, arrays and objects alike', () => {
    expect(valuesEqual(doubled([], 50), doubled([], 50))).toBe(true);
    expect(valuesEqual(doubled(1n, 50, 'object'), doubled(1n, 50, 'object'))).toBe(true);
    expect(compareForComparison(doubled([], 50), doubled([], 50))).toBe(0);
    expect(compareForComparison(doubled(1n, 50, 'object'), doubled(1n, 50, 'object'))).toBe(0);
  });

  it('still tells them apart by their leaves and their shapes', () => {
    expect(valuesEqual(doubled(1n, 50), doubled(2n, 50))).toBe(false);
    expect(compareForComparison(doubled(1n, 50), doubled(2n, 50))).toBe(-1);
    expect(valuesEqual(doubled(1n, 50), doubled(1n, 49))).toBe(false);
    // The difference is in the last pair compared, after many pairs have been remembered equal.
    const left = doubled(1n, 20);
    const right = [doubled(1n, 19), [doubled(1n, 18), doubled(2n, 18)]];
    expect(valuesEqual(left, right)).toBe(false);
    expect(compareForComparison(left, right)).toBe(-1);
  });

  it('compares small values as before, decimals and integers included', () => {
    expect(valuesEqual([1n, { a: 'x' }], [1n, { a: 'x' }])).toBe(true);
    expect(valuesEqual([1n], [1])).toBe(false);
    expect(compareForComparison([1n, 2.5], [1, 2.5])).toBe(0);
  });
});

describe('index keys of values that share their parts', () => {
  it('refuses a value of more parts than any stored term holds with 400 invalid argument', () => {
    expect(() => valueKey(doubled([], 40))).toThrow(
      expect.objectContaining({ code: 'invalid argument', description: 'The value is too large to be an index term.' }),
    );
  });

  it('keys a value within the bound as before', () => {
    expect(valueKey(doubled(1n, 2))).toBe('[[i1,i1],[i1,i1]]');
  });
});
