/**
 * One request = one transaction: it reads a snapshot at its timestamp plus its own pending writes, and its
 * writes reach the store together at commit, all stamped with the transaction's single timestamp.
 */
import type { ObjectValue } from '../values/value.js';
import {
  compareIds,
  isExpired,
  ROOT_DATABASE,
  type CollectionKey,
  type CommitRecord,
  type DatabaseId,
  type DocumentVersion,
  type DocumentWrite,
  type HiddenFields,
  type HistoryEdit,
  type Store,
  type WriteAction,
} from '../store/store.js';
import { checkRoomToWrite } from '../store/heap-room.js';
import { checkedVersionBytes, checkTransactionBytes, storedVersionBytes } from './write-size.js';

/** A write of a document: where, how, and its complete top-level fields after it (`{}` for a delete). */
type WriteArguments = [
  database: DatabaseId,
  collection: CollectionKey,
  id: string,
  action: WriteAction,
  fields: ObjectValue,
  hidden: HiddenFields,
];

interface PendingWrite {
  readonly database: DatabaseId;
  readonly collection: CollectionKey;
  readonly id: string;
  before: DocumentVersion | undefined;
  after: DocumentVersion;
  /** The first action in this transaction (a create followed by an update stays a create). */
  firstAction: WriteAction;
  /** The size of `after` (see write-size.ts), counted towards the transaction's. */
  bytes: number;
}

export class Transaction {
  /**
   * One entry per document written, in first-write order; created by the first write (most transactions only read).
   * A list rather than maps by database, collection and id: most write transactions write one document, and three
   * maps (and their iterators at commit) were most of what such a transaction allocated.
   */
  private pending: PendingWrite[] | undefined;
  /** The same entries by `pendingKey`, made once there are more than `PENDING_SCAN_LIMIT`. */
  private pendingIndex: Map<string, PendingWrite> | undefined;
  /** History edits (Insert, Remove; DEC-068) per database, in call order; applied after the ordinary writes. */
  private historyEdits: Map<DatabaseId, HistoryEdit[]> | undefined;
  /** Document versions this transaction has read (the basis of the `x-byte-read-ops` header). */
  documentsRead = 0;
  /** Their size (write-size.ts), the basis of `x-storage-bytes-read`. */
  storageBytesRead = 0;
  /** The size of the versions it will write (the newest pending one of each document) and of its history edits. */
  private bytesWritten = 0;
  /**
   * Set only by a failpoint of the self-check (reference-impl/failpoints.ts): the request commits its writes and then
   * answers this error, as a server that checks too late or does not roll back would.
   */
  failAfterCommit: unknown;

  constructor(
    readonly store: Store,
    /** Snapshot time for reads and, for write transactions, the commit timestamp (microseconds). */
    readonly ts: bigint,
    readonly readOnly: boolean,
  ) {}

  // Implements: DOC-TTL-001, DOC-TTL-002, DOC-TTL-003, DOC-TTL-007, DOC-TTL-008, DOC-TTL-009
  /** The live document as this transaction sees it (a user document whose ttl has passed is gone), or undefined. */
  get(database: DatabaseId, collection: CollectionKey, id: string): DocumentVersion | undefined {
    const own = this.pendingWrite(database, collection, id);
    if (own) return own.after.action === 'delete' || isExpired(collection, own.after, this.ts) ? undefined : own.after;
    const found = this.store.getDocument(database, collection, id, this.ts);
    if (!found) return undefined;
    this.documentsRead++;
    this.storageBytesRead += storedVersionBytes(found.fields);
    return isExpired(collection, found, this.ts) ? undefined : found;
  }

  // Implements: DOC-TTL-006
  /**
   * The document as of an earlier time (own writes are visible only at the transaction's own ts). Its ttl is judged
   * at this transaction's time, not `atTs`, as the real service does: At cannot bring back an expired document.
   */
  getAt(database: DatabaseId, collection: CollectionKey, id: string, atTs: bigint): DocumentVersion | undefined {
    if (atTs >= this.ts) return this.get(database, collection, id);
    const found = this.store.getDocument(database, collection, id, atTs);
    if (!found) return undefined;
    this.documentsRead++;
    this.storageBytesRead += storedVersionBytes(found.fields);
    return isExpired(collection, found, this.ts) ? undefined : found;
  }

