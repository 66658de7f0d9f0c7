/**
 * The versioned in-memory store: a tree of databases, each holding collections of documents with their full
 * version history. Schema records (collections, indexes, databases, keys, tokens, roles, functions) are
 * documents of the native collections, so they are versioned, snapshot-readable and reported to commit
 * listeners exactly like user documents.
 *
 * Writes enter only through `commit` (called by the transaction layer under its commit lock).
 */
import { createRequire } from 'node:module';
import { failpoint } from '../failpoints.js';
import { Time, type ObjectValue } from '../values/value.js';

// sorted-btree is CommonJS; require() gives the class the same way under Node and vitest.
const BTree = (createRequire(import.meta.url)('sorted-btree') as typeof import('sorted-btree')).default;
type BTree<K, V> = import('sorted-btree').default<K, V>;

/** Internal, never-reused id of a database (`ROOT_DATABASE` for the root). */
export type DatabaseId = string;
export const ROOT_DATABASE: DatabaseId = '0';

/**
 * Which collection a document lives in: the ref path of the collection — `collections/<name>` for a user
 * collection, the bare native name (`keys`, `tokens`, `collections`, `databases`, …) for a native one.
 */
export type CollectionKey = string;

export function userCollectionKey(name: string): CollectionKey {
  return `collections/${name}`;
}

/** The user collection name of a key, or undefined for native collections. */
export function userCollectionName(key: CollectionKey): string | undefined {
  return key.startsWith('collections/') ? key.slice('collections/'.length) : undefined;
}

export type WriteAction = 'create' | 'update' | 'delete';

/** State kept with a version but never rendered. */
export interface HiddenFields {
  /** BCrypt hash of `credentials.password`. */
  readonly credentialsHash?: string;
  /** SHA-256 (hex) of a key or token secret, compared in constant time at authentication. */
  readonly secretDigest?: string;
  /** For records of the `databases` collection: the database they name. */
  readonly databaseId?: DatabaseId;
  /** For records of the `indexes` collection: the index's internal id, kept across renames. */
  readonly indexId?: string;
}

/** The hidden fields of a version that has none: one frozen object shared by every such version. */
export const NO_HIDDEN_FIELDS: HiddenFields = Object.freeze({});

export interface DocumentVersion {
  /** Commit timestamp, microseconds. */
  readonly ts: bigint;
  readonly action: WriteAction;
  /** Top-level fields except `ref` and `ts` (`data`, `name`, `role`, `instance`, …); `{}` for deletes. */
  readonly fields: ObjectValue;
  readonly hidden: HiddenFields;
}

export interface DocumentWrite {
  readonly collection: CollectionKey;
  readonly id: string;
  readonly action: WriteAction;
  /** Live version before the transaction, if any. */
  readonly before: DocumentVersion | undefined;
  /** The version the transaction wrote. */
  readonly after: DocumentVersion;
}

/**
 * A rewrite of a document's past (FQL v4 Insert and Remove, DEC-068): `insert` puts `version` into the history,
 * replacing the version at the same time if there is one; `remove` takes out the version at `ts` if it is a
 * delete (`deleted`) or a live version (not `deleted`), and does nothing otherwise.
 */
export type HistoryEdit =
  | { readonly kind: 'insert'; readonly collection: CollectionKey; readonly id: string; readonly version: DocumentVersion }
  | { readonly kind: 'remove'; readonly collection: CollectionKey; readonly id: string; readonly ts: bigint; readonly deleted: boolean };

/** What one transaction wrote into one database. */
export interface CommitRecord {
  readonly ts: bigint;
  readonly database: DatabaseId;
  readonly writes: readonly DocumentWrite[];
  /**
   * History edits (DEC-068). A record that has them carries nothing else: `commit` applies them and tells the
   * listeners, as `writes`, each change they made to a document's newest version (which is what indexes keep).
   */
  readonly historyEdits?: readonly HistoryEdit[];
}

export const SCHEMA_COLLECTIONS: ReadonlySet<CollectionKey> = new Set([
  'collections',
  'indexes',
  'databases',
  'keys',
  'roles',
  'functions',
  'access_providers',
]);

