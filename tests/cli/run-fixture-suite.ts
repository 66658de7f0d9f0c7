// Runs bin/fauna-conformance.js on the fixture suite (tests/runner/fixtures/suite) from a foreign directory, the
// way a user's CI would, and reads back what it wrote.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../runner/reporters/report-model.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'fauna-conformance.js');
export const FIXTURE_SUITE = 'tests/runner/fixtures/suite';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  // The CLI sees only the settings a test gives it: the embedded server's global setup exports its own target
  // settings (FAUNA_CONFORMANCE_STATUS_INTERVAL_MS, …) to this process, and a run would take them as the user's.
  for (const name of Object.keys(env)) if (name.startsWith('FAUNA_CONFORMANCE_')) delete env[name];
  delete env.VITEST;
  for (const [k, v] of Object.entries(opts.env ?? {})) env[k] = v;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: opts.cwd ?? tmpdir(), env, timeout: opts.timeoutMs ?? 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

/** A run of the fixture suite against `url` into a fresh report directory. */
export async function runFixtureSuite(
  url: string,
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun & { dir: string; report: () => ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'fc-gate-'));
  const run = await runCli(
    ['--url', url, '--secret', 'scripted-admin-secret', '--tests-dir', FIXTURE_SUITE, '--report-dir', dir, ...args],
    opts,
  );
  return { ...run, dir, report: () => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport };
}

export function statusOf(report: ConformanceReport, name: string): string | undefined {
  return report.tests.find((t) => t.name === name)?.status;
}
