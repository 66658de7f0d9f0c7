// The runner against a real server across a network, end to end: the reference server as a child process started
// with default flags, and in front of it a proxy with a seeded paging bug, a proxy that stops answering, or a slow one.
// Each run is `fauna-conformance` as a user runs it, from a foreign directory, with only a URL and a secret.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Semaphore } from 'async-mutex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../schemas/index.js';
import { startDelayProxy, type DelayProxy } from '../../bench/delay-proxy.js';
import { startReferenceServer } from '../../reference-impl/server.js';
import { startServerProcess, type ServerProcess } from '../harness/server-process.js';
import { findFault } from '../selfcheck/faults/catalogue.js';
import { startFaultProxy, type FaultProxy } from '../selfcheck/proxy.js';
import type { ConformanceReport } from '../runner/reporters/report-model.js';
import { runCli, type CliRun } from './run-fixture-suite.js';
import { startStopsAnswering } from './stops-answering.js';

const SECRET = 'network-test-root-secret-0123456789';

type Run = CliRun & { dir: string; report: () => ConformanceReport };

/** Two runs at a time: the machine has two cores shared with the rest of `npm test`. */
const slots = new Semaphore(2);

function suite(url: string, args: readonly string[], timeoutMs = 240_000): Promise<Run> {
  return slots.runExclusive(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fc-network-'));
    const run = await runCli(['--url', url, '--secret', SECRET, '--report-dir', dir, ...args], { timeoutMs });
    return { ...run, dir, report: () => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport };
  });
}

let server: ServerProcess;
let offByOne: FaultProxy;
let dropsLast: FaultProxy;

function faultProxy(id: string): Promise<FaultProxy> {
  return startFaultProxy({ upstream: server.url, hooks: findFault(id)!.apply() });
}

beforeAll(async () => {
  server = await startServerProcess({ rootSecret: SECRET });
  [offByOne, dropsLast] = await Promise.all([faultProxy('PAGE-SIZE-OFF-BY-ONE'), faultProxy('PAGE-DROPS-LAST')]);
}, 60_000);

afterAll(async () => {
  await Promise.all([offByOne?.close(), dropsLast?.close()]);
  await server?.kill();
});

