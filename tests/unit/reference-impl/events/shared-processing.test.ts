/**
 * Streams of one source share each live transaction's result while it is among the latest kept; results of older
 * transactions are dropped, by count and by bytes, and computed again by a stream that has fallen behind.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryTransaction } from '../../../../reference-impl/events/event-history.js';
import { zeroCost } from '../../../../reference-impl/events/event-stats.js';
import { SharedProcessing, type SharedTransaction } from '../../../../reference-impl/events/shared-processing.js';

const transaction = (ts: number) => ({ ts: BigInt(ts) }) as unknown as HistoryTransaction;

/** A compute function that counts its calls and answers `bytes` bytes of events. */
function counted(bytes = 10) {
  const calls = { n: 0 };
  const compute = async (): Promise<SharedTransaction> => {
    calls.n++;
    return { cost: zeroCost(), leftover: zeroCost(), bytes: Buffer.alloc(bytes), error: undefined };
  };
  return { calls, compute };
}

describe('SharedProcessing', () => {
  it('computes a transaction once per source while it is kept, and again once newer transactions push it out', async () => {
    const shared = new SharedProcessing(3, 1_000);
    const first = transaction(1);
    const { calls, compute } = counted();
    const a = await shared.get(first, 'source', compute);
    expect(await shared.get(first, 'source', compute)).toBe(a);
    await shared.get(first, 'other source', compute);
    expect(calls.n).toBe(2);
    for (let ts = 2; ts <= 3; ts++) await shared.get(transaction(ts), 'source', counted().compute);
    await shared.get(first, 'source', compute);
    expect(calls.n).toBe(2);
    await shared.get(transaction(4), 'source', counted().compute);
    await shared.get(first, 'source', compute);
    expect(calls.n).toBe(3);
  });

  it('drops the oldest results once those kept hold more bytes than the bound, but always keeps the newest', async () => {
    const shared = new SharedProcessing(100, 1_000);
    const first = transaction(1);
    const { calls, compute } = counted(600);
    await shared.get(first, 'source', compute);
    await shared.get(first, 'source', compute);
    expect(calls.n).toBe(1);
    await shared.get(transaction(2), 'source', counted(600).compute);
    await shared.get(first, 'source', compute);
    expect(calls.n).toBe(2);

    const big = transaction(3);
    const alone = counted(5_000);
    await shared.get(big, 'source', alone.compute);
    await shared.get(big, 'source', alone.compute);
    expect(alone.calls.n).toBe(1);
  });
});
