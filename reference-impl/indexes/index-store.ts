/**
 * The contents of one index: per term tuple, a B+ tree of index tuples `[...coveredValues, ref]` ordered by
 * `compareTuples` (per-column reverse, the ref as ascending tie-breaker). Paginate seeks to the cursor in
 * O(log n) and then walks `size + 1` keys, so a page never costs a scan.
 *
 * Reads see the current state only. A `ts`-aware read can be added without changing the callers: after each
 * commit, keep `tree.clone()` (O(1), copy-on-write in sorted-btree) under the commit's timestamp and let a read
 * at `ts` use the newest clone at or before `ts`, dropping clones that fall out of history retention.
 */
import { createRequire } from 'node:module';
import { QueryError } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import { IndexError } from './index-error.js';
import { compareColumn, compareTuples, compareValues } from './value-order.js';
import type { IndexEntry } from './entries.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type Value } from '../values/value.js';

// sorted-btree is CommonJS and its default-import interop differs between Node and vitest; require() is the
// same everywhere: the class is module.exports.default.
const BTree = (createRequire(import.meta.url)('sorted-btree') as typeof import('sorted-btree')).default;
type BTree<K, V> = import('sorted-btree').default<K, V>;

/** An index tuple and also a cursor: covered values then the ref. A cursor may be shorter (a lower bound). */
export type IndexTuple = Value[];

export interface PageOptions {
  size: number;
  /** Inclusive: the page starts at the first tuple ≥ `after`. */
  after?: IndexTuple;
  /** Exclusive: the page ends at the last tuple < `before`. */
  before?: IndexTuple;
}

export interface IndexPage {
  /** The page's tuples in ascending index order. */
  data: IndexTuple[];
  after?: IndexTuple;
  before?: IndexTuple;
}

/**
 * Most values one key may hold. A stored document's terms hold fewer: a version is at most 8,388,608 bytes, and each
 * value past the first takes at least two (`1,` in an array is the densest). A value that shares its parts (Reduce
 * nesting `[acc, acc]`) can name billions.
 */
const MAX_KEY_VALUES = 4 * 1024 * 1024 + 1;
let keyValuesLeft = 0;

/**
 * Canonical text of a value such that two values share a key exactly when `compareValues` says equal. A value of
 * more than MAX_KEY_VALUES parts is refused with 400 `invalid argument`: no stored entry could match it.
 */
export function valueKey(v: Value | undefined): string {
  keyValuesLeft = MAX_KEY_VALUES;
  return key(v);
}

function key(v: Value | undefined): string {
  if (--keyValuesLeft < 0) throw new QueryError('invalid argument', 'The value is too large to be an index term.', []);
  if (v === undefined || v === null) return 'n';
  switch (typeof v) {
    case 'bigint':
      return `i${v}`;
    case 'number':
      return Number.isNaN(v) ? 'dNaN' : Object.is(v, -0) ? 'd-0' : `d${v}`;
    case 'string':
      return `s${JSON.stringify(v)}`;
    case 'boolean':
      return v ? 'T' : 'F';
  }
  if (Array.isArray(v)) return `[${v.map(key).join(',')}]`;
  if (v instanceof Ref) return `r(${v.collection ? key(v.collection) : ''};${JSON.stringify(v.id)};${v.database ? key(v.database) : ''})`;
  if (v instanceof Time) return `t${v.epochNanos}`;
  if (v instanceof DateValue) return `D${v.epochDays}`;
  if (v instanceof Bytes) return `b${Buffer.from(v.bytes).toString('hex')}`;
  if (v instanceof SetRef) return `S${key(v.structure)}`;
  if (v instanceof QueryValue)
    return `q${JSON.stringify([v.lambda, v.apiVersion ?? null, v.expr], (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))}`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${key(v[k])}`).join(',')}}`;
}

export function termsKey(terms: readonly Value[]): string {
  // The fault IDX-TERMS-CASE-INSENSITIVE: string terms are kept and looked up in lower case.
  const fold = failpoint('IDX-TERMS-CASE-INSENSITIVE');
  return terms.map((t) => valueKey(fold && typeof t === 'string' ? t.toLowerCase() : t)).join('|');
}

/**
 * How a tuple is kept in a tree: an index without covered values keeps the bare ref instead of `[ref]`
 * (an array per entry is 56 bytes, a third of a small indexed document); other tuples are kept as they are.
 * Reads hand out tuples, never stored keys.
 */
type StoredKey = IndexTuple | Ref;

function tupleOfKey(key: StoredKey): IndexTuple {
  return key instanceof Ref ? [key] : key;
}

function partitionOf(key: StoredKey, partitions: number): number {
  const ref = key instanceof Ref ? key : key[key.length - 1];
  return ref instanceof Ref ? [...ref.id].reduce((sum, c) => sum + c.charCodeAt(0), 0) % partitions : 0;
}

// Implements: IDX-ATTR-004
export class IndexStore {
  private readonly sets = new Map<string, BTree<StoredKey, undefined>>();
  private readonly compare: (a: StoredKey, b: StoredKey) => number;

