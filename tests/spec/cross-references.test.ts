// Prose in the spec refers to requirements by ID ("see PAGE-SIZE-004") or by topic ("KEY-LIFE-*"); every
// such reference must resolve, so renumbering or a typo cannot leave a dangling pointer.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, specMarkdownFiles } from '../../spec/build-index.js';

describe('spec cross-references', () => {
  const index = buildIndex();
  const ids = new Set(index.requirements.map((r) => r.id));
  const topics = new Set(index.requirements.map((r) => r.id.slice(0, r.id.lastIndexOf('-'))));
  const decisions = new Set(index.decisions.map((d) => d.id));

  for (const path of specMarkdownFiles()) {
    const file = relative(process.cwd(), path);
    const text = readFileSync(path, 'utf8');

    it(`${file} refers only to requirements and topics that exist`, () => {
      const dangling: string[] = [];
      for (const [ref] of text.matchAll(/\b(?!DEC-)[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-(?:\d{3}|\*)/g)) {
        const known = ref.endsWith('*') ? topics.has(ref.slice(0, -2)) : ids.has(ref);
        if (!known) dangling.push(ref);
      }
      expect(dangling).toEqual([]);
    });

    it(`${file} refers only to decisions that exist`, () => {
      const dangling = [...text.matchAll(/\bDEC-\d{3}\b/g)].map(([ref]) => ref).filter((ref) => !decisions.has(ref));
      expect(dangling).toEqual([]);
    });
  }
});
