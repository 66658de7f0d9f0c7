/**
 * Union, Intersection, Difference, Distinct, filtered and Range sets that stream from their operands' ordered
 * iterators instead of being built in full, so a page of a composite set costs a seek per operand plus the entries
 * walked.
 *
 * They rely on what every set here guarantees: tuples are `[...values, ref]` in the operand's order, and a
 * page element is a function of a tuple prefix (the values, or the ref when there are none), so tuples with
 * equal elements are adjacent. Operands combined together must share one order (`sameOrder`).
 */
import { failpoint } from '../failpoints.js';
import { valueKey, type IndexTuple } from './index-store.js';
import type { OrderedSet } from './ordered-set.js';
import { compareTuples } from './value-order.js';
import type { Value } from '../values/value.js';

/** True when every set orders its tuples the same way (same value count and reverse flags). */
export function sameOrder(sets: readonly OrderedSet[]): boolean {
  const [first, ...rest] = sets;
  return (
    first === undefined || rest.every((s) => s.reverse.length === first.reverse.length && s.reverse.every((r, i) => r === first.reverse[i]))
  );
}

const NO_SOURCES: readonly Value[] = [];

/** The sources of a set's tuple (`Paginate` with `sources: true`), none for a set that does not track them. */
export function sourcesOf(set: OrderedSet, tuple: IndexTuple): readonly Value[] {
  return set.sources?.(tuple) ?? NO_SOURCES;
}

/** A set that walks another's tuples in its order: their elements and sources are the other set's. */
abstract class DerivedSet implements OrderedSet {
  constructor(protected readonly inner: OrderedSet) {}

  get reverse(): readonly boolean[] {
    return this.inner.reverse;
  }

  element(tuple: IndexTuple): Value {
    return this.inner.element(tuple);
  }

  sources(tuple: IndexTuple): readonly Value[] {
    return sourcesOf(this.inner, tuple);
  }

  abstract ascending(from?: IndexTuple): Iterator<IndexTuple>;
  abstract descending(before?: IndexTuple): Iterator<IndexTuple>;
}

// Implements: PAGE-SOURCES-001
/** A set read from one set value (a Match, Documents, …), which is the source of every one of its tuples. */
export class SourcedSet extends DerivedSet {
  private readonly own: readonly Value[];

  constructor(inner: OrderedSet, source: Value) {
    super(inner);
    this.own = [source];
  }

  override sources(): readonly Value[] {
    return this.own;
  }

  ascending(from?: IndexTuple): Iterator<IndexTuple> {
    return this.inner.ascending(from);
  }

  descending(before?: IndexTuple): Iterator<IndexTuple> {
    return this.inner.descending(before);
  }
}

export type Combination = 'union' | 'intersection' | 'difference';

/**
 * Which operand's copies of one element a combination keeps, given how many copies each operand holds (undefined:
 * none). As the real service: a union keeps the operand holding the most, an intersection (when every operand holds
 * it) the one holding the fewest, a difference every copy of the first operand when no other holds it; a tie goes to
 * the earlier operand.
 */
export function chosenOperand(kind: Combination, counts: readonly number[]): number | undefined {
  if (kind === 'difference') return counts[0]! > 0 && counts.every((c, i) => i === 0 || c === 0) ? 0 : undefined;
  if (kind === 'intersection' && counts.some((c) => c === 0)) return undefined;
  let chosen: number | undefined;
  counts.forEach((count, i) => {
    if (count === 0) return;
    if (chosen === undefined || (kind === 'union' ? count > counts[chosen]! : count < counts[chosen]!)) chosen = i;
  });
  return chosen;
}

/** The tuples one operand holds of one element: those on the walked side of the cursor, and those behind it. */
interface Group {
  walked: IndexTuple[];
  behind: IndexTuple[];
}

// Implements: SET-DIFF-002, SET-INTERSECT-002, SET-INTERSECT-003, SET-UNION-002
/**
 * Union, Intersection and Difference of operands of one order, streamed: multiset operations on elements (an entry's
 * covered values, or its ref), whichever document an entry belongs to. Tuples of equal elements are adjacent in every
 * operand, so the merge takes each element's run from every operand and keeps the copies `chosenOperand` names, as
 * that operand's tuples (so cursors walk them). A walk from a cursor inside a run counts the whole run (also the
 * copies behind the cursor), so every page of a walk agrees with the whole set.
 */
export class CombinedSet implements OrderedSet {
  /** The operand each yielded tuple came from, and the sources of its element when they are tracked. */
  private readonly origin = new WeakMap<IndexTuple, { operand: OrderedSet; sources?: readonly Value[] }>();

  constructor(
    private readonly kind: Combination,
    private readonly operands: readonly OrderedSet[],
    private readonly trackSources = false,
  ) {
    if (operands.length === 0 || !sameOrder(operands)) throw new RangeError('CombinedSet needs operands of one order');
  }

  get reverse(): readonly boolean[] {
    return this.operands[0]!.reverse;
  }

  element(tuple: IndexTuple): Value {
    return (this.origin.get(tuple)?.operand ?? this.operands[0]!).element(tuple);
  }

  sources(tuple: IndexTuple): readonly Value[] {
    return this.origin.get(tuple)?.sources ?? NO_SOURCES;
  }

  ascending(from?: IndexTuple): Iterator<IndexTuple> {
    return this.walk(1, from);
  }

