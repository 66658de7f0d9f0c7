/**
 * Keeps every index's entries in step with the store (SD "Index", "States and transitions").
 *
 * - Index records are documents of the native `indexes` collection; each carries a hidden `indexId`, so a
 *   rename (which moves the record to its new name) keeps the same entries and nothing rebuilds.
 * - After each commit the entries of every written document are replaced in the indexes covering it.
 * - Every new index is built over the documents that existed at its creation, whatever `active` says, as the real
 *   service does (DEC-033; `active: true` only lets reads see a build in progress). A small source (see
 *   `buildsAtOnce`) is built in the commit that creates the index, whose record then already says `active: true`;
 *   any other is built in the background in batches (yielding to the event loop between them) from the documents
 *   as of its creation; documents written later are kept by the commit listener, so the builder skips them. When
 *   done, the record is updated to `active: true`.
 * - Deleting a collection retires it from the indexes that name it among others (those naming only it are deleted
 *   with it, `eval/forms/documents.ts`): a later collection of the same name is not covered (DEC-042).
 * - Uniqueness is checked by a commit validator under the commit lock, so it holds under concurrent writes.
 * - `terms`, `values`, `partitions` and `source` cannot change after creation (a commit validator refuses it).
 */
import { QueryError, type ValidationFailure } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import {
  isExpired,
  userCollectionKey,
  userCollectionName,
  type CollectionKey,
  type CommitRecord,
  type DatabaseId,
  type DocumentVersion,
  type DocumentWrite,
  type Store,
} from '../store/store.js';
import type { Transaction } from '../txn/transaction.js';
import type { TransactionManager } from '../txn/transaction-manager.js';
import { Ref, type ObjectValue, type Value } from '../values/value.js';
import { compileBinding } from './binding-compiler.js';
import { entriesFor, type IndexEntry } from './entries.js';
import { parseIndexDefinition, type IndexDefinition, type IndexedDocument } from './index-definition.js';
import { IndexStore, termsKey, valueKey, type IndexTuple } from './index-store.js';
import { compareTuples, compareValues } from './value-order.js';

/** Documents indexed per background build step before yielding to the event loop. */
export const BUILD_BATCH_SIZE = 256;

/** Most document versions a source may hold for its index to be built in the creating transaction (the service's). */
export const BUILD_AT_ONCE_VERSIONS = 128;

// Implements: IDX-STATE-004, IDX-STATE-005
/**
 * Whether an index over `definition` is built in the transaction that creates it, as the real service decides
 * (fauna/faunadb `WriteAdaptor.scala` `fetchForSyncIdxBuild`): its source is one source object, naming collections
 * that hold at most BUILD_AT_ONCE_VERSIONS document versions in all, or the wildcard where no collection ever held a
 * document (nothing to build; the service takes this path only in a database without collections). Any other index
 * is built in the background.
 */
export function buildsAtOnce(store: Store, database: DatabaseId, definition: IndexDefinition): boolean {
  if (definition.sources.length !== 1) return false;
  const source = definition.sources[0]!;
  const state = store.database(database);
  if (source.collections === '_')
    return ![...(state?.orderedIds.keys() ?? [])].some(
      (key) => userCollectionName(key) !== undefined && (state?.orderedIds.get(key)?.size ?? 0) > 0,
    );
  let versions = 0;
  for (const collection of source.collections) {
    for (const [, history] of state?.orderedIds.get(collectionKeyOf(collection))?.entries() ?? []) {
      versions += Array.isArray(history) ? history.length : 1;
      if (versions > BUILD_AT_ONCE_VERSIONS) return false;
    }
  }
  return true;
}

/** Record fields that can never change after an index is created. */
export const IMMUTABLE_INDEX_FIELDS = ['source', 'terms', 'values', 'partitions'] as const;

