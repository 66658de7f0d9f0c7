// LIMIT-STREAMS-*: the open streams one secret may hold (DEC-043). The limit is a server setting the suite is told
// (event-settings.ts); each test uses keys of its own, so no other test's streams count against them.
import { describe } from 'vitest';
import { check, type Client, type Response, type StreamReader, StreamRejectedError, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections, createKey } from '../../harness/v4.js';
import { requireEventSetting } from '../../harness/event-settings.js';
import { createSource } from './event-fixtures.js';

/** How long a closed stream may take to be noticed by the server before its place is free again. */
const RELEASE_DEADLINE_MS = 5_000;

async function openOrRejection(client: Client, token: string): Promise<StreamReader | Response> {
  try {
    const reader = await client.stream({ token });
    // Open means the first event arrived, not only the headers.
    await reader.next();
    return reader;
  } catch (error) {
    if (error instanceof StreamRejectedError) return error.response;
    throw error;
  }
}

function expectRefused(outcome: StreamReader | Response, what: string): void {
  if (!('expectErrorCode' in outcome)) {
    outcome.close();
    throw new Error(`${what}: the stream opened (200), expected 429 limit_exceeded`);
  }
  outcome.expectStatus(429).expectErrorCode('limit_exceeded');
}

function expectOpened(outcome: StreamReader | Response, what: string): StreamReader {
  if ('expectErrorCode' in outcome) throw new Error(outcome.explain(`${what}: expected the stream to open`));
  return outcome;
}

describe('Open streams per secret', () => {
  const t = useTenant({ roles: ['admin', 'server'] });
  const open: StreamReader[] = [];

  async function freshKey(): Promise<Client> {
    const res = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(201);
    return t.as(String(res.resource.secret));
  }

  async function sourceToken(): Promise<string> {
    const name = uniqueName('Limited');
    await createCollections(t.server, name);
    return (await createSource(t.server, `${name}.all().eventSource()`)).token;
  }

  /** Opens `count` streams with `client`, each one confirmed by its first event. */
  async function fill(client: Client, token: string, count: number): Promise<StreamReader[]> {
    const readers: StreamReader[] = [];
    for (let i = 0; i < count; i++) readers.push(expectOpened(await openOrRejection(client, token), `stream ${i + 1} of ${count}`));
    open.push(...readers);
    return readers;
  }

  async function closeAll(): Promise<void> {
    for (const reader of open.splice(0)) reader.close();
  }

  check(
    ['LIMIT-STREAMS-001'],
    'at the configured number of open streams, one more stream request with the same secret answers 429 limit_exceeded and opens no stream',
    async (context) => {
      const limit = requireEventSetting(context, 'maxStreamsPerSecret');
      const token = await sourceToken();
      const key = await freshKey();
      try {
        await fill(key, token, limit);
        expectRefused(await openOrRejection(key, token), `stream ${limit + 1} with the same secret`);
        expectRefused(await openOrRejection(key, token), `stream ${limit + 1} with the same secret, asked again`);
      } finally {
        await closeAll();
      }
    },
    { timeout: 60_000 },
  );

  check(
    ['LIMIT-STREAMS-002'],
    'the limit counts the open streams of one secret: another secret still opens streams, and a closed stream gives its place back',
    async (context) => {
      const limit = requireEventSetting(context, 'maxStreamsPerSecret');
      const token = await sourceToken();
      const key = await freshKey();
      const other = await freshKey();
      try {
        const readers = await fill(key, token, limit);
        expectRefused(await openOrRejection(key, token), 'one stream past the limit');
        await fill(other, token, 1);
        readers[0]!.close();
        // The server learns of the close asynchronously: ask again until the place is free, within a deadline.
        const deadline = Date.now() + RELEASE_DEADLINE_MS;
        let reopened: StreamReader | Response = await openOrRejection(key, token);
        while ('expectErrorCode' in reopened && Date.now() < deadline) reopened = await openOrRejection(key, token);
        open.push(expectOpened(reopened, `a stream after closing one of ${limit} (within ${RELEASE_DEADLINE_MS} ms)`));
        // The refused requests took no place: the secret is exactly at its limit again.
        expectRefused(await openOrRejection(key, token), 'one stream past the limit after reopening');
      } finally {
        await closeAll();
      }
    },
    { timeout: 60_000 },
  );
});
