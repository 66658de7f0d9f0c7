/** CreateRole and the `roles` native collection, and the runner that applies role predicates for the ABAC policy. */
import { membershipEntries, normaliseRoleFields } from '../../auth/role-record.js';
import { toExpr } from '../../codec/v4-expression-parser.js';
import { failpoint } from '../../failpoints.js';
import { errors, type Position, type ValidationFailure } from '../../errors/query-error.js';
import type { DatabaseId } from '../../store/store.js';
import { Ref, isObjectValue, type ObjectValue, type QueryValue, type Value } from '../../values/value.js';
import { Scope, type EvalContext } from '../context.js';
import { ensureNotFound, renderDocument, requireAccess, writeDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { LambdaValue, applyLambda } from '../lambda.js';
import { nativeCreateForm, type NativeCollectionHandler, type NativeCollectionHandlers } from '../native-collections.js';
import { throwIfFailures, withoutNulls } from '../record-fields.js';
import { missingReference, schemaRecordFailures } from './schema.js';

// Implements: ABAC-ROLE-001, ABAC-ROLE-002, ABAC-ROLE-003, ABAC-ROLE-005, ABAC-ROLE-016
export const roleHandler: NativeCollectionHandler = {
  async create(ctx, params, position) {
    const database = ctx.database;
    const { fields, failures: roleFailures } = normaliseRoleFields(params);
    const failures = [...schemaRecordFailures('roles', params), ...roleFailures];
    if (failpoint('ROLE-VALIDATED-BEFORE-PERMISSION')) throwIfFailures(failures, position);
    // The caller's right to create a role is checked first, as in the real service: a caller without it is refused
    // whatever the body holds (ABAC-ROLE-003, ABAC-ROLE-015).
    await requireAccess(ctx, 'create', { database, collection: 'roles', id: '' }, position, undefined, params);
    throwIfFailures(failures, position);
    const data = params.data;
    checkRoleResources(ctx, database, fields, position);
    const name = params.name as string;
    const ref = new Ref(name, new Ref('roles'));
    const location = { database, collection: 'roles', id: name, ref };
    await ensureNotFound(ctx, location, position);
    throwIfFailures(membershipLimitFailures(ctx, database, fields), position);
    if (ctx.identity.role === 'admin' && failpoint('ABAC-ROLE-ADMIN-REFUSED')) throw errors.permissionDenied(position);
    const stored = withoutNulls({ name, ...(isObjectValue(data) ? { data } : {}) });
    const version = await writeDocument(ctx, location, 'create', { ...stored, ...fields }, {}, position);
    const record = renderDocument(ref, version);
    ctx.created.add(record);
    const privileges = Array.isArray(fields.privileges) ? fields.privileges : [];
    const unprivileged = privileges.length === 0 || privileges.some((p) => isObjectValue(p) && p.actions === undefined);
    // A server that requires privileges with actions, but checks only after storing the role.
    if (unprivileged && failpoint('ABAC-ROLE-PRIVILEGES-REQUIRED'))
      ctx.txn.failAfterCommit ??= errors.validationFailed(
        [{ field: ['privileges'], code: 'value required', description: 'Required value not found.' }],
        position,
      );
    return record;
  },
  checkUpdate: checkedRoleFields,
};

// Implements: ABAC-ROLE-009, ABAC-ROLE-011, ABAC-ROLE-012
/**
 * The fields of a role written by Update or Replace (the whole record as it would be stored), checked as CreateRole
 * checks them: the shape of `privileges` and `membership` (DEC-041, ABAC-ROLE-004), then the resources they name
 * (DEC-045). Answers the fields with those two normalised as CreateRole stores them; throws `validation failed`.
 */
function checkedRoleFields(ctx: EvalContext, database: DatabaseId, fields: ObjectValue, position: Position, id: string): ObjectValue {
  const { fields: normalised, failures } = normaliseRoleFields(fields);
  const shapeUnchecked = failpoint('ABAC-ROLE-UPDATE-SHAPE-UNCHECKED');
  throwIfFailures([...(shapeUnchecked ? [] : schemaRecordFailures('roles', fields)), ...failures], position);
  const checked = { ...fields, ...normalised };
  checkRoleResources(ctx, database, checked, position);
  throwIfFailures(membershipLimitFailures(ctx, database, checked, id), position);
  return checked;
}

/** How many roles of a database may name one collection in their `membership` (DEC-052). */
export const MAX_ROLES_PER_MEMBERSHIP_COLLECTION = 64;

// Implements: LIMIT-ROLES-001
/**
 * A `resources exceeded` failure when storing a role with these (normalised) fields would make a collection of its
 * `membership` a member of more than `MAX_ROLES_PER_MEMBERSHIP_COLLECTION` roles. `self` is the id of the role an
 * Update or Replace rewrites, which is not counted twice.
 */
function membershipLimitFailures(ctx: EvalContext, database: DatabaseId, fields: ObjectValue, self?: string): ValidationFailure[] {
  const resources = membershipEntries(fields)
    .map((m) => m.resource)
    .filter((r): r is Ref => r instanceof Ref);
  if (resources.length === 0) return [];
  const others = ctx.txn.scan(database, 'roles').filter(([id]) => id !== self);
  const exceeded = resources.some(
    (resource) =>
      others.filter(([, role]) => membershipEntries(role.fields).some((m) => m.resource instanceof Ref && m.resource.equals(resource)))
        .length >= MAX_ROLES_PER_MEMBERSHIP_COLLECTION,
  );
  if (!exceeded) return [];
  return [
    {
      field: [],
      code: 'resources exceeded',
      description: `Maximum number of roles per membership class exceeded. Maximum allowed: ${MAX_ROLES_PER_MEMBERSHIP_COLLECTION}.`,
    },
  ];
}

// Implements: ABAC-ROLE-006, ABAC-ROLE-007, ABAC-ROLE-009, ABAC-ROLE-011
/**
 * Checks that every `resource` of a role's `privileges` and `membership`, as the role is about to be stored in
 * `database`, names something there (DEC-045): `validation failed` with one `invalid reference` per resource otherwise.
 * As in the real service the whole role is checked, so an Update that keeps a privilege on a collection deleted since
 * is refused (a scoped ref never gets here: DEC-048 refuses it in any written object). `fields` are normalised
 * (`normaliseRoleFields`), so both lists are lists of well-formed entries.
 */
function checkRoleResources(ctx: EvalContext, database: DatabaseId, fields: ObjectValue, position: Position): void {
  throwIfFailures(
    [...resourceFailures(ctx, database, fields, 'membership'), ...resourceFailures(ctx, database, fields, 'privileges')],
    position,
  );
}

function resourceFailures(
  ctx: EvalContext,
  database: DatabaseId,
  fields: ObjectValue,
  key: 'membership' | 'privileges',
): ValidationFailure[] {
  const value = fields[key];
  const list = Array.isArray(value) ? value : [];
  const failures: ValidationFailure[] = [];
  list.forEach((entry, i) => {
    const resource = isObjectValue(entry) ? entry.resource : undefined;
    if (!(resource instanceof Ref)) return;
    const missing = missingReference(ctx, database, resource);
    if (missing !== undefined) failures.push({ field: [key, i, 'resource'], code: 'invalid reference', description: missing });
  });
  return failures;
}

const createRole = nativeCreateForm('create_role', 'roles');

export function registerRoleNativeCollection(natives: NativeCollectionHandlers): void {
  natives.register('roles', roleHandler);
}

export const roleForms: readonly FormDefinition[] = [createRole];

// Implements: ABAC-PRED-001, ABAC-PRED-005
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
