// fauna-conformance: runs the conformance suite against a server URL (or the embedded reference server) and writes
// the reports. Exit 0: every applicable test passed; 1: a test (or the requirement check) failed; 2: bad usage or
// an unreachable target, with a one-line reason.
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, ENV, normalizeUrl, settingsFromEnv } from '../harness/config.js';
import { assertReachable, UnreachableError } from '../harness/reachability.js';
import { AREAS, type Area } from './areas.js';

export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;
const REACHABILITY_TIMEOUT_MS = 3_000;

function intArg(name: string, min: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
    }
    return Number(raw);
  };
}

function areasArg(raw: string): Area[] {
  const areas = raw.split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = areas.filter((a) => !(AREAS as readonly string[]).includes(a));
  if (areas.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown area ${unknown.join(', ') || '(none)'}; areas are ${AREAS.join(', ')}`);
  }
  return [...new Set(areas)] as Area[];
}

interface CliOptions {
  url?: string;
  secret?: string;
  reportDir: string;
  area?: Area[];
  timeout?: number;
  streamTimeout?: number;
  seed?: number;
  allowUntested: boolean;
}

function program(): Command {
  return new Command('fauna-conformance')
    .description('Run the Fauna-compatible API conformance suite against a server (default: the embedded reference server).')
    .addOption(new Option('--url <url>', 'target server URL; without it the embedded reference server is started').env(ENV.url))
    .addOption(new Option('--secret <secret>', 'admin secret of the target (needed with --url)').env(ENV.secret))
    .option('--report-dir <dir>', 'where reports are written', 'reports')
    .option('--area <areas>', `comma-separated areas to run (${AREAS.join(', ')})`, areasArg)
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)', intArg('--timeout', 1))
    .option('--stream-timeout <ms>', 'per-event stream read timeout in ms (default 5000)', intArg('--stream-timeout', 1))
    .option('--seed <n>', 'seed for every random choice', intArg('--seed', 0))
    .option('--allow-untested', 'list active MUST requirements without a passing test but do not fail on them (default for now)', true)
    .option('--no-allow-untested', 'fail the run when an active MUST requirement has no passing test (whole suite only)')
    .exitOverride()
    .configureOutput({ writeErr: () => {} })
    .showHelpAfterError(false);
}

/** Parses argv, checks the target, runs the suite; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const cmd = program();
  let opts: CliOptions;
  try {
    cmd.parse([...argv], { from: 'user' });
    opts = cmd.opts<CliOptions>();
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.passed;
      process.stderr.write(`fauna-conformance: ${err.message.replace(/^error: /, '')}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  if (cmd.args.length > 0) {
    process.stderr.write(`fauna-conformance: unexpected argument ${cmd.args[0]} (see --help)\n`);
    return EXIT.usage;
  }

  const env: Record<string, string> = {};
  if (opts.url) env[ENV.url] = opts.url;
  if (opts.secret) env[ENV.secret] = opts.secret;
  if (opts.timeout !== undefined) env[ENV.requestTimeout] = String(opts.timeout);
  if (opts.streamTimeout !== undefined) env[ENV.streamTimeout] = String(opts.streamTimeout);
  if (opts.seed !== undefined) env[ENV.seed] = String(opts.seed);
  let settings;
  try {
    if (opts.url) normalizeUrl(opts.url);
    settings = settingsFromEnv({ ...process.env, ...env });
    if (settings.url) await assertReachable(settings.url, REACHABILITY_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UnreachableError) {
      process.stderr.write(`fauna-conformance: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }

  // Loaded only now: vitest is heavy, and usage errors should answer at once.
  const { runSuite } = await import('./run-suite.js');
  const report = await runSuite({ settings, reportDir: resolve(opts.reportDir), areas: opts.area, failOnUntestedMust: !opts.allowUntested });
  return report?.outcome === 'passed' ? EXIT.passed : EXIT.failed;
}
