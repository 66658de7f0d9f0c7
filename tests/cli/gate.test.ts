// The CI gate end to end: claims, expectation files, --update-expectations, config files, seeds and replays, shards
// and merge, filters — each a real run of the CLI on the fixture suite against a scripted server. A run costs a
// few seconds of process start-up, so the independent runs start together in beforeAll (a few at a time, CI has
// 2 cores) and one run serves every test that only needs to read its report.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Semaphore } from 'async-mutex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../schemas/index.js';
import { runCli, runFixtureSuite, statusOf, BIN, type CliRun } from './run-fixture-suite.js';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

const READ = 'tests/runner/fixtures/suite/core/documents.test.ts > Documents > read answers 200';
const CREATE = 'tests/runner/fixtures/suite/core/documents.test.ts > Documents > create answers 200';
const LOGOUT = 'tests/runner/fixtures/suite/auth/login.test.ts > Login > logout answers 200';

type FixtureRun = Awaited<ReturnType<typeof runFixtureSuite>>;

let server: ScriptedServer;
const slots = new Semaphore(3);
/** A fixture-suite run started now, at most three at a time. */
const fixtureRun = (args: readonly string[], opts: Parameters<typeof runFixtureSuite>[2] = {}): Promise<FixtureRun> =>
  slots.runExclusive(() => runFixtureSuite(server.url, args, opts));

function writeJson(data: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-json-')), 'file.json');
  writeFileSync(path, JSON.stringify(data));
  return path;
}

let runs: {
  /**
   * Seed 1, claims core and auth, run ID aaa3: the claims test, the unsharded run for the shard merge, the merge
   * refusals, the source of the replayed command and the "other seed" of the seed test.
   */
  claimed: Promise<FixtureRun>;
  shards: Promise<FixtureRun[]>;
  expectations: Promise<FixtureRun>;
  /** --update-expectations (seed 3, run ID aaa1), then a run with the written file (seed 3 again, run ID aaa2). */
  updated: Promise<{ file: string; first: FixtureRun; again: FixtureRun }>;
  requirement: Promise<FixtureRun>;
  bail: Promise<FixtureRun>;
};

beforeAll(async () => {
  server = await startScriptedServer();
  // read fails with 500 "internal error", logout with 403 "permission denied", feed (profile feeds) with 501.
  server.answers.set('/fixture/read', { status: 500, body: { errors: [{ code: 'internal error', description: 'boom' }] } });
  server.answers.set('/fixture/logout', { status: 403, body: { errors: [{ code: 'permission denied', description: 'no' }] } });
  server.answers.set('/fixture/feed', { status: 501, body: { error: { code: 'not_implemented', message: 'no feeds' } } });
  const expectations = writeJson({
    expectations: [
      { test: READ, signature: { status: 500, errorCode: 'internal error' }, reason: 'reads are broken' },
      { test: CREATE, signature: { status: 500 }, reason: 'was broken once' },
      { test: LOGOUT, signature: { errorCode: 'unauthorized' }, reason: 'logout answers 401' },
    ],
  });
  const updatedFile = join(mkdtempSync(join(tmpdir(), 'fc-exp-')), 'expectations.json');
  // Not awaited: each test waits for the runs it reads, so the first tests start while later runs still go.
  runs = {
    claimed: fixtureRun(['--seed', '1', '--claims', 'core,auth'], { env: { FAUNA_CONFORMANCE_RUN_ID: 'aaa3' } }),
    shards: Promise.all(['1/2', '2/2'].map((s) => fixtureRun(['--seed', '1', '--claims', 'core,auth', '--shard', s]))),
    expectations: fixtureRun(['--seed', '2', '--claims', 'core,auth', '--expectations', expectations]),
    updated: fixtureRun(['--seed', '3', '--expectations', updatedFile, '--update-expectations'], {
      env: { FAUNA_CONFORMANCE_RUN_ID: 'aaa1' },
    }).then(async (first) => ({
      file: updatedFile,
      first,
      again: await fixtureRun(['--seed', '3', '--expectations', updatedFile], { env: { FAUNA_CONFORMANCE_RUN_ID: 'aaa2' } }),
    })),
    requirement: fixtureRun(['--requirement', 'COLL-CREATE-002']),
    bail: fixtureRun(['--bail', '--area', 'auth']),
  };
});