export interface LiveIndex {
  readonly id: string;
  readonly database: DatabaseId;
  /** The current name (the id of its record). */
  name: string;
  readonly definition: IndexDefinition;
  /** The record's fields as last committed (unique and permissions may change). */
  fields: ObjectValue;
  /** Replaced only by the fault IDX-RENAME-REBUILDS. */
  entries: IndexStore;
  /** False while a background build is running. */
  built: boolean;
  /** Commit timestamp of the index's creation. */
  readonly createdTs: bigint;
  /**
   * Collections a source names that have been deleted since (an index naming others stays, DEC-042): their documents
   * are gone, and a later collection of the same name is another collection, which the index does not cover.
   */
  readonly retired: Set<CollectionKey>;
}

/**
 * One Ref per collection key (Refs are immutable): the documents a listing returns share it, and the codec keeps
 * its wire text, so it is built once rather than per request. Bounded, as collection names are the clients'.
 */
const collectionRefs = new Map<CollectionKey, Ref>();
const MAX_KEPT_COLLECTION_REFS = 10_000;
const COLLECTIONS = new Ref('collections');

/** The collection ref a collection key designates: `Ref(name, Ref(collections))` or a native collection `Ref(name)`. */
export function collectionRefOf(key: CollectionKey): Ref {
  let ref = collectionRefs.get(key);
  if (ref === undefined) {
    if (collectionRefs.size >= MAX_KEPT_COLLECTION_REFS) collectionRefs.clear();
    const name = userCollectionName(key);
    ref = name === undefined ? new Ref(key) : new Ref(name, COLLECTIONS);
    collectionRefs.set(key, ref);
  }
  return ref;
}

/** The collection key of a source ref (user or native collection). */
export function collectionKeyOf(ref: Ref): CollectionKey {
  return ref.collection === undefined ? ref.id : `collections/${ref.id}`;
}

/** A stored document as the index layer sees it: `{ref, ts, …fields}`. */
export function indexedDocument(key: CollectionKey, id: string, version: DocumentVersion): IndexedDocument {
  return documentWithRef(new Ref(id, collectionRefOf(key)), version);
}

function documentWithRef(ref: Ref, version: DocumentVersion): IndexedDocument {
  return { ref, ts: version.ts, ...version.fields };
}

function isLive(version: DocumentVersion | undefined): version is DocumentVersion {
  return version !== undefined && version.action !== 'delete';
}

/** The definition an index record describes (records are validated at creation, so this does not fail). */
export function definitionOf(fields: ObjectValue): IndexDefinition {
  return parseIndexDefinition(fields, { compileBinding });
}

function keyOf(database: DatabaseId, name: string): string {
  return `${database}\u0000${name}`;
}

function entryKey(e: IndexEntry): string {
  return `${termsKey(e.terms)}#${valueKey([...e.values, e.ref])}`;
}