/** A committed write to a schema record (collection, index, database, key, role, function). */
export interface SchemaChange extends DocumentWrite {
  readonly ts: bigint;
  readonly database: DatabaseId;
}

export type CommitListener = (record: CommitRecord) => void;
export type SchemaListener = (change: SchemaChange) => void;
/** Told the databases whose contents were just dropped (see `Store.commit`). */
export type PurgeListener = (databases: ReadonlySet<DatabaseId>) => void;

/**
 * A document's versions, oldest first: the version itself while it has only one (most documents), an array
 * once it has more — an array per document costs ~56 bytes, which is half a small document's record.
 */
export type DocumentHistory = DocumentVersion | DocumentVersion[];

/**
 * Part of a collection walk: the live documents' versions, and their ids (each made only when asked for). The lists
 * are sized for the whole chunk up front (growing them as they filled allocated about twice as much).
 */
export class LiveChunk {
  readonly versions: DocumentVersion[];
  /** The tree keys of the same documents (see `idKey`). */
  readonly keys: string[];
  /** How many documents the chunk holds (the lists' first `count` entries). */
  count = 0;

  constructor(capacity: number) {
    this.versions = new Array<DocumentVersion>(capacity);
    this.keys = new Array<string>(capacity);
  }

  add(key: string, version: DocumentVersion): void {
    this.keys[this.count] = key;
    this.versions[this.count++] = version;
  }

  /** The id of the `i`th document. */
  id(i: number): string {
    return idOfKey(this.keys[i]!);
  }
}

export interface DatabaseState {
  readonly id: DatabaseId;
  /** Undefined for the root. */
  readonly parent: DatabaseId | undefined;
  /**
   * Per collection (every collection ever written), every document it ever held with its history: keyed by `idKey`,
   * so ids are in `compareIds` order (scans never sort) and the tree's comparisons never classify ids. The one map
   * of documents: a hash map beside it cost a lookup that missed the CPU cache and ~50 bytes per document, and a
   * created document's id, being newer than every other, is known to be new without one.
   */
  readonly orderedIds: Map<CollectionKey, BTree<string, DocumentHistory>>;
  /** Collections holding an id that is not a canonical decimal number (see `isCanonicalNumericId`). */
  readonly irregularIds: Set<CollectionKey>;
}

function newDatabaseState(id: DatabaseId, parent: DatabaseId | undefined): DatabaseState {
  return { id, parent, orderedIds: new Map(), irregularIds: new Set() };
}

/** Ids a collection walk reads ahead per seek, unless told how many it will likely need; doubling up to the cap. */
const WALK_FIRST_CHUNK = 32;
const WALK_MAX_CHUNK = 1024;

export class Store {
  private readonly databases = new Map<DatabaseId, DatabaseState>();
  private readonly commitListeners = new Set<CommitListener>();
  private readonly schemaListeners = new Set<SchemaListener>();
  private readonly purgeListeners = new Set<PurgeListener>();
  /** Database id → id of the newest committed `databases` record naming it (a hint; readers verify it). */
  private readonly databaseRecords = new Map<DatabaseId, string>();
  private nextDatabaseNumber = 1;
  private lastId = 0n;
  /** `lastId` as text: most ids are compared against it, and only a larger one is converted. */
  private lastIdText = '0';
  private lastCommit = 0n;
  /** Databases where a record has had a `ttl` (index reads check expiry only there, DEC-067). */
  private readonly ttlDatabases = new Set<DatabaseId>();

  constructor() {
    this.databases.set(ROOT_DATABASE, newDatabaseState(ROOT_DATABASE, undefined));
    this.onCommit((record) => {
      for (const write of record.writes) if (write.after.fields.ttl !== undefined) this.ttlDatabases.add(record.database);
      // An inserted past version is not among the writes (they are the newest versions), yet reads at its time see it.
      for (const edit of record.historyEdits ?? [])
        if (edit.kind === 'insert' && edit.version.fields.ttl !== undefined) this.ttlDatabases.add(record.database);
    });
  }

  /** Timestamp of the latest commit (0 before the first). */
  get lastCommitTs(): bigint {
    return this.lastCommit;
  }

  // ---- reading API ---------------------------------------------------------------------------------------

