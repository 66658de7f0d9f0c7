import { describe, expect, it } from 'vitest';
import { mergeSelfcheckReports, selfcheckMarkdown, totalsByArea, type SelfcheckReport } from '../../selfcheck/selfcheck-report.js';
import { newlyFailed, type SuiteRun, type SuiteTest } from '../../selfcheck/suite-process.js';

function test(name: string, status: string, error?: string): SuiteTest {
  return {
    file: 'tests/conformance/core/x.test.ts',
    name,
    area: 'core',
    requirements: ['PROTO-STATUS-002'],
    status,
    ...(error === undefined ? {} : { error }),
  };
}

function run(tests: SuiteTest[] | undefined): SuiteRun {
  return { exitCode: 1, hung: false, durationMs: 10, tests, stderrTail: '' };
}

describe('selfcheck judging', () => {
  it('counts as catching only tests that fail with the fault and not in the baseline', () => {
    const baseline = run([test('a', 'failed', 'broken anyway'), test('b', 'passed'), test('c', 'passed')]);
    const faulty = run([test('a', 'failed', 'still broken'), test('b', 'failed', 'status 200, expected 201'), test('c', 'passed')]);
    expect(newlyFailed(faulty, baseline).map((t) => t.name)).toEqual(['b']);
  });

  it('without a baseline every failed test counts', () => {
    expect(newlyFailed(run([test('a', 'failed'), test('b', 'skipped')]), undefined).map((t) => t.name)).toEqual(['a']);
  });

  it('renders a Markdown page that names uncaught faults and broken hostile runs, with counts per area', () => {
    const report: SelfcheckReport = {
      mode: 'fast',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 12_000,
      baselineFailures: { core: [] },
      faults: [
        {
          id: 'STATUS-CREATE-200',
          title: 'Create answers 200',
          area: 'core',
          breaks: ['PROTO-STATUS-002'],
          areasRun: ['core'],
          caught: true,
          caughtBy: [{ test: 'x > b', requirements: ['PROTO-STATUS-002'] }],
          caughtByRequirements: ['PROTO-STATUS-002'],
          applied: 3,
          exitCode: 1,
          durationMs: 5,
        },
        {
          id: 'VALUE-SET-TAG-RENAMED',
          title: 'Sets | renamed',
          area: 'core',
          breaks: ['PROTO-VALUE-004'],
          areasRun: ['core'],
          caught: false,
          caughtBy: [],
          caughtByRequirements: [],
          applied: 0,
          exitCode: 0,
          durationMs: 5,
          problem: 'never fired',
        },
      ],
      hostile: [
        {
          id: 'NEVER-ANSWERS',
          title: 'Never answers',
          area: 'core',
          survived: false,
          exitCode: null,
          hung: true,
          durationMs: 181_000,
          boundMs: 180_000,
          failedTests: 0,
          unclearFailures: [],
          problem: 'killed',
        },
      ],
      totals: { faults: 2, caught: 1, hostile: 1, survived: 0 },
      byArea: {},
      outcome: 'failed',
    };
    report.byArea = totalsByArea(report.faults, report.hostile);
    expect(report.byArea).toEqual({ core: { faults: 2, caught: 1, hostile: 1, survived: 0 } });
    const page = selfcheckMarkdown(report);
    expect(page).toContain('Faults caught: **1/2**');
    expect(page).toContain('| core | 1/2 | 0/1 |');
    expect(page).toContain('| `VALUE-SET-TAG-RENAMED` Sets \\| renamed | core | PROTO-VALUE-004 | **no** | never fired | 0 |');
    expect(page).toContain('| `NEVER-ANSWERS` Never answers | core | **no** | killed | 181 s / 180 s | 0 | killed |');

    const rerun: SelfcheckReport = {
      ...report,
      mode: 'fast',
      durationMs: 3_000,
      faults: [{ ...report.faults[1]!, caught: true, caughtBy: [{ test: 'x > c', requirements: ['PROTO-VALUE-004'] }] }],
      hostile: [],
      totals: { faults: 1, caught: 1, hostile: 0, survived: 0 },
      byArea: {},
      outcome: 'passed',
    };
    const merged = mergeSelfcheckReports([report, rerun]);
    expect(merged.totals).toEqual({ faults: 2, caught: 2, hostile: 1, survived: 0 });
    expect(merged.byArea).toEqual({ core: { faults: 2, caught: 2, hostile: 1, survived: 0 } });
    expect(merged.durationMs).toBe(15_000);
    expect(merged.outcome).toBe('failed');
  });
});
