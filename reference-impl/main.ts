/** The `fauna-reference-server` command. */
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_BCRYPT_COST } from './auth/secrets.js';
import { generatedRootSecret } from './durability/root-secret.js';
import { ACCOUNT_PLANS, type AccountPlan } from './events/event-service.js';
import { DEFAULT_MAX_STREAMS_PER_SECRET } from './events/stream-limit.js';
import { DEFAULT_QUERY_TIME_LIMIT_MS } from './eval/query-limits.js';
import { DEFAULT_FUNCTION_TIME_LIMIT_MS } from './eval/time-limit.js';
import { startReferenceServer } from './server.js';

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('must be a port number (0-65535).');
  return port;
}

function parsePositiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
}

function parseBcryptCost(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 4 || n > 31) throw new InvalidArgumentError('must be an integer from 4 to 31.');
  return n;
}

function parsePlan(text: string): AccountPlan {
  if (!(ACCOUNT_PLANS as readonly string[]).includes(text)) throw new InvalidArgumentError(`must be one of ${ACCOUNT_PLANS.join(', ')}.`);
  return text as AccountPlan;
}

const program = new Command('fauna-reference-server')
  .description('The fauna-conformance reference server (HTTP/1.1 and h2c on one port).')
  .option('--port <port>', 'port to listen on (0 picks a free port)', parsePort, 8443)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--root-secret <secret>', 'admin secret of the root database (default: $FAUNA_ROOT_SECRET, else generated into a file)')
  .option(
    '--data-dir <dir>',
    'keep data in this directory (commit log, fsync before each response) and recover it on start; default: in memory',
  )
  .option('--status-interval <ms>', 'idle time before a stream gets a status event', parsePositiveInt, 300_000)
  .option(
    '--min-retention-ms <ms>',
    'history every collection keeps for feeds and streams beyond its history_days (all of it when that is 0)',
    parsePositiveInt,
    900_000,
  )
  .option(
    '--ops-limit <n>',
    'operations the event streams and feed polls of one account (a top-level database) may consume; past it streams end with limit_exceeded and polls answer 429',
    parsePositiveInt,
  )
  .option(
    '--max-streams-per-secret <n>',
    'open event streams one secret may hold at once; one more answers 429 limit_exceeded',
    parsePositiveInt,
    DEFAULT_MAX_STREAMS_PER_SECRET,
  )
  .option('--bcrypt-cost <n>', 'BCrypt cost of password and secret hashes (4-31)', parseBcryptCost, DEFAULT_BCRYPT_COST)
  .option('--plan <plan>', 'account plan: free refuses event feeds (free|pro|enterprise)', parsePlan, 'pro')
  .option(
    '--function-time-limit <ms>',
    'how long a regular expression or a case mapping may run before its query answers 440',
    parsePositiveInt,
    DEFAULT_FUNCTION_TIME_LIMIT_MS,
  )
  .option(
    '--query-time-limit <ms>',
    "how long a query may run before it answers 503 time out (a request's x-query-timeout may ask for less)",
    parsePositiveInt,
    DEFAULT_QUERY_TIME_LIMIT_MS,
  )
  .parse();

const opts = program.opts<{
  port: number;
  host: string;
  rootSecret?: string;
  dataDir?: string;
  statusInterval: number;
  minRetentionMs: number;
  opsLimit?: number;
  maxStreamsPerSecret: number;
  plan: AccountPlan;
  bcryptCost: number;
  functionTimeLimit: number;
  queryTimeLimit: number;
}>();
const events = {
  statusIntervalMs: opts.statusInterval,
  minRetentionMs: opts.minRetentionMs,
  plan: opts.plan,
  maxStreamsPerSecret: opts.maxStreamsPerSecret,
  ...(opts.opsLimit === undefined ? {} : { opsLimit: opts.opsLimit }),
};

try {
  const given = opts.rootSecret ?? process.env.FAUNA_ROOT_SECRET;
  // A generated secret is written to a private file whose path is printed: logs never carry secrets.
  const generated = given === undefined ? await generatedRootSecret(opts.dataDir) : undefined;
  const onStorageFailure = (error: unknown) => {
    console.error(
      `fauna-reference-server: cannot write the commit log, stopping: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(3);
  };
  const server = await startReferenceServer({
    port: opts.port,
    host: opts.host,
    rootSecret: given ?? generated!.secret,
    bcryptCost: opts.bcryptCost,
    dataDir: opts.dataDir,
    onStorageFailure,
    events,
    functionTimeLimitMs: opts.functionTimeLimit,
    queryTimeLimitMs: opts.queryTimeLimit,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const secretNote = generated ? ` (root secret in ${generated.file})` : '';
  const storageNote = opts.dataDir === undefined ? '' : ` (data in ${opts.dataDir})`;
  console.log(`fauna-reference-server listening on ${server.url}${secretNote}${storageNote}`);
} catch (error) {
  console.error(`fauna-reference-server: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