  database(id: DatabaseId): DatabaseState | undefined {
    return this.databases.get(id);
  }

  /** The newest version (live or delete) at or before `atTs`, or undefined when none. */
  versionAt(database: DatabaseId, collection: CollectionKey, id: string, atTs: bigint): DocumentVersion | undefined {
    const history = this.databases.get(database)?.orderedIds.get(collection)?.get(idKey(id));
    return history === undefined ? undefined : versionAt(history, atTs);
  }

  /** The document as it was at `atTs`, or undefined when it did not exist then. */
  getDocument(database: DatabaseId, collection: CollectionKey, id: string, atTs: bigint): DocumentVersion | undefined {
    const version = this.versionAt(database, collection, id, atTs);
    return version && version.action !== 'delete' ? version : undefined;
  }

  /** Every document of a collection alive at `atTs` and not expired at `expiresBy` (see `isExpired`), in id order. */
  scanCollection(database: DatabaseId, collection: CollectionKey, atTs: bigint, expiresBy = atTs): Iterable<[string, DocumentVersion]> {
    return this.walkCollection(database, collection, atTs, 'ascending', undefined, WALK_FIRST_CHUNK, expiresBy);
  }

  /** True when a record of `database` has ever had a `ttl`: elsewhere no document, key or token can be expired. */
  mayHoldExpiringDocuments(database: DatabaseId): boolean {
    return this.ttlDatabases.has(database);
  }

  /**
   * Documents of a collection alive at `atTs`, in id order (`ascending`) or reverse id order, starting at
   * `fromId`: ascending walks start at the first id ≥ `fromId`, descending ones at the last id < `fromId`.
   * Lazy: a walk costs one seek per chunk of ids read ahead plus the steps taken; `expected` (how many
   * documents the caller will likely take, e.g. a page size + 1) sizes the first chunk. Records expired at
   * `expiresBy` (the reading transaction's time, which an `At` read passes apart from `atTs`) are left out.
   */
  *walkCollection(...walk: Parameters<Store['walkCollectionChunks']>): Generator<[string, DocumentVersion]> {
    for (const chunk of this.walkCollectionChunks(...walk)) {
      for (let i = 0; i < chunk.count; i++) yield [chunk.id(i), chunk.versions[i]!];
    }
  }

  /**
   * The same walk a chunk at a time (each chunk's live documents, side by side): a page walks 65 documents, and
   * a generator step and a pair per document were a third of its cost.
   */
  *walkCollectionChunks(
    database: DatabaseId,
    collection: CollectionKey,
    atTs: bigint,
    direction: 'ascending' | 'descending',
    fromId?: string,
    expected = WALK_FIRST_CHUNK,
    expiresBy = atTs,
  ): Generator<LiveChunk> {
    const state = this.databases.get(database);
    const ids = state?.orderedIds.get(collection);
    if (!ids) return;
    // Ids are read from the tree in chunks taken synchronously, and each chunk seeks past the previous one:
    // no tree iterator is held across the consumer's awaits, and stepping within a chunk costs no comparisons
    // (a seek per step did). Ids committed meanwhile are newer than `atTs`, so a chunk never misses a live one.
    const ascending = direction === 'ascending';
    // Implements: DOC-TTL-004
    const expiresByNanos = hasExpiringRecords(collection) && this.ttlDatabases.has(database) ? expiresBy * 1000n : undefined;
    const pair: [string, DocumentHistory] = ['', []];
    let bound = fromId === undefined ? undefined : idKey(fromId);
    let skipBound = !ascending && fromId !== undefined;
    for (let chunkSize = Math.max(1, Math.min(expected, WALK_MAX_CHUNK)); ; chunkSize = Math.min(chunkSize * 2, WALK_MAX_CHUNK)) {
      const live = new LiveChunk(chunkSize);
      let read = 0;
      let last = bound;
      const it = ascending ? ids.entries(bound, pair) : ids.entriesReversed(bound, pair, skipBound);
      for (let r = it.next(); !r.done && read < chunkSize; r = it.next()) {
        const [key, history] = r.value;
        if (skipBound && ascending && key === bound) continue;
        read++;
        last = key;
        const version = versionAt(history, atTs);
        if (
          version &&
          version.action !== 'delete' &&
          !(expiresByNanos !== undefined && ttlPassed(version, expiresByNanos) && !keptReadable(collection, version))
        )
          live.add(key, version);
      }
      if (live.count > 0) yield live;
      if (read < chunkSize) return;
      bound = last;
      skipBound = true;
    }
  }

