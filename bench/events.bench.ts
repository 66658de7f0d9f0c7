/**
 * Write→event latency of event streams: with 1, 100 and 1000 streams open on one source of a reference server
 * child process, each write's `add` event is timed from the moment the write is sent to its arrival on every
 * stream (issue 5 goal: p99 ≤ 50 ms with 1000 streams). The time includes the write request itself.
 *
 * Writes start once every stream has received its first event (the `status` event that says it is open), and
 * enough writes are made that the p99 describes the deliveries rather than the single slowest write.
 */
import { StringDecoder } from 'node:string_decoder';
import { Agent, type Dispatcher } from 'undici';
import { BENCH_ROOT_SECRET, processCpuMicros, type BenchContext, type BenchResult } from './bench-context.js';

const LEVELS = [1, 100, 1000] as const;
const GOAL_P99_MS = 50;
const OPEN_TIMEOUT_MS = 60_000;
const ARRIVAL_TIMEOUT_MS = 30_000;

/**
 * An open stream that resolves a waiter when the `add` event of a document id arrives. It is a bare undici
 * dispatch handler that gets the body's bytes as they come off the socket, and it notes the time when it gets them
 * but reads them only after this turn of the event loop: with 1,000 streams in this one process, the streams'
 * bytes are taken in turn, so whatever the reader spends on one stream (a Node stream, decoding, JSON.parse)
 * would be counted as latency of the streams read after it.
 */
class TimedStream implements Dispatcher.DispatchHandler {
  private readonly waiters = new Map<string, (at: number) => void>();
  private readonly decoder = new StringDecoder('utf8');
  private buffered = '';
  /** Bytes received and not yet read, with the time each arrived. */
  private readonly chunks: Array<{ chunk: Buffer; at: number }> = [];
  private controller: Dispatcher.DispatchController | undefined;
  private closed = false;
  private onOpen: { resolve: () => void; reject: (error: Error) => void } | undefined;

  /** Resolves once the stream's first event (its `status`) has arrived. */
  static open(url: string, dispatcher: Agent, token: string): Promise<TimedStream> {
    const stream = new TimedStream();
    const opened = new Promise<void>((resolve, reject) => (stream.onOpen = { resolve, reject }));
    dispatcher.dispatch({ origin: url, path: '/stream/1', method: 'POST', headers: AUTH, body: JSON.stringify({ token }) }, stream);
    return withTimeout(opened, OPEN_TIMEOUT_MS, 'a stream did not send its status event').then(() => stream);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number): void {
    if (statusCode !== 200) controller.abort(new Error(`stream answered ${statusCode}`));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks.length === 0) readSoon(this);
    this.chunks.push({ chunk, at: performance.now() });
  }

  /** Reads the events in what arrived since the last call. */
  readArrived(): void {
    for (const { chunk, at } of this.chunks.splice(0)) {
      this.buffered += this.decoder.write(chunk);
      for (let newline = this.buffered.indexOf('\n'); newline >= 0; newline = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, newline).trim();
        this.buffered = this.buffered.slice(newline + 1);
        if (line !== '') this.received(JSON.parse(line) as { type: string; data?: { '@doc'?: { id: string } } }, at);
      }
    }
  }

  onResponseEnd(): void {
    this.failOpen(new Error('a stream ended before its status event'));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.failOpen(error);
  }

  arrival(id: string): Promise<number> {
    return new Promise((resolve) => this.waiters.set(id, resolve));
  }

  close(): void {
    this.closed = true;
    this.controller?.abort(new Error('bench done'));
  }

  private received(event: { type: string; data?: { '@doc'?: { id: string } } }, at: number): void {
    if (this.onOpen !== undefined && event.type === 'status') {
      this.onOpen.resolve();
      this.onOpen = undefined;
      return;
    }
    const id = event.data?.['@doc']?.id;
    if (event.type !== 'add' || id === undefined) return;
    const waiter = this.waiters.get(id);
    if (waiter === undefined) return;
    this.waiters.delete(id);
    waiter(at);
  }

  private failOpen(error: Error): void {
    if (this.closed) return;
    this.onOpen?.reject(error);
    this.onOpen = undefined;
  }
}

/** Streams with bytes not yet read: read once this turn's socket reads are over. */
const unread: TimedStream[] = [];

function readSoon(stream: TimedStream): void {
  if (unread.length === 0) setImmediate(readUnread);
  unread.push(stream);
}

function readUnread(): void {
  for (const stream of unread.splice(0)) stream.readArrived();
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const AUTH = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'content-type': 'application/json' };

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...AUTH, ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const server = await ctx.referenceServer();
  const { url } = server;
  const pid = server.child.pid!;
  // At least 100 writes, so that with one stream the p99 is not simply the slowest write.
  const writes = ctx.quick ? 100 : 300;
  const dispatcher = new Agent({ connections: null, pipelining: 0 });
  const results: BenchResult[] = [];
  try {
    for (const [level, count] of LEVELS.entries()) {
      const collection = `Bench${level}`;
      await post(url, '/', { create_collection: { object: { name: collection } } }, { 'x-faunadb-api-version': '4' });
      const source = (await post(url, '/query/1', { query: `${collection}.all().eventSource()` }, { 'x-format': 'tagged' })) as {
        data: { '@stream': string };
      };
      const token = source.data['@stream'];
      const streams = await Promise.all(Array.from({ length: count }, () => TimedStream.open(url, dispatcher, token)));
      const samples: number[] = [];
      const serverCpuBefore = processCpuMicros(pid) / 1000;
      const clientCpuBefore = process.cpuUsage();
      for (let i = 0; i < writes; i++) {
        // The id is chosen up front so every stream can wait for it before the write is sent.
        const id = String(9_000_000_000_000_000n + BigInt(level * 100_000 + i));
        const arrivals = Promise.all(streams.map((s) => s.arrival(id)));
        const sent = performance.now();
        await post(
          url,
          '/',
          { create: { ref: { collection }, id }, params: { object: { data: { object: { i } } } } },
          { 'x-faunadb-api-version': '4' },
        );
        for (const at of await withTimeout(arrivals, ARRIVAL_TIMEOUT_MS, `write ${i}: not every stream got its event`))
          samples.push(at - sent);
      }
      const serverCpuMs = processCpuMicros(pid) / 1000 - serverCpuBefore;
      const clientCpu = process.cpuUsage(clientCpuBefore);
      for (const s of streams) s.close();
      samples.sort((a, b) => a - b);
      const p99 = round(percentile(samples, 0.99));
      results.push({
        name: `write→event latency p99, ${count} open stream(s)`,
        value: p99,
        unit: 'ms',
        ...(count === 1000 ? { goal: `≤ ${GOAL_P99_MS} ms`, met: p99 <= GOAL_P99_MS } : {}),
        detail: {
          p50Ms: round(percentile(samples, 0.5)),
          maxMs: round(samples[samples.length - 1]!),
          writes,
          samples: samples.length,
          serverCpuMsPerWrite: round(serverCpuMs / writes),
          clientCpuMsPerWrite: round((clientCpu.user + clientCpu.system) / 1000 / writes),
        },
      });
    }
  } finally {
    await dispatcher.close();
  }
  return results;
}
