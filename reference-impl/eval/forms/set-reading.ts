/**
 * Turns a set value (`@set` structure, or a native collection ref) into an ordered set Paginate can walk.
 * Index sets read the index's B+ tree with the request's own pending writes laid over it; Union, Intersection,
 * Difference and Distinct stream from their operands (`indexes/composite-sets.ts`); Join is materialised (SD "Set":
 * Match, Union, Intersection, Difference, Distinct, Join, Documents). Of the v4 set functions (DEC-065), Range
 * streams from its set; Filter and Singleton are materialised.
 */
import { toExpr } from '../../codec/v4-expression-parser.js';
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint, failpointWhere } from '../../failpoints.js';
import {
  CombinedSet,
  DistinctSet,
  FilteredSet,
  RangeSet,
  SourcedSet,
  chosenOperand,
  sameOrder,
  sourcesOf,
  type Combination,
} from '../../indexes/composite-sets.js';
import { ArraySet, IndexTermSet, type OrderedSet } from '../../indexes/ordered-set.js';
import { collectionKeyOf, indexedDocument, type IndexManager, type LiveIndex } from '../../indexes/index-manager.js';
import { entriesFor } from '../../indexes/entries.js';
import { IndexStore, valueKey, type IndexTuple } from '../../indexes/index-store.js';
import { compareTuples } from '../../indexes/value-order.js';
import { isExpired, userCollectionKey, type CollectionKey, type DatabaseId, type DocumentVersion } from '../../store/store.js';
import { QueryValue, Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import { Scope, type EvalContext } from '../context.js';
import {
  isNativeCollection,
  locateDocument,
  requireAccess,
  requireListingAccess,
  resolveCollection,
  resolveDatabaseScope,
} from '../documents.js';
import { LambdaValue, applyLambda } from '../lambda.js';
import { listedCollectionRef } from './listing-page.js';
import { eventHistory } from './event-history-sets.js';

export const INDEXES_REF = new Ref('indexes');

/** True for `Ref(name, Ref(indexes))`. */
export function isIndexRef(v: Value | undefined): v is Ref {
  return v instanceof Ref && v.collection !== undefined && v.collection.id === 'indexes' && v.collection.collection === undefined;
}

// Implements: IDX-RULE-007, SET-MATCH-006
/** The index record a ref names, as this request sees it; `invalid ref` when there is none. */
export function indexRecord(
  ctx: EvalContext,
  ref: Value,
  position: Position,
): { database: DatabaseId; ref: Ref; version: DocumentVersion } {
  if (!isIndexRef(ref)) throw errors.invalidArgument(`Index ref expected, ${typeName(ref)} provided.`, position);
  const database = resolveDatabaseScope(ctx, ref.database ?? ref.collection!.database, position);
  const version = ctx.txn.get(database, 'indexes', ref.id);
  if (!version) throw errors.invalidRef(`Ref refers to undefined index '${ref.id}'`, position);
  return { database, ref, version };
}

// Implements: IDX-RULE-008
/** The committed index behind a ref and its record; not access-checked (see `entryAccess`). */
function committedIndex(
  ctx: EvalContext,
  indexes: IndexManager,
  ref: Value,
  position: Position,
): { index: LiveIndex; record: ReturnType<typeof indexRecord> } {
  const record = indexRecord(ctx, ref, position);
  const id = record.version.hidden.indexId;
  const index = id === undefined ? undefined : indexes.byIndexId(record.database, id);
  if (!index) throw errors.invalidArgument(`Index '${record.ref.id}' was created in this transaction and cannot be read in it.`, position);
  return { index, record };
}

// Implements: FN-SET-008, ABAC-PRED-006, ABAC-PRED-008, ABAC-PRED-009
/**
 * How the caller may read the entries of a Match on an index (DEC-054), as the real service decides it: every entry
 * (`unrestricted_read`, a key role, a public index), or only the entries of documents the caller may read (`read`);
 * `permission denied` otherwise. Index predicates receive the Match's terms.
 */
async function entryAccess(
  ctx: EvalContext,
  record: ReturnType<typeof indexRecord>,
  terms: readonly Value[],
  position: Position,
): Promise<'every' | 'readable'> {
  const request = { database: record.database, collection: 'indexes', ref: record.ref, before: record.version, terms };
  const unrestricted = ctx.services.access.allows(ctx, { ...request, action: 'unrestricted_read' });
  if (unrestricted === true || (unrestricted !== false && (await unrestricted))) return 'every';
  await requireAccess(
    ctx,
    'read',
    { database: record.database, collection: 'indexes', id: record.ref.id, ref: record.ref },
    position,
    record.version,
    undefined,
    terms,
  );
  return 'readable';
}

// Implements: FN-SET-008, AUTH-TOKEN-009, ABAC-PRED-006
/** The entries of `set` whose documents (the ref each tuple ends with) the caller may read, as of `atTs`. */
async function readableEntries(ctx: EvalContext, database: DatabaseId, set: OrderedSet, atTs?: bigint): Promise<OrderedSet> {
  const out: Entry[] = [];
  for (const entry of all(set)) {
    const ref = entry.tuple[entry.tuple.length - 1];
    if (ref instanceof Ref && (await mayReadDocument(ctx, database, ref, atTs))) out.push(entry);
  }
  return new ArraySet(out, set.reverse);
}

async function mayReadDocument(ctx: EvalContext, database: DatabaseId, ref: Ref, atTs?: bigint): Promise<boolean> {
  const parent = ref.collection;
  if (parent === undefined) return false;
  const key = isNativeCollection(parent) ? parent.id : userCollectionKey(parent.id);
  if (ctx.services.access.readsEveryDocument(ctx, database, key)) return true;
  const version = atTs === undefined ? ctx.txn.get(database, key, ref.id) : ctx.txn.getAt(database, key, ref.id, atTs);
  if (!version) return false;
  const allowed = ctx.services.access.allows(ctx, { action: 'read', database, collection: key, ref, before: version });
  return allowed === true || (allowed !== false && (await allowed));
}

// Implements: IDX-TERM-004, IDX-TERM-005, IDX-TERM-006, SET-MATCH-002, SET-MATCH-003, SET-MATCH-004
/** The term tuple a Match names: a bare scalar stands for a one-element array (SD "Set"). */
export function termTuple(termCount: number, terms: Value | undefined): Value[] | undefined {
  const given = terms === undefined ? [] : Array.isArray(terms) && (termCount !== 1 || terms.length === 1) ? terms : [terms];
  if (given.length !== termCount) return undefined;
  return given.map((t) => (isObjectValue(t) ? null : t));
}

const EMPTY = new ArraySet([], []);

/**
 * Listings the self-check's failpoints answer empty: of functions, of tokens, and a token's listing of collections it
 * may not read (a server that filters the listing instead of refusing it).
 */
async function listedAsEmpty(ctx: EvalContext, database: DatabaseId, key: CollectionKey): Promise<boolean> {
  if (key === 'functions') return failpoint('UDF-FUNCTIONS-LISTING-EMPTY');
  if (key === 'tokens') return failpoint('AUTH-TOKENS-UNLISTED');
  if (key !== 'collections' || ctx.identity.kind !== 'token' || !failpoint('ABAC-LISTING-FILTERED')) return false;
  return !(await ctx.services.access.allows(ctx, { action: 'read', database, collection: key }));
}

// Implements: DOC-TTL-005
/**
 * An index term set as this request sees it. Stored entries stay until their document is rewritten, so the entries
 * of documents whose ttl has passed are left out here, at read time (DEC-067); only in a database where a document
 * has had a ttl, as elsewhere none can have expired.
 */
function indexTermSet(ctx: EvalContext, indexes: IndexManager, index: LiveIndex, terms: Value[]): OrderedSet {
  const valueCount = index.definition.values.length;
  const removed = new Set<string>();
  const added: IndexTuple[] = [];
  /** Documents this request wrote: their stored entries are replaced by `added`, which is judged as it is built. */
  const written = new Set<string>();
  const sameTerms = (t: Value[]): boolean => valueKey(t) === valueKey(terms);
  for (const record of ctx.txn.commitRecords()) {
    if (record.database !== index.database) continue;
    for (const w of record.writes) {
      if (!indexes.covers(index, w.collection)) continue;
      written.add(documentKey(w.collection, w.id));
      for (const e of indexes.entriesOf(index, w.collection, w.id, w.before))
        if (sameTerms(e.terms)) removed.add(valueKey(IndexStore.tupleOf(e)));
      if (isExpired(w.collection, w.after, ctx.txn.ts)) continue;
      for (const e of indexes.entriesOf(index, w.collection, w.id, w.after)) if (sameTerms(e.terms)) added.push(IndexStore.tupleOf(e));
    }
  }
  const set = new IndexTermSet(index.entries, terms, valueCount, removed, added);
  if (!ctx.txn.store.mayHoldExpiringDocuments(index.database)) return set;
  return new FilteredSet(set, (_element, tuple) => {
    const ref = tuple[tuple.length - 1];
    if (!(ref instanceof Ref) || ref.collection === undefined || written.has(documentKey(collectionKeyOf(ref.collection), ref.id)))
      return true;
    return !indexes.isExpiredDocument(index.database, ref, ctx.txn.ts);
  });
}

function documentKey(collection: CollectionKey, id: string): string {
  return `${collection}\u0000${id}`;
}

// Implements: FN-HIST-003
/** An index term set as it was at `atTs`, rebuilt from the documents of that time. */
function historicTermSet(ctx: EvalContext, indexes: IndexManager, index: LiveIndex, terms: Value[], atTs: bigint): OrderedSet {
  const valueCount = index.definition.values.length;
  const out: Array<{ tuple: IndexTuple; element: Value }> = [];
  const state = ctx.txn.store.database(index.database);
  for (const key of state?.orderedIds.keys() ?? []) {
    if (!indexes.covers(index, key)) continue;
    for (const [id, version] of ctx.txn.store.scanCollection(index.database, key, atTs, ctx.txn.ts)) {
      for (const e of entriesFor(index.definition, indexedDocument(key, id, version))) {
        if (valueKey(e.terms) !== valueKey(terms)) continue;
        const tuple = IndexStore.tupleOf(e);
        out.push({ tuple, element: valueCount === 0 ? e.ref : valueCount === 1 ? e.values[0]! : e.values });
      }
    }
  }
  return new ArraySet(out, index.entries.reverse);
}

/** A tuple of a set with its page element and the sources of it (where the set tracks them). */
type Entry = { tuple: IndexTuple; element: Value; sources: readonly Value[] };

function all(set: OrderedSet): Entry[] {
  const out: Entry[] = [];
  const it = set.ascending();
  for (let r = it.next(); !r.done; r = it.next())
    out.push({ tuple: r.value, element: set.element(r.value), sources: sourcesOf(set, r.value) });
  return out;
}

/** Every distinct source of `entries`. */
function mergedSources(entries: readonly Entry[]): Value[] {
  const seen = new Map<string, Value>();
  for (const e of entries) for (const source of e.sources) seen.set(valueKey(source), source);
  return [...seen.values()];
}

/** Entries in order with repeated elements dropped: the first in order stays, with the sources of them all. */
function distinctEntries(entries: Entry[], reverse: readonly boolean[]): Entry[] {
  const sorted = [...entries].sort((a, b) => compareTuples(a.tuple, b.tuple, reverse));
  const byKey = new Map<string, Entry[]>();
  for (const e of sorted) {
    const k = valueKey(e.element);
    const same = byKey.get(k);
    if (same === undefined) byKey.set(k, [e]);
    else same.push(e);
  }
  return [...byKey.values()].map((same) => ({ ...same[0]!, sources: mergedSources(same) }));
}

// Implements: SET-DIFF-002, SET-INTERSECT-003, SET-UNION-002
/**
 * A combination of operands that share no order (refs with covered values, say), built in full: the same multiset
 * rule as `CombinedSet`, per element over every operand, sorted in the first operand's order.
 */
function combinedEntries(kind: Combination, operands: readonly Entry[][], reverse: readonly boolean[]): ArraySet {
  const byKey = new Map<string, Entry[][]>();
  operands.forEach((entries, i) => {
    for (const e of entries) {
      const k = valueKey(e.element);
      let groups = byKey.get(k);
      if (groups === undefined) {
        groups = operands.map(() => []);
        byKey.set(k, groups);
      }
      groups[i]!.push(e);
    }
  });
  const out: Entry[] = [];
  for (const groups of byKey.values()) {
    const chosen = chosenOperand(
      kind,
      groups.map((g) => g.length),
    );
    if (chosen === undefined) continue;
    const sources = mergedSources(groups.flat());
    for (const e of groups[chosen]!) out.push({ ...e, sources });
  }
  return new ArraySet(out, reverse);
}

function operandList(v: Value | undefined): Value[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

/** Every readable record of a collection; `scope` is the database scope the listed record refs carry, if any. */
async function listing(
  ctx: EvalContext,
  database: DatabaseId,
  key: CollectionKey,
  collectionRef: Ref,
  atTs?: bigint,
  scope?: Ref,
): Promise<OrderedSet> {
  const docs: Iterable<[string, DocumentVersion]> =
    atTs === undefined ? ctx.txn.scan(database, key) : ctx.txn.store.scanCollection(database, key, atTs, ctx.txn.ts);
  const out: Array<{ tuple: IndexTuple; element: Value }> = [];
  const readsAll = ctx.services.access.readsEveryDocument(ctx, database, key);
  for (const [id, version] of docs) {
    const ref = new Ref(id, collectionRef, scope);
    const allowed = readsAll || ctx.services.access.allows(ctx, { action: 'read', database, collection: key, ref, before: version });
    if (allowed === true || (allowed !== false && (await allowed))) out.push({ tuple: [ref], element: ref });
  }
  return new ArraySet(out, []);
}

// Implements: FN-SET-002, FN-SET-003
/** A `Range` bound as a tuple (DEC-065): an array is the tuple, any other value a tuple of one; absent is unbounded. */
function rangeBound(bound: Value | undefined): Value[] {
  return bound === undefined ? [] : Array.isArray(bound) ? bound : [bound];
}

// Implements: FN-SET-009
/**
 * `Singleton(ref)` (DEC-065): the ref while its document exists, else nothing. As in the real service, reading it
 * needs `history_read` on the document (not `read`); a native collection's ref names no document, so its set is empty.
 */
async function singleton(ctx: EvalContext, ref: Value, position: Position, atTs?: bigint): Promise<OrderedSet> {
  if (!(ref instanceof Ref)) throw errors.invalidArgument(`Ref expected, ${typeName(ref)} provided.`, position);
  if (ref.collection === undefined) return EMPTY;
  const location = locateDocument(ctx, ref, position);
  const version =
    atTs === undefined
      ? ctx.txn.get(location.database, location.collection, location.id)
      : ctx.txn.getAt(location.database, location.collection, location.id, atTs);
  await requireAccess(ctx, 'history_read', location, position, version);
  return new ArraySet(version ? [{ tuple: [ref], element: ref }] : [], []);
}

/** `Reverse(set)` (DEC-065): the same entries, every column of their tuples (the ref included) in the opposite order. */
function reversed(set: OrderedSet): OrderedSet {
  const entries = all(set);
  let width = set.reverse.length;
  for (const entry of entries) width = Math.max(width, entry.tuple.length);
  return new ArraySet(
    entries,
    Array.from({ length: width }, (_, i) => !(set.reverse[i] ?? false)),
  );
}

/** The lambda of a Join or Map: an evaluated lambda, or a stored `@query` given back to the server. */
export function asLambda(v: Value, position: Position): LambdaValue {
  if (v instanceof LambdaValue) return v;
  if (v instanceof QueryValue) return new LambdaValue(v.lambda, v.expr, toExpr(v.expr, position), Scope.EMPTY, v.apiVersion);
  throw errors.invalidArgument(`Lambda expected, ${typeName(v)} provided.`, position);
}

/** How a set is read: `sources` tracks, for `Paginate` with `sources: true`, the set values each element comes from. */
export interface ReadOptions {
  sources?: boolean;
}

export class SetReader {
  constructor(readonly indexes: IndexManager) {}

  /** The ordered set a set value designates, as of `givenTs` if given, else of an enclosing `At`'s time. */
  async read(ctx: EvalContext, set: Value, position: Position, givenTs?: bigint, options: ReadOptions = {}): Promise<OrderedSet> {
    const atTs = givenTs ?? ctx.readTs;
    // A set read from one set value is the source of its elements (a composite set names those of its operands).
    const own = (ordered: OrderedSet): OrderedSet => (options.sources ? new SourcedSet(ordered, set) : ordered);
    if (set instanceof Ref && isNativeCollection(set)) {
      const database = resolveDatabaseScope(ctx, set.database, position);
      if (await listedAsEmpty(ctx, database, set.id)) return own(EMPTY);
      await requireListingAccess(ctx, database, set.id, position);
      return own(await listing(ctx, database, set.id, new Ref(set.id), atTs, set.database));
    }
    if (!(set instanceof SetRef)) throw errors.invalidArgument(`Set expected, ${typeName(set)} provided.`, position);
    const s: ObjectValue = set.structure;
    if ('match' in s) return own(await this.match(ctx, s.match!, s.terms, position, atTs));
    if ('documents' in s) {
      const collection = s.documents;
      if (!(collection instanceof Ref))
        throw errors.invalidArgument(`Collection ref expected, ${typeName(collection ?? null)} provided.`, position);
      const { database, collection: key } = resolveCollection(ctx, collection, position);
      return own(await listing(ctx, database, key, listedCollectionRef(collection, key), atTs));
    }
    if ('union' in s || 'intersection' in s || 'difference' in s) {
      const kind: Combination = 'union' in s ? 'union' : 'intersection' in s ? 'intersection' : 'difference';
      const operands: OrderedSet[] = [];
      for (const operand of operandList(s[kind])) operands.push(await this.read(ctx, operand, position, atTs, options));
      if (operands.length === 0) return EMPTY;
      if (sameOrder(operands)) return new CombinedSet(kind, operands, options.sources);
      // Operands of different orders (e.g. refs with covered values) have no common merge order: sort them all.
      return combinedEntries(kind, operands.map(all), operands[0]!.reverse);
    }
    if ('distinct' in s) return new DistinctSet(await this.read(ctx, s.distinct!, position, atTs, options));
    if ('join' in s) return this.join(ctx, s.join!, s.with ?? null, position, atTs, options);
    // Implements: FN-ARR-008
    if ('reverse' in s) return reversed(await this.read(ctx, s.reverse!, position, atTs, options));
    if ('range' in s) return new RangeSet(await this.read(ctx, s.range!, position, atTs, options), rangeBound(s.from), rangeBound(s.to));
    if ('singleton' in s) return own(await singleton(ctx, s.singleton!, position, atTs));
    if ('filter' in s) return this.filtered(ctx, s.filter!, s.collection ?? null, position, atTs, options);
    if ('events' in s) return own(await eventHistory(ctx, s.events!, position, atTs, this));
    throw errors.invalidArgument('Set expected.', position);
  }

  // Implements: PAGE-DOC-001
  /**
   * The set `Paginate` pages: a set value, or a document ref, which pages as the set of that one ref while the
   * document exists and is read with `history_read` on it, as `Singleton` is (PAGE-DOC-001); its own source is the ref.
   */
  async readPaged(ctx: EvalContext, set: Value, position: Position, givenTs?: bigint, options: ReadOptions = {}): Promise<OrderedSet> {
    if (!isDocumentRef(set)) return this.read(ctx, set, position, givenTs, options);
    const ordered = await singleton(ctx, set, position, givenTs ?? ctx.readTs);
    return options.sources ? new SourcedSet(ordered, set) : ordered;
  }

  // Implements: FN-SET-012, FN-SET-013
  /**
   * `Filter(lambda, set)` (DEC-065): the entries whose element the lambda answers true for, in the set's order. The
   * lambda runs over every readable entry of the set, so a page costs the whole set; an answer that is not a boolean
   * is `invalid argument` at the lambda (`[…position, "filter"]`).
   */
  private async filtered(
    ctx: EvalContext,
    lambdaValue: Value,
    source: Value,
    position: Position,
    atTs: bigint | undefined,
    options: ReadOptions,
  ): Promise<OrderedSet> {
    const at: Position = [...position, 'filter'];
    const lambda = asLambda(lambdaValue, at);
    const inner = await this.read(ctx, source, position, atTs, options);
    const kept: Entry[] = [];
    for (const entry of all(inner)) {
      const verdict = await applyLambda(ctx, lambda, [entry.element], [...at, 'lambda']);
      if (typeof verdict !== 'boolean') throw errors.invalidArgument(`Boolean expected, ${typeName(verdict)} provided.`, at);
      if (verdict) kept.push(entry);
    }
    return new ArraySet(kept, inner.reverse);
  }

  // Implements: SET-MATCH-003, SET-MATCH-004, SET-MATCH-005
  private async match(ctx: EvalContext, indexRef: Value, terms: Value | undefined, position: Position, atTs?: bigint): Promise<OrderedSet> {
    const { index, record } = committedIndex(ctx, this.indexes, indexRef, position);
    const tuple = termTuple(index.definition.terms.length, terms);
    const access = await entryAccess(ctx, record, tuple ?? operandList(terms), position);
    const unindexed = failpointWhere('AUTH-TOKEN-INDEX-EMPTY', () => this.indexes.covers(index, 'tokens'));
    if (tuple === undefined || unindexed) return new ArraySet([], index.entries.reverse);
    const set =
      atTs !== undefined && atTs < ctx.txn.ts
        ? historicTermSet(ctx, this.indexes, index, tuple, atTs)
        : indexTermSet(ctx, this.indexes, index, tuple);
    return access === 'every' ? set : readableEntries(ctx, index.database, set, atTs);
  }

  // Implements: SET-JOIN-001, SET-JOIN-002
  /**
   * `Join(source, with)`: the sets `with` gives for each element of the source (a Match of that index, or what the
   * lambda answers), merged with equal elements collapsed to one, as the real service merges them.
   */
  private async join(
    ctx: EvalContext,
    source: Value,
    target: Value,
    position: Position,
    atTs: bigint | undefined,
    options: ReadOptions,
  ): Promise<OrderedSet> {
    const read = all(await this.read(ctx, source, position, atTs));
    const entries = failpoint('SET-JOIN-FIRST-SOURCE-VALUE-ONLY') ? read.slice(0, 1) : read;
    const parts: OrderedSet[] = [];
    for (const { element } of entries) {
      const part = isIndexRef(target)
        ? new SetRef({ match: target, terms: element })
        : await applyLambda(ctx, asLambda(target, position), [element], position);
      parts.push(await this.read(ctx, part, position, atTs, options));
    }
    if (parts.length === 0) return EMPTY;
    const reverse = parts[0]!.reverse;
    if (failpoint('SET-JOIN-CONCATENATES'))
      return new ArraySet(
        parts.flatMap(all).map((e, i) => ({ ...e, tuple: [i] })),
        [],
      );
    return new ArraySet(distinctEntries(parts.flatMap(all), reverse), reverse);
  }
}

/** A ref to a document (not to a collection or other native listing, which are sets themselves). */
function isDocumentRef(v: Value): v is Ref {
  return v instanceof Ref && v.collection !== undefined;
}