export class IndexManager {
  private readonly byId = new Map<string, LiveIndex>();
  /**
   * `indexesOf` per database, built on first use and dropped whenever `byId` changes: every commit asks for its
   * database's indexes (twice), and filtering every index of every database each time grew with the tenants.
   */
  private readonly byDatabase = new Map<DatabaseId, readonly LiveIndex[]>();
  private readonly byName = new Map<string, LiveIndex>();
  /** The entries of deleted indexes by name, kept only by the fault IDX-DELETED-ENTRIES-LINGER. */
  private readonly lingering = new Map<string, IndexStore>();
  private readonly builds = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly transactions: TransactionManager,
  ) {
    store.onCommit((record) => this.applyCommit(record));
    store.onPurge((databases) => this.forget(databases));
    transactions.addCommitValidator((txn, records) => this.validate(txn, records));
  }

  /** Drops the indexes of deleted databases (their entries are most of what such a database held). */
  private forget(databases: ReadonlySet<DatabaseId>): void {
    for (const [key, index] of this.byId) if (databases.has(index.database)) this.byId.delete(key);
    for (const [key, index] of this.byName) if (databases.has(index.database)) this.byName.delete(key);
    for (const database of databases) this.byDatabase.delete(database);
  }

  /** The committed index called `name` in `database`, or undefined. */
  lookup(database: DatabaseId, name: string): LiveIndex | undefined {
    return this.byName.get(keyOf(database, name));
  }

  /** The committed index with this internal id, or undefined. */
  byIndexId(database: DatabaseId, id: string): LiveIndex | undefined {
    const index = this.byId.get(keyOf(database, id));
    return index;
  }

  /** Every committed index of `database`. */
  indexesOf(database: DatabaseId): readonly LiveIndex[] {
    let indexes = this.byDatabase.get(database);
    if (indexes === undefined) {
      indexes = [...this.byId.values()].filter((i) => i.database === database);
      this.byDatabase.set(database, indexes);
    }
    return indexes;
  }

  /** Resolves when every background build started so far has finished. */
  async whenBuilt(): Promise<void> {
    while (this.builds.size > 0) await Promise.all([...this.builds]);
  }

  /** Whether `index` covers documents of the collection `key`. */
  covers(index: LiveIndex, key: CollectionKey): boolean {
    const isUser = userCollectionName(key) !== undefined;
    const ref = collectionRefOf(key);
    const retired = index.retired.size > 0 && index.retired.has(key);
    return index.definition.sources.some((s) => (s.collections === '_' ? isUser : !retired && s.collections.some((c) => c.equals(ref))));
  }

  /** The entries a version of a document contributes to `index` (none for a missing or deleted version). */
  entriesOf(index: LiveIndex, key: CollectionKey, id: string, version: DocumentVersion | undefined): IndexEntry[] {
    if (!version || version.action === 'delete' || !this.covers(index, key)) return [];
    return entriesFor(index.definition, indexedDocument(key, id, version));
  }

  /** Like `entriesOf`, for a document already in index form (so several indexes share its ref instance). */
  private entriesOfDocument(index: LiveIndex, document: IndexedDocument | undefined): IndexEntry[] {
    return document === undefined ? [] : entriesFor(index.definition, document);
  }

  // ---- commits ------------------------------------------------------------------------------------------

  // Implements: IDX-RULE-010, IDX-VALUE-006
  private applyCommit(record: CommitRecord): void {
    // Most commits touch no index record in a database without indexes: nothing to do, nothing to allocate.
    if (this.indexesOf(record.database).length === 0 && !record.writes.some(isIndexRecord)) return;
    const indexWrites = record.writes.filter(isIndexRecord);
    const fresh = new Set<string>();
    if (indexWrites.length > 0) this.applyIndexRecords(record, indexWrites, fresh);
    const documentWrites = record.writes.filter((w) => !isIndexRecord(w));
    if (documentWrites.length === 0) return;
    const indexes = this.indexesOf(record.database).filter((index) => !fresh.has(index.id));
    if (indexes.length === 0) return;
    this.applyDocumentWrites(documentWrites, indexes);
    // After the deleted collection's documents left the indexes above. The fault IDX-RETIRED-COLLECTION-COVERED keeps
    // covering the name, so a later namesake's documents enter the index.
    for (const w of documentWrites) {
      if (w.collection !== 'collections' || w.action !== 'delete' || failpoint('IDX-RETIRED-COLLECTION-COVERED')) continue;
      const key = userCollectionKey(w.id);
      const ref = collectionRefOf(key);
      for (const index of indexes) {
        if (index.definition.sources.some((s) => s.collections !== '_' && s.collections.some((c) => c.equals(ref)))) index.retired.add(key);
      }
    }
  }

  // Implements: IDX-STATE-006, IDX-VALUE-006
  private applyDocumentWrites(documentWrites: readonly DocumentWrite[], indexes: readonly LiveIndex[]): void {
    // Stored index tuples hold the document's ref: one ref per document (and one collection ref per collection,
    // see collectionRefOf) shared by every index, instead of three fresh refs per index entry.
    for (const w of documentWrites) {
      const covering = indexes.filter((index) => this.covers(index, w.collection));
      if (covering.length === 0) continue;
      const ref = new Ref(w.id, collectionRefOf(w.collection));
      const before = isLive(w.before) ? documentWithRef(ref, w.before) : undefined;
      const after = isLive(w.after) ? documentWithRef(ref, w.after) : undefined;
      // The fault IDX-DELETE-NOT-UNINDEXED leaves a deleted document's entries in its indexes.
      if (w.action === 'delete' && failpoint('IDX-DELETE-NOT-UNINDEXED')) continue;
      for (const index of covering) index.entries.apply(this.entriesOfDocument(index, before), this.entriesOfDocument(index, after));
    }
  }

  // Implements: IDX-RULE-002, IDX-RULE-010
  private applyIndexRecords(record: CommitRecord, writes: readonly DocumentWrite[], fresh: Set<string>): void {
    const created = new Map<string, DocumentWrite>();
    for (const w of writes) if (w.action !== 'delete' && w.after.hidden.indexId !== undefined) created.set(w.after.hidden.indexId, w);
    for (const w of writes) {
      if (w.action !== 'delete') continue;
      const id = w.before?.hidden.indexId;
      const index = id === undefined ? undefined : this.byIndexId(record.database, id);
      if (!index) continue;
      this.byName.delete(keyOf(record.database, index.name));
      // The fault IDX-DELETED-ENTRIES-LINGER: a later namesake of a deleted (not renamed) index starts with its entries.
      if (!created.has(index.id) && failpoint('IDX-DELETED-ENTRIES-LINGER'))
        this.lingering.set(keyOf(record.database, index.name), index.entries);
      if (!created.has(index.id) && this.byId.delete(keyOf(record.database, index.id))) this.byDatabase.delete(record.database);
    }
    for (const [id, w] of created) {
      const existing = this.byIndexId(record.database, id);
      if (existing) {
        if (existing.name !== w.id && failpoint('IDX-RENAME-REBUILDS'))
          existing.entries = new IndexStore(existing.entries.reverse, existing.entries.partitions);
        this.byName.delete(keyOf(record.database, existing.name));
        existing.name = w.id;
        existing.fields = w.after.fields;
        this.byName.set(keyOf(record.database, w.id), existing);
        continue;
      }
      const definition = definitionOf(w.after.fields);
      const index: LiveIndex = {
        id,
        database: record.database,
        name: w.id,
        definition,
        fields: w.after.fields,
        entries:
          this.lingering.get(keyOf(record.database, w.id)) ??
          new IndexStore(
            definition.values.map((v) => v.reverse),
            definition.partitions,
          ),
        built: false,
        createdTs: record.ts,
        retired: new Set(),
      };
      this.byId.set(keyOf(record.database, id), index);
      this.byDatabase.delete(record.database);
      this.byName.set(keyOf(record.database, w.id), index);
      fresh.add(id);
      // Asked here, in the creating request, so that the answer reports it fired.
      const skipExisting = failpoint('IDX-ACTIVE-BEFORE-BUILT');
      const partial = definition.active && failpoint('IDX-ACTIVE-TRUE-PARTIAL-BUILD');
      if (buildsAtOnce(this.store, record.database, definition)) this.buildAtOnce(index, partial);
      else this.startBuild(index, skipExisting, partial);
    }
  }

  // ---- background build ---------------------------------------------------------------------------------

  private sourceKeys(index: LiveIndex): CollectionKey[] {
    const state = this.store.database(index.database);
    const keys = new Set<CollectionKey>();
    for (const s of index.definition.sources) {
      if (s.collections === '_') {
        for (const key of state?.orderedIds.keys() ?? []) if (userCollectionName(key) !== undefined) keys.add(key);
      } else {
        for (const c of s.collections) keys.add(collectionKeyOf(c));
      }
    }
    return [...keys].filter((key) => this.covers(index, key));
  }

  // Implements: IDX-STATE-002, IDX-STATE-005
  /** The documents a build of `index` covers: every document its source collections held at its creation. */
  private buildWork(index: LiveIndex, partial: boolean): Array<[CollectionKey, string]> {
    const work = this.sourceKeys(index).flatMap((key) =>
      this.store.documentIds(index.database, key).map((id): [CollectionKey, string] => [key, id]),
    );
    // The fault IDX-ACTIVE-TRUE-PARTIAL-BUILD: an index created `active: true` covers every other existing document.
    return partial ? work.filter((_, i) => i % 2 === 0) : work;
  }

  /** Indexes one document as of the index's creation (one written since is kept by the commit listener). */
  private buildDocument(index: LiveIndex, key: CollectionKey, id: string): void {
    if (this.store.versionsAfter(index.database, key, id, index.createdTs).length > 0) return;
    index.entries.apply([], this.entriesOf(index, key, id, this.store.getDocument(index.database, key, id, index.createdTs)));
  }

  /**
   * Builds a small index in its creating commit (see `buildsAtOnce`): complete before the answer is sent. Its record
   * says `active: true` already (the create form decided the same), unless the source grew meanwhile past the bound.
   */
  private buildAtOnce(index: LiveIndex, partial: boolean): void {
    for (const [key, id] of this.buildWork(index, partial)) this.buildDocument(index, key, id);
    index.built = true;
    if (index.fields.active !== true) this.track(this.markActive(index));
  }

  private startBuild(index: LiveIndex, skipExisting: boolean, partial: boolean): void {
    this.track(this.build(index, skipExisting, partial));
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.builds.delete(tracked));
    this.builds.add(tracked);
  }

  // Implements: IDX-STATE-001, IDX-STATE-002
  /** `skipExisting` is the fault IDX-ACTIVE-BEFORE-BUILT: the index is marked active without covering anything. */
  private async build(index: LiveIndex, skipExisting: boolean, partial: boolean): Promise<void> {
    const work = skipExisting ? [] : this.buildWork(index, partial);
    for (let i = 0; i < work.length; i += BUILD_BATCH_SIZE) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!this.isCurrent(index)) return;
      for (const [key, id] of work.slice(i, i + BUILD_BATCH_SIZE)) this.buildDocument(index, key, id);
    }
    if (!this.isCurrent(index)) return;
    index.built = true;
    await this.markActive(index);
  }

  /** Updates the index's record to `active: true` (a later transaction, as the build's end is). */
  private async markActive(index: LiveIndex): Promise<void> {
    await this.transactions.run(async (txn) => {
      const current = txn.get(index.database, 'indexes', index.name);
      if (!current || current.hidden.indexId !== index.id || current.fields.active === true) return;
      txn.write(index.database, 'indexes', index.name, 'update', { ...current.fields, active: true }, current.hidden);
    });
  }

  private isCurrent(index: LiveIndex): boolean {
    return this.byIndexId(index.database, index.id) === index;
  }

  // ---- commit validation --------------------------------------------------------------------------------

  private validate(_txn: Transaction, records: readonly CommitRecord[]): void {
    for (const record of records) {
      for (const w of record.writes) if (w.collection === 'indexes') this.checkImmutable(record.database, w);
      // A history edit (DEC-068) that changes a document's newest version changes its index entries as a write does.
      const writes = record.historyEdits === undefined ? record.writes : this.store.historyEditWrites(record.database, record.historyEdits);
      for (const index of this.indexesOf(record.database)) {
        if (index.fields.unique === true) this.checkUnique(index, writes, record.ts);
      }
    }
  }

  // Implements: IDX-RULE-004, IDX-RULE-005, IDX-RULE-006, IDX-RULE-012
  /**
   * Refuses a write that changes an index's shape, as the real service does (fauna/faunadb `WriteAdaptor.scala`
   * `matchOrThrow`): a validation failure of code `invalid index`, the partition count first.
   */
  private checkImmutable(database: DatabaseId, w: DocumentWrite): void {
    const id = w.after.hidden.indexId;
    const index = id === undefined || w.action === 'delete' ? undefined : this.byIndexId(database, id);
    if (!index) return;
    const changed = (field: string): boolean => compareValues(index.fields[field] ?? null, w.after.fields[field] ?? null) !== 0;
    const [before, after] = [effectivePartitions(index.fields), effectivePartitions(w.after.fields)];
    let failure: ValidationFailure | undefined;
    if (before !== after) {
      failure = { field: [], code: 'invalid index', description: `Index partition count may not be updated (${before} -> ${after}).` };
    } else if (changed('partitions')) {
      failure = {
        field: [],
        code: 'invalid index',
        description: `Index partition count may not be updated (${String(index.fields.partitions)} -> ${String(w.after.fields.partitions ?? null)}).`,
      };
    } else {
      const fields = IMMUTABLE_INDEX_FIELDS.filter((field) => field !== 'partitions' && changed(field));
      if (fields.length > 0)
        failure = {
          field: [],
          code: 'invalid index',
          description: `Index sources, terms, and values may not be updated (${fields.join(', ')}).`,
        };
    }
    if (failure !== undefined) throw new QueryError('validation failed', 'document data is not valid.', [], { failures: [failure] });
  }

  // Implements: DOC-TTL-013, TXN-ATOMIC-003, TXN-CONC-002, IDX-UNIQUE-001, IDX-UNIQUE-002, IDX-UNIQUE-003
  // Implements: IDX-UNIQUE-004, IDX-UNIQUE-005
  private checkUnique(index: LiveIndex, writes: readonly DocumentWrite[], ts: bigint): void {
    const removed = new Set<string>();
    const added: IndexEntry[] = [];
    for (const w of writes) {
      if (!this.covers(index, w.collection)) continue;
      for (const e of this.entriesOf(index, w.collection, w.id, w.before)) removed.add(entryKey(e));
      added.push(...this.entriesOf(index, w.collection, w.id, w.after));
    }
    const seen = new Map<string, Ref>();
    for (const e of added) {
      const k = `${termsKey(e.terms)}#${valueKey(e.values)}`;
      const other = seen.get(k);
      if (other && !other.equals(e.ref)) throw notUnique(index);
      seen.set(k, e.ref);
      // The fault IDX-UNIQUE-TERMS-ONLY checks the terms alone: every entry of the term set conflicts.
      const bound: IndexTuple = failpoint('IDX-UNIQUE-TERMS-ONLY') ? [] : [...e.values];
      for (const tuple of index.entries.ascending(e.terms, bound)) {
        if (
          compareTuples(
            tuple.slice(0, bound.length),
            bound,
            index.definition.values.map((v) => v.reverse),
          ) !== 0
        )
          break;
        const ref = tuple[tuple.length - 1] as Value;
        if (!(ref instanceof Ref) || ref.equals(e.ref)) continue;
        if (
          !removed.has(entryKey({ terms: e.terms, values: e.values, ref })) &&
          (failpoint('DOC-TTL-UNIQUE-COUNTS-EXPIRED') || !this.isExpiredDocument(index.database, ref, ts))
        )
          throw notUnique(index);
      }
    }
  }

  /**
   * True when the document `ref` names is expired at `ts`: its stored entries hold no value any more (DEC-067). Only
   * a database where a document has had a ttl is looked at, as elsewhere none can have expired.
   */
  isExpiredDocument(database: DatabaseId, ref: Ref, ts: bigint): boolean {
    if (ref.collection === undefined || !this.store.mayHoldExpiringDocuments(database)) return false;
    const key = collectionKeyOf(ref.collection);
    const version = this.store.versionAt(database, key, ref.id, ts);
    return version !== undefined && isExpired(key, version, ts);
  }
}

/**
 * The partitions an index record's entries are kept in: one for a unique index, whatever `partitions` says (as the
 * real service, fauna/faunadb `doc/Index.scala` `partitionsFromData`), so toggling `unique` on an index of several
 * partitions changes its shape.
 */
function effectivePartitions(fields: ObjectValue): bigint {
  if (fields.unique === true) return 1n;
  const partitions = fields.partitions;
  return typeof partitions === 'bigint' ? partitions : 1n;
}

function notUnique(index: LiveIndex): QueryError {
  return new QueryError('instance not unique', `Document is not unique in index '${index.name}'.`, []);
}

function isIndexRecord(write: DocumentWrite): boolean {
  return write.collection === 'indexes';
}
