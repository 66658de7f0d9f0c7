// The spec site: every requirement has its anchor, shows its tests and last-run status, and every link resolves.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceUrl, loadRequirementsIndex } from '../../spec/build-index.js';
import { buildSite, pageOf } from '../runner/docs/build-site.js';
import { scanChecks } from '../runner/docs/test-scan.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run docs', () => {
  const out = mkdtempSync(join(tmpdir(), 'fc-site-'));
  const reportPath = join(mkdtempSync(join(tmpdir(), 'fc-site-report-')), 'conformance.json');
  writeFileSync(reportPath, JSON.stringify({ finishedAt: '2025-01-01T00:00:00Z', target: { url: 'http://127.0.0.1:9' }, requirements: [{ id: 'COLL-CREATE-002', status: 'failed' }] }));
  const { pages } = buildSite({ outDir: out, reportPath, testsDir: join(ROOT, 'tests/runner/fixtures/suite') });
  const html = new Map(pages.map((p) => [p, readFileSync(join(out, p), 'utf8')]));
  const spec = loadRequirementsIndex();

  it('anchors every requirement by its ID on its area page and every decision on the decisions page', () => {
    for (const r of spec.requirements) expect(html.get(pageOf(r.file)), r.id).toContain(`id="${r.id}"`);
    for (const d of spec.decisions) expect(html.get('decisions.html'), d.id).toContain(`id="${d.id}"`);
    for (const page of ['index.html', 'requirements.html', 'schemas.html', 'schemas/config.html', 'schemas/conformance-report.html']) expect(pages).toContain(page);
  });

  it('shows the tests that check a requirement (scanned from check([...]) calls) and its last-run status', () => {
    const page = html.get(pageOf(spec.requirements.find((r) => r.id === 'COLL-CREATE-002')!.file))!;
    const block = page.slice(page.indexOf('data-requirement="COLL-CREATE-002"'));
    const own = block.slice(0, block.indexOf('</div>\n</div>') + 1);
    expect(own).toContain('tests/runner/fixtures/suite/core/documents.test.ts</code> — read answers 200');
    expect(own).toContain('<span class="st-failed">failed</span>');
    // The statement comes first, then the metadata.
    const heading = page.indexOf('id="COLL-CREATE-002"');
    const statement = spec.requirements.find((r) => r.id === 'COLL-CREATE-002')!.statement.split(/[`*]/)[0]!.slice(0, 30);
    const statementAt = page.indexOf(statement, heading);
    expect(statementAt).toBeGreaterThan(heading);
    expect(statementAt).toBeLessThan(page.indexOf('data-requirement="COLL-CREATE-002"'));
    expect(scanChecks(`check(['A-B-001', 'C-D-002'], "it's \\"fine\\"", async () => {})`)).toEqual([{ ids: ['A-B-001', 'C-D-002'], title: `it's \\"fine\\"` }]);
  });

  it("shows every requirement's basis and links each piece of its evidence at the pinned commit", () => {
    for (const r of spec.requirements) {
      const page = html.get(pageOf(r.file))!;
      const block = page.slice(page.indexOf(`data-requirement="${r.id}"`));
      const own = block.slice(0, block.indexOf('</div>\n</div>') + 1);
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
