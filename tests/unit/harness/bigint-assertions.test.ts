import { getMessageAndTraceFromError } from 'allure-js-commons/sdk';
import { describe, expect, it } from 'vitest';
import { holdsBigInt, installBigIntAssertionOperands } from '../../harness/bigint-assertions.js';

installBigIntAssertionOperands();

function failureOf(assertion: () => unknown): Error & { actual?: unknown; expected?: unknown } {
  try {
    assertion();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the assertion did not fail');
}

describe('BigInt operands of failing assertions', () => {
  it('finds a BigInt at any depth of arrays, objects, Maps and Sets', () => {
    expect([1n, { a: [2n] }, new Map([['k', 3n]]), new Set([4n])].map((v) => holdsBigInt(v))).toEqual([true, true, true, true]);
    expect([1, 'x', null, undefined, { a: [1.5] }, new Map([['k', 'v']])].map((v) => holdsBigInt(v))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(holdsBigInt(cyclic)).toBe(false);
  });

  it('allure cannot record raw BigInt operands (the reason for the wrapping)', () => {
    expect(() =>
      getMessageAndTraceFromError({ name: 'AssertionError', message: 'm', actual: { a: 1n }, expected: { a: 2n } } as Error),
    ).toThrow(/BigInt/);
  });

  it('a failing toEqual over BigInt values keeps its message and carries printed operands allure can record', () => {
    const error = failureOf(() => expect({ a: 1n, b: [2n] }).toEqual({ a: 2n, b: [2n] }));
    expect(error.message).toBe('expected { a: 1n, b: [ 2n ] } to deeply equal { a: 2n, b: [ 2n ] }');
    expect(error.actual).toBe('{\n  a: 1n,\n  b: [\n    2n\n  ]\n}');
    expect(error.expected).toBe('{\n  a: 2n,\n  b: [\n    2n\n  ]\n}');
    expect(getMessageAndTraceFromError(error)).toMatchObject({ actual: error.actual, expected: error.expected });
    expect(error.stack).not.toContain('bigint-assertions.ts');
  });

  it('matchers that throw their own error (toMatchObject) are covered too', () => {
    const error = failureOf(() => expect({ a: 1n, b: 'same' }).toMatchObject({ a: 2n }));
    expect([error.actual, error.expected]).toEqual(['{\n  a: 1n\n}', '{\n  a: 2n\n}']);
  });

  it('a rejected .resolves assertion is fixed before anyone awaits it', async () => {
    const error = await expect(Promise.resolve({ a: 1n }))
      .resolves.toEqual({ a: 2n })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { actual?: unknown },
      );
    expect(error?.actual).toBe('{\n  a: 1n\n}');
  });

  it('operands without BigInt stay as they are', () => {
    const error = failureOf(() => expect({ a: 1 }).toEqual({ a: 2 }));
    expect([error.actual, error.expected]).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
