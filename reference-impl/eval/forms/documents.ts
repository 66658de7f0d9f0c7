/** Document forms: Create, Get, Exists, Update, Replace, Delete — on user documents and schema records. */
import { isRoleRef, retargetPrivileges } from '../../auth/role-record.js';
import { QueryError, errors, type Position } from '../../errors/query-error.js';
import { activeFailpoints, failpoint } from '../../failpoints.js';
import { definitionOf } from '../../indexes/index-manager.js';
import {
  SCHEMA_COLLECTIONS,
  userCollectionKey,
  ttlPassed,
  userCollectionName,
  type DatabaseId,
  type DocumentVersion,
} from '../../store/store.js';
import { Ref, SetRef, hasDatabaseScope, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { whenReady } from '../when-ready.js';
import { expectObject, expectRef, expectTimestampMicros } from '../arguments.js';
import type { EvalContext } from '../context.js';
import {
  existingForWrite,
  isNativeCollection,
  locateDocument,
  recordAlreadyExists,
  readExisting,
  requireAccess,
  requireCreateWithId,
  readDocument,
  renderDocument,
  renderReadDocument,
  resolveCollection,
  writeDocument,
  writeNewDocument,
  type DocumentLocation,
} from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { schemaRecordFields, throwIfFailures, userDocumentFields } from '../record-fields.js';
import { endTokens } from './auth.js';
import { unresolvedRefFailures } from '../written-refs.js';
import { refuseWriteAtEarlierTime } from '../snapshot-writes.js';
import { firstEntryRef } from './paging.js';

function optionalParams(ctx: EvalContext, args: FormArgs): ObjectValue | Promise<ObjectValue> {
  if (!args.has('params')) return {};
  return whenReady(args.valueOrPending(ctx, 'params'), (params) => (params === null ? {} : expectObject(params, args.position('params'))));
}

// Implements: DOC-REF-005
/** The ref a write targets: a ref of the query's database, as the real service refuses to write a scoped one (DEC-050). */
function expectWritableRef(given: Value, position: Position): Ref {
  const ref = expectRef(given, position);
  if (hasDatabaseScope(ref)) throw errors.invalidArgument('Cannot write a scoped ref.', position);
  return ref;
}

// Implements: FN-HIST-004
/** The time a read is at: its own `ts`, else the time of an enclosing `At` (undefined: the transaction's). */
async function atTs(ctx: EvalContext, args: FormArgs): Promise<bigint | undefined> {
  return args.has('ts') ? expectTimestampMicros(await args.value(ctx, 'ts'), args.position('ts')) : ctx.readTs;
}

const create: FormDefinition = {
  required: ['create'],
  optional: ['params'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'create'), (given) => {
      const target = expectWritableRef(given, args.position('create'));
      return whenReady(optionalParams(ctx, args), (params) => {
        refuseWriteAtEarlierTime(ctx, args.node.position);
        return createDocument(ctx, args, target, params);
      });
    });
  },
};

// Implements: UDF-CREATE-002, PROTO-ERROR-012, DOC-CREATE-001, DOC-CREATE-002
/**
 * Create once its arguments are known: at once for a new document that waits for nothing (no password, no predicate).
 * As in the real service, refs that do not resolve are reported at the form's position, and everything the write
 * itself refuses (its fields, a taken id, the caller's rights) at its `create` argument (DEC-051).
 */