  descending(before?: IndexTuple): Iterator<IndexTuple> {
    return this.walk(-1, before);
  }

  private key(operand: number, tuple: IndexTuple): string {
    return valueKey(this.operands[operand]!.element(tuple));
  }

  private *walk(direction: 1 | -1, cursor: IndexTuple | undefined): Iterator<IndexTuple> {
    const iterators = this.operands.map((s) => (direction > 0 ? s.ascending(cursor) : s.descending(cursor)));
    const heads = iterators.map((it) => it.next());
    for (let first = true; ; first = false) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]!;
        if (head.done) continue;
        if (best < 0 || direction * compareTuples(head.value, (heads[best] as IteratorYieldResult<IndexTuple>).value, this.reverse) < 0)
          best = i;
      }
      if (best < 0) return;
      const key = this.key(best, (heads[best] as IteratorYieldResult<IndexTuple>).value);
      const groups: Group[] = heads.map((_, i) => {
        const walked: IndexTuple[] = [];
        for (let head = heads[i]!; !head.done && this.key(i, head.value) === key; head = heads[i]!) {
          walked.push(head.value);
          heads[i] = iterators[i]!.next();
        }
        return { walked, behind: first && cursor !== undefined ? this.behindCursor(i, direction, cursor, key) : [] };
      });
      const chosen = chosenOperand(
        this.kind,
        groups.map((g) => g.walked.length + g.behind.length),
      );
      if (this.kind === 'union' && failpoint('SET-UNION-KEEPS-EVERY-COPY')) {
        yield* this.everyCopy(groups);
      } else if (this.kind === 'difference' && chosen === undefined && failpoint('SET-DIFFERENCE-SUBTRACTS-COPIES')) {
        const others = groups.slice(1).reduce((n, g) => n + g.walked.length + g.behind.length, 0);
        yield* this.everyCopy([{ walked: groups[0]!.walked.slice(others), behind: [] }]);
      } else if (chosen !== undefined) {
        const origin = { operand: this.operands[chosen]!, ...(this.trackSources ? { sources: this.groupSources(groups) } : {}) };
        // The faults SET-UNION-DEDUPLICATES, SET-INTERSECTION-DEDUPLICATES and SET-DIFFERENCE-DEDUPLICATES keep one copy.
        const once =
          this.kind === 'union'
            ? failpoint('SET-UNION-DEDUPLICATES')
            : this.kind === 'intersection'
              ? failpoint('SET-INTERSECTION-DEDUPLICATES')
              : failpoint('SET-DIFFERENCE-DEDUPLICATES');
        for (const tuple of once ? groups[chosen]!.walked.slice(0, 1) : groups[chosen]!.walked) {
          this.origin.set(tuple, origin);
          yield tuple;
        }
      }
      // No later element can be in every operand (intersection) or in the first (difference).
      if (this.kind === 'intersection' && heads.some((h) => h.done)) return;
      if (this.kind === 'difference' && heads[0]!.done) return;
    }
  }

  /** Every walked copy of every operand, in order (the self-check's faults of a union that adds up the copies). */
  private *everyCopy(groups: readonly Group[]): Generator<IndexTuple> {
    const tagged = groups.flatMap((g, i) => g.walked.map((tuple) => ({ tuple, operand: this.operands[i]! })));
    tagged.sort((a, b) => compareTuples(a.tuple, b.tuple, this.reverse));
    for (const { tuple, operand } of tagged) {
      this.origin.set(tuple, { operand });
      yield tuple;
    }
  }

  /** The tuples of operand `i` holding the element `key` on the other side of the cursor (the run it cuts). */
  private behindCursor(i: number, direction: 1 | -1, cursor: IndexTuple, key: string): IndexTuple[] {
    const operand = this.operands[i]!;
    const it = direction > 0 ? operand.descending(cursor) : operand.ascending(cursor);
    const out: IndexTuple[] = [];
    for (let r = it.next(); !r.done && this.key(i, r.value) === key; r = it.next()) out.push(r.value);
    return out;
  }

  /** Every distinct source of the element's copies in any operand (the real service lists them all). */
  private groupSources(groups: readonly Group[]): Value[] {
    const seen = new Map<string, Value>();
    groups.forEach((g, i) => {
      for (const tuple of [...g.behind, ...g.walked])
        for (const source of sourcesOf(this.operands[i]!, tuple)) seen.set(valueKey(source), source);
    });
    return [...seen.values()];
  }
}

// Implements: SET-DISTINCT-001
/**
 * Each element once, represented by its first tuple in ascending order, in both directions: a walk from a
 * cursor inside a run of equal elements skips the run (its element belongs before the cursor).
 */
export class DistinctSet extends DerivedSet {
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
export class FilteredSet extends DerivedSet {
  constructor(
    inner: OrderedSet,
    private readonly keep: (element: Value, tuple: IndexTuple) => boolean,
  ) {
    super(inner);
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

// Implements: FN-SET-001, FN-SET-002, FN-SET-003, FN-SET-004, FN-SET-005
/** The tuples of `inner` from `lower` to `upper`, both inclusive, in the set's order (`Range`, DEC-065). */
export class RangeSet extends DerivedSet {
  constructor(
    inner: OrderedSet,
    private readonly lower: readonly Value[],
    private readonly upper: readonly Value[],
  ) {
    super(inner);
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
