// npm run selfcheck: the suite against every fault and hostile server; writes reports/selfcheck.{json,md};
// exits 1 when a fault goes uncaught or a hostile server is not survived, 2 on bad usage.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AREAS, type Area, type Fault } from './fault.js';
import { FAULTS } from './faults/catalogue.js';
import { HOSTILE_SERVERS } from './hostile/catalogue.js';
import { startReferenceServer } from './reference-server.js';
import { firstBrokenRequirement, runSelfcheck, type SuiteScope } from './selfcheck.js';
import { mergeSelfcheckReports, readSelfcheckReport, writeSelfcheckReport } from './selfcheck-report.js';
import { REPO_ROOT } from './suite-process.js';

interface RunOptions {
  fault?: string[];
  hostile?: string[];
  area?: Area[];
  fast: boolean;
  narrow: boolean;
  requirement?: string;
  test?: string;
  merge?: string[];
  faults: boolean;
  hostileServers: boolean;
  jobs: number;
  out: string;
}

function list(raw: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}

function areaList(raw: string, previous: Area[] = []): Area[] {
  const areas = list(raw) as Area[];
  const unknown = areas.filter((area) => !AREAS.includes(area));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown area ${unknown.join(', ')}; areas are ${AREAS.join(', ')}`);
  return [...previous, ...areas];
}

function positive(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw)) throw new InvalidArgumentError('must be a positive integer');
  return Number(raw);
}

async function main(argv: string[]): Promise<number> {
  const command = new Command('selfcheck')
    .description('Run the conformance suite against deliberately broken and hostile servers.')
    .option('--fault <ids>', 'only these faults (comma-separated, repeatable)', list)
    .option('--hostile <ids>', 'only these hostile servers (comma-separated, repeatable)', list)
    .option('--area <areas>', 'only faults and hostile servers of these areas', areaList)
    .option('--fast', 'each fault against its own area only', false)
    .option('--narrow', 'each fault against only the tests of the first requirement it breaks', false)
    .option('--requirement <id>', 'every run against only the tests tagged with this requirement ID')
    .option('--test <pattern>', 'every run against only the tests whose "<suite> <test>" name matches this regular expression')
    .option('--no-faults', 'skip the fault catalogue')
    .option('--no-hostile-servers', 'skip the hostile servers')
    .option('--jobs <n>', 'faults checked at the same time', positive, Math.max(1, Math.floor(availableParallelism() / 2)))
    .option('--merge <dirs>', 'run nothing; merge the selfcheck.json of these directories (later ones win) into --out', list)
    .option('--out <dir>', 'where selfcheck.json and selfcheck.md go', resolve(REPO_ROOT, 'reports'))
    .exitOverride();
  let options: RunOptions;
  try {
    command.parse(argv, { from: 'user' });
    options = command.opts<RunOptions>();
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }

  if (options.merge !== undefined) {
    const report = mergeSelfcheckReports(options.merge.map((dir) => readSelfcheckReport(resolve(dir))));
    writeSelfcheckReport(options.out, report);
    process.stdout.write(
      `selfcheck: merged ${options.merge.length} report(s): ${report.totals.caught}/${report.totals.faults} faults caught, ${report.totals.survived}/${report.totals.hostile} hostile servers survived; reports in ${options.out}\n`,
    );
    return report.outcome === 'passed' ? 0 : 1;
  }

  const unknownFaults = (options.fault ?? []).filter((id) => !FAULTS.some((fault) => fault.id === id));
  const unknownHostile = (options.hostile ?? []).filter((id) => !HOSTILE_SERVERS.some((server) => server.id === id));
  if (unknownFaults.length > 0 || unknownHostile.length > 0) {
    process.stderr.write(`selfcheck: unknown ${[...unknownFaults, ...unknownHostile].join(', ')}\n`);
    return 2;
  }
  const inArea = (area: Area) => options.area === undefined || options.area.includes(area);
  const faults = !options.faults
    ? []
    : FAULTS.filter((fault) => (options.fault === undefined || options.fault.includes(fault.id)) && inArea(fault.area));
  const onlyFaultsNamed = options.fault !== undefined && options.hostile === undefined;
  const hostile =
    !options.hostileServers || onlyFaultsNamed
      ? []
      : HOSTILE_SERVERS.filter((server) => (options.hostile === undefined || options.hostile.includes(server.id)) && inArea(server.area));

  if (options.narrow && options.requirement !== undefined) {
    process.stderr.write('selfcheck: --narrow and --requirement both choose the requirement; give one\n');
    return 2;
  }
  const fixed: SuiteScope | undefined =
    options.requirement === undefined && options.test === undefined
      ? undefined
      : {
          ...(options.requirement === undefined ? {} : { requirement: options.requirement }),
          ...(options.test === undefined ? {} : { testPattern: options.test }),
        };
  const scopeFor = options.narrow
    ? (fault: Fault): SuiteScope => ({ ...fixed, ...firstBrokenRequirement(fault) })
    : fixed === undefined
      ? undefined
      : () => fixed;

  const reference = await startReferenceServer();
  try {
    const report = await runSelfcheck({
      reference,
      faults,
      hostile,
      fast: options.fast,
      jobs: options.jobs,
      ...(scopeFor === undefined ? {} : { scopeFor }),
      ...(fixed === undefined ? {} : { hostileScope: fixed }),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    writeSelfcheckReport(options.out, report);
    process.stdout.write(
      `selfcheck: ${report.totals.caught}/${report.totals.faults} faults caught, ${report.totals.survived}/${report.totals.hostile} hostile servers survived; reports in ${options.out}\n`,
    );
    return report.outcome === 'passed' ? 0 : 1;
  } finally {
    await reference.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
