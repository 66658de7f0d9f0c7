import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  HOSTILE_SERVERS,
  HUGE_BODY_BYTES,
  SLOW_BYTE_DELAY_MS,
  type HostileServer,
  type RunningHostileServer,
} from '../../selfcheck/hostile/catalogue.js';
import { useUpstream } from './test-upstream.js';

// A stand-in upstream for the stream behaviours: `/stream/1` sends a status event, then a data event
// 50 ms later, then stays open like a real stream.
const STATUS = '{"type":"status","txn_ts":1,"cursor":"c0"}';
const ADD = '{"type":"add","txn_ts":2,"cursor":"c1","data":{"n":1}}';
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${STATUS}\r\n`);
    setTimeout(() => res.write(`${ADD}\r\n`), 50);
  });
});
const upstreamUrl = useUpstream(upstream);

function hostile(id: string): HostileServer {
  const found = HOSTILE_SERVERS.find((server) => server.id === id);
  if (found === undefined) throw new Error(`no hostile server ${id}`);
  return found;
}

async function withHostile<T>(id: string, use: (server: RunningHostileServer) => Promise<T>): Promise<T> {
  const server = await hostile(id).start(upstreamUrl());
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Reads a stream for `ms` and reports what arrived and whether the server ended or cut it. */
async function readStreamFor(url: string, ms: number): Promise<{ text: string; ending: 'open' | 'ended' | 'cut' }> {
  const res = await request(`${url}/stream/1`, { method: 'POST', body: '{"token":"t"}', headersTimeout: 2_000, bodyTimeout: 0 });
  expect(res.statusCode).toBe(200);
  let text = '';
  const reading = (async () => {
    try {
      for await (const chunk of res.body) text += chunk.toString();
      return 'ended' as const;
    } catch {
      return 'cut' as const;
    }
  })();
  const timer = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms));
  const ending = await Promise.race([reading, timer]);
  if (ending === 'open') res.body.destroy();
  return { text, ending };
}

describe('hostile servers', () => {
  it('have unique ids and a reason pattern', () => {
    const ids = HOSTILE_SERVERS.map((server) => server.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(8);
  });

  it('NEVER-ANSWERS reads the request and never sends headers', async () => {
    await withHostile('NEVER-ANSWERS', async (server) => {
      await expect(request(`${server.url}/ping`, { headersTimeout: 300 })).rejects.toThrow(/timeout/i);
    });
  });

  it('SILENT-SOCKET accepts the connection and never answers', async () => {
    await withHostile('SILENT-SOCKET', async (server) => {
      await expect(request(`${server.url}/`, { method: 'POST', body: '{}', headersTimeout: 300 })).rejects.toThrow(/timeout/i);
    });
  });

  it('INVALID-JSON answers 200 with a body that does not parse', async () => {
    await withHostile('INVALID-JSON', async (server) => {
      const res = await request(`${server.url}/`, { method: 'POST', body: '{}', headersTimeout: 2_000, bodyTimeout: 2_000 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      const text = await res.body.text();
      expect(() => JSON.parse(text)).toThrow();
    });
  });

  it('ALWAYS-500 answers 500 to every method and path', async () => {
    await withHostile('ALWAYS-500', async (server) => {
      for (const [method, path] of [
        ['GET', '/ping'],
        ['POST', '/'],
        ['POST', '/stream/1'],
      ] as const) {
        const res = await request(`${server.url}${path}`, {
          method,
          body: method === 'POST' ? '{}' : undefined,
          headersTimeout: 2_000,
          bodyTimeout: 2_000,
        });
        expect(res.statusCode).toBe(500);
        expect(await res.body.json()).toMatchObject({ errors: [{ code: 'internal server error' }] });
      }
    });
  });

  it('HUGE-BODY announces and sends the whole huge body', async () => {
    await withHostile('HUGE-BODY', async (server) => {
      const res = await request(`${server.url}/`, { method: 'POST', body: '{}', headersTimeout: 2_000, bodyTimeout: 10_000 });
      expect(Number(res.headers['content-length'])).toBeGreaterThan(HUGE_BODY_BYTES);
      let received = 0;
      for await (const chunk of res.body) received += (chunk as Buffer).length;
      expect(received).toBe(Number(res.headers['content-length']));
    });
  }, 20_000);

  it('STREAM-STATUS-THEN-SILENCE passes the status event and then nothing, staying open', async () => {
    await withHostile('STREAM-STATUS-THEN-SILENCE', async (server) => {
      const { text, ending } = await readStreamFor(server.url, 300);
      expect(ending).toBe('open');
      expect(text).toBe(`${STATUS}\r\n`);
    });
  });

  it('STREAM-BYTE-BY-BYTE trickles the first event one byte at a time', async () => {
    await withHostile('STREAM-BYTE-BY-BYTE', async (server) => {
      const { text, ending } = await readStreamFor(server.url, SLOW_BYTE_DELAY_MS * 4 + 100);
      expect(ending).toBe('open');
      expect(text.length).toBeGreaterThanOrEqual(3);
      expect(text.length).toBeLessThanOrEqual(6);
      expect(STATUS.startsWith(text)).toBe(true);
    });
  });

  it('STREAM-CUT-MID-EVENT passes the status event, then cuts the next event in half', async () => {
    await withHostile('STREAM-CUT-MID-EVENT', async (server) => {
      const { text, ending } = await readStreamFor(server.url, 2_000);
      expect(ending).not.toBe('open');
      expect(text.startsWith(`${STATUS}\r\n`)).toBe(true);
      const rest = text.slice(STATUS.length + 2);
      expect(rest.length).toBeGreaterThan(0);
      expect(ADD.startsWith(rest)).toBe(true);
      expect(rest.length).toBeLessThan(ADD.length);
    });
  });
});
