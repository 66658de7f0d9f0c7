import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HEAP_CEILING_BYTES, heapIsFull } from '../../../../reference-impl/store/heap-room.js';

describe('heapIsFull', () => {
  it('sets the ceiling at 80% of the process heap limit, above what this test process uses', () => {
    expect(HEAP_CEILING_BYTES).toBe(Math.floor(getHeapStatistics().heap_size_limit * 0.8));
    expect(heapIsFull()).toBe(false);
  });

  it('compares the heap in use with the ceiling given', () => {
    expect(heapIsFull(1)).toBe(true);
    expect(heapIsFull(Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
