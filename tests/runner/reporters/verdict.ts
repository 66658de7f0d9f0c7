// The run's verdict in words, shared by the terminal's closing lines and summary.md: why it failed, and which
// requirements it could not check for want of a target setting.
import { scoreOf } from './badge.js';
import type { ConformanceReport } from './report-model.js';

/** What a lost target left undone, said after the reason it was lost (summary.md, report.html; no final stop). */
export function targetLostConsequence(report: ConformanceReport): string {
  return `The tests it did not answer for are reported not run; ${report.filesNotStarted?.length ?? 0} test file(s) were not started`;
}

/** Why a run failed, in words: what the closing line says after FAILED. */
export function failureReasons(report: ConformanceReport): string[] {
  const t = report.totals;
  // Everything else a lost target causes (tests timing out before it was declared lost, MUSTs left untested) is noise.
  if (report.targetLost !== undefined)
    return [
      `${report.targetLost}; ${t.notRun} test(s) not run, ${report.filesNotStarted?.length ?? 0} file(s) not started, ${t.failed} test(s) failed before`,
    ];
  const reasons: string[] = [];
  if (t.failed > 0) reasons.push(`${t.failed} failing test(s)`);
  if (t.unexpectedPass > 0) reasons.push(`${t.unexpectedPass} unexpected pass(es): remove them from the expectations`);
  if (report.tagProblems.length > 0) reasons.push(`${report.tagProblems.length} requirement tag problem(s)`);
  if (report.runErrors.length > 0) reasons.push(`${report.runErrors.length} error(s) outside tests`);
  if (report.policy.untestedMust === 'fail' && report.untestedMust.length > 0)
    reasons.push(
      `${report.untestedMust.length} active MUST requirement(s) without a passing test (${report.untestedMust.slice(0, 5).join(', ')}${report.untestedMust.length > 5 ? ', …' : ''})`,
    );
  if (t.tests === 0) reasons.push('no test ran');
  return reasons;
}

/** The requirements the run could not check for want of a target setting, and how to give it. */
export function needsSettingLines(report: ConformanceReport): string[] {
  if (report.needsSettings.length === 0) return [];
  const count = new Set(report.needsSettings.flatMap((s) => s.requirements)).size;
  return [
    '',
    `${count} requirement(s) not checked: their tests need a setting of the target that was not given (listed, not failing the gate). To check them, declare how the target is configured:`,
    ...report.needsSettings.map(
      (s) => `  ${s.requirements.join(', ')}: ${s.description}: pass ${s.flag} (or ${s.env}, or ${s.configKey} in the config file)`,
    ),
  ];
}

export function closingLine(report: ConformanceReport): string {
  const score = scoreOf(report);
  const head = `fauna-conformance ${report.outcome.toUpperCase()}: ${score.passed}/${score.counted} tests passed (seed ${report.seed})`;
  if (report.outcome === 'failed') return `${head}: ${failureReasons(report).join('; ')}`;
  const waiting = new Set(report.needsSettings.flatMap((s) => s.requirements)).size;
  return waiting === 0 ? head : `${head}; ${waiting} requirement(s) need a target setting to be checked (listed above, not failing)`;
}
