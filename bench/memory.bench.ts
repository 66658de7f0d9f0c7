/**
 * Resident memory of a reference server child process after loading 100,000 small documents into a
 * collection with two indexes (issue 8 goal: ≤ 200 MB RSS). Documents go in 1,000 per request.
 */
import { postV4, type BenchContext, type BenchResult } from './bench-context.js';

const DOCUMENTS = 100_000;
const BATCH = 1_000;
const GOAL_MB = 200;

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const server = await ctx.referenceServer();
  const url = `${server.url}/`;
  const idle = await ctx.rssBytes(server.child.pid!);
  await postV4(url, { create_collection: { object: { name: 'small' } } });
  await postV4(url, {
    create_index: {
      object: { name: 'small_by_group', source: { collection: 'small' }, terms: [{ object: { field: ['data', 'group'] } }] },
    },
  });
  await postV4(url, {
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
    await postV4(url, batch);
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
