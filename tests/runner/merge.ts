// `fauna-conformance merge DIR… --report-dir OUT`: one report from the conformance.json files of shard runs, plus
// their JUnit and Allure results (merge-artifacts.ts). The tests keep the gate status their shard gave them; areas,
// requirements, totals and the outcome are recomputed.
import { loadRequirementsIndex } from '../../spec/build-index.js';
import { mergeArtifacts, shardDir } from './merge-artifacts.js';
import { aggregateReport, type ConformanceReport, type JudgedTest } from './reporters/report-model.js';
import { writeReportFiles } from './reporters/report-files.js';
import { readReport, ReportFileError } from './diff.js';

export class MergeError extends Error {
  override name = 'MergeError';
}

/** A shard's report, read as `diff` reads one; a report that cannot be read is the merge's error. */
function readShardReport(path: string): ConformanceReport {
  try {
    return readReport(path);
  } catch (err) {
    if (err instanceof ReportFileError) throw new MergeError(err.message);
    throw err;
  }
}

function same<K extends keyof ConformanceReport>(reports: readonly ConformanceReport[], key: K, what: string): void {
  const first = JSON.stringify(reports[0]![key]);
  const other = reports.find((r) => JSON.stringify(r[key]) !== first);
  if (other)
    throw new MergeError(`the reports differ in ${what} (${first} vs ${JSON.stringify(other[key])}); merge only shards of one run`);
}

export function mergeReports(reports: readonly ConformanceReport[]): ConformanceReport {
  if (reports.length === 0) throw new MergeError('nothing to merge');
  same(reports, 'suiteVersion', 'suite version');
  same(reports, 'specVersion', 'spec version');
  same(reports, 'target', 'target');
  same(reports, 'seed', 'seed');
  same(reports, 'claimedProfiles', 'claimed profiles');
  same(reports, 'expectationsFile', 'expectations file');
  same(reports, 'areasRun', 'areas');
  same(reports, 'filters', 'filters');
  const spec = loadRequirementsIndex();
  const first = reports[0]!;
  if (spec.specVersion !== first.specVersion)
    throw new MergeError(`the reports are of spec ${first.specVersion}, this suite has spec ${spec.specVersion}`);

  const tests = new Map<string, JudgedTest>();
  for (const r of reports) {
    for (const t of r.tests) {
      if (tests.has(t.id)) throw new MergeError(`test ${t.id} is in more than one report; merge only distinct shards`);
      tests.set(t.id, t);
    }
  }
  // An expectation entry is stale only if no shard saw its test.
  const unmatched = first.unmatchedExpectations.filter(
    (id) => reports.every((r) => r.unmatchedExpectations.includes(id)) && !tests.has(id),
  );
  const startedAt = new Date(Math.min(...reports.map((r) => Date.parse(r.startedAt))));
  const finishedAt = new Date(Math.max(...reports.map((r) => Date.parse(r.finishedAt))));
  const shards = [...new Set(reports.flatMap((r) => r.shards))].sort();
  // A shard whose target stopped answering fails the merged report too, with its reason.
  const lost = [...new Set(reports.flatMap((r) => (r.targetLost === undefined ? [] : [r.targetLost])))];

  return aggregateReport({
    info: {
      suiteVersion: first.suiteVersion,
      target: first.target,
      seed: first.seed,
      runId: first.runId,
      startedAt,
      finishedAt,
      areas: first.wholeSuite ? undefined : first.areasRun,
      allAreas: first.areasRun,
      failOnUntestedMust: first.policy.untestedMust === 'fail',
      claimed: first.claimedProfiles,
      expectationsFile: first.expectationsFile,
      ...first.filters,
      ...(lost.length === 0
        ? {}
        : { targetLost: lost.join('; '), filesNotStarted: reports.flatMap((r) => r.filesNotStarted ?? []).sort() }),
    },
    spec,
    tests: [...tests.values()].sort((a, b) => a.id.localeCompare(b.id)),
    runErrors: reports.flatMap((r) => r.runErrors),
    unmatchedExpectations: unmatched,
    shards,
  });
}

export function mergeReportDirs(paths: readonly string[], outDir: string): ConformanceReport {
  const report = mergeReports(paths.map(readShardReport));
  writeReportFiles(report, outDir);
  mergeArtifacts(paths.map(shardDir), outDir);
  return report;
}
