import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { findFault } from '../../selfcheck/faults/catalogue.js';
import { startFaultProxy, type FaultProxy } from '../../selfcheck/proxy.js';
import { useUpstream } from './test-upstream.js';

// A scripted upstream: answers whatever the test queued, and records what reached it.
interface Scripted {
  status: number;
  body: string;
  headers?: Record<string, string>;
}
const queue: Scripted[] = [];
const received: { authorization?: string; body: string }[] = [];
const upstream = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
    const next = queue.shift() ?? { status: 200, body: '{"resource":null}' };
    res.writeHead(next.status, { 'content-type': 'application/json', 'x-txn-time': '1718340750415639', ...next.headers });
    res.end(next.body);
  });
});
const upstreamUrl = useUpstream(upstream);

async function withFault<T>(id: string, use: (proxy: FaultProxy) => Promise<T>): Promise<T> {
  const fault = findFault(id);
  if (fault === undefined) throw new Error(`no fault ${id}`);
  queue.length = 0;
  received.length = 0;
  const proxy = await startFaultProxy({ upstream: upstreamUrl(), hooks: fault.apply() });
  try {
    return await use(proxy);
  } finally {
    await proxy.close();
  }
}

async function query(proxy: FaultProxy, expression: string, headers: Record<string, string> = {}) {
  const res = await request(`${proxy.url}/`, {
    method: 'POST',
    body: expression,
    headers: { 'content-type': 'application/json', ...headers },
    headersTimeout: 5_000,
    bodyTimeout: 5_000,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('fault transforms', () => {
  it('STATUS-CREATE-200 turns 201 into 200 and leaves other statuses alone', async () => {
    await withFault('STATUS-CREATE-200', async (proxy) => {
      queue.push({ status: 201, body: '{"resource":{"ts":1}}' }, { status: 400, body: '{"errors":[]}' });
      expect((await query(proxy, '{"create":{"collection":"c"}}')).status).toBe(200);
      expect((await query(proxy, '{"create":{"collection":"c"}}')).status).toBe(400);
      expect(proxy.applied).toBe(1);
    });
  });

  it('VERSION-4-RENDERS-CLASS renames collection to class inside refs only when version 4 was asked for', async () => {
    await withFault('VERSION-4-RENDERS-CLASS', async (proxy) => {
      const body =
        '{"resource":{"ref":{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}},"data":{"collection":1}}}';
      queue.push({ status: 200, body }, { status: 200, body });
      expect((await query(proxy, '{"get":1}', { 'x-faunadb-api-version': '4' })).text).toBe(
        '{"resource":{"ref":{"@ref":{"id":"1","class":{"@ref":{"id":"c","class":{"@ref":{"id":"collections"}}}}}},"data":{"collection":1}}}',
      );
      expect((await query(proxy, '{"get":1}', { 'x-faunadb-api-version': '2.1' })).text).toBe(body);
    });
  });

  it('DOC-DATA-INTEGERS-AS-DECIMALS writes integers in data as decimals and leaves ts alone', async () => {
    await withFault('DOC-DATA-INTEGERS-AS-DECIMALS', async (proxy) => {
      queue.push({ status: 200, body: '{"resource":{"ts":1718340750415639,"data":{"a":1,"b":[2,2.5],"c":{"d":9007199254740993}}}}' });
      expect((await query(proxy, '{"get":1}')).text).toBe(
        '{"resource":{"ts":1718340750415639,"data":{"a":1.0,"b":[2.0,2.5],"c":{"d":9007199254740992.0}}}}',
      );
    });
  });

  it('DOC-UPDATE-REPLACES sends update forms upstream as replace, keeping big integers exact', async () => {
    await withFault('DOC-UPDATE-REPLACES', async (proxy) => {
      await query(proxy, '{"do":[{"update":{"@ref":"classes/c/1"},"params":{"object":{"data":{"object":{"n":9007199254740993}}}}}]}');
      expect(received[0]!.body).toBe(
        '{"do":[{"replace":{"@ref":"classes/c/1"},"params":{"object":{"data":{"object":{"n":9007199254740993}}}}}]}',
      );
    });
  });

  it('CRED-RETURNED adds the password just set to the document answered', async () => {
    await withFault('CRED-RETURNED', async (proxy) => {
      queue.push({
        status: 201,
        body: '{"resource":{"ref":{"@ref":{"id":"1","collection":{"@ref":{"id":"users","collection":{"@ref":{"id":"collections"}}}}}},"ts":1,"data":{}}}',
      });
      const created = await query(
        proxy,
        '{"create":{"collection":"users"},"params":{"object":{"credentials":{"object":{"password":"pw-1"}},"data":{"object":{}}}}}',
      );
      expect(JSON.parse(created.text).resource.credentials).toEqual({ password: 'pw-1' });
    });
  });

  it('TXN-TS-GOES-BACKWARDS makes each answer earlier than the one before, header and ts together', async () => {
    await withFault('TXN-TS-GOES-BACKWARDS', async (proxy) => {
      const body = '{"resource":{"ref":{"@ref":"classes/c/1"},"ts":1718340750415639}}';
      queue.push({ status: 201, body }, { status: 201, body });
      const first = await query(proxy, '{"create":1}');
      const second = await query(proxy, '{"create":1}');
      expect(first.headers['x-txn-time']).toBe('1718340749415639');
      expect(JSON.parse(first.text).resource.ts).toBe(1718340749415639);
      expect(BigInt(second.headers['x-txn-time'] as string)).toBeLessThan(BigInt(first.headers['x-txn-time'] as string));
    });
  });
});
