// Builds conformance.json from plain test outcomes. Kept free of vitest types so it can be tested with data.
// Two steps: `judgeTests` gives every test its gate status (claims, expectations), `aggregateReport` scores areas and
// requirements and decides the outcome. `merge` reuses the second step on judged tests of several shards.
import type {
  ConformanceReport,
  Counts,
  Diff,
  DiffChange,
  Exchange,
  Requirement,
  RequirementsIndex,
  Signature,
} from '../../../schemas/types.js';
import { evidenceCite, evidenceUrl } from '../../../spec/build-index.js';
import { requirementIdProblems } from '../../harness/requirement-ids.js';
import { TARGET_SETTINGS, type TargetSettingName } from '../../harness/event-settings.js';
import { judgeAgainstExpectations, type Expectation } from '../expectations.js';
import { replayCommand } from '../replay.js';

/** What vitest said about a test; not-run: the run ended (the target stopped answering) before the test could. */
export type TestResult = 'passed' | 'failed' | 'skipped' | 'not-run';
/** What the gate says: the result, adjusted for capability claims, target settings and expectation files. */
export type TestStatus = TestResult | 'not-claimed' | 'expected-failure' | 'unexpected-pass' | 'needs-setting';
export const TEST_STATUSES: readonly TestStatus[] = [
  'passed',
  'failed',
  'skipped',
  'not-claimed',
  'expected-failure',
  'unexpected-pass',
  'needs-setting',
  'not-run',
];
/** Statuses that fail the gate. */
export const FAILING_STATUSES: readonly TestStatus[] = ['failed', 'unexpected-pass'];

// The report's shapes are those of schemas/conformance-report.schema.json.
export type { ConformanceReport, Counts, Diff, DiffChange };
/** How a test failed, with generated values normalised out (failure-signature.ts). */
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
  /** Why a test skipped itself at run time (`context.skip(note)`), e.g. a target setting the run was not given. */
  skipNote?: string;
  /** The target setting a skipped test needed (requireEventSetting). */
  needsSetting?: string;
  signature?: FailureSignature;
  exchanges?: Exchange[];
  /** One exchange of a passing test (exampleExchange in tests/harness/transcript.ts). */
  example?: Exchange;
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
  /** Why the run ended early: the target stopped answering (target-monitor.ts). */
  targetLost?: string;
  /** Test files the run, ended early, never started. */
  filesNotStarted?: string[];
  /** The measured round trip and the files run at once. */
  network?: ConformanceReport['network'];
}

export const DEFAULT_TESTS_DIR = 'tests/conformance';

type CountKey = 'passed' | 'failed' | 'skipped' | 'notClaimed' | 'expectedFailure' | 'unexpectedPass' | 'needsSetting' | 'notRun';
export const COUNT_KEY: Record<TestStatus, CountKey> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  'not-claimed': 'notClaimed',
  'expected-failure': 'expectedFailure',
  'unexpected-pass': 'unexpectedPass',
  'needs-setting': 'needsSetting',
  'not-run': 'notRun',
};

export function countStatuses(tests: readonly { status: TestStatus }[]): Counts {
  const counts: Counts = {
    tests: tests.length,
    passed: 0,
    failed: 0,
    skipped: 0,
    notClaimed: 0,
    expectedFailure: 0,
    unexpectedPass: 0,
    needsSetting: 0,
    notRun: 0,
  };
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
    } else if (t.status === 'skipped' && t.needsSetting !== undefined) {
      status = 'needs-setting';
    } else if (t.status === 'not-run') {
      note = `not run: ${info.targetLost ?? 'the run ended first'}`;
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
      ...(t.needsSetting === undefined ? {} : { setting: t.needsSetting }),
      ...(t.error === undefined ? {} : { error: t.error }),
      ...(t.signature === undefined ? {} : { signature: t.signature }),
      ...(expectation === undefined ? {} : { expectation }),
      ...(replay === undefined ? {} : { replay }),
      ...(t.exchanges && t.exchanges.length > 0 ? { exchanges: t.exchanges } : {}),
      ...(t.example === undefined || status !== 'passed' ? {} : { example: t.example }),
    };
  });
}

