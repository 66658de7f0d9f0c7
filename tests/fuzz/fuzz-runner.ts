/**
 * Sends generated malformed requests to a server and judges every answer: never 5xx, never a dropped
 * connection, every 4xx in the endpoint's documented error shape (`v4-error` / `v10-error`), FQL text answered
 * by a v10 success or a v10 error with the position of its cause (`judgeFqlAnswer`), and after each
 * batch the server still answers a valid request. Requests are sampled in seeded batches, so a run is
 * reproducible from its seed; a failure report carries the request that caused it.
 */
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { validate } from '../../schemas/index.js';
import { judgeFqlAnswer } from './fql-queries.js';
import { malformedRequest, type FuzzRequest, type FuzzTargets } from './malformed-requests.js';

export interface FuzzOptions {
  readonly url: string;
  readonly targets: FuzzTargets;
  readonly requests: number;
  readonly seed: number;
  readonly concurrency?: number;
  readonly batchSize?: number;
  readonly requestTimeoutMs?: number;
  /** False once the server process has died. */
  readonly isAlive?: () => boolean;
  readonly onProgress?: (sent: number) => void;
}

export interface FuzzFailure {
  readonly problem: string;
  readonly request: string;
  readonly status?: number;
  readonly body?: string;
}

export interface FuzzReport {
  readonly sent: number;
  readonly byStatus: Record<string, number>;
  readonly byKind: Record<string, number>;
  readonly failures: FuzzFailure[];
  readonly seconds: number;
  /** The slowest exchanges (milliseconds and request), to spot inputs that are expensive to refuse. */
  readonly slowest: Array<{ ms: number; request: string }>;
}

const MAX_REPORTED_FAILURES = 20;

function describe(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : ` body(${req.body.length} B)=${JSON.stringify(req.body.subarray(0, 300).toString('latin1'))}`;
  return `${req.method} ${req.path.slice(0, 200)} headers=${JSON.stringify(req.headers)}${body}`;
}

/** A v4 query's documented answer when it outlasts the `x-query-timeout` it carries (LIMIT-TIME-001). */
function isTimedOut(req: FuzzRequest, status: number, text: string): boolean {
  if (status !== 503 || req.dialect !== 'v4' || !/^[0-9]+$/.test(req.headers['x-query-timeout'] ?? '')) return false;
  try {
    const body = JSON.parse(text) as { errors?: Array<{ code?: unknown }> };
    return validate('v4-error', body).valid && body.errors?.[0]?.code === 'time out';
  } catch {
    return false;
  }
}

