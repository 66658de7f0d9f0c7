// The reference server the driver tests talk to, in its own process as clients meet one: both drivers speak HTTP/2
// (h2c) in Node, and Node 20 corrupts its heap now and then when one process holds both ends of h2c sessions.
import { randomBytes } from 'node:crypto';
import { type ServerProcess, startServerProcess } from '../harness/server-process.js';

/** A reference server process with a fresh root secret and these server flags. */
export function startDriverServer(serverArgs: string[] = []): Promise<ServerProcess> {
  return startServerProcess({ rootSecret: `root-${randomBytes(12).toString('hex')}`, serverArgs });
}
