// The /stream/1 write path (transport/stream-response.ts): buffers shared by many streams, writes held to the end
// of the burst, then sent as HTTP/1.1 chunks or HTTP/2 DATA frames, in order and before the end of the response.
import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { DualProtocolServer } from '../../../reference-impl/transport/dual-protocol-server.js';
import { MAX_BACKLOG_BYTES } from '../../../reference-impl/transport/stream-response.js';

const canned = { status: 500, headers: { 'content-type': 'application/json' }, body: '{}' };
const shared = Buffer.from('{"type":"add","n":1}\r\n', 'utf8');
const EXPECTED = `{"type":"status"}\r\n${shared.toString('utf8')}${shared.toString('utf8')}{"type":"error"}\r\n`;

function h2Body(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on('error', reject);
    const req = session.request({ ':method': 'POST', ':path': '/stream' });
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      session.close();
      resolve(text);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('StreamResponse', () => {
  let server: DualProtocolServer;
  let url = '';

  beforeAll(async () => {
    server = new DualProtocolServer(
      async (exchange) => {
        const stream = exchange.openStream(200, { 'content-type': 'application/json' });
        stream.write('{"type":"status"}\r\n');
        // The same buffer twice in one burst, then the end: everything goes out, in order, before the response ends.
        stream.write(shared);
        await Promise.resolve();
        stream.write(shared);
        stream.write(new Uint8Array(0));
        stream.write('{"type":"error"}\r\n');
        stream.end();
        stream.write('{"type":"after-end"}\r\n');
      },
      { tooLarge: canned, busy: canned, internalError: canned },
    );
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close());

  it('sends every write in order as HTTP/1.1 chunks, and nothing after end', async () => {
    const res = await request(`${url}/stream`, { method: 'POST', body: '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(await res.body.text()).toBe(EXPECTED);
  });

  it('sends every write in order over HTTP/2, and nothing after end', async () => {
    expect(await h2Body(url)).toBe(EXPECTED);
  });
});

describe('StreamResponse: a reader that stops reading', () => {
  const MIB = Buffer.alloc(1024 * 1024, 'x');
  /** More than the kernel's socket buffers and MAX_BACKLOG_BYTES together. */
  const WRITES = 64;
  let server: DualProtocolServer;
  let url = '';
  let outcome: Promise<string>;
  let settle: (how: string) => void = () => {};

  beforeAll(async () => {
    server = new DualProtocolServer(
      async (exchange) => {
        const stream = exchange.openStream(200, { 'content-type': 'application/json' });
        let cut = false;
        stream.onClose(() => (cut = true));
        // One MiB per turn of the event loop, as events of large documents would come.
        for (let i = 0; i < WRITES && !cut; i++) {
          stream.write(MIB);
          await new Promise((resolve) => setImmediate(resolve));
        }
        settle(cut ? 'cut' : 'all written');
        if (!cut) stream.end();
      },
      { tooLarge: canned, busy: canned, internalError: canned },
    );
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close());

  function nextOutcome(): Promise<string> {
    outcome = new Promise((resolve) => (settle = resolve));
    return outcome;
  }

  it(`is cut once more than ${MAX_BACKLOG_BYTES / 1024 / 1024} MiB wait to be sent to it over HTTP/1.1`, async () => {
    const done = nextOutcome();
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.pause();
    socket.write('POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(await done).toBe('cut');
    socket.destroy();
  });

  it(`is cut once more than ${MAX_BACKLOG_BYTES / 1024 / 1024} MiB wait to be sent to it over HTTP/2`, async () => {
    const done = nextOutcome();
    const session = http2.connect(url);
    session.on('error', () => {});
    const req = session.request({ ':method': 'POST', ':path': '/stream' });
    req.on('error', () => {});
    req.pause();
    req.end();
    expect(await done).toBe('cut');
    session.destroy();
  });
});

describe('StreamResponse: a reader that keeps reading', () => {
  const MIB = Buffer.alloc(1024 * 1024, 'y');
  const TOTAL_MIB = 40;
  let server: DualProtocolServer;
  let url = '';
  let waits = 0;

  beforeAll(async () => {
    server = new DualProtocolServer(
      async (exchange) => {
        const stream = exchange.openStream(200, { 'content-type': 'application/json' });
        if (exchange.request.path === '/one-write') {
          // One batch larger than the bound: the bound is checked before a write, so this is not cut.
          stream.write(Buffer.alloc(TOTAL_MIB * 1024 * 1024, 'z'));
        } else {
          for (let i = 0; i < TOTAL_MIB && !stream.closed; i++) {
            stream.write(MIB);
            const writable = stream.whenWritable();
            if (writable !== undefined) {
              waits++;
              await writable;
            }
          }
        }
        stream.end();
      },
      { tooLarge: canned, busy: canned, internalError: canned },
    );
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close());

  /** Reads the whole body, a little at a time, as a client busy with each chunk would. */
  async function slowRead(path: string): Promise<number> {
    const res = await request(`${url}${path}`, { method: 'POST', body: '', highWaterMark: 64 * 1024 });
    let bytes = 0;
    for await (const chunk of res.body) {
      bytes += (chunk as Buffer).length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return bytes;
  }

  it(`gets ${TOTAL_MIB} MiB whole when its producer waits on whenWritable between writes`, async () => {
    waits = 0;
    expect(await slowRead('/paced')).toBe(TOTAL_MIB * 1024 * 1024);
    expect(waits, 'the producer had to wait for the reader').toBeGreaterThan(0);
  });

  it(`gets one ${TOTAL_MIB} MiB write whole: a single large batch does not cut a reader that keeps up`, async () => {
    expect(await slowRead('/one-write')).toBe(TOTAL_MIB * 1024 * 1024);
  });
});
