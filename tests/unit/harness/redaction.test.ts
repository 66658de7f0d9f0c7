import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactValue, registerSecret } from '../../harness/redaction.js';
import { formatExchanges, redactExchanges, type Exchange } from '../../harness/transcript.js';

describe('redaction', () => {
  const secret = 'fnAEXAMPLEsecret0001';
  registerSecret(secret);

  it('removes Authorization headers and known secrets inside other headers', () => {
    const basic = Buffer.from(`${secret}:`).toString('base64');
    expect(redactHeaders({ authorization: `Bearer ${secret}`, 'x-echo': `Basic ${basic}`, 'x-other': 'fine' })).toEqual({
      authorization: REDACTED,
      'x-echo': `Basic ${REDACTED}`,
      'x-other': 'fine',
    });
  });

  it('removes secret and password fields and any string containing a known secret', () => {
    const out = redactValue({
      resource: {
        secret: 'unregistered-but-a-secret-field',
        hashed_secret: '$2a$x',
        data: { note: `scoped ${secret}:db:admin`, password: 'p4ssw0rd!' },
      },
    });
    expect(out).toEqual({
      resource: { secret: REDACTED, hashed_secret: '$2a$x', data: { note: `scoped ${REDACTED}:db:admin`, password: REDACTED } },
    });
    expect(JSON.stringify(out)).not.toContain(secret);
  });

  it('redacts whole exchanges, stream events included', () => {
    const exchange: Exchange = {
      method: 'POST',
      url: 'http://h/',
      path: '/',
      startedAt: new Date().toISOString(),
      durationMs: 1,
      request: { headers: { authorization: `Bearer ${secret}` }, body: { login: 'x', params: { object: { password: 'pw-in-body' } } } },
      response: { status: 200, headers: {}, body: { resource: { secret: 'fnNEWTOKENsecret42' } } },
      events: [{ type: 'add', data: { echoed: secret } }],
      error: `failed with ${secret}`,
    };
    const text = JSON.stringify(redactExchanges([exchange])) + formatExchanges(redactExchanges([exchange]));
    for (const leaked of [secret, 'pw-in-body', 'fnNEWTOKENsecret42']) expect(text).not.toContain(leaked);
    expect(exchange.request.headers.authorization).toBe(`Bearer ${secret}`);
  });
});
