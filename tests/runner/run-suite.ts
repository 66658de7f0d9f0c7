// Starts vitest on the conformance tests only (configured here, not from vitest.config.ts, so that seed, shuffle,
// shard, bail and filters apply), with the report writers, and hands back the conformance report.
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { CONFORMANCE_ISOLATE, CONFORMANCE_POOL, ENV, testTimeoutFor, type SuiteSettings } from '../harness/config.js';
import { EVENT_ENV, TARGET_SETTING_NAMES, type EventSettings } from '../harness/event-settings.js';
import { diffReports } from './diff.js';
import { probeTimeoutFor, TargetMonitor } from './target-monitor.js';
import { targetHealthChannel } from '../harness/target-health.js';
import { AREAS, type Area } from './areas.js';
import { LongFilesFirstSequencer } from './file-sequencer.js';
import { updatedExpectations, writeExpectations, type Expectation } from './expectations.js';
import { DeferredAllureReporter, DeferredAllureWriter } from './reporters/deferred-allure-writer.js';
import { CONFORMANCE_PROJECT, ConformanceReporter } from './reporters/conformance-reporter.js';
import { ProgressReporter } from './reporters/progress-reporter.js';
import { RequirementJUnitReporter } from './reporters/requirement-junit-reporter.js';
import { buildReport, DEFAULT_TESTS_DIR, type ConformanceReport, type RunInfo, type TestOutcome } from './reporters/report-model.js';
import { writeReportFiles } from './reporters/report-files.js';
import { loadRequirementsIndex, type RequirementProfile } from '../../spec/build-index.js';
import { requirementTagDefinitions } from '../harness/requirement-ids.js';

const PACKAGE_ROOT = join(import.meta.dirname, '..', '..');

export interface RunSuiteOptions {
  settings: SuiteSettings;
  /** The target's settings the user gave; the others are unknown (their requirements are needs-setting). */
  targetSettings: EventSettings;
  network: NonNullable<RunInfo['network']>;
  /** An earlier run's report: the reports then carry what changed since (diff.ts). */
  baseline?: { file: string; report: ConformanceReport };
  reportDir: string;
  areas: Area[] | undefined;
  failOnUntestedMust: boolean;
  claimed?: RequirementProfile[];
  expectations?: { file: string; entries: Expectation[] };
  updateExpectations?: boolean;
  shard?: string;
  bail?: number;
  requirement?: string;
  testPattern?: string;
  /** Only these test files (relative to the package root), instead of every file of the areas. */
  files?: string[];
  /** Relative to the package root; default tests/conformance. */
  testsDir?: string;
}

/** The judged tests back as outcomes, to judge them again against an updated expectations file. */
function outcomesOf(report: ConformanceReport): TestOutcome[] {
  return report.tests.map((t) => ({
    id: t.id,
    file: t.file,
    name: t.name,
    area: t.area,
    requirements: t.requirements,
    status: t.result,
    durationMs: t.durationMs,
    ...(t.setting === undefined ? {} : { needsSetting: t.setting }),
    ...(t.result === 'skipped' && t.note !== undefined ? { skipNote: t.note } : {}),
    ...(t.error === undefined ? {} : { error: t.error }),
    ...(t.signature === undefined ? {} : { signature: t.signature }),
    ...(t.exchanges === undefined ? {} : { exchanges: t.exchanges }),
  }));
}

