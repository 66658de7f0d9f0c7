// The faults of spec/requirements/user-functions.md that are code; their rows (ids, titles, what they break) are in user-functions.json.
import { isJsonObject } from '../json-body.js';
import { nativeCollectionOf, onRecords } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'UDF-BODY-NOT-QUERY': onRecords((record) => {
    if (nativeCollectionOf(record) !== 'functions' || !isJsonObject(record.body) || !isJsonObject(record.body['@query'])) return false;
    record.body = record.body['@query'];
    return true;
  }),
};