  /** `reverse[i]` is the reverse flag of covered value i; `partitions` matters only to a fault (below). */
  constructor(
    readonly reverse: readonly boolean[],
    readonly partitions = 1,
  ) {
    // Two bare refs compare as the one-column tuples they stand for; a bound (a cursor) is always a tuple.
    const inOrder = (a: StoredKey, b: StoredKey): number =>
      a instanceof Ref && b instanceof Ref
        ? compareColumn(a, b, reverse[0] ?? false)
        : compareTuples(tupleOfKey(a), tupleOfKey(b), reverse);
    // The fault IDX-PARTITIONS-INTERLEAVED keeps each partition (by the ref's id) in order and reads them one after another.
    this.compare = (a, b) =>
      (partitions > 1 && failpoint('IDX-PARTITIONS-INTERLEAVED') ? partitionOf(a, partitions) - partitionOf(b, partitions) : 0) ||
      inOrder(a, b);
  }

  // Implements: PAGE-CURSOR-005, PAGE-CURSOR-007
  static tupleOf(entry: IndexEntry): IndexTuple {
    // concat allocates exactly the tuple's length; a spread literal reserves 17+ slots, which for 100k stored
    // tuples is tens of megabytes.
    return entry.values.concat([entry.ref]);
  }

  private static keyOf(entry: IndexEntry): StoredKey {
    return entry.values.length === 0 ? entry.ref : IndexStore.tupleOf(entry);
  }

  private set(terms: readonly Value[], create: true): BTree<StoredKey, undefined>;
  private set(terms: readonly Value[], create: false): BTree<StoredKey, undefined> | undefined;
  private set(terms: readonly Value[], create: boolean): BTree<StoredKey, undefined> | undefined {
    const key = termsKey(terms);
    let tree = this.sets.get(key);
    if (!tree && create) {
      tree = new BTree<StoredKey, undefined>(undefined, this.compare);
      this.sets.set(key, tree);
    }
    return tree;
  }

  /** Applies one document change: its entries before the write are removed, its entries after are added. */
  apply(before: readonly IndexEntry[], after: readonly IndexEntry[]): void {
    for (const e of before) {
      const tree = this.set(e.terms, false);
      if (!tree) continue;
      tree.delete(IndexStore.keyOf(e));
      if (tree.size === 0) this.sets.delete(termsKey(e.terms));
    }
    for (const e of after) this.set(e.terms, true).set(IndexStore.keyOf(e), undefined);
  }

  /**
   * For a unique index: the ref of another document that already holds an entry with the same terms and
   * covered values as one of `entries`, or undefined. Costs O(log n) per entry plus the equal run.
   */
  findConflict(entries: readonly IndexEntry[]): Ref | undefined {
    for (const e of entries) {
      const tree = this.set(e.terms, false);
      if (!tree) continue;
      for (const [key] of tree.entries(e.values)) {
        const tuple = tupleOfKey(key);
        const ref = tuple[tuple.length - 1];
        if (tuple.length !== e.values.length + 1 || !e.values.every((v, i) => compareValues(v, tuple[i]) === 0)) break;
        if (ref instanceof Ref && !ref.equals(e.ref)) return ref;
      }
    }
    return undefined;
  }

  /** Number of tuples in the set of `terms`. */
  count(terms: readonly Value[]): number {
    return this.set(terms, false)?.size ?? 0;
  }

  /** Tuples of the set of `terms` in ascending order, starting at the first tuple ≥ `from`. */
  *ascending(terms: readonly Value[], from?: IndexTuple): IterableIterator<IndexTuple> {
    const tree = this.set(terms, false);
    if (!tree) return;
    for (const [key] of tree.entries(from)) yield tupleOfKey(key);
  }

  /** Tuples of the set of `terms` in descending order, starting at the last tuple < `before`. */
  *descending(terms: readonly Value[], before?: IndexTuple): IterableIterator<IndexTuple> {
    const tree = this.set(terms, false);
    if (!tree) return;
    // entriesReversed yields keys ≤ `before`; skipHighest drops `before` itself when it is a stored tuple.
    for (const [key] of tree.entriesReversed(before, undefined, before !== undefined)) yield tupleOfKey(key);
  }

  /**
   * One page of the set of `terms`, as the real service builds it: walking forward from `after` the page's
   * `before` is the given `after` and its `after` is the first tuple of the next page; walking back from
   * `before` the page's `after` is the given `before` and its `before` is the page's first tuple when more
   * tuples precede it. Size 0 echoes the given cursor.
   */
  paginate(terms: readonly Value[], options: PageOptions): IndexPage {
    const { size, after, before } = options;
    if (!Number.isSafeInteger(size) || size < 0) throw new IndexError('invalid argument', 'Page size must be a non-negative integer.');
    if (after !== undefined && before !== undefined) throw new IndexError('invalid argument', 'Only one of after and before may be given.');
    if (before !== undefined) {
      const taken = take(this.descending(terms, before), size + 1);
      const page: IndexPage = { data: taken.slice(0, size).reverse(), after: before };
      const next = size === 0 ? before : taken.length > size ? taken[size - 1] : undefined;
      if (next !== undefined) page.before = next;
      return page;
    }
    const taken = take(this.ascending(terms, after), size + 1);
    const page: IndexPage = { data: taken.slice(0, size) };
    if (after !== undefined) page.before = after;
    const next = size === 0 ? after : taken[size];
    if (next !== undefined) page.after = next;
    return page;
  }
}

/** The first `n` items of a walk (fewer when it ends first). */
export function take<T>(it: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const r = it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

// Implements: IDX-VALUE-001, IDX-VALUE-002
/** A page element as Paginate returns it: the ref with no covered values, the value with one, else the array. */
export function pageElement(tuple: IndexTuple, valueCount: number): Value {
  if (valueCount === 0) return tuple[tuple.length - 1] ?? null;
  if (valueCount === 1) return tuple[0] ?? null;
  return tuple.slice(0, valueCount);
}
