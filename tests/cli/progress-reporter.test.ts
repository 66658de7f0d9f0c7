import { describe, expect, it } from 'vitest';
import { loadRequirementsIndex } from '../../spec/build-index.js';
import { finalTable, progressLines } from '../runner/reporters/progress-reporter.js';
import { buildReport } from '../runner/reporters/report-model.js';

describe('terminal progress', () => {
  it('shows passed, failed and remaining per area', () => {
    const lines = progressLines(
      new Map([
        ['core', { total: 10, passed: 6, failed: 1, skipped: 1 }],
        ['auth', { total: 3, passed: 0, failed: 0, skipped: 0 }],
      ]),
    );
    expect(lines).toEqual(['auth     0 passed     0 failed     3 remaining', 'core     6 passed     1 failed     2 remaining']);
  });

  it('ends with a table per area and each failure with its replay command', () => {
    const spec = loadRequirementsIndex();
    const id = spec.requirements.find((r) => r.profile === 'core' && r.status === 'active')!.id;
    const report = buildReport(
      {
        suiteVersion: '0.1.0',
        target: { url: 'http://127.0.0.1:9', embedded: false },
        seed: 3,
        runId: 'p1',
        startedAt: new Date(0),
        finishedAt: new Date(1000),
        areas: ['core'],
        allAreas: ['core'],
        failOnUntestedMust: false,
      },
      spec,
      [
        {
          id: 'tests/conformance/core/a.test.ts > A > works',
          file: 'tests/conformance/core/a.test.ts',
          name: 'A > works',
          area: 'core',
          requirements: [id],
          status: 'passed',
          durationMs: 1,
        },
        {
          id: 'tests/conformance/core/a.test.ts > A > breaks',
          file: 'tests/conformance/core/a.test.ts',
          name: 'A > breaks',
          area: 'core',
          requirements: [id],
          status: 'failed',
          durationMs: 1,
          error: 'GET / answered status 500, expected 200\nbody: x',
        },
      ],
      [],
    );
    const text = finalTable(report).join('\n');
    expect(text).toMatch(/^core\s+2\s+1\s+1\s+0\s+0\s+0\s+0\s+0\s+0$/m);
    expect(text).toContain('fauna-conformance FAILED: 1/2 tests passed (seed 3): 1 failing test(s)');
    expect(text).toContain(
      `✗ tests/conformance/core/a.test.ts > A > breaks [${id}]\n  GET / answered status 500, expected 200\n  replay: npx fauna-conformance --url http://127.0.0.1:9 --seed 3 --area core --test 'A breaks$'`,
    );
  });
});