afterAll(async () => {
  // Let every started run end before the server goes, whether or not its test got to read it.
  await Promise.allSettled(Object.values(runs ?? {}));
  await server?.close();
});

// A test may wait for runs queued behind others (three at a time), which took minutes at load 35 on 2 cores.
describe('the CI gate', { timeout: 300_000 }, () => {
  describe('capability claims', () => {
    it('reports tests of unclaimed profiles as not-claimed and never fails the gate on them', async () => {
      const run = await runs.claimed;
      const report = run.report();
      expect(validate('conformance-report', report).errors).toEqual([]);
      expect(report.claimedProfiles).toEqual(['auth', 'core']);
      const feed = report.tests.find((t) => t.name === 'Feeds > feed answers 200')!;
      expect(feed).toMatchObject({ result: 'failed', status: 'not-claimed', profiles: ['feeds'] });
      expect(report.requirements.find((r) => r.id === 'ESRC-ON-001')).toMatchObject({ claimed: false, status: 'not-claimed' });
      expect(report.totals.notClaimed).toBe(1);
      // The claimed ones still count: read and logout fail the run.
      expect(statusOf(report, 'Documents > read answers 200')).toBe('failed');
      expect(run.code).toBe(1);
    });
  });

  describe('expectation files', () => {
    it('passes expected failures, fails a different failure and an unexpected pass', async () => {
      const run = await runs.expectations;
      const report = run.report();
      expect(report.tests.find((t) => t.id === READ)).toMatchObject({
        status: 'expected-failure',
        expectation: { reason: 'reads are broken' },
      });
      expect(report.tests.find((t) => t.id === CREATE)).toMatchObject({
        result: 'passed',
        status: 'unexpected-pass',
        note: 'unexpected pass: remove it from the expectations',
      });
      const logout = report.tests.find((t) => t.id === LOGOUT)!;
      expect(logout.status).toBe('failed');
      expect(logout.note).toMatch(
        /failed differently than expected: expected error code unauthorized, got status 403, error code permission denied/,
      );
      expect(report.outcome).toBe('failed');
      expect(run.code).toBe(1);
      const summary = readFileSync(join(run.dir, 'summary.md'), 'utf8');
      expect(summary).toContain('unexpected pass: remove it from the expectations');
      expect(summary).toContain('## Expected failures (1)');
    });

    it('--update-expectations writes the file from a run, and the next run passes the gate with it', async () => {
      const { file, first, again } = await runs.updated;
      expect(first.code, first.stderr).toBe(0);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(validate('expectations', written).errors).toEqual([]);
      expect(written.expectations.map((e: { test: string }) => e.test)).toEqual([
        LOGOUT,
        READ,
        'tests/runner/fixtures/suite/events/feed.test.ts > Feeds > feed answers 200',
      ]);
      expect(written.expectations[1].signature).toEqual({
        status: 500,
        errorCode: 'internal error',
        assertion: 'GET /fixture/read answered status 500, expected 200',
      });

      expect(again.code, again.stdout).toBe(0);
      expect(again.report().totals).toMatchObject({ expectedFailure: 3, failed: 0, unexpectedPass: 0 });
    });

    it('a malformed expectations file is a usage error', async () => {
      const bad = writeJson({ expectations: [{ test: READ, signature: {} }] });
      const run = await runFixtureSuite(server.url, ['--expectations', bad]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^fauna-conformance: expectations file .* is invalid: .*reason/);
    });
  });

  describe('config file', () => {
    it('supplies target, secret env var, claims, expectations, areas, seed and report dir; flags override it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fc-config-'));
      writeFileSync(
        join(dir, 'known.json'),
        JSON.stringify({ expectations: [{ test: READ, signature: { status: 500 }, reason: 'known' }] }),
      );
      writeFileSync(
        join(dir, 'fauna-conformance.config.json'),
        JSON.stringify({
          target: { url: server.url, secretEnv: 'MY_SERVER_SECRET' },
          claims: ['core'],
          expectations: 'known.json',
          areas: ['core', 'events'],
          seed: 99,
          reportDir: 'out',
        }),
      );
      // Found in the working directory without --config; --seed on the command line beats the file's 99.
      const run = await slots.runExclusive(() =>
        runCli(['--tests-dir', 'tests/runner/fixtures/suite', '--seed', '5'], {
          cwd: dir,
          env: { MY_SERVER_SECRET: 'config-held-secret' },
        }),
      );
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8'));
      expect(report).toMatchObject({
        seed: 5,
        claimedProfiles: ['core'],
        areasRun: ['core', 'events'],
        target: { url: server.url, embedded: false },
      });
      expect(report.expectationsFile).toBe(join(dir, 'known.json'));
      expect(statusOf(report, 'Documents > read answers 200')).toBe('expected-failure');
      expect(statusOf(report, 'Feeds > feed answers 200')).toBe('not-claimed');
      expect(report.tests.some((t: { area: string }) => t.area === 'auth')).toBe(false);
      expect(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8')).not.toContain('config-held-secret');
    });

    it('rejects a config file holding a secret, and an unset secret variable, with exit 2', async () => {
      const withSecret = writeJson({ target: { url: server.url, secret: 'literal' } });
      const unset = writeJson({ target: { url: server.url, secretEnv: 'NOT_SET_ANYWHERE' } });
      const [a, b] = await Promise.all([runCli(['--config', withSecret]), runCli(['--config', unset])]);
      expect(a.code).toBe(2);
      expect(a.stderr).toMatch(/^fauna-conformance: config file .* is invalid/);
      expect(b.code).toBe(2);
      expect(b.stderr).toContain('NOT_SET_ANYWHERE');
    });
  });

  describe('seed and replay', () => {
    function seededChoices(runId: string): string[] {
      return server.records
        .filter((r) => r.name!.startsWith(`fc_${runId}_`))
        .map((r) => `${r.test}:${r.value}:${r.name!.split('_').pop()}`);
    }

    it('the same seed repeats test order, fast-check values and generated names; another seed changes them', async () => {
      // aaa1 and aaa2 ran seed 3 (with and without --update-expectations, which changes neither), aaa3 seed 1.
      await Promise.all([runs.updated, runs.claimed]);
      const [a, b, c] = ['aaa1', 'aaa2', 'aaa3'].map(seededChoices);
      expect(a).toHaveLength(5);
      expect(b).toEqual(a);
      expect(c).not.toEqual(a);
    });

    it('a failure prints a one-line command that replays exactly that test', async () => {
      const run = await runs.claimed;
      const failing = run.report().tests.find((t) => t.id === READ)!;
      expect(failing.replay).toBe(
        `npx fauna-conformance --url ${server.url} --seed 1 --area core --test 'Documents read answers 200$' --tests-dir tests/runner/fixtures/suite`,
      );
      expect(run.stdout).toContain(`replay: ${failing.replay}`);
      expect(readFileSync(join(run.dir, 'summary.md'), 'utf8')).toContain(`replay: \`${failing.replay}\``);

      const dir = mkdtempSync(join(tmpdir(), 'fc-replay-'));
      // Run the printed command itself (npx fauna-conformance = our bin) through a shell, with the secret from the
      // environment; it fails (exit 1), as the replayed test does.
      const args = failing.replay!.replace(/^npx fauna-conformance /, '');
      const replay = await slots.runExclusive(
        () =>
          new Promise<CliRun>((resolve) => {
            const env = { ...process.env, CI: 'true', FAUNA_CONFORMANCE_SECRET: 'scripted-admin-secret', VITEST: '' };
            execFile(
              'sh',
              ['-c', `"${process.execPath}" "${BIN}" ${args} --report-dir ${dir}`],
              { cwd: tmpdir(), env, timeout: 90_000 },
              (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
            );
          }),
      );
      expect(replay.code, replay.stderr).toBe(1);
      expect(replay.stdout).toContain('FAILED');
      const replayed = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
      expect(replayed.tests.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([[READ, 'failed']]);
    });
  });

  describe('filters', () => {
    it('--requirement runs only the tests tagged with it', async () => {
      const report = (await runs.requirement).report();
      expect(report.tests.map((t) => t.id)).toEqual([READ]);
      expect(report).toMatchObject({ wholeSuite: false, filters: { requirement: 'COLL-CREATE-002' }, untestedMust: [] });
    });

    it('--bail stops the run after the first failure and still reports', async () => {
      const run = await runs.bail;
      expect(run.code).toBe(1);
      expect(run.report().totals.failed).toBeGreaterThanOrEqual(1);
    });

    it('bad --shard, --requirement and --claims values are usage errors', async () => {
      const results = await Promise.all(
        [
          ['--shard', '3/2'],
          ['--requirement', 'nope'],
          ['--claims', 'core,time-travel'],
        ].map((a) => runCli(a)),
      );
      for (const r of results) {
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^fauna-conformance: /);
      }
    });
  });

  describe('shards', () => {
    it('merging the shards gives the unsharded run per-test statuses, areas and requirement verdicts', async () => {
      const [whole, shards] = await Promise.all([runs.claimed, runs.shards]);
      for (const s of shards) expect(s.report().tests.length).toBeGreaterThan(0);
      const out = mkdtempSync(join(tmpdir(), 'fc-merged-'));
      const merge = await runCli(['merge', shards[0]!.dir, join(shards[1]!.dir, 'conformance.json'), '--report-dir', out]);
      expect(merge.code, merge.stderr).toBe(1);
      const merged = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
      expect(validate('conformance-report', merged).errors).toEqual([]);
      const statuses = (r: { tests: { id: string; status: string }[] }) => Object.fromEntries(r.tests.map((t) => [t.id, t.status]));
      expect(statuses(merged)).toEqual(statuses(whole.report()));
      expect(merged.totals).toEqual(whole.report().totals);
      expect(merged.areas).toEqual(whole.report().areas);
      expect(merged.requirements).toEqual(whole.report().requirements.map((r) => ({ ...r, tests: [...r.tests].sort() })));
      expect(merged.shards).toEqual(['1/2', '2/2']);
      for (const f of ['summary.md', 'badge.svg', 'badge.json', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
      // JUnit and Allure hold every test of both shards once.
      const testcases = (dir: string) => (readFileSync(join(dir, 'junit.xml'), 'utf8').match(/<testcase\b/g) ?? []).length;
      const results = (dir: string) => readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
      expect(testcases(out)).toBe(testcases(shards[0]!.dir) + testcases(shards[1]!.dir));
      expect(testcases(out)).toBe(testcases(whole.dir));
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(
        new RegExp(`<testsuites name="fauna-conformance" tests="${testcases(whole.dir)}"`),
      );
      expect(results(out)).toBe(results(shards[0]!.dir) + results(shards[1]!.dir));
      expect(results(out)).toBe(results(whole.dir));
    });

    it('refuses to merge a report with itself or reports of different seeds', async () => {
      const a = await runs.claimed;
      // The same report with another seed stands in for a run of another seed.
      const b = join(mkdtempSync(join(tmpdir(), 'fc-other-seed-')), 'conformance.json');
      writeFileSync(b, JSON.stringify({ ...a.report(), seed: 10 }));
      const out = mkdtempSync(join(tmpdir(), 'fc-merged-'));
      const [same, seeds] = await Promise.all([
        runCli(['merge', a.dir, a.dir, '--report-dir', out]),
        runCli(['merge', a.dir, b, '--report-dir', out]),
      ]);
      expect(same.code).toBe(2);
      expect(same.stderr).toMatch(/is in more than one report/);
      expect(seeds.code).toBe(2);
      expect(seeds.stderr).toMatch(/differ in seed/);
    });
  });
});
