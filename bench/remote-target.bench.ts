/**
 * Wall time of the conformance suite against a reference server child process (default flags) directly, then behind a
 * delay proxy at a 30 ms and a 100 ms round trip (bench/delay-proxy.ts), each a `fauna-conformance --url` child
 * process choosing its files in flight from the round trip it measures. Issue 30 goals: ≤ 1.5× the direct time at
 * 30 ms, ≤ 3× at 100 ms. Quick mode runs the auth, indexes and paging areas instead of the whole suite.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ROOT_SECRET, type BenchContext, type BenchResult } from './bench-context.js';
import { startDelayProxy } from './delay-proxy.js';

const CLI = fileURLToPath(new URL('../bin/fauna-conformance.js', import.meta.url));
const QUICK_AREAS = 'auth,indexes,paging';
const ROUND_TRIPS = [
  { ms: 30, goal: 1.5 },
  { ms: 100, goal: 3 },
] as const;

interface SuiteRun {
  seconds: number;
  exitCode: number | null;
  tests: number;
  passed: number;
  filesInFlight: number | undefined;
  roundTripMs: number | undefined;
}

async function runSuite(url: string, areas: string | undefined): Promise<SuiteRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'fc-bench-remote-'));
  try {
    const args = [
      CLI,
      '--url',
      url,
      '--secret',
      BENCH_ROOT_SECRET,
      '--seed',
      '1',
      '--report-dir',
      reportDir,
      ...(areas ? ['--area', areas] : []),
    ];
    const started = Date.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, CI: 'true' } }).once('exit', (code) => resolve(code));
    });
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const report = JSON.parse(await readFile(join(reportDir, 'conformance.json'), 'utf8')) as {
      totals: { tests: number; passed: number };
      network?: { filesInFlight: number; roundTripMs?: number };
    };
    return {
      seconds,
      exitCode,
      tests: report.totals.tests,
      passed: report.totals.passed,
      filesInFlight: report.network?.filesInFlight,
      roundTripMs: report.network?.roundTripMs,
    };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

function detail(run: SuiteRun): Record<string, number | string> {
  return {
    exitCode: run.exitCode ?? 'signal',
    tests: run.tests,
    passed: run.passed,
    ...(run.filesInFlight === undefined ? {} : { filesInFlight: run.filesInFlight }),
    ...(run.roundTripMs === undefined ? {} : { measuredRoundTripMs: run.roundTripMs }),
  };
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const areas = ctx.quick ? QUICK_AREAS : undefined;
  const what = areas ? `areas ${areas}` : 'whole suite';
  const server = await ctx.referenceServer();
  const direct = await runSuite(server.url, areas);
  const results: BenchResult[] = [
    { name: `Suite against a server on this machine (${what})`, value: direct.seconds, unit: 's', detail: detail(direct) },
  ];
  for (const { ms, goal } of ROUND_TRIPS) {
    const proxy = await startDelayProxy(server.url, ms / 2);
    try {
      const remote = await runSuite(proxy.url, areas);
      const ratio = Math.round((remote.seconds / direct.seconds) * 100) / 100;
      results.push({
        name: `Suite at a ${ms} ms round trip (${what})`,
        value: remote.seconds,
        unit: 's',
        baseline: direct.seconds,
        ratio,
        goal: `ratio ≤ ${goal}`,
        // The same tests must pass as directly: a faster run that lost tests would not count.
        met: ratio <= goal && remote.exitCode === direct.exitCode && remote.passed === direct.passed,
        detail: detail(remote),
      });
    } finally {
      await proxy.close();
    }
  }
  return results;
}
