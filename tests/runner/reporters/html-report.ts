// report.html: one self-contained page (inline CSS and JS, the report embedded as JSON) — score per area as bars,
// what changed since a baseline run, the requirements that need a target setting, and the requirement matrix (each
// requirement's statement, basis and evidence) with drill-down to its tests and a failing test's HTTP exchanges, and
// filters.
import { scoreOf } from './badge.js';
import type { ConformanceReport } from './report-model.js';
import { targetLostConsequence } from './verdict.js';

/** JSON that is safe inside <script>: no `</script>`, no HTML comment openers, no line separators. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The page shows no examples (the spec site does), so it does not carry them. */
function withoutExample(test: ConformanceReport['tests'][number]): ConformanceReport['tests'][number] {
  const { example: _example, ...rest } = test;
  return rest;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const CSS = `
:root{--pass:#2e7d32;--fail:#c62828;--xfail:#ef6c00;--nc:#757575;--skip:#9e9e9e;--untested:#bdbdbd;--setting:#1565c0;--notrun:#6d4c41;font-family:system-ui,sans-serif}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem;color:#212121}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin-top:1.6rem}
.meta{color:#555;font-size:.9rem}.outcome-passed{color:var(--pass)}.outcome-failed{color:var(--fail)}
.bars{display:grid;grid-template-columns:8rem 1fr 6rem;gap:.35rem .6rem;align-items:center}
.bar{display:flex;height:1.1rem;background:#eee;border-radius:3px;overflow:hidden}
.bar span{display:block;height:100%}
.s-passed{background:var(--pass)}.s-failed,.s-unexpected-pass{background:var(--fail)}.s-expected-failure{background:var(--xfail)}
.s-not-claimed{background:var(--nc)}.s-skipped{background:var(--skip)}.s-untested{background:var(--untested)}
.s-needs-setting{background:var(--setting)}.s-not-run{background:var(--notrun)}.lost{border-left:4px solid var(--fail);padding:.4rem .8rem;background:#fff3f3}
.filters{display:flex;gap:.8rem;flex-wrap:wrap;margin:.6rem 0}
table{border-collapse:collapse;width:100%;font-size:.88rem}th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #e0e0e0;vertical-align:top}
tr.req{cursor:pointer}tr.req:hover{background:#f5f5f5}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;color:#fff;font-size:.78rem;white-space:nowrap}
.drill td{background:#fafafa}.test{margin:.3rem 0 .6rem}.test .name{font-weight:600}
pre{background:#263238;color:#eceff1;padding:.6rem;overflow:auto;max-height:28rem;font-size:.8rem;white-space:pre-wrap}
button{font-size:.8rem}.legend span{margin-right:.8rem}
`;

// Runs in the browser; reads the embedded report and renders everything from it.
const SCRIPT = String.raw`
const report = JSON.parse(document.getElementById('report-data').textContent);
const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs, ...kids) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') n.className = v; else if (k.startsWith('on')) n.addEventListener(k.slice(2), v); else n.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== undefined && kid !== null) n.append(kid);
  return n;
};
const tag = (status) => el('span', { class: 'tag s-' + status, 'data-status': status }, status);
const testsById = new Map(report.tests.map((t) => [t.id, t]));
const BASIS = { sd: 'stated by the service description', core: 'shown by Fauna\'s own code or tests (drop-in compatibility)', decision: 'a decision of this spec alone' };

function formatExchange(e) {
  const lines = [e.method + ' ' + e.path + '  (' + e.durationMs + ' ms)'];
  for (const [k, v] of Object.entries(e.request.headers || {})) lines.push('> ' + k + ': ' + v);
  if (e.request.body !== undefined) lines.push('> ' + JSON.stringify(e.request.body, null, 2));
  if (e.response) {
    lines.push('< ' + e.response.status);
    for (const [k, v] of Object.entries(e.response.headers || {})) lines.push('< ' + k + ': ' + v);
    if (e.response.body !== undefined) lines.push('< ' + JSON.stringify(e.response.body, null, 2));
  }
  for (const ev of e.events || []) lines.push('<< ' + JSON.stringify(ev));
  if (e.error) lines.push('!! ' + e.error);
  return lines.join('\n');
}

function testBlock(t) {
  const box = el('div', { class: 'test', 'data-test-id': t.id },
    tag(t.status), ' ', el('span', { class: 'name' }, t.name), ' ', el('span', { class: 'meta' }, t.file));
  if (t.note) box.append(el('div', { class: 'meta' }, t.note));
  if (t.error) box.append(el('pre', { class: 'error' }, t.error));
  if (t.replay) box.append(el('div', { class: 'meta' }, 'replay: ', el('code', {}, t.replay)));
  if (t.exchanges && t.exchanges.length) {
    const pre = el('pre', { class: 'exchange', hidden: '' }, t.exchanges.map(formatExchange).join('\n\n'));
    const btn = el('button', { class: 'show-exchange', onclick: () => { pre.hidden = !pre.hidden; btn.textContent = pre.hidden ? 'Show HTTP exchange' : 'Hide HTTP exchange'; } }, 'Show HTTP exchange');
    box.append(btn, pre);
  }
  return box;
}

function renderAreas() {
  const host = $('#areas');
  const order = ['passed', 'expected-failure', 'failed', 'unexpected-pass', 'not-run', 'needs-setting', 'not-claimed', 'skipped'];
  const key = { passed: 'passed', failed: 'failed', skipped: 'skipped', 'not-claimed': 'notClaimed', 'expected-failure': 'expectedFailure', 'unexpected-pass': 'unexpectedPass', 'needs-setting': 'needsSetting', 'not-run': 'notRun' };
  for (const a of report.areas) {
    const bar = el('div', { class: 'bar', title: a.area });
    for (const s of order) {
      const n = a[key[s]];
      if (n > 0) bar.append(el('span', { class: 's-' + s, style: 'width:' + (100 * n / a.tests) + '%', title: s + ': ' + n }));
    }
    const counted = a.tests - a.notClaimed - a.skipped - a.needsSetting;
    host.append(el('div', {}, a.area), bar, el('div', { class: 'area-score', 'data-area': a.area }, a.passed + '/' + counted));
  }
}

function renderMatrix() {
  const status = $('#f-status').value, profile = $('#f-profile').value, level = $('#f-level').value, basis = $('#f-basis').value;
  const text = $('#f-text').value.trim().toLowerCase();
  const body = $('#matrix tbody');
  body.replaceChildren();
  let shown = 0;
  for (const r of report.requirements) {
    if (status && r.status !== status) continue;
    if (profile && r.profile !== profile) continue;
    if (level && r.level !== level) continue;
    if (basis && r.basis !== basis) continue;
    if (text && !(r.id.toLowerCase().includes(text) || r.statement.toLowerCase().includes(text) || r.tests.some((id) => id.toLowerCase().includes(text)))) continue;
    shown++;
    const row = el('tr', { class: 'req', 'data-req': r.id },
      el('td', {}, r.id), el('td', { class: 'statement' }, r.statement), el('td', {}, r.level), el('td', {}, r.profile),
      el('td', { class: 'basis', title: BASIS[r.basis] }, r.basis), el('td', {}, tag(r.status)), el('td', {}, String(r.tests.length)));
    const evidence = el('div', { class: 'meta evidence' }, 'Evidence: ',
      ...(r.evidence.length ? r.evidence.flatMap((e, i) => [i ? '; ' : '', el('a', { href: e.url }, e.cite), e.note ? ' (' + e.note + ')' : '']) : ['none found in Fauna\'s code or tests']));
    const drill = el('tr', { class: 'drill', hidden: '' }, el('td', { colspan: '7' }, evidence, ...(r.tests.length ? r.tests.map((id) => testBlock(testsById.get(id))) : [el('em', {}, 'No test checks this requirement.')])));
    row.addEventListener('click', () => { drill.hidden = !drill.hidden; });
    body.append(row, drill);
  }
  $('#matrix-count').textContent = shown + ' of ' + report.requirements.length + ' requirements';
}

function renderSettings() {
  const host = $('#settings');
  if (!report.needsSettings.length) { host.append(el('p', {}, 'None: the run knew every setting of the target its tests need.')); return; }
  host.append(el('p', {}, 'Not checked and not failing the gate: the tests of these requirements need to know how the target is configured. Pass the setting to check them.'));
  const list = el('ul', {});
  for (const s of report.needsSettings) {
    list.append(el('li', { class: 'needs-setting', 'data-setting': s.setting }, s.requirements.join(', ') + ': ' + s.description + ': pass ', el('code', {}, s.flag), ' (or ', el('code', {}, s.env), ', or ', el('code', {}, s.configKey), ' in the config file)'));
  }
  host.append(list);
}

function renderBaseline() {
  const d = report.baseline;
  if (!d) return;
  const host = $('#baseline');
  host.hidden = false;
  host.append(el('h2', {}, 'Since the baseline'), el('p', { class: 'meta' }, 'Baseline run ' + d.old.runId + ' (' + d.old.outcome + ', ' + d.old.startedAt + '): ' + d.newlyFailing.length + ' newly failing, ' + d.newlyPassing.length + ' newly passing, ' + d.changedSignatures.length + ' failing another way.'));
  for (const [id, title, changes] of [['newly-failing', 'Newly failing', d.newlyFailing], ['newly-passing', 'Newly passing', d.newlyPassing], ['changed-signatures', 'Failing another way', d.changedSignatures]]) {
    if (!changes.length) continue;
    const list = el('ul', { id });
    for (const c of changes) list.append(el('li', { 'data-test-id': c.test }, c.test + ' (' + c.requirements.join(', ') + '): was ' + c.was + ', now ' + c.now + (c.signature && c.signature.assertion ? ' — ' + c.signature.assertion : '')));
    host.append(el('h3', {}, title), list);
  }
}

function renderProblems() {
  const host = $('#problems');
  const bad = report.tests.filter((t) => t.status === 'failed' || t.status === 'unexpected-pass');
  if (!bad.length) host.append(el('p', {}, 'No failing tests.'));
  for (const t of bad) host.append(testBlock(t));
}

for (const [id, values] of [['#f-status', ['passed', 'failed', 'expected-failure', 'needs-setting', 'not-run', 'untested', 'not-claimed']], ['#f-profile', report.allProfiles], ['#f-level', ['MUST', 'SHOULD', 'MAY']], ['#f-basis', ['sd', 'core', 'decision']]]) {
  for (const v of values) $(id).append(el('option', { value: v }, v));
  $(id).addEventListener('change', renderMatrix);
}
$('#f-text').addEventListener('input', renderMatrix);
renderAreas();
renderBaseline();
renderSettings();
renderMatrix();
renderProblems();
document.body.dataset.ready = 'true';
`;

export function renderHtmlReport(report: ConformanceReport): string {
  const score = scoreOf(report);
  const t = report.totals;
  const title = `fauna-conformance ${score.passed}/${score.counted}: ${report.outcome.toUpperCase()}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1 class="outcome-${report.outcome}" id="title">${escapeHtml(title)}</h1>
<p class="meta">Target ${escapeHtml(report.target.url)}${report.target.embedded ? ' (embedded reference server)' : ''} · suite ${escapeHtml(report.suiteVersion)} · spec ${escapeHtml(report.specVersion)} · seed ${report.seed} · ${escapeHtml(report.finishedAt)} · claimed: ${escapeHtml(report.claimedProfiles.join(', '))}${report.expectationsFile ? ` · expectations: ${escapeHtml(report.expectationsFile)}` : ''}</p>
<p id="totals" data-tests="${t.tests}" data-passed="${t.passed}" data-failed="${t.failed}" data-unexpected-pass="${t.unexpectedPass}" data-expected-failure="${t.expectedFailure}" data-not-claimed="${t.notClaimed}" data-skipped="${t.skipped}" data-needs-setting="${t.needsSetting}" data-not-run="${t.notRun}">
Tests: ${t.passed} passed, ${t.failed} failed, ${t.unexpectedPass} unexpected passes, ${t.expectedFailure} expected failures, ${t.notClaimed} not claimed, ${t.skipped} skipped, ${t.needsSetting} need a target setting, ${t.notRun} not run (${t.tests} in all).</p>
${report.targetLost === undefined ? '' : `<p class="lost" id="target-lost">${escapeHtml(report.targetLost)}. ${escapeHtml(targetLostConsequence(report))}.</p>`}
<p class="legend meta"><span class="tag s-passed">passed</span><span class="tag s-expected-failure">expected-failure</span><span class="tag s-failed">failed</span><span class="tag s-needs-setting">needs-setting</span><span class="tag s-not-run">not-run</span><span class="tag s-not-claimed">not-claimed</span><span class="tag s-skipped">skipped</span></p>
<h2>Score per area</h2>
<div class="bars" id="areas"></div>
<section id="baseline" hidden></section>
<h2>Requirements that need a target setting</h2>
<div id="settings"></div>
<h2>Failing tests</h2>
<div id="problems"></div>
<h2>Requirements</h2>
<div class="filters">
<label>Status <select id="f-status"><option value="">all</option></select></label>
<label>Profile <select id="f-profile"><option value="">all</option></select></label>
<label>Level <select id="f-level"><option value="">all</option></select></label>
<label title="sd: the service description states it; core: Fauna's own code or tests show it; decision: this spec's decision alone">Basis <select id="f-basis"><option value="">all</option></select></label>
<label>Search <input id="f-text" type="search" placeholder="ID, statement or test"></label>
<span class="meta" id="matrix-count"></span>
</div>
<table id="matrix"><thead><tr><th>Requirement</th><th>Statement</th><th>Level</th><th>Profile</th><th>Basis</th><th>Status</th><th>Tests</th></tr></thead><tbody></tbody></table>
<script type="application/json" id="report-data">${embedJson({ ...report, tests: report.tests.map(withoutExample) })}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