  /** Live documents of a collection, own writes included, in id order. */
  scan(database: DatabaseId, collection: CollectionKey): Array<[string, DocumentVersion]> {
    const committed = [...this.store.scanCollection(database, collection, this.ts)];
    this.documentsRead += committed.length;
    for (const [, version] of committed) this.storageBytesRead += storedVersionBytes(version.fields);
    const own = this.pending?.filter((write) => write.database === database && write.collection === collection);
    if (!own || own.length === 0) return committed;
    const result = new Map<string, DocumentVersion>(committed);
    for (const write of own) {
      const id = write.id;
      if (write.after.action === 'delete' || isExpired(collection, write.after, this.ts)) result.delete(id);
      else result.set(id, write.after);
    }
    return [...result.entries()].sort(([a], [b]) => compareIds(a, b));
  }

  /** True when this transaction has written to `collection` of `database`. */
  hasWritesTo(database: DatabaseId, collection: CollectionKey): boolean {
    return this.pending?.some((write) => write.database === database && write.collection === collection) ?? false;
  }

  /**
   * Records a write. `fields` are the document's complete top-level fields after the write (the caller
   * merges for updates); deletes pass `{}`.
   */
  write(...write: WriteArguments): DocumentVersion {
    return this.recordWrite(true, ...write);
  }

  /**
   * Records the create of a document under an id `newDocumentId` just generated, which no document has (committed
   * or pending): there is no earlier version to look up.
   */
  writeNew(database: DatabaseId, collection: CollectionKey, id: string, fields: ObjectValue, hidden: HiddenFields): DocumentVersion {
    return this.recordWrite(false, database, collection, id, 'create', fields, hidden);
  }

  // Implements: EVT-TRIGGER-007
  /** `mayExist` false: the id was just generated, so there is no earlier version to look up. */
  private recordWrite(mayExist: boolean, ...[database, collection, id, action, fields, hidden]: WriteArguments): DocumentVersion {
    if (this.readOnly) throw new ReadOnlyTransactionError();
    if (action !== 'delete') checkRoomToWrite();
    const bytes = checkedVersionBytes(fields);
    const existing = mayExist ? this.pendingWrite(database, collection, id) : undefined;
    this.countBytes(bytes - (existing?.bytes ?? 0));
    const firstAction = existing?.firstAction ?? action;
    const effective: WriteAction = action === 'delete' ? 'delete' : firstAction === 'create' || action === 'create' ? 'create' : 'update';
    const after: DocumentVersion = { ts: this.ts, action: effective, fields, hidden };
    const before = existing ? existing.before : mayExist ? this.store.getDocument(database, collection, id, this.ts) : undefined;
    if (existing) {
      existing.before = before;
      existing.after = after;
      existing.firstAction = firstAction;
      existing.bytes = bytes;
    } else this.addPending({ database, collection, id, before, after, firstAction, bytes });
    // Even before the commit: a generated id of this same transaction must not be one it chose.
    if (action === 'create') this.store.reserveDocumentId(id);
    return after;
  }

  /**
   * Records a history edit. It is applied at commit, after the transaction's ordinary writes, and reads in this
   * transaction do not see it.
   */
  editHistory(database: DatabaseId, edit: HistoryEdit): void {
    if (this.readOnly) throw new ReadOnlyTransactionError();
    if (edit.kind === 'insert') {
      checkRoomToWrite();
      this.countBytes(checkedVersionBytes(edit.version.fields));
    }
    this.historyEdits ??= new Map();
    const edits = this.historyEdits;
    let list = edits.get(database);
    if (!list) {
      list = [];
      edits.set(database, list);
    }
    list.push(edit);
    if (edit.kind === 'insert') this.store.reserveDocumentId(edit.id);
  }

  private countBytes(added: number): void {
    checkTransactionBytes(this.bytesWritten + added);
    this.bytesWritten += added;
  }

