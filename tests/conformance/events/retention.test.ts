// Retention waited out (DEC-020): once a collection with history_days 0 has kept its events for its whole window, a
// source created before that, and a cursor it handed out, yield the retention error on feeds and streams, while a
// collection with history_days 1 still replays. The window is the target's setting (minRetentionMs); the test waits
// until the server's clock has passed it, so it is a file of its own, run next to the others.
import { describe, expect } from 'vitest';
import { check, type StreamReader, uniqueName, useTenant } from '../../harness/index.js';
import { createCollection } from '../../harness/v4.js';
import { eventSettings, requireEventSetting } from '../../harness/event-settings.js';
import { addDoc, createSource, docId, expectEnded, feedAll, feedPage, showEvent } from './event-fixtures.js';

/** How far past the window the test reads, for a server whose clock or pruning is a little late. */
const MARGIN_MS = 5_000;
const RETENTION_CODES = ['invalid_stream_start_time', 'invalid_start_time'];

describe('Event retention, waited out', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  /** The server's clock: the commit time of a write (a read's time need not move when nothing commits). */
  async function serverTime(clock: string): Promise<bigint> {
    return (await addDoc(t.server, clock, { tick: true })).ts;
  }

  /** Polls the server's clock, once a second, until it passes `boundary`. */
  async function untilServerTime(clock: string, boundary: bigint, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while ((await serverTime(clock)) <= boundary) {
      if (Date.now() > deadline) throw new Error(`the server's clock did not pass ${boundary} within ${deadlineMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  async function expectRetentionErrorPage(body: Record<string, unknown>, what: string): Promise<void> {
    const page = await feedPage(t.server, body);
    const last = page.events.at(-1);
    expect(last?.type, `${what}: the page ends with an error event: ${showEvent(page.events)}`).toBe('error');
    expect(RETENTION_CODES, what).toContain(last.error.code);
    expect(
      page.events.filter((e) => e.type !== 'error'),
      `${what}: no data event of the expired history`,
    ).toEqual([]);
  }

  async function expectRetentionErrorStream(body: Record<string, unknown>, what: string): Promise<void> {
    const reader: StreamReader = await t.server.stream(body);
    try {
      expect(reader.status, what).toBe(200);
      expect((await reader.next()).type, `${what}: the first event`).toBe('status');
      const error = await reader.next();
      expect(error.type, `${what}: ${showEvent(error)}`).toBe('error');
      expect(RETENTION_CODES, what).toContain(error.error.code);
      await expectEnded(reader);
    } finally {
      reader.close();
    }
  }

  check(
    ['EVT-RETAIN-005', 'EVT-RETAIN-002', 'STREAM-CLOSE-005'],
    "once the window of history_days 0 has passed, the source's own start and a cursor it handed out yield the retention error: a 200 page ending with it, a stream with status then it",
    async (context) => {
      const windowMs = requireEventSetting(context, 'minRetentionMs');
      const [expiring, kept, clock] = [uniqueName('R'), uniqueName('K'), uniqueName('Clock')];
      (await t.server.query(createCollection(expiring, { history_days: 0 }))).expectStatus(200, 201);
      (await t.server.query(createCollection(kept, { history_days: 1 }))).expectStatus(200, 201);
      (await t.server.query(createCollection(clock, { history_days: 0 }))).expectStatus(200, 201);
      const source = await createSource(t.server, `${expiring}.all().eventSource()`);
      const control = await createSource(t.server, `${kept}.all().eventSource()`);
      const written = await addDoc(t.server, expiring, { n: 1 });
      const keptDoc = await addDoc(t.server, kept, { n: 1 });
      const first = await feedPage(t.server, { token: source.token });
      expect(first.events.map(docId), 'the event, while it is within the window').toEqual([written.id]);
      const cursor = first.events[0].cursor as string;

      await untilServerTime(clock, written.ts + BigInt(windowMs + MARGIN_MS) * 1000n, windowMs + MARGIN_MS + 30_000);

      await expectRetentionErrorPage({ token: source.token }, "feed from the source's creation");
      await expectRetentionErrorStream({ token: source.token }, "stream from the source's creation");
      await expectRetentionErrorPage({ token: source.token, cursor }, 'feed from the cursor');
      await expectRetentionErrorStream({ token: source.token, cursor }, 'stream from the cursor');
      // A collection with history_days 1 keeps its events as long.
      expect((await feedAll(t.server, { token: control.token })).events.map((e) => `${e.type}:${docId(e)}`)).toEqual([`add:${keptDoc.id}`]);
    },
    { timeout: (eventSettings().minRetentionMs ?? 0) + MARGIN_MS + 60_000 },
  );
});
