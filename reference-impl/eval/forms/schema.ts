/** Schema forms of the core: CreateDatabase, CreateKey, CreateCollection/CreateClass, and their native-collection handlers. */
import { isRoleRef } from '../../auth/role-record.js';
import { isSecretOf } from '../../auth/secrets.js';
import { errors, type Position, type ValidationFailure } from '../../errors/query-error.js';
import { failpoint, failpointWhere } from '../../failpoints.js';
import { userCollectionKey, type DatabaseId } from '../../store/store.js';
import { Ref, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import { ensureNotFound, isNativeCollection, renderDocument, writeDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { nativeCreateForm, type NativeCollectionHandler, type NativeCollectionHandlers } from '../native-collections.js';
import { nameFailures, throwIfFailures, typeFailure, withoutNulls } from '../record-fields.js';

/**
 * Days of history a collection keeps when created without `history_days`: 0, as the real service
 * (fauna/faunadb `Document.DefaultRetainDays`); its events then reach back the minimum retention window only (DEC-020).
 */
export const DEFAULT_HISTORY_DAYS = 0n;
const KEY_ROLES = new Set(['admin', 'server', 'client']);

function created(ctx: EvalContext, record: ObjectValue): ObjectValue {
  ctx.created.add(record);
  return record;
}

// Implements: DB-CREATE-003, DB-LIFE-008, KEY-CREATE-006, KEY-LIFE-005, COLL-CREATE-003, COLL-CREATE-008
// Implements: COLL-LIFE-006, ABAC-ROLE-012
/**
 * What a collection, database, role or key record must hold, on every write (DEC-047): a valid `name` (a key's is an
 * optional label, a string when given), `data` an object when given, for a collection `history_days` a non-negative
 * integer when given, and for a key `database` a ref when given. Update and Replace check the record as it would be
 * stored, so they cannot store what Create refuses.
 */
export function schemaRecordFailures(collection: 'collections' | 'databases' | 'roles' | 'keys', fields: ObjectValue): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  if (collection === 'keys') {
    const name = fields.name;
    if (name !== undefined && name !== null && typeof name !== 'string') failures.push(typeFailure('name', 'String', name));
    const target = fields.database;
    if (target !== undefined && target !== null && !(target instanceof Ref)) failures.push(typeFailure('database', 'Ref', target));
  } else {
    failures.push(...nameFailures(fields));
  }
  if (collection === 'collections') {
    const history = fields.history_days;
    if (history !== undefined && history !== null && typeof history !== 'bigint')
      failures.push(typeFailure('history_days', 'Integer', history));
    if (typeof history === 'bigint' && history < 0n)
      failures.push({ field: ['history_days'], code: 'non-negative value required', description: 'Value must be non-negative.' });
  }
  const data = fields.data;
  if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
  return failures;
}

// Implements: COLL-CREATE-001, COLL-CREATE-002, COLL-CREATE-004, COLL-CREATE-005, COLL-CREATE-006, COLL-LIFE-006
export const collectionHandler: NativeCollectionHandler = {
  async create(ctx, params, position) {
    throwIfFailures(schemaRecordFailures('collections', params), position);
    const history = params.history_days;
    const database = ctx.database;
    const name = params.name as string;
    const ref = new Ref(name, new Ref('collections'));
    const location = { database, collection: 'collections', id: name, ref };
    await ensureNotFound(ctx, location, position);
    const fields = withoutNulls({ ...params, history_days: history === undefined ? DEFAULT_HISTORY_DAYS : history });
    if (history === null) delete fields.history_days;
    const version = await writeDocument(ctx, location, 'create', fields, {}, position);
    return created(ctx, renderDocument(ref, version));
  },
  checkUpdate(_ctx, _database, fields, position) {
    if (!failpoint('SCHEMA-UPDATE-UNCHECKED')) throwIfFailures(schemaRecordFailures('collections', fields), position);
    return fields;
  },
};

// Implements: DB-CREATE-001, DB-CREATE-002, DB-CREATE-004, DB-CREATE-005, DB-CREATE-007, DB-LIFE-005, DB-LIFE-008
export const databaseHandler: NativeCollectionHandler = {
  async create(ctx, params, position) {
    throwIfFailures(schemaRecordFailures('databases', params), position);
    const parent = ctx.database;
    const name = params.name as string;
    const ref = new Ref(name, new Ref('databases'));
    const location = { database: parent, collection: 'databases', id: name, ref };
    await ensureNotFound(ctx, location, position);
    const databaseId = ctx.txn.allocateDatabase(parent);
    const version = await writeDocument(ctx, location, 'create', withoutNulls(params), { databaseId }, position);
    return created(ctx, renderDocument(ref, version));
  },
  checkUpdate(_ctx, _database, fields, position) {
    if (!failpoint('SCHEMA-UPDATE-UNCHECKED')) throwIfFailures(schemaRecordFailures('databases', fields), position);
    return fields;
  },
};

// Implements: KEY-SECRET-009, KEY-SECRET-011
/**
 * Secrets of keys are the server's (DEC-056): a key record never stores `secret`, and its `hashed_secret` is the one
 * the server made. A `secret` written to an existing key must be that key's current secret; at creation no secret is
 * the new key's, so any given one is refused. Failures for what `fields` carries as `secret`, or none.
 */
function keySecretFailures(
  fields: ObjectValue,
  existing?: { database: DatabaseId; id: string; digest: string | undefined },
): ValidationFailure[] {
  const secret = fields.secret;
  if (secret === undefined || secret === null) return [];
  if (typeof secret !== 'string') return [typeFailure('secret', 'String', secret)];
  if (existing && isSecretOf(secret, { kind: 'key', database: existing.database, id: existing.id }, existing.digest)) return [];
  return [{ field: ['secret'], code: 'invalid secret', description: 'The secret is not a secret of this key.' }];
}

// Implements: KEY-CREATE-001, KEY-CREATE-003, KEY-LIFE-003, KEY-LIFE-005, KEY-SECRET-002, KEY-SECRET-005
// Implements: KEY-SECRET-009, KEY-SECRET-010, KEY-SECRET-012
export const keyHandler: NativeCollectionHandler = {
  async create(ctx, given, position) {
    const params = failpointKeyParams(ctx, given);
    if (params.database === undefined && failpoint('KEY-CREATE-DATABASE-REQUIRED'))
      throw errors.validationFailed([{ field: ['database'], code: 'value required', description: 'Required value not found.' }], position);
    throwIfFailures([...schemaRecordFailures('keys', params), ...keySecretFailures(params)], position);
    // The self-check's failpoint: an admin key of a child database makes keys as its parent database's keys would.
    const parent = ctx.txn.store.database(ctx.database)?.parent;
    const fromTop = params.database !== undefined && ctx.identity.kind === 'key' && ctx.identity.role === 'admin' && parent !== undefined;
    const home = fromTop && failpoint('KEY-SCOPE-FROM-TOP') ? parent : ctx.database;
    checkKeyDatabaseAndRole(ctx, home, params, position);
    const id = ctx.txn.newDocumentId();
    const ref = new Ref(id, new Ref('keys'));
    const issued = await ctx.services.issueSecret('key', home, id);
    const { secret: _given, hashed_secret: _givenHash, ...kept } = params;
    const fields = withoutNulls({ ...kept, hashed_secret: issued.hashedSecret });
    // The self-check's failpoint: a server that keeps the secret it issued, so every read of the key shows it.
    if (failpoint('KEY-SECRET-ON-READ')) fields.secret = issued.secret;
    const version = await writeDocument(
      ctx,
      { database: home, collection: 'keys', id, ref },
      'create',
      fields,
      { secretDigest: issued.digest },
      position,
    );
    const rendered = renderDocument(ref, version);
    const { hashed_secret: hashed, ...rest } = rendered;
    return created(ctx, { ...rest, secret: issued.secret, hashed_secret: hashed as Value });
  },
  checkUpdate(ctx, database, fields, position, id) {
    const stored = ctx.txn.get(database, 'keys', id);
    const existing = { database, id, digest: stored?.hidden.secretDigest };
    if (!failpoint('SCHEMA-UPDATE-UNCHECKED')) {
      const recordFailures = schemaRecordFailures('keys', fields).filter(
        (f) => f.field[0] !== 'name' || !failpoint('KEY-NAME-NOT-STRING-KEPT'),
      );
      const secretFailures = failpoint('KEY-SECRET-UNCHECKED') ? [] : keySecretFailures(fields, existing);
      throwIfFailures([...recordFailures, ...secretFailures], position);
      checkKeyDatabaseAndRole(ctx, database, fields, position, true);
    }
    // The key's own secret is accepted and not kept: its stored BCrypt hash is already a hash of it. Any hash the write
    // carries gives way to the stored one (the real service re-hashes the secret, a new salt of the same secret).
    const kept: ObjectValue = { ...fields };
    if (!failpoint('KEY-SECRET-STORED')) delete kept.secret;
    const hashed = stored?.fields.hashed_secret;
    if (hashed === undefined) delete kept.hashed_secret;
    else if (typeof kept.hashed_secret !== 'string' || !failpoint('KEY-HASH-OVERWRITTEN')) kept.hashed_secret = hashed;
    return kept;
  },
};

// Implements: KEY-CREATE-005, KEY-SCOPE-003, KEY-ROLE-012, KEY-ROLE-013
/**
 * Checks the `database` and `role` of a key record about to be written in `home` (DEC-021, DEC-044): `database`, when
 * given, names an existing child of `home`, where the key then acts; `role` is a built-in role or names roles of the
 * database the key acts in. Throws `validation failed` otherwise.
 */
function checkKeyDatabaseAndRole(ctx: EvalContext, home: DatabaseId, fields: ObjectValue, position: Position, updating = false): void {
  const target = fields.database;
  let acting = home;
  if (target instanceof Ref) {
    const isDatabaseRef =
      target.collection?.id === 'databases' && target.collection.collection === undefined && target.database === undefined;
    const child = isDatabaseRef ? ctx.txn.get(home, 'databases', target.id)?.hidden.databaseId : undefined;
    if (child === undefined)
      throw errors.validationFailed(
        [{ field: ['database'], code: 'invalid reference', description: 'Database does not exist.' }],
        position,
      );
    acting = child;
  }
  const failures = keyRoleFailures(ctx, fields.role, acting);
  // The self-check's failpoint: a server that checks role refs on create only.
  const refsOnly = failures.every((f) => f.code === 'invalid reference' || f.code === 'invalid type');
  if (!(updating && refsOnly && failpoint('KEY-UPDATE-ROLE-UNCHECKED'))) throwIfFailures(failures, position);
}

/** A CreateKey's params under the self-check's failpoints: its role (below), and no `database` when a key makes it. */
function failpointKeyParams(ctx: EvalContext, given: ObjectValue): ObjectValue {
  const role = failpointRole(ctx, given.role);
  const params: ObjectValue = role === undefined ? { ...given } : { ...given, role };
  if (given.database !== undefined && ctx.identity.kind === 'key' && failpoint('KEY-DATABASE-PARAM-IGNORED')) delete params.database;
  return params;
}

/**
 * The role a CreateKey stores under the self-check's failpoints: `server` for none or a role's name, the built-in role
 * named in another case.
 */
function failpointRole(ctx: EvalContext, role: Value | undefined): Value | undefined {
  if (role === undefined) return failpoint('KEY-CREATE-ROLE-DEFAULTS') ? 'server' : role;
  if (typeof role !== 'string') return role;
  if (!KEY_ROLES.has(role) && KEY_ROLES.has(role.toLowerCase()) && failpoint('KEY-ROLE-CASE-INSENSITIVE')) return role.toLowerCase();
  return failpointWhere('KEY-ROLE-NAME-AS-SERVER', () => ctx.txn.get(ctx.database, 'roles', role) !== undefined) ? 'server' : role;
}

// Implements: KEY-CREATE-004, KEY-ROLE-001, KEY-ROLE-002, KEY-ROLE-010, KEY-ROLE-011, KEY-ROLE-013
export function keyRoleFailures(ctx: EvalContext, role: Value | undefined, acting: DatabaseId): ValidationFailure[] {
  if (role === undefined || role === null) return [{ field: ['role'], code: 'value required', description: 'Required value not found.' }];
  if (typeof role === 'string' && (KEY_ROLES.has(role) || (role === 'server-readonly' && failpoint('KEY-ROLE-READONLY-AS-SERVER'))))
    return [];
  const refs = Array.isArray(role) ? role : [role];
  // As the real service: a role name it does not know is an invalid value; anything but a string or a ref to a role,
  // alone or in a list, is the wrong type for the field; a role that is not there an invalid reference. An empty list
  // is a key with no roles. A key finds its roles among those of the database it acts in (a scoped ref never gets
  // here: DEC-048 refuses it in any written object).
  if (refs.some((r) => typeof r === 'string')) {
    return [{ field: ['role'], code: 'invalid value', description: "Role must be 'admin', 'server', 'client' or role refs." }];
  }
  const roleRefs = refs.filter(isRoleRef);
  if (roleRefs.length < refs.length) return [typeFailure('role', 'Role', role)];
  const failures: ValidationFailure[] = [];
  roleRefs.forEach((ref, i) => {
    const field = Array.isArray(role) ? ['role', i] : ['role'];
    const missing = missingReference(ctx, acting, ref);
    if (missing !== undefined) failures.push({ field, code: 'invalid reference', description: missing });
  });
  return failures;
}

// Implements: KEY-ROLE-010, KEY-ROLE-012
/**
 * Why a ref written into a record of `database` names nothing there, in the real service's words, or undefined when
 * it names a live record or a native collection. Its database scope is not read: DEC-048 refuses scoped refs first.
 */
export function missingReference(ctx: EvalContext, database: DatabaseId, ref: Ref): string | undefined {
  const parent = ref.collection;
  if (parent === undefined) return isNativeCollection(ref) ? undefined : 'Cannot read reference.';
  if (isNativeCollection(parent)) return ctx.txn.get(database, parent.id, ref.id) ? undefined : 'Cannot read reference.';
  // A document: a collection that is not there makes the ref unreadable; a document that is not there, not found.
  const isCollectionRef = parent.collection?.id === 'collections' && parent.collection.collection === undefined;
  if (!isCollectionRef || !ctx.txn.get(database, 'collections', parent.id)) return 'Cannot read reference.';
  return ctx.txn.get(database, userCollectionKey(parent.id), ref.id) ? undefined : 'Reference was not found.';
}

export function registerCoreNativeCollections(natives: NativeCollectionHandlers): void {
  natives.register('collections', collectionHandler).register('databases', databaseHandler).register('keys', keyHandler);
}

export const schemaForms: readonly FormDefinition[] = [
  nativeCreateForm('create_collection', 'collections'),
  // Implements: COLL-CREATE-007
  nativeCreateForm('create_class', 'collections'),
  nativeCreateForm('create_database', 'databases'),
  nativeCreateForm('create_key', 'keys'),
];
