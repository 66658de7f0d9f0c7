// report.html in headless Chromium: it renders, its numbers are conformance.json's, a failing test's exchange opens.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRequirementsIndex } from '../../spec/build-index.js';
import { renderHtmlReport } from '../runner/reporters/html-report.js';
import { diffReports } from '../runner/diff.js';
import { buildReport, type TestOutcome } from '../runner/reporters/report-model.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's chromium when missing; the reason it cannot be had otherwise. */
function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.getuid?.() !== 0) return `${CHROMIUM} is missing and installing it needs root (apt-get install chromium)`;
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // Bounded so that a slow mirror costs CI minutes, not the run: chromium and its libraries are ~250 MB, which
    // a CI runner fetches and unpacks in well under a minute (chromium + chromium-common, 110 MB: 5 s here).
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore', timeout: 120_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env, stdio: 'ignore', timeout: 240_000 });
  } catch (err) {
    return `apt-get install chromium failed: ${(err as Error).message.split('\n')[0]}`;
  }
  return existsSync(CHROMIUM) ? undefined : `apt-get installed chromium but ${CHROMIUM} is missing`;
}

const spec = loadRequirementsIndex();
const core = spec.requirements.filter((r) => r.profile === 'core' && r.status === 'active');
const feeds = spec.requirements.find((r) => r.profile === 'feeds' && r.status === 'active')!;

const outcome = (over: Partial<TestOutcome> & Pick<TestOutcome, 'name'>): TestOutcome => ({
  id: `tests/conformance/core/docs.test.ts > ${over.name}`,
  file: 'tests/conformance/core/docs.test.ts',
  area: 'core',
  requirements: [core[0]!.id],
  status: 'passed',
  durationMs: 4,
  ...over,
});

const report = buildReport(
  {
    suiteVersion: '0.1.0',
    target: { url: 'http://127.0.0.1:8443', embedded: false },
    seed: 42,
    runId: 'html1',
    startedAt: new Date('2025-01-01T00:00:00Z'),
    finishedAt: new Date('2025-01-01T00:00:03Z'),
    areas: undefined,
    allAreas: ['core', 'events'],
    failOnUntestedMust: false,
    claimed: ['core', 'auth'],
  },
  spec,
  [
    outcome({ name: 'Docs > create answers 201' }),
    outcome({ name: 'Docs > create then read', requirements: [core[1]!.id] }),
    outcome({
      name: 'Docs > read answers 200',
      requirements: [core[2]!.id],
      status: 'failed',
      error: 'GET /docs/1 answered status 500, expected 200 </script><b>x</b>',
      signature: { status: 500, assertion: 'GET /docs/1 answered status 500, expected 200' },
      exchanges: [
        {
          method: 'GET',
          url: 'http://127.0.0.1:8443/docs/1',
          path: '/docs/1',
          startedAt: '2025-01-01T00:00:01.000Z',
          durationMs: 3,
          request: { headers: { authorization: '<redacted>' } },
          response: { status: 500, headers: { 'content-type': 'application/json' }, body: { errors: [{ code: 'internal error' }] } },
        },
      ],
    }),
    outcome({
      id: 'tests/conformance/events/feed.test.ts > Feed > pages',
      file: 'tests/conformance/events/feed.test.ts',
      name: 'Feed > pages',
      area: 'events',
      requirements: [feeds.id],
      status: 'failed',
      error: 'nope',
    }),
    outcome({
      name: 'Docs > limits',
      requirements: [core[3]!.id],
      status: 'skipped',
      skipNote: 'needs a setting',
      needsSetting: 'opsLimit',
    }),
  ],
  [],
);
// The run before: the failing test passed then, so it is newly failing.
const before = buildReport(
  {
    suiteVersion: '0.1.0',
    target: report.target,
    seed: 41,
    runId: 'html0',
    startedAt: new Date('2024-12-31T00:00:00Z'),
    finishedAt: new Date('2024-12-31T00:00:03Z'),
    areas: undefined,
    allAreas: ['core', 'events'],
    failOnUntestedMust: false,
    claimed: ['core', 'auth'],
  },
  spec,
  [outcome({ name: 'Docs > read answers 200', requirements: [core[2]!.id] })],
  [],
);
report.baseline = diffReports(before, report, 'reports-main/conformance.json');

