import type { Stats } from '../../schemas/types.js';

/** The `stats` of events and feed pages (SD "Event fields": read_ops, storage_bytes_read, compute_ops, …). */
export interface EventCost {
  readOps: number;
  storageBytesRead: number;
  computeOps: number;
  processingTimeMs: number;
}

export function zeroCost(): EventCost {
  return { readOps: 0, storageBytesRead: 0, computeOps: 0, processingTimeMs: 0 };
}

export function addCost(into: EventCost, more: EventCost): EventCost {
  into.readOps += more.readOps;
  into.storageBytesRead += more.storageBytesRead;
  into.computeOps += more.computeOps;
  into.processingTimeMs += more.processingTimeMs;
  return into;
}

/** Operations counted against the account operations limit (DEC-016). */
export function operationsOf(cost: EventCost): number {
  return cost.readOps + cost.computeOps;
}

// Implements: EVT-FIELD-005, LIMIT-OPS-002
export function renderStats(cost: EventCost): Stats {
  return {
    read_ops: cost.readOps,
    storage_bytes_read: cost.storageBytesRead,
    compute_ops: cost.computeOps,
    processing_time_ms: Math.round(cost.processingTimeMs),
    rate_limits_hit: [],
  };
}