  /** A database id for a database created by this transaction. */
  allocateDatabase(parent: DatabaseId): DatabaseId {
    return this.store.allocateDatabase(parent);
  }

  // Implements: DOC-CREATE-002, DOC-CREATE-003, DOC-CREATE-010
  newDocumentId(): string {
    return this.store.newDocumentId();
  }

  /** The size of what it writes (write-size.ts), the basis of `x-storage-bytes-write`. */
  get storageBytesWritten(): number {
    return this.bytesWritten;
  }

  /** Documents this transaction writes (a create+delete pair counts: it was written). */
  get documentsWritten(): number {
    return this.pending?.length ?? 0;
  }

  get hasWrites(): boolean {
    return this.pending !== undefined || this.historyEdits !== undefined;
  }

  /**
   * True when `database` and all its ancestors are alive as this transaction sees them: a deleted database
   * takes everything in it (children, keys, documents) out of reach.
   */
  isDatabaseLive(database: DatabaseId): boolean {
    let current: DatabaseId = database;
    while (current !== ROOT_DATABASE) {
      const state = this.store.database(current);
      if (!state || state.parent === undefined) return false;
      // The store's hint names the record directly; a stale hint (renamed or deleted since) falls back to a scan.
      const hinted = this.store.databaseRecordId(current);
      const alive =
        (hinted !== undefined && this.get(state.parent, 'databases', hinted)?.hidden.databaseId === current) ||
        this.scan(state.parent, 'databases').some(([, v]) => v.hidden.databaseId === current);
      if (!alive) return false;
      current = state.parent;
    }
    return true;
  }

  /**
   * The commit records of this transaction, one per database written, then one per database whose history it
   * edited. A create+delete pair leaves nothing.
   */
  commitRecords(): CommitRecord[] {
    const records: CommitRecord[] = [];
    if (!this.pending) return this.historyEdits ? this.withHistoryEdits(records) : records;
    // One record per database, in the order each was first written; its writes in first-write order.
    const byDatabase = new Map<DatabaseId, DocumentWrite[]>();
    for (const write of this.pending) {
      if (write.before === undefined && write.after.action === 'delete') continue;
      let writes = byDatabase.get(write.database);
      if (!writes) {
        writes = [];
        byDatabase.set(write.database, writes);
      }
      writes.push({ collection: write.collection, id: write.id, action: write.after.action, before: write.before, after: write.after });
    }
    for (const [database, writes] of byDatabase) records.push({ ts: this.ts, database, writes });
    return this.historyEdits ? this.withHistoryEdits(records) : records;
  }

  // Implements: TXN-ATOMIC-004
  private pendingWrite(database: DatabaseId, collection: CollectionKey, id: string): PendingWrite | undefined {
    if (this.pendingIndex) return this.pendingIndex.get(pendingKey(database, collection, id));
    for (const write of this.pending ?? [])
      if (write.id === id && write.collection === collection && write.database === database) return write;
    return undefined;
  }

  private addPending(write: PendingWrite): void {
    this.pending ??= [];
    const pending = this.pending;
    pending.push(write);
    if (this.pendingIndex) this.pendingIndex.set(pendingKey(write.database, write.collection, write.id), write);
    else if (pending.length > PENDING_SCAN_LIMIT)
      this.pendingIndex = new Map(pending.map((w) => [pendingKey(w.database, w.collection, w.id), w]));
  }

  /** `records` followed by the history edits' records: after the ordinary writes, whose `before` was read without them. */
  private withHistoryEdits(records: CommitRecord[]): CommitRecord[] {
    for (const [database, edits] of this.historyEdits ?? []) records.push({ ts: this.ts, database, writes: [], historyEdits: edits });
    return records;
  }
}

/** Up to this many pending writes are searched in a list; more get a map. */
const PENDING_SCAN_LIMIT = 8;

/** One text per document: database ids are digits and the collection's length is given, so no two documents share one. */
function pendingKey(database: DatabaseId, collection: CollectionKey, id: string): string {
  return `${database}/${collection.length}/${collection}/${id}`;
}

export class ReadOnlyTransactionError extends Error {
  constructor() {
    super('write in a read-only transaction');
  }
}
