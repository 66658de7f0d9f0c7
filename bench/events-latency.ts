// Write→event latency of event streams against an embedded reference server: with 1, 100 and 1000 streams
// open on one source, each write's `add` event is timed from the moment the write is sent to its arrival on
// every stream (the goal: p99 ≤ 50 ms with 1000 streams).
//
//   tsx bench/events-latency.ts [--writes 20] [--streams 1,100,1000]
//
// Prints one JSON object: {benchmark, writes, levels: [{streams, samples, p50Ms, p99Ms, maxMs}]}.
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { startReferenceServer } from '../reference-impl/server.js';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '20' }, streams: { type: 'string', default: '1,100,1000' } } });
const writes = Number(values.writes);
const levels = values.streams.split(',').map(Number);
if (!Number.isInteger(writes) || writes < 1) throw new Error('--writes must be a positive integer');
if (levels.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--streams must list positive integers');

const server = await startReferenceServer({ port: 0 });
const dispatcher = new Agent({ connections: null, pipelining: 0 });
const auth = { authorization: `Bearer ${server.rootSecret}`, 'content-type': 'application/json' };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { ...auth, ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** An open stream that resolves a waiter when a data event for a document id arrives. */
class TimedStream {
  private readonly waiters = new Map<string, (at: number) => void>();
  private readonly controller = new AbortController();

  static async open(token: string): Promise<TimedStream> {
    const stream = new TimedStream();
    const res = await fetch(`${server.url}/stream/1`, { method: 'POST', headers: auth, body: JSON.stringify({ token }), signal: stream.controller.signal, dispatcher } as RequestInit);
    if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
    void stream.read(res.body!.getReader());
    return stream;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const at = performance.now();
        buffered += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (line === '') continue;
          const event = JSON.parse(line) as { type: string; data?: { '@doc'?: { id: string } } };
          const id = event.data?.['@doc']?.id;
          if (event.type === 'add' && id !== undefined) this.waiters.get(id)?.(at);
        }
      }
    } catch {
      // Aborted by close().
    }
  }

  arrival(id: string): Promise<number> {
    return new Promise((resolve) => this.waiters.set(id, resolve));
  }

  close(): void {
    this.controller.abort();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const results = [];
for (const [level, count] of levels.entries()) {
  const collection = `Bench${level}`;
  await post('/', { create_collection: { object: { name: collection } } }, { 'x-faunadb-api-version': '4' });
  const token = (await post('/query/1', { query: `${collection}.all().eventSource()` }, { 'x-format': 'tagged' })).data['@stream'] as string;
  const streams = await Promise.all(Array.from({ length: count }, () => TimedStream.open(token)));
  const samples: number[] = [];
  for (let i = 0; i < writes; i++) {
    // The id is chosen up front so every stream can wait for it before the write is sent.
    const id = String(9_000_000_000_000_000n + BigInt(level * 100_000 + i));
    const arrivals = streams.map((s) => s.arrival(id));
    const sent = performance.now();
    await post('/', { create: { ref: { collection }, id }, params: { object: { data: { object: { i } } } } }, { 'x-faunadb-api-version': '4' });
    for (const at of await Promise.all(arrivals)) samples.push(at - sent);
  }
  for (const s of streams) s.close();
  samples.sort((a, b) => a - b);
  results.push({ streams: count, samples: samples.length, p50Ms: round(percentile(samples, 0.5)), p99Ms: round(percentile(samples, 0.99)), maxMs: round(samples[samples.length - 1]!) });
}
await server.close();
await dispatcher.close();
console.log(JSON.stringify({ benchmark: 'events-latency', writes, levels: results }, null, 2));
