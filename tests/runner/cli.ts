// fauna-conformance: runs the conformance suite against a server URL (or the embedded reference server) and writes
// the reports; `fauna-conformance merge` combines the reports of shards, `fauna-conformance diff` compares two runs.
// Exit 0: the gate passed; 1: a test of a claimed profile failed, an expected failure passed, the requirement check
// failed, or the target stopped answering; 2: bad usage, a bad config or expectations file, or an unreachable target,
// with a one-line reason.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { PROFILES, type RequirementProfile } from '../../spec/build-index.js';
import { ConfigError, conformanceMaxWorkers, ENV, normalizeUrl, settingsFromEnv, type SuiteSettings } from '../harness/config.js';
import { TARGET_SETTING_NAMES, TARGET_SETTINGS, type EventSettings, type TargetSettingName } from '../harness/event-settings.js';
import { REQUIREMENT_ID } from '../../spec/build-index.js';
import { assertReachable, UnreachableError } from '../harness/reachability.js';
import { isKnownRequirementId } from '../harness/requirement-ids.js';
import { AREAS, type Area } from './areas.js';
import { ConfigFileError, loadConfig, type LoadedConfig } from './config-file.js';
import { ExpectationsError, readExpectations, type Expectation } from './expectations.js';
import { filesInFlightFor, MAX_FILES_IN_FLIGHT, measureRoundTrip } from './network.js';
import { DEFAULT_TESTS_DIR } from './reporters/report-model.js';
import { diffReportFiles, readReport, ReportFileError } from './diff.js';
import type { RunSuiteOptions } from './run-suite.js';

export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;
const REACHABILITY_TIMEOUT_MS = 3_000;

class UsageError extends Error {
  override name = 'UsageError';
}

function intArg(name: string, min: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
    }
    return Number(raw);
  };
}

function listArg<T extends string>(what: string, allowed: readonly T[]) {
  return (raw: string): T[] => {
    const items = raw
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const unknown = items.filter((a) => !(allowed as readonly string[]).includes(a));
    if (items.length === 0 || unknown.length > 0) {
      throw new InvalidArgumentError(`unknown ${what} ${unknown.join(', ') || '(none)'}; ${what}s are ${allowed.join(', ')}`);
    }
    return [...new Set(items)] as T[];
  };
}

function shardArg(raw: string): string {
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1 || Number(m[1]) > Number(m[2])) {
    throw new InvalidArgumentError('--shard must be i/n with 1 ≤ i ≤ n, e.g. 2/3');
  }
  return raw;
}

function requirementArg(raw: string): string {
  if (!REQUIREMENT_ID.test(raw)) throw new InvalidArgumentError(`--requirement must be an ID such as CORE-DOC-001, got "${raw}"`);
  if (!isKnownRequirementId(raw)) throw new InvalidArgumentError(`--requirement ${raw} is not in spec/requirements.json`);
  return raw;
}

function filesArg(raw: string): string[] {
  const files = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (files.length === 0) throw new InvalidArgumentError('--files needs at least one test file');
  return files;
}

function patternArg(raw: string): string {
  try {
    new RegExp(raw);
  } catch (err) {
    throw new InvalidArgumentError(`--test must be a regular expression: ${(err as Error).message}`);
  }
  return raw;
}

interface RunOptions {
  config?: string;
  url?: string;
  secret?: string;
  reportDir: string;
  area?: Area[];
  claims?: RequirementProfile[];
  expectations?: string;
  updateExpectations?: boolean;
  timeout?: number;
  streamTimeout?: number;
  seed?: number;
  shard?: string;
  bail?: number | true;
  requirement?: string;
  test?: string;
  files?: string[];
  testsDir?: string;
  allowUntested: boolean;
  statusInterval?: number;
  opsLimit?: number;
  maxStreamsPerSecret?: number;
  concurrency?: number;
  baseline?: string;
}

type Chosen =
  | { kind: 'run' }
  | { kind: 'merge'; dirs: string[]; reportDir: string }
  | { kind: 'diff'; old: string; new: string; reportDir?: string }
  | undefined;

/** The commander option name of a target setting's flag (--max-streams-per-secret → maxStreamsPerSecret). */
function optionName(setting: TargetSettingName): string {
  return new Option(TARGET_SETTINGS[setting].flag).attributeName();
}

