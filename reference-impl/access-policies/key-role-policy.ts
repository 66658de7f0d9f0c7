/**
 * The access policy of built-in key roles: `admin` may do everything in its database (child databases, keys and
 * roles included); `server` has full access to documents, collections, indexes and functions but none to child
 * databases, keys, roles and access providers, as in the real service (DEC-021); both read in descendant databases
 * too, through scoped refs (writes there are refused as writes of scoped refs, DEC-050); `client` keys and tokens get
 * nothing here — the ABAC policy (roles, public index permissions) decides for them and wraps this one.
 */
import type { AccessAction, AccessPolicy } from '../eval/access.js';
import { failpoint } from '../failpoints.js';
import type { EvalContext } from '../eval/context.js';
import type { CollectionKey, DatabaseId } from '../store/store.js';

// Implements: DB-LIST-002, KEY-ROLE-004, ABAC-ROLE-014
/** Native collections the real service keeps from server keys, for reads and writes alike (fauna/faunadb `auth/Permissions.scala`). */
const ADMIN_ONLY = new Set(['keys', 'databases', 'roles', 'access_providers']);

/** Actions that read: a server key may take them in descendant databases too (through scoped refs), as in the real service. */
const READS: ReadonlySet<AccessAction> = new Set(['read', 'history_read', 'unrestricted_read', 'call']);

export const keyRolePolicy: AccessPolicy = {
  allows(ctx, request) {
    return roleAllows(ctx, request.action, request.database, request.collection);
  },
  // A key role never looks at the document, so what it allows for one document it allows for all.
  readsEveryDocument(ctx, database, collection) {
    return roleAllows(ctx, 'read', database, collection);
  },
  hasReadPrivilege(ctx, database, collection) {
    return roleAllows(ctx, 'read', database, collection);
  },
};

// Implements: UDF-ACCESS-001, UDF-CREATE-007, KEY-ROLE-003, KEY-ROLE-004, KEY-ROLE-005, KEY-ROLE-006, KEY-ROLE-007
// Implements: IDX-DEF-006, AUTH-CLIENT-003, AUTH-CLIENT-004
/** Whether key role `role` (the caller's, by default) allows the action. */
export function roleAllows(
  ctx: EvalContext,
  action: AccessAction,
  database: DatabaseId,
  collection: CollectionKey,
  role = ctx.identity.role,
): boolean {
  const { database: own, kind } = ctx.identity;
  switch (role) {
    case 'admin':
      // The self-check's failpoints: only the root secret may create databases, and it may not read their records.
      if (collection === 'databases' && action === 'create' && kind === 'key') return !failpoint('KEY-ADMIN-NO-DATABASES');
      return !(collection === 'databases' && action === 'read' && kind === 'root' && failpoint('KEY-ROOT-NOT-ADMIN'));
    case 'server':
      if (ADMIN_ONLY.has(collection) || (collection === 'indexes' && action === 'create' && failpoint('KEY-SERVER-NO-INDEXES')))
        return false;
      return database === own || (READS.has(action) && isWithin(ctx, database, own));
    default:
      return false;
  }
}

/** Whether `database` is `ancestor` or one of its descendants. */
function isWithin(ctx: EvalContext, database: DatabaseId, ancestor: DatabaseId): boolean {
  for (let current: DatabaseId | undefined = database; current !== undefined; current = ctx.txn.store.database(current)?.parent) {
    if (current === ancestor) return true;
  }
  return false;
}
