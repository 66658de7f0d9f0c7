import { describe, expect, it } from 'vitest';
import { addCost, operationsOf, renderStats, zeroCost } from '../../../../reference-impl/events/event-stats.js';

describe('event stats', () => {
  it('adds costs, counts read and compute operations, and renders the wire fields', () => {
    const total = addCost(zeroCost(), { readOps: 1, storageBytesRead: 40, computeOps: 1, processingTimeMs: 0.4 });
    addCost(total, { readOps: 2, storageBytesRead: 2, computeOps: 3, processingTimeMs: 0.3 });
    expect(operationsOf(total)).toBe(7);
    expect(renderStats(total)).toEqual({ read_ops: 3, storage_bytes_read: 42, compute_ops: 4, processing_time_ms: 1, rate_limits_hit: [] });
    expect(renderStats(zeroCost())).toMatchObject({ read_ops: 0, compute_ops: 0, processing_time_ms: 0 });
  });
});
