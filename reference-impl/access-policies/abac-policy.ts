/**
 * Attribute-based access control around the key-role policy. Whatever the key role allows stays allowed;
 * beyond that:
 * - anyone may read an index whose `permissions.read` is `"public"` (how client keys find users for Login);
 * - a token may read and delete the token records of its own identity, its own included (DEC-057);
 * - a token acts with the union of the roles its identity document is a member of, and a key created with
 *   role refs (or a `@role/<name>` scoped secret) with those roles; nothing else.
 *
 * Role predicates are v4 lambdas; the evaluator that runs them is passed in (`PredicateRunner`), so this
 * layer never imports the evaluator. A predicate that fails or answers anything but `true` denies.
 */
import { roleAllows } from './key-role-policy.js';
import { namedInSomeRole, type AccessPolicy, type AccessRequest } from '../eval/access.js';
import { activeFailpoints, failpoint } from '../failpoints.js';
import type { EvalContext } from '../eval/context.js';
import type { CollectionKey, DatabaseId } from '../store/store.js';
import { QueryValue, Ref, Time, isObjectValue, type ObjectValue, type Value } from '../values/value.js';
import { membershipEntries, privilegeEntries, type RoleRecord } from '../auth/role-record.js';

/** Applies a stored predicate lambda to arguments with read rights of its own; errors propagate. */
export type PredicateRunner = (ctx: EvalContext, predicate: QueryValue, args: readonly Value[]) => Promise<Value>;

export function abacPolicy(base: AccessPolicy, runPredicate: PredicateRunner): AccessPolicy {
  // Implements: ABAC-PRED-001, ABAC-PRED-005, ABAC-MEMBER-007
  const holds = async (ctx: EvalContext, predicate: Value | undefined, args: () => readonly Value[]): Promise<boolean> => {
    if (predicate === true) return true;
    if (!(predicate instanceof QueryValue)) return false;
    try {
      return (await runPredicate(ctx, predicate, args())) === true;
    } catch {
      if (failpoint('ABAC-PREDICATE-ERROR-500')) throw new Error('Transaction aborted: predicate failure');
      return false;
    }
  };

  // Implements: ABAC-MEMBER-003, ABAC-MEMBER-004, ABAC-MEMBER-007
  /** Whether a membership predicate assigns its role to `member`: only an answer of `true` does (ABAC-MEMBER-007). */
  const assigns: Assigns = async (ctx, predicate, member) => {
    if (!failpoint('MEMBERSHIP-PREDICATE-LENIENT')) return holds(ctx, predicate, () => [member]);
    // The deviation: anything but an answer of `false`, an error included, assigns the role.
    try {
      return (await runPredicate(ctx, predicate, [member])) !== false;
    } catch {
      return true;
    }
  };

  // Implements: AUTH-ACCESS-001, AUTH-ACCESS-003, AUTH-CLIENT-001, AUTH-CLIENT-002
  /** What the key role did not allow: public index reads, a token's own record, the caller's ABAC roles. */
  const beyondKeyRole = (ctx: EvalContext, request: AccessRequest): boolean | Promise<boolean> => {
    if (isPublicIndexRead(ctx, request) || isOwnIdentityToken(ctx, request)) return true;
    if (request.database !== ctx.identity.database) return false;
    const { identity } = ctx;
    if (!(identity.kind === 'token' && identity.identityDocument !== undefined) && (identity.roleRefs?.length ?? 0) === 0) return false;
    return grantedByRoles(ctx, request);
  };

  // Implements: UDF-ACCESS-002, ABAC-MEMBER-005, ABAC-PRIV-001, ABAC-PRIV-002, ABAC-PRIV-003, ABAC-PRIV-004
  // Implements: ABAC-PRIV-005, ABAC-PRIV-006, ABAC-PRIV-007, ABAC-PRIV-008, ABAC-PRIV-009, ABAC-PRED-007
  // Implements: ABAC-PRED-010, ABAC-ROLE-016
  /** True when one of the caller's roles has a privilege on the resource whose action predicate holds. */
  const grantedByRoles = async (ctx: EvalContext, request: AccessRequest): Promise<boolean> => {
    const cached = ctx.identity.kind === 'token' && failpoint('ABAC-DECISIONS-CACHED') ? decisionKey(ctx, request) : undefined;
    if (cached !== undefined && grantedBefore.has(cached)) return true;
    if (request.action === 'unrestricted_read' && failpoint('ABAC-UNRESTRICTED-READ-IGNORED')) return false;
    if (request.action === 'unrestricted_read' && failpoint('ABAC-INDEX-ENTRIES-UNFILTERED'))
      return grantedByRoles(ctx, { ...request, action: 'read' });
    const needsRead = (request.action === 'write' || request.action === 'delete') && failpoint('ABAC-WRITE-NEEDS-READ');
    if (needsRead && !(await grantedByRoles(ctx, { ...request, action: 'read', after: undefined }))) return false;
    for (const role of await rolesOf(ctx, assigns)) {
      for (const privilege of privilegeEntries(role)) {
        const given = privilege.actions[request.action];
        // Failpoint HISTW-WRITE-IMPLIES-HISTORY-WRITE lets a write privilege stand for a history_write one it lacks.
        const writeStandsIn = given === undefined && request.action === 'history_write' && privilege.actions.write === true;
        const action = writeStandsIn && failpoint('HISTW-WRITE-IMPLIES-HISTORY-WRITE') ? true : given;
        if (!resourceMatches(privilege.resource, request)) {
          if (grantsAnyCollection(privilege, request, action) && failpoint('ABAC-PRIVILEGES-ANY-COLLECTION')) return true;
          continue;
        }
        if (await holds(ctx, action, () => predicateArguments(request, action))) {
          if (cached !== undefined) grantedBefore.add(cached);
          return true;
        }
      }
    }
    return false;
  };
  /** Decisions that granted, for the failpoint ABAC-DECISIONS-CACHED: a server that never asks again. */
  const grantedBefore = new Set<string>();

  return {
    // Synchronous whenever the key role's answer and the checks beyond it are: this runs for every document a
    // listing or page walks.
    allows: (ctx, request) => {
      const elevated = elevation(ctx, request);
      if (elevated !== undefined && roleAllows(ctx, request.action, request.database, request.collection, elevated)) return true;
      const granted = base.allows(ctx, request);
      if (granted === true) return true;
      if (granted === false) return beyondKeyRole(ctx, request);
      return granted.then((answer) => answer || beyondKeyRole(ctx, request));
    },
    // Role privileges and public index reads are decided per document; only the key role's blanket rights count.
    readsEveryDocument: (ctx, database, collection) => base.readsEveryDocument(ctx, database, collection),
    hasReadPrivilege: (ctx, database, collection) => {
      const granted = base.hasReadPrivilege(ctx, database, collection);
      if (granted === true) return true;
      return Promise.resolve(granted).then((answer) => answer || rolePrivilegeReads(ctx, database, collection, assigns));
    },
  };
}

