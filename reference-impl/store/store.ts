/**
 * The versioned in-memory store: a tree of databases, each holding collections of documents with their full
 * version history. Schema records (collections, indexes, databases, keys, tokens, roles, functions) are
 * documents of the native collections, so they are versioned, snapshot-readable and reported to commit
 * listeners exactly like user documents.
 *
 * Writes enter only through `commit` (called by the transaction layer under its commit lock).
 */
import type { ObjectValue } from '../values/value.js';

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

/** What one transaction wrote into one database. */
export interface CommitRecord {
  readonly ts: bigint;
  readonly database: DatabaseId;
  readonly writes: readonly DocumentWrite[];
}

export const SCHEMA_COLLECTIONS: ReadonlySet<CollectionKey> = new Set(['collections', 'indexes', 'databases', 'keys', 'roles', 'functions', 'access_providers']);

/** A committed write to a schema record (collection, index, database, key, role, function). */
export interface SchemaChange extends DocumentWrite {
  readonly ts: bigint;
  readonly database: DatabaseId;
}

export type CommitListener = (record: CommitRecord) => void;
export type SchemaListener = (change: SchemaChange) => void;

export interface DatabaseState {
  readonly id: DatabaseId;
  /** Undefined for the root. */
  readonly parent: DatabaseId | undefined;
  readonly collections: Map<CollectionKey, Map<string, DocumentVersion[]>>;
}

export class Store {
  private readonly databases = new Map<DatabaseId, DatabaseState>();
  private readonly commitListeners = new Set<CommitListener>();
  private readonly schemaListeners = new Set<SchemaListener>();
  private nextDatabaseNumber = 1;
  private lastId = 0n;
  private lastCommit = 0n;

  constructor() {
    this.databases.set(ROOT_DATABASE, { id: ROOT_DATABASE, parent: undefined, collections: new Map() });
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
    const versions = this.databases.get(database)?.collections.get(collection)?.get(id);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.ts <= atTs) return versions[i];
    return undefined;
  }

  /** The document as it was at `atTs`, or undefined when it did not exist then. */
  getDocument(database: DatabaseId, collection: CollectionKey, id: string, atTs: bigint): DocumentVersion | undefined {
    const version = this.versionAt(database, collection, id, atTs);
    return version && version.action !== 'delete' ? version : undefined;
  }

  /** Every document of a collection alive at `atTs`, in id order. */
  *scanCollection(database: DatabaseId, collection: CollectionKey, atTs: bigint): Iterable<[string, DocumentVersion]> {
    const docs = this.databases.get(database)?.collections.get(collection);
    if (!docs) return;
    for (const id of [...docs.keys()].sort(compareIds)) {
      const version = this.getDocument(database, collection, id, atTs);
      if (version) yield [id, version];
    }
  }

  /** A document's versions with `ts > afterTs`, oldest first (its history, deletes included). */
  versionsAfter(database: DatabaseId, collection: CollectionKey, id: string, afterTs: bigint): DocumentVersion[] {
    const versions = this.databases.get(database)?.collections.get(collection)?.get(id) ?? [];
    return versions.filter((v) => v.ts > afterTs);
  }

  /** Ids of the documents a collection ever held (including deleted ones). */
  documentIds(database: DatabaseId, collection: CollectionKey): string[] {
    return [...(this.databases.get(database)?.collections.get(collection)?.keys() ?? [])].sort(compareIds);
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

  // ---- used by the transaction layer ------------------------------------------------------------------

  /** A fresh database id; the database becomes reachable once a `databases` record naming it commits. */
  allocateDatabase(parent: DatabaseId): DatabaseId {
    const id = String(this.nextDatabaseNumber++);
    this.databases.set(id, { id, parent, collections: new Map() });
    return id;
  }

  /**
   * Recovery from a commit log (`durability/recovery.ts`): makes `id` a known database under `parent`, and
   * keeps ids allocated later above it.
   */
  restoreDatabase(id: DatabaseId, parent: DatabaseId): void {
    if (!this.databases.has(id)) this.databases.set(id, { id, parent, collections: new Map() });
    const number = Number(id);
    if (Number.isSafeInteger(number) && number >= this.nextDatabaseNumber) this.nextDatabaseNumber = number + 1;
  }

  /** Recovery: keeps document ids allocated later above a recovered numeric `id`. */
  restoreDocumentId(id: string): void {
    if (/^\d+$/.test(id) && BigInt(id) > this.lastId) this.lastId = BigInt(id);
  }

  /** A new document id: numeric, unique, increasing (like the service's 18-digit ids). */
  newDocumentId(): string {
    const candidate = BigInt(Date.now()) * 1_000_000n;
    this.lastId = candidate > this.lastId ? candidate : this.lastId + 1n;
    return this.lastId.toString();
  }

  /** Applies one transaction's writes atomically, then notifies listeners. Only the transaction layer calls it. */
  commit(records: readonly CommitRecord[]): void {
    for (const record of records) {
      const state = this.databases.get(record.database);
      if (!state) throw new Error(`commit into unknown database ${record.database}`);
      for (const write of record.writes) {
        let docs = state.collections.get(write.collection);
        if (!docs) state.collections.set(write.collection, (docs = new Map()));
        let versions = docs.get(write.id);
        if (!versions) docs.set(write.id, (versions = []));
        versions.push(write.after);
      }
      if (record.ts > this.lastCommit) this.lastCommit = record.ts;
    }
    for (const record of records) {
      for (const listener of this.commitListeners) listener(record);
      for (const write of record.writes) {
        if (!SCHEMA_COLLECTIONS.has(write.collection)) continue;
        for (const listener of this.schemaListeners) listener({ ...write, ts: record.ts, database: record.database });
      }
    }
  }
}

/** Numeric ids in numeric order, then other ids in text order. */
export function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
