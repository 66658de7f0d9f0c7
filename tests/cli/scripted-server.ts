// An HTTP server whose answers a test scripts per path, so the fixture suite's tests pass or fail on demand; it
// records the /fixture/record calls in arrival order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
}

export interface ScriptedServer {
  url: string;
  /** Answers by path (without the query); unscripted paths answer 200 {"resource":"ok"}. */
  answers: Map<string, ScriptedAnswer>;
  /** Query parameters of each /fixture/record call, in order. */
  records: Record<string, string>[];
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const answers = new Map<string, ScriptedAnswer>();
  const records: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/fixture/record') records.push(Object.fromEntries(url.searchParams));
    const answer = answers.get(url.pathname) ?? { status: 200, body: { resource: 'ok' } };
    req.resume();
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    records,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