type Assigns = (ctx: EvalContext, predicate: QueryValue, member: Ref) => Promise<boolean>;

/** Whether one of the caller's roles grants `read` on the collection, unconditionally or under a predicate. */
async function rolePrivilegeReads(ctx: EvalContext, database: DatabaseId, collection: CollectionKey, assigns: Assigns): Promise<boolean> {
  const { identity } = ctx;
  if (database !== identity.database) return false;
  if (!(identity.kind === 'token' && identity.identityDocument !== undefined) && (identity.roleRefs?.length ?? 0) === 0) return false;
  const request: AccessRequest = { action: 'read', database, collection };
  for (const role of await rolesOf(ctx, assigns)) {
    for (const privilege of privilegeEntries(role)) {
      const read = privilege.actions.read;
      if (resourceMatches(privilege.resource, request) && (read === true || read instanceof QueryValue)) return true;
    }
  }
  return false;
}

// Implements: ABAC-MEMBER-001, ABAC-MEMBER-002, ABAC-MEMBER-003, ABAC-MEMBER-004, ABAC-MEMBER-006, ABAC-PRED-007
/** The roles the caller acts with: membership for tokens, the named roles for keys with role refs. */
async function rolesOf(ctx: EvalContext, assigns: Assigns): Promise<RoleRecord[]> {
  const { identity, txn } = ctx;
  const roles: RoleRecord[] = [];
  // A token's rights come from its memberships until a user function's role stands in for them.
  if (
    identity.kind === 'token' &&
    identity.role === 'token' &&
    identity.identityDocument !== undefined &&
    !failpoint('ABAC-ROLES-NOT-APPLIED')
  ) {
    const member = identity.identityDocument;
    for (const [, version] of txn.scan(identity.database, 'roles')) {
      for (const membership of membershipEntries(version.fields)) {
        if (!(membership.resource instanceof Ref) || member.collection === undefined || !member.collection.equals(membership.resource))
          continue;
        if (membership.predicate !== undefined && failpoint('ABAC-MEMBER-PREDICATE-NEVER-MATCHES')) continue;
        const ignored = membership.predicate === undefined || failpoint('ABAC-MEMBER-PREDICATE-IGNORED');
        if (ignored || (await assigns(ctx, membership.predicate!, member))) {
          roles.push(version.fields);
          break;
        }
      }
      if (roles.length > 0 && failpoint('ABAC-FIRST-ROLE-ONLY')) break;
    }
  }
  for (const ref of identity.roleRefs ?? []) {
    const version = txn.get(identity.database, 'roles', ref.id);
    if (version) roles.push(version.fields);
  }
  return roles;
}

