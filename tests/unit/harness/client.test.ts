import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, MAX_RESPONSE_BYTES } from '../../harness/client.js';
import { StreamEndedError, StreamTimeoutError } from '../../harness/stream-reader.js';

// A tiny server of our own: each path shows one behaviour the client must cope with.
let server: http.Server;
let silent: net.Server;
let base: string;
let silentUrl: string;
const seen: http.IncomingHttpHeaders[] = [];
const silentSockets = new Set<net.Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/huge-declared' || req.url === '/huge-chunked') {
      // 17 MiB of one JSON string, announced by content-length or sent chunked without one.
      const size = MAX_RESPONSE_BYTES + 1024 * 1024;
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(req.url === '/huge-declared' ? { 'content-length': String(size + 4) } : {}),
      });
      res.write('{"x":"');
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let sent = 0; sent < size && !res.destroyed; sent += chunk.length) res.write(chunk);
      res.end('"}');
      return;
    }
    if (req.url === '/stream/1') {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Split across writes and mixing \r\n and \n line ends.
      res.write('{"type":"status","txn_ts":1');
      res.write('}\r\n{"type":"add","n":9007199254740993,"d":1.0}\n');
      if (req.headers['x-end'] === '1') res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"resource":{"i":1,"d":1.0}}');
  });
  silent = net.createServer((sock) => {
    silentSockets.add(sock);
    sock.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  for (const sock of silentSockets) sock.destroy();
  await new Promise((r) => silent.close(r));
});

const client = (url: string, secret = 'client-test-secret') => new Client({ url, requestTimeoutMs: 300, streamTimeoutMs: 200 }, secret);

describe('Client', () => {
  it('fails a response body over MAX_RESPONSE_BYTES at once, announced or not, with a clear reason', async () => {
    // A deadline that reading 16 MiB on a loaded machine cannot hit: the limit, not the clock, must end the request.
    const patient = new Client({ url: base, requestTimeoutMs: 20_000, streamTimeoutMs: 200 }, 'client-test-secret');
    for (const path of ['/huge-declared', '/huge-chunked']) {
      await expect(patient.request('GET', path, { validate: false })).rejects.toThrow(/response body larger than 16 MiB/);
    }
  });

  it('keeps integers and decimals distinct and sends the v4 headers', async () => {
    const res = await client(base).query({ add: [1, 2] }, { validate: false });
    expect(res.body.resource).toEqual({ i: 1n, d: 1 });
    const h = seen.at(-1)!;
    expect(h.authorization).toBe('Bearer client-test-secret');
    expect(h['x-faunadb-api-version']).toBe('4');
    await client(base).query({}, { validate: false, auth: 'basic', apiVersion: null });
    expect(seen.at(-1)!.authorization).toBe(`Basic ${Buffer.from('client-test-secret:').toString('base64')}`);
    expect(seen.at(-1)!['x-faunadb-api-version']).toBeUndefined();
  });

  it('fails a request to a server that never answers within the timeout', async () => {
    const started = Date.now();
    await expect(client(silentUrl).ping(undefined, { validate: false })).rejects.toThrow(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('says "connection refused" when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    await expect(client(`http://127.0.0.1:${port}`).ping()).rejects.toThrow(/connection refused/);
  });
});

describe('StreamReader', () => {
  it('reads events across chunks and line endings, then times out clearly when the server goes quiet', async () => {
    const stream = await client(base).stream({ token: 't' }, { validate: false });
    try {
      expect(stream.status).toBe(200);
      const [status, add] = await stream.collect(2);
      expect(status).toEqual({ type: 'status', txn_ts: 1n });
      expect(add).toEqual({ type: 'add', n: 9007199254740993n, d: 1 });
      await expect(stream.next({ timeoutMs: 100 })).rejects.toBeInstanceOf(StreamTimeoutError);
    } finally {
      stream.close();
    }
  });

  it('reports the end of a stream the server closed', async () => {
    const stream = await client(base).stream({ token: 't' }, { validate: false, headers: { 'x-end': '1' } });
    await stream.collect(2);
    await expect(stream.next()).rejects.toBeInstanceOf(StreamEndedError);
  });
});
