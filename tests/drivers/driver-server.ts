// The reference server the driver tests talk to, in its own process as clients meet one: the drivers' timing is then a
// network client's (sharing one event loop with the server hid a race in the fauna driver's HTTP/2 stream reader), and
// a crash of either side is seen as that side's.
import { randomBytes } from 'node:crypto';
import { type ServerProcess, startServerProcess } from '../harness/server-process.js';

/** A reference server process with a fresh root secret and these server flags. */
export function startDriverServer(serverArgs: string[] = []): Promise<ServerProcess> {
  return startServerProcess({ rootSecret: `root-${randomBytes(12).toString('hex')}`, serverArgs });
}
