/**
 * A cache keyed by objects and bounded by count, for texts and refs the codec and listings keep so that hot
 * documents are not rendered again on every read. Entries go into the current generation; once it holds
 * `generationSize` entries it becomes the previous one, and the generation before that is dropped whole. A hit in
 * the previous generation moves the entry forward, so what is still read stays. Memory is therefore bounded by
 * what was used recently (at most two generations), not by how much of the database was ever read.
 *
 * Both generations are WeakMaps: a key that is no longer referenced elsewhere (a document version no longer
 * stored) takes its entry with it, and a hit costs one WeakMap lookup, as an unbounded cache's did. (LRU caches from npm
 * hold their keys strongly and cost about twice as much per hit.)
 */
export class GenerationalWeakCache<K extends object, V extends NonNullable<unknown> | null> {
  private current = new WeakMap<K, V>();
  private previous = new WeakMap<K, V>();
  private count = 0;

  constructor(private readonly generationSize: number) {
    if (!Number.isSafeInteger(generationSize) || generationSize < 1) throw new RangeError('generation size must be a positive integer');
  }

  /** The value kept for `key`, or undefined (values are never undefined themselves). */
  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const kept = this.previous.get(key);
    if (kept !== undefined) this.set(key, kept);
    return kept;
  }

  set(key: K, value: V): void {
    if (this.count >= this.generationSize) {
      this.previous = this.current;
      this.current = new WeakMap();
      this.count = 0;
    }
    this.current.set(key, value);
    this.count++;
  }
}

/** The generation size of the codec's and the listings' caches: at most twice this many entries each. */
export const KEPT_ENTRIES_PER_GENERATION = 32_768;
