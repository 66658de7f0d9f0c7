// Live progress on the terminal: one line per area with passed / failed / remaining, redrawn as tests finish. In CI
// (CI=true) or without a TTY it stays quiet until the end. The end is always the same: a table per area by gate
// status, then each failing test with its one-line replay command.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { DEFAULT_TESTS_DIR, type ConformanceReport } from './report-model.js';
import { areaOf } from './conformance-reporter.js';
import { closingLine, needsSettingLines } from './verdict.js';

export interface ProgressReporterOptions {
  /** The finished report (from the conformance reporter, which runs first at the end). */
  report: () => ConformanceReport | undefined;
  root: string;
  testsDir?: string;
  /** The run's --requirement: tests not tagged with it are deselected (vitest reports them as skipped). */
  requirement?: string;
  /** Where to write; default process.stdout. */
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Redraw live; default: a TTY and not CI. */
  live?: boolean;
}

type Tally = { total: number; passed: number; failed: number; skipped: number };
const REDRAW_MS = 100;

export function progressLines(tallies: ReadonlyMap<string, Tally>): string[] {
  const width = Math.max(4, ...[...tallies.keys()].map((a) => a.length));
  return [...tallies.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, t]) => {
      const done = t.passed + t.failed + t.skipped;
      return `${area.padEnd(width)}  ${String(t.passed).padStart(4)} passed  ${String(t.failed).padStart(4)} failed  ${String(t.total - done).padStart(4)} remaining`;
    });
}

export function finalTable(report: ConformanceReport): string[] {
  const header = ['area', 'tests', 'passed', 'failed', 'unexp.pass', 'exp.fail', 'not-claimed', 'skipped', 'needs-set', 'not-run'];
  const row = (name: string, c: ConformanceReport['totals']) =>
    [name, c.tests, c.passed, c.failed, c.unexpectedPass, c.expectedFailure, c.notClaimed, c.skipped, c.needsSetting, c.notRun].map(String);
  const rows = report.areas.map((a) => row(a.area, a));
  rows.push(row('total', report.totals));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = [fmt(header), ...rows.map(fmt)];
  const bad = report.tests.filter((x) => x.status === 'failed' || x.status === 'unexpected-pass');
  for (const x of bad) {
    lines.push(
      '',
      `✗ ${x.id} [${x.requirements.join(', ')}]`,
      `  ${(x.status === 'failed' ? (x.error ?? x.note ?? '') : (x.note ?? '')).split('\n')[0]}`,
    );
    if (x.replay) lines.push(`  replay: ${x.replay}`);
  }
  for (const e of report.runErrors) lines.push('', `! ${e.split('\n')[0]}`);
  if (report.baseline) {
    const d = report.baseline;
    lines.push(
      '',
      `since the baseline: ${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.changedSignatures.length} failing another way`,
    );
  }
  lines.push(...needsSettingLines(report));
  if (report.targetLost !== undefined) lines.push('', `! ${report.targetLost}`);
  lines.push('', closingLine(report));
  return lines;
}

export class ProgressReporter implements Reporter {
  private readonly tallies = new Map<string, Tally>();
  private drawn = 0;
  private lastDraw = 0;
  private readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  private readonly live: boolean;

  constructor(private readonly options: ProgressReporterOptions) {
    this.out = options.out ?? process.stdout;
    this.live = options.live ?? (Boolean(this.out.isTTY) && !/^(1|true)$/i.test(process.env.CI ?? ''));
  }

  private selected(test: TestCase): boolean {
    return this.options.requirement === undefined || test.tags.includes(this.options.requirement);
  }

  private tally(test: TestCase): Tally {
    const file = test.module.moduleId
      .slice(this.options.root.length + 1)
      .split('\\')
      .join('/');
    const area = areaOf(file, this.options.testsDir ?? DEFAULT_TESTS_DIR);
    let t = this.tallies.get(area);
    if (!t) {
      t = { total: 0, passed: 0, failed: 0, skipped: 0 };
      this.tallies.set(area, t);
    }
    return t;
  }

  onTestModuleCollected(module: TestModule): void {
    for (const test of module.children.allTests()) if (this.selected(test)) this.tally(test).total += 1;
    this.draw(false);
  }

  onTestCaseResult(test: TestCase): void {
    if (!this.selected(test)) return;
    const state = test.result().state;
    const t = this.tally(test);
    if (state === 'passed') t.passed += 1;
    else if (state === 'failed') t.failed += 1;
    else t.skipped += 1;
    this.draw(false);
  }

  private draw(force: boolean): void {
    if (!this.live) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const lines = progressLines(this.tallies);
    // Move up over the previous block and clear it, then print the new one.
    const clear = this.drawn > 0 ? `\x1b[${this.drawn}A\x1b[J` : '';
    this.out.write(`${clear}${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }

  onTestRunEnd(): void {
    this.draw(true);
    const report = this.options.report();
    if (report) this.out.write(`\n${finalTable(report).join('\n')}\n`);
  }
}
