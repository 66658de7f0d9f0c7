/**
 * Where allure-vitest's results go during a run: kept in memory, written to `resultsDir` once the run has ended.
 * allure's own FileSystemWriter opens, writes and fsyncs one file per test result, synchronously, on the main
 * thread, which is also the embedded reference server's: about 1.8 s of CPU in a run of 2,091 tests. Report files
 * need no fsync; a run that dies before `flush` leaves no Allure results, as it leaves no other report.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InMemoryWriter, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';

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
