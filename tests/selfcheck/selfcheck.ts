// Runs the suite against every selected fault (through the fault proxy) and every selected hostile server, and
// judges the result: a fault is caught when a test that passes without it fails with it; a hostile server is
// survived when the run ends within its bound, exits 1, and its failed tests say why.
import { AREAS, type Area, type Fault } from './fault.js';
import { HOSTILE_SERVERS, type HostileServer } from './hostile/catalogue.js';
import { startFaultProxy } from './proxy.js';
import type { RunningReferenceServer } from './reference-server.js';
import { totalsByArea, type FaultResult, type HostileResult, type SelfcheckReport } from './selfcheck-report.js';
import { describeTest, failedTests, newlyFailed, runSuiteProcess, type SuiteRun } from './suite-process.js';

export interface SelfcheckOptions {
  reference: RunningReferenceServer;
  faults: readonly Fault[];
  hostile: readonly HostileServer[];
  /** Each fault against its own area only (otherwise against every area). */
  fast: boolean;
  /** Narrows each fault's run (and its baseline) to some tests; undefined runs every test of the areas. */
  scopeFor?: (fault: Fault) => SuiteScope | undefined;
  /** Faults run at the same time (each with its own proxy and suite process). */
  jobs: number;
  /** Upper bound of one suite run against a fault before it counts as hung. */
  faultBoundMs?: number;
  /** Deadlines handed to the suite for hostile servers, and the bound its run must finish within. */
  hostileRequestTimeoutMs?: number;
  hostileStreamTimeoutMs?: number;
  hostileBoundMs?: number;
  /** Narrows every hostile-server run to some tests; undefined runs every test of the server's area. */
  hostileScope?: SuiteScope;
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

/** A subset of a run's tests: those tagged with one requirement, those whose name matches a pattern, or both. */
export interface SuiteScope {
  requirement?: string;
  testPattern?: string;
}

/** Each fault against only the tests of the first requirement it breaks (`--narrow`). */
export const firstBrokenRequirement = (fault: Fault): SuiteScope => ({ requirement: fault.breaks[0]! });

export interface RunPlan {
  areas: Area[];
  scope: SuiteScope | undefined;
  /** Runs with the same key share a baseline. */
  key: string;
}

function planFor(fault: Fault, options: SelfcheckOptions): RunPlan {
  const areas = options.fast ? [fault.area] : [...AREAS];
  const scope = options.scopeFor?.(fault);
  return { areas, scope, key: JSON.stringify([areas, scope?.requirement ?? null, scope?.testPattern ?? null]) };
}

/**
 * Above this many requirement-scoped plans over the same tests, one baseline of all those tests serves them all: a
 * suite process costs seconds to start whatever it runs, so hundreds of one-requirement baselines (`--narrow` over the
 * catalogue) take longer than one run of the whole suite. A test's verdict is the same in either run.
 */
const SHARED_BASELINE_FROM = 40;

/** The plan whose run is `plan`'s baseline: itself, or the same tests without the requirement when many plans share them. */
export function baselinePlans(plans: readonly RunPlan[]): Map<string, RunPlan> {
  const unscoped = (plan: RunPlan): RunPlan => {
    const scope = plan.scope?.testPattern === undefined ? undefined : { testPattern: plan.scope.testPattern };
    return { areas: plan.areas, scope, key: JSON.stringify([plan.areas, null, scope?.testPattern ?? null]) };
  };
  const scoped = plans.filter((plan) => plan.scope?.requirement !== undefined).map((plan) => [plan, unscoped(plan)] as const);
  const sharing = new Map<string, number>();
  for (const [, shared] of scoped) sharing.set(shared.key, (sharing.get(shared.key) ?? 0) + 1);
  const baselines = new Map(plans.map((plan) => [plan.key, plan]));
  for (const [plan, shared] of scoped) if (sharing.get(shared.key)! > SHARED_BASELINE_FROM) baselines.set(plan.key, shared);
  return baselines;
}

function describePlan(plan: RunPlan): string {
  return [plan.areas.join(','), plan.scope?.requirement, plan.scope?.testPattern === undefined ? undefined : `/${plan.scope.testPattern}/`]
    .filter(Boolean)
    .join(' ');
}

async function runThroughProxy(
  reference: RunningReferenceServer,
  fault: Fault | undefined,
  plan: RunPlan,
  boundMs: number,
  files?: readonly string[],
): Promise<{ run: SuiteRun; applied: number }> {
  const proxy = await startFaultProxy({ upstream: reference.url, hooks: fault?.apply() });
  try {
    const run = await runSuiteProcess({
      url: proxy.url,
      secret: reference.rootSecret,
      areas: plan.areas,
      ...plan.scope,
      ...(files === undefined ? {} : { files }),
      boundMs,
    });
    return { run, applied: proxy.applied };
  } finally {
    await proxy.close();
  }
}

export function judgeFault(fault: Fault, plan: RunPlan, run: SuiteRun, applied: number, baseline: SuiteRun | undefined): FaultResult {
  const caughtBy = newlyFailed(run, baseline).map((test) => ({
    test: describeTest(test),
    requirements: test.requirements,
    error: test.error?.slice(0, 300),
  }));
  let problem: string | undefined;
  if (run.hung) problem = 'the suite run hung and was killed';
  else if (run.tests === undefined) problem = `the suite wrote no conformance.json (exit ${run.exitCode}): ${run.stderrTail}`;
  // A fault that never fired left every exchange as in the baseline, so failures in its run are noise (load,
  // timeouts), not a catch.
  else if (applied === 0) problem = 'no test exercised what the fault changes (it never fired): a missing test';
  else if (caughtBy.length === 0) problem = `the fault fired ${applied} time(s) and no test noticed: a missing test`;
  if (problem !== undefined && plan.scope !== undefined) problem += ` (only ${describePlan(plan)} was run)`;
  return {
    id: fault.id,
    title: fault.title,
    area: fault.area,
    breaks: fault.breaks,
    areasRun: plan.areas,
    ...(plan.scope === undefined ? {} : { scope: plan.scope }),
    caught: caughtBy.length > 0 && applied > 0 && !run.hung,
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
  // A silent server may end the run as a lost target, its tests not run: the run's one reason must then say why.
  const lostClearly = run.targetLost !== undefined && server.reason.test(run.targetLost);
  let problem: string | undefined;
  if (run.hung) problem = `the run did not finish within ${boundMs} ms and was killed`;
  else if (run.exitCode !== 1) problem = `exit ${run.exitCode} (expected 1): ${run.stderrTail}`;
  else if (run.tests === undefined) problem = `no conformance.json was written: ${run.stderrTail}`;
  else if (failed.length === 0 && !lostClearly) problem = 'no test failed';
  else if (unclear.length > 0) problem = `${unclear.length} failed test(s) without a reason`;
  else if (matching === undefined && !lostClearly)
    problem = `no failure reason matches ${server.reason} (first: ${JSON.stringify((failed[0]!.error ?? '').split('\n')[0]!.slice(0, 160))})`;
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
    ...(matching?.error === undefined
      ? lostClearly
        ? { sampleReason: run.targetLost!.slice(0, 200) }
        : {}
      : { sampleReason: matching.error.split('\n')[0]!.slice(0, 200) }),
    ...(problem === undefined ? {} : { problem }),
  };
}

/**
 * The files holding the baseline's tests of `requirement`: a run narrowed to one requirement then loads only those
 * instead of collecting every file of its areas to find them. Undefined when the baseline ran no such test.
 */
export function filesOf(baseline: SuiteRun | undefined, requirement: string | undefined): string[] | undefined {
  if (requirement === undefined) return undefined;
  const files = new Set((baseline?.tests ?? []).filter((test) => test.requirements.includes(requirement)).map((test) => test.file));
  return files.size === 0 ? undefined : [...files].sort();
}

export async function runSelfcheck(options: SelfcheckOptions): Promise<SelfcheckReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const faultBound = options.faultBoundMs ?? DEFAULT_FAULT_BOUND_MS;