function program(): { cmd: Command; chosen: () => Chosen } {
  let chosen: Chosen;
  const cmd = new Command('fauna-conformance')
    .description('Run the Fauna-compatible API conformance suite against a server (default: the embedded reference server).')
    .option('--config <path>', 'config file (default: ./fauna-conformance.config.json when present); flags override it')
    .addOption(new Option('--url <url>', 'target server URL; without it the embedded reference server is started').env(ENV.url))
    .addOption(
      new Option('--secret <secret>', 'admin secret of the target (needed with --url); prefer the environment variable').env(ENV.secret),
    )
    .option('--report-dir <dir>', 'where reports are written', 'reports')
    .option('--area <areas>', `comma-separated areas to run (${AREAS.join(', ')})`, listArg('area', AREAS))
    .option(
      '--claims <profiles>',
      `comma-separated capability profiles the server claims (${PROFILES.join(', ')}; default all)`,
      listArg('profile', PROFILES),
    )
    .option('--expectations <file>', 'expectations file listing known failures')
    .option('--update-expectations', 'write the expectations file from this run (failing tests of claimed profiles)')
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)', intArg('--timeout', 1))
    .option('--stream-timeout <ms>', 'per-event stream read timeout in ms (default 5000)', intArg('--stream-timeout', 1))
    .option('--seed <n>', 'seed for every random choice: fast-check, generated names, test order', intArg('--seed', 0))
    .option('--shard <i/n>', 'run only shard i of n (combine the reports with `fauna-conformance merge`)', shardArg)
    .option('--bail [n]', 'stop after n failing tests (default 1)', intArg('--bail', 1))
    .option('--requirement <id>', 'run only the tests tagged with this requirement ID', requirementArg)
    .option('--test <pattern>', 'run only tests whose "<suite> <test>" name matches this regular expression', patternArg)
    .addOption(
      new Option(
        '--concurrency <n>',
        `test files run at once (default: chosen from the round trip to the target, at most ${MAX_FILES_IN_FLIGHT})`,
      )
        .argParser(intArg('--concurrency', 1))
        .env('FAUNA_CONFORMANCE_CONCURRENCY'),
    )
    .option('--baseline <file>', 'conformance.json of an earlier run: the reports say what newly fails, newly passes or fails another way')
    .addOption(
      new Option('--tests-dir <dir>', "folder of conformance tests relative to the package (for the suite's own tests)").hideHelp(),
    )
    .addOption(
      new Option(
        '--files <paths>',
        'only these test files, comma-separated, relative to the package (the self-check narrows its runs with it)',
      )
        .argParser(filesArg)
        .hideHelp(),
    )
    .option(
      '--allow-untested',
      'list active MUST requirements of claimed profiles without a passing test but do not fail on them (by default a whole-suite run fails on them)',
      false,
    );
  // The target's settings that requirements need and a server cannot be asked for; without one, the requirements
  // whose tests need it are reported needs-setting.
  for (const name of TARGET_SETTING_NAMES) {
    const s = TARGET_SETTINGS[name];
    cmd.addOption(
      new Option(
        `${s.flag} <${s.value.toLowerCase()}>`,
        `${s.description} (${s.value === 'MS' ? 'ms' : 'a count'}), as the target is configured`,
      )
        .argParser(intArg(s.flag, 1))
        .env(s.env),
    );
  }
  cmd
    .command('diff')
    .description(
      'what newly fails, newly passes or fails another way between two runs; exit 1 when something newly fails or fails another way',
    )
    .argument('<old>', 'conformance.json (or its report directory) of the earlier run')
    .argument('<new>', 'conformance.json (or its report directory) of the later run')
    .option('--report-dir <dir>', "where diff.md and diff.json are written (default: the later run's directory)")
    .action((old: string, later: string, o: { reportDir?: string }) => {
      chosen = { kind: 'diff', old, new: later, ...(o.reportDir === undefined ? {} : { reportDir: o.reportDir }) };
    });
  cmd
    .command('merge')
    .description('combine the conformance.json of several shard runs into one report')
    .argument('<dirs...>', 'report directories (or conformance.json files) of the shards')
    .requiredOption('--report-dir <dir>', 'where the merged reports are written')
    .action((dirs: string[], o: { reportDir: string }) => {
      chosen = { kind: 'merge', dirs, reportDir: o.reportDir };
    });
  cmd.action(() => {
    chosen = { kind: 'run' };
  });
  // Options after `merge` belong to merge (its --report-dir is the output, not the run's).
  cmd.enablePositionalOptions();
  for (const c of [cmd, ...cmd.commands])
    c.exitOverride()
      .configureOutput({ writeErr: () => {} })
      .showHelpAfterError(false);
  return { cmd, chosen: () => chosen };
}

