// The data directory's lock (durability/data-dir.ts): a live server's lock refuses a second server; the lock of a
// server that was killed is taken over, also while the killed process is a zombie that nobody has reaped.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, openDataDirectory } from '../../../../reference-impl/durability/data-dir.js';

const noFailure = () => {};

/** The state letter of a process from /proc (R, S, Z, …), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/** Polls `condition` until it holds, failing after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not seen in ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('data directory lock', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fc-data-dir-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses the directory while the process named in its lock is alive', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      await writeFile(join(dir, LOCK_FILE), String(holder.pid));
      await expect(openDataDirectory(dir, noFailure)).rejects.toThrow(`data directory is in use by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it.runIf(process.platform === 'linux')('takes over the lock of a process that exited but was never reaped (a zombie)', async () => {
    // `sh` starts a child, then becomes `sleep`, which never reaps it: once the child exits it stays a zombie. (The
    // child outlives the `exec`, or `sh` itself might reap it first.)
    const parent = spawn('sh', ['-c', '(sleep 0.2) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
      await until(() => processState(zombie) === 'Z', 5000, `process ${zombie} a zombie`);
      await writeFile(join(dir, LOCK_FILE), String(zombie));
      const opened = await openDataDirectory(dir, noFailure);
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
      await opened.close();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that is gone', async () => {
    const gone = spawn('true');
    const pid = gone.pid!;
    await new Promise((resolve) => gone.once('exit', resolve));
    await until(() => processState(pid) === undefined, 5000, `process ${pid} gone`);
    await writeFile(join(dir, LOCK_FILE), String(pid));
    const opened = await openDataDirectory(dir, noFailure);
    await opened.close();
  });
});
