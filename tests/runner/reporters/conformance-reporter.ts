// A vitest reporter for the conformance project: checks every test's requirement tags, builds conformance.json and
// summary.md (when given a report directory) and keeps the report for the runner's exit code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import { validate } from '../../../schemas/index.js';
import { loadRequirementsIndex } from '../../../spec/build-index.js';
import type { Exchange } from '../../harness/transcript.js';
import { TARGET_LOST } from '../../harness/target-health.js';
import { failureSignature } from '../failure-signature.js';
import type { TargetLoss } from '../target-monitor.js';
import { buildReport, DEFAULT_TESTS_DIR, type ConformanceReport, type RunInfo, type TestOutcome } from './report-model.js';
import { writeReportFiles } from './report-files.js';

export const CONFORMANCE_PROJECT = 'conformance';
export const REPORT_SCHEMA = 'conformance-report';

export interface ConformanceReporterOptions {
  /** Where conformance.json, summary.md, the badges and report.html go; without it nothing is written (the `npm test` mode). */
  reportDir?: string;
  info?: Omit<RunInfo, 'startedAt' | 'finishedAt' | 'suiteVersion' | 'targetLost'>;
  /** Whether and when the target stopped answering (the runner's TargetMonitor). */
  targetLoss?: () => TargetLoss | undefined;
  /** Adds to the report before it is checked and written (the runner's baseline diff). */
  transform?: (report: ConformanceReport) => ConformanceReport;
}

const PACKAGE_ROOT = join(import.meta.dirname, '..', '..', '..');

export function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

type ReportedError = { message?: string; cause?: unknown };

/** fast-check's own message, which only counts runs and shows the counterexample; its cause is the assertion. */
const PROPERTY_FAILURE = /^Property failed after \d+ tests/;

/** The error at the end of an error's chain of causes. */
function innermost(error: ReportedError): ReportedError {
  const cause = error.cause as ReportedError | undefined;
  return cause && typeof cause === 'object' && typeof cause.message === 'string' ? innermost(cause) : error;
}

function errorText(errors: readonly ReportedError[] | undefined): string | undefined {
  if (!errors || errors.length === 0) return undefined;
  return errors
    .map((e) => {
      const inner = innermost(e);
      return inner === e ? (e.message ?? String(e)) : `${e.message ?? ''}\nCaused by: ${inner.message}`;
    })
    .join('\n');
}

/** The first error of the closest failing suite (a failed beforeAll), which vitest reports on the suite. */
function hookError(test: TestCase): string | undefined {
  let node: TestSuite | TestModule = test.parent;
  for (;;) {
    const own = errorText(node.errors());
    if (own) return own;
    if (node.type === 'module') return undefined;
    node = node.parent;
  }
}

/** The area of a test file: the folder under the tests directory, `other` for a file outside it. */
export function areaOf(file: string, testsDir: string = DEFAULT_TESTS_DIR): string {
  const prefix = `${testsDir}/`;
  return file.startsWith(prefix)
    ? file.slice(prefix.length).split('/').length > 1
      ? file.slice(prefix.length).split('/')[0]!
      : 'other'
    : 'other';
}

/**
 * Whether a test counts as not run because the target was lost: it started after the loss (whatever it did then, it
 * did against a run that refused every request), its body never ran or finished (a failed tenant hook, a test cut
 * short), or it failed on a refused request.
 */
function cutShort(test: TestCase, error: string | undefined, lostAt: number | undefined): boolean {
  if (lostAt === undefined) return false;
  const started = test.diagnostic()?.startTime;
  if (started !== undefined && started >= lostAt) return true;
  const state = test.result().state;
  if (state === 'failed') return (error ?? '').includes(TARGET_LOST);
  return state !== 'passed' && test.meta().needsSetting === undefined;
}

export function outcomeOf(test: TestCase, root: string, testsDir: string = DEFAULT_TESTS_DIR, lostAt?: number): TestOutcome {
  const file = relative(root, test.module.moduleId).split('\\').join('/');
  const result = test.result();
  const meta = test.meta();
  let status: TestOutcome['status'];
  let error: string | undefined;
  let skipNote: string | undefined;
  if (result.state === 'passed') status = 'passed';
  else if (result.state === 'failed') {
    status = 'failed';
    error = errorText(result.errors);
  } else {
    const hook = hookError(test);
    status = hook || result.state === 'pending' ? 'failed' : 'skipped';
    error = hook ?? (result.state === 'pending' ? 'the test did not finish' : undefined);
    if (status === 'skipped' && result.state === 'skipped' && result.note) skipNote = result.note;
  }
  if (cutShort(test, error, lostAt)) status = 'not-run';
  const inner = result.state === 'failed' ? result.errors?.[0] : undefined;
  const exchanges = Array.isArray(meta.exchanges) ? (meta.exchanges as Exchange[]) : undefined;
  const example = meta.example as Exchange | undefined;
  return {
    id: `${file} > ${test.fullName}`,
    file,
    name: test.fullName,
    area: areaOf(file, testsDir),
    requirements: Array.isArray(meta.requirements) ? meta.requirements : undefined,
    status,
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    ...(error === undefined ? {} : { error }),
    ...(skipNote === undefined ? {} : { skipNote }),
    ...(status === 'skipped' && typeof meta.needsSetting === 'string' ? { needsSetting: meta.needsSetting } : {}),
    ...(status === 'failed'
      ? {
          signature: failureSignature(
            error,
            exchanges,
            inner !== undefined && PROPERTY_FAILURE.test(inner.message ?? '') ? innermost(inner).message : undefined,
          ),
        }
      : {}),
    ...(exchanges ? { exchanges } : {}),
    ...(status === 'passed' && example !== undefined ? { example } : {}),
  };
}

