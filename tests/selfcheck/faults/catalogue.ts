// The whole fault catalogue, in one list, in area order.
import type { Area, Fault } from '../fault.js';
import { AUTH_FAULTS } from './auth.js';
import { CORE_FAULTS } from './core.js';
import { EVENT_FAULTS } from './events.js';
import { INDEX_FAULTS } from './indexes.js';
import { PAGING_FAULTS } from './paging.js';
import { V4_STREAM_FAULTS } from './v4-streams.js';

export const FAULTS: readonly Fault[] = [...CORE_FAULTS, ...AUTH_FAULTS, ...INDEX_FAULTS, ...PAGING_FAULTS, ...EVENT_FAULTS, ...V4_STREAM_FAULTS];

export function faultsOfArea(area: Area): Fault[] {
  return FAULTS.filter((fault) => fault.area === area);
}

export function findFault(id: string): Fault | undefined {
  return FAULTS.find((fault) => fault.id === id);
}
