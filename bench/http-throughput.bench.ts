/**
 * Reference server throughput over HTTP/1.1 with 64 keep-alive connections, each figure divided by a bare
 * node:http server answering a JSON body of the same size (issue 8 goal: ratio ≥ 0.6): Get by ref, Create,
 * and Paginate(size 64) over a collection's documents.
 */
import { request } from 'undici';
import { BENCH_ROOT_SECRET, ratioResult, type BenchContext, type BenchResult } from './bench-context.js';

const HEADERS = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'x-faunadb-api-version': '4', 'content-type': 'application/json' };
const MIN_RATIO = 0.6;

async function post(url: string, expr: unknown): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(expr), headersTimeout: 30_000, bodyTimeout: 30_000 });
  return { status: res.statusCode, text: await res.body.text() };
}

async function measure(ctx: BenchContext, name: string, url: string, expr: unknown): Promise<BenchResult> {
  const probe = await post(url, expr);
  if (probe.status >= 300) throw new Error(`${name}: the reference server answered ${probe.status}: ${probe.text.slice(0, 200)}`);
  const body = JSON.stringify(expr);
  const measured = await ctx.load({ url, headers: HEADERS, body });
  const bare = await ctx.bareServer(probe.text);
  const baseline = await ctx.load({ url: bare.url, headers: HEADERS, body });
  return { ...ratioResult(name, measured, baseline, MIN_RATIO), detail: { ...ratioResult(name, measured, baseline, MIN_RATIO).detail, responseBytes: Buffer.byteLength(probe.text) } };
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const server = await ctx.referenceServer();
  const url = `${server.url}/`;
  const setup = await post(url, { create_collection: { object: { name: 'bench' } } });
  if (setup.status !== 201) throw new Error(`cannot create the bench collection: ${setup.text}`);
  const docs = Array.from({ length: 200 }, (_, i) => ({ create: { ref: { collection: 'bench' }, id: String(i + 1) }, params: { object: { data: { object: { n: i, name: `item ${i}`, tags: ['a', 'b'] } } } } }));
  const loaded = await post(url, docs);
  if (loaded.status >= 300) throw new Error(`cannot load documents: ${loaded.text.slice(0, 200)}`);
  const results = [
    await measure(ctx, 'Get by ref (HTTP/1.1, 64 conns)', url, { get: { ref: { collection: 'bench' }, id: '7' } }),
    await measure(ctx, 'Create (HTTP/1.1, 64 conns)', url, { create: { collection: 'bench' }, params: { object: { data: { object: { n: 1, name: 'new' } } } } }),
    await measure(ctx, 'Paginate size 64 (HTTP/1.1, 64 conns)', url, { paginate: { documents: { collection: 'bench' } }, size: 64 }),
  ];
  return results;
}
