import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HEAP_CEILING_BYTES, HEAP_READING_MS, heapIsFull } from '../../../../reference-impl/store/heap-room.js';

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

describe('heapIsFull: readings of the heap in use', () => {
  it('reads the heap again once HEAP_READING_MS has passed: a heap that grew past the ceiling is seen', () => {
    const before = getHeapStatistics().used_heap_size;
    expect(heapIsFull(before + 64 * 1024 * 1024)).toBe(false);
    // 48 MiB on the JS heap (not external memory, as a Buffer's would be): arrays of doubles.
    const grown = Array.from({ length: 48 }, () => new Array<number>(128 * 1024).fill(0.5));
    const deadline = performance.now() + HEAP_READING_MS;
    while (performance.now() <= deadline);
    expect(heapIsFull(before + 32 * 1024 * 1024)).toBe(true);
    expect(grown.length).toBe(48);
  });
});
