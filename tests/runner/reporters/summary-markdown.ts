// summary.md: the run at a glance, fit for a CI job summary ($GITHUB_STEP_SUMMARY).
import { scoreOf } from './badge.js';
import { renderDiffMarkdown } from '../diff.js';
import { failureReasons, targetLostConsequence } from './verdict.js';
import type { ConformanceReport, JudgedTest } from './report-model.js';

const MAX_LISTED = 50;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function firstLine(text: string): string {
  return cell((text.split('\n')[0] ?? '').slice(0, 200));
}

function listTests(lines: string[], title: string, tests: readonly JudgedTest[], withReplay: boolean): void {
  if (tests.length === 0) return;
  lines.push('', `## ${title} (${tests.length})`, '');
  for (const t of tests.slice(0, MAX_LISTED)) {
    // A failing test shows its assertion; the others show the gate's note (why it is expected, what to remove).
    const reason = t.status === 'failed' ? (t.error ?? t.note ?? '') : (t.note ?? '');
    lines.push(`- **${cell(t.id)}** (${t.requirements.join(', ')}): ${firstLine(reason)}`);
    if (t.status === 'failed' && t.note) lines.push(`  - ${cell(t.note)}`);
    if (withReplay && t.replay) lines.push(`  - replay: \`${t.replay}\``);
  }
  if (tests.length > MAX_LISTED) lines.push('', `…and ${tests.length - MAX_LISTED} more (see conformance.json or report.html).`);
}

export function renderSummary(report: ConformanceReport): string {
  const t = report.totals;
  const r = report.requirementTotals;
  const score = scoreOf(report);
  const lines = [
    `# fauna-conformance: ${report.outcome === 'passed' ? 'PASSED' : 'FAILED'} (${score.passed}/${score.counted})`,
    '',
    ...(report.outcome === 'failed' ? [`Failed because of ${failureReasons(report).join('; ')}.`, ''] : []),
    ...(report.targetLost === undefined
      ? []
      : [`**${cell(report.targetLost)}.** ${targetLostConsequence(report)} (listed in conformance.json).`, '']),
    `Target ${report.target.url}${report.target.embedded ? ' (embedded reference server)' : ''} · suite ${report.suiteVersion} · spec ${report.specVersion} · seed ${report.seed} · ${(report.durationMs / 1000).toFixed(1)} s${report.shards.length > 0 ? ` · shards ${report.shards.join(', ')}` : ''}`,
    '',
    `Claimed profiles: ${report.claimedProfiles.join(', ')}${report.expectationsFile ? ` · expectations: ${report.expectationsFile}` : ''}${report.network ? ` · ${report.network.filesInFlight} files at once${report.network.roundTripMs === undefined ? '' : ` (round trip ${report.network.roundTripMs} ms)`}` : ''}`,
    '',
    `**Tests:** ${t.passed}/${t.tests} passed, ${t.failed} failed, ${t.unexpectedPass} unexpected passes, ${t.expectedFailure} expected failures, ${t.notClaimed} not claimed, ${t.skipped} skipped, ${t.needsSetting} need a target setting, ${t.notRun} not run.`,
    `**Requirements:** ${r.passed}/${r.total} passed, ${r.failed} failed, ${r['expected-failure']} expected failures, ${r.untested} untested, ${r['not-claimed']} not claimed, ${r['needs-setting']} need a target setting, ${r['not-run']} not run.`,
    '',
    '| Area | Tests | Passed | Failed | Unexpected pass | Expected failure | Not claimed | Skipped | Needs setting | Not run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.areas.map(
      (a) =>
        `| ${a.area} | ${a.tests} | ${a.passed} | ${a.failed} | ${a.unexpectedPass} | ${a.expectedFailure} | ${a.notClaimed} | ${a.skipped} | ${a.needsSetting} | ${a.notRun} |`,
    ),
  ];
  if (report.baseline) lines.push('', renderDiffMarkdown(report.baseline).trimEnd());
  if (report.needsSettings.length > 0) {
    lines.push(
      '',
      '## Requirements that need a target setting',
      '',
      'Not checked, and not failing the gate: their tests need to know how the target is configured. Pass the setting to check them.',
      '',
    );
    lines.push('| Requirements | Setting | Flag | Environment | Config key |', '|---|---|---|---|---|');
    for (const s of report.needsSettings)
      lines.push(`| ${s.requirements.join(', ')} | ${cell(s.description)} | \`${s.flag}\` | \`${s.env}\` | \`${s.configKey}\` |`);
  }
  listTests(
    lines,
    'Failing tests',
    report.tests.filter((x) => x.status === 'failed'),
    true,
  );
  listTests(
    lines,
    'Unexpected passes',
    report.tests.filter((x) => x.status === 'unexpected-pass'),
    false,
  );
  listTests(
    lines,
    'Expected failures',
    report.tests.filter((x) => x.status === 'expected-failure'),
    false,
  );
  if (report.unmatchedExpectations.length > 0) {
    lines.push('', '## Expectation entries matching no test', '');
    for (const id of report.unmatchedExpectations) lines.push(`- ${cell(id)}`);
  }
  if (report.tagProblems.length > 0) {
    lines.push('', '## Requirement tag problems', '');
    for (const p of report.tagProblems) lines.push(`- ${cell(p.test)}: ${cell(p.problem)}`);
  }
  if (report.runErrors.length > 0) {
    lines.push('', '## Errors outside tests', '');
    for (const e of report.runErrors) lines.push(`- ${firstLine(e)}`);
  }
  lines.push('', '## Untested MUST requirements', '');
  if (!report.wholeSuite) lines.push('Not judged: the run was limited with --area, --requirement or --test.');
  else if (report.targetLost !== undefined) lines.push('Not judged: the run ended when the target stopped answering.');
  else if (report.untestedMust.length === 0) lines.push('None: every active MUST requirement of a claimed profile has a passing test.');
  else {
    lines.push(
      `${report.untestedMust.length} active MUST requirement(s) of claimed profiles have no passing test (${report.policy.untestedMust === 'fail' ? 'this fails the run' : 'listed only, see the policy below'}):`,
      '',
    );
    lines.push('<details><summary>List</summary>', '', report.untestedMust.join(', '), '', '</details>');
  }
  lines.push('', `Policy: ${report.policy.note}`, '');
  return lines.join('\n');
}
