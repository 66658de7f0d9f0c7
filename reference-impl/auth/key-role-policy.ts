/**
 * The access policy of built-in key roles: `admin` may do everything in its database (child databases and
 * keys included); `server` has full data and schema access but cannot touch keys or child databases;
 * `client` keys and tokens get nothing here — the ABAC policy (roles, public index permissions) decides
 * for them and wraps this one.
 */
import type { AccessPolicy } from '../eval/access.js';
import type { CollectionKey, DatabaseId } from '../store/store.js';

const ADMIN_ONLY = new Set(['keys', 'databases']);

export const keyRolePolicy: AccessPolicy = {
  allows(ctx, request) {
    return roleAllows(ctx.identity.role, ctx.identity.database, request.database, request.collection);
  },
  // A key role never looks at the document, so what it allows for one document it allows for all.
  readsEveryDocument(ctx, database, collection) {
    return roleAllows(ctx.identity.role, ctx.identity.database, database, collection);
  },
  hasReadPrivilege(ctx, database, collection) {
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
