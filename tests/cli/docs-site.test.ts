// The spec site, built after a real run: every requirement has its anchor; every requirement ID the run's tests
// declared has its page listing those tests; each page shows its basis, evidence, the reference-server code that
// implements it (every active MUST links to one), its status in the run and an example exchange the run recorded; and
// every link resolves.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evidenceUrl, loadRequirementsIndex } from '../../spec/build-index.js';
import { buildSite, pageOf } from '../runner/docs/build-site.js';
import type { ConformanceReport } from '../runner/reporters/report-model.js';
import { runCli } from './run-fixture-suite.js';

/**
 * Files whose tests mostly take their requirement IDs from tables (a case's `ids`) or functions of the case, which a
 * reading of the sources for `check([...])` missed.
 */
const RUN = [
  '--area',
  'core,events',
  '--test',
  '^(Merge|ContainsPath, ContainsField and ContainsValue|ToObject and ToArray|POST /query/1 creates event sources) ',
];

const spec = loadRequirementsIndex();
let report: ConformanceReport;
let html: Map<string, string>;

/** The metadata block under a requirement's heading. */
function blockOf(id: string): string {
  const page = html.get(pageOf(spec.requirements.find((r) => r.id === id)!.file))!;
  const start = page.indexOf(`data-requirement="${id}"`);
  expect(start, `${id} has a block`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf(`<!-- ${id} -->`, start));
}

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

beforeAll(async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'fc-site-run-'));
  const run = await runCli([...RUN, '--seed', '3', '--allow-untested', '--report-dir', reportDir], { timeoutMs: 240_000 });
  expect(run.code, run.stderr + run.stdout.slice(-3000)).toBe(0);
  const reportPath = join(reportDir, 'conformance.json');
  report = JSON.parse(readFileSync(reportPath, 'utf8')) as ConformanceReport;
  const out = mkdtempSync(join(tmpdir(), 'fc-site-'));
  const { pages } = await buildSite({ outDir: out, reportPath });
  html = new Map(pages.map((p) => [p, readFileSync(join(out, p), 'utf8')]));
}, 300_000);

describe('npm run docs', () => {
  it('anchors every requirement by its ID on its area page and every decision on the decisions page', () => {
    for (const r of spec.requirements) expect(html.get(pageOf(r.file)), r.id).toContain(`id="${r.id}"`);
    for (const d of spec.decisions) expect(html.get('decisions.html'), d.id).toContain(`id="${d.id}"`);
    for (const page of ['index.html', 'requirements.html', 'schemas.html', 'schemas/config.html', 'schemas/conformance-report.html'])
      expect(html.has(page), page).toBe(true);
  });

  it("gives every requirement ID the run's tests declared its page, listing each of those tests", () => {
    const declared = new Set(report.tests.flatMap((t) => t.requirements));
    expect(declared.size, 'the run declared requirement IDs').toBeGreaterThan(30);
    for (const t of report.tests)
      for (const id of t.requirements)
        expect(blockOf(id), `${id} lists ${t.name}`).toContain(`<code>${t.file}</code> — ${escaped(t.name)}`);
  });

  it("shows a requirement's statement first, then its status in the run and an example exchange from a test that passed", () => {
    const passed = report.requirements.filter((r) => r.status === 'passed');
    expect(passed.length).toBeGreaterThan(30);
    for (const r of passed) {
      const block = blockOf(r.id);
      expect(block, r.id).toContain('<span class="st-passed">passed</span>');
      const example = report.tests.find((t) => t.example !== undefined && t.requirements.includes(r.id))!;
      expect(example, `${r.id}: a passing test keeps an example`).toBeDefined();
      expect(block, r.id).toContain(
        `<details class="example"><summary>Example exchange, from the passing test ${escaped(example.name)}</summary><pre>${example.example!.method} ${escaped(example.example!.path)}`,
      );
    }
    const first = passed[0]!;
    const page = html.get(pageOf(spec.requirements.find((r) => r.id === first.id)!.file))!;
    const heading = page.indexOf(`id="${first.id}"`);
    const statementAt = page.indexOf(escaped(first.statement.split(/[`*]/)[0]!.slice(0, 30)), heading);
    expect(statementAt).toBeGreaterThan(heading);
    expect(statementAt).toBeLessThan(page.indexOf(`data-requirement="${first.id}"`));
  });

  it('links every active MUST page to at least one reference-server site, a line of a page of the source', () => {
    const unlinked = spec.requirements.filter(
      (r) =>
        r.level === 'MUST' &&
        r.status === 'active' &&
        !/class="code-site" href="code\/reference-impl\/[^"#]+\.ts\.html#L\d+"/.test(blockOf(r.id)),
    );
    expect(unlinked.map((r) => r.id)).toEqual([]);
    const page = html.get('code/reference-impl/eval/forms/math.ts.html')!;
    expect(page, 'a code page anchors its lines').toMatch(/<span id="L1"><a class="ln" href="#L1">1<\/a>/);
  });

  it("shows every requirement's basis and links each piece of its evidence at the pinned commit", () => {
    for (const r of spec.requirements) {
      const own = blockOf(r.id);
      expect(own, r.id).toContain(`data-basis="${r.basis}"`);
      for (const e of r.evidence) expect(own, r.id).toContain(`href="${evidenceUrl(e, spec.evidenceSources)}"`);
      if (r.evidence.length === 0) expect(own, r.id).toContain("none found in Fauna's code or tests");
    }
    expect(html.get('requirements.html')).toContain('id="basis-filter"');
  });

  it('has no broken links or anchors', () => {
    const broken: string[] = [];
    for (const [page, text] of html) {
      for (const m of text.matchAll(/href="([^"]+)"/g)) {
        const href = m[1]!;
        if (/^[a-z]+:/.test(href)) continue;
        const [file, anchor] = href.split('#');
        const target = file ? normalize(join(dirname(page), file)) : page;
        const targetHtml = html.get(target.split('\\').join('/'));
        if (targetHtml === undefined) broken.push(`${page}: ${href} (no page ${target})`);
        else if (anchor && !targetHtml.includes(`id="${anchor}"`)) broken.push(`${page}: ${href} (no anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
