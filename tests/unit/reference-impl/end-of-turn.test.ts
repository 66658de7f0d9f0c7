// Writes held to the end of the event loop's turn (transport/end-of-turn.ts): the turn's complete responses go out
// before its stream writes, so a write's answer is sent before the events the write published while it ran; and a
// response answered (or a stream written) before its handler threw still goes out whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { atEndOfTurn } from '../../../reference-impl/transport/end-of-turn.js';
import { DualProtocolServer } from '../../../reference-impl/transport/dual-protocol-server.js';

const canned = { status: 500, headers: { 'content-type': 'application/json' }, body: '{}' };

/** Resolves after the end of the turn in which it is called (setImmediate callbacks run in the order queued). */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('atEndOfTurn', () => {
  it('runs nothing before the end of the turn, then response flushes before stream flushes queued earlier', async () => {
    const ran: string[] = [];
    atEndOfTurn('stream', () => ran.push('stream 1'));
    atEndOfTurn('response', () => ran.push('response 1'));
    atEndOfTurn('stream', () => ran.push('stream 2'));
    atEndOfTurn('response', () => ran.push('response 2'));
    await Promise.resolve();
    expect(ran).toEqual([]);
    await turnEnded();
    expect(ran).toEqual(['response 1', 'response 2', 'stream 1', 'stream 2']);
  });

  it('runs a flush queued while the turn ends at the end of the next turn, once', async () => {
    const ran: string[] = [];
    atEndOfTurn('stream', () => {
      ran.push('stream');
      atEndOfTurn('response', () => ran.push('queued by the stream'));
    });
    await turnEnded();
    expect(ran).toEqual(['stream']);
    await turnEnded();
    expect(ran).toEqual(['stream', 'queued by the stream']);
    await turnEnded();
    expect(ran).toEqual(['stream', 'queued by the stream']);
  });
});

describe('DualProtocolServer: a handler that throws after answering', () => {
  let server: DualProtocolServer;
  let url = '';

  beforeAll(async () => {
    server = new DualProtocolServer(
      (exchange) => {
        if (exchange.request.path === '/stream') {
          exchange.openStream(200, { 'content-type': 'application/x-ndjson' }).write('{"type":"start"}\n');
          throw new Error('after the first event');
        }
        exchange.respond(201, { 'content-type': 'application/json' }, '{"written":true}');
        throw new Error('after the answer');
      },
      { tooLarge: canned, busy: canned, internalError: canned },
    );
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close());

  it('goes out whole when its handler throws after answering (not ended empty, not replaced by the 500)', async () => {
    const res = await request(`${url}/`, { method: 'POST', body: '' });
    expect(res.statusCode).toBe(201);
    expect(await res.body.text()).toBe('{"written":true}');
  });

  it('ends the stream of a handler that throws after writing to it, after what it wrote', async () => {
    const res = await request(`${url}/stream`, { method: 'POST', body: '' });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('{"type":"start"}\n');
  });
});
