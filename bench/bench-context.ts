/**
 * What every `bench/*.bench.ts` gets: the machine's core count, quick mode, a reference server child process,
 * a bare `node:http` baseline child answering a fixed JSON body, and an autocannon load run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { request } from 'undici';
import { startServerProcess, type ServerProcess } from '../tests/harness/server-process.js';

/** One measured figure. `ratio` compares `value` with `baseline` measured in the same run. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
  /** The issue's goal, e.g. `ratio ≥ 0.6` or `≤ 200 MB`. */
  readonly goal?: string;
  /** Whether the goal is met; undefined when there is no goal. */
  readonly met?: boolean;
  /** Further numbers worth keeping (latency percentiles, counts). */
  readonly detail?: Readonly<Record<string, number | string>>;
}

export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly connections?: number;
  /** The server's process id: when given, its CPU time per request is measured too (Linux /proc). */
  readonly pid?: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time (user + system, every thread) the server spent per request, when its pid was given. */
  readonly serverCpuMicrosPerRequest?: number;
}

export const BENCH_ROOT_SECRET = 'bench-root-secret-0123456789abcdef';

const V4_HEADERS = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'content-type': 'application/json', 'x-faunadb-api-version': '4' };

/** Posts a v4 query to a reference server as its root: the answer's text, or an error with its status. */
export async function postV4(url: string, expr: unknown): Promise<string> {
  const res = await request(url, {
    method: 'POST',
    headers: V4_HEADERS,
    body: JSON.stringify(expr),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${JSON.stringify(expr).slice(0, 80)} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return text;
}

export class BenchContext {
  readonly cores = cpus().length;
  private readonly cleanups: Array<() => Promise<void>> = [];

  constructor(
    /** Shorter load runs (for a quick look, not for the README figures). */
    readonly quick: boolean,
  ) {}

  get loadSeconds(): number {
    return this.quick ? 3 : 10;
  }

  /**
   * Untimed load before each measured run, so that both servers are measured after their JIT has compiled the
   * request path (the reference server's is far longer than the bare server's, and would otherwise be measured
   * partly cold).
   */
  get warmupSeconds(): number {
    return this.quick ? 1 : 2;
  }

  /** Measured runs per server for a ratio, alternating between the two (the median run counts). */
  get rounds(): number {
    return this.quick ? 3 : 5;
  }

  /** A reference server child process (in memory unless `dataDir`), stopped when the bench ends. */
  async referenceServer(options: { dataDir?: string; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
    const server = await startServerProcess({ rootSecret: BENCH_ROOT_SECRET, ...options });
    this.cleanups.push(() => server.kill('SIGTERM'));
    return server;
  }

  /**
   * A bare node:http child process answering every request with `status`, `headers` (by default the content type
   * and `x-txn-time`; pass the reference server's own response to compare like with like) and `body`. With
   * `busyMicros`, it also keeps the CPU busy that long before each answer: a stand-in for a handler's work. With
   * `endOfTurnWrites`, it holds its answers to the end of the event loop's turn, as the reference server does
   * (reference-impl/transport/end-of-turn.ts), instead of writing each at once.
   */
  async bareServer(
    body: string,
    headers: Record<string, string> = { 'content-type': 'application/json;charset=utf-8', 'x-txn-time': '1700000000000000' },
    status = 200,
    { busyMicros = 0, endOfTurnWrites = false }: { busyMicros?: number; endOfTurnWrites?: boolean } = {},
  ): Promise<{ url: string; pid: number }> {
    const code = `
      const http = require('node:http');
      const body = Buffer.from(process.argv[1], 'utf8');
      const headers = { ...JSON.parse(process.argv[2]), 'content-length': body.length };
      const status = Number(process.argv[3]);
      const busyMs = Number(process.argv[4]) / 1000;
      const endOfTurn = process.argv[5] === 'true';
      let held = [];
      const answer = (res) => {
        res.writeHead(status, headers);
        res.end(body);
      };
      const answerHeld = () => {
        const turn = held;
        held = [];
        for (const res of turn) answer(res);
      };
      const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
        req.resume();
        req.on('end', () => {
          if (busyMs > 0) for (const until = performance.now() + busyMs; performance.now() < until; );
          if (!endOfTurn) return answer(res);
          if (held.length === 0) setImmediate(answerHeld);
          held.push(res);
        });
      });
      server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
    const child = spawn(
      process.execPath,
      ['-e', code, body, JSON.stringify(headers), String(status), String(busyMicros), String(endOfTurnWrites)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /listening on (\S+)/.exec(out);
        if (match) resolve({ url: match[1]!, pid: child.pid! });
      });
      child.once('exit', (code) => reject(new Error(`baseline server exited (${code})`)));
    });
  }

  /** An autocannon run over HTTP/1.1 keep-alive connections for `loadSeconds`, after `warmupSeconds` untimed. */
  async load(options: LoadOptions): Promise<LoadResult> {
    const run = (duration: number) =>
      autocannon({
        url: options.url,
        method: options.method ?? 'POST',
        headers: options.headers,
        body: options.body,
        connections: options.connections ?? 64,
        duration,
      });
    await run(this.warmupSeconds);
    const cpuBefore = options.pid === undefined ? undefined : processCpuMicros(options.pid);
    const result = await run(this.loadSeconds);
    const cpuSpent = cpuBefore === undefined ? undefined : processCpuMicros(options.pid!) - cpuBefore;
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      ...(cpuSpent === undefined || result.requests.total === 0
        ? {}
        : { serverCpuMicrosPerRequest: Math.round((cpuSpent / result.requests.total) * 10) / 10 }),
    };
  }

  /** Resident set size of a process, from /proc (Linux). */
  async rssBytes(pid: number): Promise<number> {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    if (!kb) throw new Error(`no VmRSS for process ${pid}`);
    return Number(kb[1]) * 1024;
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
  }
}

/**
 * CPU time (user + system, all threads) a process has used so far, in µs, from /proc (Linux; clock ticks of 10 ms):
 * a server's cost per request stays comparable when other work on the machine makes rates and latencies noisy.
 */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, so the last ')' ends it): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** What `compareLoads` found: each side's median run, every round's ratio, and each side's median CPU per request. */
export interface LoadComparison {
  readonly measured: LoadResult;
  readonly baseline: LoadResult;
  readonly roundRatios: number[];
  /** Median server CPU µs per request of each side, when both pids were given. */
  readonly cpu?: { readonly measured: number; readonly baseline: number };
}

/**
 * Loads `measured` and `baseline` in turn, `ctx.rounds` times each, and keeps each one's median run: on a small
 * machine the load generator shares the CPU with the server, and single runs swing by ±20%.
 */
export async function compareLoads(ctx: BenchContext, measured: LoadOptions, baseline: LoadOptions): Promise<LoadComparison> {
  const measuredRuns: LoadResult[] = [];
  const baselineRuns: LoadResult[] = [];
  for (let round = 0; round < ctx.rounds; round++) {
    measuredRuns.push(await ctx.load(measured));
    baselineRuns.push(await ctx.load(baseline));
  }
  const roundRatios = measuredRuns.map((run, i) => Math.round((run.requestsPerSecond / baselineRuns[i]!.requestsPerSecond) * 100) / 100);
  const measuredCpu = medianOf(measuredRuns.map((run) => run.serverCpuMicrosPerRequest));
  const baselineCpu = medianOf(baselineRuns.map((run) => run.serverCpuMicrosPerRequest));
  const cpu = measuredCpu === undefined || baselineCpu === undefined ? undefined : { measured: measuredCpu, baseline: baselineCpu };
  return { measured: medianRun(measuredRuns), baseline: medianRun(baselineRuns), roundRatios, ...(cpu ? { cpu } : {}) };
}

function medianOf(values: ReadonlyArray<number | undefined>): number | undefined {
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  const sorted = (values as number[]).slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function medianRun(runs: readonly LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A result comparing a measured rate with its baseline: `ratio = value / baseline`, goal `ratio ≥ minRatio`. */
export function ratioResult(name: string, measured: LoadResult, baseline: LoadResult, minRatio: number): BenchResult {
  const ratio = Math.round((measured.requestsPerSecond / baseline.requestsPerSecond) * 100) / 100;
  return {
    name,
    value: measured.requestsPerSecond,
    unit: 'req/s',
    baseline: baseline.requestsPerSecond,
    ratio,
    goal: `ratio ≥ ${minRatio}`,
    met: ratio >= minRatio && measured.non2xx === 0 && measured.errors === 0,
    detail: {
      p50Ms: measured.p50Ms,
      p99Ms: measured.p99Ms,
      non2xx: measured.non2xx,
      errors: measured.errors,
      baselineP99Ms: baseline.p99Ms,
    },
  };
}
