/**
 * A readable set as Paginate sees it: tuples `[...coveredValues, ref]` in index order, walkable forward from
 * an inclusive lower bound and backward from an exclusive upper bound, plus how a tuple renders as a page
 * element. Index sets read their B+ tree (with the reading transaction's own writes laid over it); Union,
 * Distinct and filtered sets stream from their operands (`composite-sets.ts`); Join results, `Documents` and
 * native-collection listings are materialised arrays.
 */
import { failpoint } from '../failpoints.js';
import { IndexError } from './index-error.js';
import { pageElement, take, valueKey, type IndexPage, type IndexStore, type IndexTuple } from './index-store.js';
import { compareTuples } from './value-order.js';
import type { Value } from '../values/value.js';

export interface OrderedSet {
  readonly reverse: readonly boolean[];
  ascending(from?: IndexTuple): Iterator<IndexTuple>;
  descending(before?: IndexTuple): Iterator<IndexTuple>;
  /** The tuple as a page element. */
  element(tuple: IndexTuple): Value;
  /** The set values the tuple's element comes from (`Paginate` with `sources: true`), where the set tracks them. */
  sources?(tuple: IndexTuple): readonly Value[];
}

export interface SetPageOptions {
  size: number;
  after?: IndexTuple;
  before?: IndexTuple;
  /** Walk back from the end of the set (`before: null`). */
  fromEnd?: boolean;
}

// Implements: PAGE-CURSOR-001, PAGE-CURSOR-002, PAGE-CURSOR-003, PAGE-CURSOR-004, PAGE-CURSOR-006, PAGE-CURSOR-012
// Implements: PAGE-SHAPE-002, PAGE-SHAPE-003, PAGE-SHAPE-004, PAGE-SIZE-001, ORD-REVERSE-005
/**
 * One page, with the cursors the real service returns: walking forward from `after` (inclusive) the page's
 * `before` is that `after` and its `after` is the first tuple of the next page; walking back from `before`
 * (exclusive) the page's `after` is that `before` and its `before` is the page's first tuple when more precede
 * it. Costs one seek plus `size + 1` steps.
 */
export function paginateSet(set: OrderedSet, options: SetPageOptions): IndexPage {
  const { size, after, before, fromEnd } = options;
  if (!Number.isSafeInteger(size) || size < 1) throw new IndexError('invalid argument', 'Page size must be a positive integer.');
  if (before !== undefined || fromEnd) {
    const taken = take(set.descending(before), size + 1);
    const data = taken.slice(0, size);
    // The fault ORD-BACKWARD-PAGE-UNREVERSED leaves a backward page of a reversed set in walking order.
    const page: IndexPage = { data: set.reverse.includes(true) && failpoint('ORD-BACKWARD-PAGE-UNREVERSED') ? data : data.reverse() };
    if (taken.length > size) page.before = taken[size - 1];
    if (before !== undefined) page.after = before;
    return page;
  }
  const taken = take(set.ascending(after), size + 1);
  const page: IndexPage = { data: taken.slice(0, size) };
  if (after !== undefined) page.before = after;
  if (taken.length > size) page.after = taken[size];
  return page;
}

// Implements: PAGE-CURSOR-009
/** Index of the first tuple in `sorted` not below `bound` (a tuple or a shorter prefix). */
function lowerBound(sorted: readonly IndexTuple[], bound: IndexTuple, reverse: readonly boolean[]): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareTuples(sorted[mid]!, bound, reverse) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A materialised set: `tuples` sorted, each with its page element (and the sources of it, when known). */
export class ArraySet implements OrderedSet {
  private readonly elements = new Map<IndexTuple, Value>();
  private readonly sourceLists = new Map<IndexTuple, readonly Value[]>();
  readonly tuples: IndexTuple[];

  constructor(
    entries: ReadonlyArray<{ tuple: IndexTuple; element: Value; sources?: readonly Value[] }>,
    readonly reverse: readonly boolean[],
  ) {
    const sorted = [...entries].sort((a, b) => compareTuples(a.tuple, b.tuple, reverse));
    this.tuples = sorted.map((e) => e.tuple);
    for (const e of sorted) {
      this.elements.set(e.tuple, e.element);
      if (e.sources !== undefined && e.sources.length > 0) this.sourceLists.set(e.tuple, e.sources);
    }
  }

  element(tuple: IndexTuple): Value {
    return this.elements.get(tuple) ?? null;
  }

  sources(tuple: IndexTuple): readonly Value[] {
    return this.sourceLists.get(tuple) ?? [];
  }

  *ascending(from?: IndexTuple): Iterator<IndexTuple> {
    for (let i = from === undefined ? 0 : lowerBound(this.tuples, from, this.reverse); i < this.tuples.length; i++) yield this.tuples[i]!;
  }

  *descending(before?: IndexTuple): Iterator<IndexTuple> {
    for (let i = (before === undefined ? this.tuples.length : lowerBound(this.tuples, before, this.reverse)) - 1; i >= 0; i--)
      yield this.tuples[i]!;
  }
}

/**
 * One term set of an index, with a transaction's pending changes laid over it: tuples in `removed` (by
 * `valueKey`) are hidden and `added` (sorted) are merged in, so a request reads its own writes.
 */
export class IndexTermSet implements OrderedSet {
  private readonly added: IndexTuple[];

  constructor(
    private readonly store: IndexStore,
    private readonly terms: readonly Value[],
    private readonly valueCount: number,
    private readonly removed: ReadonlySet<string> = new Set(),
    added: readonly IndexTuple[] = [],
  ) {
    this.added = [...added].sort((a, b) => compareTuples(a, b, store.reverse));
  }

  get reverse(): readonly boolean[] {
    return this.store.reverse;
  }

  element(tuple: IndexTuple): Value {
    return pageElement(tuple, this.valueCount);
  }

  ascending(from?: IndexTuple): Iterator<IndexTuple> {
    const start = from === undefined ? 0 : lowerBound(this.added, from, this.reverse);
    return this.merge(this.store.ascending(this.terms, from), this.added.slice(start), 1);
  }

  descending(before?: IndexTuple): Iterator<IndexTuple> {
    const end = before === undefined ? this.added.length : lowerBound(this.added, before, this.reverse);
    return this.merge(this.store.descending(this.terms, before), this.added.slice(0, end).reverse(), -1);
  }

  private *merge(base: Iterator<IndexTuple>, extra: IndexTuple[], direction: 1 | -1): Iterator<IndexTuple> {
    let next = base.next();
    let i = 0;
    for (;;) {
      while (!next.done && this.removed.has(valueKey(next.value))) next = base.next();
      const own = extra[i];
      if (next.done && own === undefined) return;
      if (own !== undefined && (next.done || direction * compareTuples(own, next.value, this.reverse) <= 0)) {
        i++;
        yield own;
      } else if (!next.done) {
        yield next.value;
        next = base.next();
      }
    }
  }
}
