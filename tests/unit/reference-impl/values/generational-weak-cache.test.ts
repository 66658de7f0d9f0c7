import { describe, expect, it } from 'vitest';
import { GenerationalWeakCache } from '../../../../reference-impl/values/generational-weak-cache.js';

const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('GenerationalWeakCache', () => {
  it('keeps what was set, null values included', () => {
    const cache = new GenerationalWeakCache<object, string | null>(4);
    const [a, b] = keys(2) as [object, object];
    cache.set(a, 'text');
    cache.set(b, null);
    expect(cache.get(a)).toBe('text');
    expect(cache.get(b)).toBeNull();
    expect(cache.get({})).toBeUndefined();
  });

  it('forgets entries two generations old, so it holds at most twice the generation size', () => {
    const cache = new GenerationalWeakCache<object, number>(3);
    const all = keys(7);
    all.forEach((key, i) => {
      cache.set(key, i);
    });
    // Generations: [0 1 2] dropped, [3 4 5] previous, [6] current.
    expect(all.map((key) => cache.get(key))).toEqual([undefined, undefined, undefined, 3, 4, 5, 6]);
  });

  it('moves an entry read from the previous generation forward, so entries still read survive', () => {
    const cache = new GenerationalWeakCache<object, number>(2);
    const [hot, ...rest] = keys(6) as [object, ...object[]];
    cache.set(hot, 0);
    cache.set(rest[0]!, 1);
    // hot is now in the previous generation; reading it copies it into the current one.
    cache.set(rest[1]!, 2);
    expect(cache.get(hot)).toBe(0);
    cache.set(rest[2]!, 3);
    cache.set(rest[3]!, 4);
    expect(cache.get(hot)).toBe(0);
    expect(cache.get(rest[0]!)).toBeUndefined();
  });

  it('refuses a generation size that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => new GenerationalWeakCache(size)).toThrow(RangeError);
  });
});
