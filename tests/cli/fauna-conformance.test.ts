import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../schemas/index.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'fauna-conformance.js');

function run(args: string[], timeoutMs = 90_000): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    // From a foreign working directory, with the target only from flags.
    const env = { ...process.env };
    delete env.FAUNA_CONFORMANCE_URL;
    delete env.FAUNA_CONFORMANCE_SECRET;
    delete env.VITEST;
    execFile(process.execPath, [BIN, ...args], { cwd: tmpdir(), env, timeout: timeoutMs }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

describe('fauna-conformance usage errors', () => {
  it('exits 2 within seconds, with a one-line reason, when nothing listens on the target port', async () => {
    const port = await freePort();
    const r = await run(['--url', `http://127.0.0.1:${port}`, '--secret', 'some-admin-secret']);
    expect(r.code).toBe(2);
    // Without the reachability check every test would wait for its own connection failure; a spawn on a loaded
    // 2-core machine alone can take several seconds, hence the margin.
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stderr.trim()).toMatch(/^fauna-conformance: target http:\/\/127\.0\.0\.1:\d+ is unreachable: connection refused/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on an unknown option, an unknown area, or a URL without a secret', async () => {
    const cases = [['--bogus'], ['--area', 'nope'], ['--url', 'http://127.0.0.1:1'], ['--timeout', 'soon']];
    const results = await Promise.all(cases.map((args) => run(args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]!.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^fauna-conformance: /);
    });
  });

  it('exits 2 on --files without --requirement or --test (a run of some files would be judged as the whole suite)', async () => {
    const r = await run(['--files', 'tests/conformance/core/keys.test.ts']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('fauna-conformance: --files narrows a --requirement or --test run; give one of them too');
  });
});

describe('fauna-conformance against a server that accepts connections and never answers', () => {
  let hostile: net.Server;
  const sockets = new Set<net.Socket>();
  let url: string;

  beforeAll(async () => {
    hostile = net.createServer((sock) => {
      sockets.add(sock);
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => hostile.close(r));
  });

  it('ends the run as a lost target (exit 1, one reason), reports the rest not run, and writes valid reports without the secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fc-report-'));
    const secret = 'hostile-run-admin-secret';
    // Every request gives up after 300 ms: a few go unanswered, /ping is not answered either, and the run ends with
    // every test it could not run reported not run. The bound only catches a hang on a loaded machine.
    const r = await run(
      ['--url', url, '--secret', secret, '--timeout', '300', '--stream-timeout', '300', '--area', 'core', '--report-dir', dir],
      200_000,
    );
    expect(r.code, r.stderr).toBe(1);

    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(validate('conformance-report', report).errors).toEqual([]);
    expect(report.outcome).toBe('failed');
    expect(report.target).toEqual({ url, embedded: false });
    expect(report.targetLost).toMatch(new RegExp(`^target ${url} stopped answering: .*(no answer|within 300 ms)`));
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`fauna-conformance: ${report.targetLost}`);
    expect(report.totals.tests).toBeGreaterThan(0);
    expect(report.totals.passed).toBe(0);
    expect(report.totals.notRun).toBeGreaterThan(report.totals.tests / 2);
    // Every file of the area is accounted for: begun (its tests failed or not run) or not started.
    const begun = new Set(report.tests.map((t: { file: string }) => t.file));
    expect(begun.size + report.filesNotStarted.length).toBe(
      readdirSync(join(import.meta.dirname, '..', 'conformance', 'core'), { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.test.ts'),
      ).length,
    );
    for (const t of report.tests) expect(['failed', 'not-run']).toContain(t.status);

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<property name="requirement" value="${report.tests[0].requirements[0]}">`);
    expect(junit.trimEnd()).toMatch(/<\/testsuites>$/);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^# fauna-conformance: FAILED/);

    for (const file of ['conformance.json', 'junit.xml', 'summary.md', 'report.html']) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toContain(secret);
    }
  }, 240_000);
});
