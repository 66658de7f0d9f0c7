// Login and Identify latency against an embedded reference server, one request at a time over HTTP.
// Both are dominated by one BCrypt comparison, so the cost is part of the result.
//
//   tsx bench/auth-login.ts [--iterations 50] [--bcrypt-cost 4]
//
// Prints one JSON object: {benchmark, bcryptCost, iterations, login: {meanMs, p50Ms, p95Ms, maxMs}, identify: {…}}.
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../reference-impl/server.js';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '50' }, 'bcrypt-cost': { type: 'string', default: '4' } } });
const iterations = Number(values.iterations);
const bcryptCost = Number(values['bcrypt-cost']);
if (!Number.isInteger(iterations) || iterations < 1) throw new Error('--iterations must be a positive integer');
if (!Number.isInteger(bcryptCost) || bcryptCost < 4 || bcryptCost > 31) throw new Error('--bcrypt-cost must be an integer from 4 to 31');

const server = await startReferenceServer({ port: 0, bcryptCost });

async function query(secret: string, body: unknown): Promise<{ status: number; resource: any }> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-faunadb-api-version': '4' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json()) as { resource?: unknown };
  return { status: res.status, resource: json.resource };
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length), p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(sorted[sorted.length - 1]!) };
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

try {
  const root = server.rootSecret;
  const password = 'bench-password';
  await query(root, { create_collection: { object: { name: 'users' } } });
  const user = await query(root, { create: { collection: 'users' }, params: { object: { credentials: { object: { password } } } } });
  const ref = user.resource.ref;
  const expectStatus = (status: number, want: number, what: string) => {
    if (status !== want) throw new Error(`${what} answered ${status}, expected ${want}`);
  };
  // Warm-up: JIT and connection.
  await timed(3, async () => expectStatus((await query(root, { identify: ref, password })).status, 200, 'Identify'));
  const login = await timed(iterations, async () => expectStatus((await query(root, { login: ref, params: { object: { password } } })).status, 201, 'Login'));
  const identify = await timed(iterations, async () => expectStatus((await query(root, { identify: ref, password })).status, 200, 'Identify'));
  console.log(JSON.stringify({ benchmark: 'auth-login', bcryptCost, iterations, login: summary(login), identify: summary(identify) }));
} finally {
  await server.close();
}
