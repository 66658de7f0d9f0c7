// Starts vitest on the conformance project only, with the report writers, and hands back the conformance report.
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { ENV, type SuiteSettings } from '../harness/config.js';
import { AREAS, type Area } from './areas.js';
import { CONFORMANCE_PROJECT, ConformanceReporter } from './reporters/conformance-reporter.js';
import type { ConformanceReport } from './reporters/report-model.js';

const PACKAGE_ROOT = join(import.meta.dirname, '..', '..');

export interface RunSuiteOptions {
  settings: SuiteSettings;
  reportDir: string;
  areas: Area[] | undefined;
  failOnUntestedMust: boolean;
}

export async function runSuite(opts: RunSuiteOptions): Promise<ConformanceReport | undefined> {
  const { settings } = opts;
  // The global setup and vitest.config.ts run in this process and read the target from the environment.
  process.env[ENV.requestTimeout] = String(settings.requestTimeoutMs);
  process.env[ENV.streamTimeout] = String(settings.streamTimeoutMs);
  process.env[ENV.seed] = String(settings.seed);
  process.env[ENV.runId] = settings.runId;
  if (settings.url) {
    process.env[ENV.url] = settings.url;
    process.env[ENV.secret] = settings.secret;
  } else {
    delete process.env[ENV.url];
  }

  const reporter = new ConformanceReporter({
    reportDir: opts.reportDir,
    info: {
      target: { url: settings.url ?? 'http://127.0.0.1', embedded: !settings.url },
      seed: settings.seed,
      runId: settings.runId,
      areas: opts.areas,
      allAreas: [...AREAS],
      failOnUntestedMust: opts.failOnUntestedMust,
    },
  });
  const filters = (opts.areas ?? []).map((a) => `tests/conformance/${a}/`);
  const vitest = await startVitest(
    'test',
    filters,
    {
      root: PACKAGE_ROOT,
      config: join(PACKAGE_ROOT, 'vitest.config.ts'),
      project: [CONFORMANCE_PROJECT],
      watch: false,
      passWithNoTests: true,
      reporters: [
        'default',
        ['junit', { outputFile: join(opts.reportDir, 'junit.xml') }],
        ['allure-vitest/reporter', { resultsDir: join(opts.reportDir, 'allure-results') }],
        reporter,
      ],
    },
  );
  await vitest.close();
  return reporter.report;
}
