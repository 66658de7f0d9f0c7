import { describe, expect, it } from 'vitest';
import { exampleExchange, redactExchanges, setTranscriptBody, type Exchange } from '../../harness/transcript.js';

describe('setTranscriptBody', () => {
  it('shows a JSON body parsed, and other text as it is', () => {
    const json: { body?: unknown } = {};
    setTranscriptBody(json, '{"resource":{"n":1}}');
    expect(json.body).toEqual({ resource: { n: 1 } });
    const text: { body?: unknown } = {};
    setTranscriptBody(text, 'not json');
    expect(text.body).toBe('not json');
    const bytes: { body?: unknown } = {};
    setTranscriptBody(bytes, Buffer.from('[1,2]'));
    expect(bytes.body).toEqual([1, 2]);
  });

  it('leaves no body for an empty or absent payload', () => {
    for (const payload of [undefined, '', Buffer.alloc(0)]) {
      const message: { body?: unknown } = {};
      setTranscriptBody(message, payload);
      expect('body' in message).toBe(false);
    }
  });

  it('clips a body of more than 64 KiB, saying how long it was', () => {
    const message: { body?: unknown } = {};
    setTranscriptBody(message, 'x'.repeat(70_000));
    expect(message.body).toBe(`${'x'.repeat(64 * 1024)}… (70000 characters)`);
  });

  it('parses once, and a later assignment replaces the body', () => {
    const message: { body?: unknown } = {};
    setTranscriptBody(message, '{"a":1}');
    const first = message.body;
    expect(message.body).toBe(first);
    message.body = 'replaced';
    expect(message.body).toBe('replaced');
  });

  it('is seen by everything that copies an exchange: spreading, JSON and structured clone', () => {
    const exchange: Exchange = {
      method: 'POST',
      url: 'http://h/',
      path: '/',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { headers: {} },
      response: { status: 200, headers: {} },
    };
    setTranscriptBody(exchange.request, '{"password":"p"}');
    setTranscriptBody(exchange.response!, '{"resource":2}');
    expect(JSON.parse(JSON.stringify(exchange))).toMatchObject({
      request: { body: { password: 'p' } },
      response: { body: { resource: 2 } },
    });
    expect(structuredClone(exchange)).toMatchObject({ request: { body: { password: 'p' } }, response: { body: { resource: 2 } } });
    expect(redactExchanges([exchange])[0]).toMatchObject({
      request: { body: { password: '<redacted>' } },
      response: { body: { resource: 2 } },
    });
  });
});

describe('exampleExchange', () => {
  const exchange = (path: string, status: number | undefined, body?: unknown): Exchange => ({
    method: 'POST',
    url: `http://h${path}`,
    path,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    request: { headers: { authorization: 'Bearer fnSECRET' }, body: { password: 'p', long: 'y'.repeat(500) } },
    ...(status === undefined ? {} : { response: { status, headers: {}, ...(body === undefined ? {} : { body }) } }),
  });

  it('takes the last exchange answered with an error status, else the last answered, else none', () => {
    expect(exampleExchange([exchange('/a', 400), exchange('/b', 404), exchange('/c', 200), exchange('/d', undefined)])?.path).toBe('/b');
    expect(exampleExchange([exchange('/a', 201), exchange('/b', 200), exchange('/c', undefined)])?.path).toBe('/b');
    expect(exampleExchange([exchange('/a', undefined)])).toBeUndefined();
  });

  it('redacts it and clips long strings and arrays, saying how long they were', () => {
    const example = exampleExchange([exchange('/a', 200, { data: Array.from({ length: 12 }, (_, i) => i) })])!;
    expect(example.request.headers.authorization).toBe('<redacted>');
    expect(example.request.body).toEqual({ password: '<redacted>', long: `${'y'.repeat(400)}… (500 characters)` });
    expect(example.response!.body).toEqual({ data: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, '… (12 items)'] });
  });
});
