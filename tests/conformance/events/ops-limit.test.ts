// LIMIT-OPS-001: the account operations limit (DEC-016). This file has a tenant (one account) of its own, since
// exceeding the limit ends every stream of the account. Needs the target's declared limit (event-settings.ts).
import { describe, expect } from 'vitest';
import { check, type StreamReader, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections } from '../../harness/v4.js';
import { requireEventSetting } from '../../harness/event-settings.js';
import { addDoc, createSource, nextData, showEvent, numbered, addDocs } from './event-fixtures.js';

async function expectEnded(reader: StreamReader): Promise<void> {
  const err = await reader.next({ timeoutMs: 3_000 }).then(
    (e) => new Error(`another event followed: ${showEvent(e)}`),
    (e: Error) => e,
  );
  expect(err.name, err.message).toBe('StreamEndedError');
}

describe('Account operations limit', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  check(
    ['LIMIT-OPS-001'],
    'exceeding the configured account operations limit sends an error event and closes every open stream of the account',
    async (context) => {
      const limit = requireEventSetting(context, 'opsLimit');
      const busy = uniqueName('Busy');
      const quiet = uniqueName('Quiet');
      await createCollections(t.server, busy);
      await createCollections(t.server, quiet);
      const reader = await t.server.stream({ token: (await createSource(t.server, `${busy}.all().eventSource()`)).token });
      // A stream of the same account that consumes almost nothing itself.
      const bystander = await t.server.stream({ token: (await createSource(t.server, `${quiet}.all().eventSource()`)).token });
      try {
        await reader.next();
        await bystander.next();
        let written = 0;
        let error: { type: string } | undefined;
        // Every data event costs at least one operation (LIMIT-OPS-002), so `limit + 1` events must exceed it.
        while (error === undefined && written <= limit) {
          await addDocs(t.server, busy, numbered(100));
          written += 100;
          for (let i = 0; i < 100 && error === undefined; i++) {
            const event = await nextData(reader);
            if (event.type === 'error') error = event;
          }
        }
        expect(error?.type, 'the busy stream got an error event').toBe('error');
        await expectEnded(reader);
        // The limit is the account's, not the stream's: one more write ends the bystander too.
        await addDoc(t.server, quiet, { last: true });
        const next = await nextData(bystander);
        expect(next.type, `the bystander got ${showEvent(next)}`).toBe('error');
        await expectEnded(bystander);
      } finally {
        reader.close();
        bystander.close();
      }
    },
    { timeout: 120_000 },
  );
});
