// Which conformance tests check which requirement, read from the sources: every `check([...ids], 'title', …)` with
// literal IDs (check.each with a literal ID list included).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface TestRef {
  file: string;
  title: string;
}

const CHECK_CALL = /check(?:\.each\([^)]*\))?\(\s*\[([^\]]*)\]\s*,\s*(['"`])((?:\\.|(?!\2).)*)\2/g;
const ID = /[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d{3}/g;

function testFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

export function scanChecks(source: string): { ids: string[]; title: string }[] {
  return [...source.matchAll(CHECK_CALL)].map((m) => ({ ids: m[1]!.match(ID) ?? [], title: m[3]! }));
}

export function testsByRequirement(testsDir: string, root: string): Map<string, TestRef[]> {
  const map = new Map<string, TestRef[]>();
  for (const path of testFiles(testsDir).sort()) {
    const file = relative(root, path).split('\\').join('/');
    for (const { ids, title } of scanChecks(readFileSync(path, 'utf8'))) {
      for (const id of ids) {
        const list = map.get(id) ?? [];
        list.push({ file, title });
        map.set(id, list);
      }
    }
  }
  return map;
}
