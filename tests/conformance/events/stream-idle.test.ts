// POST /stream/1 left idle: it stays open, gets periodic status events, and a deleted source (collection or
// database) ends neither it nor starts data events. Each test waits out a quiet window, so these are a file of
// their own, run next to stream.test.ts. Every read has a deadline.
import { describe, expect } from 'vitest';
import { check, type StreamReader, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections, createKey } from '../../harness/v4.js';
import { requireEventSetting } from '../../harness/event-settings.js';
import { addDoc, createSource, expectEnded, expectQuiet, showEvent } from './event-fixtures.js';

/** How long "nothing more arrives" is watched for. */
const QUIET_WINDOW_MS = 1_500;

/**
 * Watches the stream for `windowMs`: only status events may come, or a `permission_loss` error event after which the
 * server ends the stream. True when the stream is still open at the end of the window or ended that way.
 */
async function quietOrPermissionLoss(reader: StreamReader, windowMs: number): Promise<boolean> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return !reader.done;
    let event: { type: string; error?: { code: string } };
    try {
      event = await reader.next({ timeoutMs: left });
    } catch (err) {
      if ((err as Error).name === 'StreamTimeoutError') return !reader.done;
      if ((err as Error).name === 'StreamEndedError') return false;
      throw err;
    }
    if (event.type === 'status') continue;
    expect(
      event.type === 'error' && event.error?.code === 'permission_loss',
      `only status events, or permission_loss, expected; got ${showEvent(event)}`,
    ).toBe(true);
    await expectEnded(reader);
    return true;
  }
}

describe('POST /stream/1, idle', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  async function fresh() {
    const coll = uniqueName('C');
    await createCollections(t.server, coll);
    return { coll, ...(await createSource(t.server, `${coll}.all().eventSource()`)) };
  }

  check(['STREAM-LIVE-003'], 'an idle stream stays open; the server does not end it', async () => {
    const { token } = await fresh();
    const reader = await t.server.stream({ token });
    await reader.next();
    expect(await expectQuiet(reader, 2_500)).toBe(true);
    reader.close();
  });

  check(
    ['STREAM-STATUS-004'],
    'an idle stream receives a status event within the configured status interval',
    async (context) => {
      const interval = requireEventSetting(context, 'statusIntervalMs');
      const { token } = await fresh();
      const reader = await t.server.stream({ token });
      await reader.next();
      const status = await reader.next({ timeoutMs: interval + 2_000 });
      expect(status.type).toBe('status');
      reader.close();
    },
    { timeout: 60_000 },
  );

  check(['STREAM-DELETE-001'], 'after the source collection is deleted the stream emits no data events and stays open', async () => {
    const { coll, token } = await fresh();
    const reader = await t.server.stream({ token });
    await reader.next();
    (await t.server.query({ delete: { collection: coll } })).expectStatus(200);
    await createCollections(t.server, coll);
    await addDoc(t.server, coll, { n: 1 });
    expect(await expectQuiet(reader, QUIET_WINDOW_MS)).toBe(true);
    reader.close();
  });

  check(
    ['STREAM-DELETE-002'],
    'after the source database is deleted the stream emits no data events and is not ended by the server',
    async () => {
      const name = uniqueName('child');
      (await t.admin.query({ create_database: { object: { name } } })).expectStatus(200, 201);
      const key = (await t.admin.query(createKey(name, 'server'))).expectStatus(200, 201);
      const child = t.as(key.resource.secret);
      await createCollections(child, 'Thing');
      const { token } = await createSource(child, 'Thing.all().eventSource()');
      const reader = await child.stream({ token });
      await reader.next();
      (await t.admin.query({ delete: { database: name } })).expectStatus(200);
      (await t.admin.query({ create_database: { object: { name } } })).expectStatus(200, 201);
      // The stream's key was a key of the deleted database: ending with permission_loss is allowed too (DEC-039).
      expect(await quietOrPermissionLoss(reader, QUIET_WINDOW_MS)).toBe(true);
      reader.close();
    },
  );
});
