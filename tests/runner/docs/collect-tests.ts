// Which conformance tests check which requirement, as a run sees it: vitest collects the test files (imports them and
// registers their tests, running none), and each test's requirement IDs are the `meta.requirements` that `check` gave
// it, the source conformance.json reads. IDs computed at run time (check.each with an ID function, tables whose rows
// name their requirements) are found as well as literal ones.
import { relative } from 'node:path';
import { createVitest } from 'vitest/node';
import {
  CONFORMANCE_ISOLATE,
  CONFORMANCE_POOL,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_TIMEOUT_MS,
  type Target,
} from '../../harness/config.js';
import { requirementTagDefinitions } from '../../harness/requirement-ids.js';

export interface TestRef {
  file: string;
  /** The test's full name: its suites and its title, joined by ` > `. */
  title: string;
}

/**
 * Files that read the target at load (generated names, the fast-check seed) get one that no request reaches: a
 * collection makes none.
 */
const COLLECTION_TARGET: Target = {
  url: 'http://127.0.0.1:9',
  secret: 'collection-only',
  embedded: false,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  streamTimeoutMs: DEFAULT_STREAM_TIMEOUT_MS,
  seed: 0,
  runId: 'collect',
};

export async function collectTestsByRequirement(root: string, testsDir: string): Promise<Map<string, TestRef[]>> {
  const vitest = await createVitest(
    'test',
    {
      root,
      config: false,
      include: [`${relative(root, testsDir).split('\\').join('/')}/**/*.test.ts`],
      isolate: CONFORMANCE_ISOLATE,
      pool: CONFORMANCE_POOL,
      provide: { conformanceTarget: COLLECTION_TARGET },
      tags: requirementTagDefinitions(),
      watch: false,
      reporters: [],
    },
    {},
  );
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    const failed = [...testModules.flatMap((m) => m.errors().map((e) => `${m.moduleId}: ${e.message}`)), ...unhandledErrors.map(String)];
    if (failed.length > 0) throw new Error(`could not collect the conformance tests:\n${failed.join('\n')}`);
    const map = new Map<string, TestRef[]>();
    const modules = [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    for (const module of modules) {
      const file = relative(root, module.moduleId).split('\\').join('/');
      for (const test of module.children.allTests()) {
        for (const id of test.meta().requirements ?? []) {
          const list = map.get(id) ?? [];
          list.push({ file, title: test.fullName });
          map.set(id, list);
        }
      }
    }
    return map;
  } finally {
    await vitest.close();
  }
}
