import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileOrder, LONG_RUNNING_FILES, seededShuffle } from '../../runner/file-sequencer.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const OTHERS = Array.from({ length: 30 }, (_, i) => `tests/conformance/core/file-${i}.test.ts`);

describe('the order conformance files start in', () => {
  it('names only files that exist, so a renamed file is not silently left to the shuffle', () => {
    for (const file of LONG_RUNNING_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('starts the long-running files first, in their listed order, then every other file once', () => {
    const paths = [...OTHERS.slice(0, 10), LONG_RUNNING_FILES[2]!, ...OTHERS.slice(10), LONG_RUNNING_FILES[0]!];
    const order = fileOrder(paths, 7);
    expect(order.slice(0, 2)).toEqual([LONG_RUNNING_FILES[0], LONG_RUNNING_FILES[2]]);
    expect([...order].sort()).toEqual([...paths].sort());
  });

  it('shuffles the rest by the seed: the same seed gives the same order, other seeds other orders', () => {
    expect(fileOrder(OTHERS, 42)).toEqual(fileOrder(OTHERS, 42));
    const orders = new Set([1, 2, 3, 4, 5].map((seed) => fileOrder(OTHERS, seed).join()));
    expect(orders.size).toBeGreaterThan(1);
    expect(fileOrder(OTHERS, 1)).not.toEqual(OTHERS);
  });

  it('shuffles short lists too', () => {
    expect(seededShuffle([], 1)).toEqual([]);
    expect(seededShuffle(['a'], 1)).toEqual(['a']);
    expect(new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => seededShuffle(['a', 'b', 'c'], seed).join())).size).toBeGreaterThan(1);
  });
});
