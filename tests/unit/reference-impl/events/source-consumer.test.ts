import { describe, expect, it, vi } from 'vitest';
import { decodeEventCursor, positionAfterTransaction } from '../../../../reference-impl/event-source/cursor.js';
import { EventSourcePlan } from '../../../../reference-impl/fql/runtime/event-source-plan.js';
import { EventHistory, type HistoryTransaction } from '../../../../reference-impl/events/event-history.js';
import { SourceConsumer, type ReadCheck } from '../../../../reference-impl/events/source-consumer.js';
import { Interpreter } from '../../../../reference-impl/fql/runtime/interpreter.js';
import { sourceSpec, unitRuntime } from '../fql/fql-fixture.js';
import { StoreFixture } from './store-fixture.js';

const ROOT_CREATOR = { identity: { kind: 'root', database: '0', role: 'admin' }, scoped: false } as const;
const binding = { database: '0', key: 'unit-test-key' };

async function setup(query: string, mayRead: ReadCheck = async () => true) {
  const fixture = new StoreFixture();
  const history = new EventHistory(fixture.store, { retentionMicros: () => 10n ** 12n, nowMicros: () => 0n });
  const createdAt = fixture.commit([{ collection: 'Items' }, { collection: 'Other' }]);
  const plan = new EventSourcePlan(await sourceSpec(fixture.store, query));
  const runtime = unitRuntime(fixture.store);
  const source = {
    database: '0',
    endpoint: 'feed' as const,
    plan,
    runtimeAt: (ts: bigint) => runtime(ROOT_CREATOR.identity, ts),
    createdAt,
    creator: ROOT_CREATOR,
    consumer: ROOT_CREATOR,
    rights: ROOT_CREATOR,
    key: 'Items',
  };
  const consumer = new SourceConsumer(source, mayRead, binding);
  const last = (): HistoryTransaction =>
    [...history.transactionsAfter('0', positionAfterTransaction(fixture.store.lastCommitTs - 1n), fixture.store.lastCommitTs)].at(-1)!;
  const step = async () => {
    const txn = last();
    return consumer.process(txn, positionAfterTransaction(txn.ts - 1n));
  };
  return { fixture, consumer, step };
}

// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
const shown = (item: any) => ({ type: item.json.type, n: item.json.data['@doc'].n['@int'] ?? item.json.data['@doc'].n });

describe('SourceConsumer', () => {
  it('turns writes into add, update and remove events by set membership, and nothing for writes that stay out', async () => {
    const { fixture, step } = await setup('Items.where(.n > 1).eventSource()');
    fixture.commit([{ put: 'Items', id: '1', data: { n: 5n } }]);
    expect((await step()).items.map(shown)).toEqual([{ type: 'add', n: '5' }]);
    fixture.commit([{ put: 'Items', id: '1', data: { n: 6n } }]);
    expect((await step()).items.map(shown)).toEqual([{ type: 'update', n: '6' }]);
    fixture.commit([{ put: 'Items', id: '1', data: { n: 0n } }]);
    // A remove carries the last version inside the set.
    expect((await step()).items.map(shown)).toEqual([{ type: 'remove', n: '6' }]);
    fixture.commit([{ put: 'Items', id: '1', data: { n: -1n } }]);
    const none = await step();
    expect(none.items).toEqual([]);
    expect(none.cost.readOps).toBe(1);
    fixture.commit([
      { put: 'Items', id: '1', data: { n: 9n } },
      { put: 'Other', id: '2', data: { n: 9n } },
    ]);
    const back = await step();
    expect(back.items.map(shown)).toEqual([{ type: 'add', n: '9' }]);
    // The discarded write's cost rides on the next event.
    expect((back.items[0]!.json.stats as { read_ops: number }).read_ops).toBe(2);
    fixture.commit([{ remove: 'Items', id: '1' }]);
    expect((await step()).items.map(shown)).toEqual([{ type: 'remove', n: '9' }]);
  });

  it("runs the source's functions once for each document of a write, also for the event's data (DEC-151)", async () => {
    const { fixture, step } = await setup('Items.where(.n > 1).map(.n).eventSource()');
    const calls = vi.spyOn(Interpreter.prototype, 'call');
    try {
      const counted = async () => {
        calls.mockClear();
        const items = (await step()).items.map((item) => ({ type: item.json.type, data: item.json.data }));
        return { items, calls: calls.mock.calls.length };
      };
      fixture.commit([{ put: 'Items', id: '1', data: { n: 5n } }]);
      // where and map over the created document.
      expect(await counted()).toEqual({ items: [{ type: 'add', data: { '@int': '5' } }], calls: 2 });
      fixture.commit([{ put: 'Items', id: '1', data: { n: 6n } }]);
      // where and map over the document before and after the update.
      expect(await counted()).toEqual({ items: [{ type: 'update', data: { '@int': '6' } }], calls: 4 });
    } finally {
      calls.mockRestore();
    }
  });

  it('skips what the read check refuses but still counts it, and gives each event a cursor of its position', async () => {
    const { fixture, consumer, step } = await setup('Items.all().eventSource()', async (_c, id) => id !== '1');
    const ts = fixture.commit([
      { put: 'Items', id: '1', data: { n: 1n } },
      { put: 'Items', id: '2', data: { n: 2n } },
    ]);
    const processed = await step();
    expect(processed.items.map(shown)).toEqual([{ type: 'add', n: '2' }]);
    expect(processed.cost.readOps).toBe(2);
    expect(decodeEventCursor(processed.items[0]!.json.cursor as string, binding)).toEqual({ txnTs: ts, ordinal: 1 });
    expect(consumer.takePending().readOps).toBe(0);
  });
});