  /**
   * True when every id the collection ever held is a canonical decimal number: then id order here is the
   * numeric order Paginate uses for refs, and a page can be walked lazily from the store.
   */
  hasOnlyCanonicalIds(database: DatabaseId, collection: CollectionKey): boolean {
    const state = this.databases.get(database);
    return state !== undefined && !state.irregularIds.has(collection);
  }

  /** The id of the `databases` record that last named `database` (it may since be deleted or renamed). */
  databaseRecordId(database: DatabaseId): string | undefined {
    return this.databaseRecords.get(database);
  }

  /** A document's versions with `ts > afterTs`, oldest first (its history, deletes included). */
  versionsAfter(database: DatabaseId, collection: CollectionKey, id: string, afterTs: bigint): DocumentVersion[] {
    const history = this.databases.get(database)?.orderedIds.get(collection)?.get(idKey(id)) ?? [];
    return Array.isArray(history) ? history.filter((v) => v.ts > afterTs) : history.ts > afterTs ? [history] : [];
  }

  /** Ids of the documents a collection ever held (including deleted ones). */
  documentIds(database: DatabaseId, collection: CollectionKey): string[] {
    return this.databases.get(database)?.orderedIds.get(collection)?.keysArray().map(idOfKey) ?? [];
  }

  // ---- seams -----------------------------------------------------------------------------------------------

