import { describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { collection, createCollection, exists, expectProtocolError, expectQueryError, postRaw } from '../../harness/v4.js';

const NOW = JSON.stringify({ now: null });

describe('Authentication headers', () => {
  const t = useTenant();

  check(['PROTO-AUTH-001'], 'Authorization: Basic base64("<secret>:") is authenticated with that secret', async () => {
    // Written through Basic, read through Bearer with the same secret: both name the same database.
    (await t.server.query(createCollection('made_with_basic'), { auth: 'basic' })).expectStatus(201);
    expect((await t.server.query(exists(collection('made_with_basic')))).expectStatus(200).resource).toBe(true);
    // A client key through Basic is still a client key: it may not create collections.
    expectQueryError(await t.client.query(createCollection('client_basic'), { auth: 'basic' }), [403, 'permission denied']);
  });

  check(['PROTO-AUTH-002'], 'Authorization: Bearer <secret> is authenticated with that secret on POST /', async () => {
    (await t.server.query(createCollection('made_with_bearer'), { auth: 'bearer' })).expectStatus(201);
    expect((await t.server.query(exists(collection('made_with_bearer')), { auth: 'basic' })).expectStatus(200).resource).toBe(true);
  });

  check(
    ['PROTO-AUTH-003', 'PROTO-ERROR-004'],
    'a request without Authorization answers 401 {"errors":[{"code":"unauthorized","description":…}]}',
    async () => {
      const res = await t.server.request('POST', '/', { rawBody: NOW, auth: 'none', headers: { 'x-faunadb-api-version': '4' } });
      expectProtocolError(res, 401, 'unauthorized');
    },
  );

  check(['PROTO-AUTH-004'], 'an unknown secret answers 401 unauthorized and performs nothing', async () => {
    const real = t.secrets.server;
    // A plausible secret: the real one with its last character changed, so only the secret check can refuse it.
    const forged = real.slice(0, -1) + (real.endsWith('a') ? 'b' : 'a');
    for (const secret of [forged, 'fnAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-secret']) {
      const res = await t.server.query(createCollection('never_created'), { secret });
      expectProtocolError(res, 401, 'unauthorized');
    }
    expect((await t.server.query(exists(collection('never_created')))).expectStatus(200).resource).toBe(false);
  });

  check.each([
    { name: 'an unknown scheme', header: `Digest secret` },
    { name: 'Basic with bad base64', header: 'Basic !!!***' },
    { name: 'Basic with an empty user name', header: `Basic ${Buffer.from(':').toString('base64')}` },
    { name: 'Basic without credentials', header: 'Basic' },
    { name: 'Bearer without a secret', header: 'Bearer' },
    { name: 'a bare secret without a scheme', header: 'unknown-secret' },
  ])(
    ['PROTO-AUTH-005', 'PROTO-STATUS-004'],
    'a malformed Authorization header ($name) answers 401 unauthorized, not 400 or 5xx',
    async ({ header }) => {
      const res = await t.server.request('POST', '/', {
        rawBody: NOW,
        auth: 'none',
        headers: { authorization: header, 'x-faunadb-api-version': '4' },
      });
      expectProtocolError(res, 401, 'unauthorized');
    },
  );

  check(['PROTO-AUTH-006'], 'a 401 answer from POST / carries a WWW-Authenticate header', async () => {
    const missing = await postRaw(t.server, NOW, { authorization: null });
    const unknown = await postRaw(t.server, NOW, { authorization: 'Bearer not-a-secret' });
    for (const res of [missing, unknown]) {
      res.expectStatus(401);
      expect(res.headers['www-authenticate'], 'WWW-Authenticate on a 401').toMatch(/\S/);
    }
  });

  check(['PROTO-ERROR-009'], 'an action the secret may not perform answers 403 permission denied', async () => {
    const res = await t.client.query(createCollection('client_may_not'));
    expectQueryError(res, [403, 'permission denied']);
    expect((await t.server.query(exists(collection('client_may_not')))).expectStatus(200).resource).toBe(false);
  });

  check(
    ['PROTO-AUTH-008'],
    'the 401 for an unknown secret says Access token required on /query/1, Invalid token, unable to authenticate request on /feed/1 and /stream/1',
    async () => {
      const unknown = `${t.secrets.server.slice(0, -1)}${t.secrets.server.endsWith('x') ? 'y' : 'x'}`;
      const messages: Array<[string, unknown, string]> = [
        ['/query/1', { query: '1 + 1' }, 'Access token required'],
        ['/feed/1', { token: 'not-a-token' }, 'Invalid token, unable to authenticate request'],
        ['/stream/1', { token: 'not-a-token' }, 'Invalid token, unable to authenticate request'],
      ];
      for (const [path, body, message] of messages) {
        const res = (await t.server.request('POST', path, { body, secret: unknown })).expectStatus(401).expectSchema('v10-error');
        expect([res.body.error.code, res.body.error.message], res.explain('answers another message')).toEqual(['unauthorized', message]);
      }
    },
  );
});
