import { describe, expect, it } from 'vitest';
import { validate } from '../../../schemas/index.js';
import { loadRequirementsIndex } from '../../../spec/build-index.js';
import { buildReport, type RunInfo, type TestOutcome } from '../../runner/reporters/report-model.js';
import { renderSummary } from '../../runner/reporters/summary-markdown.js';

const spec = loadRequirementsIndex();
const must = spec.requirements.filter((r) => r.level === 'MUST' && r.status === 'active');
const [first, second] = must;

const info = (over: Partial<RunInfo> = {}): RunInfo => ({
  suiteVersion: '0.1.0',
  target: { url: 'http://127.0.0.1:8443', embedded: true },
  seed: 7,
  runId: 'abc123',
  startedAt: new Date('2025-01-01T00:00:00Z'),
  finishedAt: new Date('2025-01-01T00:00:02Z'),
  areas: undefined,
  allAreas: ['core', 'auth'],
  failOnUntestedMust: false,
  ...over,
});

const outcome = (over: Partial<TestOutcome>): TestOutcome => ({
  id: 'tests/conformance/core/x.test.ts > t',
  file: 'tests/conformance/core/x.test.ts',
  name: 't',
  area: 'core',
  requirements: [first!.id],
  status: 'passed',
  durationMs: 3,
  ...over,
});

describe('conformance report', () => {
  it('matches its schema and scores requirements', () => {
    const report = buildReport(
      info(),
      spec,
      [outcome({}), outcome({ id: 'b', requirements: [second!.id], status: 'failed', error: 'boom' })],
      [],
    );
    const check = validate('conformance-report', JSON.parse(JSON.stringify(report)));
    expect(check.errors).toEqual([]);
    expect(report.requirements.find((r) => r.id === first!.id)?.status).toBe('passed');
    expect(report.requirements.find((r) => r.id === second!.id)).toMatchObject({ status: 'failed', tests: ['b'] });
    expect(report.untestedMust).not.toContain(first!.id);
    expect(report.untestedMust).toContain(second!.id);
    expect(report.outcome).toBe('failed');
    expect(renderSummary(report)).toContain('- **b** (');
  });

  it('flags a test without IDs and one with an unknown ID, and fails the run', () => {
    const report = buildReport(
      info(),
      spec,
      [outcome({ id: 'bare', requirements: undefined }), outcome({ id: 'typo', requirements: ['NOPE-NOPE-999'] })],
      [],
    );
    expect(report.tagProblems).toEqual([
      { test: 'bare', problem: 'the test declares no requirement IDs' },
      { test: 'typo', problem: 'unknown requirement ID NOPE-NOPE-999 (not in spec/requirements.json)' },
    ]);
    expect(report.outcome).toBe('failed');
  });

  it('lists untested MUSTs without failing by default, fails on them when strict, ignores them with --area', () => {
    const passing = [outcome({})];
    expect(buildReport(info(), spec, passing, []).outcome).toBe('passed');
    expect(buildReport(info(), spec, passing, []).untestedMust.length).toBe(must.length - 1);
    expect(buildReport(info({ failOnUntestedMust: true }), spec, passing, []).outcome).toBe('failed');
    const filtered = buildReport(info({ failOnUntestedMust: true, areas: ['core'] }), spec, passing, []);
    expect(filtered).toMatchObject({ outcome: 'passed', untestedMust: [], wholeSuite: false });
  });

  it('shows why a test skipped itself, and its requirement stays untested', () => {
    const note = "not applicable: the target's opsLimit is unknown";
    const report = buildReport(info(), spec, [outcome({ status: 'skipped', skipNote: note })], []);
    expect(report.tests[0]).toMatchObject({ status: 'skipped', note });
    expect(report.requirements.find((r) => r.id === first!.id)?.status).toBe('untested');
  });

  it('reports a test that needs a target setting as needs-setting: listed with the flag, not untested, never failing', () => {
    const note = "needs the operations one account's event streams and feed polls may consume: pass --ops-limit N";
    const report = buildReport(
      info({ failOnUntestedMust: true }),
      spec,
      [
        outcome({ status: 'skipped', skipNote: note, needsSetting: 'opsLimit' }),
        ...must.slice(1).map((r) => outcome({ id: r.id, requirements: [r.id] })),
      ],
      [],
    );
    expect(validate('conformance-report', JSON.parse(JSON.stringify(report))).errors).toEqual([]);
    expect(report.tests[0]).toMatchObject({ result: 'skipped', status: 'needs-setting', setting: 'opsLimit', note });
    expect(report.requirements.find((r) => r.id === first!.id)?.status).toBe('needs-setting');
    expect(report.needsSettings).toEqual([
      {
        setting: 'opsLimit',
        description: "the operations one account's event streams and feed polls may consume",
        flag: '--ops-limit N',
        env: 'FAUNA_CONFORMANCE_OPS_LIMIT',
        configKey: 'target.opsLimit',
        requirements: [first!.id],
      },
    ]);
    expect(report.untestedMust).toEqual([]);
    expect(report.outcome).toBe('passed');
    expect(renderSummary(report)).toContain(
      `| ${first!.id} | the operations one account's event streams and feed polls may consume | \`--ops-limit N\` |`,
    );
  });

  it('fails a run whose target stopped answering with that reason, its tests not run and no MUST judged', () => {
    const targetLost = 'target http://127.0.0.1:8443 stopped answering: GET /ping got no answer twice in a row';
    const report = buildReport(
      info({ failOnUntestedMust: true, targetLost, filesNotStarted: ['tests/conformance/auth/y.test.ts'] }),
      spec,
      [outcome({}), outcome({ id: 'b', status: 'not-run' })],
      [],
    );
    expect(validate('conformance-report', JSON.parse(JSON.stringify(report))).errors).toEqual([]);
    expect(report).toMatchObject({ outcome: 'failed', targetLost, untestedMust: [], totals: { passed: 1, notRun: 1, failed: 0 } });
    expect(report.tests[1]).toMatchObject({ status: 'not-run', note: `not run: ${targetLost}` });
    expect(report.filesNotStarted).toEqual(['tests/conformance/auth/y.test.ts']);
    expect(renderSummary(report)).toContain(
      `Failed because of ${targetLost}; 1 test(s) not run, 1 file(s) not started, 0 test(s) failed before.`,
    );
  });

  it('never passes a run with no tests or with errors outside tests', () => {
    expect(buildReport(info(), spec, [], []).outcome).toBe('failed');
    expect(buildReport(info(), spec, [outcome({})], ['x.test.ts: failed to load']).outcome).toBe('failed');
  });

  it('keeps the example exchange of a passing test only where it is the first for one of its requirements', () => {
    const example = {
      method: 'POST',
      url: 'http://h/',
      path: '/',
      startedAt: '2025-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { headers: {} },
      response: { status: 201, headers: {} },
    };
    const report = buildReport(
      info(),
      spec,
      [
        outcome({ id: 'a', requirements: [first!.id], example }),
        outcome({ id: 'b', requirements: [first!.id], example }),
        outcome({ id: 'c', requirements: [first!.id, second!.id], example }),
        outcome({ id: 'd', requirements: [second!.id], status: 'failed', error: 'boom', example }),
      ],
      [],
    );
    expect(validate('conformance-report', JSON.parse(JSON.stringify(report))).errors).toEqual([]);
    expect(report.tests.map((t) => [t.id, t.example !== undefined])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
      ['d', false],
    ]);
  });
});