  /** Called synchronously after each commit, once per database written, before the response is sent. */
  onCommit(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Called synchronously after each commit for every write to a schema record (see `SCHEMA_COLLECTIONS`). */
  onSchemaChange(listener: SchemaListener): () => void {
    this.schemaListeners.add(listener);
    return () => this.schemaListeners.delete(listener);
  }

  /** Called after a commit that deleted databases, with them and their descendants (see `commit`). */
  onPurge(listener: PurgeListener): () => void {
    this.purgeListeners.add(listener);
    return () => this.purgeListeners.delete(listener);
  }

  // ---- used by the transaction layer ------------------------------------------------------------------

  /** A fresh database id; the database becomes reachable once a `databases` record naming it commits. */
  allocateDatabase(parent: DatabaseId): DatabaseId {
    const id = String(this.nextDatabaseNumber++);
    this.databases.set(id, newDatabaseState(id, parent));
    return id;
  }

  /**
   * Recovery from a commit log (`durability/recovery.ts`): makes `id` a known database under `parent`, and
   * keeps ids allocated later above it.
   */
  restoreDatabase(id: DatabaseId, parent: DatabaseId): void {
    if (!this.databases.has(id)) this.databases.set(id, newDatabaseState(id, parent));
    const number = Number(id);
    if (Number.isSafeInteger(number) && number >= this.nextDatabaseNumber) this.nextDatabaseNumber = number + 1;
  }

  /**
   * Keeps the ids `newDocumentId` generates above `id`, a document id now in use: a generated id is never one a
   * client chose (a Create with a collection ref must never replace a document, DOC-CREATE-010). Called for every
   * created document and on recovery.
   */
  reserveDocumentId(id: string): void {
    // Canonical numbers order by length, then by digits; nothing else can be generated.
    if (id.length < this.lastIdText.length || !isCanonicalNumericId(id)) return;
    if (id.length === this.lastIdText.length && id <= this.lastIdText) return;
    // Ids are 64-bit (DEC-132): reserving one near the top would push generated ids past it. Generated ids follow the
    // clock (about 1.8e18 now), and would reach GENERATED_ID_CEILING only some 200 years on, or after 2^32 more ids
    // than the clock gives: ids chosen above it are out of their reach.
    const value = BigInt(id);
    if (value > GENERATED_ID_CEILING) return;
    this.lastId = value;
    this.lastIdText = id;
  }

  /** A new document id: numeric, unique, increasing (like the service's 18-digit ids), and never in use. */
  newDocumentId(): string {
    const candidate = BigInt(Date.now()) * 1_000_000n;
    this.lastId = candidate > this.lastId ? candidate : this.lastId + 1n;
    this.lastIdText = this.lastId.toString();
    return this.lastIdText;
  }

  /**
   * Applies one transaction's writes atomically, then notifies listeners. Only the transaction layer calls it.
   *
   * A deleted database's contents, and its descendants', are then dropped (and the purge listeners told): nothing
   * can reach them again, since a database that is deleted never comes back (a new one gets a new id, and history
   * writes are refused on native collections), and a server that creates and deletes databases, as every test run
   * does, would otherwise keep every one of them (DEC-073). Their states stay, empty, so that a write into one still
   * commits, as into any database no key can reach.
   */
  commit(records: readonly CommitRecord[]): void {
    let deleted: DatabaseId[] | undefined;
    // A rename deletes the record under its old name and writes one under the new name, naming the same database.
    let stillNamed: Set<DatabaseId> | undefined;
    let notified: CommitRecord[] | undefined;
    for (let r = 0; r < records.length; r++) {
      const record = records[r]!;
      const state = this.databases.get(record.database);
      if (!state) throw new Error(`commit into unknown database ${record.database}`);
      if (record.historyEdits !== undefined) {
        // A rare path, kept out of the loop below: the listeners are told what the edits did to newest versions.
        notified ??= [...records];
        notified[r] = this.applyHistoryEdits(state, record.ts, record.historyEdits);
        if (record.ts > this.lastCommit) this.lastCommit = record.ts;
        continue;
      }
      for (const write of record.writes) {
        const ids = idTree(state, write.collection);
        const numeric = isDigits(write.id);
        const key = numeric ? write.id : otherIdKey(write.id);
        // A generated id is above every id held: new without a search (the tree's last leaf is at hand).
        const maxKey = ids.maxKey();
        const history = maxKey !== undefined && compareKeys(key, maxKey) <= 0 ? ids.get(key) : undefined;
        if (history === undefined) {
          ids.set(key, write.after);
          if (!(numeric && isCanonicalDigits(write.id))) state.irregularIds.add(write.collection);
        } else if (Array.isArray(history)) {
          history.push(write.after);
        } else {
          ids.set(key, [history, write.after]);
        }
        if (write.collection === 'databases') {
          const named = write.after.action !== 'delete' ? write.after.hidden.databaseId : undefined;
          if (named !== undefined) {
            this.databaseRecords.set(named, write.id);
            stillNamed ??= new Set();
            stillNamed.add(named);
          } else if (write.before?.hidden.databaseId !== undefined) {
            deleted ??= [];
            deleted.push(write.before.hidden.databaseId);
          }
        }
      }
      if (record.ts > this.lastCommit) this.lastCommit = record.ts;
    }
    for (const record of notified ?? records) {
      for (const listener of this.commitListeners) listener(record);
      for (const write of record.writes) {
        if (!SCHEMA_COLLECTIONS.has(write.collection)) continue;
        for (const listener of this.schemaListeners) listener({ ...write, ts: record.ts, database: record.database });
      }
    }
    const gone = deleted?.filter((id) => !stillNamed?.has(id));
    if (gone !== undefined && gone.length > 0) this.purge(gone);
  }

  /** Drops the contents of `roots` and of every database under them (see `commit`). */
  private purge(roots: readonly DatabaseId[]): void {
    const purged = new Set<DatabaseId>(roots);
    // Parents are created before their children, so one pass in creation order finds every descendant.
    for (const state of this.databases.values()) if (state.parent !== undefined && purged.has(state.parent)) purged.add(state.id);
    for (const id of purged) {
      const state = this.databases.get(id);
      if (state === undefined) continue;
      state.orderedIds.clear();
      state.irregularIds.clear();
      this.databaseRecords.delete(id);
      this.ttlDatabases.delete(id);
    }
    for (const listener of this.purgeListeners) listener(purged);
  }

  /**
   * Applies history edits to `state`'s histories and returns the record the listeners see (see `planHistoryEdits`).
   */
  private applyHistoryEdits(state: DatabaseState, ts: bigint, edits: readonly HistoryEdit[]): CommitRecord {
    const { writes, histories } = planHistoryEdits(state, edits);
    for (const { collection, id, versions } of histories.values()) this.setHistory(state, collection, id, versions);
    return { ts, database: state.id, writes, historyEdits: edits };
  }

  /**
   * What `edits` would do to the newest versions of `database`'s documents, changing nothing: the writes a commit
   * validator (a unique index) must judge before the edits are applied.
   */
  historyEditWrites(database: DatabaseId, edits: readonly HistoryEdit[]): DocumentWrite[] {
    const state = this.databases.get(database);
    return state ? planHistoryEdits(state, edits).writes : [];
  }

  /** Makes `history` the history of a document. */
  private setHistory(state: DatabaseState, collection: CollectionKey, id: string, history: DocumentHistory): void {
    idTree(state, collection).set(idKey(id), history);
    if (!isCanonicalNumericId(id)) state.irregularIds.add(collection);
  }
}

// Implements: FN-HISTW-004, FN-HISTW-006, FN-HISTW-010, FN-HISTW-011, FN-HISTW-012
/**
 * The histories `edits` make (copies, kept in ts order, one version per ts) and, per edit that changed a document's
 * newest version, a write from the newest live version before (if any) to the newest version after (a delete at the
 * removed version's time when none is left).
 */
function planHistoryEdits(
  state: DatabaseState,
  edits: readonly HistoryEdit[],
): { writes: DocumentWrite[]; histories: Map<string, { collection: CollectionKey; id: string; versions: DocumentVersion[] }> } {
  const writes: DocumentWrite[] = [];
  const histories = new Map<string, { collection: CollectionKey; id: string; versions: DocumentVersion[] }>();
  for (const edit of edits) {
    const key = `${edit.collection}\u0000${edit.id}`;
    let planned = histories.get(key);
    if (planned === undefined) {
      const history = state.orderedIds.get(edit.collection)?.get(idKey(edit.id));
      planned = {
        collection: edit.collection,
        id: edit.id,
        versions: history === undefined ? [] : Array.isArray(history) ? [...history] : [history],
      };
    }
    const versions = planned.versions;
    const newestBefore = versions[versions.length - 1];
    const at = edit.kind === 'insert' ? edit.version.ts : edit.ts;
    let i = versions.length;
    while (i > 0 && versions[i - 1]!.ts > at) i--;
    const same = i > 0 && versions[i - 1]!.ts === at ? versions[i - 1] : undefined;
    if (edit.kind === 'insert') {
      if (same) versions[i - 1] = edit.version;
      else versions.splice(i, 0, edit.version);
    } else if (same && (same.action === 'delete') === edit.deleted) {
      versions.splice(i - 1, 1);
    } else {
      continue;
    }
    histories.set(key, planned);
    const newestAfter = versions[versions.length - 1];
    if (newestAfter === newestBefore) continue;
    const after = newestAfter ?? { ts: at, action: 'delete' as const, fields: {}, hidden: NO_HIDDEN_FIELDS };
    const before = newestBefore?.action === 'delete' ? undefined : newestBefore;
    writes.push({ collection: edit.collection, id: edit.id, action: after.action, before, after });
  }
  return { writes, histories };
}

// Implements: DOC-TTL-001, DOC-TTL-002, DOC-TTL-003, DOC-TTL-012
/**
 * True when `version`, a version of a record in `collection`, has a `ttl` at or before `ts`: a read at `ts` sees no
 * such record, as in the real service. It judges user documents (DEC-067) and the records of keys and tokens
 * (AUTH-TOKEN-011); other native records carry no ttl.
 */
export function isExpired(collection: CollectionKey, version: DocumentVersion, ts: bigint): boolean {
  return (
    version.fields.ttl instanceof Time &&
    hasExpiringRecords(collection) &&
    ttlPassed(version, ts * 1000n) &&
    !keptReadable(collection, version)
  );
}

/** Collections whose records a passed `ttl` hides from reads. */
function hasExpiringRecords(collection: CollectionKey): boolean {
  return userCollectionName(collection) !== undefined || collection === 'keys' || collection === 'tokens';
}

/**
 * Whether a failpoint of the self-check keeps an expired record readable: a key or token, as the reference once did; a
 * document never, only where Get and Exists read it (they check), or when its ttl was still ahead as it was written.
 */
function keptReadable(collection: CollectionKey, version: DocumentVersion): boolean {
  if (userCollectionName(collection) === undefined) return failpoint('EXPIRED-KEYS-AND-TOKENS-READABLE');
  const aheadWhenWritten = (version.fields.ttl as Time).epochNanos > version.ts * 1000n;
  return (
    failpoint('DOC-TTL-NEVER-EXPIRES') || failpoint('DOC-TTL-GET-ONLY') || (aheadWhenWritten && failpoint('DOC-TTL-COMPUTED-NEVER-PASSES'))
  );
}

export function ttlPassed(version: DocumentVersion, nanos: bigint): boolean {
  const ttl = version.fields.ttl;
  return ttl instanceof Time && ttl.epochNanos <= nanos;
}

/** The newest version (live or delete) of a history at or before `atTs`, or undefined when none. */
function versionAt(history: DocumentHistory, atTs: bigint): DocumentVersion | undefined {
  if (!Array.isArray(history)) return history.ts <= atTs ? history : undefined;
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.ts <= atTs) return history[i];
  return undefined;
}

