// Runs the suite against every selected fault (through the fault proxy) and every selected hostile server, and
// judges the result: a fault is caught when a test that passes without it fails with it; a hostile server is
// survived when the run ends within its bound, exits 1, and its failed tests say why.
import { AREAS, type Area, type Fault } from './fault.js';
import { HOSTILE_SERVERS, type HostileServer } from './hostile/catalogue.js';
import { startFaultProxy } from './proxy.js';
import type { RunningReferenceServer } from './reference-server.js';
import type { FaultResult, HostileResult, SelfcheckReport } from './selfcheck-report.js';
import { describeTest, failedTests, newlyFailed, runSuiteProcess, type SuiteRun } from './suite-process.js';

export interface SelfcheckOptions {
  reference: RunningReferenceServer;
  faults: readonly Fault[];
  hostile: readonly HostileServer[];
  /** Each fault against its own area only (otherwise against every area). */
  fast: boolean;
  /** Faults run at the same time (each with its own proxy and suite process). */
  jobs: number;
  /** Upper bound of one suite run against a fault before it counts as hung. */
  faultBoundMs?: number;
  /** Deadlines handed to the suite for hostile servers, and the bound its run must finish within. */
  hostileRequestTimeoutMs?: number;
  hostileStreamTimeoutMs?: number;
  hostileBoundMs?: number;
  log?: (line: string) => void;
}

const DEFAULT_FAULT_BOUND_MS = 300_000;
const DEFAULT_HOSTILE_TIMEOUT_MS = 2_000;
const DEFAULT_HOSTILE_BOUND_MS = 180_000;

async function inParallel<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}

function areasFor(fault: Fault, fast: boolean): Area[] {
  return fast ? [fault.area] : [...AREAS];
}

async function runThroughProxy(reference: RunningReferenceServer, fault: Fault | undefined, areas: readonly Area[], boundMs: number): Promise<{ run: SuiteRun; applied: number }> {
  const proxy = await startFaultProxy({ upstream: reference.url, hooks: fault?.apply() });
  try {
    const run = await runSuiteProcess({ url: proxy.url, secret: reference.rootSecret, areas, boundMs });
    return { run, applied: proxy.applied };
  } finally {
    await proxy.close();
  }
}

function judgeFault(fault: Fault, areas: Area[], run: SuiteRun, applied: number, baseline: SuiteRun | undefined): FaultResult {
  const caughtBy = newlyFailed(run, baseline).map((test) => ({ test: describeTest(test), requirements: test.requirements, error: test.error?.slice(0, 300) }));
  let problem: string | undefined;
  if (run.hung) problem = 'the suite run hung and was killed';
  else if (run.tests === undefined) problem = `the suite wrote no conformance.json (exit ${run.exitCode}): ${run.stderrTail}`;
  else if (caughtBy.length === 0 && applied === 0) problem = 'no test exercised what the fault changes (it never fired): a missing test';
  else if (caughtBy.length === 0) problem = `the fault fired ${applied} time(s) and no test noticed: a missing test`;
  return {
    id: fault.id,
    title: fault.title,
    area: fault.area,
    breaks: fault.breaks,
    areasRun: areas,
    caught: caughtBy.length > 0 && !run.hung,
    caughtBy,
    caughtByRequirements: [...new Set(caughtBy.flatMap((c) => c.requirements))].sort(),
    applied,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    ...(problem === undefined ? {} : { problem }),
  };
}

function judgeHostile(server: HostileServer, run: SuiteRun, boundMs: number): HostileResult {
  const failed = failedTests(run);
  const unclear = failed.filter((test) => (test.error ?? '').trim() === '').map(describeTest);
  const matching = failed.find((test) => server.reason.test(test.error ?? ''));
  let problem: string | undefined;
  if (run.hung) problem = `the run did not finish within ${boundMs} ms and was killed`;
  else if (run.exitCode !== 1) problem = `exit ${run.exitCode} (expected 1): ${run.stderrTail}`;
  else if (run.tests === undefined) problem = `no conformance.json was written: ${run.stderrTail}`;
  else if (failed.length === 0) problem = 'no test failed';
  else if (unclear.length > 0) problem = `${unclear.length} failed test(s) without a reason`;
  else if (matching === undefined) problem = `no failure reason matches ${server.reason}`;
  return {
    id: server.id,
    title: server.title,
    area: server.area,
    survived: problem === undefined,
    exitCode: run.exitCode,
    hung: run.hung,
    durationMs: run.durationMs,
    boundMs,
    failedTests: failed.length,
    unclearFailures: unclear,
    ...(matching?.error === undefined ? {} : { sampleReason: matching.error.split('\n')[0]!.slice(0, 200) }),
    ...(problem === undefined ? {} : { problem }),
  };
}

export async function runSelfcheck(options: SelfcheckOptions): Promise<SelfcheckReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const faultBound = options.faultBoundMs ?? DEFAULT_FAULT_BOUND_MS;

  // Baseline: the same areas through a proxy that changes nothing, so pre-existing failures catch nothing.
  const baselineKeys = new Set(options.faults.map((fault) => areasFor(fault, options.fast).join(',')));
  const baselines = new Map<string, SuiteRun>();
  for (const key of baselineKeys) {
    const { run } = await runThroughProxy(options.reference, undefined, key.split(',') as Area[], faultBound);
    baselines.set(key, run);
    log(`baseline [${key}]: exit ${run.exitCode}, ${failedTests(run).length} failed of ${run.tests?.length ?? 0}`);
  }

  const faults = await inParallel(options.faults, options.jobs, async (fault) => {
    const areas = areasFor(fault, options.fast);
    const { run, applied } = await runThroughProxy(options.reference, fault, areas, faultBound);
    const result = judgeFault(fault, areas, run, applied, baselines.get(areas.join(',')));
    log(`${result.caught ? 'caught  ' : 'MISSED  '} ${fault.id} (${fault.area}) applied=${applied}${result.caught ? ` by ${result.caughtBy.length} test(s)` : `: ${result.problem}`}`);
    return result;
  });

  const hostileBound = options.hostileBoundMs ?? DEFAULT_HOSTILE_BOUND_MS;
  const hostile: HostileResult[] = [];
  for (const server of options.hostile) {
    const running = await server.start(options.reference.url);
    try {
      const run = await runSuiteProcess({
        url: running.url,
        secret: options.reference.rootSecret,
        areas: [server.area],
        requestTimeoutMs: options.hostileRequestTimeoutMs ?? DEFAULT_HOSTILE_TIMEOUT_MS,
        streamTimeoutMs: options.hostileStreamTimeoutMs ?? DEFAULT_HOSTILE_TIMEOUT_MS,
        boundMs: hostileBound,
      });
      const result = judgeHostile(server, run, hostileBound);
      log(`${result.survived ? 'survived' : 'BROKEN  '} ${server.id} (${server.area}) exit=${run.exitCode} ${Math.round(run.durationMs / 1000)}s${result.problem ? `: ${result.problem}` : ''}`);
      hostile.push(result);
    } finally {
      await running.close();
    }
  }

  const baselineFailures: Record<string, string[]> = {};
  for (const [key, run] of baselines) baselineFailures[key] = failedTests(run).map(describeTest);
  const caught = faults.filter((fault) => fault.caught).length;
  const survived = hostile.filter((result) => result.survived).length;
  return {
    mode: options.fast ? 'fast' : 'full',
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    baselineFailures,
    faults,
    hostile,
    totals: { faults: faults.length, caught, hostile: hostile.length, survived },
    outcome: caught === faults.length && survived === hostile.length ? 'passed' : 'failed',
  };
}

export { HOSTILE_SERVERS };
