// Runs the conformance CLI as a child process against one URL and reads back its conformance.json.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const LAUNCHER = join(REPO_ROOT, 'bin', 'fauna-conformance.js');

export interface SuiteTest {
  id?: string;
  file: string;
  name: string;
  area: string;
  requirements: string[];
  status: string;
  error?: string;
}

export interface SuiteRunOptions {
  url: string;
  secret: string;
  areas: readonly string[];
  /** Per-request timeout handed to the suite (`--timeout`). */
  requestTimeoutMs?: number;
  /** Per-event stream timeout handed to the suite (`--stream-timeout`). */
  streamTimeoutMs?: number;
  /** Only the tests tagged with this requirement ID (`--requirement`). */
  requirement?: string;
  /** Only the tests whose "<suite> <test>" name matches this regular expression (`--test`). */
  testPattern?: string;
  /** Only these test files, relative to the package (`--files`); otherwise every file of the areas. */
  files?: readonly string[];
  /** The child is killed after this long and the run counts as hung. */
  boundMs: number;
}

export interface SuiteRun {
  exitCode: number | null;
  /** True when the child had to be killed at the bound. */
  hung: boolean;
  durationMs: number;
  /** Tests from conformance.json; undefined when the run wrote none. */
  tests: SuiteTest[] | undefined;
  /** Why the run ended early, when the suite found the target had stopped answering (conformance.json's targetLost). */
  targetLost?: string;
  /** The last lines of the child's stderr, for the report. */
  stderrTail: string;
}

function testKey(test: SuiteTest): string {
  return test.id ?? `${test.file} > ${test.name}`;
}

export function failedTests(run: SuiteRun): SuiteTest[] {
  return (run.tests ?? []).filter((test) => test.status === 'failed');
}

export function describeTest(test: SuiteTest): string {
  return testKey(test);
}

/** Tests that failed in `run` but not in `baseline` (a fault is caught only by a test it made fail). */
export function newlyFailed(run: SuiteRun, baseline: SuiteRun | undefined): SuiteTest[] {
  const before = new Set(baseline === undefined ? [] : failedTests(baseline).map(testKey));
  return failedTests(run).filter((test) => !before.has(testKey(test)));
}

function readReport(dir: string): { tests: SuiteTest[] | undefined; targetLost?: string } {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { tests?: SuiteTest[]; targetLost?: string };
    return {
      tests: Array.isArray(report.tests) ? report.tests : undefined,
      ...(typeof report.targetLost === 'string' ? { targetLost: report.targetLost } : {}),
    };
  } catch {
    return { tests: undefined };
  }
}

export async function runSuiteProcess(options: SuiteRunOptions): Promise<SuiteRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'fauna-selfcheck-'));
  const args = [LAUNCHER, '--url', options.url, '--secret', options.secret, '--area', options.areas.join(','), '--report-dir', reportDir];
  if (options.requestTimeoutMs !== undefined) args.push('--timeout', String(options.requestTimeoutMs));
  if (options.streamTimeoutMs !== undefined) args.push('--stream-timeout', String(options.streamTimeoutMs));
  if (options.requirement !== undefined) args.push('--requirement', options.requirement);
  if (options.testPattern !== undefined) args.push('--test', options.testPattern);
  if (options.files !== undefined && options.files.length > 0) args.push('--files', options.files.join(','));
  const started = Date.now();
  // Its own process group, so a hung run can be ended together with the workers it started.
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, options.boundMs);
  const exitCode = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(timer);
  const run: SuiteRun = {
    exitCode,
    hung,
    durationMs: Date.now() - started,
    ...readReport(reportDir),
    stderrTail: stderr.trim().split('\n').slice(-5).join('\n'),
  };
  rmSync(reportDir, { recursive: true, force: true });
  return run;
}
