/**
 * The suite's Allure results are written once the run ends, not one fsynced file per test on the main thread (which
 * also runs the embedded server): the reporter hands them to the deferred writer, and `flush` writes them.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Vitest } from 'vitest/node';
import { DeferredAllureReporter, DeferredAllureWriter } from '../../runner/reporters/deferred-allure-writer.js';

/** The least of a finished vitest test that allure-vitest reads. */
function finishedTest(name: string) {
  const file = { name: 'conformance/some.test.ts', filepath: join(process.cwd(), 'tests/conformance/some.test.ts') };
  return {
    task: {
      type: 'test',
      mode: 'run',
      name,
      meta: {},
      file,
      suite: { name: 'Some area', file },
      result: { state: 'pass', startTime: Date.now(), duration: 3 },
    },
  };
}

describe('DeferredAllureReporter', () => {
  it('keeps results in memory until flush writes them', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'fc-allure-')), 'allure-results');
    const writer = new DeferredAllureWriter(dir);
    const reporter = new DeferredAllureReporter({ resultsDir: dir }, writer);
    reporter.onInit({ projects: [] } as unknown as Vitest);
    reporter.onTestRunEnd([finishedTest('one'), finishedTest('two')] as never);
    const resultFiles = () => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('-result.json')) : []);
    expect(writer.tests.map((test) => test.name)).toEqual(['one', 'two']);
    expect(resultFiles()).toEqual([]);
    await writer.flush();
    expect(resultFiles()).toHaveLength(2);
  });
});
