// The whole fault catalogue, in one list, in area order.
import type { Area, Fault } from '../fault.js';
import { AUTH_FAULTS } from './auth.js';
import { CORE_FAULTS } from './core.js';
import { EVENT_FAULTS } from './events.js';
import { INDEX_FAULTS } from './indexes.js';
import { PAGING_FAULTS } from './paging.js';
import { COLLECTION_FUNCTION_FAULTS } from './collection-functions.js';
import { FOLD_AND_KEY_FUNCTION_FAULTS } from './fold-and-key-functions.js';
import { HISTORY_FUNCTION_FAULTS } from './history-functions.js';
import { MATH_FUNCTION_FAULTS } from './math-functions.js';
import { NUMBER_FUNCTION_FAULTS } from './number-functions.js';
import { SET_FUNCTION_FAULTS } from './set-functions.js';
import { STRING_FUNCTION_FAULTS } from './string-functions.js';
import { TIME_FUNCTION_FAULTS } from './time-functions.js';
import { USER_FUNCTION_FAULTS } from './user-functions.js';
import { V4_STREAM_FAULTS } from './v4-streams.js';
import { FORMAT_FUNCTION_FAULTS } from './format-functions.js';
import { HISTORY_WRITE_FAULTS } from './history-write-functions.js';
import { DOCUMENT_TTL_FAULTS } from './document-ttl.js';
import { QUERY_DEADLINE_FAULTS } from './query-deadlines.js';
import { WRITE_LIMIT_FAULTS } from './write-limits.js';
import { FQL10_FAULTS } from './fql10.js';

export const FAULTS: readonly Fault[] = [...CORE_FAULTS, ...AUTH_FAULTS, ...INDEX_FAULTS, ...PAGING_FAULTS, ...EVENT_FAULTS, ...V4_STREAM_FAULTS, ...NUMBER_FUNCTION_FAULTS, ...STRING_FUNCTION_FAULTS, ...COLLECTION_FUNCTION_FAULTS, ...USER_FUNCTION_FAULTS, ...TIME_FUNCTION_FAULTS, ...MATH_FUNCTION_FAULTS, ...SET_FUNCTION_FAULTS, ...FOLD_AND_KEY_FUNCTION_FAULTS, ...HISTORY_FUNCTION_FAULTS, ...FORMAT_FUNCTION_FAULTS, ...HISTORY_WRITE_FAULTS, ...DOCUMENT_TTL_FAULTS, ...QUERY_DEADLINE_FAULTS, ...WRITE_LIMIT_FAULTS, ...FQL10_FAULTS];

export function faultsOfArea(area: Area): Fault[] {
  return FAULTS.filter((fault) => fault.area === area);
}

export function findFault(id: string): Fault | undefined {
  return FAULTS.find((fault) => fault.id === id);
}
