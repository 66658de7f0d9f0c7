// Paginate(size 64) latency on index sets of 1k and 100k entries against an embedded reference server, one
// request at a time over HTTP. Pages start at random client-built cursors, so each read seeks into the index;
// an O(log n + page size) Paginate keeps the 100k/1k ratio near 1 (goal: ≤ 1.5).
//
//   tsx bench/paginate.ts [--iterations 200]
//
// Prints one JSON object: {benchmark, pageSize, iterations, small: {entries, meanMs, p50Ms, p95Ms, maxMs}, large: {…}, ratioP50, ratioMean}.
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../reference-impl/server.js';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '200' } } });
const iterations = Number(values.iterations);
if (!Number.isInteger(iterations) || iterations < 1) throw new Error('--iterations must be a positive integer');
const PAGE_SIZE = 64;
const WRITE_BATCH = 5000;

const server = await startReferenceServer({ port: 0 });

async function query(body: unknown): Promise<{ status: number; resource: any }> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.rootSecret}`, 'content-type': 'application/json', 'x-faunadb-api-version': '4' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const json = (await res.json()) as { resource?: unknown };
  if (res.status >= 300) throw new Error(`${JSON.stringify(body).slice(0, 80)} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return { status: res.status, resource: json.resource };
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length), p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(sorted[sorted.length - 1]!) };
}

/** A collection of `entries` documents {i} and an index over them covering i, written in batches. */
async function prepare(name: string, entries: number): Promise<void> {
  await query({ create_collection: { object: { name } } });
  await query({ create_index: { object: { name: `${name}_by_i`, source: { collection: name }, values: [{ object: { field: ['data', 'i'] } }], active: true } } });
  for (let from = 0; from < entries; from += WRITE_BATCH) {
    const batch = Array.from({ length: Math.min(WRITE_BATCH, entries - from) }, (_, k) => from + k);
    await query({ foreach: { lambda: 'i', expr: { create: { collection: name }, params: { object: { data: { object: { i: { var: 'i' } } } } } } }, collection: batch });
  }
}

async function measure(name: string, entries: number) {
  const set = { match: { index: `${name}_by_i` } };
  const page = async (after: number) => {
    const res = await query({ paginate: set, size: PAGE_SIZE, after: [after] });
    if (res.resource.data.length !== Math.min(PAGE_SIZE, entries - after)) throw new Error(`page at ${after} has ${res.resource.data.length} entries`);
  };
  for (let i = 0; i < 20; i++) await page(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const after = Math.floor(Math.random() * (entries - PAGE_SIZE));
    const started = performance.now();
    await page(after);
    samples.push(performance.now() - started);
  }
  return { entries, ...summary(samples) };
}

try {
  await prepare('small', 1_000);
  await prepare('large', 100_000);
  const small = await measure('small', 1_000);
  const large = await measure('large', 100_000);
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  console.log(JSON.stringify({ benchmark: 'paginate', pageSize: PAGE_SIZE, iterations, small, large, ratioP50: ratio(large.p50Ms, small.p50Ms), ratioMean: ratio(large.meanMs, small.meanMs) }));
} finally {
  await server.close();
}
