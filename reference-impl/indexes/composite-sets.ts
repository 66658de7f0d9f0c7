/**
 * Union, Distinct, filtered and Range sets that stream from their operands' ordered iterators instead of being built
 * in full, so a page of a composite set costs a seek per operand plus the entries walked.
 *
 * They rely on what every set here guarantees: tuples are `[...values, ref]` in the operand's order, and a
 * page element is a function of a tuple prefix (the values, or the ref when there are none), so tuples with
 * equal elements are adjacent. Operands merged together must share one order (`sameOrder`).
 */
import { valueKey, type IndexTuple } from './index-store.js';
import type { OrderedSet } from './ordered-set.js';
import { compareTuples } from './value-order.js';
import type { Value } from '../values/value.js';

/** True when every set orders its tuples the same way (same value count and reverse flags). */
export function sameOrder(sets: readonly OrderedSet[]): boolean {
  const [first, ...rest] = sets;
  return first === undefined || rest.every((s) => s.reverse.length === first.reverse.length && s.reverse.every((r, i) => r === first.reverse[i]));
}

/** Every tuple of every operand in one order; operands must share their order. Duplicates are kept. */
export class MergedSet implements OrderedSet {
  /** The operand each yielded tuple came from (some sets render a tuple only if it is one of their own). */
  private readonly origin = new WeakMap<IndexTuple, OrderedSet>();

  constructor(private readonly operands: readonly OrderedSet[]) {
    if (operands.length === 0 || !sameOrder(operands)) throw new RangeError('MergedSet needs operands of one order');
  }

  get reverse(): readonly boolean[] {
    return this.operands[0]!.reverse;
  }

  element(tuple: IndexTuple): Value {
    return (this.origin.get(tuple) ?? this.operands[0]!).element(tuple);
  }

  ascending(from?: IndexTuple): Iterator<IndexTuple> {
    return this.merge(this.operands.map((s) => s.ascending(from)), 1);
  }

  descending(before?: IndexTuple): Iterator<IndexTuple> {
    return this.merge(this.operands.map((s) => s.descending(before)), -1);
  }

  private *merge(iterators: Iterator<IndexTuple>[], direction: 1 | -1): Iterator<IndexTuple> {
    const heads = iterators.map((it) => it.next());
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]!;
        if (head.done) continue;
        if (best < 0 || direction * compareTuples(head.value, (heads[best] as IteratorYieldResult<IndexTuple>).value, this.reverse) < 0) best = i;
      }
      if (best < 0) return;
      const tuple = (heads[best] as IteratorYieldResult<IndexTuple>).value;
      this.origin.set(tuple, this.operands[best]!);
      yield tuple;
      heads[best] = iterators[best]!.next();
    }
  }
}

/**
 * Each element once, represented by its first tuple in ascending order, in both directions: a walk from a
 * cursor inside a run of equal elements skips the run (its element belongs before the cursor).
 */
export class DistinctSet implements OrderedSet {
  constructor(private readonly inner: OrderedSet) {}

  get reverse(): readonly boolean[] {
    return this.inner.reverse;
  }

  element(tuple: IndexTuple): Value {
    return this.inner.element(tuple);
  }

  private key(tuple: IndexTuple): string {
    return valueKey(this.inner.element(tuple));
  }

  *ascending(from?: IndexTuple): Iterator<IndexTuple> {
    let last: string | undefined;
    if (from !== undefined) {
      const previous = this.inner.descending(from).next();
      if (!previous.done) last = this.key(previous.value);
    }
    const it = this.inner.ascending(from);
    for (let r = it.next(); !r.done; r = it.next()) {
      const key = this.key(r.value);
      if (key === last) continue;
      last = key;
      yield r.value;
    }
  }

  *descending(before?: IndexTuple): Iterator<IndexTuple> {
    const it = this.inner.descending(before);
    let pending: { tuple: IndexTuple; key: string } | undefined;
    for (let r = it.next(); !r.done; r = it.next()) {
      const key = this.key(r.value);
      if (pending !== undefined && pending.key !== key) yield pending.tuple;
      pending = { tuple: r.value, key };
    }
    if (pending !== undefined) yield pending.tuple;
  }
}

/** The tuples of `inner` whose element passes `keep`. */
export class FilteredSet implements OrderedSet {
  constructor(
    private readonly inner: OrderedSet,
    private readonly keep: (element: Value, tuple: IndexTuple) => boolean,
  ) {}

  get reverse(): readonly boolean[] {
    return this.inner.reverse;
  }

  element(tuple: IndexTuple): Value {
    return this.inner.element(tuple);
  }

  ascending(from?: IndexTuple): Iterator<IndexTuple> {
    return this.filter(this.inner.ascending(from));
  }

  descending(before?: IndexTuple): Iterator<IndexTuple> {
    return this.filter(this.inner.descending(before));
  }

  private *filter(it: Iterator<IndexTuple>): Iterator<IndexTuple> {
    for (let r = it.next(); !r.done; r = it.next()) if (this.keep(this.inner.element(r.value), r.value)) yield r.value;
  }
}

/**
 * How a tuple stands to a Range bound (`[...values, ref?]`): the bound is cut to the tuple's width and the tuple
 * to the bound's, so a bound shorter than the tuple is a prefix that every tuple starting with it matches (0).
 */
export function compareToBound(tuple: IndexTuple, bound: readonly Value[], reverse: readonly boolean[]): number {
  const width = Math.min(tuple.length, bound.length);
  return compareTuples(tuple.slice(0, width), bound.slice(0, width), reverse);
}

/** The tuples of `inner` from `lower` to `upper`, both inclusive, in the set's order (`Range`, DEC-065). */
export class RangeSet implements OrderedSet {
  constructor(
    private readonly inner: OrderedSet,
    private readonly lower: readonly Value[],
    private readonly upper: readonly Value[],
  ) {}

  get reverse(): readonly boolean[] {
    return this.inner.reverse;
  }

  element(tuple: IndexTuple): Value {
    return this.inner.element(tuple);
  }

  *ascending(from?: IndexTuple): Iterator<IndexTuple> {
    // Seek to the later of the cursor and the lower bound, cut to the width of the set's tuples (a bound may hold
    // more than a tuple; a shorter one is a prefix, which sorts before every tuple it starts).
    const first = this.inner.ascending().next();
    if (first.done) return;
    const lowest = this.lower.slice(0, first.value.length);
    const seek = lowest.length === 0 || (from !== undefined && compareTuples(from, lowest, this.reverse) > 0) ? from : lowest;
    const it = this.inner.ascending(seek);
    for (let r = it.next(); !r.done; r = it.next()) {
      if (compareToBound(r.value, this.upper, this.reverse) > 0) return;
      if (compareToBound(r.value, this.lower, this.reverse) >= 0) yield r.value;
    }
  }

  *descending(before?: IndexTuple): Iterator<IndexTuple> {
    const it = this.inner.descending(before);
    for (let r = it.next(); !r.done; r = it.next()) {
      if (compareToBound(r.value, this.lower, this.reverse) < 0) return;
      if (compareToBound(r.value, this.upper, this.reverse) <= 0) yield r.value;
    }
  }
}
