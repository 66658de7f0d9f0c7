/**
 * Crash recovery of `--data-dir`: the server runs as a child process, many clients write transactions of two
 * documents each, the server is SIGKILLed mid-load, and a restarted server on the same directory must hold
 * every acknowledged transaction completely and no unacknowledged one in part. Keys, databases and their
 * documents survive too, and a torn final log record is dropped while the rest loads.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postJson, useDataDirServer, type JsonAnswer } from './crashed-server.js';
import type { ServerProcess } from '../harness/server-process.js';

const ROOT = 'durability-root-secret-0123456789';
const WRITERS = 24;

const data = useDataDirServer('fc-durability-', ROOT);
let server: ServerProcess;

function query(url: string, expr: unknown, secret = ROOT): Promise<JsonAnswer> {
  return postJson(url, expr, { 'x-faunadb-api-version': '4' }, secret);
}

const ref = (collection: string, id: string) => ({ ref: { collection }, id });
const createPair = (n: number) => ({
  do: [
    { create: ref('items', String(2 * n)), params: { object: { data: { object: { pair: n, half: 'a' } } } } },
    { create: ref('items', String(2 * n + 1)), params: { object: { data: { object: { pair: n, half: 'b' } } } } },
  ],
});

/** Which documents of `ids` exist, asked in batches (one request evaluates an array of `exists`). */
async function existing(url: string, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const answer = await query(
      url,
      batch.map((id) => ({ exists: ref('items', String(id)) })),
    );
    expect(answer.status).toBe(200);
    (answer.body.resource as boolean[]).forEach((present, j) => {
      if (present) found.add(batch[j]!);
    });
  }
  return found;
}

describe('--data-dir survives SIGKILL', () => {
  it('keeps every acknowledged transaction whole, no unacknowledged one in part, and schema records', async () => {
    server = await data.start();
    const before = server.url;
    expect((await query(before, { create_collection: { object: { name: 'items' } } })).status).toBe(201);
    expect((await query(before, { create_database: { object: { name: 'child' } } })).status).toBe(201);
    const key = await query(before, { create_key: { object: { role: 'server' } } });
    expect(key.status).toBe(201);
    const keySecret = key.body.resource.secret as string;
    const childKey = await query(before, { create_key: { object: { role: 'admin', database: { database: 'child' } } } });
    expect(childKey.status).toBe(201);
    expect((await query(before, { create_collection: { object: { name: 'inner' } } }, childKey.body.resource.secret)).status).toBe(201);

    const acknowledged = new Set<number>();
    const attempted = new Set<number>();
    let next = 0;
    let killed: Promise<void> | undefined;
    const running = server;
    // SIGKILL is sent from the very callback that sees the 300th acknowledgement, while the other writers'
    // requests are in flight: an acknowledgement sent before its commit reached the log would be lost. Each writer
    // keeps writing until its request fails, so the kill always cuts some write off, however quickly the server
    // answers the ones in flight before the signal lands.
    const writer = async () => {
      for (;;) {
        const n = next++;
        attempted.add(n);
        try {
          const answer = await query(before, createPair(n));
          if (answer.status !== 201) throw new Error(`write ${n} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          acknowledged.add(n);
          if (acknowledged.size >= 300) killed ??= running.kill('SIGKILL');
        } catch (error) {
          if (!killed) throw error;
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, () => writer()));
    await killed;

    server = await data.start();
    const after = server.url;
    const ids = [...attempted].flatMap((n) => [2 * n, 2 * n + 1]);
    const present = await existing(after, ids);
    for (const n of acknowledged) {
      expect(present.has(2 * n) && present.has(2 * n + 1), `acknowledged pair ${n}`).toBe(true);
    }
    for (const n of attempted) {
      expect(present.has(2 * n), `pair ${n} half present`).toBe(present.has(2 * n + 1));
    }
    const sample = await query(after, { get: ref('items', String(2 * [...acknowledged][0]! + 1)) });
    expect(sample.body.resource.data).toEqual({ pair: [...acknowledged][0], half: 'b' });

    // Keys, databases and a child database's schema came back, and a key secret still authenticates.
    expect((await query(after, { exists: ref('items', '0') }, keySecret)).status).toBe(200);
    expect((await query(after, { exists: { collection: 'inner' } }, childKey.body.resource.secret)).body.resource).toBe(true);
    // New writes after recovery get fresh ids and later timestamps than anything recovered.
    const fresh = await query(after, { create: { collection: 'items' }, params: { object: { data: { object: { late: true } } } } });
    expect(fresh.status).toBe(201);
    expect(BigInt(fresh.body.resource.ts)).toBeGreaterThan(BigInt(sample.body.resource.ts));
    await server.kill('SIGKILL');
  }, 60_000);

  it('drops a torn final record and keeps appending after the intact ones', async () => {
    // A frame header promising 1000 bytes followed by only 3: what a crash during a write leaves behind.
    await appendFile(join(data.dir, 'commit.log'), Buffer.from([0, 0, 3, 232, 1, 2, 3, 4, 9, 9, 9]));
    server = await data.start();
    expect(server.stderr()).toMatch(/dropped a torn final commit-log record \(11 bytes\)/);
    const created = await query(server.url, {
      create: ref('items', '999999999'),
      params: { object: { data: { object: { after: 'torn' } } } },
    });
    expect(created.status).toBe(201);
    await server.kill('SIGKILL');
    server = await data.start();
    expect(server.stderr()).not.toMatch(/dropped/);
    expect((await query(server.url, { get: ref('items', '999999999') })).body.resource.data).toEqual({ after: 'torn' });
    expect((await query(server.url, { exists: ref('items', '1') })).body.resource).toBe(true);
    await server.kill('SIGTERM');
  }, 60_000);
});