function createDocument(ctx: EvalContext, args: FormArgs, target: Ref, params: ObjectValue): Value | Promise<Value> {
  throwIfFailures(unresolvedRefFailures(ctx, params), args.node.position);
  const position = args.position('create');
  if (isNativeCollection(target)) {
    const handler = ctx.services.natives.get(target.id);
    if (target.id === 'functions' && failpoint('UDF-CREATE-FUNCTIONS-REF-REFUSED'))
      throw errors.invalidArgument('Collection Ref expected, Ref provided.', position);
    if (!handler) throw errors.invalidArgument(`Cannot create documents in the native collection '${target.id}'.`, args.position('create'));
    return handler.create(ctx, params, position);
  }
  if (!(target.collection === undefined || isNativeCollection(target.collection)))
    return failpoint('DOC-CHOSEN-ID-IGNORED')
      ? createDocument(ctx, args, target.collection, params)
      : createWithChosenId(ctx, args, target, params);
  // A collection ref: the document gets a new id, which is never taken (Store.reserveDocumentId).
  const { database, collection } = resolveCollection(ctx, target, args.position('create'));
  if (userCollectionName(collection) === undefined) throw errors.invalidArgument('A collection ref is expected.', args.position('create'));
  const inUse = failpoint('GENERATED-ID-OVERWRITES-CHOSEN') ? ctx.txn.scan(database, collection).at(-1) : undefined;
  if (inUse !== undefined) return overwriting(ctx, args, new Ref(inUse[0], target), inUse[1], params);
  if (failpoint('DOC-ID-FROM-CLOCK')) return createWithChosenId(ctx, args, new Ref(String(Date.now()), target), params);
  const id = ctx.txn.newDocumentId();
  const location: DocumentLocation = { database, collection, id, ref: new Ref(id, target) };
  return whenReady(userDocumentFields(ctx, params, 'create', undefined, position), ({ fields, hidden }) =>
    whenReady(writeNewDocument(ctx, location, fields, hidden, position), (version) => createdDocument(ctx, location, version)),
  );
}

// Implements: DOC-CREATE-004, DOC-CREATE-005, DOC-LIFE-002
/** An id the caller chose may be taken: that is checked once the fields the create would write are known. */
async function createWithChosenId(ctx: EvalContext, args: FormArgs, target: Ref, params: ObjectValue): Promise<Value> {
  const position = args.position('create');
  const location = locateDocument(ctx, target, args.position('create'));
  const { fields, hidden } = await userDocumentFields(ctx, params, 'create', undefined, position);
  const { database, collection, id } = location;
  // The lookups for failpoints are made only where a request turned some on (the self-check's).
  const gone = activeFailpoints() === undefined ? undefined : ctx.txn.store.versionAt(database, collection, id, ctx.txn.ts);
  const old = gone?.action === 'delete' ? ctx.txn.store.getDocument(database, collection, id, gone.ts - 1n) : undefined;
  if (isObjectValue(old?.fields.data) && failpoint('DOC-RECREATED-KEEPS-OLD-FIELDS'))
    fields.data = { ...old.fields.data, ...(fields.data as ObjectValue) };
  // Choosing the id is a privilege of its own (DEC-059), checked before a taken id is revealed.
  await requireCreateWithId(ctx, location, position, fields);
  if (
    ctx.txn.get(location.database, location.collection, location.id) ||
    (expiredDocument(ctx, location) && failpoint('DOC-TTL-ID-STAYS-TAKEN'))
  )
    throw errors.alreadyExists(position, recordAlreadyExists(location.collection));
  return createdDocument(ctx, location, await writeDocument(ctx, location, 'create', fields, hidden, position, true));
}

/** The self-check's failpoint GENERATED-ID-OVERWRITES-CHOSEN: a new document gets the id of one in use, replacing it. */
async function overwriting(ctx: EvalContext, args: FormArgs, ref: Ref, inUse: DocumentVersion, params: ObjectValue): Promise<Value> {
  await writeDocument(ctx, locateDocument(ctx, ref, args.position('create')), 'delete', {}, inUse.hidden, args.position('create'));
  return createWithChosenId(ctx, args, ref, params);
}

/** The stored document whose ttl has passed, for the self-check's failpoints that still see it. */
function expiredDocument(ctx: EvalContext, { database, collection, id }: DocumentLocation): DocumentVersion | undefined {
  if (activeFailpoints() === undefined) return undefined;
  const stored = ctx.txn.store.getDocument(database, collection, id, ctx.txn.ts);
  return stored !== undefined && ttlPassed(stored, ctx.txn.ts * 1000n) ? stored : undefined;
}

function createdDocument(ctx: EvalContext, location: DocumentLocation, version: DocumentVersion): ObjectValue {
  const result = renderDocument(location.ref, version);
  ctx.created.add(result);
  return result;
}

// Implements: DB-GET-001, COLL-GET-001, DOC-GET-001
const get: FormDefinition = {
  required: ['get'],
  optional: ['ts'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'get'), (given) => {
      if (given instanceof SetRef) return getFirstOf(ctx, args, given);
      const ref = expectRef(given, args.position('get'));
      const location = locateDocument(ctx, ref, args.position('get'));
      if (args.has('ts') || ctx.readTs !== undefined) return getAt(ctx, args, location);
      return whenReady(readExisting(ctx, location, args.node.position), (found) =>
        renderReadDocument(location.ref, asFirstWritten(ctx, location, found)),
      );
    });
  },
};

