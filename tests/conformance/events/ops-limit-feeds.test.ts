// LIMIT-OPS-004: feed polls past the account operations limit (DEC-016). A tenant (one account) of its own, since the
// limit, once passed, refuses every poll of the account. Needs the target's declared limit (event-settings.ts).
import { describe, expect } from 'vitest';
import { check, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections } from '../../harness/v4.js';
import { requireEventSetting } from '../../harness/event-settings.js';
import { createSource, showEvent, numbered, addDocs } from './event-fixtures.js';

const PAGE_SIZE = 100;

describe('Account operations limit, feeds', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  /**
   * How a poll answer refuses: 429 limit_exceeded, or a 200 page ending with an error event (`error page`); `served`
   * when it is neither, a page of events.
   */
  function refusal(res: Awaited<ReturnType<typeof t.server.feed>>): '429' | 'error page' | 'served' {
    expect(res.status, 'a poll past the limit is never a server error').toBeLessThan(500);
    if (res.status !== 200) {
      res.expectStatus(429).expectErrorCode('limit_exceeded');
      return '429';
    }
    return res.body.events.at(-1)?.type === 'error' ? 'error page' : 'served';
  }

  check(
    ['LIMIT-OPS-004'],
    'past the configured account operations limit a feed poll answers 429 limit_exceeded (or a page ending with an error event), and so do later polls',
    async (context) => {
      const limit = requireEventSetting(context, 'opsLimit');
      const coll = uniqueName('Polled');
      await createCollections(t.server, coll);
      const { token } = await createSource(t.server, `${coll}.all().eventSource()`);
      let cursor: string | undefined;
      let served = 0;
      let refused: ReturnType<typeof refusal> = 'served';
      // Every event costs at least one operation (LIMIT-OPS-002), so the account passes the limit before the feed has
      // served `limit` events; the poll that passes it may still answer events before its error event.
      while (refused === 'served') {
        expect(served, `${served} events served, past the limit of ${limit} operations`).toBeLessThanOrEqual(limit + PAGE_SIZE);
        await addDocs(t.server, coll, numbered(PAGE_SIZE));
        const res = await t.server.feed({ token, page_size: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
        refused = refusal(res);
        if (refused === 'served') {
          served += res.body.events.length;
          cursor = res.body.cursor;
        }
      }
      // The account stays past its limit: a later poll, from the last cursor, is refused the same way and serves no
      // events, so a refusal by error event is a page holding that error event alone.
      const again = await t.server.feed({ token, page_size: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
      expect(refusal(again), `a later poll: ${again.status} ${showEvent(again.body)}`).toBe(refused);
      if (refused === 'error page')
        expect(
          again.body.events.map((e: { type: string }) => e.type),
          `a later poll serves no events: ${showEvent(again.body)}`,
        ).toEqual(['error']);
    },
    { timeout: 120_000 },
  );
});