/** Keeps a passing test's example only where it is the first for one of its requirements: one per requirement is shown. */
function firstExamples(tests: readonly JudgedTest[]): JudgedTest[] {
  const shown = new Set<string>();
  return tests.map((t) => {
    if (t.example === undefined) return t;
    const fresh = t.requirements.filter((id) => !shown.has(id));
    for (const id of fresh) shown.add(id);
    if (fresh.length > 0) return t;
    const { example: _dropped, ...rest } = t;
    return rest;
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
  if (tests.some((t) => t.status === 'passed')) return 'passed';
  if (tests.some((t) => t.status === 'needs-setting')) return 'needs-setting';
  return tests.some((t) => t.status === 'not-run') ? 'not-run' : 'untested';
}

/** The settings the run lacked, each with the claimed requirements that are needs-setting for want of it. */
function needsSettingsOf(
  tests: readonly JudgedTest[],
  verdicts: ReadonlyMap<string, RequirementVerdict>,
): ConformanceReport['needsSettings'] {
  const bySetting = new Map<string, Set<string>>();
  for (const t of tests) {
    if (t.status !== 'needs-setting' || t.setting === undefined) continue;
    const ids = bySetting.get(t.setting) ?? new Set<string>();
    for (const id of t.requirements) if (verdicts.get(id) === 'needs-setting') ids.add(id);
    bySetting.set(t.setting, ids);
  }
  return [...bySetting.entries()]
    .filter(([, ids]) => ids.size > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([setting, ids]) => {
      const known = TARGET_SETTINGS[setting as TargetSettingName] as (typeof TARGET_SETTINGS)[TargetSettingName] | undefined;
      return {
        setting,
        description: known?.description ?? setting,
        flag: known ? `${known.flag} ${known.value}` : setting,
        env: known?.env ?? '',
        configKey: known?.configKey ?? '',
        requirements: [...ids].sort(),
      };
    });
}

export function aggregateReport({ info, spec, tests, runErrors, unmatchedExpectations, shards }: AggregateInput): ConformanceReport {
  const tagProblems = tests.flatMap((t) => requirementIdProblems(t.requirements).map((problem) => ({ test: t.id, problem })));
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
      evidence: r.evidence.map((e) => ({
        cite: evidenceCite(e),
        url: evidenceUrl(e, spec.evidenceSources),
        ...(e.note === undefined ? {} : { note: e.note }),
      })),
      claimed,
      status: requirementVerdict(claimed, mine),
      tests: mine.map((t) => t.id),
    };
  });

  // Untested MUSTs are only judged when every test of every area could have run. A requirement whose tests need a
  // target setting the user did not give is listed in needsSettings instead, and one the run never reached (the
  // target stopped answering) is part of targetLost.
  const wholeSuite = info.areas === undefined && info.requirement === undefined && info.testPattern === undefined;
  const notJudged: readonly RequirementVerdict[] = ['passed', 'expected-failure', 'needs-setting', 'not-run'];
  const untestedMust =
    wholeSuite && info.targetLost === undefined
      ? requirements
          .filter((r) => r.claimed && r.level === 'MUST' && r.specStatus === 'active' && !notJudged.includes(r.status))
          .map((r) => r.id)
      : [];

  const areasRun = info.areas ?? info.allAreas;
  const areaNames = [...new Set([...areasRun, ...tests.map((t) => t.area)])].sort();
  const totals = countStatuses(tests);
  const failed =
    tests.some((t) => FAILING_STATUSES.includes(t.status)) ||
    totals.tests === 0 ||
    tagProblems.length > 0 ||
    runErrors.length > 0 ||
    info.targetLost !== undefined ||
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
      ? {
          untestedMust: 'fail',
          note: 'The run fails on a failing test of a claimed profile, an unexpected pass, a test without requirement IDs or with an unknown ID, a target that stopped answering, and (whole suite only) on an active MUST requirement of a claimed profile without a passing test. Requirements whose tests need a target setting the run was not given are listed (needs-setting), never failing it.',
        }
      : {
          untestedMust: 'report',
          note: 'The run fails on a failing test of a claimed profile, an unexpected pass, a test without requirement IDs or with an unknown ID, and a target that stopped answering. Tests of unclaimed profiles, expected failures and requirements whose tests need a target setting never fail it. Active MUST requirements without a passing test are listed but do not fail the run (--allow-untested).',
        },
    outcome: failed ? 'failed' : 'passed',
    totals,
    requirementTotals: {
      total: requirements.length,
      passed: verdictCount('passed'),
      failed: verdictCount('failed'),
      untested: verdictCount('untested'),
      'not-claimed': verdictCount('not-claimed'),
      'expected-failure': verdictCount('expected-failure'),
      'needs-setting': verdictCount('needs-setting'),
      'not-run': verdictCount('not-run'),
    },
    areas: areaNames.map((area) => ({ area, ...countStatuses(tests.filter((t) => t.area === area)) })),
    requirements,
    tests,
    tagProblems,
    untestedMust,
    needsSettings: needsSettingsOf(tests, new Map(requirements.map((r) => [r.id, r.status]))),
    runErrors: [...runErrors],
    ...(info.targetLost === undefined ? {} : { targetLost: info.targetLost }),
    ...(info.filesNotStarted === undefined ? {} : { filesNotStarted: info.filesNotStarted }),
    ...(info.network === undefined ? {} : { network: info.network }),
  };
}

export function buildReport(
  info: RunInfo,
  spec: RequirementsIndex,
  outcomes: readonly TestOutcome[],
  runErrors: readonly string[],
): ConformanceReport {
  const tests = firstExamples(judgeTests(info, spec, outcomes));
  const seen = new Set(outcomes.map((t) => t.id));
  // An entry naming a test this run could have run but did not see is stale (renamed or deleted test). In a shard
  // it may just live in another shard: `merge` keeps only the entries no shard saw.
  const areasRun = info.areas ?? info.allAreas;
  const testsDir = `${info.testsDir ?? DEFAULT_TESTS_DIR}/`;
  const areaOfId = (id: string) => (id.startsWith(testsDir) ? (id.slice(testsDir.length).split('/')[0] ?? '') : '');
  const couldRun = (id: string) => info.requirement === undefined && info.testPattern === undefined && areasRun.includes(areaOfId(id));
  const unmatchedExpectations = (info.expectations?.entries ?? []).map((e) => e.test).filter((id) => !seen.has(id) && couldRun(id));
  const { expectations, ...rest } = info;
  return aggregateReport({
    info: { ...rest, expectationsFile: expectations?.file ?? null },
    spec,
    tests,
    runErrors,
    unmatchedExpectations,
    shards: info.shard ? [info.shard] : [],
  });
}
