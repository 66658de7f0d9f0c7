/**
 * Reference server throughput over HTTP/1.1 with 64 keep-alive connections, each figure divided by a bare
 * node:http server answering with the same response (status, headers, body) (issue 8 goal: ratio ≥ 0.6): Get by ref, Create,
 * and Paginate(size 64) over a collection's documents. Each figure gets a fresh server holding the same 200
 * documents, so the documents one figure creates do not weigh on the next. A last figure calibrates the ratio in
 * CPU time on this machine (see `calibrate`).
 */
import { request } from 'undici';
import { BENCH_ROOT_SECRET, compareLoads, ratioResult, type BenchContext, type BenchResult, type LoadComparison } from './bench-context.js';

const HEADERS = { authorization: `Bearer ${BENCH_ROOT_SECRET}`, 'x-faunadb-api-version': '4', 'content-type': 'application/json' };
const MIN_RATIO = 0.6;

async function post(url: string, expr: unknown): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const res = await request(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(expr),
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (typeof value === 'string' && !CONNECTION_HEADERS.has(name)) headers[name] = value;
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
  const docs = Array.from({ length: 200 }, (_, i) => ({
    create: { ref: { collection: 'bench' }, id: String(i + 1) },
    params: { object: { data: { object: { n: i, name: `item ${i}`, tags: ['a', 'b'] } } } },
  }));
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
    const { measured, baseline, roundRatios, cpu } = await compareLoads(
      ctx,
      { url: server.url, headers: HEADERS, body, pid: server.pid },
      { url: bare.url, headers: HEADERS, body, pid: bare.pid },
    );
    const result = ratioResult(name, measured, baseline, MIN_RATIO);
    return { ...result, detail: { ...result.detail, responseBytes: Buffer.byteLength(probe.text), ...comparisonDetail(roundRatios, cpu) } };
  } finally {
    await server.stop();
  }
}

/**
 * Every round's ratio and, when measured, both servers' CPU time per request. CPU per request swings far less than
 * req/s on a shared machine: the ratio of the two CPU costs is a steadier view of the same comparison (what the
 * ratio would be if the server's CPU were the only limit).
 */
function comparisonDetail(roundRatios: readonly number[], cpu: LoadComparison['cpu']): Record<string, number | string> {
  const cpuDetail: Record<string, number> = cpu
    ? {
        serverCpuMicrosPerRequest: cpu.measured,
        baselineCpuMicrosPerRequest: cpu.baseline,
        cpuCostRatio: Math.round((cpu.baseline / cpu.measured) * 100) / 100,
      }
    : {};
  return { roundRatios: roundRatios.join(' '), ...cpuDetail };
}

/** CPU time the calibration's stand-in handler spends per request. */
const CALIBRATION_BUSY_MICROS = 15;

/**
 * The bare server answering the reference server's response to `expr`, against a variant of itself (`variant`):
 * measured the same way as the reference server, so its ratio reads on the same scale.
 */
async function bareVariant(
  ctx: BenchContext,
  name: string,
  expr: unknown,
  variant: { busyMicros?: number; endOfTurnWrites?: boolean },
  detail: Record<string, number | string>,
): Promise<BenchResult> {
  const server = await loadedServer(ctx);
  let probe: Awaited<ReturnType<typeof post>>;
  try {
    probe = await post(server.url, expr);
  } finally {
    await server.stop();
  }
  const body = JSON.stringify(expr);
  const changed = await ctx.bareServer(probe.text, probe.headers, probe.status, variant);
  const bare = await ctx.bareServer(probe.text, probe.headers, probe.status);
  const { measured, baseline, roundRatios, cpu } = await compareLoads(
    ctx,
    { url: changed.url, headers: HEADERS, body, pid: changed.pid },
    { url: bare.url, headers: HEADERS, body, pid: bare.pid },
  );
  return {
    name,
    value: measured.requestsPerSecond,
    unit: 'req/s',
    baseline: baseline.requestsPerSecond,
    ratio: Math.round((measured.requestsPerSecond / baseline.requestsPerSecond) * 100) / 100,
    detail: { ...detail, ...comparisonDetail(roundRatios, cpu) },
  };
}

/**
 * What the ratio means in CPU time on this machine: the bare server against a copy of itself that also keeps the
 * CPU busy for `CALIBRATION_BUSY_MICROS` per request (a stand-in for a handler's work). The ratio it scores is what a
 * server whose handler adds that much CPU time to bare node:http scores here; the load generator shares the
 * machine's cores, so the answer depends on the machine, which is why it is measured.
 */
function calibrate(ctx: BenchContext, expr: unknown): Promise<BenchResult> {
  return bareVariant(
    ctx,
    `Calibration: bare + ${CALIBRATION_BUSY_MICROS} µs busy work per request`,
    expr,
    { busyMicros: CALIBRATION_BUSY_MICROS },
    { busyMicrosPerRequest: CALIBRATION_BUSY_MICROS },
  );
}

/**
 * How much of a ratio the reference server's end-of-turn writes account for: the bare server given the same
 * (its answers held to the end of the event loop's turn) against itself writing each answer at once.
 */
function endOfTurnBaseline(ctx: BenchContext, expr: unknown): Promise<BenchResult> {
  return bareVariant(ctx, 'Bare with end-of-turn writes, against bare', expr, { endOfTurnWrites: true }, { writes: 'end of turn' });
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const get = { get: { ref: { collection: 'bench' }, id: '7' } };
  return [
    await measure(ctx, 'Get by ref (HTTP/1.1, 64 conns)', get),
    await measure(ctx, 'Create (HTTP/1.1, 64 conns)', {
      create: { collection: 'bench' },
      params: { object: { data: { object: { n: 1, name: 'new' } } } },
    }),
    await measure(ctx, 'Paginate size 64 (HTTP/1.1, 64 conns)', { paginate: { documents: { collection: 'bench' } }, size: 64 }),
    await calibrate(ctx, get),
    await endOfTurnBaseline(ctx, get),
  ];
}