/** The self-check's failpoint DOC-GET-TS-OF-CREATION: a document read with the `ts` of its first version. */
function asFirstWritten(ctx: EvalContext, { database, collection, id }: DocumentLocation, found: DocumentVersion): DocumentVersion {
  if (SCHEMA_COLLECTIONS.has(collection) || !failpoint('DOC-GET-TS-OF-CREATION')) return found;
  const versionBefore = (version: DocumentVersion) => ctx.txn.store.getDocument(database, collection, id, version.ts - 1n);
  let first = found;
  for (let earlier = versionBefore(first); earlier !== undefined; earlier = versionBefore(first)) first = earlier;
  return { ...found, ts: first.ts };
}

// Implements: FN-HIST-001, FN-HIST-002
async function getAt(ctx: EvalContext, args: FormArgs, location: DocumentLocation): Promise<Value> {
  const found = await readExisting(ctx, location, args.node.position, await atTs(ctx, args));
  return renderReadDocument(location.ref, found);
}

// Implements: SET-GET-001
/**
 * Get of a set: the document of its first entry in the set's order, read as Get of its ref reads it; an empty set is
 * `instance not found` at the Get (DEC-055). The set is read (and access-checked) as Paginate reads it, at `ts` if
 * given; what it refuses is reported at the Get's argument.
 */
async function getFirstOf(ctx: EvalContext, args: FormArgs, set: SetRef): Promise<Value> {
  const ts = await atTs(ctx, args);
  const ref = await firstEntryRef(ctx, set, args.position('get'), ts);
  if (ref === undefined) throw errors.notFound(args.node.position, 'Set not found.');
  const location = locateDocument(ctx, ref, args.position('get'));
  return renderReadDocument(location.ref, await readExisting(ctx, location, args.node.position, ts));
}

// Implements: DB-LIFE-006, DOC-LIFE-001, DOC-REF-007, ABAC-PRIV-010
const exists: FormDefinition = {
  required: ['exists'],
  optional: ['ts'],
  async evaluate(ctx, args) {
    const given = await args.value(ctx, 'exists');
    if (given instanceof SetRef) return existsFirstOf(ctx, args, given);
    const ref = expectRef(given, args.position('exists'));
    const ts = await atTs(ctx, args);
    // As in the real service, Exists answers whether the caller may read the document and it is there, and never
    // refuses (ABAC-PRIV-010): a ref that does not resolve (its collection, or the schema record it names, is not
    // there), or that the caller may not read, exists as little as a missing document, and the answer does not tell.
    try {
      const location = locatedOrUnresolved(ctx, ref, args.position('exists'));
      if (location === undefined) return false;
      const found = readDocument(ctx, location, args.node.position, ts);
      return (found instanceof Promise ? await found : found) !== undefined;
    } catch (error) {
      if (error instanceof QueryError && error.code === 'permission denied' && !failpoint('EXISTS-REFUSED-WHEN-UNREADABLE')) return false;
      throw error;
    }
  },
};

// Implements: SET-GET-002
/**
 * Exists of a set: whether its first entry's document exists and may be read, as the real service answers it
 * (DEC-055); false for an empty set. The set is read as Paginate reads it, at `ts` if given.
 */
async function existsFirstOf(ctx: EvalContext, args: FormArgs, set: SetRef): Promise<boolean> {
  const ts = await atTs(ctx, args);
  const ref = await firstEntryRef(ctx, set, args.position('exists'), ts);
  const location = ref === undefined ? undefined : locatedOrUnresolved(ctx, ref, args.position('exists'));
  if (location === undefined) return false;
  try {
    return (await readDocument(ctx, location, args.node.position, ts)) !== undefined;
  } catch (error) {
    if (error instanceof QueryError && error.code === 'permission denied') return false;
    throw error;
  }
}

// Implements: DOC-REF-007
/** Where `ref` lives, or undefined when it does not resolve (`invalid ref` from `locateDocument`). */
function locatedOrUnresolved(ctx: EvalContext, ref: Ref, position: Position): DocumentLocation | undefined {
  try {
    return locateDocument(ctx, ref, position);
  } catch (error) {
    if (error instanceof QueryError && error.code === 'invalid ref') return undefined;
    throw error;
  }
}

