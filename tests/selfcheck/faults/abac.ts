import { isJsonObject } from '../json-body.js';
import { topObject, withLedgers } from './lib/access.js';
import { nativeCollectionOf, onJson, records, rewriteResponse, withJsonBody, withStatus } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'ABAC-ROLE-PREDICATE-UNWRAPPED': onJson(
    () => true,
    (body) =>
      records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'roles' || !Array.isArray(record.privileges)) return n;
        for (const privilege of record.privileges) {
          if (!isJsonObject(privilege) || !isJsonObject(privilege.actions)) continue;
          for (const [action, value] of Object.entries(privilege.actions)) {
            if (isJsonObject(value) && '@query' in value) {
              privilege.actions[action] = value['@query'];
              n += 1;
            }
          }
        }
        return n;
      }, 0),
  ),
  'ABAC-LISTING-FILTERED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => {
        const set = topObject(ctx.original)?.paginate;
        return (
          res.status === 403 &&
          ledgers.tokens.ofRequest(ctx.original) !== undefined &&
          isJsonObject(set) &&
          'collections' in set &&
          set.collections === null
        );
      },
      (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
    ),
  })),
};
