/**
 * Ref resolution and access-checked document reads/writes, shared by every form that touches documents
 * (user documents and schema records alike).
 */
import { errors, type Position } from '../errors/query-error.js';
import { failpoint, failpointMemory, failpointWhere } from '../failpoints.js';
import {
  ttlPassed,
  userCollectionKey,
  userCollectionName,
  type CollectionKey,
  type DatabaseId,
  type DocumentVersion,
  type HiddenFields,
  type WriteAction,
} from '../store/store.js';
import { NATIVE_COLLECTIONS, Ref, readDocumentObject, type ObjectValue, type Value } from '../values/value.js';
import type { AccessAction, AccessRequest } from './access.js';
import type { EvalContext } from './context.js';

export interface DocumentLocation {
  readonly database: DatabaseId;
  readonly collection: CollectionKey;
  readonly id: string;
  /** The ref as the caller wrote it (rendered back unchanged). */
  readonly ref: Ref;
}

export const COLLECTIONS_REF = new Ref('collections');
export const DATABASES_REF = new Ref('databases');
export const KEYS_REF = new Ref('keys');

export function isNativeCollection(ref: Ref): boolean {
  return ref.collection === undefined && (NATIVE_COLLECTIONS as readonly string[]).includes(ref.id);
}

// Implements: DB-CHILD-002, KEY-SCOPE-002
/**
 * The database a `database` ref designates, relative to the context's database. Reaching into a child database needs
 * an admin (or root) or server identity; what it may do there is the access policy's to say (DB-CHILD-004).
 */
export function resolveDatabaseScope(ctx: EvalContext, dbRef: Ref | undefined, position: Position): DatabaseId {
  if (dbRef === undefined) return ctx.database;
  if (dbRef.collection === undefined || dbRef.collection.collection !== undefined || dbRef.collection.id !== 'databases') {
    throw errors.invalidRef('Database scope must be a database ref.', position);
  }
  const parent = resolveDatabaseScope(ctx, dbRef.database ?? dbRef.collection.database, position);
  const record = ctx.txn.get(parent, 'databases', dbRef.id);
  if (!record || record.hidden.databaseId === undefined) throw errors.invalidRef(`Database '${dbRef.id}' does not exist.`, position);
  if (ctx.identity.role !== 'admin' && (ctx.identity.role !== 'server' || failpoint('SERVER-KEY-CHILD-READS-DENIED')))
    throw errors.permissionDenied(position);
  return record.hidden.databaseId;
}

// Implements: DB-CHILD-003, KEY-SCOPE-001, KEY-SCOPE-002, COLL-LIFE-003, COLL-LIFE-004
/** The collection key of a collection ref (user or native); `invalid ref` when it does not exist. */
export function resolveCollection(
  ctx: EvalContext,
  collection: Ref,
  position: Position,
): { database: DatabaseId; collection: CollectionKey } {
  if (isNativeCollection(collection)) {
    return { database: resolveDatabaseScope(ctx, collection.database, position), collection: collection.id };
  }
  if (
    collection.collection === undefined ||
    !collection.collection.equals(new Ref('collections', undefined, collection.collection.database)) ||
    collection.collection.collection
  ) {
    throw errors.invalidRef(`Ref '${collection.toPath()}' is not a collection ref.`, position);
  }
  const database = resolveDatabaseScope(ctx, collection.database ?? collection.collection.database, position);
  if (!ctx.txn.get(database, 'collections', collection.id)) {
    throw errors.invalidRef(`Ref refers to undefined collection '${collection.id}'`, position);
  }
  return { database, collection: userCollectionKey(collection.id) };
}

/** Native collections whose records are named: a ref to one of them resolves only while the record exists. */
const NAMED_RECORDS: Readonly<Record<string, string>> = {
  collections: 'collection',
  indexes: 'index',
  databases: 'database',
  roles: 'role',
  functions: 'function',
  access_providers: 'access provider',
};

// Implements: DB-GET-002, COLL-LIFE-002, AUTH-SELF-001, AUTH-SELF-007
/**
 * Where the document `ref` lives. `tokens/self` resolves to the calling token. As in the real service, a ref naming a
 * collection, index, database, role or function that does not exist does not resolve: `invalid ref`, like a document
 * of a collection that does not exist (a missing key, token or document is `instance not found` later).
 */
