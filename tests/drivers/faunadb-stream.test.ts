// The official v4 driver's streaming API (`client.stream`, `client.stream.document`) against the reference server's
// `POST /stream` (DEC-064), over the driver's own transport (HTTP/2 cleartext): the start event, the document
// snapshot and version events, set events with the driver's Ref type, request errors and a revoked secret. Every wait
// has a deadline.
import faunadb, { errors, values } from 'faunadb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIndexedCollection, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();
const WAIT_MS = 10_000;
const subscriptions: Array<{ close(): void }> = [];

/** Events a subscription delivered, by type, and a way to wait for the next of a type. */
class Recorder {
  private readonly seen = new Map<string, unknown[]>();
  private readonly waiters: Array<{ type: string; count: number; resolve: (events: unknown[]) => void }> = [];

  listener(type: string): (event: unknown) => void {
    return (event) => {
      const list = this.seen.get(type) ?? [];
      list.push(event);
      this.seen.set(type, list);
      for (const waiter of [...this.waiters]) {
        if (waiter.type === type && list.length >= waiter.count) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(list.slice());
        }
      }
    };
  }

  /** Resolves with every event of `type` once there are `count` of them; fails after the deadline. */
  until<T = unknown>(type: string, count = 1): Promise<T[]> {
    const list = this.seen.get(type) ?? [];
    if (list.length >= count) return Promise.resolve(list.slice() as T[]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${count} ${type} event(s) within ${WAIT_MS} ms; saw ${JSON.stringify([...this.seen.keys()])}`)),
        WAIT_MS,
      );
      this.waiters.push({
        type,
        count,
        resolve: (events) => {
          clearTimeout(timer);
          resolve(events as T[]);
        },
      });
    });
  }
}

/** What the tests read of the driver's stream events (faunadb-js leaves them untyped). */
interface SnapshotEvent {
  data: unknown;
}
interface VersionEvent {
  action: string;
  document: { ref: values.Ref; ts: number; data: unknown };
  diff: { data: unknown };
}
interface SetEvent {
  action: string;
  document: { ref: values.Ref };
  index: { ref: values.Ref; terms: unknown[]; values: unknown[] };
}

function sameRef(a: values.Ref, b: values.Ref): boolean {
  return (a as values.Ref & { equals(other: values.Ref): boolean }).equals(b);
}

beforeAll(async () => {
  await createIndexedCollection(
    driver.client,
    { name: 'parcels' },
    {
      name: 'parcels_by_state',
      terms: [{ field: ['data', 'state'] }],
      values: [{ field: ['data', 'weight'] }],
      active: true,
    },
  );
});
afterEach(() => {
  for (const each of subscriptions.splice(0)) each.close();
});

describe('faunadb 4.x driver: client.stream', () => {
  it('stream.document sends start, then the snapshot the driver reads with Get, then version events of later writes', async () => {
    const ref = new values.Ref('101', new values.Ref('parcels', values.Native.COLLECTIONS));
    await driver.client.query(q.Create(ref, { data: { state: 'packed', weight: 3 } }));
    const recorder = new Recorder();
    const subscription = driver.client.stream
      .document(ref, { fields: ['action', 'document', 'diff'] })
      .on('start', recorder.listener('start'))
      .on('snapshot', recorder.listener('snapshot'))
      .on('version', recorder.listener('version'))
      .on('error', recorder.listener('error'));
    subscriptions.push(subscription);
    subscription.start();
    const [start] = await recorder.until('start');
    expect(typeof start).toBe('number');
    const [snapshot] = await recorder.until<SnapshotEvent>('snapshot');
    expect(snapshot.data).toEqual({ state: 'packed', weight: 3 });
    const updated = await driver.client.query<{ ts: number }>(q.Update(ref, { data: { state: 'sent' } }));
    await driver.client.query(q.Delete(ref));
    const [update, removal] = await recorder.until<VersionEvent>('version', 2);
    expect(update.action).toBe('update');
    expect(sameRef(update.document.ref, ref)).toBe(true);
    expect(update.document.ts).toBe(updated.ts);
    expect(update.document.data).toEqual({ state: 'sent', weight: 3 });
    expect(update.diff.data).toEqual({ state: 'sent' });
    expect(removal.action).toBe('delete');
    expect(removal.document.data).toEqual({ state: 'sent', weight: 3 });
  });

  it('a Match stream sends set events whose refs decode as driver Refs', async () => {
    const recorder = new Recorder();
    const subscription = driver.client
      .stream(q.Match(q.Index('parcels_by_state'), 'lost'), { fields: ['action', 'document', 'index'] })
      .on('start', recorder.listener('start'))
      .on('set', recorder.listener('set'))
      .on('error', recorder.listener('error'));
    subscriptions.push(subscription);
    subscription.start();
    await recorder.until('start');
    const parcel = await driver.client.query<{ ref: values.Ref }>(
      q.Create(q.Collection('parcels'), { data: { state: 'lost', weight: 7 } }),
    );
    await driver.client.query(q.Update(parcel.ref, { data: { state: 'found' } }));
    const [added, removed] = await recorder.until<SetEvent>('set', 2);
    expect(added.action).toBe('add');
    expect(added.document.ref).toBeInstanceOf(values.Ref);
    expect(sameRef(added.document.ref, parcel.ref)).toBe(true);
    expect(sameRef(added.index.ref, new values.Ref('parcels_by_state', values.Native.INDEXES))).toBe(true);
    expect(added.index.terms).toEqual(['lost']);
    expect(added.index.values).toEqual([7]);
    expect(removed.action).toBe('remove');
  });

  it('a stream of something that cannot be streamed reports the 400 as a BadRequest error event', async () => {
    const recorder = new Recorder();
    const subscription = driver.client.stream(q.Collection('parcels')).on('error', recorder.listener('error'));
    subscriptions.push(subscription);
    subscription.start();
    const [error] = await recorder.until('error');
    expect(error).toBeInstanceOf(errors.BadRequest);
    expect((error as errors.FaunaHTTPError).message).toBe('invalid argument');
  });

  it('deleting the key behind a stream sends the permission denied error event', async () => {
    const key = await driver.client.query<{ ref: values.Ref; secret: string }>(q.CreateKey({ role: 'server' }));
    const ref = new values.Ref('202', new values.Ref('parcels', values.Native.COLLECTIONS));
    // The document exists, so the driver's snapshot read succeeds and the only error is the stream's.
    await driver.client.query(q.Create(ref, { data: { state: 'held' } }));
    const recorder = new Recorder();
    const subscription = driver
      .clientFor(key.secret)
      .stream.document(ref)
      .on('snapshot', recorder.listener('snapshot'))
      .on('error', recorder.listener('error'));
    subscriptions.push(subscription);
    subscription.start();
    // After the start event the driver reads the snapshot with the key's secret; the key goes only once it has.
    await recorder.until('snapshot');
    await driver.client.query(q.Delete(key.ref));
    const [lost] = await recorder.until('error');
    // faunadb-js passes the server's error event on as it came (its StreamErrorEvent check compares the wrong field).
    expect(lost).toEqual({ code: 'permission denied', description: 'Authorization lost during stream evaluation.' });
  });
});
