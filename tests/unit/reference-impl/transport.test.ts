import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { DualProtocolServer } from '../../../reference-impl/transport/dual-protocol-server.js';
import type { ExchangeHandler, ResponseStream } from '../../../reference-impl/transport/exchange.js';

const canned = (status: number, code: string) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ errors: [{ code, description: code }] }),
});

/** The canned answers every server of these tests gives when a body is too large, it is busy, or a handler throws. */
const CANNED = {
  tooLarge: canned(413, 'request too large'),
  busy: canned(429, 'too many requests'),
  internalError: canned(500, 'internal server error'),
};

function h2Request(url: string, path: string, body?: string): Promise<{ status: number; protocol: string; text: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on('error', reject);
    const req = session.request({ ':method': body === undefined ? 'GET' : 'POST', ':path': path });
    req.setTimeout(5000, () => reject(new Error('h2 request timed out')));
    let status = 0;
    let text = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      session.close();
      resolve({ status, protocol: 'h2', text });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Answers `{}` at once, except on `streamPath`: a stream whose one event, `{"late":true}`, comes after `ms`. */
function lateStreamHandler(streamPath: string, ms: number): ExchangeHandler {
  return (exchange) => {
    if (exchange.request.path !== streamPath) {
      exchange.respond(200, { 'content-type': 'application/json' }, '{}');
      return undefined;
    }
    const stream = exchange.openStream(200, { 'content-type': 'application/json' });
    setTimeout(() => {
      stream.write('{"late":true}\r\n');
      stream.end();
    }, ms);
    return undefined;
  };
}

describe('DualProtocolServer', () => {
  let server: DualProtocolServer;
  let url = '';
  let lastStream: ResponseStream | undefined;
  let streamClosedByClient = false;

  beforeAll(async () => {
    server = new DualProtocolServer(
      async (exchange) => {
        const { request: req } = exchange;
        if (req.path === '/boom') throw new Error('handler fault');
        if (req.path === '/stream') {
          const stream = exchange.openStream(200, { 'content-type': 'application/json' });
          lastStream = stream;
          stream.onClose(() => (streamClosedByClient = true));
          stream.write('{"n":1}\r\n');
          return;
        }
        exchange.respond(
          200,
          { 'content-type': 'application/json' },
          JSON.stringify({ protocol: req.protocol, method: req.method, body: req.body.toString('utf8'), q: req.query.get('q') }),
        );
      },
      {
        maxBodyBytes: 1024,
        ...CANNED,
      },
    );
    const address = await server.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => server.close());

  it('serves HTTP/1.1 and h2c on the same port', async () => {
    const h1 = await request(`${url}/x?q=1`, { method: 'POST', body: 'hello', headersTimeout: 5000, bodyTimeout: 5000 });
    expect(h1.statusCode).toBe(200);
    expect(await h1.body.json()).toEqual({ protocol: 'http/1.1', method: 'POST', body: 'hello', q: '1' });
    const h2 = await h2Request(url, '/y?q=2', 'world');
    expect(h2.status).toBe(200);
    expect(JSON.parse(h2.text)).toEqual({ protocol: 'h2c', method: 'POST', body: 'world', q: '2' });
  });

  it('refuses a body over the limit with 413 on both protocols', async () => {
    const big = 'x'.repeat(4096);
    const h1 = await request(url, { method: 'POST', body: big, headersTimeout: 5000, bodyTimeout: 5000 });
    expect(h1.statusCode).toBe(413);
    expect(await h1.body.json()).toEqual({ errors: [{ code: 'request too large', description: 'request too large' }] });
    const h2 = await h2Request(url, '/', big);
    expect(h2.status).toBe(413);
  });

  it('keeps idle HTTP/1.1 connections 30 s and says so, far beyond what clients keep theirs', async () => {
    const res = await request(`${url}/x`, { headersTimeout: 5000, bodyTimeout: 5000 });
    await res.body.text();
    expect(res.headers['keep-alive']).toBe('timeout=30');
  });

  it('on HTTP/1.1 answers 413 before the upload ends, reads the rest, then closes without a reset', async () => {
    const total = 4 * 1024 * 1024;
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    let received = '';
    let resetOrError: Error | undefined;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', (err) => (resetOrError = err));
    const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
    const write = (data: string | Buffer) =>
      new Promise<void>((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve())));
    await write(`POST / HTTP/1.1\r\nhost: localhost\r\ncontent-length: ${total}\r\n\r\n`);
    const deadline = Date.now() + 5_000;
    while (!received.includes('request too large') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    // The whole body still goes through: the server reads and drops it instead of resetting the connection.
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    for (let sent = 0; sent < total; sent += chunk.length) await write(chunk);
    await ended;
    expect(resetOrError).toBeUndefined();
    socket.destroy();
  });

  it('turns a throwing handler into the canned 500 and keeps serving', async () => {
    const res = await request(`${url}/boom`, { headersTimeout: 5000, bodyTimeout: 5000 });
    expect(res.statusCode).toBe(500);
    await res.body.dump();
    const again = await request(`${url}/ok`, { headersTimeout: 5000, bodyTimeout: 5000 });
    expect(again.statusCode).toBe(200);
    await again.body.dump();
  });

  it('answers garbage bytes with 400 and keeps serving', async () => {
    const port = Number(new URL(url).port);
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        let got = '';
        const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          got += chunk;
          if (got.includes('\r\n\r\n') && text.startsWith('GET')) socket.end();
        });
        socket.on('close', () => resolve(got));
        socket.on('error', () => resolve(got));
        socket.setTimeout(4000, () => socket.destroy());
      });
    expect(await raw('\x00\x01garbage\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('GET /ok HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('streams chunks and reports when the client goes away', async () => {
    streamClosedByClient = false;
    const res = await request(`${url}/stream`, { headersTimeout: 5000, bodyTimeout: 5000 });
    expect(res.statusCode).toBe(200);
    const first = await new Promise<string>((resolve) => res.body.once('data', (c: Buffer) => resolve(c.toString('utf8'))));
    expect(first).toBe('{"n":1}\r\n');
    res.body.destroy();
    const deadline = Date.now() + 5000;
    while (!streamClosedByClient && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(streamClosedByClient).toBe(true);
    expect(lastStream?.closed).toBe(true);
  });
});

describe('DualProtocolServer: connections that never tell their protocol', () => {
  let server: DualProtocolServer;
  let port = 0;

  beforeAll(async () => {
    // `/late` answers on a stream whose only event comes after the first-bytes timeout has passed.
    server = new DualProtocolServer(lateStreamHandler('/late', 400), {
      ...CANNED,
      firstBytesTimeoutMs: 200,
    });
    port = (await server.listen(0, '127.0.0.1')).port;
  });
  afterAll(() => server.close());

  /** Milliseconds until the server closes a connection that sent `first` and then nothing; rejects after 5 s. */
  function closedAfter(first: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = net.connect(port, '127.0.0.1', () => socket.write(first));
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('the server kept the connection open'));
      }, 5000);
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
      socket.resume();
    });
  }

  it('closes a connection that sends nothing once the first-bytes timeout passes', async () => {
    expect(await closedAfter('')).toBeGreaterThanOrEqual(150);
  });

  it('closes a connection that sends only part of the HTTP/2 preface', async () => {
    expect(await closedAfter('PRI * HTTP/2.0\r\n')).toBeGreaterThanOrEqual(150);
  });

  it('leaves a connection that told its protocol to the HTTP servers: a response may outlast the timeout', async () => {
    const res = await request(`http://127.0.0.1:${port}/late`, { method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('{"late":true}\r\n');
    expect((await h2Request(`http://127.0.0.1:${port}`, '/late', '{}')).text).toBe('{"late":true}\r\n');
  });
});

