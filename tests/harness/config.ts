// Where the suite points and how long it waits. Resolved once in the main process (runner / global setup) from
// flags and environment variables, then handed to test workers through vitest's provide/inject.

export const ENV = {
  url: 'FAUNA_CONFORMANCE_URL',
  secret: 'FAUNA_CONFORMANCE_SECRET',
  requestTimeout: 'FAUNA_CONFORMANCE_TIMEOUT',
  streamTimeout: 'FAUNA_CONFORMANCE_STREAM_TIMEOUT',
  seed: 'FAUNA_CONFORMANCE_SEED',
  runId: 'FAUNA_CONFORMANCE_RUN_ID',
} as const;

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_STREAM_TIMEOUT_MS = 5_000;

/** Settings chosen by the user; `url` absent means "start the embedded reference server". */
export interface SuiteSettings {
  url?: string;
  secret?: string;
  requestTimeoutMs: number;
  streamTimeoutMs: number;
  seed: number;
  runId: string;
}

/** The resolved target every worker talks to. */
export interface Target {
  url: string;
  secret: string;
  embedded: boolean;
  requestTimeoutMs: number;
  streamTimeoutMs: number;
  seed: number;
  runId: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function positiveInt(raw: string | undefined, what: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${what} must be a positive integer, got "${raw}"`);
  }
  return Number(raw);
}

function nonNegativeInt(raw: string | undefined, what: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${what} must be a non-negative integer, got "${raw}"`);
  }
  return Number(raw);
}

/** Checks a target URL: http(s) only, no credentials in it (they would leak into reports). */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--url must be an absolute URL such as http://127.0.0.1:8443, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`--url must use http or https, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new ConfigError('--url must not carry credentials; pass the secret with --secret or FAUNA_CONFORMANCE_SECRET');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function newRunId(): string {
  return (
    Date.now().toString(36) +
    Math.floor(Math.random() * 36 ** 4)
      .toString(36)
      .padStart(4, '0')
  );
}

/** Reads the settings from environment variables (the runner writes its flags there before starting vitest). */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SuiteSettings {
  const url = env[ENV.url] ? normalizeUrl(env[ENV.url]!) : undefined;
  const secret = env[ENV.secret] || undefined;
  if (url && !secret) {
    throw new ConfigError(`a target URL needs a secret: set ${ENV.secret} or pass --secret`);
  }
  const seedRaw = env[ENV.seed];
  return {
    url,
    secret,
    requestTimeoutMs: positiveInt(env[ENV.requestTimeout], 'the request timeout', DEFAULT_REQUEST_TIMEOUT_MS),
    streamTimeoutMs: positiveInt(env[ENV.streamTimeout], 'the stream timeout', DEFAULT_STREAM_TIMEOUT_MS),
    seed: nonNegativeInt(seedRaw, 'the seed', Math.floor(Math.random() * 2 ** 31)),
    runId: env[ENV.runId] && /^[a-z0-9]{1,16}$/.test(env[ENV.runId]!) ? env[ENV.runId]! : newRunId(),
  };
}

/** The test timeout that lets a test make a few requests that each hit the request timeout and still fail cleanly. */
export function testTimeoutFor(requestTimeoutMs: number, streamTimeoutMs: number): number {
  return 3 * Math.max(requestTimeoutMs, streamTimeoutMs) + 2_000;
}

/**
 * Conformance files share their test processes (vitest `isolate: false`): loading vitest, undici, ajv and the
 * harness again for every file took about half of the suite's client CPU. Files keep no state of their own across
 * that boundary: each has its own tenant, and the transcript's per-file state is reset when a file ends
 * (conformance-setup.ts).
 */
export const CONFORMANCE_ISOLATE = false;

/**
 * Conformance files run in worker threads rather than child processes: vitest's messages to a thread cost the main
 * process (which also runs the embedded reference server) far less than serialising them down a pipe; the suite's
 * CPU time fell by about a fifth.
 */
export const CONFORMANCE_POOL = 'threads';

/**
 * Conformance files mostly wait on the server, so more files run at once than there are cores (vitest's default is
 * cores - 1: a single file at a time on a 2-core CI machine).
 */
export function conformanceMaxWorkers(cores: number): number {
  return Math.max(4, cores);
}