/** Digits without a leading zero (or `0`): ids whose text order by length then characters is numeric order. */
/** Document ids a client chose above this are not reserved (see `Store.reserveDocumentId`). */
const GENERATED_ID_CEILING = 2n ** 63n - 1n - 2n ** 32n;

export function isCanonicalNumericId(id: string): boolean {
  return isDigits(id) && isCanonicalDigits(id);
}

/** Digits without a leading zero (or the single digit 0). */
function isCanonicalDigits(digits: string): boolean {
  return digits.length === 1 || digits.charCodeAt(0) !== 48;
}

const DIGITS = /^[0-9]+$/;

function isDigits(s: string): boolean {
  return DIGITS.test(s);
}

/**
 * The id tree's key for `id`: a numeric id is its own key (so a document holds one copy of its id), any other id is
 * marked by a leading `OTHER_ID_MARK`. `compareKeys` then orders keys as `compareIds` orders ids, with one character
 * test per side instead of classifying both ids on every step (which was most of an insert).
 */
function idKey(id: string): string {
  return isDigits(id) ? id : otherIdKey(id);
}

function otherIdKey(id: string): string {
  return `${OTHER_ID_MARK}${id}`;
}

/** `collection`'s id tree in `state`, made on its first write (see `ID_TREE_NODE_SIZE`). */
function idTree(state: DatabaseState, collection: CollectionKey): BTree<string, DocumentHistory> {
  let ids = state.orderedIds.get(collection);
  if (!ids) {
    ids = new BTree<string, DocumentHistory>(undefined, compareKeys, ID_TREE_NODE_SIZE);
    state.orderedIds.set(collection, ids);
  }
  return ids;
}

/**
 * Entries per node of an id tree: 128 instead of the library's 32 keeps a million documents three levels deep instead
 * of four, and each level of an insert (a Create's) costs a call, a search and an update of the parent's keys.
 */
const ID_TREE_NODE_SIZE = 128;

/** Not a digit: no numeric key starts with it, and every other key does. */
const OTHER_ID_MARK = '~';
const OTHER_ID_MARK_CODE = OTHER_ID_MARK.charCodeAt(0);

function idOfKey(key: string): string {
  return key.charCodeAt(0) === OTHER_ID_MARK_CODE ? key.slice(1) : key;
}

/** Numeric keys first, shorter first, then by digits; marked (other) keys after them, in text order. */
function compareKeys(a: string, b: string): number {
  const aOther = a.charCodeAt(0) === OTHER_ID_MARK_CODE;
  if (aOther !== (b.charCodeAt(0) === OTHER_ID_MARK_CODE)) return aOther ? 1 : -1;
  if (!aOther && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Numeric ids in numeric order, then other ids in text order. */
export function compareIds(a: string, b: string): number {
  const na = isDigits(a);
  const nb = isDigits(b);
  if (na && nb) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
