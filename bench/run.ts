/**
 * `npm run bench [-- --quick] [-- --only <name>]`: runs every benchmark in `bench/`, prints a table (with the
 * machine's core count) and writes `reports/bench.json`; a full (not quick) run records each file it ran in
 * `bench/results.json` and `bench/RESULTS.md`, replacing that file's earlier figures.
 *
 * Convention for adding a benchmark: a file `bench/<area>.bench.ts` exporting
 *
 *     export async function run(ctx: BenchContext): Promise<BenchResult[]>
 *
 * (types from `bench/bench-context.ts`). Measure against a baseline taken in the same run where the issue asks
 * for a ratio (`ctx.bareServer(body)` + `ratioResult`), start servers through the context (child processes,
 * stopped afterwards), use `ctx.load` (autocannon) for throughput, and set `goal`/`met` from the issue's
 * goals. Files run one after another, in name order, so they do not compete for the CPU.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { arch, cpus, loadavg, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { BenchContext, type BenchResult } from './bench-context.js';
import { type BenchFileOutcome, mergeRun, type RecordedResults, renderResultsMarkdown } from './results-markdown.js';

const opts = new Command('bench')
  .option('--quick', 'short load runs (3 s instead of 10 s)', false)
  .option('--only <name>', 'run only bench files whose name contains this')
  .option('--report <path>', 'where to write the JSON results', 'reports/bench.json')
  .parse()
  .opts<{ quick: boolean; only?: string; report: string }>();

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const files = (await readdir(benchDir)).filter((f) => f.endsWith('.bench.ts') && (!opts.only || f.includes(opts.only))).sort();

const outcomes: BenchFileOutcome[] = [];
for (const file of files) {
  const ctx = new BenchContext(opts.quick);
  process.stdout.write(`${file} … `);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const loadBefore = loadavg()[0];
  try {
    const module = (await import(new URL(file, import.meta.url).href)) as { run(ctx: BenchContext): Promise<BenchResult[]> };
    const results = await module.run(ctx);
    outcomes.push({ file, startedAt, results, loadBefore, loadAfter: loadavg()[0] });
    console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    outcomes.push({
      file,
      startedAt,
      results: [],
      error: error instanceof Error ? error.message : String(error),
      loadBefore,
      loadAfter: loadavg()[0],
    });
    console.log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await ctx.close();
  }
}

const cores = cpus().length;
const rows = outcomes.flatMap((o) => o.results);
const cell = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString('en-US'));
// The CPU cost ratio (bare ÷ measured CPU per request) is the steadier view of a throughput ratio on a shared machine.
const cpuRatio = (r: BenchResult) => (typeof r.detail?.cpuCostRatio === 'number' ? r.detail.cpuCostRatio.toFixed(2) : '');
const table = [
  ['figure', 'value', 'unit', 'baseline', 'ratio', 'cpu ratio', 'goal', 'met'],
  ...rows.map((r) => [
    r.name,
    cell(r.value),
    r.unit,
    cell(r.baseline),
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    cpuRatio(r),
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
console.log(
  `\n${cores} cores (${cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}, ${platform()}/${arch()}${opts.quick ? ', quick mode' : ''}`,
);
for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  '));
for (const o of outcomes.filter((o) => o.error)) console.log(`${o.file}: ${o.error}`);

await mkdir(fileURLToPath(new URL('../reports/', import.meta.url)), { recursive: true });
const report = {
  generatedAt: new Date().toISOString(),
  cores,
  cpu: cpus()[0]?.model,
  node: process.version,
  platform: platform(),
  quick: opts.quick,
  files: outcomes,
};
await writeFile(opts.report, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${opts.report}`);
// Records what the run measured (mergeRun ignores a quick run, a smoke test rather than a measurement).
const recordedPath = fileURLToPath(new URL('results.json', import.meta.url));
const earlier = JSON.parse(await readFile(recordedPath, 'utf8').catch(() => '{"files":[]}')) as RecordedResults;
const recorded = mergeRun(earlier, report);
await writeFile(recordedPath, `${JSON.stringify(recorded, null, 2)}\n`);
const resultsPath = fileURLToPath(new URL('RESULTS.md', import.meta.url));
await writeFile(resultsPath, renderResultsMarkdown(recorded));
if (!report.quick) console.log(`wrote ${resultsPath}`);
process.exit(outcomes.some((o) => o.error) ? 1 : 0);