/** Judges one exchange; undefined when it is acceptable. */
function judge(req: FuzzRequest, status: number, text: string): string | undefined {
  if (isTimedOut(req, status, text)) return undefined;
  if (req.fql) return judgeFqlAnswer(status, text);
  if (status >= 500) return `answered ${status}`;
  if (status < 400 || req.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} body is not JSON`;
  }
  const schema = `${req.dialect}-error`;
  const result = validate(schema, body);
  return result.valid ? undefined : `${status} body is not a ${schema}: ${result.errors.slice(0, 3).join('; ')}`;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const concurrency = options.concurrency ?? 16;
  const batchSize = options.batchSize ?? 500;
  const timeout = options.requestTimeoutMs ?? 15_000;
  // A private pool, so that a test's other clients never share a connection the fuzzer has poisoned.
  const dispatcher = new Agent({ connections: concurrency, pipelining: 0 });
  const byStatus: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  const arbitrary = malformedRequest(options.targets);
  let sent = 0;
  const fail = (failure: FuzzFailure) => {
    if (failures.length < MAX_REPORTED_FAILURES) failures.push(failure);
  };

  const slowest: Array<{ ms: number; request: string }> = [];
  const timed = async (req: FuzzRequest): Promise<void> => {
    const start = performance.now();
    await send(req);
    const ms = Math.round(performance.now() - start);
    if (slowest.length < 5 || ms > slowest[slowest.length - 1]!.ms) {
      slowest.push({ ms, request: describe(req).slice(0, 300) });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 5);
    }
  };

  const send = async (req: FuzzRequest): Promise<void> => {
    byKind[req.kind.split(' ').slice(0, 2).join(' ')] = (byKind[req.kind.split(' ').slice(0, 2).join(' ')] ?? 0) + 1;
    try {
      const res = await request(`${options.url}${req.path}`, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      if (req.path.startsWith('/stream') && res.statusCode === 200) {
        // An accepted stream stays open: the status line is all there is to judge.
        res.body.on('error', () => undefined).destroy();
        return;
      }
      const text = await res.body.text();
      const problem = judge(req, res.statusCode, text);
      if (problem) fail({ problem, request: describe(req), status: res.statusCode, body: text.slice(0, 500) });
    } catch (error) {
      const code = (error as { code?: string }).code;
      // undici refuses some generated header values before sending: nothing reached the server.
      if (code === 'UND_ERR_INVALID_ARG') return;
      // A body over the limit may be answered before it is fully sent, and the connection then closed.
      if (req.kind.startsWith('oversized') && (code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'ECONNRESET')) return;
      fail({ problem: `no answer (${code ?? (error as Error).message})`, request: describe(req) });
    }
  };

  const liveness = async (): Promise<void> => {
    if (options.isAlive && !options.isAlive()) {
      fail({ problem: 'the server process died', request: `after ${sent} requests` });
      return;
    }
    try {
      const res = await request(`${options.url}/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.targets.secret}`, 'x-faunadb-api-version': '4' },
        body: JSON.stringify({ exists: { ref: { collection: options.targets.collection }, id: '1' } }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 || !text.includes('"resource":true'))
        fail({
          problem: `valid request failed after ${sent} requests: ${res.statusCode}`,
          request: 'exists(doc 1)',
          body: text.slice(0, 300),
        });
    } catch (error) {
      fail({ problem: `valid request got no answer after ${sent} requests (${(error as Error).message})`, request: 'exists(doc 1)' });
    }
  };

  try {
    for (let batch = 0; sent < options.requests; batch++) {
      const size = Math.min(batchSize, options.requests - sent);
      const queue = fc.sample(arbitrary, { numRuns: size, seed: options.seed + batch });
      const workers = Array.from({ length: concurrency }, async () => {
        for (let req = queue.pop(); req !== undefined; req = queue.pop()) await timed(req);
      });
      await Promise.all(workers);
      sent += size;
      options.onProgress?.(sent);
      await liveness();
      if (failures.some((f) => f.problem === 'the server process died')) break;
    }
  } finally {
    await dispatcher.close();
  }
  return { sent, byStatus, byKind, failures, seconds: (Date.now() - started) / 1000, slowest };
}

/** The valid things the generators mix in: a collection with three documents, an index and a token if supported. */
export async function prepareTargets(url: string, secret: string, oversizedBytes: number): Promise<FuzzTargets> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await request(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'x-faunadb-api-version': '4', ...headers },
      body: JSON.stringify(body),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
    return { status: res.statusCode, json: (await res.body.json()) as any };
  };
  const collection = 'fuzzed';
  const created = await post('/', { create_collection: { object: { name: collection } } });
  if (created.status !== 201) throw new Error(`cannot create the fuzz collection: ${JSON.stringify(created.json)}`);
  const docs = await post(
    '/',
    ['1', '2', '3'].map((id) => ({ create: { ref: { collection }, id }, params: { object: { data: { object: { n: Number(id) } } } } })),
  );
  if (docs.status !== 201 && docs.status !== 200) throw new Error(`cannot create the fuzz documents: ${JSON.stringify(docs.json)}`);
  const index = await post('/', {
    create_index: { object: { name: 'fuzzed_by_n', source: { collection }, terms: [{ object: { field: ['data', 'n'] } }] } },
  });
  const source = await post('/query/1', { query: `${collection}.all().eventSource()` });
  return {
    secret,
    collection,
    index: index.status === 201 ? 'fuzzed_by_n' : undefined,
    eventToken: source.status === 200 && typeof source.json?.data === 'string' ? source.json.data : undefined,
    oversizedBytes,
  };
}
