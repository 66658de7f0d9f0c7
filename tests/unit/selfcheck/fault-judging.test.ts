// A fault is caught only by tests that pass in the baseline and fail with the fault, and only if it fired.
import { describe, expect, it } from 'vitest';
import { baselinePlans, filesOf, judgeFault, type RunPlan } from '../../selfcheck/selfcheck.js';
import type { Fault } from '../../selfcheck/fault.js';
import type { SuiteRun, SuiteTest } from '../../selfcheck/suite-process.js';

const fault: Fault = { id: 'X', title: 'x', breaks: ['PROTO-STATUS-002'], area: 'core', description: 'x', apply: () => ({}) };
const plan: RunPlan = { areas: ['core'], scope: undefined, key: 'core' };
const test = (name: string, status: string): SuiteTest => ({
  file: 'f.test.ts',
  name,
  area: 'core',
  requirements: ['PROTO-STATUS-002'],
  status,
});
const run = (tests: SuiteTest[]): SuiteRun => ({ exitCode: 1, hung: false, durationMs: 1, tests, stderrTail: '' });
const baseline = run([test('a', 'passed'), test('b', 'passed')]);

describe('judgeFault', () => {
  it('counts a fault that fired as caught by the tests it newly failed', () => {
    const result = judgeFault(fault, plan, run([test('a', 'failed'), test('b', 'passed')]), 2, baseline);
    expect(result.caught).toBe(true);
    expect(result.caughtBy.map((c) => c.test)).toEqual(['f.test.ts > a']);
  });

  it('never counts a fault that did not fire as caught, whatever failed in its run', () => {
    const result = judgeFault(fault, plan, run([test('a', 'failed'), test('b', 'failed')]), 0, baseline);
    expect(result.caught).toBe(false);
    expect(result.problem).toMatch(/never fired/);
  });

  it('reports a fault that fired unnoticed as missed', () => {
    const result = judgeFault(fault, plan, run([test('a', 'passed'), test('b', 'passed')]), 3, baseline);
    expect(result.caught).toBe(false);
    expect(result.problem).toMatch(/no test noticed/);
  });
});

describe('baselinePlans', () => {
  const scoped = (requirement: string, testPattern?: string): RunPlan => ({
    areas: ['core'],
    scope: { requirement, ...(testPattern === undefined ? {} : { testPattern }) },
    key: JSON.stringify([requirement, testPattern ?? null]),
  });

  it('gives each plan its own baseline while few plans share their tests', () => {
    const plans = Array.from({ length: 40 }, (_, i) => scoped(`R-${i}`));
    const baselines = baselinePlans(plans);
    for (const plan of plans) expect(baselines.get(plan.key)).toBe(plan);
  });

  it('gives many requirement-scoped plans one baseline of the same areas and pattern without the requirement', () => {
    const plans = [...Array.from({ length: 41 }, (_, i) => scoped(`R-${i}`, 'p')), scoped('OTHER', 'q'), plan];
    const baselines = baselinePlans(plans);
    const shared = baselines.get(plans[0]!.key)!;
    expect(shared).toMatchObject({ areas: ['core'], scope: { testPattern: 'p' } });
    expect(shared.scope).not.toHaveProperty('requirement');
    for (const p of plans.slice(0, 41)) expect(baselines.get(p.key)!.key).toBe(shared.key);
    expect(baselines.get(plans[41]!.key)).toBe(plans[41]);
    expect(baselines.get(plan.key)).toBe(plan);
  });
});

describe('filesOf', () => {
  const tagged = (file: string, requirements: string[]): SuiteTest => ({ file, name: file, area: 'core', requirements, status: 'passed' });
  const shared = run([
    tagged('b.test.ts', ['R-1']),
    tagged('a.test.ts', ['R-2', 'R-1']),
    tagged('b.test.ts', ['R-1']),
    tagged('c.test.ts', []),
  ]);

  it("names each file holding the baseline's tests of the requirement once, sorted", () => {
    expect(filesOf(shared, 'R-1')).toEqual(['a.test.ts', 'b.test.ts']);
  });

  it('names no files when the baseline ran no test of the requirement, or no requirement narrows the run', () => {
    expect(filesOf(shared, 'R-3')).toBeUndefined();
    expect(filesOf(shared, undefined)).toBeUndefined();
    expect(filesOf(undefined, 'R-1')).toBeUndefined();
  });
});
