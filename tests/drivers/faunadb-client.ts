// The faunadb 4.x driver against a reference server started by the test file: a client for a secret, and what a
// failed query reports (the driver's error, or the first error as the service sent it).
import faunadb, { errors, type ClientConfig, type values } from 'faunadb';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ServerProcess } from '../harness/server-process.js';
import { startDriverServer } from './driver-server.js';

const q = faunadb.query;

/** What a driver test file works with: its reference server, a root-secret client, and clients for other secrets. */
export interface DriverServer {
  readonly server: ServerProcess;
  readonly client: faunadb.Client;
  /** A client for `secret`, closed with the file's others when its tests end. */
  clientFor(secret: string, extra?: Partial<ClientConfig>): faunadb.Client;
}

/**
 * A reference server and a root-secret driver client for the calling file: started before its tests (and before the
 * file's own `beforeAll` hooks, which run after this one), closed after them; read them inside tests and hooks.
 */
export function useDriverServer(): DriverServer {
  let server: ServerProcess | undefined;
  const clients: faunadb.Client[] = [];
  const clientFor = (secret: string, extra: Partial<ClientConfig> = {}): faunadb.Client => {
    const client = driverClient(server!, secret, extra);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    server = await startDriverServer();
    clientFor(server.rootSecret);
  });
  afterAll(async () => {
    // Forced: a client whose session the server or an idle timeout already ended would wait for a close that never comes.
    for (const client of clients) await client.close({ force: true });
    await server?.kill();
  });
  return {
    get server() {
      return server!;
    },
    get client() {
      return clients[0]!;
    },
    clientFor,
  };
}

/** Creates a collection, then an index of it (`source` is the collection), in two queries as a file's setup does. */
export async function createIndexedCollection(
  client: faunadb.Client,
  collection: { name: string; history_days?: number },
  index: { name: string; [param: string]: unknown },
): Promise<void> {
  await client.query(q.CreateCollection(collection));
  await client.query(q.CreateIndex({ ...index, source: q.Collection(collection.name) }));
}

/** A document as the driver decodes it. */
export type Doc<T> = { ref: values.Ref; ts: number; data: T };
/** A page as the driver decodes it. */
export type Page<T> = { data: T[]; after?: unknown[]; before?: unknown[] };

/** A driver client of `server` over plain HTTP, with the root secret unless another is given. */
export function driverClient(server: ServerProcess, secret: string = server.rootSecret, extra: Partial<ClientConfig> = {}): faunadb.Client {
  const port = Number(new URL(server.url).port);
  return new faunadb.Client({ secret, domain: '127.0.0.1', port, scheme: 'http', timeout: 10, ...extra });
}

/** The error a query fails with; undefined when it succeeds, so the caller's checks fail. */
export function failureOf(query: Promise<unknown>): Promise<unknown> {
  return query.then(
    () => undefined,
    (error: unknown) => error,
  );
}

export interface ServiceError {
  status: number;
  code: string;
  description: string;
  position: unknown;
}

/** The first error of a query that must fail, as the service sent it: HTTP status, code, description, position. */
export async function firstServiceError(query: Promise<unknown>): Promise<ServiceError> {
  const failure = await failureOf(query);
  expect(failure).toBeInstanceOf(errors.FaunaHTTPError);
  const http = failure as errors.FaunaHTTPError;
  const first = (http.requestResult.responseContent as { errors: ServiceError[] }).errors[0]!;
  return { status: http.requestResult.statusCode, code: first.code, description: first.description, position: first.position };
}

/** A query that must fail with the driver's BadRequest (400) carrying `code`, `description` and `position`. */
export async function expectBadRequest(query: Promise<unknown>, code: string, description: string, position: unknown[]): Promise<void> {
  const failure = await failureOf(query);
  expect(failure).toBeInstanceOf(errors.BadRequest);
  const http = failure as errors.FaunaHTTPError;
  expect(http.message).toBe(code);
  expect(http.description).toBe(description);
  expect(http.requestResult.responseContent.errors[0]?.position).toEqual(position);
}

/** The first error's body of a query failure the driver reports as `type` with `status` and `code` (its `message`). */
export function expectDriverError(
  failure: unknown,
  type: typeof errors.FaunaHTTPError,
  status: number,
  code: string,
): { errors: Array<{ code: string; description: string; position: unknown[]; cause?: Array<{ code: string; position: unknown[] }> }> } {
  expect(failure).toBeInstanceOf(type);
  const http = failure as errors.FaunaHTTPError;
  expect(http.requestResult.statusCode).toBe(status);
  // The driver takes `message` from the first error's code and `description` from its description.
  expect(http.message).toBe(code);
  expect(http.description).toEqual(expect.any(String));
  return http.requestResult.responseContent as never;
}
