/**
 * `npm run spec:evidence`: how much of the spec rests on Fauna's own code and tests. Prints, per area (spec file) and
 * per profile, the active requirements, how many cite evidence, and their basis (the SD, the core, a decision alone).
 *
 *   npm run spec:evidence                       the tables
 *   npm run spec:evidence -- --verify DIR       also checks every cited range against checkouts DIR/<repo name>
 *                                               (e.g. DIR/faunadb), each at the commit spec/evidence-sources.json pins
 *   npm run spec:evidence -- --json             the counts as JSON
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex, PROFILES, type Requirement, type RequirementsIndex } from './build-index.js';

export interface EvidenceCount {
  /** Active requirements (all levels). */
  active: number;
  /** Active MUST requirements. */
  must: number;
  /** Active MUST requirements that cite evidence. */
  mustWithEvidence: number;
  /** Active requirements (all levels) that cite evidence. */
  withEvidence: number;
  basis: Record<Requirement['basis'], number>;
}

export interface EvidenceCounts {
  byArea: Record<string, EvidenceCount>;
  byProfile: Record<string, EvidenceCount>;
  total: EvidenceCount;
}

function emptyCount(): EvidenceCount {
  return { active: 0, must: 0, mustWithEvidence: 0, withEvidence: 0, basis: { sd: 0, core: 0, decision: 0 } };
}

function add(count: EvidenceCount, r: Requirement): void {
  const cited = r.evidence.length > 0;
  count.active++;
  count.basis[r.basis]++;
  if (cited) count.withEvidence++;
  if (r.level === 'MUST') {
    count.must++;
    if (cited) count.mustWithEvidence++;
  }
}

export function countEvidence(index: RequirementsIndex): EvidenceCounts {
  const counts: EvidenceCounts = { byArea: {}, byProfile: Object.fromEntries(PROFILES.map((p) => [p, emptyCount()])), total: emptyCount() };
  for (const r of index.requirements) {
    if (r.status !== 'active') continue;
    const area = basename(r.file, '.md');
    counts.byArea[area] ??= emptyCount();
    add(counts.byArea[area], r);
    add(counts.byProfile[r.profile] as EvidenceCount, r);
    add(counts.total, r);
  }
  return counts;
}

/** Share of active MUST requirements of the given profiles that cite evidence, in percent. */
export function mustEvidencePercent(counts: EvidenceCounts, profiles: readonly string[]): number {
  let must = 0;
  let cited = 0;
  for (const p of profiles) {
    must += counts.byProfile[p]?.must ?? 0;
    cited += counts.byProfile[p]?.mustWithEvidence ?? 0;
  }
  return must === 0 ? 100 : (100 * cited) / must;
}

/** Cited ranges that do not exist in the checkouts under `dir` (a missing file, or a range past its end). */
export function verifyEvidence(index: RequirementsIndex, dir: string): string[] {
  const problems: string[] = [];
  const lineCounts = new Map<string, number | undefined>();
  for (const r of index.requirements) {
    for (const e of r.evidence) {
      const path = join(dir, e.repo.split('/')[1] as string, e.path);
      if (!lineCounts.has(path)) lineCounts.set(path, existsSync(path) ? readFileSync(path, 'utf8').split('\n').length : undefined);
      const lines = lineCounts.get(path);
      if (lines === undefined) problems.push(`${r.id}: ${e.repo}:${e.path} does not exist`);
      else if (e.lines[1] > lines) problems.push(`${r.id}: ${e.repo}:${e.path}#L${e.lines[0]}-L${e.lines[1]} runs past its ${lines} lines`);
    }
  }
  return problems;
}

function table(title: string, rows: Record<string, EvidenceCount>): string {
  const head = [title, 'active', 'MUST', 'MUST cited', '%', 'all cited', 'basis sd', 'core', 'decision'];
  const line = (name: string, c: EvidenceCount) => [
    name,
    String(c.active),
    String(c.must),
    String(c.mustWithEvidence),
    c.must === 0 ? '-' : `${Math.floor((100 * c.mustWithEvidence) / c.must)}`,
    String(c.withEvidence),
    String(c.basis.sd),
    String(c.basis.core),
    String(c.basis.decision),
  ];
  const body = Object.entries(rows)
    .filter(([, c]) => c.active > 0)
    .map(([name, c]) => line(name, c));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const fmt = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  return [fmt(head), ...body.map(fmt)].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const index = buildIndex();
  const counts = countEvidence(index);
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(counts, null, 2)}\n`);
  } else {
    process.stdout.write(
      `${table('area', counts.byArea)}\n\n${table('profile', counts.byProfile)}\n\n${table('', { total: counts.total })}\n`,
    );
  }
  const verifyAt = args.indexOf('--verify');
  if (verifyAt >= 0) {
    const dir = args[verifyAt + 1];
    if (dir === undefined) throw new Error('--verify needs a directory of checkouts');
    const problems = verifyEvidence(index, dir);
    process.stdout.write(problems.length === 0 ? 'every cited range exists\n' : `${problems.join('\n')}\n`);
    if (problems.length > 0) process.exitCode = 1;
  }
}
