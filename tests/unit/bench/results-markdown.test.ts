// bench/RESULTS.md is generated from recorded figures: each bench file's latest full run, with its machine and load.
import { describe, expect, it } from 'vitest';
import { type BenchRun, mergeRun, renderResultsMarkdown } from '../../../bench/results-markdown.js';

const machine = { cores: 2, cpu: 'AMD EPYC', node: 'v20.20.2', platform: 'linux/x64' };

function run(generatedAt: string, quick: boolean, files: BenchRun['files']): BenchRun {
  return { generatedAt, quick, ...machine, files };
}

const throughput = {
  file: 'http-throughput.bench.ts',
  loadBefore: 0.12,
  loadAfter: 1.5,
  results: [
    {
      name: 'Create ratio',
      value: 32043,
      unit: 'req/s',
      baseline: 56413,
      ratio: 0.568,
      goal: 'ratio ≥ 0.6',
      met: false,
      detail: { cpuCostRatio: 0.534 },
    },
    { name: 'Get | by ref', value: 43167, unit: 'req/s', baseline: 54998, ratio: 0.785, goal: 'ratio ≥ 0.6', met: true },
  ],
};

describe('bench/RESULTS.md', () => {
  it('lists every figure with its ratio, CPU ratio and goal, names the machine and its load, and shows failed files', () => {
    const recorded = mergeRun(
      { files: [] },
      run('2026-11-28T12:00:00.000Z', false, [throughput, { file: 'memory.bench.ts', results: [], error: 'server exited' }]),
    );
    const text = renderResultsMarkdown(recorded);
    expect(text).toContain(
      'Measured 2026-11-28T12:00:00.000Z: 2 cores (AMD EPYC), node v20.20.2, linux/x64; load average 0.12 before, 1.50 after.',
    );
    expect(text).toContain('| Create ratio | 32,043 req/s | 56,413 | 0.57 | 0.53 | ratio ≥ 0.6 | **not met** |');
    expect(text).toContain('| Get \\| by ref | 43,167 req/s | 54,998 | 0.79 |  | ratio ≥ 0.6 | met |');
    expect(text).toContain('## memory.bench.ts');
    expect(text).toContain('Failed: server exited');
  });

  it('a full run of one file replaces only that file, and a quick run records nothing', () => {
    const first = mergeRun(
      { files: [] },
      run('2026-11-28T12:00:00.000Z', false, [throughput, { file: 'memory.bench.ts', results: [], error: 'server exited' }]),
    );
    const memory = { file: 'memory.bench.ts', results: [{ name: 'heap after 100k', value: 90, unit: 'MB' }] };
    const second = mergeRun(first, run('2026-11-29T08:00:00.000Z', false, [memory]));
    expect(second.files.map((f) => [f.file, f.measuredAt])).toEqual([
      ['http-throughput.bench.ts', '2026-11-28T12:00:00.000Z'],
      ['memory.bench.ts', '2026-11-29T08:00:00.000Z'],
    ]);
    expect(renderResultsMarkdown(second)).not.toContain('server exited');
    expect(mergeRun(second, run('2026-11-30T08:00:00.000Z', true, [throughput]))).toBe(second);
  });

  it('dates each file by its own start, and a file that failed keeps its earlier figures beside the failure', () => {
    const first = mergeRun(
      { files: [] },
      run('2026-11-28T12:30:00.000Z', false, [{ ...throughput, startedAt: '2026-11-28T12:10:00.000Z' }]),
    );
    expect(first.files[0]!.measuredAt).toBe('2026-11-28T12:10:00.000Z');
    const failed = mergeRun(
      first,
      run('2026-11-29T08:00:00.000Z', false, [{ file: throughput.file, results: [], error: 'server exited' }]),
    );
    expect(failed.files[0]!.measuredAt).toBe('2026-11-28T12:10:00.000Z');
    const text = renderResultsMarkdown(failed);
    expect(text).toContain('Failed: server exited');
    expect(text).toContain('| Create ratio | 32,043 req/s |');
  });
});
