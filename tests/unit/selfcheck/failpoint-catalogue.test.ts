// The failpoints the fault catalogue turns on are the ones marked in the reference server, and each marked one is used.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../selfcheck/faults/catalogue.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(dir, e.name), 'utf8')] : [],
  );
}

describe('failpoints in the fault catalogue', () => {
  it('name only failpoints the reference server marks, and every marked failpoint belongs to a fault', () => {
    const marked = new Set(
      sources(join(ROOT, 'reference-impl')).flatMap((text) =>
        [...text.matchAll(/\bfailpoint(?:Where)?\('([A-Z0-9-]+)'[,)]/g)].map((m) => m[1]!),
      ),
    );
    const named = new Set(FAULTS.flatMap((fault) => fault.apply().failpoints ?? []));
    expect([...named].filter((name) => !marked.has(name))).toEqual([]);
    expect([...marked].filter((name) => !named.has(name))).toEqual([]);
  });
});
