// Every file a run (or `merge`) writes into the report directory from conformance.json's data. JUnit and Allure come
// from vitest's own reporters during a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderBadge, shieldsEndpoint } from './badge.js';
import { renderHtmlReport } from './html-report.js';
import type { ConformanceReport } from './report-model.js';
import { renderSummary } from './summary-markdown.js';

export const REPORT_FILES = ['conformance.json', 'summary.md', 'badge.svg', 'badge.json', 'report.html'] as const;

export function writeReportFiles(report: ConformanceReport, dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), renderSummary(report));
  writeFileSync(join(dir, 'badge.svg'), renderBadge(report));
  writeFileSync(join(dir, 'badge.json'), `${JSON.stringify(shieldsEndpoint(report))}\n`);
  writeFileSync(join(dir, 'report.html'), renderHtmlReport(report));
}
