/**
 * A stored document version as event sources see it (FQL v10 form): `id`, `coll` (the collection name), `ts`
 * (a time) and the user fields of `data` at the top level. Hidden fields (credentials) never appear.
 */
import type { EventDocument } from '../event-source/plan.js';
import type { DocumentVersion } from '../store/store.js';
import { isObjectValue, setField, Time, type ObjectValue } from '../values/value.js';

// Implements: EVT-FIELD-003, EVT-FIELD-008
export function eventDocument(collection: string, id: string, version: DocumentVersion): EventDocument {
  const out: ObjectValue = { id, coll: collection, ts: new Time(version.ts * 1000n) };
  const data = version.fields['data'];
  if (isObjectValue(data)) {
    for (const [key, value] of Object.entries(data)) if (!Object.hasOwn(out, key)) setField(out, key, value);
  }
  const ttl = version.fields['ttl'];
  if (ttl !== undefined && !('ttl' in out)) out['ttl'] = ttl;
  return out;
}
