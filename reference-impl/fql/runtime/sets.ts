/**
 * Sets of FQL v10: a source (a collection's documents, an index's, one document, an array, a sequence, a
 * concatenation) and the operations applied to it, kept as a description and read when asked (`toArray`,
 * `paginate`, rendering). The description is also what an event source is made from: only a collection, an index
 * or a single document, filtered, mapped or projected, can be one (fauna/faunadb `runtime/fql2/ValueSet.scala`).
 */
import type { ProjectionField } from '../ast.js';
import { NO_SPAN, type SourceSpan } from '../source-position.js';
import { failpoint } from '../../failpoints.js';
import { runtimeError } from '../fql-error.js';
import type { CollectionHandle, Env, FqlCallable, FqlValue } from './values.js';

/** A collection-defined index (`indexes: { byX: { terms, values } }`) or a v4 index reading the collection. */
export interface IndexDefinition {
  readonly name: string;
  /** Document paths of the terms, e.g. `["category"]` for `.category`. */
  readonly terms: readonly (readonly string[])[];
  /** Document paths of the values and their order. */
  readonly values: readonly { readonly path: readonly string[]; readonly desc: boolean }[];
}

export type SetSource =
  | { readonly kind: 'documents'; readonly collection: CollectionHandle }
  | { readonly kind: 'index'; readonly collection: string; readonly index: IndexDefinition; readonly terms: readonly FqlValue[] }
  | { readonly kind: 'single'; readonly value: FqlValue }
  | { readonly kind: 'array'; readonly items: readonly FqlValue[] }
  | { readonly kind: 'sequence'; readonly from: bigint; readonly until: bigint }
  | { readonly kind: 'concat'; readonly parts: readonly FqlSet[] };

/** A source whose elements are read at once. */
export type StoredSource = Exclude<SetSource, { readonly kind: 'sequence' }>;

export interface Ordering {
  /** The accessor (`.price`, `x => …`), or none to order by the values themselves. */
  readonly fn: FqlCallable | null;
  readonly desc: boolean;
}

export type SetOp =
  | { readonly kind: 'where'; readonly fn: FqlCallable; readonly span: SourceSpan }
  | { readonly kind: 'map'; readonly fn: FqlCallable; readonly span: SourceSpan }
  | { readonly kind: 'flatMap'; readonly fn: FqlCallable; readonly span: SourceSpan }
  | { readonly kind: 'project'; readonly fields: readonly ProjectionField[]; readonly env: Env; readonly span: SourceSpan }
  | { readonly kind: 'take'; readonly count: number; readonly span: SourceSpan }
  | { readonly kind: 'drop'; readonly count: number; readonly span: SourceSpan }
  | { readonly kind: 'reverse'; readonly span: SourceSpan }
  | { readonly kind: 'order'; readonly orderings: readonly Ordering[]; readonly span: SourceSpan }
  | { readonly kind: 'distinct'; readonly span: SourceSpan };

export class FqlSet {
  constructor(
    readonly source: SetSource,
    readonly ops: readonly SetOp[] = [],
  ) {}

  with(op: SetOp): FqlSet {
    return new FqlSet(this.source, [...this.ops, op]);
  }

  /** The first `count` elements only: a read of it stops there. */
  prefix(count: number): FqlSet {
    return this.with({ kind: 'take', count, span: NO_SPAN });
  }
}

/** What reading a set needs from the interpreter. */
export interface SetReader {
  /** Counts one step of work against the query's deadline and memory watch (throws past either). */
  step(): void;
  /** The source's elements in the set's order (a sequence is counted out here, one number at a time). */
  readSource(source: StoredSource): Promise<FqlValue[]>;
  call(fn: FqlCallable, args: readonly FqlValue[], span: SourceSpan): Promise<FqlValue>;
  /** A `where` predicate's result as a decision (`true` keeps; `false`/null drop; else a type error). */
  predicate(result: FqlValue, span: SourceSpan): boolean;
  project(value: FqlValue, fields: readonly ProjectionField[], env: Env, span: SourceSpan): Promise<FqlValue>;
  /** The elements `flatMap`'s function answered: an array's or a set's. */
  elementsOf(value: FqlValue, span: SourceSpan): Promise<FqlValue[]>;
  compare(a: FqlValue, b: FqlValue): Promise<number>;
  equal(a: FqlValue, b: FqlValue): Promise<boolean>;
}

