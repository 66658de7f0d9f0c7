import { describe, expect, it } from 'vitest';
import { responseTraceparent } from '../../../../reference-impl/transport/trace-context.js';

const FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/;

describe('responseTraceparent', () => {
  it('keeps the trace id of a valid traceparent (in lower case) with a span id of its own and flags 00', () => {
    const answered = FORMAT.exec(responseTraceparent('00-750EFA5FB6A131EB2CF4DB39F28366CB-5669e71839eca76b-01'));
    expect(answered?.[1]).toBe('750efa5fb6a131eb2cf4db39f28366cb');
    expect(answered?.[2]).not.toBe('5669e71839eca76b');
  });

  it.each([
    ['missing', undefined],
    ['not a traceparent', 'invalidTraceparent'],
    ['all-zero trace id', `00-${'0'.repeat(32)}-5669e71839eca76b-00`],
    ['all-zero span id', `00-750efa5fb6a131eb2cf4db39f28366cb-${'0'.repeat(16)}-00`],
    ['a field of the wrong length', '00-750efa5fb6a131eb2cf4db39f28366cbff-5669e71839eca7-00'],
    ['not hex', '00-750efa5fb6a131eb2cf4db39f28366cg-5669e71839eca76b-00'],
  ])('starts a new trace for a traceparent that is %s', (_, header) => {
    const ids = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const answered = FORMAT.exec(responseTraceparent(header));
      expect(answered).not.toBeNull();
      expect(answered![1]).not.toBe('750efa5fb6a131eb2cf4db39f28366cb');
      ids.add(answered![1]!);
    }
    // 600 draws pass the random pool's refill.
    expect(ids.size).toBe(600);
  });
});
