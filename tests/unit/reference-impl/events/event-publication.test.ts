// With a commit log, events are published only once their commit is durable (issue 8, --data-dir): listeners,
// feed pages and stream snapshots never see a commit whose fsync has not finished, and a failed log publishes nothing.
import { describe, expect, it } from 'vitest';
import { EventHistory } from '../../../../reference-impl/events/event-history.js';
import { EventService } from '../../../../reference-impl/events/event-service.js';
import { sourceSpec, unitRuntime } from '../fql/fql-fixture.js';
import { StoreFixture } from './store-fixture.js';

const CLOCK = { retentionMicros: () => 1_000_000_000_000n, nowMicros: () => BigInt(Date.now()) * 1000n };
const ROOT_CREATOR = { identity: { kind: 'root', database: '0', role: 'admin' }, scoped: false } as const;

/** A commit log stand-in: every `whenDurable()` waits for the next `flush()` (or `fail()`). */
class ManualLog {
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  readonly whenDurable = (): Promise<void> => new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  async flush(): Promise<void> {
    for (const waiter of this.waiting.splice(0)) waiter.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }
  async fail(): Promise<void> {
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('disk full'));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A history whose commits become durable only when the test says so, and the ts of every commit it published. */
function withManualLog() {
  const fixture = new StoreFixture();
  const log = new ManualLog();
  const history = new EventHistory(fixture.store, CLOCK, log.whenDurable);
  const seen: bigint[] = [];
  history.subscribe((t) => seen.push(t.ts));
  return { fixture, log, history, seen, before: history.publishedTs };
}

describe('Event publication after durability', () => {
  it('tells listeners about a commit, and moves publishedTs past it, only once it is durable, in commit order', async () => {
    const { fixture, log, history, seen, before } = withManualLog();
    const t1 = fixture.commit([{ put: 'A', id: '1', data: {} }]);
    const t2 = fixture.commit([{ put: 'A', id: '2', data: {} }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    expect(history.publishedTs).toBe(before);
    await log.flush();
    expect(seen).toEqual([t1, t2]);
    expect(history.publishedTs).toBe(t2);
  });

  it('never publishes a commit the log failed to make durable', async () => {
    const { fixture, log, history, seen, before } = withManualLog();
    fixture.commit([{ put: 'A', id: '1', data: {} }]);
    await log.fail();
    expect(seen).toEqual([]);
    expect(history.publishedTs).toBe(before);
  });

  it('publishes at once without a commit log', () => {
    const fixture = new StoreFixture();
    const history = new EventHistory(fixture.store, CLOCK, () => undefined);
    const seen: bigint[] = [];
    history.subscribe((t) => seen.push(t.ts));
    const t1 = fixture.commit([{ put: 'A', id: '1', data: {} }]);
    expect(seen).toEqual([t1]);
    expect(history.publishedTs).toBe(t1);
  });

  it('leaves a commit that is not yet durable out of feed pages and their cursor', async () => {
    const fixture = new StoreFixture();
    const log = new ManualLog();
    const service = new EventService(
      fixture.store,
      { serverKey: new Uint8Array(32), runtime: unitRuntime(fixture.store) },
      log.whenDurable,
    );
    const createdAt = fixture.commit([{ collection: 'Items' }]);
    await log.flush();
    const token = service.issueToken(ROOT_CREATOR, await sourceSpec(fixture.store, 'Items.all().eventSource()'), createdAt);
    const source = service.open(token, ROOT_CREATOR, 'feed');
    const start = service.resolveStart(source, {});
    const written = fixture.commit([{ put: 'Items', id: '1', data: {} }]);
    const pending = await service.feedPage(source, start, 16, async () => true);
    expect(pending.events).toEqual([]);
    // Resuming from that page's cursor must still yield the event once it is durable.
    await log.flush();
    const resumed = await service.feedPage(source, service.resolveStart(source, { cursor: pending.cursor }), 16, async () => true);
    expect(resumed.events.map((e) => JSON.parse(e)).map((e) => [e.type, BigInt(e.txn_ts)])).toEqual([['add', written]]);
  });
});
