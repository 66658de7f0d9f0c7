/**
 * Wall time of the full conformance suite against the embedded reference server (`fauna-conformance` as a
 * child process, reports into a temporary directory). Issue 8 goal: ≤ 20 s.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchResult } from './bench-context.js';

const CLI = fileURLToPath(new URL('../bin/fauna-conformance.js', import.meta.url));
const GOAL_SECONDS = 20;

export async function run(_ctx: BenchContext): Promise<BenchResult[]> {
  const reportDir = await mkdtemp(join(tmpdir(), 'fc-bench-suite-'));
  try {
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [CLI, '--report-dir', reportDir], { stdio: 'ignore' });
      child.once('exit', (exit) => resolve(exit));
    });
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    return [
      {
        name: 'Full conformance suite (embedded server)',
        value: seconds,
        unit: 's',
        goal: `≤ ${GOAL_SECONDS} s`,
        met: seconds <= GOAL_SECONDS,
        detail: { exitCode: code ?? 'signal' },
      },
    ];
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}
