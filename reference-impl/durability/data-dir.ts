/**
 * `--data-dir DIR`: what lives in the directory and how the server takes it over.
 *
 * - `commit.log` — the commit log (`commit-log.ts`), replayed on start;
 * - `server.key` — 32 random bytes created once: the key the server signs event-source tokens and cursors
 *   with, so tokens and cursors issued before a restart stay valid after it;
 * - `lock` — the pid of the server using the directory (and, on Linux, its start time); a second live server is
 *   refused, a stale lock left by a killed one (gone, a zombie not yet reaped, or its pid now another process's) is
 *   taken over.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/store.js';
import type { CommitLog, TransactionManager } from '../txn/transaction-manager.js';
import { CommitLogWriter, readCommitLog } from './commit-log.js';
import { replayCommitLog, type RecoverySummary } from './recovery.js';
import { encodeTransaction } from './transaction-codec.js';

export const COMMIT_LOG_FILE = 'commit.log';
export const SERVER_KEY_FILE = 'server.key';
export const LOCK_FILE = 'lock';
const SERVER_KEY_BYTES = 32;

export class DataDirectoryError extends Error {}

export interface DataDirectory {
  readonly path: string;
  /** The persistent server key (see above). */
  readonly serverKey: Buffer;
  /** Replays the log into `store`, then makes `transactions` log every later commit. Call once, before serving. */
  recover(store: Store, transactions: TransactionManager): RecoverySummary & { droppedBytes: number };
  /** Flushes the log and releases the directory. */
  close(): Promise<void>;
}

/**
 * Opens (creating if needed) a data directory. `onLogFailure` hears about a failed write or fsync: the
 * server can no longer acknowledge commits and should stop.
 */
export async function openDataDirectory(path: string, onLogFailure: (error: unknown) => void): Promise<DataDirectory> {
  await mkdir(path, { recursive: true });
  await takeLock(join(path, LOCK_FILE));
  const serverKey = await loadOrCreateKey(join(path, SERVER_KEY_FILE));
  const logPath = join(path, COMMIT_LOG_FILE);
  const contents = await readCommitLog(logPath);
  const writer = await CommitLogWriter.open(logPath, contents.validBytes, onLogFailure);
  let recovered = false;
  return {
    path,
    serverKey,
    recover(store, transactions) {
      if (recovered) throw new DataDirectoryError('the data directory was already recovered');
      recovered = true;
      const summary = replayCommitLog(store, contents.payloads);
      const log: CommitLog = { append: (records) => writer.append(encodeTransaction(records)), durable: () => writer.durable() };
      transactions.setCommitLog(log);
      return { ...summary, droppedBytes: contents.droppedBytes };
    },
    async close() {
      await writer.close();
      await rm(join(path, LOCK_FILE), { force: true });
    },
  };
}

async function takeLock(lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const file = await open(lockPath, 'wx');
      const started = procStat(process.pid)?.startTime;
      await file.writeFile(started === undefined ? String(process.pid) : `${process.pid} ${started}`);
      await file.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [pidText, started] = (await readFile(lockPath, 'utf8').catch(() => '')).trim().split(' ');
    const holder = Number(pidText);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && holds(holder, started)) {
      throw new DataDirectoryError(`data directory is in use by process ${holder} (${lockPath})`);
    }
    // A stale lock from a server that was killed: take the directory over.
    await rm(lockPath, { force: true });
  }
  throw new DataDirectoryError(`cannot lock ${lockPath}`);
}

/**
 * Whether process `pid`, which a lock names with its start time `started` (when it was written with one), still
 * holds it. Two processes /proc shows can stand for one that is gone:
 * - a zombie (state Z): a process that exited but that its parent has not reaped yet still answers signal 0, yet
 *   holds no file open; where no init reaps orphans (a container without one), a killed server stays a zombie, and
 *   a restart would otherwise be refused for good;
 * - another process that was given the same pid since (common in containers, whose pids are few and low): its start
 *   time differs from the one the lock holds.
 * Elsewhere than Linux only signal 0 is asked.
 */
function holds(pid: number, started: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  if (stat === undefined) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return started === undefined || stat.startTime === started;
}

/** A process's state letter and start time (clock ticks after boot) from /proc/<pid>/stat; undefined elsewhere. */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (command) state ppid …`: the command may hold spaces and parentheses, so fields are counted after the last
  // ')'; the state is field 3 and the start time field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state === undefined || startTime === undefined ? undefined : { state, startTime };
}

async function loadOrCreateKey(keyPath: string): Promise<Buffer> {
  try {
    const key = await readFile(keyPath);
    if (key.length !== SERVER_KEY_BYTES) throw new DataDirectoryError(`${keyPath} is damaged (expected ${SERVER_KEY_BYTES} bytes)`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(SERVER_KEY_BYTES);
  await writeFile(keyPath, key, { mode: 0o600, flag: 'wx' });
  return key;
}
