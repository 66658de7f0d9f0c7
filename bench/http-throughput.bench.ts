/**
 * Reference server throughput over HTTP/1.1 with 64 keep-alive connections, each figure divided by a bare
 * node:http server answering with the same response (status, headers, body) (issue 8 goal: ratio ≥ 0.6): Get by ref, Create,
 * and Paginate(size 64) over a collection's documents. Each figure gets a fresh server holding the same 200
 * documents, so the documents one figure creates do not weigh on the next.
 */
import { request } from 'undici';
import { BENCH_ROOT_SECRET, compareLoads, ratioResult, type BenchContext, type BenchResult } from './bench-context.js';

const HEADERS = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'x-faunadb-api-version': '4', 'content-type': 'application/json' };
const MIN_RATIO = 0.6;

async function post(url: string, expr: unknown): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const res = await request(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(expr), headersTimeout: 30_000, bodyTimeout: 30_000 });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string' && !CONNECTION_HEADERS.has(name)) headers[name] = value;
  return { status: res.statusCode, text: await res.body.text(), headers };
}

/** Headers node:http writes itself (or that describe the connection), left out of what the baseline copies. */
const CONNECTION_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** A reference server with the `bench` collection and its 200 documents; returns its query URL. */
async function loadedServer(ctx: BenchContext): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const server = await ctx.referenceServer();
  const url = `${server.url}/`;
  const setup = await post(url, { create_collection: { object: { name: 'bench' } } });
  if (setup.status !== 201) throw new Error(`cannot create the bench collection: ${setup.text}`);
  const docs = Array.from({ length: 200 }, (_, i) => ({ create: { ref: { collection: 'bench' }, id: String(i + 1) }, params: { object: { data: { object: { n: i, name: `item ${i}`, tags: ['a', 'b'] } } } } }));
  const loaded = await post(url, docs);
  if (loaded.status >= 300) throw new Error(`cannot load documents: ${loaded.text.slice(0, 200)}`);
  return { url, pid: server.child.pid!, stop: () => server.kill('SIGTERM') };
}

async function measure(ctx: BenchContext, name: string, expr: unknown): Promise<BenchResult> {
  const server = await loadedServer(ctx);
  try {
    const probe = await post(server.url, expr);
    if (probe.status >= 300) throw new Error(`${name}: the reference server answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    const body = JSON.stringify(expr);
    // The baseline sends the reference server's response, headers included: the metrics headers the protocol asks
    // for cost node:http a few µs per response, which is wire format, not the server's work.
    const bare = await ctx.bareServer(probe.text, probe.headers, probe.status);
    const { measured, baseline, roundRatios, cpu } = await compareLoads(ctx, { url: server.url, headers: HEADERS, body, pid: server.pid }, { url: bare.url, headers: HEADERS, body, pid: bare.pid });
    const result = ratioResult(name, measured, baseline, MIN_RATIO);
    // CPU per request swings far less than req/s on a shared machine: the ratio of the two servers' CPU costs is a
    // steadier view of the same comparison (what the ratio would be if the server's CPU were the only limit).
    const cpuDetail: Record<string, number> = cpu ? { serverCpuMicrosPerRequest: cpu.measured, baselineCpuMicrosPerRequest: cpu.baseline, cpuCostRatio: Math.round((cpu.baseline / cpu.measured) * 100) / 100 } : {};
    return { ...result, detail: { ...result.detail, responseBytes: Buffer.byteLength(probe.text), roundRatios: roundRatios.join(' '), ...cpuDetail } };
  } finally {
    await server.stop();
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  return [
    await measure(ctx, 'Get by ref (HTTP/1.1, 64 conns)', { get: { ref: { collection: 'bench' }, id: '7' } }),
    await measure(ctx, 'Create (HTTP/1.1, 64 conns)', { create: { collection: 'bench' }, params: { object: { data: { object: { n: 1, name: 'new' } } } } }),
    await measure(ctx, 'Paginate size 64 (HTTP/1.1, 64 conns)', { paginate: { documents: { collection: 'bench' } }, size: 64 }),
  ];
}
