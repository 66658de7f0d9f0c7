/**
 * Event sources across a crash: a token and a feed cursor issued before a SIGKILL stay valid on a server
 * restarted on the same `--data-dir` (both are signed with a key derived from the persisted server key), and
 * the feed continues from the cursor with exactly the events committed after it — the ones written before the
 * kill, then the ones written after the restart — with no gap and no repeat.
 */
import { describe, expect, it } from 'vitest';
import { postJson, useDataDirServer, type JsonAnswer } from './crashed-server.js';
import type { ServerProcess } from '../harness/server-process.js';

const ROOT = 'durability-events-root-secret-0123456789';

const data = useDataDirServer('fc-durability-events-', ROOT);
let server: ServerProcess;

function post(url: string, path: string, body: unknown, headers: Record<string, string>): Promise<JsonAnswer> {
  return postJson(`${url}${path}`, body, headers, ROOT);
}

/** One v4 transaction creating documents with the given `n`s; asserts that it committed. */
async function createItems(url: string, ns: number[]): Promise<void> {
  const exprs = ns.map((n) => ({ create: { collection: 'items' }, params: { object: { data: { object: { n } } } } }));
  const answer = await post(url, '/', exprs, { 'x-faunadb-api-version': '4' });
  expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
}

/** What the test reads of a feed event: its type and its document's `n` (tagged when the format is). */
interface ItemEvent {
  type: string;
  data: { '@doc': { n: { '@int'?: string } } };
}

async function feed(url: string, body: Record<string, unknown>): Promise<{ events: ItemEvent[]; cursor: string; has_next: boolean }> {
  const answer = await post(url, '/feed/1', body, { 'x-format': 'tagged' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Every event after `cursor`, page by page; answers the `n` of each and the last cursor. */
async function feedFrom(url: string, token: string, cursor: string): Promise<{ ns: number[]; cursor: string }> {
  const ns: number[] = [];
  let page = await feed(url, { token, cursor, page_size: 2 });
  for (let i = 0; ; i++) {
    for (const event of page.events) {
      expect(event.type, JSON.stringify(event)).toBe('add');
      ns.push(Number(event.data['@doc'].n['@int'] ?? event.data['@doc'].n));
    }
    if (!page.has_next) return { ns, cursor: page.cursor };
    expect(i, 'the feed ends').toBeLessThan(50);
    page = await feed(url, { token, cursor: page.cursor, page_size: 2 });
  }
}

describe('event sources survive SIGKILL with --data-dir', () => {
  it('a feed cursor from before the kill continues after the restart without gaps', async () => {
    server = await data.start();
    const before = server.url;
    expect((await post(before, '/', { create_collection: { object: { name: 'items' } } }, { 'x-faunadb-api-version': '4' })).status).toBe(
      201,
    );
    const source = await post(before, '/query/1', { query: 'items.all().eventSource()' }, { 'x-format': 'tagged' });
    expect(source.status, JSON.stringify(source.body)).toBe(200);
    const token = source.body.data['@stream'] as string;
    await createItems(before, [1, 2]);
    await createItems(before, [3]);
    const first = await feed(before, { token });
    expect(first.events.map((e) => e.type)).toEqual(['add', 'add', 'add']);
    // Committed and acknowledged after the cursor, before the kill.
    await createItems(before, [4, 5]);
    await createItems(before, [6]);
    await server.kill('SIGKILL');

    server = await data.start();
    const after = server.url;
    await createItems(after, [7]);
    const resumed = await feedFrom(after, token, first.cursor);
    expect(resumed.ns.sort((a, b) => a - b)).toEqual([4, 5, 6, 7]);
    // The cursor the restarted server issued goes on where it stopped.
    await createItems(after, [8]);
    expect((await feedFrom(after, token, resumed.cursor)).ns).toEqual([8]);
  });
});
