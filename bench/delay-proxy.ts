/**
 * A TCP proxy that holds every chunk for a fixed time in each direction, so a server on this machine answers like one
 * across a network: `oneWayMs` 15 gives a 30 ms round trip. Written here rather than taken from a package: the
 * maintained latency proxies (toxiproxy) are Go binaries this machine cannot fetch, and the npm TCP proxies add no
 * delay. Chunks keep their order, a new connection waits a round trip before its first bytes, and a side that writes
 * faster than the other reads is paused, so nothing buffers without bound.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  url: string;
  close(): Promise<void>;
}

/** Bytes in flight in one direction before the sending side is paused. */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;

/**
 * Delivers what `from` sends to `to` `delayMs` later, in order, and not before `openAt` (a new connection costs a
 * round trip before its first bytes, as a TCP handshake does).
 */
function relay(from: net.Socket, to: net.Socket, delayMs: number, openAt: number): void {
  const queue: { at: number; chunk: Buffer | 'end' | 'close' }[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    timer = undefined;
    while (queue.length > 0 && queue[0]!.at <= performance.now()) {
      const { chunk } = queue.shift()!;
      if (chunk === 'end') to.end();
      // The other side closes too, once what it was given is written.
      else if (chunk === 'close') to.destroySoon();
      else {
        inFlight -= chunk.length;
        if (!to.destroyed) to.write(chunk);
      }
    }
    if (inFlight <= HIGH_WATER_BYTES && from.isPaused()) from.resume();
    if (queue.length > 0) timer = setTimeout(pump, Math.max(0, queue[0]!.at - performance.now()));
  };
  const push = (chunk: Buffer | 'end' | 'close') => {
    queue.push({ at: Math.max(performance.now() + delayMs, openAt), chunk });
    if (timer === undefined) timer = setTimeout(pump, Math.max(0, queue[0]!.at - performance.now()));
  };
  from.on('data', (chunk: Buffer) => {
    inFlight += chunk.length;
    if (inFlight > HIGH_WATER_BYTES) from.pause();
    push(chunk);
  });
  from.on('end', () => push('end'));
  from.on('close', () => push('close'));
}

export async function startDelayProxy(upstream: string, oneWayMs: number): Promise<DelayProxy> {
  const target = new URL(upstream);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const server = net.connect({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
    }
    // An error closes the socket, and the close travels to the other side like any other event.
    client.on('error', () => {});
    server.on('error', () => {});
    const openAt = performance.now() + 2 * oneWayMs;
    relay(client, server, oneWayMs, openAt + oneWayMs);
    relay(server, client, oneWayMs, openAt);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
