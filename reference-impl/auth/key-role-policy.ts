/**
 * The access policy of built-in key roles: `admin` may do everything in its database (child databases and
 * keys included); `server` has full data and schema access but cannot touch keys or child databases;
 * `client` keys and tokens get nothing here — the ABAC policy (roles, public index permissions) decides
 * for them and wraps this one.
 */
import type { AccessPolicy } from '../eval/access.js';

const ADMIN_ONLY = new Set(['keys', 'databases']);

export const keyRolePolicy: AccessPolicy = {
  allows(ctx, request) {
    switch (ctx.identity.role) {
      case 'admin':
        return true;
      case 'server':
        return !ADMIN_ONLY.has(request.collection) && request.database === ctx.identity.database;
      default:
        return false;
    }
  },
};
