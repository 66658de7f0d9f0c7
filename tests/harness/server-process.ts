/**
 * The reference server as a child process (`bin/fauna-reference-server.js`): started with a data directory or
 * in memory, ready once it prints its URL, and killable with any signal — the crash test SIGKILLs it, the
 * benchmarks measure its memory from outside, and the driver tests talk to it as network clients do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('../../bin/fauna-reference-server.js', import.meta.url));
const READY = /listening on (http:\/\/\S+)/;

export interface ServerProcess {
  readonly url: string;
  readonly rootSecret: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  rootSecret: string;
  dataDir?: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Extra server flags, e.g. `['--max-streams-per-secret', '1']`. */
  serverArgs?: string[];
  startTimeoutMs?: number;
}

export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const args = [...(options.nodeArgs ?? []), LAUNCHER, '--port', '0', '--root-secret', options.rootSecret];
  if (options.dataDir !== undefined) args.push('--data-dir', options.dataDir);
  args.push(...(options.serverArgs ?? []));
  const env = { ...process.env };
  delete env.FAUNA_ROOT_SECRET;
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill('SIGKILL');
      reject(new Error(`reference server did not start within ${options.startTimeoutMs ?? 20_000} ms: ${stderr}`));
    }, options.startTimeoutMs ?? 20_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = READY.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: match[1]!, rootSecret: options.rootSecret, child, stderr: () => stderr, kill });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`reference server exited before it was ready (${code ?? signal}): ${stderr}`));
    });
  });
}
