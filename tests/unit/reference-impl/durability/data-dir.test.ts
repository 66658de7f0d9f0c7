// The data directory's lock (durability/data-dir.ts): a live server's lock refuses a second server; the lock of a
// server that was killed is taken over, also while the killed process is a zombie that nobody has reaped, and when its
// pid has since been given to another process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, openDataDirectory } from '../../../../reference-impl/durability/data-dir.js';

const noFailure = () => {};

/** Field `n` (1-based, as `man proc` numbers them) of a process's /proc stat line, or undefined once it is gone. */
function statField(pid: number, n: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3];
  } catch {
    return undefined;
  }
}
const processState = (pid: number) => statField(pid, 3);

/** Polls `condition` until it holds, failing after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not seen in ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `body` with the pid of a live `sleep` process, killed afterwards. */
async function whileSleeping(body: (pid: number) => Promise<void>): Promise<void> {
  const sleeper = spawn('sleep', ['30']);
  try {
    await body(sleeper.pid as number);
  } finally {
    sleeper.kill('SIGKILL');
  }
}

describe('data directory lock', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fc-data-dir-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses the directory while the process named in its lock is alive', async () => {
    await whileSleeping(async (holder) => {
      await writeFile(join(dir, LOCK_FILE), String(holder));
      await expect(openDataDirectory(dir, noFailure)).rejects.toThrow(`data directory is in use by process ${holder}`);
    });
  });

  it.runIf(process.platform === 'linux')(
    'writes its own pid and start time into the lock, and refuses a live holder named with its own start time',
    async () => {
      const opened = await openDataDirectory(dir, noFailure);
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid} ${statField(process.pid, 22)}`);
      await opened.close();
      await whileSleeping(async (holder) => {
        await until(() => statField(holder, 22) !== undefined, 5000, 'the holder started');
        await writeFile(join(dir, LOCK_FILE), `${holder} ${statField(holder, 22)}`);
        await expect(openDataDirectory(dir, noFailure)).rejects.toThrow(`data directory is in use by process ${holder}`);
      });
    },
  );

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose pid is now another process: its start time is not the one written',
    async () => {
      await whileSleeping(async (other) => {
        await until(() => statField(other, 22) !== undefined, 5000, 'the other process started');
        await writeFile(join(dir, LOCK_FILE), `${other} 1`);
        const opened = await openDataDirectory(dir, noFailure);
        await opened.close();
      });
    },
  );

  it.runIf(process.platform === 'linux')('takes over the lock of a process that exited but was never reaped (a zombie)', async () => {
    // `sh` starts a child, then becomes `sleep`, which never reaps it: once the child exits it stays a zombie. (The
    // child outlives the `exec`, or `sh` itself might reap it first.)
    const parent = spawn('sh', ['-c', '(sleep 0.2) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) =>
        parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      await until(() => processState(zombie) === 'Z', 5000, `process ${zombie} a zombie`);
      await writeFile(join(dir, LOCK_FILE), String(zombie));
      const opened = await openDataDirectory(dir, noFailure);
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8').split(' ')[0]).toBe(String(process.pid));
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