export function locateDocument(ctx: EvalContext, ref: Ref, position: Position): DocumentLocation {
  const parent = ref.collection;
  if (parent === undefined) throw errors.invalidRef(`Ref '${ref.id}' designates a native collection, not a document.`, position);
  if (isNativeCollection(parent) && parent.id === 'tokens' && ref.id === 'self') {
    const record = ctx.identity.kind === 'token' ? ctx.identity.record : undefined;
    if (!record) throw errors.notFound(position, recordNotFound('tokens'));
    return { database: record.database, collection: 'tokens', id: record.ref.id, ref: record.ref };
  }
  const scope = ref.database === undefined ? parent : new Ref(parent.id, parent.collection, parent.database ?? ref.database);
  const { database, collection } = resolveCollection(ctx, scope, position);
  const named = NAMED_RECORDS[collection];
  if (named === 'function' && failpointWhere('UDF-MISSING-FUNCTION-NOT-FOUND', () => !ctx.txn.get(database, collection, ref.id)))
    throw errors.notFound(position, 'Function not found.');
  if (named !== undefined && !ctx.txn.get(database, collection, ref.id))
    throw errors.invalidRef(`Ref refers to undefined ${named} '${ref.id}'`, position);
  return { database, collection, id: ref.id, ref };
}

/** What a record of `collection` is called in error descriptions, as the real service names them. */
function recordKind(collection: CollectionKey): string {
  const kinds: Record<string, string> = {
    collections: 'Collection',
    indexes: 'Index',
    databases: 'Database',
    keys: 'Key',
    tokens: 'Token',
    roles: 'Role',
    functions: 'Function',
    credentials: 'Credentials',
  };
  return kinds[collection] ?? 'Document';
}

/** `<Kind> not found.` for a record of `collection`. */
export const recordNotFound = (collection: CollectionKey): string => `${recordKind(collection)} not found.`;

/** `<Kind> already exists.` for a record of `collection`. */
export const recordAlreadyExists = (collection: CollectionKey): string => `${recordKind(collection)} already exists.`;

// Implements: PROTO-ERROR-009
/**
 * Throws `permission denied` unless the policy allows the action; a promise only when the policy's answer is one
 * (callers await it only then, so a synchronous decision costs no suspension).
 */
export function requireAccess(
  ctx: EvalContext,
  action: AccessAction,
  location: Omit<DocumentLocation, 'ref'> & { ref?: Ref },
  position: Position,
  before?: DocumentVersion,
  after?: ObjectValue,
  terms?: readonly Value[],
  historyEdit?: AccessRequest['historyEdit'],
): void | Promise<void> {
  const allowed = ctx.services.access.allows(ctx, {
    action,
    database: location.database,
    collection: location.collection,
    ref: location.ref,
    before,
    after,
    ...(terms === undefined ? {} : { terms }),
    ...(historyEdit === undefined ? {} : { historyEdit }),
  });
  if (allowed === true) return;
  if (allowed === false) return refuse(ctx, action, location.collection, position);
  return allowed.then((granted) => {
    if (!granted) refuse(ctx, action, location.collection, position);
  });
}

/** Throws `permission denied`, unless a failpoint has the write go ahead and the request answer it after committing. */
function refuse(ctx: EvalContext, action: AccessAction, collection: CollectionKey, position: Position): void {
  if (!deniedAfterWriting(ctx, action, collection)) throw errors.permissionDenied(position);
  ctx.txn.failAfterCommit ??= errors.permissionDenied(position);
}

const SCHEMA_RECORDS = new Set(['collections', 'indexes', 'roles', 'keys', 'databases', 'functions']);

/**
 * Whether a failpoint of the self-check lets this refused write go ahead, the request then answering `permission
 * denied` after committing it (Transaction.failAfterCommit): a server that checks privileges after writing.
 */
