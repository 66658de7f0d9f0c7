// Builds conformance.json from plain test outcomes. Kept free of vitest types so it can be tested with data.
// Two steps: `judgeTests` gives every test its gate status (claims, expectations), `aggregateReport` scores areas and
// requirements and decides the outcome. `merge` reuses the second step on judged tests of several shards.
import type { ConformanceReport, Counts, Exchange, Requirement, RequirementsIndex, Signature } from '../../../schemas/types.js';
import { evidenceCite, evidenceUrl } from '../../../spec/build-index.js';
import { requirementIdProblems } from '../../harness/requirement-ids.js';
import { judgeAgainstExpectations, type Expectation } from '../expectations.js';
import { replayCommand } from '../replay.js';

/** What vitest said about a test. */
export type TestResult = 'passed' | 'failed' | 'skipped';
/** What the gate says: the result, adjusted for capability claims and expectation files. */
export type TestStatus = TestResult | 'not-claimed' | 'expected-failure' | 'unexpected-pass';
export const TEST_STATUSES: readonly TestStatus[] = ['passed', 'failed', 'skipped', 'not-claimed', 'expected-failure', 'unexpected-pass'];
/** Statuses that fail the gate. */
export const FAILING_STATUSES: readonly TestStatus[] = ['failed', 'unexpected-pass'];

// The report's shapes are those of schemas/conformance-report.schema.json.
export type { ConformanceReport, Counts };
/** How a test failed: the last HTTP status and error code it saw, and the first line of its assertion message. */
export type FailureSignature = Signature;
/** A test as the report lists it, with its gate status. */
export type JudgedTest = ConformanceReport['tests'][number];
export type RequirementVerdict = ConformanceReport['requirements'][number]['status'];

export interface TestOutcome {
  id: string;
  file: string;
  name: string;
  area: string;
  /** undefined when the test carries no `requirements` meta (registered without check). */
  requirements: string[] | undefined;
  status: TestResult;
  durationMs: number;
  error?: string;
  /** Why a test skipped itself at run time (`context.skip(note)`), e.g. a target setting the config does not give. */
  skipNote?: string;
  signature?: FailureSignature;
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
  /** Profiles the server claims; undefined = every profile. */
  claimed?: Requirement['profile'][];
  expectations?: { file: string; entries: Expectation[] };
  /** `i/n` when this run is one shard. */
  shard?: string;
  /** --requirement / --test filters; like --area they make the run partial. */
  requirement?: string;
  testPattern?: string;
  /** Folder of the conformance tests relative to the package root; default tests/conformance. */
  testsDir?: string;
}

export const DEFAULT_TESTS_DIR = 'tests/conformance';

type CountKey = 'passed' | 'failed' | 'skipped' | 'notClaimed' | 'expectedFailure' | 'unexpectedPass';
const COUNT_KEY: Record<TestStatus, CountKey> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  'not-claimed': 'notClaimed',
  'expected-failure': 'expectedFailure',
  'unexpected-pass': 'unexpectedPass',
};

export function countStatuses(tests: readonly { status: TestStatus }[]): Counts {
  const counts: Counts = { tests: tests.length, passed: 0, failed: 0, skipped: 0, notClaimed: 0, expectedFailure: 0, unexpectedPass: 0 };
  for (const t of tests) counts[COUNT_KEY[t.status]] += 1;
  return counts;
}

function profilesOf(ids: readonly string[], spec: RequirementsIndex): Requirement['profile'][] {
  const byId = new Map(spec.requirements.map((r) => [r.id, r.profile]));
  return [...new Set(ids.map((id) => byId.get(id)).filter((p): p is Requirement['profile'] => p !== undefined))].sort();
}

/** Gives each outcome its gate status: unclaimed profiles first, then the expectation file. */
export function judgeTests(info: RunInfo, spec: RequirementsIndex, outcomes: readonly TestOutcome[]): JudgedTest[] {
  const claimed = new Set(info.claimed ?? spec.requirements.map((r) => r.profile));
  const entries = info.expectations?.entries ?? [];
  return outcomes.map((t) => {
    const requirements = t.requirements ?? [];
    const profiles = profilesOf(requirements, spec);
    const unclaimed = profiles.filter((p) => !claimed.has(p));
    let status: TestStatus = t.status;
    let note: string | undefined = t.skipNote;
    let expectation: JudgedTest['expectation'];
    if (unclaimed.length > 0) {
      status = 'not-claimed';
      note = `profile ${unclaimed.join(', ')} not claimed; the result (${t.status}) does not count`;
    } else {
      const entry = entries.find((e) => e.test === t.id);
      if (entry) {
        const judged = judgeAgainstExpectations(entry, t.status, t.signature);
        status = judged.status;
        note = judged.note;
        expectation = { reason: entry.reason, ...(entry.issue === undefined ? {} : { issue: entry.issue }) };
      }
    }
    const replay = status === 'failed' || status === 'unexpected-pass' ? replayCommand(info, t) : undefined;
    return {
      id: t.id,
      file: t.file,
      name: t.name,
      area: t.area,
      requirements,
      profiles,
      result: t.status,
      status,
      durationMs: t.durationMs,
      ...(note === undefined ? {} : { note }),
      ...(t.error === undefined ? {} : { error: t.error }),
      ...(t.signature === undefined ? {} : { signature: t.signature }),
      ...(expectation === undefined ? {} : { expectation }),
      ...(replay === undefined ? {} : { replay }),
      ...(t.exchanges && t.exchanges.length > 0 ? { exchanges: t.exchanges } : {}),
    };
  });
}

