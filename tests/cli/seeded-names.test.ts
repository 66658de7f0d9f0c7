// --seed fixes the names the suite creates things under: the paging area run twice with one seed and once with
// another through the CLI, each run behind its own recording proxy in front of one reference server, and the names of
// the databases, collections and indexes the server was asked to create compared.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../reference-impl/server.js';
import { runCli, type CliRun } from './run-fixture-suite.js';

const SECRET = 'seeded-names-root-secret-0123456789';

/** Forwards every request to `upstream` and keeps the body of each `POST /`, the v4 endpoint. */
async function recordingProxy(upstream: string): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/') bodies.push(body.toString('utf8'));
      const forwarded = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `create_database:<name>`, … for every create form of these request bodies, the tenant's run ID replaced by `<run>`. */
function createdNames(bodies: readonly string[]): string[] {
  const names: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, field] of Object.entries(value)) {
        const name = (field as { object?: { name?: unknown } } | null)?.object?.name;
        if (/^create_(database|collection|index)$/.test(key) && typeof name === 'string')
          names.push(`${key}:${name.replace(/^fc_[a-z0-9]+_/, 'fc_<run>_')}`);
        walk(field);
      }
    }
  };
  for (const body of bodies) walk(JSON.parse(body));
  return names.sort();
}

let server: RunningReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ port: 0, rootSecret: SECRET });
});

afterAll(async () => {
  await server?.close();
});

describe('--seed', { timeout: 300_000 }, () => {
  async function pagingRun(seed: number): Promise<{ run: CliRun; names: string[] }> {
    const proxy = await recordingProxy(server.url);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'fc-seeded-names-'));
      const run = await runCli(
        ['--url', proxy.url, '--secret', SECRET, '--seed', String(seed), '--area', 'paging', '--allow-untested', '--report-dir', dir],
        { timeoutMs: 240_000 },
      );
      return { run, names: createdNames(proxy.bodies) };
    } finally {
      await proxy.close();
    }
  }

  it('two runs with the same seed create databases, collections and indexes of the same names; another seed changes them', async () => {
    const [first, again, other] = await Promise.all([pagingRun(11), pagingRun(11), pagingRun(12)]);
    for (const { run } of [first, again, other]) expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0);
    expect(first.names.filter((n) => n.startsWith('create_database:fc_<run>_paging'))).toHaveLength(2);
    expect(first.names.filter((n) => /^create_(collection|index):\w+_[0-9a-f]{8}$/.test(n)).length).toBeGreaterThan(20);
    expect(again.names).toEqual(first.names);
    const changed = other.names.filter((n) => !first.names.includes(n));
    expect(changed.length, 'generated names another seed changes').toBeGreaterThan(20);
  });
});
