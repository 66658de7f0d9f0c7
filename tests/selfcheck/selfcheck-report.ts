// The selfcheck's result as data (reports/selfcheck.json) and as a page people read (reports/selfcheck.md).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FaultResult {
  id: string;
  title: string;
  area: string;
  breaks: readonly string[];
  areasRun: readonly string[];
  /** Set when the run was narrowed to some tests of those areas. */
  scope?: { requirement?: string; testPattern?: string };
  caught: boolean;
  /** Tests that failed with the fault in place and passed without it. */
  caughtBy: { test: string; requirements: string[]; error?: string }[];
  /** Requirement IDs of the tests that caught it. */
  caughtByRequirements: string[];
  /** How many messages or events the fault changed; 0 means the suite never exercised what it breaks. */
  applied: number;
  exitCode: number | null;
  durationMs: number;
  problem?: string;
}

export interface HostileResult {
  id: string;
  title: string;
  area: string;
  survived: boolean;
  exitCode: number | null;
  hung: boolean;
  durationMs: number;
  boundMs: number;
  failedTests: number;
  unclearFailures: string[];
  sampleReason?: string;
  problem?: string;
}

export interface AreaTotals {
  faults: number;
  caught: number;
  hostile: number;
  survived: number;
}

/** Fault and hostile-server counts per area, in the order areas first appear. */
export function totalsByArea(faults: readonly FaultResult[], hostile: readonly HostileResult[]): Record<string, AreaTotals> {
  const byArea: Record<string, AreaTotals> = {};
  const of = (area: string) => (byArea[area] ??= { faults: 0, caught: 0, hostile: 0, survived: 0 });
  for (const fault of faults) {
    of(fault.area).faults++;
    if (fault.caught) of(fault.area).caught++;
  }
  for (const server of hostile) {
    of(server.area).hostile++;
    if (server.survived) of(server.area).survived++;
  }
  return byArea;
}

export interface SelfcheckReport {
  mode: 'fast' | 'full';
  startedAt: string;
  durationMs: number;
  baselineFailures: Record<string, string[]>;
  faults: FaultResult[];
  hostile: HostileResult[];
  totals: AreaTotals;
  byArea: Record<string, AreaTotals>;
  outcome: 'passed' | 'failed';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160);
}

export function selfcheckMarkdown(report: SelfcheckReport): string {
  const lines = [
    `# Self-check (${report.mode})`,
    '',
    `Faults caught: **${report.totals.caught}/${report.totals.faults}** · hostile servers survived: **${report.totals.survived}/${report.totals.hostile}** · outcome: **${report.outcome}** · ${Math.round(report.durationMs / 1000)} s`,
  ];
  lines.push('', '## Per area', '', '| Area | Faults caught | Hostile servers survived |', '|---|---|---|');
  for (const [area, totals] of Object.entries(report.byArea)) {
    lines.push(`| ${area} | ${totals.caught}/${totals.faults} | ${totals.survived}/${totals.hostile} |`);
  }
  const baseline = Object.entries(report.baselineFailures).filter(([, tests]) => tests.length > 0);
  if (baseline.length > 0) {
    lines.push('', '## Baseline failures (against the unmodified reference server; they catch nothing)', '');
    for (const [area, tests] of baseline) lines.push(`- ${area}: ${tests.map(cell).join(', ')}`);
  }
  lines.push('', '## Faults', '', '| Fault | Area | Breaks | Caught | Caught by | Applied |', '|---|---|---|---|---|---|');
  for (const fault of report.faults) {
    const by =
      fault.caughtBy.length === 0
        ? cell(fault.problem ?? '—')
        : cell(
            fault.caughtBy
              .slice(0, 3)
              .map((c) => c.test)
              .join('; ') + (fault.caughtBy.length > 3 ? ` (+${fault.caughtBy.length - 3})` : ''),
          );
    const area =
      fault.scope === undefined
        ? fault.area
        : `${fault.area} (${[fault.scope.requirement, fault.scope.testPattern].filter(Boolean).join(', ')} only)`;
    lines.push(
      `| \`${fault.id}\` ${cell(fault.title)} | ${cell(area)} | ${fault.breaks.join(', ')} | ${fault.caught ? 'yes' : '**no**'} | ${by} | ${fault.applied} |`,
    );
  }
  lines.push(
    '',
    '## Hostile servers',
    '',
    '| Server | Area | Survived | Exit | Time / bound | Failed tests | Note |',
    '|---|---|---|---|---|---|---|',
  );
  for (const hostile of report.hostile) {
    const note = hostile.problem ?? hostile.sampleReason ?? '';
    lines.push(
      `| \`${hostile.id}\` ${cell(hostile.title)} | ${hostile.area} | ${hostile.survived ? 'yes' : '**no**'} | ${hostile.exitCode ?? 'killed'} | ${Math.round(hostile.durationMs / 1000)} s / ${Math.round(hostile.boundMs / 1000)} s | ${hostile.failedTests} | ${cell(note)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeSelfcheckReport(dir: string, report: SelfcheckReport): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'selfcheck.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'selfcheck.md'), selfcheckMarkdown(report));
}

/**
 * One report from several (e.g. batches run one after another on a busy machine): a fault or hostile server that
 * appears twice keeps its later result; totals are recounted.
 */
export function mergeSelfcheckReports(reports: readonly SelfcheckReport[]): SelfcheckReport {
  if (reports.length === 0) throw new Error('nothing to merge');
  const faults = new Map<string, FaultResult>();
  const hostile = new Map<string, HostileResult>();
  const baselineFailures: Record<string, string[]> = {};
  for (const report of reports) {
    for (const fault of report.faults) faults.set(fault.id, fault);
    for (const server of report.hostile) hostile.set(server.id, server);
    Object.assign(baselineFailures, report.baselineFailures);
  }
  const faultList = [...faults.values()];
  const hostileList = [...hostile.values()];
  const caught = faultList.filter((fault) => fault.caught).length;
  const survived = hostileList.filter((server) => server.survived).length;
  return {
    mode: reports.every((report) => report.mode === 'full') ? 'full' : 'fast',
    startedAt: reports.map((report) => report.startedAt).sort()[0]!,
    durationMs: reports.reduce((sum, report) => sum + report.durationMs, 0),
    baselineFailures,
    faults: faultList,
    hostile: hostileList,
    totals: { faults: faultList.length, caught, hostile: hostileList.length, survived },
    byArea: totalsByArea(faultList, hostileList),
    outcome: caught === faultList.length && survived === hostileList.length ? 'passed' : 'failed',
  };
}

export function readSelfcheckReport(dir: string): SelfcheckReport {
  return JSON.parse(readFileSync(join(dir, 'selfcheck.json'), 'utf8')) as SelfcheckReport;
}