// Implements: ABAC-PRIV-007, ABAC-PRIV-009
function resourceMatches(resource: Value | undefined, request: AccessRequest): boolean {
  if (!(resource instanceof Ref)) return false;
  const parent = resource.collection;
  if (parent === undefined) return resource.database === undefined && resource.id === request.collection;
  if (parent.collection !== undefined || resource.database !== undefined) return false;
  if (parent.id === 'collections') return request.collection === `collections/${resource.id}`;
  return request.collection === parent.id && request.ref?.id === resource.id;
}

// Implements: ABAC-PRED-002, ABAC-PRED-003, ABAC-PRED-004, ABAC-PRED-009
/**
 * Arguments of an action predicate (DEC-041): `read`/`delete`/`history_read` get the ref, `create` the new values;
 * `write` gets the old and the new fields (without `ref` and `ts`), and the ref too when the lambda takes three
 * parameters, as the real service passes them: one array, which a one-parameter lambda receives whole; a read of an
 * index's entries gets the Match's terms, as one array (DEC-054); a history edit `[ref, ts, action, fields]`, as one
 * array (FN-HISTW-017).
 */
function predicateArguments(request: AccessRequest, predicate: Value | undefined): Value[] {
  if (request.terms !== undefined && !failpoint('ABAC-INDEX-PREDICATE-GETS-REF')) return [[...request.terms]];
  const ref: Value = request.ref ?? null;
  const after: ObjectValue = request.after ?? {};
  switch (request.action) {
    case 'create':
    case 'create_with_id':
      return [after];
    // Implements: UDF-ACCESS-003
    case 'call':
      return [request.arguments ?? null];
    case 'history_write':
      // One array, as the real service passes it: a lambda of four parameters takes it apart.
      if (request.historyEdit === undefined || failpoint('HISTORY-WRITE-PREDICATE-REF-ONLY')) return [ref];
      return [[ref, Time.fromMicros(request.historyEdit.ts), request.historyEdit.action, request.historyEdit.fields]];
    case 'write': {
      const params = predicate instanceof QueryValue ? predicate.lambda : [];
      if (failpoint('WRITE-PREDICATE-OLD-ARGUMENTS')) {
        const old: ObjectValue = request.before
          ? { ...(request.ref ? { ref: request.ref } : {}), ts: request.before.ts, ...request.before.fields }
          : {};
        return typeof params === 'string' ? [old] : [old, after, ref].slice(0, params.length);
      }
      const old: ObjectValue = request.before?.fields ?? {};
      if (typeof params === 'string') return [[old, after]];
      return params.length === 3 ? [old, after, ref] : [old, after];
    }
    default:
      return [ref];
  }
}

// Implements: AUTH-CLIENT-001, AUTH-LOGIN-011
/** A public index is read without restriction: its entries are not filtered by who may read their documents. */
function isPublicIndexRead(ctx: EvalContext, request: AccessRequest): boolean {
  if (
    (request.action !== 'read' && request.action !== 'unrestricted_read') ||
    request.collection !== 'indexes' ||
    request.ref === undefined
  )
    return false;
  const permissions = (request.before ?? ctx.txn.get(request.database, 'indexes', request.ref.id))?.fields.permissions;
  if (request.action === 'unrestricted_read' && ctx.identity.role === 'client' && failpoint('AUTH-CLIENT-PUBLIC-EMPTY')) return false;
  return isObjectValue(permissions) && permissions.read === 'public';
}