export class ConformanceReporter implements Reporter {
  private vitest: Vitest | undefined;
  private startedAt = new Date();
  /** The last run's report; undefined until a run with conformance tests ended. */
  report: ConformanceReport | undefined;

  constructor(private readonly options: ConformanceReporterOptions = {}) {}

  /** Tests left out by --requirement or --test are not part of the run (vitest reports them as skipped). */
  private selected(test: TestCase): boolean {
    const requirement = this.options.info?.requirement;
    if (requirement !== undefined && !test.tags.includes(requirement)) return false;
    const pattern = this.options.info?.testPattern;
    if (pattern === undefined || test.result().state !== 'skipped') return true;
    return new RegExp(pattern).test(test.fullName.split(' > ').join(' '));
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.startedAt = new Date();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const modules = testModules.filter((m) => m.project.name === CONFORMANCE_PROJECT);
    if (modules.length === 0) return;
    const root = this.vitest?.config.root ?? PACKAGE_ROOT;
    const testsDir = this.options.info?.testsDir ?? DEFAULT_TESTS_DIR;
    const loss = this.options.targetLoss?.();
    // A file the cancelled run never started is an empty module.
    const notStarted =
      loss === undefined
        ? []
        : modules
            .filter((m) => [...m.children.allTests()].length === 0 && m.errors().length === 0)
            .map((m) => relative(root, m.moduleId).split('\\').join('/'))
            .sort();
    const outcomes = modules.flatMap((m) =>
      [...m.children.allTests()].filter((t) => this.selected(t)).map((t) => outcomeOf(t, root, testsDir, loss?.at)),
    );
    // Once the target is lost, errors of refused requests outside tests (tenant clean-up) are part of that one reason.
    const runErrors = [
      ...modules.flatMap((m) => m.errors().map((e) => `${relative(root, m.moduleId)}: ${e.message}`)),
      ...unhandledErrors.map((e) => `unhandled error: ${e.message}`),
    ].filter((e) => loss === undefined || !e.includes(TARGET_LOST));
    const info: RunInfo = {
      target: { url: 'http://unknown', embedded: true },
      seed: 0,
      runId: 'unknown',
      // Under plain `vitest run` (npm test) a run of every conformance file with no name filter is the whole suite
      // and is held to it: an active MUST without a passing test fails it. A partial run lists the areas it ran.
      areas: this.partialRunAreas(modules, root, testsDir),
      allAreas: [],
      failOnUntestedMust: true,
      ...this.options.info,
      ...(loss === undefined ? {} : { targetLost: loss.reason, filesNotStarted: notStarted }),
      suiteVersion: suiteVersion(),
      startedAt: this.startedAt,
      finishedAt: new Date(),
    };
    let report = buildReport(info, loadRequirementsIndex(), outcomes, runErrors);
    if (this.options.transform) report = this.options.transform(report);
    const check = validate(REPORT_SCHEMA, JSON.parse(JSON.stringify(report)));
    if (!check.valid) {
      report = {
        ...report,
        outcome: 'failed',
        runErrors: [...report.runErrors, `conformance.json does not match ${REPORT_SCHEMA}: ${check.errors.join('; ')}`],
      };
    }
    this.report = report;
    for (const p of report.tagProblems) process.stderr.write(`requirement tags: ${p.test}: ${p.problem}\n`);
    if (report.wholeSuite && report.untestedMust.length > 0) {
      process.stderr.write(
        `requirements: ${report.untestedMust.length} active MUST requirement(s) have no passing test (${report.policy.untestedMust === 'fail' ? 'failing the run' : 'listed, not failing'})\n`,
      );
    }
    if (this.options.reportDir) writeReportFiles(report, this.options.reportDir);
    // Under plain `vitest run` the reporter is the only place that sees untagged tests as a whole; make them fail it.
    const untestedFails = report.policy.untestedMust === 'fail' && report.untestedMust.length > 0;
    if (report.tagProblems.length > 0 || report.runErrors.length > 0 || untestedFails) process.exitCode = 1;
  }

  /** The areas that ran when this is not every conformance file, or a name filter is set; undefined for the whole suite. */
  private partialRunAreas(modules: readonly TestModule[], root: string, testsDir: string): string[] | undefined {
    const ran = new Set(modules.map((m) => relative(root, m.moduleId).split('\\').join('/')));
    const all = readdirSync(join(root, testsDir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${testsDir}/${f.split('\\').join('/')}`);
    const everyFile = all.every((f) => ran.has(f));
    if (everyFile && this.vitest?.config.testNamePattern === undefined) return undefined;
    return [...new Set([...ran].map((f) => areaOf(f, testsDir)))].sort();
  }
}
