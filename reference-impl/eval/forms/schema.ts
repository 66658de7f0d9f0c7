/** Schema forms of the core: CreateDatabase, CreateKey, CreateCollection/CreateClass, and their native-collection handlers. */
import { errors } from '../../errors/query-error.js';
import { Ref, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import { ensureNotFound, renderDocument, resolveDatabaseScope, writeDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { nativeCreateForm, type NativeCollectionHandler, type NativeCollectionHandlers } from '../native-collections.js';
import { nameFailures, throwIfFailures, typeFailure, withoutNulls } from '../record-fields.js';

/** Days of history a collection keeps when created without `history_days` (the service's default). */
export const DEFAULT_HISTORY_DAYS = 30n;
const KEY_ROLES = new Set(['admin', 'server', 'client']);

function created(ctx: EvalContext, record: ObjectValue): ObjectValue {
  ctx.created.add(record);
  return record;
}

export const collectionHandler: NativeCollectionHandler = {
  async create(ctx, params, position, scope) {
    const failures = nameFailures(params);
    const history = params['history_days'];
    if (history !== undefined && history !== null && typeof history !== 'bigint') failures.push(typeFailure('history_days', 'Integer', history));
    if (typeof history === 'bigint' && history < 0n) failures.push({ field: ['history_days'], code: 'invalid value', description: 'history_days must not be negative.' });
    const data = params['data'];
    if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
    throwIfFailures(failures, position);
    const database = resolveDatabaseScope(ctx, scope, position);
    const name = params['name'] as string;
    const ref = new Ref(name, new Ref('collections'), scope);
    const location = { database, collection: 'collections', id: name, ref };
    await ensureNotFound(ctx, location, position);
    const fields = withoutNulls({ ...params, history_days: history === undefined ? DEFAULT_HISTORY_DAYS : history });
    if (history === null) delete fields['history_days'];
    const version = await writeDocument(ctx, location, 'create', fields, {}, position);
    return created(ctx, renderDocument(ref, version));
  },
};

export const databaseHandler: NativeCollectionHandler = {
  async create(ctx, params, position, scope) {
    const failures = nameFailures(params);
    const data = params['data'];
    if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
    throwIfFailures(failures, position);
    const parent = resolveDatabaseScope(ctx, scope, position);
    const name = params['name'] as string;
    const ref = new Ref(name, new Ref('databases'), scope);
    const location = { database: parent, collection: 'databases', id: name, ref };
    await ensureNotFound(ctx, location, position);
    const databaseId = ctx.txn.allocateDatabase(parent);
    const version = await writeDocument(ctx, location, 'create', withoutNulls(params), { databaseId }, position);
    return created(ctx, renderDocument(ref, version));
  },
};

export const keyHandler: NativeCollectionHandler = {
  async create(ctx, params, position, scope) {
    const failures = [];
    const role = params['role'];
    const roleIsRefs = role instanceof Ref || (Array.isArray(role) && role.length > 0 && role.every((r) => r instanceof Ref));
    if (role === undefined || role === null) failures.push({ field: ['role'], code: 'value required', description: 'Value required.' });
    else if (!(typeof role === 'string' && KEY_ROLES.has(role)) && !roleIsRefs) {
      failures.push({ field: ['role'], code: 'invalid value', description: "Role must be 'admin', 'server', 'client' or role refs." });
    }
    const target = params['database'];
    if (target !== undefined && target !== null && !(target instanceof Ref)) failures.push(typeFailure('database', 'Ref', target));
    const data = params['data'];
    if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
    const name = params['name'];
    if (name !== undefined && name !== null && typeof name !== 'string') failures.push(typeFailure('name', 'String', name));
    throwIfFailures(failures, position);
    const home = resolveDatabaseScope(ctx, scope, position);
    if (target instanceof Ref) {
      // The target must be an existing child database of the key's home database.
      const child = ctx.txn.get(home, 'databases', target.id);
      const isDatabaseRef = target.collection?.id === 'databases' && target.collection.collection === undefined && target.database === undefined;
      if (!isDatabaseRef || !child) throw errors.validationFailed([{ field: ['database'], code: 'invalid reference', description: 'Database does not exist.' }], position);
    }
    const id = ctx.txn.newDocumentId();
    const ref = new Ref(id, new Ref('keys'), scope);
    const issued = await ctx.services.issueSecret('key', home, id);
    const fields = withoutNulls({ ...params, hashed_secret: issued.hashedSecret });
    const version = await writeDocument(ctx, { database: home, collection: 'keys', id, ref }, 'create', fields, { secretDigest: issued.digest }, position);
    const rendered = renderDocument(ref, version);
    const { hashed_secret: hashed, ...rest } = rendered;
    return created(ctx, { ...rest, secret: issued.secret, hashed_secret: hashed as Value });
  },
};

export function registerCoreNativeCollections(natives: NativeCollectionHandlers): void {
  natives.register('collections', collectionHandler).register('databases', databaseHandler).register('keys', keyHandler);
}

export const schemaForms: readonly FormDefinition[] = [
  nativeCreateForm('create_collection', 'collections'),
  nativeCreateForm('create_class', 'collections'),
  nativeCreateForm('create_database', 'databases'),
  nativeCreateForm('create_key', 'keys'),
];