function deniedAfterWriting(ctx: EvalContext, action: AccessAction, collection: CollectionKey): boolean {
  const { role } = ctx.identity;
  const write = action === 'create' || action === 'write' || action === 'delete';
  if (!write) return false;
  if (role === 'server') return collection === 'roles' && failpoint('ABAC-ROLE-SERVER-DENIED-AFTER-WRITING');
  if (role === 'client')
    return (
      (collection === 'roles' && action === 'create' && failpoint('ABAC-ROLE-CLIENT-DENIED-AFTER-WRITING')) ||
      failpoint('AUTH-CLIENT-DENIED-AFTER-WRITING')
    );
  if (role !== 'token') return false;
  if (SCHEMA_RECORDS.has(collection)) return action === 'create' && failpoint('ABAC-SCHEMA-DENIED-AFTER-WRITING');
  if (action === 'create') return failpoint('ABAC-CREATE-DENIED-AFTER-WRITING');
  return action === 'write' ? failpoint('ABAC-WRITE-DENIED-AFTER-WRITING') : failpoint('ABAC-DELETE-DENIED-AFTER-WRITING');
}

// Implements: DB-LIST-001, DB-LIST-002
/**
 * Throws `permission denied` unless the caller may read the native collection `collection` of `database` as a whole
 * (`Keys()`, `Collections()`, …), as the real service asks before it lists one: a listing is refused whole, never
 * answered with the records the caller happens to be allowed (DB-LIST-*). A promise only when the policy's answer is.
 */
export function requireListingAccess(
  ctx: EvalContext,
  database: DatabaseId,
  collection: CollectionKey,
  position: Position,
): void | Promise<void> {
  return permitted(ctx.services.access.allows(ctx, { action: 'read', database, collection }), position);
}

/** Nothing when the policy allowed, `permission denied` when it refused; a promise only when its answer is one. */
function permitted(allowed: boolean | Promise<boolean>, position: Position): void | Promise<void> {
  if (allowed === true) return;
  if (allowed === false) throw errors.permissionDenied(position);
  return allowed.then((granted) => {
    if (!granted) throw errors.permissionDenied(position);
  });
}

/**
 * The live document (access-checked), or undefined; a promise only when the access decision is one. Failures
 * are thrown at once or rejected, like an async function's.
 */
export function readDocument(
  ctx: EvalContext,
  location: DocumentLocation,
  position: Position,
  atTs?: bigint,
): DocumentVersion | undefined | Promise<DocumentVersion | undefined> {
  const own = atTs === undefined && !ctx.txn.readOnly && failpoint('TXN-READS-MISS-OWN-WRITES') ? ctx.txn.ts - 1n : atTs;
  let version =
    own === undefined
      ? ctx.txn.get(location.database, location.collection, location.id)
      : ctx.txn.getAt(location.database, location.collection, location.id, own);
  // A replica one write behind: a request that has not written reads the version before a document's latest.
  const stale = version !== undefined && atTs === undefined && failpoint('TXN-STALE-READ');
  if (stale && userCollectionName(location.collection) !== undefined && !ctx.txn.hasWritesTo(location.database, location.collection))
    version = ctx.txn.getAt(location.database, location.collection, location.id, version!.ts - 1n);
  if (!version || failpointWhere('DOC-TTL-GET-ONLY', () => ttlPassed(version, ctx.txn.ts * 1000n))) return undefined;
  const pending = requireAccess(ctx, 'read', location, position, version);
  return pending ? pending.then(() => version) : version;
}

/** The live document, or `instance not found` (at once, or as a rejection when the access decision is a promise). */
export function readExisting(
  ctx: EvalContext,
  location: DocumentLocation,
  position: Position,
  atTs?: bigint,
): DocumentVersion | Promise<DocumentVersion> {
  const found = readDocument(ctx, location, position, atTs);
  if (found instanceof Promise) return found.then((version) => existing(version, location, position));
  return existing(found, location, position);
}

// Implements: PROTO-ERROR-007, DOC-GET-002, DOC-DELETE-002
function existing(version: DocumentVersion | undefined, location: DocumentLocation, position: Position): DocumentVersion {
  if (!version) throw errors.notFound(position, recordNotFound(location.collection));
  return version;
}

/**
 * The live record an Update, Replace or Delete rewrites, or `instance not found`. Not checked for reading: a write
 * needs its own privilege only (`write`, `delete`), as in the real service (DEC-059).
 */
