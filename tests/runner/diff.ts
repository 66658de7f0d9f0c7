// What changed between two runs, for a pull-request gate: the tests that newly fail, newly pass, or fail with another
// signature. `fauna-conformance diff OLD NEW` prints it and writes diff.md and diff.json; a run given --baseline carries
// it in conformance.json and summary.md. Only a test's own result counts (an expected failure is a failure); tests of
// unclaimed profiles are left out.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sameSignature } from './failure-signature.js';
import type { ConformanceReport, Diff, DiffChange, JudgedTest } from './reporters/report-model.js';
import { readSchemaFile } from './json-file.js';

export class ReportFileError extends Error {
  override name = 'ReportFileError';
}

/** conformance.json, or the report directory holding it, read and checked against its schema. */
export function readReport(path: string): ConformanceReport {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'conformance.json') : path;
  return readSchemaFile(file, 'conformance-report', {
    unreadable: (message) => new ReportFileError(`cannot read ${file}: ${message}`),
    invalid: (errors) => new ReportFileError(`${file} is not a conformance report of this version: ${errors.slice(0, 3).join('; ')}`),
  }) as ConformanceReport;
}

type State = 'passed' | 'failed' | 'other';

function stateOf(test: JudgedTest | undefined): State | undefined {
  if (test === undefined) return undefined;
  if (test.status === 'not-claimed') return 'other';
  return test.result === 'failed' ? 'failed' : test.result === 'passed' ? 'passed' : 'other';
}

function change(test: JudgedTest, old: JudgedTest | undefined): DiffChange {
  return {
    test: test.id,
    requirements: test.requirements,
    was: old?.status ?? 'absent',
    now: test.status,
    ...(old?.signature === undefined || old.result !== 'failed' ? {} : { wasSignature: old.signature }),
    ...(test.signature === undefined || test.result !== 'failed' ? {} : { signature: test.signature }),
  };
}

function runRef(report: ConformanceReport, file: string | undefined): Diff['old'] {
  return {
    ...(file === undefined ? {} : { file }),
    runId: report.runId,
    seed: report.seed,
    startedAt: report.startedAt,
    outcome: report.outcome,
  };
}

export function diffReports(old: ConformanceReport, now: ConformanceReport, oldFile?: string, newFile?: string): Diff {
  const before = new Map(old.tests.map((t) => [t.id, t]));
  const newlyFailing: DiffChange[] = [];
  const newlyPassing: DiffChange[] = [];
  const changedSignatures: DiffChange[] = [];
  for (const test of now.tests) {
    const was = before.get(test.id);
    const [from, to] = [stateOf(was), stateOf(test)];
    if (to === 'failed' && from !== 'failed') newlyFailing.push(change(test, was));
    else if (to === 'passed' && from === 'failed') newlyPassing.push(change(test, was));
    else if (to === 'failed' && from === 'failed' && !sameSignature(was!.signature, test.signature))
      changedSignatures.push(change(test, was));
  }
  return {
    old: runRef(old, oldFile),
    new: runRef(now, newFile),
    newlyFailing,
    newlyPassing,
    changedSignatures,
    regressed: newlyFailing.length > 0 || changedSignatures.length > 0,
  };
}

function describe(signature: DiffChange['signature']): string {
  if (signature === undefined) return 'no signature';
  return [
    signature.status === undefined ? '' : `status ${signature.status}`,
    signature.errorCode ?? '',
    signature.assertion === undefined ? '' : `"${signature.assertion}"`,
  ]
    .filter(Boolean)
    .join(', ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The diff as Markdown: summary.md's section when a run has a baseline, and what `diff` prints and writes. */
export function renderDiffMarkdown(diff: Diff, heading = '##'): string {
  const lines = [
    `${heading} Since the baseline (run ${diff.old.runId}, ${diff.old.outcome})`,
    '',
    `${diff.newlyFailing.length} newly failing, ${diff.newlyPassing.length} newly passing, ${diff.changedSignatures.length} failing another way${diff.regressed ? ' (a regression)' : ''}.`,
  ];
  const list = (title: string, changes: readonly DiffChange[], line: (c: DiffChange) => string) => {
    if (changes.length === 0) return;
    lines.push('', `**${title}**`, '');
    for (const c of changes) lines.push(`- ${cell(c.test)} (${c.requirements.join(', ')}): ${cell(line(c))}`);
  };
  list('Newly failing', diff.newlyFailing, (c) => `was ${c.was}, now ${c.now}: ${describe(c.signature)}`);
  list('Newly passing', diff.newlyPassing, (c) => `was ${c.was}, now ${c.now}`);
  list('Failing another way', diff.changedSignatures, (c) => `was ${describe(c.wasSignature)}; now ${describe(c.signature)}`);
  return `${lines.join('\n')}\n`;
}

/** `fauna-conformance diff`: compares two reports and writes diff.md and diff.json (default: beside the new one). */
export function diffReportFiles(oldPath: string, newPath: string, outDir: string | undefined): { diff: Diff; text: string } {
  const newFile = existsSync(newPath) && statSync(newPath).isDirectory() ? join(newPath, 'conformance.json') : newPath;
  const diff = diffReports(readReport(oldPath), readReport(newPath), oldPath, newPath);
  const text = renderDiffMarkdown(diff, '#');
  const dir = outDir ?? dirname(newFile);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'diff.md'), text);
  writeFileSync(join(dir, 'diff.json'), `${JSON.stringify(diff, null, 2)}\n`);
  return { diff, text };
}
