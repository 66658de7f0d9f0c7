// A target that answers its first requests (forwarded to a real server) and then stops answering: it keeps
// accepting connections and reading requests, but never sends a status line again, as a hung server does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';

export interface StopsAnswering {
  url: string;
  /** Requests received so far, answered or not. */
  readonly received: number;
  close(): Promise<void>;
}

export async function startStopsAnswering(upstream: string, answered: number): Promise<StopsAnswering> {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  let received = 0;
  const server = http.createServer((req, res) => {
    received += 1;
    if (received > answered) {
      req.resume();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)),
    ) as Record<string, string>;
    void (async () => {
      const up = await request(new URL(req.url ?? '/', upstream), {
        method: req.method as 'GET',
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req,
        dispatcher,
      });
      res.writeHead(
        up.statusCode,
        Object.fromEntries(
          Object.entries(up.headers).filter(([k]) => !['connection', 'keep-alive', 'transfer-encoding'].includes(k)),
        ) as Record<string, string>,
      );
      await pipeline(up.body, res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get received() {
      return received;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispatcher.destroy();
    },
  };
}
