import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../../reference-impl/errors/query-error.js';
import { QueryLimits, requestLimits } from '../../../../reference-impl/eval/query-limits.js';
import { functionTimeLimit, withinTimeLimit } from '../../../../reference-impl/eval/time-limit.js';

/** Steps until the deadline throws, reading the clock as `step` does; undefined when `max` steps all pass. */
function stepsUntilTimeout(deadline: QueryLimits, max: number): ProtocolError | undefined {
  for (let i = 0; i < max; i++) {
    try {
      deadline.step();
    } catch (error) {
      return error as ProtocolError;
    }
  }
  return undefined;
}

/** Lets `ms` of wall time pass without the event loop (the deadline reads performance.now). */
function busyFor(ms: number): void {
  for (const until = performance.now() + ms; performance.now() < until; );
}

describe('QueryLimits', () => {
  it('lets a query step freely before its deadline', () => {
    expect(stepsUntilTimeout(new QueryLimits(60_000), 10_000)).toBeUndefined();
  });

  it('throws 503 time out within a few hundred steps once the deadline has passed, and at every step after', () => {
    const deadline = new QueryLimits(5);
    busyFor(10);
    const error = stepsUntilTimeout(deadline, 1000);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ status: 503, code: 'time out', description: 'Read timed out (Query eval has timed out.)' });
    expect(() => deadline.step()).toThrow(ProtocolError);
  });

  it('keeps a function time limit shorter than the time left', () => {
    const limit = functionTimeLimit(50);
    expect(new QueryLimits(60_000).bound(limit)).toBe(limit);
  });

  it('shortens a function time limit to the time left, and a function stopped then answers the query timeout', () => {
    const bounded = new QueryLimits(40).bound(functionTimeLimit(60_000));
    expect(bounded.ms).toBeLessThanOrEqual(40);
    let error: unknown;
    try {
      withinTimeLimit('A loop', bounded, () => {
        for (;;);
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ status: 503, code: 'time out' });
  });

  it('answers the query timeout at once when no time is left for a function', () => {
    const deadline = new QueryLimits(1);
    busyFor(5);
    expect(() => deadline.bound(functionTimeLimit(1000))).toThrow(expect.objectContaining({ status: 503 }));
  });
});

describe('QueryLimits: memory', () => {
  it('refuses a query with 400 bad request once the heap in use passes the ceiling, reading it every 16 forms', () => {
    const limits = new QueryLimits(60_000, 1);
    let error: unknown;
    let steps = 0;
    try {
      for (; steps < 100; steps++) limits.step();
    } catch (caught) {
      error = caught;
    }
    expect(steps).toBe(15);
    expect(error).toMatchObject({ status: 400, code: 'bad request' });
  });

  it('lets a query build values while the heap is below the ceiling', () => {
    expect(stepsUntilTimeout(new QueryLimits(60_000, Number.MAX_SAFE_INTEGER), 10_000)).toBeUndefined();
  });
});

describe('requestLimits', () => {
  it('takes the x-query-timeout milliseconds when shorter than the server limit, else the server limit', () => {
    const limit = functionTimeLimit(60_000);
    expect(requestLimits(40, 10_000).limitMs).toBe(40);
    expect(requestLimits(40, 10_000).bound(limit).ms).toBeLessThanOrEqual(40);
    expect(requestLimits(600_000, 30).bound(limit).ms).toBeLessThanOrEqual(30);
    expect(requestLimits(undefined, 30).bound(limit).ms).toBeLessThanOrEqual(30);
    expect(requestLimits(undefined, 120_000).bound(limit)).toBe(limit);
  });
});
