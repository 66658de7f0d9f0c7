/**
 * The stored shape of a role (DEC-041): `membership` — `{resource: <collection ref>, predicate?: <lambda>}`
 * entries — and `privileges` — `{resource: <ref>, actions?: {<action>: <boolean | lambda>}}` entries; both optional.
 * `roleFieldFailures` validates CreateRole params; the readers tolerate any stored shape.
 */
import type { ValidationFailure } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import { QueryValue, Ref, isCollectionRef, isObjectValue, type ObjectValue, type Value } from '../values/value.js';

export type RoleRecord = ObjectValue;

export const ROLE_ACTIONS: ReadonlySet<string> = new Set([
  'read',
  'write',
  'create',
  'create_with_id',
  'delete',
  'history_read',
  'history_write',
  'unrestricted_read',
  'call',
]);

export interface MembershipEntry {
  readonly resource: Value | undefined;
  readonly predicate: QueryValue | undefined;
}

export interface PrivilegeEntry {
  readonly resource: Value | undefined;
  readonly actions: Readonly<Record<string, Value>>;
}

function entries(value: Value | undefined): ObjectValue[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.filter(isObjectValue);
}

export function membershipEntries(role: RoleRecord): MembershipEntry[] {
  return entries(role.membership).map((m) => ({
    resource: m.resource,
    predicate: m.predicate instanceof QueryValue ? m.predicate : undefined,
  }));
}

export function privilegeEntries(role: RoleRecord): PrivilegeEntry[] {
  return entries(role.privileges).map((p) => ({ resource: p.resource, actions: isObjectValue(p.actions) ? p.actions : {} }));
}

/** A ref to a role: a document of the `roles` native collection, whatever its database scope. */
export function isRoleRef(value: Value): value is Ref {
  return value instanceof Ref && value.collection?.id === 'roles' && value.collection.collection === undefined;
}

/** A lambda stored on a role renders as `@query`, whichever way it was written. */
function storedLambda(value: QueryValue): QueryValue {
  return new QueryValue(value.lambda, value.expr, value.apiVersion);
}

function failure(field: Array<string | number>, code: string, description: string): ValidationFailure {
  return { field, code, description };
}

// Implements: ABAC-ROLE-004, ABAC-ROLE-005, ABAC-ROLE-013, ABAC-ROLE-016
/**
 * Validates and normalises `membership` and `privileges` (single objects become one-element arrays,
 * lambdas become stored `@query` values). Failures name the offending field.
 */
export function normaliseRoleFields(params: ObjectValue): { fields: ObjectValue; failures: ValidationFailure[] } {
  const failures: ValidationFailure[] = [];
  const fields: ObjectValue = {};
  const membership = normaliseEntries(params.membership, 'membership', 'Membership', failures, (entry, i) => {
    const out: ObjectValue = { resource: entry.resource ?? null };
    if (!isCollectionRef(entry.resource))
      failures.push(failure(['membership', i, 'resource'], 'invalid type', 'A collection ref is expected.'));
    const predicate = entry.predicate;
    if (predicate instanceof QueryValue) out.predicate = storedLambda(predicate);
    else if (predicate !== undefined && predicate !== null)
      failures.push(failure(['membership', i, 'predicate'], 'invalid type', 'A lambda is expected.'));
    return out;
  });
  if (membership !== undefined) fields.membership = membership;
  // Only `name` is required, as in the real service: a role may have no privileges, and a privilege no actions.
  const privileges = normaliseEntries(params.privileges, 'privileges', 'Privilege', failures, (entry, i) => {
    if (!(entry.resource instanceof Ref)) failures.push(failure(['privileges', i, 'resource'], 'invalid type', 'A ref is expected.'));
    const actions = entry.actions;
    const out: ObjectValue = { resource: entry.resource ?? null };
    if (actions === undefined || actions === null) return out;
    if (!isObjectValue(actions)) {
      failures.push(failure(['privileges', i, 'actions'], 'invalid type', 'An object of actions is expected.'));
      return out;
    }
    const stored: ObjectValue = {};
    for (const [action, value] of Object.entries(actions)) {
      if (!ROLE_ACTIONS.has(action))
        failures.push(failure(['privileges', i, 'actions', action], 'invalid field', `Unknown action '${action}'.`));
      else if (typeof value === 'boolean') stored[action] = value;
      else if (value instanceof QueryValue) stored[action] = failpoint('ABAC-PREDICATES-GRANT-ALL') ? true : storedLambda(value);
      else if (failpoint('ABAC-ROLE-ACTION-COERCED')) stored[action] = false;
      else failures.push(failure(['privileges', i, 'actions', action], 'invalid type', 'A boolean or a lambda is expected.'));
    }
    out.actions = stored;
    return out;
  });
  if (privileges !== undefined) fields.privileges = privileges;
  return { fields, failures };
}

/** A field of one object or a list of them: each object normalised, anything else refused at its place in the list. */
function normaliseEntries(
  value: Value | undefined,
  field: string,
  noun: string,
  failures: ValidationFailure[],
  normalise: (entry: ObjectValue, i: number) => Value,
): Value[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry, i) => {
    if (isObjectValue(entry)) return normalise(entry, i);
    failures.push(failure([field, i], 'invalid type', `${noun} entries must be objects.`));
    return entry;
  });
}

/**
 * The role's fields with every privilege on `from` pointed at `to`, or undefined when no privilege names
 * `from`. A renamed index, function or role keeps the privileges granted on it (SD §Index rule 1: a rename
 * keeps inbound references working).
 */
export function retargetPrivileges(role: RoleRecord, from: Ref, to: Ref): RoleRecord | undefined {
  const privileges = role.privileges;
  if (!Array.isArray(privileges)) return undefined;
  let changed = false;
  const next = privileges.map((entry): Value => {
    if (!isObjectValue(entry) || !(entry.resource instanceof Ref) || !entry.resource.equals(from)) return entry;
    changed = true;
    return { ...entry, resource: to };
  });
  return changed ? { ...role, privileges: next } : undefined;
}