describe('report.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let missing: string | undefined;
  let file: string;

  beforeAll(async () => {
    missing = ensureChromium();
    if (missing) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
    file = join(mkdtempSync(join(tmpdir(), 'fc-html-')), 'report.html');
    writeFileSync(file, renderHtmlReport(report));
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the numbers of conformance.json, drills down to a failing test and opens its exchange', async (ctx) => {
    if (!browser) {
      ctx.skip(`Chromium unavailable: ${missing}`);
      return;
    }
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Self-contained: any request besides the file itself is a failure.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);

    const totals = await page.locator('#totals').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
    expect(totals).toEqual({
      tests: String(report.totals.tests),
      passed: String(report.totals.passed),
      failed: String(report.totals.failed),
      unexpectedPass: String(report.totals.unexpectedPass),
      expectedFailure: String(report.totals.expectedFailure),
      notClaimed: String(report.totals.notClaimed),
      skipped: String(report.totals.skipped),
      needsSetting: String(report.totals.needsSetting),
      notRun: String(report.totals.notRun),
    });
    expect(report.totals).toMatchObject({ tests: 5, passed: 2, failed: 1, notClaimed: 1, needsSetting: 1 });
    for (const a of report.areas) {
      await expect(page.locator(`.area-score[data-area="${a.area}"]`).textContent()).resolves.toBe(
        `${a.passed}/${a.tests - a.notClaimed - a.skipped - a.needsSetting}`,
      );
    }
    await expect(page.locator('#matrix tbody tr.req').count()).resolves.toBe(report.requirements.length);

    // Filter to failed requirements: exactly the one with the failing claimed test.
    await page.selectOption('#f-status', 'failed');
    const failedIds = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failedIds).toEqual([core[2]!.id]);
    await expect(page.locator('#matrix tbody tr.req').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-req')))).resolves.toEqual(
      failedIds,
    );

    // Drill down and open the exchange.
    await page.click(`tr.req[data-req="${failedIds[0]}"]`);
    const block = page.locator('#matrix tr.drill:not([hidden]) .test');
    await expect(block.getAttribute('data-test-id')).resolves.toBe('tests/conformance/core/docs.test.ts > Docs > read answers 200');
    const exchange = block.locator('pre.exchange');
    expect(await exchange.isVisible()).toBe(false);
    await block.locator('button.show-exchange').click();
    expect(await exchange.isVisible()).toBe(true);
    expect(await exchange.textContent()).toContain('GET /docs/1');
    expect(await exchange.textContent()).toContain('< 500');
    // The error text is shown as text, never as markup.
    expect(await block.locator('pre.error').textContent()).toContain('</script><b>x</b>');

    // A row reads like the spec: its statement, its basis, and its evidence linked at the pinned commit.
    const failed = report.requirements.find((r) => r.id === failedIds[0])!;
    await expect(page.locator(`tr.req[data-req="${failed.id}"] td.statement`).textContent()).resolves.toBe(failed.statement);
    await expect(page.locator(`tr.req[data-req="${failed.id}"] td.basis`).textContent()).resolves.toBe(failed.basis);
    const links = page.locator('#matrix tr.drill:not([hidden]) .evidence a');
    await expect(links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).resolves.toEqual(failed.evidence.map((e) => e.url));

    // What needs a target setting, with the flag to pass, and what changed since the baseline.
    await expect(page.locator('#settings li.needs-setting').textContent()).resolves.toBe(
      `${core[3]!.id}: the operations one account's event streams and feed polls may consume: pass --ops-limit N (or FAUNA_CONFORMANCE_OPS_LIMIT, or target.opsLimit in the config file)`,
    );
    await page.selectOption('#f-status', 'needs-setting');
    await expect(page.locator('#matrix tbody tr.req').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-req')))).resolves.toEqual([
      core[3]!.id,
    ]);
    await expect(page.locator('#baseline').isVisible()).resolves.toBe(true);
    await expect(
      page.locator('#newly-failing li').evaluateAll((items) => items.map((i) => i.getAttribute('data-test-id'))),
    ).resolves.toEqual(['tests/conformance/core/docs.test.ts > Docs > read answers 200']);

    // Filtering by basis shows exactly the requirements of that basis.
    await page.selectOption('#f-status', '');
    for (const basis of ['sd', 'core', 'decision'] as const) {
      await page.selectOption('#f-basis', basis);
      const shown = await page.locator('#matrix tbody tr.req').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-req')));
      expect(shown).toEqual(report.requirements.filter((r) => r.basis === basis).map((r) => r.id));
    }
    await page.close();
  }, 60_000);
});