describe('DualProtocolServer: request bodies held until answered (DEC-075)', () => {
  const HELD = 64 * 1024;
  let server: DualProtocolServer;
  let port = 0;
  /** Requests to `/queued` wait here, as requests queued behind a slow transaction do, until `answerQueued`. */
  const queued: Array<() => void> = [];

  beforeAll(async () => {
    server = new DualProtocolServer(
      (exchange) => {
        const answer = () =>
          exchange.respond(200, { 'content-type': 'application/json' }, JSON.stringify({ bytes: exchange.request.body.length }));
        if (exchange.request.path !== '/queued') {
          answer();
          return undefined;
        }
        return new Promise<void>((resolve) =>
          queued.push(() => {
            answer();
            resolve();
          }),
        );
      },
      {
        maxBodyBytes: 4 * HELD,
        maxPendingBodyBytes: 3 * HELD,
        ...CANNED,
      },
    );
    port = (await server.listen(0, '127.0.0.1')).port;
  });
  afterAll(() => server.close());

  /** An HTTP/1.1 upload that declares `declared` bytes and sends `sent` of them; resolves once the server holds them. */
  async function partialUpload(declared: number, sent: number): Promise<net.Socket> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 'u'));
    return socket;
  }

  /** Status of a whole upload of `bytes`, polled until `expected` or 5 s pass (the partial uploads arrive meanwhile). */
  async function uploadUntil(bytes: number, expected: number): Promise<number> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const res = await request(`http://127.0.0.1:${port}/up`, {
        method: 'POST',
        body: Buffer.alloc(bytes, 'w'),
        headersTimeout: 5000,
        bodyTimeout: 5000,
      });
      await res.body.text();
      if (res.statusCode === expected || Date.now() > deadline) return res.statusCode;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('refuses with the busy answer (429) a body that would take those held past the bound, and takes it once they are given back', async () => {
    expect(await uploadUntil(2 * HELD, 200)).toBe(200);
    const stalled = [await partialUpload(4 * HELD, HELD), await partialUpload(4 * HELD, HELD)];
    expect(await uploadUntil(2 * HELD, 429)).toBe(429);
    // Abandoned uploads give back what they held.
    for (const socket of stalled) socket.destroy();
    expect(await uploadUntil(2 * HELD, 200)).toBe(200);
  });

  /** Whole uploads of HELD bytes to `/queued`, resolved once the handler holds them all; their responses come later. */
  async function queuedUploads(count: number): Promise<net.Socket[]> {
    const sockets: net.Socket[] = [];
    for (let i = 0; i < count; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`POST /queued HTTP/1.1\r\nHost: x\r\nContent-Length: ${HELD}\r\n\r\n`);
      socket.write(Buffer.alloc(HELD, 'q'));
      sockets.push(socket);
    }
    const deadline = Date.now() + 5_000;
    while (queued.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(queued.length).toBe(count);
    return sockets;
  }

  function answerQueued(): void {
    for (const answer of queued.splice(0)) answer();
  }

  it('counts a whole body until its request is answered: requests waiting for their turn hold theirs', async () => {
    const sockets = await queuedUploads(3);
    expect(await uploadUntil(HELD, 429)).toBe(429);
    answerQueued();
    expect(await uploadUntil(HELD, 200)).toBe(200);
    for (const socket of sockets) socket.destroy();
  });

  it('still counts a waiting request whose client went away, until its handler is done with it', async () => {
    const sockets = await queuedUploads(3);
    for (const socket of sockets) socket.destroy();
    expect(await uploadUntil(HELD, 429)).toBe(429);
    answerQueued();
    expect(await uploadUntil(HELD, 200)).toBe(200);
  });
});

describe('DualProtocolServer: an HTTP/2 request body that stops arriving (DEC-075)', () => {
  let server: DualProtocolServer;
  let url = '';

  beforeAll(async () => {
    server = new DualProtocolServer(lateStreamHandler('/stream', 600), {
      ...CANNED,
      h2BodyIdleTimeoutMs: 200,
    });
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close());

  it('is cancelled once nothing more of it comes for the timeout; a response outlasts it once the body is whole', async () => {
    const session = http2.connect(url);
    session.on('error', () => {});
    const stalled = session.request({ ':method': 'POST', ':path': '/up' });
    stalled.on('error', () => {});
    stalled.write('part of a body');
    const code = await new Promise<number>((resolve) => stalled.on('close', () => resolve(stalled.rstCode)));
    expect(code).toBe(http2.constants.NGHTTP2_CANCEL);

    const quiet = session.request({ ':method': 'POST', ':path': '/stream' });
    let text = '';
    quiet.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    quiet.end();
    await new Promise<void>((resolve) => quiet.on('end', () => resolve()));
    expect(text).toBe('{"late":true}\r\n');
    session.close();
  });
});
