import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { isJsonObject, jsonInt, parseJson } from '../../selfcheck/json-body.js';
import { startFaultProxy, type FaultProxy } from '../../selfcheck/proxy.js';
import type { FaultHooks } from '../../selfcheck/fault.js';
import { FAILPOINTS_FIRED_HEADER, FAILPOINTS_HEADER } from '../../../reference-impl/failpoints.js';

// A tiny upstream: echoes requests as JSON, answers a body with a big integer and a decimal, and serves
// `/stream/1` as four `\r\n`-separated events.
interface Upstream {
  url: string;
  close(): Promise<void>;
}

const STREAM_EVENTS = [
  '{"type":"status","txn_ts":1710968002310000,"cursor":"c0","stats":{"read_ops":1}}',
  '{"type":"add","txn_ts":1710968002310001,"cursor":"c1","data":{"n":1}}',
  '{"type":"update","txn_ts":1710968002310002,"cursor":"c2","data":{"n":2}}',
  '{"type":"remove","txn_ts":1710968002310003,"cursor":"c3","data":{"n":3}}',
];

async function startUpstream(): Promise<Upstream> {
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/stream/1') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Split one event across two writes so the proxy must reassemble lines.
        res.write(`${STREAM_EVENTS[0]}\r\n${STREAM_EVENTS[1]!.slice(0, 10)}`);
        setTimeout(() => res.end(`${STREAM_EVENTS[1]!.slice(10)}\r\n${STREAM_EVENTS.slice(2).join('\r\n')}\r\n`), 20);
        return;
      }
      if (req.url === '/failpoint') {
        // As a server started with failpoints: the first one named fired.
        const named = String(req.headers[FAILPOINTS_HEADER] ?? '');
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(named === '' ? {} : { [FAILPOINTS_FIRED_HEADER]: named.split(',')[0] }),
        });
        res.end(JSON.stringify({ named }));
        return;
      }
      if (req.url === '/numbers') {
        const body = '{"resource":{"ts":1710968002310000123,"d":1.0,"i":1}}';
        res.writeHead(201, { 'content-type': 'application/json', 'x-txn-time': '1710968002310000' });
        res.end(body);
        return;
      }
      const body = JSON.stringify({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization ?? null,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

async function withProxy<T>(hooks: FaultHooks, use: (proxy: FaultProxy) => Promise<T>): Promise<T> {
  const proxy = await startFaultProxy({ upstream: upstream.url, hooks });
  try {
    return await use(proxy);
  } finally {
    await proxy.close();
  }
}

async function streamLines(url: string): Promise<string[]> {
  const res = await request(`${url}/stream/1`, { method: 'POST', body: '{"token":"t"}', headersTimeout: 5_000, bodyTimeout: 5_000 });
  expect(res.statusCode).toBe(200);
  return (await res.body.text()).split('\r\n').filter((line) => line !== '');
}

describe('fault proxy', () => {
  it('forwards untouched traffic byte for byte and counts no application', async () => {
    await withProxy({}, async (proxy) => {
      const res = await request(`${proxy.url}/numbers`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(res.statusCode).toBe(201);
      expect(res.headers['x-txn-time']).toBe('1710968002310000');
      expect(await res.body.text()).toBe('{"resource":{"ts":1710968002310000123,"d":1.0,"i":1}}');
      expect(proxy.exchanges).toBe(1);
      expect(proxy.applied).toBe(0);
    });
  });

  it("names a fault's failpoints to the server on every request, counts the answers that say one fired, and hides that header", async () => {
    await withProxy({ failpoints: ['KEY-TTL-IGNORED', 'OTHER'] }, async (proxy) => {
      const res = await request(`${proxy.url}/failpoint`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(await res.body.json()).toEqual({ named: 'KEY-TTL-IGNORED,OTHER' });
      expect(res.headers[FAILPOINTS_FIRED_HEADER]).toBeUndefined();
      expect(proxy.applied).toBe(1);
    });
    await withProxy({}, async (proxy) => {
      const res = await request(`${proxy.url}/failpoint`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(await res.body.json()).toEqual({ named: '' });
      expect(proxy.applied).toBe(0);
    });
  });

  it('rewrites JSON bodies losslessly: integers stay integers, decimals stay decimals', async () => {
    const hooks: FaultHooks = {
      json(body) {
        if (!isJsonObject(body) || !isJsonObject(body.resource)) return undefined;
        body.resource.i = jsonInt(2);
        return body;
      },
    };
    await withProxy(hooks, async (proxy) => {
      const res = await request(`${proxy.url}/numbers`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(await res.body.text()).toBe('{"resource":{"ts":1710968002310000123,"d":1.0,"i":2}}');
      expect(proxy.applied).toBe(1);
    });
  });

  it('rewrites status and headers, and fixes content-length', async () => {
    const hooks: FaultHooks = {
      response(res) {
        const headers = { ...res.headers };
        delete headers['x-txn-time'];
        return { status: 200, headers, body: Buffer.from('{"resource":1}') };
      },
    };
    await withProxy(hooks, async (proxy) => {
      const res = await request(`${proxy.url}/numbers`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-txn-time']).toBeUndefined();
      expect(res.headers['content-length']).toBe('14');
      expect(await res.body.text()).toBe('{"resource":1}');
    });
  });

  it('rewrites requests before they go upstream, and gives the response hook both versions', async () => {
    let seen: { original: string; forwarded: string } | undefined;
    const hooks: FaultHooks = {
      request: (req) => ({
        ...req,
        method: 'PUT',
        headers: { ...req.headers, authorization: 'Bearer other' },
        body: Buffer.from('{"changed":true}'),
      }),
      response(_res, context) {
        seen = { original: context.original.body.toString(), forwarded: context.request.body.toString() };
        return undefined;
      },
    };
    await withProxy(hooks, async (proxy) => {
      const res = await request(`${proxy.url}/echo?x=1`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { authorization: 'Bearer s' },
        headersTimeout: 5_000,
        bodyTimeout: 5_000,
      });
      expect(parseJson(await res.body.text())).toEqual({ method: 'PUT', url: '/echo?x=1', auth: 'Bearer other', body: '{"changed":true}' });
      expect(seen).toEqual({ original: '{"a":1}', forwarded: '{"changed":true}' });
      expect(proxy.applied).toBe(1);
    });
  });

  it('passes a stream through unchanged without a stream hook', async () => {
    await withProxy({}, async (proxy) => {
      expect(await streamLines(proxy.url)).toEqual(STREAM_EVENTS);
    });
  });

  it('rewrites the headers of an open stream, leaving its events alone', async () => {
    await withProxy({ streamHeaders: (headers) => ({ ...headers, 'content-type': 'application/x-ndjson' }) }, async (proxy) => {
      const res = await request(`${proxy.url}/stream/1`, {
        method: 'POST',
        body: '{"token":"t"}',
        headersTimeout: 5_000,
        bodyTimeout: 5_000,
      });
      expect(res.headers['content-type']).toBe('application/x-ndjson');
      expect((await res.body.text()).split('\r\n').filter((line) => line !== '')).toEqual(STREAM_EVENTS);
      expect(proxy.applied).toBe(1);
    });
  });

  it('drops, duplicates and mutates stream events, reassembling events split across chunks', async () => {
    const hooks: FaultHooks = {
      stream: () => ({
        onEvent(event, writer, index) {
          if (index === 0) return; // drop the status event
          if (index === 1) {
            writer.emit(event);
            writer.emit(event);
            return;
          }
          if (index === 2 && isJsonObject(event)) {
            writer.emit({ ...event, type: 'add' });
            return;
          }
          writer.emit(event);
        },
      }),
    };
    await withProxy(hooks, async (proxy) => {
      const lines = await streamLines(proxy.url);
      expect(lines).toEqual([
        STREAM_EVENTS[1],
        STREAM_EVENTS[1],
        '{"type":"add","txn_ts":1710968002310002,"cursor":"c2","data":{"n":2}}',
        STREAM_EVENTS[3],
      ]);
      expect(proxy.applied).toBe(3);
    });
  });

  it('reorders and delays stream events while keeping the order of the rest', async () => {
    let held: unknown;
    const hooks: FaultHooks = {
      stream: () => ({
        async onEvent(event, writer, index) {
          if (index === 1) {
            held = event;
            return;
          }
          await writer.pause(30);
          writer.emit(event);
          if (index === 2) writer.emit(held);
        },
      }),
    };
    await withProxy(hooks, async (proxy) => {
      const started = Date.now();
      const lines = await streamLines(proxy.url);
      expect(lines).toEqual([STREAM_EVENTS[0], STREAM_EVENTS[2], STREAM_EVENTS[1], STREAM_EVENTS[3]]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    });
  });

  it('answers 502 in the v4 error shape when the upstream is down', async () => {
    const proxy = await startFaultProxy({ upstream: 'http://127.0.0.1:1' });
    try {
      const res = await request(`${proxy.url}/`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      expect(res.statusCode).toBe(502);
      const body = parseJson(await res.body.text());
      expect(body).toMatchObject({ errors: [{ code: 'bad gateway' }] });
    } finally {
      await proxy.close();
    }
  });
});
