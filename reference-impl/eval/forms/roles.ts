/** CreateRole and the `roles` native collection, and the runner that applies role predicates for the ABAC policy. */
import { normaliseRoleFields } from '../../abac/role-record.js';
import { toExpr } from '../../codec/v4-json.js';
import { Ref, isObjectValue, type QueryValue, type Value } from '../../values/value.js';
import { Scope, type EvalContext } from '../context.js';
import { ensureNotFound, renderDocument, resolveDatabaseScope, writeDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { LambdaValue, applyLambda } from '../lambda.js';
import { nativeCreateForm, type NativeCollectionHandler, type NativeCollectionHandlers } from '../native-collections.js';
import { nameFailures, throwIfFailures, typeFailure, withoutNulls } from '../record-fields.js';

export const roleHandler: NativeCollectionHandler = {
  async create(ctx, params, position, scope) {
    const failures = nameFailures(params);
    const { fields, failures: roleFailures } = normaliseRoleFields(params);
    failures.push(...roleFailures);
    const data = params['data'];
    if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
    throwIfFailures(failures, position);
    const database = resolveDatabaseScope(ctx, scope, position);
    const name = params['name'] as string;
    const ref = new Ref(name, new Ref('roles'), scope);
    const location = { database, collection: 'roles', id: name, ref };
    await ensureNotFound(ctx, location, position);
    const stored = withoutNulls({ name, ...(isObjectValue(data) ? { data } : {}) });
    const version = await writeDocument(ctx, location, 'create', { ...stored, ...fields }, {}, position);
    const record = renderDocument(ref, version);
    ctx.created.add(record);
    return record;
  },
};

const createRole = nativeCreateForm('create_role', 'roles');

export function registerRoleNativeCollection(natives: NativeCollectionHandlers): void {
  natives.register('roles', roleHandler);
}

export const roleForms: readonly FormDefinition[] = [createRole];

/**
 * Applies a role predicate. It runs with server rights in the caller's database (a read predicate that Gets
 * the document it guards must not be checked against itself) while `CurrentIdentity()` still answers the
 * caller's identity.
 */
export async function runRolePredicate(ctx: EvalContext, predicate: QueryValue, args: readonly Value[]): Promise<Value> {
  const lambda = new LambdaValue(predicate.lambda, predicate.expr, toExpr(predicate.expr, []), Scope.EMPTY, predicate.apiVersion);
  const elevated = ctx.withIdentity({ ...ctx.identity, role: 'server' }).withScope(Scope.EMPTY);
  return applyLambda(elevated, lambda, args, []);
}
