// The spec parser must fail loudly on malformed requirements instead of silently dropping them.
import { describe, expect, it } from 'vitest';
import { buildIndexFrom, extractSchemaExamples, parseDecisions, parseRequirements } from '../../spec/build-index.js';

const FILE = 'spec/requirements/sample.md';
const DECISIONS = { file: 'spec/decisions.md', text: '## DEC-001 · A decision\n\nBody.\n' };
const SOURCES = { 'fauna/faunadb': { commit: '4f8f8be39012f13f2a7b778ef05952afb01fd493', url: 'https://github.com/fauna/faunadb' } };

function requirement(heading: string, body = 'A checkable sentence.\n\nSource: SD §X\nEvidence: none found'): string {
  return `# Sample\n\n### ${heading}\n${body}\n`;
}

describe('parseRequirements', () => {
  it('reads ID, level, profile, statement, sources and default status', () => {
    const [r] = parseRequirements(
      requirement(
        'AUTH-LOGIN-001 · MUST · auth',
        'Login works.\n\nSource: SD §A; DEC-001\nEvidence: fauna/faunadb:ext/a/Spec.scala#L10-L24 (logs in; expects a secret)',
      ),
      FILE,
    );
    expect(r).toEqual({
      id: 'AUTH-LOGIN-001',
      level: 'MUST',
      profile: 'auth',
      status: 'active',
      statement: 'Login works.',
      source: ['SD §A', 'DEC-001'],
      evidence: [{ repo: 'fauna/faunadb', path: 'ext/a/Spec.scala', lines: [10, 24], note: 'logs in; expects a secret' }],
      basis: 'sd',
      file: FILE,
      anchor: 'auth-login-001',
    });
  });

  it('reads several cited places, a single line, and "none found"', () => {
    const [r] = parseRequirements(
      requirement(
        'DOC-GET-001 · MUST · core',
        'S.\n\nSource: DEC-001\nEvidence: fauna/faunadb:a.scala#L7; fauna/faunadb-js:test/query.test.js#L1-L3 (a; b)',
      ),
      FILE,
    );
    expect(r?.evidence).toEqual([
      { repo: 'fauna/faunadb', path: 'a.scala', lines: [7, 7] },
      { repo: 'fauna/faunadb-js', path: 'test/query.test.js', lines: [1, 3], note: 'a; b' },
    ]);
    const [none] = parseRequirements(
      requirement('DOC-GET-002 · MUST · core', 'S.\n\nSource: DEC-001\nEvidence: none found (no test reads it)'),
      FILE,
    );
    expect(none?.evidence).toEqual([]);
  });

  it.each([
    [['SD §A', 'DEC-001'], 'fauna/faunadb:a.scala#L1', 'sd'],
    [['SD §A'], 'none found', 'sd'],
    [['DEC-001'], 'fauna/faunadb:a.scala#L1', 'core'],
    [['DEC-001'], 'none found', 'decision'],
  ])('gives Source %j with Evidence %s the basis %s', (source, evidence, basis) => {
    const [r] = parseRequirements(
      requirement('DOC-GET-001 · MUST · core', `S.\n\nSource: ${source.join('; ')}\nEvidence: ${evidence}`),
      FILE,
    );
    expect(r?.basis).toBe(basis);
  });

  it('reads a tentative status and joins a statement wrapped over lines', () => {
    const [r] = parseRequirements(
      requirement(
        'PAGE-SIZE-001 · SHOULD · indexes',
        'First half\nsecond half.\n\nStatus: tentative\nSource: DEC-001\nEvidence: none found',
      ),
      FILE,
    );
    expect(r?.status).toBe('tentative');
    expect(r?.statement).toBe('First half second half.');
  });

  it('ignores headings inside code blocks', () => {
    expect(parseRequirements('```\n### NOT-A-001 · MUST · core\n```\n', FILE)).toEqual([]);
  });

  it.each([
    ['an unknown level', requirement('AUTH-LOGIN-001 · SHALL · auth'), /unknown level/],
    ['an unknown profile', requirement('AUTH-LOGIN-001 · MUST · everything'), /unknown profile/],
    ['a malformed ID', requirement('AUTH-LOGIN-1 · MUST · auth'), /malformed requirement ID/],
    ['a missing Source', requirement('AUTH-LOGIN-001 · MUST · auth', 'Sentence.'), /Source/],
    ['a missing statement', requirement('AUTH-LOGIN-001 · MUST · auth', 'Source: SD\nEvidence: none found'), /missing statement/],
    [
      'an unknown status',
      requirement('AUTH-LOGIN-001 · MUST · auth', 'S.\n\nStatus: draft\nSource: SD\nEvidence: none found'),
      /unknown status/,
    ],
    ['a heading without separators', requirement('AUTH-LOGIN-001 MUST auth'), /heading must read/],
    ['a missing Evidence', requirement('AUTH-LOGIN-001 · MUST · auth', 'S.\n\nSource: SD'), /Evidence/],
    [
      'evidence without a line',
      requirement('AUTH-LOGIN-001 · MUST · auth', 'S.\n\nSource: SD\nEvidence: fauna/faunadb:a.scala'),
      /malformed evidence/,
    ],
    [
      'evidence with an empty range',
      requirement('AUTH-LOGIN-001 · MUST · auth', 'S.\n\nSource: SD\nEvidence: fauna/faunadb:a.scala#L9-L3'),
      /is empty/,
    ],
    [
      'two Evidence lines',
      requirement('AUTH-LOGIN-001 · MUST · auth', 'S.\n\nSource: SD\nEvidence: none found\nEvidence: none found'),
      /exactly one "Evidence:"/,
    ],
  ])('throws on %s', (_, text, message) => {
    expect(() => parseRequirements(text, FILE)).toThrow(message);
  });
});

