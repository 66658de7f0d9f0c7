// How much of the spec rests on Fauna's own code and tests: the counts `npm run spec:evidence` prints, the check of
// cited ranges against checkouts, and the floor the spec keeps for the profiles the SD is about.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRequirementsIndex, type Requirement, type RequirementsIndex } from '../../spec/build-index.js';
import { countEvidence, mustEvidencePercent, verifyEvidence } from '../../spec/evidence-report.js';

const SOURCES = { 'fauna/faunadb': { commit: '4f8f8be39012f13f2a7b778ef05952afb01fd493', url: 'https://github.com/fauna/faunadb' } };

function req(over: Partial<Requirement> & Pick<Requirement, 'id'>): Requirement {
  return {
    level: 'MUST',
    profile: 'auth',
    status: 'active',
    statement: 'S.',
    source: ['SD §A'],
    evidence: [],
    basis: 'sd',
    file: 'spec/requirements/authentication.md',
    anchor: over.id.toLowerCase(),
    ...over,
  };
}

const cited = [{ repo: 'fauna/faunadb', path: 'a/Spec.scala', lines: [2, 3] as [number, number] }];

function index(requirements: Requirement[]): RequirementsIndex {
  return { specVersion: '0.0.0', evidenceSources: SOURCES, requirements, decisions: [] };
}

describe('npm run spec:evidence', () => {
  const sample = index([
    req({ id: 'AUTH-A-001', evidence: cited }),
    req({ id: 'AUTH-A-002' }),
    req({ id: 'AUTH-A-003', level: 'SHOULD', evidence: cited, source: ['DEC-001'], basis: 'core' }),
    req({ id: 'AUTH-A-004', status: 'withdrawn', evidence: cited }),
    req({ id: 'IDX-A-001', profile: 'indexes', file: 'spec/requirements/indexes.md', source: ['DEC-002'], basis: 'decision' }),
  ]);

  it('counts active requirements per area and profile: MUSTs cited, all cited, and their basis', () => {
    const counts = countEvidence(sample);
    expect(counts.byArea.authentication).toEqual({
      active: 3,
      must: 2,
      mustWithEvidence: 1,
      withEvidence: 2,
      basis: { sd: 2, core: 1, decision: 0 },
    });
    expect(counts.byProfile.indexes).toEqual({
      active: 1,
      must: 1,
      mustWithEvidence: 0,
      withEvidence: 0,
      basis: { sd: 0, core: 0, decision: 1 },
    });
    expect(counts.total.active).toBe(4);
    expect(mustEvidencePercent(counts, ['auth'])).toBe(50);
    expect(mustEvidencePercent(counts, ['auth', 'indexes'])).toBeCloseTo(100 / 3);
  });

  it('finds cited files that do not exist and ranges past a file’s end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fc-evidence-'));
    mkdirSync(join(dir, 'faunadb', 'a'), { recursive: true });
    writeFileSync(join(dir, 'faunadb', 'a', 'Spec.scala'), 'one\ntwo\nthree\n');
    const problems = verifyEvidence(
      index([
        req({ id: 'AUTH-A-001', evidence: cited }),
        req({ id: 'AUTH-A-002', evidence: [{ repo: 'fauna/faunadb', path: 'a/Spec.scala', lines: [3, 9] }] }),
        req({ id: 'AUTH-A-003', evidence: [{ repo: 'fauna/faunadb', path: 'a/Gone.scala', lines: [1, 1] }] }),
      ]),
      dir,
    );
    expect(problems).toEqual([
      'AUTH-A-002: fauna/faunadb:a/Spec.scala#L3-L9 runs past its 4 lines',
      'AUTH-A-003: fauna/faunadb:a/Gone.scala does not exist',
    ]);
  });
});

describe('the spec', () => {
  const spec = loadRequirementsIndex();

  it('cites Fauna’s code or tests for at least 90% of the active MUSTs of the profiles the SD is about', () => {
    const counts = countEvidence(spec);
    for (const profile of ['auth', 'abac', 'indexes', 'feeds', 'streams']) {
      expect(mustEvidencePercent(counts, [profile]), profile).toBeGreaterThanOrEqual(90);
    }
  });
});
