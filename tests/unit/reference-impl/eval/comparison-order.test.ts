import { describe, expect, it } from 'vitest';
import { compareForComparison } from '../../../../reference-impl/eval/comparison-order.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type Value } from '../../../../reference-impl/values/value.js';

const collectionRef = new Ref('things', new Ref('collections'));

describe('compareForComparison', () => {
  it('orders the types numbers, bytes, strings, arrays, objects, refs, times, dates, lambdas, booleans, null', () => {
    const ascending: Value[] = [
      5n,
      new Bytes(new Uint8Array([1])),
      'a',
      [1n],
      { a: 1n },
      collectionRef,
      new Time(0n),
      new DateValue(0),
      new QueryValue('x', { var: 'x' }),
      false,
      true,
      null,
    ];
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        expect(compareForComparison(ascending[i]!, ascending[j]!), `${i} vs ${j}`).toBe(Math.sign(i - j));
      }
    }
  });

  it('compares integers and decimals as one numeric type', () => {
    expect(compareForComparison(1n, 1)).toBe(0);
    expect(compareForComparison(1n, 1.5)).toBe(-1);
    expect(compareForComparison(2.5, 2n)).toBe(1);
    expect(compareForComparison(-9223372036854775808n, 9223372036854775807n)).toBe(-1);
    // 2^53 + 1 becomes 2^53 as a decimal (round half to even), as Java's long-to-double conversion does.
    expect(compareForComparison(9007199254740993n, 9007199254740992)).toBe(0);
    expect(compareForComparison(9007199254740993n, 9007199254740992n)).toBe(1);
  });

  it('orders decimals as Double.compare: -0.0 before 0.0, NaN after +Infinity', () => {
    expect(compareForComparison(-0, 0)).toBe(-1);
    expect(compareForComparison(0n, -0)).toBe(1);
    expect(compareForComparison(Number.NaN, Number.POSITIVE_INFINITY)).toBe(1);
    expect(compareForComparison(Number.NaN, Number.NaN)).toBe(0);
    expect(compareForComparison(Number.NEGATIVE_INFINITY, -9223372036854775808n)).toBe(-1);
  });

  it('compares arrays element by element with mixed numbers, a prefix first', () => {
    expect(compareForComparison([1n, 2], [1, 2n])).toBe(0);
    expect(compareForComparison([1n], [1n, 0n])).toBe(-1);
    expect(compareForComparison([2n], [1n, 9n])).toBe(1);
  });

  it('compares objects by sorted keys and values, then the one with fewer keys first', () => {
    expect(compareForComparison({ b: 1n, a: 2n }, { a: 2n, b: 1n })).toBe(0);
    expect(compareForComparison({ a: 1n }, { a: 1n, b: 0n })).toBe(-1);
    expect(compareForComparison({ a: 1n, b: 3n }, { a: 2n })).toBe(-1);
  });

  it('compares a set as the object {"@set": structure}', () => {
    const set = new SetRef({ documents: collectionRef });
    expect(compareForComparison(set, { '@set': { documents: collectionRef } })).toBe(0);
    expect(compareForComparison(set, collectionRef)).toBe(-1);
  });
});
