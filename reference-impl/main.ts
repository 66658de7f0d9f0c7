/** The `fauna-reference-server` command. */
import { Command, InvalidArgumentError } from 'commander';
import { startReferenceServer } from './server.js';

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('must be a port number (0-65535).');
  return port;
}

const program = new Command('fauna-reference-server')
  .description('The fauna-conformance reference server (HTTP/1.1 and h2c on one port).')
  .option('--port <port>', 'port to listen on (0 picks a free port)', parsePort, 8443)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--root-secret <secret>', 'admin secret of the root database (default: $FAUNA_ROOT_SECRET or a random one)')
  .parse();

const opts = program.opts<{ port: number; host: string; rootSecret?: string }>();
const rootSecret = opts.rootSecret ?? process.env['FAUNA_ROOT_SECRET'];

try {
  const server = await startReferenceServer({ port: opts.port, host: opts.host, rootSecret });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A generated root secret is printed once, because nothing else could ever use the server.
  const secretNote = rootSecret === undefined ? ` (root secret: ${server.rootSecret})` : '';
  console.log(`fauna-reference-server listening on ${server.url}${secretNote}`);
} catch (error) {
  console.error(`fauna-reference-server: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
