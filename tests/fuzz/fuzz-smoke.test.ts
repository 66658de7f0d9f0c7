/**
 * The fuzz smoke run of `npm test`: 1,000 generated malformed requests against a reference server child
 * process (the full run is `npm run fuzz`). Fails on any 5xx, dropped connection, undocumented error body,
 * crash, or a valid request failing afterwards.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../harness/server-process.js';
import { prepareTargets, runFuzz } from './fuzz-runner.js';

const SECRET = 'fuzz-smoke-root-secret-0123456789';
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ rootSecret: SECRET });
});
afterAll(() => server.kill('SIGKILL'));

it('answers 1,000 malformed requests without 5xx, crash, or undocumented error bodies, and keeps serving', async () => {
  const targets = await prepareTargets(server.url, SECRET, BODY_LIMIT_BYTES + 1);
  const seed = Number(process.env.FUZZ_SEED ?? 20240601);
  const report = await runFuzz({
    url: server.url,
    targets,
    requests: 1000,
    seed,
    isAlive: () => server.child.exitCode === null && server.child.signalCode === null,
  });
  expect(report.failures, `seed ${seed}; server stderr: ${server.stderr().slice(0, 2000)}`).toEqual([]);
  expect(report.sent).toBe(1000);
  // The generators reach every endpoint and produce both accepted and refused requests.
  for (const kind of ['v4 POST', 'v10 /query/1', 'fql /query/1', 'v10 /feed/1', 'v10 /stream/1'])
    expect(report.byKind[kind] ?? 0, kind).toBeGreaterThan(10);
  expect(Object.keys(report.byStatus).some((s) => s.startsWith('2'))).toBe(true);
}, 120_000);
