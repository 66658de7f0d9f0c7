// The reference server names the requirements it implements (`// Implements: ID` on the deciding code), so a reader
// and the spec site get from a requirement to its code: every active MUST has a site, and every site names a live one.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRequirementsIndex } from '../../spec/build-index.js';
import { scanCodeSites } from '../runner/docs/code-sites.js';

const ROOT = join(import.meta.dirname, '..', '..');
const spec = loadRequirementsIndex();
const sites = scanCodeSites(ROOT);

describe('Implements: comments in reference-impl/', () => {
  it('name only requirements that exist and are not withdrawn', () => {
    const byId = new Map(spec.requirements.map((r) => [r.id, r]));
    const problems = [...sites.entries()]
      .filter(([id]) => byId.get(id)?.status !== 'active' && byId.get(id)?.status !== 'tentative')
      .map(([id, list]) => `${id} (${byId.has(id) ? 'withdrawn' : 'unknown'}) at ${list.map((s) => `${s.file}:${s.line}`).join(', ')}`);
    expect(problems).toEqual([]);
  });

  it('give every active MUST of every profile at least one site', () => {
    const missing = spec.requirements
      .filter((r) => r.level === 'MUST' && r.status === 'active' && !sites.has(r.id))
      .map((r) => `${r.id} (${r.profile})`);
    expect(missing).toEqual([]);
  });

  it('are read from line comments and doc comments, a block of them as one site on the code that follows', () => {
    const root = mkdtempSync(join(tmpdir(), 'fc-code-sites-'));
    mkdirSync(join(root, 'reference-impl', 'area'), { recursive: true });
    writeFileSync(
      join(root, 'reference-impl', 'area', 'decider.ts'),
      [
        '// Implements: AAA-BBB-001, AAA-BBB-002',
        '// Implements: AAA-BBB-003',
        '/** Why it decides. */',
        'export function decide(): void {',
        '  /**',
        '   * Implements: AAA-BBB-004',
        '   */',
        '  const inner = 1;',
        '}',
      ].join('\n'),
    );
    const found = scanCodeSites(root);
    const at = (id: string) => found.get(id)?.map((s) => `${s.file}:${s.line} ${s.label}`);
    expect(at('AAA-BBB-001')).toEqual(['reference-impl/area/decider.ts:1 export function decide(): void']);
    expect(at('AAA-BBB-003')).toEqual(at('AAA-BBB-001'));
    expect(at('AAA-BBB-004')).toEqual(['reference-impl/area/decider.ts:6 const inner = 1;']);
    expect([...found.keys()].sort()).toEqual(['AAA-BBB-001', 'AAA-BBB-002', 'AAA-BBB-003', 'AAA-BBB-004']);
  });
});
