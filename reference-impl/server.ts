/** Starts the reference server: the composed parts behind the one-port HTTP/1.1 + h2c transport. */
import { randomBytes } from 'node:crypto';
import { composeReferenceServer, type ReferenceServerParts } from './composition.js';
import { createDispatcher } from './endpoints/dispatcher.js';
import { DEFAULT_BCRYPT_COST } from './auth/secrets.js';
import type { EventServerOptions } from './events/event-service.js';
import { openDataDirectory, type DataDirectory } from './durability/data-dir.js';
import { DEFAULT_MAX_BODY_BYTES, DualProtocolServer } from './transport/dual-protocol-server.js';
import { transportErrors } from './endpoints/transport-errors.js';

export interface ReferenceServerOptions {
  port?: number;
  host?: string;
  rootSecret?: string;
  bcryptCost?: number;
  /** Keep every commit in this directory and recover from it on start (default: in memory only). */
  dataDir?: string;
  /** Called when the commit log cannot be written: commits can no longer be acknowledged (the CLI exits). */
  onStorageFailure?: (error: unknown) => void;
  /** Event feeds and streams: `statusIntervalMs`, `minRetentionMs`, `opsLimit`, `plan` (see events/event-service.ts). */
  events?: EventServerOptions;
  /** How long a regular expression or a case mapping may run before the query answers 440 (default 1000 ms). */
  functionTimeLimitMs?: number;
  /** The longest a query may run; a request's `x-query-timeout` may ask for less (default 30000 ms). */
  queryTimeLimitMs?: number;
  /** Honour the failpoints a request names (failpoints.ts): for the self-check's faults only, never a real server. */
  failpoints?: boolean;
}

export interface RunningReferenceServer {
  url: string;
  port: number;
  host: string;
  rootSecret: string;
  close(): Promise<void>;
}

/** The running server plus its internals, for in-process tests and extensions. */
export interface RunningReferenceServerWithParts extends RunningReferenceServer {
  readonly parts: ReferenceServerParts;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<RunningReferenceServerWithParts> {
  const rootSecret = options.rootSecret ?? `root-${randomBytes(12).toString('hex')}`;
  const host = options.host ?? '127.0.0.1';
  // Transport faults (resets, malformed requests) are the clients' and logged only when debugging.
  const onFault = (error: unknown) => {
    if (process.env.FAUNA_REFERENCE_DEBUG) console.error('[reference-server]', error);
  };
  // A request answered 500 is a server bug and always logged: the error's name and stack frames, not its message,
  // which could quote request data (secrets, passwords).
  const onInternalError = (error: unknown) => {
    if (process.env.FAUNA_REFERENCE_DEBUG) return console.error('[reference-server]', error);
    const frames = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : '';
    console.error(
      `fauna-reference-server: internal error (${error instanceof Error ? error.name : typeof error}), answered 500\n${frames}`,
    );
  };
  let dataDir: DataDirectory | undefined;
  if (options.dataDir !== undefined) dataDir = await openDataDirectory(options.dataDir, options.onStorageFailure ?? onFault);
  const serverKey = dataDir?.serverKey ?? randomBytes(32);
  const parts = composeReferenceServer({
    rootSecret,
    bcryptCost: options.bcryptCost ?? DEFAULT_BCRYPT_COST,
    serverKey,
    ...(options.events ? { events: options.events } : {}),
    ...(options.functionTimeLimitMs !== undefined ? { functionTimeLimitMs: options.functionTimeLimitMs } : {}),
    ...(options.queryTimeLimitMs !== undefined ? { queryTimeLimitMs: options.queryTimeLimitMs } : {}),
  });
  if (dataDir) {
    try {
      const recovered = dataDir.recover(parts.store, parts.transactions);
      if (recovered.droppedBytes > 0)
        console.error(`fauna-reference-server: dropped a torn final commit-log record (${recovered.droppedBytes} bytes)`);
    } catch (error) {
      await dataDir.close();
      throw error;
    }
  }
  const transport = new DualProtocolServer(
    createDispatcher(parts.routes, parts.services, onInternalError, { failpoints: options.failpoints ?? false }),
    {
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      ...transportErrors(parts.routes),
      onFault,
    },
  );
  let address: { port: number };
  try {
    address = await transport.listen(options.port ?? 8443, host);
  } catch (error) {
    await dataDir?.close();
    throw error;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    host,
    rootSecret,
    parts,
    close: async () => {
      await transport.close();
      await dataDir?.close();
    },
  };
}
