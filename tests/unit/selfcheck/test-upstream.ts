// A scripted HTTP server the self-check unit tests put behind the fault proxy or a hostile server: listening on a
// free local port for the file's tests, closed (connections included) after them.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Registers the file's hooks; the returned function gives the server's URL once beforeAll ran. */
export function useUpstream(server: Server): () => string {
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return () => url;
}
