/**
 * Resident memory of a reference server child process after loading 100,000 small documents into a
 * collection with two indexes (issue 8 goal: ≤ 200 MB RSS). Documents go in 1,000 per request.
 */
import { request } from 'undici';
import { BENCH_ROOT_SECRET, type BenchContext, type BenchResult } from './bench-context.js';

const HEADERS = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'x-faunadb-api-version': '4' };
const DOCUMENTS = 100_000;
const BATCH = 1_000;
const GOAL_MB = 200;

async function post(url: string, expr: unknown): Promise<void> {
  const res = await request(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(expr),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`answered ${res.statusCode}: ${text.slice(0, 300)}`);
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const server = await ctx.referenceServer();
  const url = `${server.url}/`;
  const idle = await ctx.rssBytes(server.child.pid!);
  await post(url, { create_collection: { object: { name: 'small' } } });
  await post(url, {
    create_index: {
      object: { name: 'small_by_group', source: { collection: 'small' }, terms: [{ object: { field: ['data', 'group'] } }] },
    },
  });
  await post(url, {
    create_index: {
      object: {
        name: 'small_by_n',
        source: { collection: 'small' },
        values: [{ object: { field: ['data', 'n'] } }, { object: { field: ['ref'] } }],
      },
    },
  });
  const started = Date.now();
  for (let first = 0; first < DOCUMENTS; first += BATCH) {
    const batch = Array.from({ length: BATCH }, (_, i) => ({
      create: { collection: 'small' },
      params: { object: { data: { object: { n: first + i, group: (first + i) % 100, label: `doc-${first + i}` } } } },
    }));
    await post(url, batch);
  }
  const loadSeconds = (Date.now() - started) / 1000;
  const rss = await ctx.rssBytes(server.child.pid!);
  const mb = Math.round(rss / (1024 * 1024));
  return [
    {
      name: 'RSS after 100k docs + 2 indexes',
      value: mb,
      unit: 'MB',
      goal: `≤ ${GOAL_MB} MB`,
      met: mb <= GOAL_MB,
      detail: { idleMb: Math.round(idle / (1024 * 1024)), loadSeconds, docsPerSecond: Math.round(DOCUMENTS / loadSeconds) },
    },
  ];
}
