import net from 'node:net';

export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

/**
 * Opens (and closes) a TCP connection to the target. Only the connection is checked: a server that accepts and then
 * never answers is reachable, and its tests fail by their own timeouts.
 */
export function assertReachable(targetUrl: string, timeoutMs: number): Promise<void> {
  const url = new URL(targetUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new UnreachableError(`target ${url.origin} is unreachable: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no TCP connection within ${timeoutMs} ms`));
    socket.once('connect', () => {
      socket.end();
      socket.destroy();
      resolve();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const reasons: Record<string, string> = {
        ECONNREFUSED: 'connection refused (is the server running on that port?)',
        ENOTFOUND: `host "${host}" not found`,
        EHOSTUNREACH: 'host unreachable',
        ENETUNREACH: 'network unreachable',
        ECONNRESET: 'connection reset',
      };
      fail(reasons[err.code ?? ''] ?? err.message);
    });
  });
}
