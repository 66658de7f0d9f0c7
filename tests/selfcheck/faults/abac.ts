// The faults of spec/requirements/abac.md that are code; their rows (ids, titles, what they break) are in abac.json.
import { isJsonObject } from '../json-body.js';
import { refusedOnlyFor, roleCreatedAnyway } from './lib/access.js';
import { acceptedModification, nativeCollectionOf, onRecords } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** A role write refused only because a privilege or membership names a resource that does not exist. */
function refusedForRoleResources(body: unknown): boolean {
  const onResource = (field: unknown) =>
    Array.isArray(field) && (field[0] === 'privileges' || field[0] === 'membership') && field[field.length - 1] === 'resource';
  return refusedOnlyFor(body, (failure) => failure.code === 'invalid reference' && onResource(failure.field));
}

export const code: FaultCode = {
  'ABAC-ROLE-RESOURCES-UNCHECKED': () => ({ response: roleCreatedAnyway(refusedForRoleResources) }),
  'ABAC-ROLE-UPDATE-RESOURCES-UNCHECKED': () => acceptedModification(refusedForRoleResources),
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