describe('buildIndexFrom', () => {
  it('throws on a duplicate requirement ID across files', () => {
    const text = requirement('DOC-GET-001 · MUST · core');
    expect(() =>
      buildIndexFrom(
        [
          { file: FILE, text },
          { file: 'spec/requirements/other.md', text },
        ],
        DECISIONS,
        '0.0.0',
        SOURCES,
      ),
    ).toThrow(/duplicate requirement DOC-GET-001/);
  });

  it('throws on a Source citing an unknown decision', () => {
    const text = requirement('DOC-GET-001 · MUST · core', 'S.\n\nSource: DEC-999\nEvidence: none found');
    expect(() => buildIndexFrom([{ file: FILE, text }], DECISIONS, '0.0.0', SOURCES)).toThrow(/unknown decision DEC-999/);
  });

  it('sorts requirements by ID', () => {
    const text = requirement('DOC-GET-002 · MUST · core') + requirement('DOC-GET-001 · MUST · core');
    const index = buildIndexFrom([{ file: FILE, text }], DECISIONS, '1.2.3', SOURCES);
    expect(index.requirements.map((r) => r.id)).toEqual(['DOC-GET-001', 'DOC-GET-002']);
    expect(index.specVersion).toBe('1.2.3');
    expect(index.evidenceSources).toEqual(SOURCES);
  });

  it('throws on evidence from a repository that is not pinned', () => {
    const text = requirement('DOC-GET-001 · MUST · core', 'S.\n\nSource: DEC-001\nEvidence: someone/else:a.scala#L1');
    expect(() => buildIndexFrom([{ file: FILE, text }], DECISIONS, '0.0.0', SOURCES)).toThrow(/does not pin/);
  });
});

describe('parseDecisions', () => {
  it('reads ID, title and anchor', () => {
    expect(parseDecisions(DECISIONS.text, DECISIONS.file)).toEqual([
      { id: 'DEC-001', title: 'A decision', file: 'spec/decisions.md', anchor: 'dec-001' },
    ]);
  });

  it('throws on a malformed decision ID', () => {
    expect(() => parseDecisions('## DEC-1 · Title\n', DECISIONS.file)).toThrow(/malformed decision ID/);
  });
});

describe('extractSchemaExamples', () => {
  it('finds json and ndjson blocks that name a schema and skips the others', () => {
    const text = '```json schema=ref\n{"@ref":"a/1"}\n```\n```json\n{}\n```\n```ndjson schema=event\n{}\n{}\n```\n';
    const examples = extractSchemaExamples(text, FILE);
    expect(examples.map((e) => [e.schema, e.language, e.line])).toEqual([
      ['ref', 'json', 1],
      ['event', 'ndjson', 7],
    ]);
  });
});