export function existingForWrite(ctx: EvalContext, location: DocumentLocation, position: Position): DocumentVersion {
  const version = ctx.txn.get(location.database, location.collection, location.id);
  if (!version) throw errors.notFound(position, recordNotFound(location.collection));
  return version;
}

// Implements: ABAC-PRED-011
/**
 * Throws `permission denied` unless the caller may create a document with an id of its choosing (DEC-059):
 * `create_with_id`, or else both `create` and `history_write`, as in the real service.
 */
export async function requireCreateWithId(
  ctx: EvalContext,
  location: DocumentLocation,
  position: Position,
  after: ObjectValue,
): Promise<void> {
  const asks = (action: AccessAction) =>
    ctx.services.access.allows(ctx, { action, database: location.database, collection: location.collection, ref: location.ref, after });
  if (await asks('create_with_id')) return;
  if ((await asks('create')) && ((await asks('history_write')) || failpoint('ABAC-CREATE-WITH-ID-AS-CREATE'))) return;
  refuse(ctx, 'create', location.collection, position);
}

const ACCESS_FOR_WRITE: Record<WriteAction, AccessAction> = { create: 'create', update: 'write', delete: 'delete' };

/**
 * Writes after the access check (skipped when `checked`, for a caller that made its own); the version at once, or a
 * promise when the access decision is one.
 */
export function writeDocument(
  ctx: EvalContext,
  location: DocumentLocation,
  action: WriteAction,
  fields: ObjectValue,
  hidden: HiddenFields,
  position: Position,
  checked = false,
): DocumentVersion | Promise<DocumentVersion> {
  const before = ctx.txn.get(location.database, location.collection, location.id);
  const pending = checked
    ? undefined
    : requireAccess(ctx, ACCESS_FOR_WRITE[action], location, position, before, action === 'delete' ? undefined : fields);
  const write = () => ctx.txn.write(location.database, location.collection, location.id, action, fields, hidden);
  return pending ? pending.then(write) : write();
}

/** Creates a document under an id generated for it: no earlier version exists to read or to check access against. */
export function writeNewDocument(
  ctx: EvalContext,
  location: DocumentLocation,
  fields: ObjectValue,
  hidden: HiddenFields,
  position: Position,
): DocumentVersion | Promise<DocumentVersion> {
  const pending = requireAccess(ctx, 'create', location, position, undefined, fields);
  const write = () => ctx.txn.writeNew(location.database, location.collection, location.id, fields, hidden);
  return pending ? pending.then(write) : write();
}

/** A document as the API returns it: `ref`, `ts`, then its fields. */
export function renderDocument(ref: Ref, version: DocumentVersion): ObjectValue {
  return { ref, ts: version.ts, ...version.fields };
}

/** The secrets of tokens issued while the failpoint AUTH-TOKEN-GET-SHOWS-SECRET was on (a server that keeps them), by id. */
const shownTokenSecrets = () => failpointMemory<string>('AUTH-TOKEN-GET-SHOWS-SECRET');

// Implements: AUTH-SELF-002, AUTH-TOKEN-008
/** The same for a document read back (Get): the codec may then reuse the stored fields' rendered text. */
export function renderReadDocument(ref: Ref, version: DocumentVersion): ObjectValue {
  if (ref.collection?.id === 'tokens' && failpointWhere('AUTH-TOKEN-GET-SHOWS-SECRET', () => shownTokenSecrets().has(ref.id)))
    return { ref, ts: version.ts, ...version.fields, secret: shownTokenSecrets().get(ref.id)! };
  return readDocumentObject(ref, version.ts, version.fields);
}

// Implements: DB-CREATE-004
/**
 * Throws `instance already exists` when the document is live — but only to a caller who may create it: anyone else
 * gets `permission denied`, as for any create, so a name conflict never tells a caller without rights what exists.
 */
export async function ensureNotFound(ctx: EvalContext, location: DocumentLocation, position: Position, after?: ObjectValue): Promise<void> {
  if (!ctx.txn.get(location.database, location.collection, location.id)) return;
  const pending = requireAccess(ctx, 'create', location, position, undefined, after);
  if (pending) await pending;
  throw errors.alreadyExists(position, recordAlreadyExists(location.collection));
}
