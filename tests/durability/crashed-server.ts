// What the durability tests share: a server process on a temporary data directory that outlives restarts (killed
// and removed after the file, whatever happened), and a bounded JSON POST to it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { startServerProcess, type ServerProcess } from '../harness/server-process.js';

const REQUEST_TIMEOUT_MS = 10_000;

export interface JsonAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  body: any;
}

/** POSTs `body` as JSON with the root secret (or `secret`) and parses the answer; bounded by a timeout. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, secret: string): Promise<JsonAnswer> {
  const res = await request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${secret}`, ...headers },
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

export interface DataDirServer {
  /** The data directory (valid from the file's beforeAll on). */
  readonly dir: string;
  /** Starts a server process on the directory; the previous one must have been killed. */
  start(): Promise<ServerProcess>;
}

/** Registers this file's hooks: a fresh data directory before, SIGKILL of the last server and removal after. */
export function useDataDirServer(prefix: string, rootSecret: string): DataDirServer {
  let dir: string | undefined;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      if (dir === undefined) throw new Error('the data directory exists from beforeAll on');
      return dir;
    },
    async start() {
      server = await startServerProcess({ rootSecret, dataDir: this.dir });
      return server;
    },
  };
}