// Implements: FQL-SET-005
/**
 * Most elements a set is turned into at once (`toArray`, and the whole input of `order`, `reverse` and `distinct`);
 * one more is `value_too_large`, as the real service (fauna/faunadb `runtime/fql2/ValueSet.scala` MaximumElements).
 */
export const MAX_MATERIALIZED_ELEMENTS = 16_000;

/** A bound on how many elements a read may produce, and where the call that asked for them is. */
export interface ReadLimit {
  readonly elements: number;
  readonly span: SourceSpan;
}

// Implements: FQL-SET-005
/**
 * Every element of the set, in order. The source is read one element at a time through the leading element-wise
 * steps (`where`, `map`, `flatMap`, projections, `take`, `drop`), so a `take` ends the read and a set past `limit`
 * fails as soon as it is, not after the whole source: `Set.sequence(0, 1000000000).take(3)` reads three numbers.
 */
export async function readSet(set: FqlSet, reader: SetReader, limit?: ReadLimit): Promise<FqlValue[]> {
  const streamed = set.ops.findIndex((op) => op.kind === 'reverse' || op.kind === 'order' || op.kind === 'distinct');
  const leading = streamed === -1 ? set.ops : set.ops.slice(0, streamed);
  const rest = streamed === -1 ? [] : set.ops.slice(streamed);
  const materializing = rest[0];
  const bound = materializing !== undefined ? { elements: MAX_MATERIALIZED_ELEMENTS, span: materializing.span } : limit;
  let items = await readLeading(set.source, leading, reader, bound);
  for (const op of rest) items = await applyOp(op, items, reader);
  if (limit !== undefined) checkLimit(items.length, limit);
  return items;
}

function checkLimit(count: number, limit: ReadLimit): void {
  if (count > limit.elements)
    throw runtimeError('value_too_large', limit.span, `Value too large: exceeded maximum number of elements (limit=${limit.elements}).`);
}

/** Elements of the source, one by one (a sequence is never built whole). */
async function* sourceElements(source: SetSource, reader: SetReader): AsyncGenerator<FqlValue> {
  if (source.kind === 'sequence') {
    for (let n = source.from; n < source.until; n++) {
      reader.step();
      yield n;
    }
    return;
  }
  yield* await reader.readSource(source);
}

/** The source through the element-wise steps, stopping when every `take` is full or past `bound`. */
async function readLeading(source: SetSource, ops: readonly SetOp[], reader: SetReader, bound: ReadLimit | undefined): Promise<FqlValue[]> {
  const counts = ops.map(() => 0);
  const out: FqlValue[] = [];
  // Reading the whole source before stopping is kept only as the self-check's fault FQL-SET-READ-WHOLE.
  const whole = failpoint('FQL-SET-READ-WHOLE');
  const full = () => !whole && ops.some((op, i) => op.kind === 'take' && counts[i]! >= op.count);
  if (full()) return out;
  for await (const element of sourceElements(source, reader)) {
    let batch: FqlValue[] = [element];
    for (const [i, op] of ops.entries()) {
      const next: FqlValue[] = [];
      for (const item of batch) {
        if (op.kind === 'take') {
          if (counts[i]! >= op.count) break;
          counts[i]! += 1;
          next.push(item);
        } else if (op.kind === 'drop') {
          if (counts[i]! < op.count) counts[i]! += 1;
          else next.push(item);
        } else {
          next.push(...(await applyOp(op, [item], reader)));
        }
      }
      batch = next;
    }
    out.push(...batch);
    if (bound !== undefined && !whole) checkLimit(out.length, bound);
    if (full()) break;
  }
  if (bound !== undefined) checkLimit(out.length, bound);
  return out;
}