// Implements: AUTH-TOKEN-009, AUTH-TOKEN-010
/** A token's built-in rights, as the real service grants them: reading and deleting its identity's tokens. */
function isOwnIdentityToken(ctx: EvalContext, request: AccessRequest): boolean {
  const { identity } = ctx;
  const record = identity.kind === 'token' ? identity.record : undefined;
  if (
    record === undefined ||
    (request.action !== 'read' && request.action !== 'delete') ||
    request.collection !== 'tokens' ||
    request.database !== record.database
  )
    return false;
  if (request.ref?.id === record.ref.id) return true;
  if (failpoint('AUTH-TOKEN-SIBLING-DENIED')) return false;
  const token = request.before ?? (request.ref === undefined ? undefined : ctx.txn.get(request.database, 'tokens', request.ref.id));
  const instance = token?.fields.instance;
  return instance instanceof Ref && identity.identityDocument !== undefined && instance.equals(identity.identityDocument);
}

/** A privilege on a collection other than the one asked about, that grants the action (ABAC-PRIVILEGES-ANY-COLLECTION). */
function grantsAnyCollection(privilege: { resource: Value | undefined }, request: AccessRequest, action: Value | undefined): boolean {
  const isCollection = privilege.resource instanceof Ref && privilege.resource.collection?.id === 'collections';
  return isCollection && (request.action === 'read' || request.action === 'create') && action !== undefined && action !== false;
}

/** What a token's granted decision is remembered under (ABAC-DECISIONS-CACHED). */
function decisionKey(ctx: EvalContext, request: AccessRequest): string | undefined {
  const token = ctx.identity.record;
  return token && `${token.database}/${token.ref.id}/${request.action}/${request.collection}/${request.ref?.id ?? ''}`;
}

const SCHEMA_COLLECTIONS = new Set(['collections', 'indexes', 'roles', 'keys', 'databases', 'functions']);
const DOCUMENT_ACTIONS = new Set(['read', 'create', 'create_with_id', 'write', 'delete']);

/**
 * The key role the self-check's failpoints let a client key or a token act with, for one request (undefined: none):
 * servers that skip a check and act with the rights of the key the caller came from.
 */
function elevation(ctx: EvalContext, request: AccessRequest): 'server' | 'admin' | undefined {
  const { role } = ctx.identity;
  if ((role !== 'token' && role !== 'client') || activeFailpoints() === undefined) return undefined;
  const { action, collection } = request;
  const index = collection === 'indexes' && (action === 'read' || action === 'unrestricted_read');
  const create = action === 'create' || action === 'create_with_id';
  const readOrWrite = action === 'read' || action === 'write' || action === 'delete';
  if (collection === 'roles' && readOrWrite && failpoint('ABAC-ROLE-READABLE-BY-ANYONE')) return 'admin';
  if (role === 'client') {
    if (collection === 'roles' && create && failpoint('ABAC-ROLE-CLIENT-ALLOWED')) return 'admin';
    if (index && failpoint('AUTH-CLIENT-INDEX-UNCHECKED')) return 'server';
    if (collection === 'tokens' && create && failpoint('AUTH-CLIENT-CREATES-TOKENS')) return 'server';
    if ((create || action === 'write' || action === 'delete') && failpoint('AUTH-CLIENT-WRITES-UNCHECKED')) return 'server';
    return undefined;
  }
  const schema = SCHEMA_COLLECTIONS.has(collection);
  if (create && !schema && failpoint('ABAC-CREATE-UNCHECKED')) return 'server';
  if (action === 'write' && failpoint('ABAC-WRITE-UNCHECKED')) return 'server';
  if (action === 'delete' && failpoint('ABAC-DELETE-UNCHECKED')) return 'server';
  if (index && failpoint('ABAC-INDEX-READ-UNCHECKED')) return 'server';
  if (create && schema && failpoint('ABAC-SCHEMA-WRITES-UNCHECKED')) return 'server';
  const own = ctx.identity.identityDocument;
  if (action === 'read' && own !== undefined && request.ref?.equals(own) && failpoint('AUTH-OWN-DOCUMENT-READABLE')) return 'server';
  const keyRights =
    ((DOCUMENT_ACTIONS.has(action) || index) && failpoint('ABAC-NO-ROLE-FALLS-BACK-TO-KEY')) ||
    (index && failpoint('AUTH-TOKEN-INDEX-WITHOUT-ROLE'));
  return keyRights && !namedInSomeRole(ctx) ? 'server' : undefined;
}
