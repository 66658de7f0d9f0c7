// The faunadb 4.x driver against a reference server started by the test file: a client for a secret, and what a
// failed query reports (the driver's error, or the first error as the service sent it).
import faunadb, { errors, type ClientConfig } from 'faunadb';
import { afterAll, beforeAll, expect } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../reference-impl/server.js';

/**
 * A reference server and a root-secret driver client for the calling file: started before its tests, closed after
 * them; read `server` and `client` inside tests and hooks.
 */
export function useDriverServer(): { readonly server: RunningReferenceServer; readonly client: faunadb.Client } {
  let server: RunningReferenceServer | undefined;
  let client: faunadb.Client | undefined;
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
    client = driverClient(server);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
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

/** A driver client of `server` over plain HTTP, with the root secret unless another is given. */
export function driverClient(
  server: RunningReferenceServer,
  secret: string = server.rootSecret,
  extra: Partial<ClientConfig> = {},
): faunadb.Client {
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
