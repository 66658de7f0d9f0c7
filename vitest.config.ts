import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import {
  CONFORMANCE_ISOLATE,
  CONFORMANCE_POOL,
  conformanceMaxWorkers,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_TIMEOUT_MS,
  ENV,
  testTimeoutFor,
} from './tests/harness/config.js';
import { requirementTagDefinitions } from './tests/harness/requirement-ids.js';
import { ConformanceReporter } from './tests/runner/reporters/conformance-reporter.js';

const requestTimeout = Number(process.env[ENV.requestTimeout]) || DEFAULT_REQUEST_TIMEOUT_MS;
const streamTimeout = Number(process.env[ENV.streamTimeout]) || DEFAULT_STREAM_TIMEOUT_MS;
const conformanceTimeout = testTimeoutFor(requestTimeout, streamTimeout);

export default defineConfig({
  test: {
    // The conformance reporter writes nothing here; it fails `vitest run` on tests without valid requirement IDs
    // and lists untested MUST requirements. `npm start` adds the report files.
    reporters: ['default', new ConformanceReporter()],
    // vitest's default is cores - 1 files at a time: a single file on a 2-core CI machine, where most conformance,
    // CLI and self-check files mostly wait on servers and child processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // Property runs of a few hundred cases took over vitest's 5 s default on a loaded 2-core machine.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 } },
      // Compiling the larger schemas (expression, v4-value) in strict mode takes seconds on a busy 2-core machine.
      { test: { name: 'schemas', include: ['tests/schemas/**/*.test.ts'], testTimeout: 60_000 } },
      { test: { name: 'spec', include: ['tests/spec/**/*.test.ts'], testTimeout: 60_000 } },
      { test: { name: 'cli', include: ['tests/cli/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'conformance',
          include: ['tests/conformance/**/*.test.ts'],
          globalSetup: ['tests/harness/global-setup.ts'],
          setupFiles: ['tests/harness/assertion-setup.ts', 'allure-vitest/setup', 'tests/harness/conformance-setup.ts'],
          // See CONFORMANCE_ISOLATE: a test process runs many files and loads the harness once.
          isolate: CONFORMANCE_ISOLATE,
          pool: CONFORMANCE_POOL,
          maxWorkers: conformanceMaxWorkers(availableParallelism()),
          // vitest runs projects with different maxWorkers in separate groups: the conformance files run on their own,
          // after the other projects, with more files at once than there are cores (they mostly wait on the server).
          sequence: { groupOrder: 1 },
          testTimeout: conformanceTimeout,
          hookTimeout: conformanceTimeout,
          // check() tags each test with its requirement IDs (e.g. `--tags-filter DOC-CREATE-001`).
          tags: requirementTagDefinitions(),
        },
      },
      { test: { name: 'drivers', include: ['tests/drivers/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'robustness', include: ['tests/durability/**/*.test.ts', 'tests/fuzz/**/*.test.ts'], testTimeout: 60_000 } },
      // The fast self-check sample starts suite processes against faulty and hostile servers; `npm run selfcheck` is the full run.
      { test: { name: 'selfcheck', include: ['tests/selfcheck/**/*.test.ts'], testTimeout: 240_000, hookTimeout: 240_000 } },
    ],
  },
});
