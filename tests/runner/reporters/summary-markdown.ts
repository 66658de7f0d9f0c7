// summary.md: the run at a glance, fit for a CI job summary.
import type { ConformanceReport } from './report-model.js';

const MAX_LISTED = 50;

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\|/g, '\\|').slice(0, 200);
}

export function renderSummary(report: ConformanceReport): string {
  const t = report.totals;
  const r = report.requirementTotals;
  const lines = [
    `# fauna-conformance: ${report.outcome === 'passed' ? 'PASSED' : 'FAILED'}`,
    '',
    `Target ${report.target.url}${report.target.embedded ? ' (embedded reference server)' : ''} · suite ${report.suiteVersion} · spec ${report.specVersion} · seed ${report.seed} · ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    `**Tests:** ${t.passed}/${t.tests} passed, ${t.failed} failed, ${t.skipped} skipped. **Requirements:** ${r.passed}/${r.total} passed, ${r.failed} failed, ${r.untested} untested.`,
    '',
    '| Area | Tests | Passed | Failed | Skipped |',
    '|---|---:|---:|---:|---:|',
    ...report.areas.map((a) => `| ${a.area} | ${a.tests} | ${a.passed} | ${a.failed} | ${a.skipped} |`),
  ];
  const failures = report.tests.filter((x) => x.status === 'failed');
  if (failures.length > 0) {
    lines.push('', '## Failing tests', '', '| Test | Requirements | Reason |', '|---|---|---|');
    for (const f of failures.slice(0, MAX_LISTED)) lines.push(`| ${f.id.replace(/\|/g, '\\|')} | ${f.requirements.join(', ')} | ${firstLine(f.error ?? '')} |`);
    if (failures.length > MAX_LISTED) lines.push('', `…and ${failures.length - MAX_LISTED} more (see conformance.json).`);
  }
  if (report.tagProblems.length > 0) {
    lines.push('', '## Requirement tag problems', '');
    for (const p of report.tagProblems) lines.push(`- ${p.test}: ${p.problem}`);
  }
  if (report.runErrors.length > 0) {
    lines.push('', '## Errors outside tests', '');
    for (const e of report.runErrors) lines.push(`- ${firstLine(e)}`);
  }
  lines.push('', '## Untested MUST requirements', '');
  if (!report.wholeSuite) lines.push('Not judged: the run was limited with --area.');
  else if (report.untestedMust.length === 0) lines.push('None: every active MUST requirement has a passing test.');
  else {
    lines.push(`${report.untestedMust.length} active MUST requirement(s) have no passing test (${report.policy.untestedMust === 'fail' ? 'this fails the run' : 'listed only, see the policy below'}):`, '');
    lines.push('<details><summary>List</summary>', '', report.untestedMust.join(', '), '', '</details>');
  }
  lines.push('', `Policy: ${report.policy.note}`, '');
  return lines.join('\n');
}
