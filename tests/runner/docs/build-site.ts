// `npm run docs [OUT]`: a static site from spec/ and schemas/ (default OUT: site/, gitignored). One page per spec file
// with each requirement anchored by its ID (`feeds.html#FEED-REQ-001`) and annotated with its level, profile,
// sources, schemas, the tests that check it (collected as a run registers them), the reference-server code that
// implements it (its `Implements:` comments, each linked to a page of the source), and, from the last run
// (reports/conformance.json when present), its status and an example exchange; a requirement index, the decisions
// page, one page per schema.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { readSchema, schemaDir, schemaNames } from '../../../schemas/index.js';
import {
  evidenceCite,
  evidenceUrl,
  extractSchemaExamples,
  loadRequirementsIndex,
  specMarkdownFiles,
  type EvidenceSource,
  type Requirement,
} from '../../../spec/build-index.js';
import type { Exchange } from '../../../schemas/types.js';
import { formatExchanges } from '../../harness/transcript.js';
import { scanCodeSites, type CodeSite } from './code-sites.js';
import { collectTestsByRequirement, type TestRef } from './collect-tests.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const REQ_HEADING = /^([A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d{3})\b/;
const DEC_HEADING = /^(DEC-\d{3})\b/;

interface LastRun {
  statuses: Map<string, string>;
  /** Per requirement, the first test of the run that carries an example exchange for it. */
  examples: Map<string, { test: string; exchange: Exchange }>;
  finishedAt: string;
  target: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Page name for a spec Markdown file: spec/requirements/feeds.md → feeds.html, spec/decisions.md → decisions.html. */
export function pageOf(specFile: string): string {
  const name = basename(specFile, '.md');
  return name === 'README' ? 'spec.html' : `${name}.html`;
}

function readLastRun(path: string): LastRun | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const report = JSON.parse(readFileSync(path, 'utf8')) as {
      requirements: { id: string; status: string }[];
      tests?: { name: string; requirements: string[]; example?: Exchange }[];
      finishedAt: string;
      target: { url: string };
    };
    const examples = new Map<string, { test: string; exchange: Exchange }>();
    for (const t of report.tests ?? []) {
      if (t.example === undefined) continue;
      for (const id of t.requirements) if (!examples.has(id)) examples.set(id, { test: t.name, exchange: t.example });
    }
    return {
      statuses: new Map(report.requirements.map((r) => [r.id, r.status])),
      examples,
      finishedAt: report.finishedAt,
      target: report.target.url,
    };
  } catch {
    return undefined;
  }
}

