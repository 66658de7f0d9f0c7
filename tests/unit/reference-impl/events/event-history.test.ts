import { describe, expect, it } from 'vitest';
import { positionAfterTransaction } from '../../../../reference-impl/event-source/cursor.js';
import {
  EventHistory,
  PRUNE_EVERY_COMMITS,
  PRUNE_MARGIN_MICROS,
  writesAfter,
  type PruneClock,
} from '../../../../reference-impl/events/event-history.js';
import { StoreFixture } from './store-fixture.js';

function historyWith(clock: PruneClock = { retentionMicros: () => 1_000_000_000_000n, nowMicros: () => BigInt(Date.now()) * 1000n }) {
  const fixture = new StoreFixture();
  return { fixture, history: new EventHistory(fixture.store, clock) };
}

describe('EventHistory', () => {
  it('orders the writes of a transaction by document id, then collection, and numbers them from 0', () => {
    const { fixture, history } = historyWith();
    const ts = fixture.commit([
      { put: 'B', id: '20', data: {} },
      { put: 'A', id: '3', data: {} },
      { put: 'A', id: '20', data: {} },
      { collection: 'A' },
    ]);
    const [txn] = [...history.transactionsAfter('0', positionAfterTransaction(ts - 1n), ts)];
    expect(txn!.writes.map((w) => `${w.collection}/${w.id}/${w.ordinal}`)).toEqual(['A/3/0', 'A/20/1', 'B/20/2']);
    expect(writesAfter(txn!, { txnTs: ts, ordinal: 0 }).map((w) => w.ordinal)).toEqual([1, 2]);
    expect(writesAfter(txn!, positionAfterTransaction(ts - 1n))).toHaveLength(3);
  });

  it('answers the transactions of one database from a position up to a time, oldest first, and tells listeners', () => {
    const { fixture, history } = historyWith();
    const seen: bigint[] = [];
    const stop = history.subscribe((t) => seen.push(t.ts));
    const t1 = fixture.commit([{ put: 'A', id: '1', data: {} }]);
    const t2 = fixture.commit([{ put: 'A', id: '2', data: {} }]);
    const t3 = fixture.commit([{ put: 'A', id: '3', data: {} }]);
    stop();
    fixture.commit([{ put: 'A', id: '4', data: {} }]);
    expect(seen).toEqual([t1, t2, t3]);
    // The transaction at the position's own time is included; writesAfter leaves out what the position passed.
    const fromT1 = [...history.transactionsAfter('0', positionAfterTransaction(t1), t2)];
    expect(fromT1.map((t) => t.ts)).toEqual([t1, t2]);
    expect(fromT1.map((t) => writesAfter(t, positionAfterTransaction(t1)).length)).toEqual([0, 1]);
    // A position inside a transaction still yields that transaction (its later writes).
    expect([...history.transactionsAfter('0', { txnTs: t2, ordinal: 0 }, t3)].map((t) => t.ts)).toEqual([t2, t3]);
    expect([...history.transactionsAfter('1', positionAfterTransaction(0n), t3)]).toEqual([]);
  });

  it('prunes transactions older than the retention window plus the margin, keeping everything inside it', () => {
    let now = 0n;
    const retention = 10_000_000n;
    const { fixture, history } = historyWith({ retentionMicros: () => retention, nowMicros: () => now });
    const old = fixture.commit([{ put: 'A', id: '1', data: {} }], { ts: 1_000n });
    const edge = fixture.commit([{ put: 'A', id: '2', data: {} }], { ts: 2_000n });
    const inside = fixture.commit([{ put: 'A', id: '3', data: {} }], { ts: 3_000n });
    now = edge + retention + PRUNE_MARGIN_MICROS;
    history.prune();
    expect([...history.transactionsAfter('0', positionAfterTransaction(0n), inside)].map((t) => t.ts)).toEqual([edge, inside]);
    expect(old).toBeLessThan(edge);
    now = inside + retention + PRUNE_MARGIN_MICROS + 1n;
    history.prune();
    expect(history.size('0')).toBe(0);
  });

  it(`prunes by itself every ${PRUNE_EVERY_COMMITS} commits`, () => {
    const { fixture, history } = historyWith({ retentionMicros: () => 0n, nowMicros: () => 10n ** 18n });
    for (let i = 1; i < PRUNE_EVERY_COMMITS; i++) fixture.commit([{ put: 'A', id: String(i), data: {} }], { ts: BigInt(i) });
    expect(history.size('0')).toBe(PRUNE_EVERY_COMMITS - 1);
    fixture.commit([{ put: 'A', id: 'last', data: {} }], { ts: BigInt(PRUNE_EVERY_COMMITS) });
    expect(history.size('0')).toBe(0);
  });
});
