// badge.svg ("fauna-conformance 312/315") and a shields.io endpoint JSON with the same numbers.
import type { ConformanceReport } from './report-model.js';

/**
 * Passed tests out of the tests that count: claimed, not skipped, not waiting for a target setting. Expected failures
 * and tests a lost target left not run count as not passed.
 */
export function scoreOf(report: Pick<ConformanceReport, 'totals'>): { passed: number; counted: number } {
  const t = report.totals;
  return { passed: t.passed, counted: t.tests - t.notClaimed - t.skipped - t.needsSetting };
}

const COLORS = { passed: '#4c1', partial: '#dfb317', failed: '#e05d44' } as const;

function colorOf(report: ConformanceReport): keyof typeof COLORS {
  if (report.outcome === 'failed') return 'failed';
  const s = scoreOf(report);
  return s.passed === s.counted ? 'passed' : 'partial';
}

export function shieldsEndpoint(report: ConformanceReport): { schemaVersion: 1; label: string; message: string; color: string } {
  const s = scoreOf(report);
  const color = { passed: 'brightgreen', partial: 'yellow', failed: 'red' }[colorOf(report)];
  return { schemaVersion: 1, label: 'fauna-conformance', message: `${s.passed}/${s.counted}`, color };
}

/** Verdana 11px averages about 6.5 px per character; shields.io uses the same estimate for static badges. */
function textWidth(text: string): number {
  return Math.round(text.length * 6.5) + 10;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderBadge(report: ConformanceReport): string {
  const { label, message } = shieldsEndpoint(report);
  const fill = COLORS[colorOf(report)];
  const lw = textWidth(label);
  const mw = textWidth(message);
  const w = lw + mw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escapeXml(`${label}: ${message}`)}">
<title>${escapeXml(`${label}: ${message}`)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${fill}"/><rect width="${w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${escapeXml(label)}</text>
<text x="${lw + mw / 2}" y="14">${escapeXml(message)}</text>
</g>
</svg>
`;
}