/** Flag > config file > environment variable > default, for the options a config file can set. */
function fromConfig<T>(cmd: Command, name: string, configValue: T | undefined): T | undefined {
  const source = cmd.getOptionValueSource(name);
  const flag = cmd.getOptionValue(name) as T | undefined;
  if (source === 'cli') return flag;
  return configValue ?? flag;
}

interface ResolvedRun {
  env: Record<string, string>;
  targetSettings: EventSettings;
  concurrency: number | undefined;
  baseline: string | undefined;
  reportDir: string;
  areas: Area[] | undefined;
  claimed: RequirementProfile[] | undefined;
  expectationsPath: string | undefined;
  expectations: Expectation[] | undefined;
  failOnUntestedMust: boolean;
}

function resolveRun(cmd: Command, opts: RunOptions, loaded: LoadedConfig | undefined): ResolvedRun {
  const config = loaded?.config ?? {};
  const env: Record<string, string> = {};
  const url = fromConfig(cmd, 'url', config.target?.url);
  let secret = cmd.getOptionValueSource('secret') === 'cli' ? opts.secret : undefined;
  if (secret === undefined && config.target?.secretEnv) {
    secret = process.env[config.target.secretEnv] || undefined;
    if (url && secret === undefined)
      throw new UsageError(`the config file names ${config.target.secretEnv} as the secret's environment variable, but it is not set`);
  }
  secret ??= opts.secret;
  if (url) env[ENV.url] = normalizeUrl(url);
  if (secret) env[ENV.secret] = secret;
  const timeout = fromConfig(cmd, 'timeout', config.timeouts?.requestMs);
  const streamTimeout = fromConfig(cmd, 'streamTimeout', config.timeouts?.streamMs);
  const seed = fromConfig(cmd, 'seed', config.seed);
  if (timeout !== undefined) env[ENV.requestTimeout] = String(timeout);
  if (streamTimeout !== undefined) env[ENV.streamTimeout] = String(streamTimeout);
  if (seed !== undefined) env[ENV.seed] = String(seed);
  const targetSettings: { -readonly [K in TargetSettingName]?: number } = {};
  for (const name of TARGET_SETTING_NAMES) {
    const value = fromConfig<number>(cmd, optionName(name), config.target?.[name]);
    if (value !== undefined) targetSettings[name] = value;
  }
  const baseline =
    cmd.getOptionValueSource('baseline') === 'cli' && opts.baseline !== undefined ? resolve(opts.baseline) : loaded?.baseline;

  const reportDir =
    cmd.getOptionValueSource('reportDir') === 'cli' ? resolve(opts.reportDir) : (loaded?.reportDir ?? resolve(opts.reportDir));
  const expectationsPath = opts.expectations !== undefined ? resolve(opts.expectations) : loaded?.expectations;
  // A run of some files is partial, which the report knows only from --requirement or --test: --files narrows those.
  if (opts.files !== undefined && opts.requirement === undefined && opts.test === undefined)
    throw new UsageError('--files narrows a --requirement or --test run; give one of them too');
  if (opts.updateExpectations && !expectationsPath)
    throw new UsageError('--update-expectations needs an expectations file (--expectations FILE or "expectations" in the config file)');
  let expectations: Expectation[] | undefined;
  if (expectationsPath && (existsSync(expectationsPath) || !opts.updateExpectations)) expectations = readExpectations(expectationsPath);
  else if (expectationsPath) expectations = [];

  // The real suite is held to every active MUST by default; the suite's own fixture suites (--tests-dir) are not.
  const strictByDefault = (opts.testsDir ?? DEFAULT_TESTS_DIR) === DEFAULT_TESTS_DIR;
  const failOnUntestedMust = opts.allowUntested ? false : (config.failOnUntestedMust ?? strictByDefault);
  return {
    env,
    targetSettings,
    concurrency: fromConfig(cmd, 'concurrency', config.concurrency),
    baseline,
    reportDir,
    areas: fromConfig(cmd, 'area', config.areas as Area[] | undefined),
    claimed: fromConfig(cmd, 'claims', config.claims),
    expectationsPath,
    expectations,
    failOnUntestedMust,
  };
}