function layout(title: string, body: string, depth = 0): string {
  const up = '../'.repeat(depth);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · fauna-conformance spec</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:1rem 1.5rem;line-height:1.5;color:#212121}
nav a{margin-right:1rem}code,pre{background:#f4f4f4;border-radius:3px}pre{padding:.6rem;overflow:auto}
.req{border-left:4px solid #90a4ae;padding:.1rem .8rem;margin:.4rem 0 1rem;background:#fafafa;font-size:.9rem}
.st-passed{color:#2e7d32}.st-failed{color:#c62828}.st-untested{color:#757575}.st-not-claimed{color:#757575}.st-expected-failure{color:#ef6c00}.st-needs-setting{color:#1565c0}.st-not-run{color:#6d4c41}
table{border-collapse:collapse}td,th{border-bottom:1px solid #e0e0e0;padding:.2rem .5rem;text-align:left;vertical-align:top}
.source a.ln{color:#9e9e9e;text-decoration:none;display:inline-block;min-width:3.5em;text-align:right;user-select:none}.source span:target{background:#fff59d}
.example pre{font-size:.8rem;max-height:24rem}
</style></head><body>
<nav><a href="${up}index.html">Spec site</a><a href="${up}requirements.html">Requirements</a><a href="${up}decisions.html">Decisions</a><a href="${up}schemas.html">Schemas</a></nav>
${body}
</body></html>
`;
}

/** Links in the Markdown point at .md files; on the site they are the .html pages. */
function rewriteHref(href: string): string {
  const m = /^(?:\.\.\/|\.\/)*(?:spec\/)?(?:requirements\/)?([A-Za-z0-9_-]+)\.md(#.*)?$/.exec(href);
  if (!m) return href;
  return `${pageOf(`${m[1]}.md`)}${m[2] ?? ''}`;
}

/** What each basis means, as the site and its filter say it. */
const BASIS: Record<Requirement['basis'], string> = {
  sd: 'the service description states it',
  core: "Fauna's own code or tests show it (drop-in compatibility)",
  decision: 'a decision of this spec alone',
};

function evidenceHtml(req: Requirement, sources: Readonly<Record<string, EvidenceSource | undefined>>): string {
  if (req.evidence.length === 0) return "none found in Fauna's code or tests";
  return req.evidence
    .map(
      (e) =>
        `<a href="${escapeHtml(evidenceUrl(e, sources))}"><code>${escapeHtml(evidenceCite(e))}</code></a>${e.note ? ` (${escapeHtml(e.note)})` : ''}`,
    )
    .join('; ');
}

/** The page of a source file on the site: `code/reference-impl/indexes/index-manager.ts.html`. */
export function codePageOf(file: string): string {
  return `code/${file}.html`;
}

function codeHtml(sites: readonly CodeSite[]): string {
  if (sites.length === 0) return '<em>no <code>Implements:</code> comment names it</em>';
  return sites
    .map(
      (s) =>
        `<a class="code-site" href="${escapeHtml(codePageOf(s.file))}#L${s.line}"><code>${escapeHtml(s.file)}:${s.line}</code></a> <code>${escapeHtml(s.label)}</code>`,
    )
    .join('<br>');
}

function exampleHtml(example: { test: string; exchange: Exchange } | undefined): string {
  if (example === undefined) return '';
  return `<details class="example"><summary>Example exchange, from the passing test ${escapeHtml(example.test)}</summary><pre>${escapeHtml(formatExchanges([example.exchange]))}</pre></details>`;
}

function requirementBlock(
  req: Requirement,
  tests: readonly TestRef[],
  sites: readonly CodeSite[],
  schemas: readonly string[],
  lastRun: LastRun | undefined,
  sources: Readonly<Record<string, EvidenceSource | undefined>>,
): string {
  const cited = req.source.map((s) => s.replace(/\bDEC-\d{3}\b/g, (id) => `<a href="decisions.html#${id}">${id}</a>`)).join('; ');
  const status = lastRun ? (lastRun.statuses.get(req.id) ?? 'not in the last run') : 'no run recorded';
  const testList =
    tests.length === 0 ? '<em>none yet</em>' : tests.map((t) => `<code>${escapeHtml(t.file)}</code> — ${escapeHtml(t.title)}`).join('<br>');
  return `<div class="req" data-requirement="${req.id}">
<div><strong>${req.level}</strong> · profile <code>${req.profile}</code> · ${req.status} · last run: <span class="st-${escapeHtml(status.replace(/ /g, '-'))}">${escapeHtml(status)}</span></div>
<div>Source: ${cited}</div>
<div>Basis: <span class="basis" data-basis="${req.basis}">${req.basis}</span> — ${escapeHtml(BASIS[req.basis])}</div>
<div class="evidence">Evidence: ${evidenceHtml(req, sources)}</div>
${schemas.length > 0 ? `<div>Schemas: ${schemas.map((s) => `<a href="schemas/${s}.html">${s}</a>`).join(', ')}</div>` : ''}
<div class="tests">Tests: ${testList}</div>
<div class="code">Implemented in: ${codeHtml(sites)}</div>
${exampleHtml(lastRun?.examples.get(req.id))}
</div><!-- ${req.id} -->`;
}

/** A source file as a page, every line anchored (`#L12`) so a requirement links to the line that implements it. */
function codePage(file: string): string {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const numbered = lines
    .map((l, i) => `<span id="L${i + 1}"><a class="ln" href="#L${i + 1}">${i + 1}</a> ${escapeHtml(l)}</span>`)
    .join('\n');
  return layout(
    file,
    `<h1><code>${escapeHtml(file)}</code></h1>\n<pre class="source">${numbered}</pre>`,
    codePageOf(file).split('/').length - 1,
  );
}

interface SiteInput {
  outDir: string;
  reportPath?: string;
  testsDir?: string;
}

export async function buildSite({
  outDir,
  reportPath = join(ROOT, 'reports', 'conformance.json'),
  testsDir = join(ROOT, 'tests', 'conformance'),
}: SiteInput): Promise<{ pages: string[] }> {
  const index = loadRequirementsIndex();
  const byId = new Map(index.requirements.map((r) => [r.id, r]));
  const tests = await collectTestsByRequirement(ROOT, testsDir);
  const sites = scanCodeSites(ROOT);
  const lastRun = readLastRun(reportPath);
  const pages: string[] = [];
  const write = (page: string, html: string) => {
    mkdirSync(dirname(join(outDir, page)), { recursive: true });
    writeFileSync(join(outDir, page), html);
    pages.push(page);
  };
  for (const file of new Set([...sites.values()].flat().map((s) => s.file))) write(codePageOf(file), codePage(file));

  const specPages: { page: string; title: string }[] = [];
  for (const path of specMarkdownFiles()) {
    const text = readFileSync(path, 'utf8');
    const file = relative(ROOT, path).split('\\').join('/');
    const examples = extractSchemaExamples(text, file);
    const lines = text.split(/\r?\n/);
    // Which heading each schema example falls under, so a requirement lists the schemas of its own section.
    const headingLines = lines.map((l, i) => (/^#{1,6} /.test(l) ? i + 1 : 0)).filter((n) => n > 0);
    const sectionOf = (line: number) => headingLines.filter((h) => h <= line).pop() ?? 0;
    const marked = new Marked();
    let title = basename(path, '.md');
    let headingLine = 0;
    // A requirement's metadata goes after its statement (the paragraph under its heading), so a reader meets the rule first.
    let pendingBlock = '';
    const flushBlock = () => {
      const block = pendingBlock;
      pendingBlock = '';
      return block;
    };
    marked.use({
      renderer: {
        paragraph(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Paragraph): string {
          return `<p>${this.parser.parseInline(token.tokens)}</p>\n${flushBlock()}`;
        },
        heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading): string {
          const before = flushBlock();
          const inner = this.parser.parseInline(token.tokens);
          const rawLine = lines.findIndex((l, i) => i + 1 > headingLine && l.replace(/^#+\s*/, '') === token.text.trim());
          headingLine = rawLine >= 0 ? rawLine + 1 : headingLine;
          if (token.depth === 1) title = token.text;
          const req = REQ_HEADING.exec(token.text)?.[1];
          const dec = DEC_HEADING.exec(token.text)?.[1];
          const id =
            req ??
            dec ??
            token.text
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, '-')
              .replace(/^-|-$/g, '');
          const heading = `${before}<h${token.depth} id="${escapeHtml(id)}"><a href="#${escapeHtml(id)}">${inner}</a></h${token.depth}>\n`;
          const requirement = req ? byId.get(req) : undefined;
          if (!requirement) return heading;
          const own = headingLine;
          const schemas = [...new Set(examples.filter((e) => sectionOf(e.line) === own).map((e) => e.schema))];
          pendingBlock = requirementBlock(
            requirement,
            tests.get(req!) ?? [],
            sites.get(req!) ?? [],
            schemas,
            lastRun,
            index.evidenceSources,
          );
          return heading;
        },
        link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
          return `<a href="${escapeHtml(rewriteHref(token.href))}">${this.parser.parseInline(token.tokens)}</a>`;
        },
      },
    });
    const body = marked.parse(text, { async: false }) + flushBlock();
    const page = pageOf(path);
    specPages.push({ page, title });
    write(page, layout(title, body));
  }

  const rows = index.requirements.map((r) => {
    const status = lastRun?.statuses.get(r.id) ?? '';
    return `<tr data-basis="${r.basis}"><td><a href="${pageOf(r.file)}#${r.id}">${r.id}</a></td><td>${r.level}</td><td>${r.profile}</td><td>${r.status}</td><td title="${escapeHtml(BASIS[r.basis])}">${r.basis}</td><td>${r.evidence.length}</td><td>${(tests.get(r.id) ?? []).length}</td><td>${(sites.get(r.id) ?? []).length}</td><td class="st-${status}">${status}</td><td>${escapeHtml(r.statement)}</td></tr>`;
  });
  write(
    'requirements.html',
    layout(
      'Requirements',
      `<h1>Requirements (spec ${escapeHtml(index.specVersion)})</h1>
<p>${lastRun ? `Statuses from the run against ${escapeHtml(lastRun.target)} finished ${escapeHtml(lastRun.finishedAt)}.` : 'No run recorded: run <code>npm start</code> to fill in statuses.'}</p>
<p><label>Basis <select id="basis-filter"><option value="">all</option>${(Object.keys(BASIS) as Requirement['basis'][]).map((b) => `<option value="${b}">${b}: ${escapeHtml(BASIS[b])}</option>`).join('')}</select></label></p>
<table id="requirements"><thead><tr><th>ID</th><th>Level</th><th>Profile</th><th>Spec status</th><th>Basis</th><th>Evidence</th><th>Tests</th><th>Code</th><th>Last run</th><th>Statement</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<script>
document.getElementById('basis-filter').addEventListener('change', (e) => {
  for (const row of document.querySelectorAll('#requirements tbody tr')) row.hidden = e.target.value !== '' && row.dataset.basis !== e.target.value;
});
</script>`,
    ),
  );

  const names = schemaNames();
  for (const name of names) {
    const schema = readSchema(name) as { title?: string; description?: string };
    const examplesPath = join(schemaDir, 'examples', `${name}.json`);
    const examples = existsSync(examplesPath)
      ? (JSON.parse(readFileSync(examplesPath, 'utf8')) as { valid: { description: string; data: unknown }[] }).valid
      : [];
    const usedBy = specPages.filter(({ page }) => readFileSync(join(outDir, page), 'utf8').includes(`schemas/${name}.html`));
    write(
      `schemas/${name}.html`,
      layout(
        name,
        `<h1 id="${name}">${escapeHtml(schema.title ?? name)} <small><code>${name}</code></small></h1>
<p>${escapeHtml(schema.description ?? '')}</p>
${usedBy.length > 0 ? `<p>Used by: ${usedBy.map((p) => `<a href="../${p.page}">${escapeHtml(p.title)}</a>`).join(', ')}</p>` : ''}
<h2 id="schema">Schema</h2><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>
<h2 id="examples">Valid examples</h2>
${examples.map((e) => `<p>${escapeHtml(e.description)}</p><pre>${escapeHtml(JSON.stringify(e.data, null, 2))}</pre>`).join('\n')}`,
        1,
      ),
    );
  }
  write(
    'schemas.html',
    layout(
      'Schemas',
      `<h1>Schemas</h1><ul>${names.map((n) => `<li><a href="schemas/${n}.html">${n}</a> — ${escapeHtml((readSchema(n) as { title?: string }).title ?? '')}</li>`).join('')}</ul>`,
    ),
  );

  write(
    'index.html',
    layout(
      'fauna-conformance spec',
      `<h1>fauna-conformance spec ${escapeHtml(index.specVersion)}</h1>
<p>${index.requirements.length} requirements, ${index.decisions.length} decisions, ${names.length} schemas. Every requirement has a stable link: <code>&lt;area&gt;.html#&lt;ID&gt;</code>, listed on <a href="requirements.html">Requirements</a>.</p>
<h2>Spec pages</h2><ul>${specPages.map((p) => `<li><a href="${p.page}">${escapeHtml(p.title)}</a></li>`).join('')}</ul>`,
    ),
  );
  return { pages };
}

// Only when run as a script (npm run docs), not when imported by the test.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const out = process.argv[2] ?? join(ROOT, 'site');
  const { pages } = await buildSite({ outDir: out });
  process.stdout.write(`wrote ${pages.length} pages to ${out}\n`);
}
