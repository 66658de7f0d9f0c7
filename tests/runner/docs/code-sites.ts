// Where the reference server implements each requirement: an `// Implements: ID, ID` line (or ` * Implements: …`
// inside a doc comment) on the function or block that decides the behaviour. The comment is the one home of that fact;
// the spec site links each requirement to its sites, and a test holds every active MUST to having one.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface CodeSite {
  /** Path relative to the package root. */
  file: string;
  /** The line of the `Implements:` comment (1-based). */
  line: number;
  /** The first line of code after the comment block: the declaration or statement the comment is on. */
  label: string;
}

const IMPLEMENTS = /^\s*(?:\/\/|\*)\s*Implements:\s*(.*)$/;
const ID = /\b[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d{3}\b/g;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** Every `Implements:` comment under `dir` (default reference-impl/), by requirement ID, in file and line order. */
export function scanCodeSites(root: string, dir = join(root, 'reference-impl')): Map<string, CodeSite[]> {
  const sites = new Map<string, CodeSite[]>();
  for (const path of sourceFiles(dir)) {
    const file = relative(root, path).split('\\').join('/');
    const lines = readFileSync(path, 'utf8').split('\n');
    // A long list takes several `Implements:` lines: they are one site, at the first of them.
    let blockStart = -1;
    lines.forEach((text, i) => {
      const ids = IMPLEMENTS.exec(text)?.[1]?.match(ID);
      if (!ids) return;
      if (blockStart < 0 || !IMPLEMENTS.test(lines[i - 1] ?? '')) blockStart = i;
      const code = lines.slice(i + 1).find((l) => l.trim() !== '' && !COMMENT_LINE.test(l)) ?? '';
      const site = {
        file,
        line: blockStart + 1,
        label: code
          .trim()
          .replace(/\s*\{$/, '')
          .slice(0, 120),
      };
      for (const id of ids) sites.set(id, [...(sites.get(id) ?? []), site]);
    });
  }
  return sites;
}