async function applyOp(op: SetOp, items: FqlValue[], reader: SetReader): Promise<FqlValue[]> {
  switch (op.kind) {
    case 'where': {
      const kept: FqlValue[] = [];
      for (const item of items) {
        reader.step();
        if (reader.predicate(await reader.call(op.fn, [item], op.span), op.span)) kept.push(item);
      }
      return kept;
    }
    case 'map': {
      const mapped: FqlValue[] = [];
      for (const item of items) mapped.push(await reader.call(op.fn, [item], op.span));
      return mapped;
    }
    case 'flatMap': {
      const flat: FqlValue[] = [];
      for (const item of items) flat.push(...(await reader.elementsOf(await reader.call(op.fn, [item], op.span), op.span)));
      return flat;
    }
    case 'project': {
      const projected: FqlValue[] = [];
      for (const item of items) projected.push(await reader.project(item, op.fields, op.env, op.span));
      return projected;
    }
    case 'take':
      return items.slice(0, op.count);
    case 'drop':
      return items.slice(op.count);
    case 'reverse':
      return [...items].reverse();
    case 'order':
      return orderItems(items, op.orderings, op.span, reader);
    case 'distinct': {
      const out: FqlValue[] = [];
      for (const item of items) {
        let seen = false;
        for (const kept of out) if (await reader.equal(kept, item)) seen = true;
        if (!seen) out.push(item);
      }
      return out;
    }
  }
}

async function orderItems(items: FqlValue[], orderings: readonly Ordering[], span: SourceSpan, reader: SetReader): Promise<FqlValue[]> {
  const keyed: { item: FqlValue; keys: FqlValue[] }[] = [];
  for (const item of items) {
    reader.step();
    const keys: FqlValue[] = [];
    for (const ordering of orderings) keys.push(ordering.fn === null ? item : await reader.call(ordering.fn, [item], span));
    keyed.push({ item, keys });
  }
  return (await mergeSort(keyed, (a, b) => compareKeys(a, b, orderings, reader), reader)).map((entry) => entry.item);
}

/** A stable merge sort with an asynchronous comparison. */
async function mergeSort<T>(items: T[], compare: (a: T, b: T) => Promise<number>, reader: SetReader): Promise<T[]> {
  if (items.length <= 1) return items;
  const middle = Math.floor(items.length / 2);
  const left = await mergeSort(items.slice(0, middle), compare, reader);
  const right = await mergeSort(items.slice(middle), compare, reader);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    reader.step();
    if ((await compare(right[j] as T, left[i] as T)) < 0) out.push(right[j++] as T);
    else out.push(left[i++] as T);
  }
  return [...out, ...left.slice(i), ...right.slice(j)];
}

async function compareKeys(
  a: { keys: FqlValue[] },
  b: { keys: FqlValue[] },
  orderings: readonly Ordering[],
  reader: SetReader,
): Promise<number> {
  for (const [i, ordering] of orderings.entries()) {
    const order = await reader.compare(a.keys[i]!, b.keys[i]!);
    if (order !== 0) return ordering.desc ? -order : order;
  }
  return 0;
}

// Implements: ESRC-SET-006, ESRC-TRANSFORM-003
/**
 * Why the set cannot be an event source, worded as the real service words the reason after "can't call
 * `.eventSource()` because " (fauna/faunadb `runtime/fql2/ValueSet.scala`), or undefined when it can.
 */
export function streamRefusal(set: FqlSet): string | undefined {
  const source = set.source;
  if (source.kind === 'concat') return 'streaming is not supported on concatenated sets.';
  if (source.kind === 'array') return 'streaming is not supported on array sets.';
  if (source.kind === 'sequence') return 'streaming is not supported on sets created from `Set.sequence()`.';
  if (source.kind === 'documents' && source.collection.kind === 'native')
    return 'only collections and user defined indexes are streamable.';
  for (const op of set.ops) {
    if (op.kind === 'where' || op.kind === 'map' || op.kind === 'project') continue;
    if (op.kind === 'reverse') return 'streaming is not supported on sets that have been reversed.';
    if (op.kind === 'distinct') return 'streaming is not supported on distinct sets.';
    if (op.kind === 'flatMap') return 'streaming is not supported on `.flatMap()` sets.';
    return `streaming is not supported on sets returned from \`.${op.kind}()\`.`;
  }
  return undefined;
}
