/**
 * `npm run fuzz [-- --requests N --seed S --concurrency C]`: the full fuzz run (default 100,000 requests)
 * against a reference server child process. Prints a summary and exits 1 on any failure.
 */
import { Command, InvalidArgumentError } from 'commander';
import { startServerProcess } from '../harness/server-process.js';
import { prepareTargets, runFuzz } from './fuzz-runner.js';

function positive(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
}

const opts = new Command('fuzz')
  .option('--requests <n>', 'number of malformed requests', positive, 100_000)
  .option('--seed <n>', 'fast-check seed (a run is reproducible from it)', positive, Date.now() % 2 ** 31)
  .option('--concurrency <n>', 'requests in flight', positive, 32)
  .parse()
  .opts<{ requests: number; seed: number; concurrency: number }>();

const SECRET = `fuzz-root-${process.pid}-secret-0123456789`;
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;
const server = await startServerProcess({ rootSecret: SECRET });
// An interrupted run must not leave its server behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.child.kill('SIGKILL');
    process.exit(130);
  });
}
let code = 1;
try {
  const targets = await prepareTargets(server.url, SECRET, BODY_LIMIT_BYTES + 1);
  console.log(`fuzzing ${server.url} with ${opts.requests} requests, seed ${opts.seed}, concurrency ${opts.concurrency}`);
  const report = await runFuzz({
    url: server.url,
    targets,
    requests: opts.requests,
    seed: opts.seed,
    concurrency: opts.concurrency,
    isAlive: () => server.child.exitCode === null && server.child.signalCode === null,
    onProgress: (sent) => process.stdout.write(`\r${sent} / ${opts.requests}`),
  });
  console.log(`\n${report.sent} requests in ${report.seconds.toFixed(1)} s (${Math.round(report.sent / report.seconds)}/s)`);
  console.log('by status:', JSON.stringify(report.byStatus));
  console.log('by kind:', JSON.stringify(report.byKind));
  console.log('slowest:', report.slowest.map((s) => `${s.ms} ms ${s.request.slice(0, 160)}`).join('\n         '));
  if (report.failures.length === 0) {
    console.log('no failures');
    code = 0;
  } else {
    console.log(`${report.failures.length} failures (seed ${opts.seed}):`);
    for (const failure of report.failures) console.log(JSON.stringify(failure, null, 2));
    console.log(server.stderr().slice(0, 4000));
  }
} finally {
  await server.kill('SIGKILL');
}
process.exit(code);