describe('against a real server across a network', { timeout: 900_000 }, () => {
  it('a correct server started with default flags passes the gate by URL and secret alone, listing what needs a target setting', async () => {
    // The whole suite: the bound only catches a hang on a machine shared with the rest of `npm test`.
    const run = await suite(server.url, [], 600_000);
    expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0);
    const report = run.report();
    expect(validate('conformance-report', report).errors).toEqual([]);
    expect(report).toMatchObject({ outcome: 'passed', wholeSuite: true, untestedMust: [], target: { url: server.url, embedded: false } });
    const waiting = Object.fromEntries(report.needsSettings.map((s) => [s.flag, s.requirements]));
    expect(waiting).toEqual({
      '--ops-limit N': ['LIMIT-OPS-001', 'LIMIT-OPS-004'],
      '--max-streams-per-secret N': ['LIMIT-STREAMS-001', 'LIMIT-STREAMS-002'],
      '--min-retention-ms MS': ['EVT-RETAIN-002', 'EVT-RETAIN-005', 'STREAM-CLOSE-005'],
      '--status-interval MS': ['STREAM-STATUS-004'],
    });
    for (const id of ['LIMIT-OPS-001', 'LIMIT-OPS-004', 'LIMIT-STREAMS-001', 'LIMIT-STREAMS-002', 'EVT-RETAIN-002', 'EVT-RETAIN-005']) {
      expect(report.requirements.find((r) => r.id === id)?.status).toBe('needs-setting');
    }
    expect(run.stdout).toContain(
      'LIMIT-STREAMS-001, LIMIT-STREAMS-002: the open event streams one secret may hold: pass --max-streams-per-secret N',
    );
    expect(run.stdout).toMatch(
      /fauna-conformance PASSED: (\d+)\/\1 tests passed \(seed \d+\); \d+ requirement\(s\) need a target setting to be checked \(listed above, not failing\)\n/,
    );
    expect(readFileSync(join(run.dir, 'summary.md'), 'utf8')).toContain('## Requirements that need a target setting');
  });

  it('the settings of a target configured otherwise reach the tests, by flag and by config file, and their requirements pass', async () => {
    const limited = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      rootSecret: SECRET,
      events: { maxStreamsPerSecret: 6, opsLimit: 1_500 },
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'fc-settings-'));
      writeFileSync(join(dir, 'fauna-conformance.config.json'), JSON.stringify({ target: { url: limited.url, opsLimit: 1_500 } }));
      const [byFlag, byConfig] = await Promise.all([
        suite(limited.url, ['--requirement', 'LIMIT-STREAMS-001', '--max-streams-per-secret', '6']),
        suite(limited.url, ['--requirement', 'LIMIT-OPS-001', '--config', join(dir, 'fauna-conformance.config.json')]),
      ]);
      expect(byFlag.code, byFlag.stdout.slice(-2000)).toBe(0);
      expect(byFlag.report().requirements.find((r) => r.id === 'LIMIT-STREAMS-001')?.status).toBe('passed');
      expect(byConfig.code, byConfig.stdout.slice(-2000)).toBe(0);
      expect(byConfig.report().requirements.find((r) => r.id === 'LIMIT-OPS-001')?.status).toBe('passed');
      expect(byConfig.report().needsSettings).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('a target that stops answering after its 20th request ends the whole-suite run within 60 s, exit 1, with that reason and the rest not run', async () => {
    const hostile = await startStopsAnswering(server.url, 20);
    try {
      // The bound covers process start-up on a loaded machine; the run itself is held to 60 s below.
      const run = await suite(hostile.url, [], 120_000);
      expect(run.code, run.stderr).toBe(1);
      const report = run.report();
      expect(validate('conformance-report', report).errors).toEqual([]);
      expect(report.durationMs).toBeLessThan(60_000);
      expect(report.targetLost).toMatch(new RegExp(`^target ${hostile.url} stopped answering: .*no answer`));
      expect(run.stderr.trim().split('\n').at(-1)).toBe(`fauna-conformance: ${report.targetLost}`);
      // The tests after the target went silent are not run, not hundreds of separate timeouts.
      expect(report.totals.notRun).toBeGreaterThan(report.totals.tests - 50);
      expect(report.totals.failed).toBeLessThan(50);
      // Every test file is accounted for: begun (its tests listed) or not started.
      const files = readdirSync(join(import.meta.dirname, '..', 'conformance'), { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.test.ts'),
      );
      expect(new Set(report.tests.map((t) => t.file)).size + report.filesNotStarted!.length).toBe(files.length);
      expect(run.stdout).toContain(`: ${report.targetLost}; ${report.totals.notRun} test(s) not run`);
    } finally {
      await hostile.close();
    }
  });

  describe('known failures stay known', () => {
    let file: string;
    let recorded: Run;
    let again: Run[];
    let fixed: Run;
    let otherBug: Run;

    beforeAll(async () => {
      file = join(mkdtempSync(join(tmpdir(), 'fc-known-')), 'expectations.json');
      recorded = await suite(offByOne.url, ['--area', 'paging', '--expectations', file, '--update-expectations']);
      // Five runs without --seed, each with its own random seed; the fixed server (no proxy) with the fault's run as
      // baseline; and a different paging bug.
      [again, fixed, otherBug] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, () => suite(offByOne.url, ['--area', 'paging', '--expectations', file]))),
        suite(server.url, ['--area', 'paging', '--expectations', file, '--baseline', join(recorded.dir, 'conformance.json')]),
        suite(dropsLast.url, ['--area', 'paging']),
      ]);
    }, 900_000);

    it('--update-expectations records the seeded bug, and five runs without --seed then pass the gate', () => {
      expect(recorded.code, recorded.stdout.slice(-2000)).toBe(0);
      const entries = (JSON.parse(readFileSync(file, 'utf8')) as { expectations: { test: string; signature: { assertion?: string } }[] })
        .expectations;
      expect(entries.length).toBeGreaterThanOrEqual(5);
      // No signature holds a value the server or the run generated.
      for (const e of entries) expect(e.signature.assertion ?? '', e.test).not.toMatch(/\d{10,}|fc_[a-z0-9]+_|after \d+ tests/);
      const seeds = new Set([recorded, ...again].map((r) => r.report().seed));
      expect(seeds.size).toBe(6);
      for (const run of again) {
        expect(run.code, run.stdout.slice(-3000)).toBe(0);
        expect(run.report().totals).toMatchObject({ expectedFailure: entries.length, failed: 0, unexpectedPass: 0 });
      }
    });

    it('once the bug is fixed, the same expectations fail the run naming the unexpected passes, and the baseline diff shows them', () => {
      expect(fixed.code).toBe(1);
      const report = fixed.report();
      const entries = (JSON.parse(readFileSync(file, 'utf8')) as { expectations: { test: string }[] }).expectations;
      expect(report.totals.unexpectedPass).toBe(entries.length);
      for (const e of entries) expect(fixed.stdout).toContain(`✗ ${e.test} [`);
      expect(fixed.stdout).toContain('unexpected pass: remove it from the expectations');
      expect(fixed.stdout).toMatch(/FAILED: .*: \d+ unexpected pass\(es\): remove them from the expectations/);
      expect(report.baseline?.newlyPassing.map((c) => c.test).sort()).toEqual(entries.map((e) => e.test).sort());
      expect(readFileSync(join(fixed.dir, 'summary.md'), 'utf8')).toContain(
        `## Since the baseline (run ${recorded.report().runId}, passed)`,
      );
    });

    it('fauna-conformance diff of real runs: what the fault broke, what the fix mended, and another bug failing another way', async () => {
      const faulty = recorded.dir;
      const broke = await runCli(['diff', fixed.dir, faulty, '--report-dir', mkdtempSync(join(tmpdir(), 'fc-diff-'))]);
      expect(broke.code, broke.stderr).toBe(1);
      const entries = (JSON.parse(readFileSync(file, 'utf8')) as { expectations: { test: string }[] }).expectations;
      expect(broke.stdout).toContain(`${entries.length} newly failing, 0 newly passing, 0 failing another way (a regression).`);

      const out = mkdtempSync(join(tmpdir(), 'fc-diff-'));
      const mended = await runCli(['diff', faulty, fixed.dir, '--report-dir', out]);
      expect(mended.code, mended.stderr).toBe(0);
      const written = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8'));
      expect(written.newlyPassing).toHaveLength(entries.length);
      expect(readFileSync(join(out, 'diff.md'), 'utf8')).toBe(mended.stdout);

      // The other paging bug fails tests the first one fails too, with other signatures.
      const other = await runCli(['diff', faulty, otherBug.dir, '--report-dir', mkdtempSync(join(tmpdir(), 'fc-diff-'))]);
      expect(other.code).toBe(1);
      const both = otherBug.report().tests.filter((t) => t.result === 'failed' && entries.some((e) => e.test === t.id));
      expect(both.length).toBeGreaterThan(0);
      expect(other.stdout).toMatch(/\d+ newly failing, \d+ newly passing, [1-9]\d* failing another way/);
    });
  });

  it('a slow but live target is not cut off: a 400 ms round trip gets more files at once and passes', async () => {
    let slow: DelayProxy | undefined;
    try {
      slow = await startDelayProxy(server.url, 200);
      const run = await suite(slow.url, ['--area', 'paging', '--test', '^Size ']);
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
      const report = run.report();
      expect(report.targetLost).toBeUndefined();
      expect(report.totals.passed).toBeGreaterThan(0);
      expect(report.network?.roundTripMs).toBeGreaterThanOrEqual(400);
      expect(report.network?.filesInFlight).toBeGreaterThan(4);
    } finally {
      await slow?.close();
    }
  });
});