function parse(cmd: Command, argv: readonly string[]): number | undefined {
  try {
    cmd.parse([...argv], { from: 'user' });
    return undefined;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.passed;
      process.stderr.write(`fauna-conformance: ${err.message.replace(/^error: /, '')}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

async function mergeCommand(dirs: string[], reportDir: string): Promise<number> {
  const { mergeReportDirs, MergeError } = await import('./merge.js');
  try {
    const report = mergeReportDirs(
      dirs.map((d) => resolve(d)),
      resolve(reportDir),
    );
    process.stdout.write(
      `fauna-conformance merge: ${report.tests.length} tests from ${dirs.length} report(s), ${report.outcome}; reports in ${resolve(reportDir)}\n`,
    );
    return report.outcome === 'passed' ? EXIT.passed : EXIT.failed;
  } catch (err) {
    if (err instanceof MergeError) {
      process.stderr.write(`fauna-conformance merge: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

/** Parses argv, checks the target, runs the suite (or merges reports); resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { cmd, chosen } = program();
  const early = parse(cmd, argv);
  if (early !== undefined) return early;
  const what = chosen();
  if (what?.kind === 'merge') return mergeCommand(what.dirs, what.reportDir);
  if (what?.kind === 'diff') return diffCommand(what.old, what.new, what.reportDir);
  if (cmd.args.length > 0) {
    process.stderr.write(`fauna-conformance: unexpected argument ${cmd.args[0]} (see --help)\n`);
    return EXIT.usage;
  }
  const opts = cmd.opts<RunOptions>();

  let run: ResolvedRun;
  let settings: SuiteSettings;
  let baseline: RunSuiteOptions['baseline'];
  try {
    run = resolveRun(cmd, opts, loadConfig(opts.config));
    settings = settingsFromEnv({ ...process.env, ...run.env });
    if (run.baseline !== undefined) baseline = { file: run.baseline, report: readReport(run.baseline) };
    if (settings.url) await assertReachable(settings.url, REACHABILITY_TIMEOUT_MS);
  } catch (err) {
    if (
      err instanceof ConfigError ||
      err instanceof UnreachableError ||
      err instanceof ConfigFileError ||
      err instanceof ExpectationsError ||
      err instanceof UsageError ||
      err instanceof ReportFileError
    ) {
      process.stderr.write(`fauna-conformance: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }

  // A distant target gets more files at once (network.ts); the embedded server is on this machine.
  const roundTripMs = settings.url ? await measureRoundTrip(settings.url, REACHABILITY_TIMEOUT_MS) : undefined;
  const cores = availableParallelism();
  const filesInFlight = run.concurrency ?? (settings.url ? filesInFlightFor(roundTripMs, cores) : conformanceMaxWorkers(cores));

  // Loaded only now: vitest is heavy, and usage errors should answer at once.
  const { runSuite } = await import('./run-suite.js');
  const report = await runSuite({
    settings,
    targetSettings: run.targetSettings,
    network: {
      filesInFlight,
      chosen: run.concurrency === undefined ? 'auto' : 'flag',
      ...(roundTripMs === undefined ? {} : { roundTripMs }),
    },
    ...(baseline === undefined ? {} : { baseline }),
    reportDir: run.reportDir,
    areas: run.areas,
    failOnUntestedMust: run.failOnUntestedMust,
    claimed: run.claimed,
    expectations: run.expectationsPath && run.expectations ? { file: run.expectationsPath, entries: run.expectations } : undefined,
    updateExpectations: opts.updateExpectations === true,
    shard: opts.shard,
    bail: opts.bail === true ? 1 : opts.bail,
    requirement: opts.requirement,
    testPattern: opts.test,
    ...(opts.files === undefined ? {} : { files: opts.files }),
    testsDir: opts.testsDir ?? DEFAULT_TESTS_DIR,
  });
  if (report?.targetLost !== undefined) process.stderr.write(`fauna-conformance: ${report.targetLost}\n`);
  return report?.outcome === 'passed' ? EXIT.passed : EXIT.failed;
}

function diffCommand(oldPath: string, newPath: string, reportDir: string | undefined): number {
  try {
    const { diff, text } = diffReportFiles(resolve(oldPath), resolve(newPath), reportDir === undefined ? undefined : resolve(reportDir));
    process.stdout.write(text);
    return diff.regressed ? EXIT.failed : EXIT.passed;
  } catch (err) {
    if (err instanceof ReportFileError) {
      process.stderr.write(`fauna-conformance diff: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}
