/**
 * The access policy of built-in key roles: `admin` may do everything in its database (child databases, keys and
 * roles included); `server` has full access to documents, collections, indexes and functions but none to child
 * databases, keys, roles and access providers, as in the real service (DEC-021); `client` keys and tokens get nothing
 * here — the ABAC policy (roles, public index permissions) decides for them and wraps this one.
 */
import type { AccessPolicy } from '../eval/access.js';
import type { CollectionKey, DatabaseId } from '../store/store.js';

/** Native collections the real service keeps from server keys, for reads and writes alike (fauna/faunadb `auth/Permissions.scala`). */
const ADMIN_ONLY = new Set(['keys', 'databases', 'roles', 'access_providers']);

export const keyRolePolicy: AccessPolicy = {
  allows(ctx, request) {
    return roleAllows(ctx.identity.role, ctx.identity.database, request.database, request.collection);
  },
  // A key role never looks at the document, so what it allows for one document it allows for all.
  readsEveryDocument(ctx, database, collection) {
    return roleAllows(ctx.identity.role, ctx.identity.database, database, collection);
  },
};

function roleAllows(role: string, ownDatabase: DatabaseId, database: DatabaseId, collection: CollectionKey): boolean {
  switch (role) {
    case 'admin':
      return true;
    case 'server':
      return !ADMIN_ONLY.has(collection) && database === ownDatabase;
    default:
      return false;
  }
}