  // Baseline: the same tests through a proxy that changes nothing, so pre-existing failures catch nothing.
  const baselineOf = baselinePlans(options.faults.map((fault) => planFor(fault, options)));
  const plans = new Map([...baselineOf.values()].map((plan) => [plan.key, plan]));
  const baselines = new Map<string, SuiteRun>();
  const baselineRuns = await inParallel([...plans.values()], options.jobs, async (plan) => {
    const { run } = await runThroughProxy(options.reference, undefined, plan, faultBound);
    log(`baseline [${describePlan(plan)}]: exit ${run.exitCode}, ${failedTests(run).length} failed of ${run.tests?.length ?? 0}`);
    return [plan, run] as const;
  });
  for (const [plan, run] of baselineRuns) baselines.set(plan.key, run);

  const faults = await inParallel(options.faults, options.jobs, async (fault) => {
    const plan = planFor(fault, options);
    const baseline = baselines.get(baselineOf.get(plan.key)!.key);
    const files = filesOf(baseline, plan.scope?.requirement);
    const { run, applied } = await runThroughProxy(options.reference, fault, plan, faultBound, files);
    const result = judgeFault(fault, plan, run, applied, baseline);
    log(
      `${result.caught ? 'caught  ' : 'MISSED  '} ${fault.id} (${fault.area}) applied=${applied}${result.caught ? ` by ${result.caughtBy.length} test(s)` : `: ${result.problem}`}`,
    );
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
        ...options.hostileScope,
        requestTimeoutMs: options.hostileRequestTimeoutMs ?? DEFAULT_HOSTILE_TIMEOUT_MS,
        streamTimeoutMs: options.hostileStreamTimeoutMs ?? DEFAULT_HOSTILE_TIMEOUT_MS,
        boundMs: hostileBound,
      });
      const result = judgeHostile(server, run, hostileBound);
      log(
        `${result.survived ? 'survived' : 'BROKEN  '} ${server.id} (${server.area}) exit=${run.exitCode} ${Math.round(run.durationMs / 1000)}s${result.problem ? `: ${result.problem}` : ''}`,
      );
      hostile.push(result);
    } finally {
      await running.close();
    }
  }

  const baselineFailures: Record<string, string[]> = {};
  for (const [key, run] of baselines) baselineFailures[describePlan(plans.get(key)!)] = failedTests(run).map(describeTest);
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
    byArea: totalsByArea(faults, hostile),
    outcome: caught === faults.length && survived === hostile.length ? 'passed' : 'failed',
  };
}

export { HOSTILE_SERVERS };
