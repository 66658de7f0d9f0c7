// The seam to the reference server: loaded only when a selfcheck starts one (as the harness's global setup does).
import type { RunningReferenceServer } from '../../reference-impl/server.js';

export type { RunningReferenceServer };

export async function startReferenceServer(): Promise<RunningReferenceServer> {
  const { startReferenceServer: start } = await import('../../reference-impl/server.js');
  return start({ port: 0, host: '127.0.0.1' });
}
