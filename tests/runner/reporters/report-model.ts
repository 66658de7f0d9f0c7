// Builds conformance.json from plain test outcomes. Kept free of vitest types so it can be tested with data.
import type { Requirement, RequirementsIndex } from '../../../spec/build-index.js';
import { requirementIdProblems } from '../../harness/requirement-ids.js';
import type { Exchange } from '../../harness/transcript.js';

export interface TestOutcome {
  id: string;
  file: string;
  name: string;
  area: string;
  /** undefined when the test carries no `requirements` meta (registered without check). */
  requirements: string[] | undefined;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  error?: string;
  exchanges?: Exchange[];
}

export interface RunInfo {
  suiteVersion: string;
  target: { url: string; embedded: boolean };
  seed: number;
  runId: string;
  startedAt: Date;
  finishedAt: Date;
  /** Areas selected with --area; undefined = the whole suite. */
  areas: string[] | undefined;
  allAreas: string[];
  failOnUntestedMust: boolean;
}

type Counts = { tests: number; passed: number; failed: number; skipped: number };

export interface ConformanceReport {
  reportVersion: 1;
  suiteVersion: string;
  specVersion: string;
  target: { url: string; embedded: boolean };
  seed: number;
  runId: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  areasRun: string[];
  wholeSuite: boolean;
  policy: { untestedMust: 'report' | 'fail'; note: string };
  outcome: 'passed' | 'failed';
  totals: Counts;
  requirementTotals: { total: number; passed: number; failed: number; untested: number };
  areas: (Counts & { area: string })[];
  requirements: { id: string; level: Requirement['level']; profile: string; specStatus: 'active' | 'tentative'; status: 'passed' | 'failed' | 'untested'; tests: string[] }[];
  tests: (Omit<TestOutcome, 'requirements' | 'exchanges'> & { requirements: string[]; exchanges?: Exchange[] })[];
  tagProblems: { test: string; problem: string }[];
  untestedMust: string[];
  runErrors: string[];
}

function count(tests: readonly TestOutcome[]): Counts {
  return {
    tests: tests.length,
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    skipped: tests.filter((t) => t.status === 'skipped').length,
  };
}

export function buildReport(info: RunInfo, spec: RequirementsIndex, outcomes: readonly TestOutcome[], runErrors: readonly string[]): ConformanceReport {
  const tagProblems = outcomes.flatMap((t) =>
    requirementIdProblems(t.requirements ?? []).map((problem) => ({ test: t.id, problem })),
  );

  const live = spec.requirements.filter((r) => r.status !== 'withdrawn');
  const requirements = live.map((r) => {
    const tests = outcomes.filter((t) => t.requirements?.includes(r.id));
    const status: 'passed' | 'failed' | 'untested' = tests.some((t) => t.status === 'failed')
      ? 'failed'
      : tests.some((t) => t.status === 'passed')
        ? 'passed'
        : 'untested';
    return { id: r.id, level: r.level, profile: r.profile, specStatus: r.status as 'active' | 'tentative', status, tests: tests.map((t) => t.id) };
  });

  const wholeSuite = info.areas === undefined;
  const untestedMust = wholeSuite
    ? requirements.filter((r) => r.level === 'MUST' && r.specStatus === 'active' && r.status !== 'passed').map((r) => r.id)
    : [];

  const areasRun = info.areas ?? info.allAreas;
  const areaNames = [...new Set([...areasRun, ...outcomes.map((t) => t.area)])].sort();
  const totals = count(outcomes);
  const failed =
    totals.failed > 0 ||
    totals.tests === 0 ||
    tagProblems.length > 0 ||
    runErrors.length > 0 ||
    (info.failOnUntestedMust && untestedMust.length > 0);

  return {
    reportVersion: 1,
    suiteVersion: info.suiteVersion,
    specVersion: spec.specVersion,
    target: info.target,
    seed: info.seed,
    runId: info.runId,
    startedAt: info.startedAt.toISOString(),
    finishedAt: info.finishedAt.toISOString(),
    durationMs: Math.max(0, info.finishedAt.getTime() - info.startedAt.getTime()),
    areasRun,
    wholeSuite,
    policy: info.failOnUntestedMust
      ? { untestedMust: 'fail', note: 'The run fails on a failing test, a test without requirement IDs or with an unknown ID, and (whole suite only) on an active MUST requirement without a passing test.' }
      : { untestedMust: 'report', note: 'The run fails on a failing test and on a test without requirement IDs or with an unknown ID. Active MUST requirements without a passing test are listed but do not fail the run (--allow-untested; areas are still being written).' },
    outcome: failed ? 'failed' : 'passed',
    totals,
    requirementTotals: {
      total: requirements.length,
      passed: requirements.filter((r) => r.status === 'passed').length,
      failed: requirements.filter((r) => r.status === 'failed').length,
      untested: requirements.filter((r) => r.status === 'untested').length,
    },
    areas: areaNames.map((area) => ({ area, ...count(outcomes.filter((t) => t.area === area)) })),
    requirements,
    tests: outcomes.map(({ requirements: ids, exchanges, error, ...rest }) => ({
      ...rest,
      requirements: ids ?? [],
      ...(error === undefined ? {} : { error }),
      ...(exchanges && exchanges.length > 0 ? { exchanges } : {}),
    })),
    tagProblems,
    untestedMust,
    runErrors: [...runErrors],
  };
}