/** Schema records that may be renamed by Update/Replace: the record moves to its new name (its ref changes). */
const RENAMABLE = new Set(['collections', 'databases', 'indexes', 'roles', 'functions', 'access_providers']);

// Implements: UDF-RECORD-003, UDF-RECORD-004, UDF-RECORD-005, PROTO-ERROR-013, PROTO-ERROR-014, COLL-LIFE-005
// Implements: COLL-LIFE-008, DOC-UPDATE-004, DOC-REPLACE-002, DOC-REPLACE-003, DOC-UPDATE-005, IDX-RULE-001
async function modify(ctx: EvalContext, args: FormArgs, key: 'update' | 'replace'): Promise<Value> {
  const ref = expectWritableRef(await args.value(ctx, key), args.position(key));
  const params = await optionalParams(ctx, args);
  const position = args.node.position;
  refuseWriteAtEarlierTime(ctx, position);
  throwIfFailures(unresolvedRefFailures(ctx, params), position);
  const location = locateDocument(ctx, ref, args.position(key));
  const missing =
    activeFailpoints() !== undefined &&
    !SCHEMA_COLLECTIONS.has(location.collection) &&
    !ctx.txn.get(location.database, location.collection, location.id);
  if (missing && (key === 'update' ? failpoint('DOC-UPDATE-UPSERTS') : failpoint('DOC-REPLACE-UPSERTS')))
    return createWithChosenId(ctx, args, ref, params);
  // As the real service looks the target up at its argument, a missing one is reported there (DEC-051).
  const expired = expiredDocument(ctx, location);
  const existing = expired && failpoint('DOC-TTL-WRITES-REVIVE') ? expired : existingForWrite(ctx, location, args.position(key));
  if (!SCHEMA_COLLECTIONS.has(location.collection)) {
    const { fields, hidden } = await userDocumentFields(ctx, params, key, existing, position);
    if (params.credentials !== undefined && failpoint('AUTH-PASSWORD-CHANGE-ENDS-TOKENS'))
      endTokens(
        ctx,
        location.database,
        (user) => user.id === location.id && user.collection?.id === userCollectionName(location.collection),
      );
    // The user a token belongs to and its secret hash are the server's: Replace keeps them (Update merges anyway).
    if (location.collection === 'tokens' && key === 'replace') {
      for (const own of ['instance', 'hashed_secret']) if (existing.fields[own] !== undefined) fields[own] = existing.fields[own]!;
    }
    return renderDocument(location.ref, answered(key, existing, await writeDocument(ctx, location, 'update', fields, hidden, position)));
  }
  const asUpdate = location.collection === 'functions' && key === 'replace' && failpoint('UDF-REPLACE-AS-UPDATE');
  let fields = schemaRecordFields(params, asUpdate ? 'update' : key, existing, location.collection);
  if (location.collection === 'functions' && key === 'update' && failpoint('UDF-RENAME-IGNORED'))
    fields.name = existing.fields.name ?? null;
  // The caller's right to rewrite the record is checked before its fields are, as in the real service: a caller
  // without it is refused whatever the new fields hold (a role's, for a server key: ABAC-ROLE-015).
  await requireAccess(ctx, 'write', location, position, existing, fields);
  const checkUpdate = ctx.services.natives.get(location.collection)?.checkUpdate;
  if (checkUpdate) fields = checkUpdate(ctx, location.database, fields, position, location.id);
  const newName = fields.name;
  // Keys and tokens have numeric ids: their `name` is a label, never their identity.
  const nameIsId = location.collection !== 'keys' && location.collection !== 'tokens';
  const renamed = nameIsId && typeof newName === 'string' && 'name' in existing.fields && newName !== location.id;
  if (!renamed)
    return renderDocument(
      location.ref,
      answered(key, existing, await writeDocument(ctx, location, 'update', fields, existing.hidden, position)),
    );
  if (!RENAMABLE.has(location.collection) || (location.collection === 'collections' && failpoint('COLL-RENAME-REFUSED'))) {
    throwIfFailures(
      [{ field: ['name'], code: 'invalid value', description: `Renaming ${location.collection} is not supported.` }],
      position,
    );
  }
  const moved: DocumentLocation = { ...location, id: newName, ref: new Ref(newName, location.ref.collection, location.ref.database) };
  if (ctx.txn.get(moved.database, moved.collection, moved.id)) throw errors.alreadyExists(position, recordAlreadyExists(moved.collection));
  await writeDocument(ctx, location, 'delete', {}, existing.hidden, position);
  if (location.collection === 'databases') {
    for (const [id, key] of keysOfChildDatabase(ctx, location.database, location.id)) {
      await writeDocument(
        ctx,
        keyLocation(location.database, id),
        'update',
        { ...key.fields, database: new Ref(newName, new Ref('databases')) },
        key.hidden,
        position,
      );
    }
  }
  if (location.collection === 'collections') await moveCollectionDocuments(ctx, location, moved, position);
  // The fault IDX-RENAME-DROPS-PRIVILEGES leaves role privileges naming a renamed index at its old name.
  if (location.collection !== 'indexes' || !failpoint('IDX-RENAME-DROPS-PRIVILEGES')) followRename(ctx, location, moved);
  if (location.collection === 'roles') followRoleRename(ctx, location, newName);
  const index = location.collection === 'indexes';
  // The faults IDX-RENAME-REBUILDS (the renamed index is inactive; its entries are dropped by the index manager) and
  // IDX-RENAME-KEEPS-REF (the answer names the old ref).
  if (index && failpoint('IDX-RENAME-REBUILDS')) fields = { ...fields, active: false };
  const written = await writeDocument(ctx, moved, 'create', fields, existing.hidden, position);
  return renderDocument(index && failpoint('IDX-RENAME-KEEPS-REF') ? location.ref : moved.ref, written);
}

