// The faults of spec/requirements/abac.md that are code; their rows (ids, titles, what they break) are in abac.json.
import { isJsonObject } from '../json-body.js';
import { nativeCollectionOf, onRecords } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'ABAC-ROLE-PREDICATE-UNWRAPPED': onRecords((record) => {
    if (nativeCollectionOf(record) !== 'roles' || !Array.isArray(record.privileges)) return false;
    let unwrapped = false;
    for (const actions of record.privileges.map((privilege) => (isJsonObject(privilege) ? privilege.actions : undefined))) {
      if (!isJsonObject(actions)) continue;
      for (const [action, value] of Object.entries(actions)) {
        if (!isJsonObject(value) || !('@query' in value)) continue;
        actions[action] = value['@query'];
        unwrapped = true;
      }
    }
    return unwrapped;
  }),
};
