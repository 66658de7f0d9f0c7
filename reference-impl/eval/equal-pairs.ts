/**
 * Pairs of arrays or objects found equal during one comparison of two values. Values that share their parts (Reduce
 * nesting `[acc, acc]` forty times: forty arrays, 2^40 leaves when walked) would take hours to compare part by part.
 * Once a comparison has met COMPARED_BEFORE_REMEMBERING pairs of containers, it remembers each pair it finds equal,
 * and a pair met again is not compared again; small comparisons remember nothing and pay one count per pair.
 */
const COMPARED_BEFORE_REMEMBERING = 4096;

export class EqualPairs {
  private left = 0;
  private pairs: WeakMap<object, WeakSet<object>> | undefined;

  /** Starts a comparison. */
  start(): void {
    this.left = COMPARED_BEFORE_REMEMBERING;
    this.pairs = undefined;
  }

  /** Counts a pair of containers about to be compared; true when it was already found equal. */
  known(a: object, b: object): boolean {
    if (a === b) return true;
    if (--this.left >= 0) return false;
    return this.pairs?.get(a)?.has(b) ?? false;
  }

  /** Records that `a` and `b` were found equal (once past the threshold). */
  found(a: object, b: object): void {
    if (this.left >= 0) return;
    this.pairs ??= new WeakMap();
    const pairs = this.pairs;
    let partners = pairs.get(a);
    if (partners === undefined) {
      partners = new WeakSet();
      pairs.set(a, partners);
    }
    partners.add(b);
  }
}