/** The version an Update or Replace answers: the one written, or under the self-check's failpoints the one it read. */
function answered(key: 'update' | 'replace', existing: DocumentVersion, written: DocumentVersion): DocumentVersion {
  if (key === 'replace') return failpoint('DOC-REPLACE-ANSWERS-PREVIOUS') ? existing : written;
  return failpoint('DOC-UPDATE-ANSWERS-PREVIOUS-TS') ? { ...written, ts: existing.ts } : written;
}

// Implements: IDX-RULE-003
/**
 * Role privileges naming a renamed record are pointed at its new name in the same transaction, so they keep
 * applying (IDX-RULE-003), and so is a role's membership naming a renamed collection. Written without an access
 * check: it is part of the rename the caller may do.
 */
function followRename(ctx: EvalContext, from: DocumentLocation, to: DocumentLocation): void {
  const oldRef = new Ref(from.id, new Ref(from.collection));
  const newRef = new Ref(to.id, new Ref(to.collection));
  for (const [id, role] of ctx.txn.scan(from.database, 'roles')) {
    const privileges = retargetPrivileges(role.fields, oldRef, newRef) ?? role.fields;
    const retargeted = from.collection === 'collections' ? (retargetMembership(privileges, oldRef, newRef) ?? privileges) : privileges;
    if (retargeted !== role.fields) ctx.txn.write(from.database, 'roles', id, 'update', retargeted, role.hidden);
  }
}

/** The role's fields with each membership entry naming `from` naming `to` instead, or undefined when none does. */
function retargetMembership(role: ObjectValue, from: Ref, to: Ref): ObjectValue | undefined {
  const membership = role.membership;
  const retarget = (entry: Value): Value => {
    if (entry instanceof Ref) return entry.equals(from) ? to : entry;
    return isObjectValue(entry) && entry.resource instanceof Ref && entry.resource.equals(from) ? { ...entry, resource: to } : entry;
  };
  const next = Array.isArray(membership) ? membership.map(retarget) : membership === undefined ? undefined : retarget(membership);
  const changed = Array.isArray(membership) && Array.isArray(next) ? next.some((entry, i) => entry !== membership[i]) : next !== membership;
  return changed ? { ...role, membership: next as Value } : undefined;
}

/**
 * A renamed collection keeps its documents (DEC-005): each moves to the new name with its id, fields and hidden
 * state, and the tokens of those documents follow their owner. The real service keys documents by the collection's
 * internal id, so nothing moves there and a document keeps its `ts` and history; here the move is a write, so the
 * moved documents carry the rename's `ts` and their history starts anew. An index reading the collection cannot
 * change its source here (its definition is fixed at creation), so such a rename is refused.
 */
