// The per-run artifacts other tools read, merged across shards: JUnit XML (one <testsuites> holding every shard's
// <testsuite> elements, totals summed) and Allure results (independent files named by UUID, so a copy merges them).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The directory a shard argument names: the directory itself, or the one holding the given conformance.json. */
export function shardDir(path: string): string {
  return existsSync(path) && statSync(path).isDirectory() ? path : dirname(path);
}

const TOTALS = ['tests', 'failures', 'errors'] as const;

/** Every shard's junit.xml as one document, or undefined when no shard wrote one. */
export function mergeJunit(dirs: readonly string[]): string | undefined {
  const files = dirs.map((d) => join(d, 'junit.xml')).filter((f) => existsSync(f));
  if (files.length === 0) return undefined;
  const totals = { tests: 0, failures: 0, errors: 0, time: 0 };
  const suites: string[] = [];
  for (const file of files) {
    const xml = readFileSync(file, 'utf8');
    const root = /<testsuites\b([^>]*)>/.exec(xml);
    if (!root) continue;
    for (const name of TOTALS) totals[name] += Number(attribute(root[1]!, name) ?? 0);
    totals.time += Number(attribute(root[1]!, 'time') ?? 0);
    // Text and attribute values are escaped, so a literal `<testsuite` only ever starts an element; suites do not nest.
    suites.push(...(xml.match(/<testsuite\b[^>]*\/>|<testsuite\b[\s\S]*?<\/testsuite>/g) ?? []));
  }
  const head = `<testsuites name="fauna-conformance" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${totals.time}">`;
  return ['<?xml version="1.0" encoding="UTF-8" ?>', head, ...suites.map((s) => `    ${s}`), '</testsuites>', ''].join('\n');
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

/** Copies every shard's allure-results files into `outDir/allure-results`; answers how many result files it copied. */
export function copyAllureResults(dirs: readonly string[], outDir: string): number {
  const target = join(outDir, 'allure-results');
  let results = 0;
  for (const dir of dirs) {
    const source = join(dir, 'allure-results');
    if (!existsSync(source) || source === target) continue;
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(source)) {
      copyFileSync(join(source, name), join(target, name));
      if (name.endsWith('-result.json')) results += 1;
    }
  }
  return results;
}

/** Writes the merged JUnit file and Allure results of `dirs` into `outDir`. */
export function mergeArtifacts(dirs: readonly string[], outDir: string): void {
  const junit = mergeJunit(dirs);
  if (junit !== undefined) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'junit.xml'), junit);
  }
  copyAllureResults(dirs, outDir);
}
