/**
 * Paginate(size 64) latency on index sets of 1k, 10k and 100k entries, one request at a time against a
 * reference server child process (issue 4 goal: 100k ÷ 1k p50 ≤ 1.5, i.e. a page costs O(log n + size)).
 * Pages start at random client-built cursors, so every read seeks into the index rather than reading its head.
 */
import { postV4, type BenchContext, type BenchResult } from './bench-context.js';

const PAGE_SIZE = 64;
const WRITE_BATCH = 5_000;
const SIZES = [1_000, 10_000, 100_000] as const;
const GOAL_RATIO = 1.5;

async function post(url: string, expr: unknown): Promise<{ data: unknown[] }> {
  return (JSON.parse(await postV4(url, expr)) as { resource: { data: unknown[] } }).resource;
}

/** A collection of `entries` documents `{i}` and an active index covering `i`, written in batches. */
async function prepare(url: string, name: string, entries: number): Promise<void> {
  await post(url, { create_collection: { object: { name } } });
  await post(url, {
    create_index: {
      object: { name: `${name}_by_i`, source: { collection: name }, values: [{ object: { field: ['data', 'i'] } }], active: true },
    },
  });
  for (let from = 0; from < entries; from += WRITE_BATCH) {
    const batch = Array.from({ length: Math.min(WRITE_BATCH, entries - from) }, (_, k) => from + k);
    await post(url, {
      foreach: { lambda: 'i', expr: { create: { collection: name }, params: { object: { data: { object: { i: { var: 'i' } } } } } } },
      collection: batch,
    });
  }
}

interface Latency {
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

function summarise(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length) };
}

/** One page at a random client-built cursor of the set over `entries` documents; answers its latency in ms. */
async function samplePage(url: string, entries: number): Promise<number> {
  const after = Math.floor(Math.random() * (entries - PAGE_SIZE));
  const started = performance.now();
  const resource = await post(url, { paginate: { match: { index: `set_${entries}_by_i` } }, size: PAGE_SIZE, after: [after] });
  const elapsed = performance.now() - started;
  if (resource.data.length !== PAGE_SIZE) throw new Error(`set_${entries}: page at ${after} has ${resource.data.length} entries`);
  return elapsed;
}

/** Samples every set in turn each round, so warm-up and background load weigh on all sizes alike. */
async function measure(url: string, iterations: number): Promise<Map<number, Latency>> {
  for (let i = 0; i < 50; i++) for (const entries of SIZES) await samplePage(url, entries);
  const samples = new Map<number, number[]>(SIZES.map((entries) => [entries, []]));
  for (let i = 0; i < iterations; i++) for (const entries of SIZES) samples.get(entries)!.push(await samplePage(url, entries));
  return new Map(SIZES.map((entries) => [entries, summarise(samples.get(entries)!)]));
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const server = await ctx.referenceServer();
  const url = `${server.url}/`;
  const iterations = ctx.quick ? 100 : 400;
  for (const entries of SIZES) await prepare(url, `set_${entries}`, entries);
  const latencies = await measure(url, iterations);
  const results: BenchResult[] = SIZES.map((entries) => {
    const latency = latencies.get(entries)!;
    return {
      name: `Paginate 64 p50, ${entries.toLocaleString('en-US')} entries`,
      value: latency.p50Ms,
      unit: 'ms',
      detail: { ...latency, iterations },
    };
  });
  const small = latencies.get(SIZES[0])!;
  const large = latencies.get(SIZES[SIZES.length - 1])!;
  const ratio = Math.round((large.p50Ms / small.p50Ms) * 100) / 100;
  results.push({
    name: 'Paginate 64 p50, 100k ÷ 1k',
    value: large.p50Ms,
    unit: 'ms',
    baseline: small.p50Ms,
    ratio,
    goal: `ratio ≤ ${GOAL_RATIO}`,
    met: ratio <= GOAL_RATIO,
    detail: { meanRatio: Math.round((large.meanMs / small.meanMs) * 100) / 100 },
  });
  return results;
}
