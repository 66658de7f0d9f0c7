// bench/RESULTS.md is generated from a run's figures: every figure, its goal and whether it was met.
import { describe, expect, it } from 'vitest';
import { renderResultsMarkdown } from '../../../bench/results-markdown.js';

describe('bench/RESULTS.md', () => {
  it('lists every figure of the run with its ratio, CPU ratio and goal, names the machine, and shows failed files', () => {
    const text = renderResultsMarkdown({
      generatedAt: '2026-11-28T12:00:00.000Z',
      cores: 2,
      cpu: 'AMD EPYC',
      node: 'v20.20.2',
      platform: 'linux/x64',
      quick: false,
      files: [
        {
          file: 'http-throughput.bench.ts',
          results: [
            { name: 'Create ratio', value: 32043, unit: 'req/s', baseline: 56413, ratio: 0.568, goal: 'ratio ≥ 0.6', met: false, detail: { cpuCostRatio: 0.534 } },
            { name: 'Get | by ref', value: 43167, unit: 'req/s', baseline: 54998, ratio: 0.785, goal: 'ratio ≥ 0.6', met: true },
          ],
        },
        { file: 'memory.bench.ts', results: [], error: 'server exited' },
      ],
    });
    expect(text).toContain('on 2026-11-28T12:00:00.000Z: 2 cores (AMD EPYC), node v20.20.2, linux/x64.');
    expect(text).toContain('| Create ratio | 32,043 req/s | 56,413 | 0.57 | 0.53 | ratio ≥ 0.6 | **not met** |');
    expect(text).toContain('| Get \\| by ref | 43,167 req/s | 54,998 | 0.79 |  | ratio ≥ 0.6 | met |');
    expect(text).toContain('- `memory.bench.ts` failed: server exited');
    expect(text).not.toContain('quick mode');
  });
});
