/**
 * Where allure-vitest's results go during a run (`DeferredAllureReporter`): kept in memory, written to `resultsDir`
 * once the run has ended. allure's own FileSystemWriter opens, writes and fsyncs one file per test result,
 * synchronously, on the main thread, which is also the embedded reference server's: 1.7 s of it in a run of 2,112
 * tests. Report files need no fsync; a run that dies before `flush` leaves no Allure results, as it leaves no other
 * report.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InMemoryWriter, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter';
import type { Vitest } from 'vitest/node';

export class DeferredAllureWriter extends InMemoryWriter {
  constructor(private readonly resultsDir: string) {
    super();
  }

  /** Writes every result, container and attachment received so far, with the file names allure's FileSystemWriter uses. */
  async flush(): Promise<void> {
    const files: Array<[string, string | Buffer]> = [];
    for (const test of this.tests) files.push([`${test.uuid}-result.json`, JSON.stringify(test)]);
    for (const group of this.groups) files.push([`${group.uuid}-container.json`, JSON.stringify(group)]);
    for (const [name, content] of Object.entries(this.attachments)) files.push([name, content]);
    if (this.categories) files.push(['categories.json', JSON.stringify(this.categories)]);
    if (this.envInfo) files.push(['environment.properties', stringifyEnvInfo(this.envInfo)]);
    for (const [name, info] of Object.entries(this.globals ?? {})) files.push([name, JSON.stringify(info)]);
    await mkdir(this.resultsDir, { recursive: true });
    // A few hundred open files at a time, well under any descriptor limit.
    for (let i = 0; i < files.length; i += 256) {
      await Promise.all(files.slice(i, i + 256).map(([name, content]) => writeFile(join(this.resultsDir, name), content)));
    }
  }
}

/**
 * allure-vitest's reporter with its results going to `writer`. allure-vitest 3.12 builds its own FileSystemWriter in
 * `onInit` whatever writer its config names, so the writer is put in place after that; it throws if allure-vitest
 * no longer has the runtime it writes through, rather than let every result be fsynced on the main thread again.
 */
export class DeferredAllureReporter extends AllureVitestReporter {
  constructor(
    config: AllureVitestReporterConfig,
    private readonly deferred: Writer,
  ) {
    super(config);
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: Writer } }).allureReporterRuntime;
    if (runtime === undefined || !('writer' in runtime))
      throw new Error('allure-vitest changed: its reporter has no runtime writer to replace');
    runtime.writer = this.deferred;
  }
}
