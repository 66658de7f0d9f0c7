// A fault is caught only by tests that pass in the baseline and fail with the fault, and only if it fired.
import { describe, expect, it } from 'vitest';
import { judgeFault, type RunPlan } from '../../selfcheck/selfcheck.js';
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