async function moveCollectionDocuments(ctx: EvalContext, from: DocumentLocation, to: DocumentLocation, position: Position): Promise<void> {
  const reading = ctx.txn.scan(from.database, 'indexes').find(([, version]) => namesCollection(version, from.id));
  if (reading !== undefined) {
    throwIfFailures(
      [{ field: ['name'], code: 'invalid value', description: `Renaming a collection that index '${reading[0]}' reads is not supported.` }],
      position,
    );
  }
  const oldKey = userCollectionKey(from.id);
  const newKey = userCollectionKey(to.id);
  const oldRef = new Ref(from.id, new Ref('collections'));
  const newRef = new Ref(to.id, new Ref('collections'));
  for (const [id, version] of ctx.txn.scan(from.database, oldKey)) {
    ctx.txn.write(from.database, oldKey, id, 'delete', {}, version.hidden);
    if (failpoint('COLLECTION-RENAME-LOSES-DOCUMENTS')) continue;
    ctx.txn.write(from.database, newKey, id, 'create', version.fields, version.hidden);
  }
  for (const [id, token] of ctx.txn.scan(from.database, 'tokens')) {
    const owner = token.fields.instance;
    if (owner instanceof Ref && owner.collection?.equals(oldRef)) {
      ctx.txn.write(from.database, 'tokens', id, 'update', { ...token.fields, instance: new Ref(owner.id, newRef) }, token.hidden);
    }
  }
}

/**
 * Keys that act with the renamed role keep it: their role refs are pointed at the new name in the same transaction
 * (the real service refers to a role by identity, not by name). Those are the keys of the role's database without a
 * `database` field, and the keys of its parent database whose `database` field names it (they act in it). Written
 * without an access check, like `followRename`: it is part of the rename the caller may do.
 */
function followRoleRename(ctx: EvalContext, role: DocumentLocation, newName: string): void {
  // A key resolves its role refs by id among the roles of the database it acts in, whatever database scope they were
  // written with (a scope is relative to the query that wrote it, so `Role(r, Database(d))` from d's parent is d's r):
  // any role ref with the old name names this role. Only the name changes; the scope stays as written.
  const namesRole = (ref: Ref) => ref.id === role.id && isRoleRef(ref);
  const retarget = (ref: Ref) => (namesRole(ref) ? new Ref(newName, ref.collection, ref.database) : ref);
  // A key with a `database` field acts in that child database, whose roles these are not.
  const ownKeys = ctx.txn.scan(role.database, 'keys').filter(([, key]) => !(key.fields.database instanceof Ref));
  retargetKeyRoles(ctx, role.database, ownKeys, retarget);
  const parent = ctx.txn.store.database(role.database)?.parent;
  const record =
    parent === undefined ? undefined : ctx.txn.scan(parent, 'databases').find(([, version]) => version.hidden.databaseId === role.database);
  if (parent === undefined || record === undefined) return;
  retargetKeyRoles(ctx, parent, keysOfChildDatabase(ctx, parent, record[0]), retarget);
}

/** Rewrites the role refs (alone or in a list) of `keys` of `database` through `retarget`, writing the keys it changed. */
function retargetKeyRoles(
  ctx: EvalContext,
  database: DatabaseId,
  keys: Array<[string, DocumentVersion]>,
  retarget: (ref: Ref) => Ref,
): void {
  const each = (value: Value): Value => (value instanceof Ref ? retarget(value) : value);
  for (const [id, key] of keys) {
    const current = key.fields.role;
    if (current === undefined) continue;
    const next = Array.isArray(current) ? current.map(each) : each(current);
    const changed = Array.isArray(current) && Array.isArray(next) ? next.some((r, i) => r !== current[i]) : next !== current;
    if (changed) ctx.txn.write(database, 'keys', id, 'update', { ...key.fields, role: next }, key.hidden);
  }
}

/**
 * Keys of `parent` that give access to its child database `name`. They follow the database: a rename points
 * them at the new name, a deletion deletes them (so a later namesake is not reachable with them).
 */
function keysOfChildDatabase(ctx: EvalContext, parent: DatabaseId, name: string): Array<[string, DocumentVersion]> {
  return ctx.txn.scan(parent, 'keys').filter(([, version]) => {
    const target = version.fields.database;
    return target instanceof Ref && target.id === name;
  });
}

function keyLocation(database: DatabaseId, id: string): DocumentLocation {
  return { database, collection: 'keys', id, ref: new Ref(id, new Ref('keys')) };
}

const update: FormDefinition = {
  required: ['update'],
  optional: ['params'],
  evaluate: (ctx, args) => modify(ctx, args, 'update'),
};

