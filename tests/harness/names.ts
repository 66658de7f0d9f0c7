// Names the suite gives what it creates (each file's tenant; the collections, indexes, roles and child databases a
// test makes), fixed by the run's seed: two runs with the same --seed send the same names but for the run ID in the
// tenant's, and a replay of one test sends the names it sent in the full run.
import { createHash } from 'node:crypto';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { target } from './target.js';
import { currentTestScope } from './test-scope.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A file's path in the package, with forward slashes: the same wherever the package is installed. */
function packagePath(filePath: string): string {
  return relative(PACKAGE_ROOT, resolve(filePath)).split(sep).join('/');
}

const digest = (text: string, digits: number): string => createHash('sha256').update(text).digest('hex').slice(0, digits);

export function fileSlug(filePath: string): string {
  return (
    basename(filePath)
      .replace(/\.test\.[cm]?[jt]s$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 24) || 'file'
  );
}

/**
 * `fc_<runId>_<file slug>_<6 hex digits>`. The run ID keeps two runs apart on a shared server; the digits come from the
 * seed and the file's path in the package, so files of the same name in two folders (`core/functions/sets.test.ts`,
 * `indexes/sets.test.ts`), which may run at once, get two tenants.
 */
export function tenantName(runId: string, filePath: string, seed: number): string {
  return `fc_${runId}_${fileSlug(filePath)}_${digest(`${seed}:${packagePath(filePath)}`, 6)}`;
}

/** How many names each (file, test, prefix) has had, so repeated calls in one test differ. */
const issued = new Map<string, number>();

/** Called when a file ends: the test process may run further files (the conformance project does not isolate them). */
export function endFileNames(): void {
  issued.clear();
}

/**
 * Hex digits from the run's seed, the test file, the running test (none in hooks and at file load), `what` and how
 * many times that test has asked for `what`.
 */
function seededDigits(what: string, digits: number): string {
  const testPath = expect.getState().testPath;
  if (testPath === undefined) throw new Error('generated names are for conformance test files: no test file is running');
  const key = `${packagePath(testPath)}\u0000${currentTestScope()?.name ?? ''}\u0000${what}`;
  const n = issued.get(key) ?? 0;
  issued.set(key, n + 1);
  return digest(`${target().seed}\u0000${key}\u0000${n}`, digits);
}

/** `<prefix>_<8 hex digits>`: unique within the file's tenant, which is where the name is used. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${seededDigits(prefix, 8)}`;
}

/** A document id for a test that chooses its document's: a decimal below 2^48, as unlikely to repeat as `uniqueName`. */
export function uniqueId(): string {
  return String(BigInt(`0x${seededDigits('\u0000id', 12)}`) + 1n);
}