export interface AggregateInput {
  info: Omit<RunInfo, 'expectations'> & { expectationsFile: string | null };
  spec: RequirementsIndex;
  tests: JudgedTest[];
  runErrors: readonly string[];
  unmatchedExpectations: string[];
  shards: string[];
}

function requirementVerdict(claimed: boolean, tests: readonly JudgedTest[]): RequirementVerdict {
  if (!claimed) return 'not-claimed';
  if (tests.some((t) => FAILING_STATUSES.includes(t.status))) return 'failed';
  if (tests.some((t) => t.status === 'expected-failure')) return 'expected-failure';
  return tests.some((t) => t.status === 'passed') ? 'passed' : 'untested';
}

export function aggregateReport({ info, spec, tests, runErrors, unmatchedExpectations, shards }: AggregateInput): ConformanceReport {
  const tagProblems = tests.flatMap((t) =>
    requirementIdProblems(t.requirements).map((problem) => ({ test: t.id, problem })),
  );
  const allProfiles = [...new Set(spec.requirements.map((r) => r.profile))].sort();
  const claimedProfiles = info.claimed ? [...info.claimed].sort() : allProfiles;
  const claimedSet = new Set(claimedProfiles);

  const live = spec.requirements.filter((r) => r.status !== 'withdrawn');
  const requirements = live.map((r) => {
    const mine = tests.filter((t) => t.requirements.includes(r.id));
    const claimed = claimedSet.has(r.profile);
    return {
      id: r.id,
      level: r.level,
      profile: r.profile,
      specStatus: r.status as 'active' | 'tentative',
      statement: r.statement,
      basis: r.basis,
      evidence: r.evidence.map((e) => ({ cite: evidenceCite(e), url: evidenceUrl(e, spec.evidenceSources), ...(e.note === undefined ? {} : { note: e.note }) })),
      claimed,
      status: requirementVerdict(claimed, mine),
      tests: mine.map((t) => t.id),
    };
  });

  // Untested MUSTs are only judged when every test of every area could have run.
  const wholeSuite = info.areas === undefined && info.requirement === undefined && info.testPattern === undefined;
  const untestedMust = wholeSuite
    ? requirements.filter((r) => r.claimed && r.level === 'MUST' && r.specStatus === 'active' && r.status !== 'passed' && r.status !== 'expected-failure').map((r) => r.id)
    : [];

  const areasRun = info.areas ?? info.allAreas;
  const areaNames = [...new Set([...areasRun, ...tests.map((t) => t.area)])].sort();
  const totals = countStatuses(tests);
  const failed =
    tests.some((t) => FAILING_STATUSES.includes(t.status)) ||
    totals.tests === 0 ||
    tagProblems.length > 0 ||
    runErrors.length > 0 ||
    (info.failOnUntestedMust && untestedMust.length > 0);
  const verdictCount = (v: RequirementVerdict) => requirements.filter((r) => r.status === v).length;

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
    shards,
    filters: {
      ...(info.requirement === undefined ? {} : { requirement: info.requirement }),
      ...(info.testPattern === undefined ? {} : { testPattern: info.testPattern }),
    },
    claimedProfiles,
    allProfiles,
    expectationsFile: info.expectationsFile,
    unmatchedExpectations,
    policy: info.failOnUntestedMust
      ? { untestedMust: 'fail', note: 'The run fails on a failing test of a claimed profile, an unexpected pass, a test without requirement IDs or with an unknown ID, and (whole suite only) on an active MUST requirement of a claimed profile without a passing test.' }
      : { untestedMust: 'report', note: 'The run fails on a failing test of a claimed profile, an unexpected pass, and a test without requirement IDs or with an unknown ID. Tests of unclaimed profiles and expected failures never fail it. Active MUST requirements without a passing test are listed but do not fail the run (--allow-untested).' },
    outcome: failed ? 'failed' : 'passed',
    totals,
    requirementTotals: {
      total: requirements.length,
      passed: verdictCount('passed'),
      failed: verdictCount('failed'),
      untested: verdictCount('untested'),
      'not-claimed': verdictCount('not-claimed'),
      'expected-failure': verdictCount('expected-failure'),
    },
    areas: areaNames.map((area) => ({ area, ...countStatuses(tests.filter((t) => t.area === area)) })),
    requirements,
    tests,
    tagProblems,
    untestedMust,
    runErrors: [...runErrors],
  };
}

export function buildReport(info: RunInfo, spec: RequirementsIndex, outcomes: readonly TestOutcome[], runErrors: readonly string[]): ConformanceReport {
  const tests = judgeTests(info, spec, outcomes);
  const seen = new Set(outcomes.map((t) => t.id));
  // An entry naming a test this run could have run but did not see is stale (renamed or deleted test). In a shard
  // it may just live in another shard: `merge` keeps only the entries no shard saw.
  const areasRun = info.areas ?? info.allAreas;
  const testsDir = `${info.testsDir ?? DEFAULT_TESTS_DIR}/`;
  const areaOfId = (id: string) => (id.startsWith(testsDir) ? id.slice(testsDir.length).split('/')[0] ?? '' : '');
  const couldRun = (id: string) => info.requirement === undefined && info.testPattern === undefined && areasRun.includes(areaOfId(id));
  const unmatchedExpectations = (info.expectations?.entries ?? []).map((e) => e.test).filter((id) => !seen.has(id) && couldRun(id));
  const { expectations, ...rest } = info;
  return aggregateReport({ info: { ...rest, expectationsFile: expectations?.file ?? null }, spec, tests, runErrors, unmatchedExpectations, shards: info.shard ? [info.shard] : [] });
}