const replace: FormDefinition = {
  required: ['replace'],
  optional: ['params'],
  evaluate: (ctx, args) => modify(ctx, args, 'replace'),
};

// Implements: ABAC-ROLE-010
/**
 * Deleting a collection deletes its documents and the indexes whose only source it is in the same transaction, so a
 * later namesake starts empty and no index covers it; an index naming other collections too stays, and the index
 * manager retires the deleted one from it (DEC-042, as the real service: fauna/faunadb `WriteAdaptor.scala`
 * `indexesWithSoleSource`).
 */
async function deleteCollectionDocuments(ctx: EvalContext, location: DocumentLocation, position: Position): Promise<void> {
  const documents = `collections/${location.id}`;
  for (const [id, version] of ctx.txn.scan(location.database, documents)) {
    const ref = new Ref(id, location.ref);
    await writeDocument(ctx, { database: location.database, collection: documents, id, ref }, 'delete', {}, version.hidden, position);
  }
  // A server that drops every privilege of a role naming the collection, the role's other privileges with them.
  for (const [id, role] of failpoint('ABAC-ROLE-COLLECTION-DELETE-DROPS-PRIVILEGES') ? ctx.txn.scan(location.database, 'roles') : []) {
    const privileges = Array.isArray(role.fields.privileges) ? role.fields.privileges : [];
    const names = privileges.some((p) => isObjectValue(p) && p.resource instanceof Ref && isCollectionNamed(p.resource, location.id));
    if (names) ctx.txn.write(location.database, 'roles', id, 'update', { ...role.fields, privileges: [] }, role.hidden);
  }
  // The fault IDX-COLLECTION-DELETE-DROPS-SHARED deletes every index naming the collection, as this server once did.
  const dropsShared = failpoint('IDX-COLLECTION-DELETE-DROPS-SHARED');
  for (const [id, version] of ctx.txn.scan(location.database, 'indexes')) {
    if (!(dropsShared ? namesCollection(version, location.id) : isSoleSourceOf(version, location.id))) continue;
    await writeDocument(
      ctx,
      { database: location.database, collection: 'indexes', id, ref: new Ref(id, new Ref('indexes')) },
      'delete',
      {},
      version.hidden,
      position,
    );
  }
}

function isCollectionNamed(ref: Ref, collection: string): boolean {
  return ref.id === collection && ref.collection?.id === 'collections' && ref.collection.collection === undefined;
}

function namesCollection(record: DocumentVersion, collection: string): boolean {
  return definitionOf(record.fields).sources.some(
    (s) => s.collections !== '_' && s.collections.some((c) => isCollectionNamed(c, collection)),
  );
}

/** True when the index's sources are exactly the collection `collection` (no other, no wildcard). */
function isSoleSourceOf(record: DocumentVersion, collection: string): boolean {
  const { sources } = definitionOf(record.fields);
  if (sources.some((s) => s.collections === '_')) return false;
  const named = sources.flatMap((s) => s.collections as readonly Ref[]);
  const [only] = named;
  return named.length === 1 && isCollectionNamed(only!, collection);
}

// Implements: PROTO-ERROR-013, PROTO-ERROR-014, DB-LIFE-001, KEY-LIFE-001, COLL-LIFE-001, DOC-DELETE-001
// Implements: DOC-DELETE-002, DOC-DELETE-003
const del: FormDefinition = {
  required: ['delete'],
  async evaluate(ctx, args) {
    const ref = expectWritableRef(await args.value(ctx, 'delete'), args.position('delete'));
    const position = args.node.position;
    refuseWriteAtEarlierTime(ctx, position);
    const location = locateDocument(ctx, ref, args.position('delete'));
    const existing = existingForWrite(ctx, location, position);
    if (location.collection === 'collections') await deleteCollectionDocuments(ctx, location, position);
    if (location.collection === 'databases') {
      for (const [id, key] of keysOfChildDatabase(ctx, location.database, location.id))
        await writeDocument(ctx, keyLocation(location.database, id), 'delete', {}, key.hidden, position);
    }
    // A server that only marks a deleted token, which keeps authenticating.
    if (location.collection !== 'tokens' || !failpoint('AUTH-TOKEN-DELETE-SOFT'))
      await writeDocument(ctx, location, 'delete', {}, existing.hidden, position);
    return renderDocument(location.ref, existing);
  },
};

export const documentForms: readonly FormDefinition[] = [create, get, exists, update, replace, del];
