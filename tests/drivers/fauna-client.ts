// The fauna 2.x (v10) driver against a reference server started by the test file: the server and a root-secret client,
// v4 queries for setting data up, stream reads and failures awaited with a deadline.
import {
  Client,
  type ClientConfiguration,
  FetchClient,
  type QueryValue,
  type StreamClient,
  type StreamEventData,
  type StreamEventStatus,
} from 'fauna';
import { afterAll, beforeAll } from 'vitest';
import type { ServerProcess } from '../harness/server-process.js';
import { startDriverServer } from './driver-server.js';

/** Longest a single wait for events may take before the test fails. */
export const EVENT_DEADLINE_MS = 3_000;

/** What a v10 driver test file works with: its reference server and a root-secret client (one attempt a query). */
export interface FaunaServer {
  readonly server: ServerProcess;
  readonly client: Client;
}

/**
 * A driver client of the server at `url` (one attempt a query), over the driver's fetch transport: its Node HTTP/2
 * transport loses stream events (a DATA frame that arrives while the caller handles the previous one replaces it
 * unread; after an error event the stream's end is read as an empty event, a SyntaxError) and, on Node 20, now and
 * then corrupts the test process's heap (`corrupted size vs. prev_size` in nghttp2's receive path). HTTP/2 with a real
 * driver is the faunadb 4.x tests' transport.
 */
export function faunaClient(url: string, secret: string, extra: Partial<ClientConfiguration> = {}): Client {
  const config = { secret, endpoint: new URL(url), max_attempts: 1, ...extra };
  return new Client(config, new FetchClient({ url, http2_session_idle_ms: 0, http2_max_streams: 0, fetch_keepalive: true }));
}

/** The file's server and client: started before its tests (and its own `beforeAll` hooks), closed after them. */
export function useFaunaServer(): FaunaServer {
  let server: ServerProcess | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    server = await startDriverServer();
    client = faunaClient(server.url, server.rootSecret);
  });
  afterAll(async () => {
    client?.close();
    await server?.kill();
  });
  return {
    get server() {
      return server!;
    },
    get client() {
      return client!;
    },
  };
}

/**
 * A v4 query (`POST /` of `url`) answering its resource; a string body is sent verbatim, for numbers JSON.stringify
 * cannot write (longs, `2.0`). Fails on an error status.
 */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function v4Query(url: string, secret: string, expr: unknown): Promise<any> {
  const res = await fetch(`${url}/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'x-faunadb-api-version': '4' },
    body: typeof expr === 'string' ? expr : JSON.stringify(expr),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { resource: unknown };
  if (res.status >= 300) throw new Error(`v4 query failed: ${res.status} ${JSON.stringify(body)}`);
  return body.resource;
}

/** `promise`, or a failure if it takes longer than the deadline. */
export async function withDeadline<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${EVENT_DEADLINE_MS} ms`)), EVENT_DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error `run` throws; a failure if it succeeds or takes longer than the deadline. Callers check its class. */
export async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  const outcome = await withDeadline(
    run().then(
      () => undefined,
      (error: unknown) => ({ error }),
    ),
  );
  if (outcome === undefined) throw new Error('expected the driver to throw');
  return outcome.error;
}

export type StreamEvent<T extends QueryValue> = StreamEventData<T> | StreamEventStatus;

/**
 * Reads a stream until `enough` says so; fails if that takes longer than the deadline (the stream is closed then,
 * which ends the driver's iterator). `onEvent` may write to cause the next events.
 */
export async function readStream<T extends QueryValue>(
  stream: StreamClient<T>,
  enough: (events: StreamEvent<T>[]) => boolean,
  onEvent: (event: StreamEvent<T>, events: StreamEvent<T>[]) => Promise<void> = async () => {},
): Promise<StreamEvent<T>[]> {
  const events: StreamEvent<T>[] = [];
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stream.close();
  }, EVENT_DEADLINE_MS);
  try {
    for await (const event of stream) {
      events.push(event);
      await onEvent(event, events);
      if (enough(events)) break;
    }
  } finally {
    clearTimeout(timer);
    stream.close();
  }
  if (timedOut) throw new Error(`stream deadline passed after ${events.length} event(s): ${JSON.stringify(events.map((e) => e.type))}`);
  return events;
}