export async function runSuite(opts: RunSuiteOptions): Promise<ConformanceReport | undefined> {
  const { settings } = opts;
  const testsDir = opts.testsDir ?? DEFAULT_TESTS_DIR;
  // The global setup and the workers read the target and the filters from the environment.
  process.env[ENV.requestTimeout] = String(settings.requestTimeoutMs);
  process.env[ENV.streamTimeout] = String(settings.streamTimeoutMs);
  process.env[ENV.seed] = String(settings.seed);
  process.env[ENV.runId] = settings.runId;
  if (settings.url) {
    process.env[ENV.url] = settings.url;
    process.env[ENV.secret] = settings.secret;
  } else {
    delete process.env[ENV.url];
  }
  // The workers read the target's settings from here (the embedded server's are set by the global setup).
  for (const name of TARGET_SETTING_NAMES) {
    const value = opts.targetSettings[name];
    if (value === undefined) delete process.env[EVENT_ENV[name]];
    else process.env[EVENT_ENV[name]] = String(value);
  }

  const info: Omit<RunInfo, 'startedAt' | 'finishedAt' | 'suiteVersion'> = {
    target: { url: settings.url ?? 'http://127.0.0.1', embedded: !settings.url },
    seed: settings.seed,
    runId: settings.runId,
    areas: opts.areas,
    allAreas: [...AREAS],
    failOnUntestedMust: opts.failOnUntestedMust,
    testsDir,
    network: opts.network,
    ...(opts.claimed ? { claimed: opts.claimed } : {}),
    ...(opts.expectations ? { expectations: opts.expectations } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.requirement ? { requirement: opts.requirement } : {}),
    ...(opts.testPattern ? { testPattern: opts.testPattern } : {}),
  };
  // Only a target elsewhere can stop answering; the embedded server lives and dies with this process.
  const monitor = settings.url
    ? new TargetMonitor({
        url: settings.url,
        channel: targetHealthChannel(settings.runId),
        probeTimeoutMs: probeTimeoutFor(settings.requestTimeoutMs),
      })
    : undefined;
  const withBaseline = (report: ConformanceReport): ConformanceReport =>
    opts.baseline === undefined ? report : { ...report, baseline: diffReports(opts.baseline.report, report, opts.baseline.file) };
  const conformance = new ConformanceReporter({
    reportDir: opts.reportDir,
    info,
    transform: withBaseline,
    ...(monitor ? { targetLoss: () => monitor.lost } : {}),
  });
  const progress = new ProgressReporter({
    report: () => conformance.report,
    root: PACKAGE_ROOT,
    testsDir,
    ...(opts.requirement ? { requirement: opts.requirement } : {}),
  });
  const timeout = testTimeoutFor(settings.requestTimeoutMs, settings.streamTimeoutMs);
  const allureResultsDir = join(opts.reportDir, 'allure-results');
  const allureWriter = new DeferredAllureWriter(allureResultsDir);
  const filters = opts.files ?? (opts.areas ?? []).map((a) => `${testsDir}/${a}/`);
  const vitest = await startVitest('test', filters, {
    root: PACKAGE_ROOT,
    config: false,
    name: CONFORMANCE_PROJECT,
    include: [`${testsDir}/**/*.test.ts`],
    globalSetup: [join(PACKAGE_ROOT, 'tests/harness/global-setup.ts')],
    // assertion-setup first: its matcher wrappers must sit inside allure-vitest's (see bigint-assertions.ts).
    setupFiles: [
      join(PACKAGE_ROOT, 'tests/harness/assertion-setup.ts'),
      'allure-vitest/setup',
      join(PACKAGE_ROOT, 'tests/harness/conformance-setup.ts'),
    ],
    isolate: CONFORMANCE_ISOLATE,
    pool: CONFORMANCE_POOL,
    testTimeout: timeout,
    hookTimeout: timeout,
    // The seed fixes the order of files and of tests within them, so a replay sees the same order; the files that
    // run for seconds start first (LongFilesFirstSequencer).
    sequence: { shuffle: true, seed: settings.seed, sequencer: LongFilesFirstSequencer },
    watch: false,
    passWithNoTests: true,
    maxWorkers: opts.network.filesInFlight,
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.bail ? { bail: opts.bail } : {}),
    ...(opts.testPattern ? { testNamePattern: opts.testPattern } : {}),
    // check() tags every test with its requirement IDs, so vitest itself deselects for --requirement (a file none
    // of whose tests is selected runs no hooks).
    tags: requirementTagDefinitions(),
    ...(opts.requirement ? { tagsFilter: [opts.requirement] } : {}),
    reporters: [
      ...(monitor ? [monitor] : []),
      new RequirementJUnitReporter({ outputFile: join(opts.reportDir, 'junit.xml') }),
      new DeferredAllureReporter({ resultsDir: allureResultsDir }, allureWriter),
      conformance,
      progress,
    ],
  });
  await vitest.close();
  await allureWriter.flush();
  let report = conformance.report;
  if (report && opts.updateExpectations && opts.expectations) {
    const entries = updatedExpectations(opts.expectations.entries, report.tests);
    writeExpectations(opts.expectations.file, entries);
    process.stdout.write(`wrote ${entries.length} expectation(s) to ${opts.expectations.file}\n`);
    // Judge the same results against the new file, so the reports and the exit code agree with it.
    report = withBaseline(
      buildReport(
        {
          ...info,
          expectations: { file: opts.expectations.file, entries },
          suiteVersion: report.suiteVersion,
          startedAt: new Date(report.startedAt),
          finishedAt: new Date(report.finishedAt),
          ...(report.targetLost === undefined ? {} : { targetLost: report.targetLost, filesNotStarted: report.filesNotStarted ?? [] }),
        },
        loadRequirementsIndex(),
        outcomesOf(report),
        report.runErrors,
      ),
    );
    writeReportFiles(report, opts.reportDir);
  }
  return report;
}
