/**
 * Login and Identify latency, one request at a time over HTTP against an in-process reference server. Both
 * are dominated by BCrypt (Identify: one comparison; Login: one comparison plus hashing the new token's
 * secret), so each figure names the cost. Cost 4 is what the test runs use; 10 is the server's production-like
 * setting.
 */
import type { BenchContext, BenchResult } from './bench-context.js';
import { startReferenceServer } from '../reference-impl/server.js';

const COSTS = [4, 10] as const;

async function query(url: string, secret: string, body: unknown): Promise<{ status: number; resource: { ref: unknown } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-faunadb-api-version': '4' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json()) as { resource: { ref: unknown } };
  return { status: res.status, resource: json.resource };
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length),
    p50Ms: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(sorted[sorted.length - 1]!),
  };
}

async function timed(times: number, run: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function measure(bcryptCost: number, iterations: number): Promise<BenchResult[]> {
  const server = await startReferenceServer({ port: 0, bcryptCost });
  try {
    const root = server.rootSecret;
    const password = 'bench-password';
    const send = (body: unknown) => query(server.url, root, body);
    await send({ create_collection: { object: { name: 'users' } } });
    const user = await send({ create: { collection: 'users' }, params: { object: { credentials: { object: { password } } } } });
    const ref = user.resource.ref;
    const expectStatus = (status: number, want: number, what: string) => {
      if (status !== want) throw new Error(`${what} answered ${status}, expected ${want}`);
    };
    // Warm-up: JIT and connection.
    await timed(3, async () => expectStatus((await send({ identify: ref, password })).status, 200, 'Identify'));
    const login = summary(
      await timed(iterations, async () =>
        expectStatus((await send({ login: ref, params: { object: { password } } })).status, 201, 'Login'),
      ),
    );
    const identify = summary(
      await timed(iterations, async () => expectStatus((await send({ identify: ref, password })).status, 200, 'Identify')),
    );
    return [
      {
        name: `Login latency, p50 (bcrypt cost ${bcryptCost})`,
        value: login.p50Ms,
        unit: 'ms',
        detail: { ...login, iterations, bcryptCost },
      },
      {
        name: `Identify latency, p50 (bcrypt cost ${bcryptCost})`,
        value: identify.p50Ms,
        unit: 'ms',
        detail: { ...identify, iterations, bcryptCost },
      },
    ];
  } finally {
    await server.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const cost of COSTS) results.push(...(await measure(cost, ctx.quick || cost > 4 ? 10 : 50)));
  return results;
}
