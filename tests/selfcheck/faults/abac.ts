// The faults of spec/requirements/abac.md that are code; their rows (ids, titles, what they break) are in abac.json.
import { isJsonObject } from '../json-body.js';
import { nativeCollectionOf, onJson, records } from './lib/rewrites.js';
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
};
