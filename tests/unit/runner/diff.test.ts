// diff of two reports built from outcomes: newly failing, newly passing, failing another way, and what is left out.
import { describe, expect, it } from 'vitest';
import { validate } from '../../../schemas/index.js';
import { loadRequirementsIndex } from '../../../spec/build-index.js';
import { diffReports, renderDiffMarkdown } from '../../runner/diff.js';
import { buildReport, type TestOutcome } from '../../runner/reporters/report-model.js';

const spec = loadRequirementsIndex();
const core = spec.requirements.find((r) => r.profile === 'core' && r.status === 'active')!.id;
const feeds = spec.requirements.find((r) => r.profile === 'feeds' && r.status === 'active')!.id;

function report(runId: string, tests: Record<string, Partial<TestOutcome>>, claimed?: ('core' | 'feeds')[]) {
  const outcomes = Object.entries(tests).map(
    ([name, over]): TestOutcome => ({
      id: `tests/conformance/core/x.test.ts > X > ${name}`,
      file: 'tests/conformance/core/x.test.ts',
      name: `X > ${name}`,
      area: 'core',
      requirements: [core],
      status: 'passed',
      durationMs: 1,
      ...over,
    }),
  );
  return buildReport(
    {
      suiteVersion: '0.1.0',
      target: { url: 'http://127.0.0.1:1', embedded: false },
      seed: 1,
      runId,
      startedAt: new Date(0),
      finishedAt: new Date(1),
      areas: ['core'],
      allAreas: ['core'],
      failOnUntestedMust: false,
      ...(claimed ? { claimed } : {}),
    },
    spec,
    outcomes,
    [],
  );
}

const fail = (assertion: string): Partial<TestOutcome> => ({ status: 'failed', error: assertion, signature: { status: 200, assertion } });

describe('diff', () => {
  it('lists newly failing, newly passing and changed signatures, and regresses on the first and the last', () => {
    const old = report('old1', { a: {}, b: fail('x'), c: fail('same'), d: fail('before'), e: {}, f: { status: 'skipped' } });
    const now = report('new1', { a: fail('broke'), b: {}, c: fail('same'), d: fail('after'), e: {}, f: fail('now'), g: fail('new test') });
    const diff = diffReports(old, now, 'old/conformance.json');
    expect(diff.newlyFailing.map((c) => [c.test.split(' > ').pop(), c.was, c.now])).toEqual([
      ['a', 'passed', 'failed'],
      ['f', 'skipped', 'failed'],
      ['g', 'absent', 'failed'],
    ]);
    expect(diff.newlyPassing.map((c) => c.test.split(' > ').pop())).toEqual(['b']);
    expect(diff.changedSignatures).toEqual([
      expect.objectContaining({ wasSignature: { status: 200, assertion: 'before' }, signature: { status: 200, assertion: 'after' } }),
    ]);
    expect(diff).toMatchObject({ regressed: true, old: { file: 'old/conformance.json', runId: 'old1' }, new: { runId: 'new1' } });
    // It is the shape conformance.json carries as `baseline`.
    expect(validate('conformance-report', JSON.parse(JSON.stringify({ ...now, baseline: diff }))).errors).toEqual([]);
    const text = renderDiffMarkdown(diff);
    expect(text).toContain('3 newly failing, 1 newly passing, 1 failing another way (a regression).');
    expect(text).toContain('was status 200, "before"; now status 200, "after"');
  });

  it('does not regress on fixes alone, and leaves out tests of unclaimed profiles', () => {
    const old = report('o', { a: fail('x'), n: { requirements: [feeds] } });
    const now = report('n', { a: {}, n: { requirements: [feeds], ...fail('unclaimed') } }, ['core']);
    const diff = diffReports(old, now);
    expect(diff).toMatchObject({ regressed: false, newlyFailing: [], changedSignatures: [] });
    expect(diff.newlyPassing).toHaveLength(1);
  });
});
