// The /stream/1 write path (transport/stream-response.ts): buffers shared by many streams, writes held to the end
// of the burst, then sent as HTTP/1.1 chunks or HTTP/2 DATA frames, in order and before the end of the response.
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { DualProtocolServer } from '../../../reference-impl/transport/dual-protocol-server.js';

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
      { tooLarge: canned, internalError: canned },
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
