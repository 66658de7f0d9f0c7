// The three event endpoints as protocol surface: they exist, answer 200 on success, use the v10 error body for
// every error before an event (401 included), and an unknown version segment is a 404.
import { beforeAll, describe, expect } from 'vitest';
import { check, type Client, type Response, StreamRejectedError, uniqueName, useTenant } from '../../harness/index.js';
import { createCollections } from '../../harness/v4.js';
import { createSource } from './event-fixtures.js';

const UNKNOWN_SECRET = 'fnAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-not-a-secret';

/** The answer of a stream request that must be refused (a refused stream never opens). */
async function refusedStream(client: Client, body: unknown, secret?: string): Promise<Response> {
  try {
    const reader = await client.stream(body, secret === undefined ? {} : { secret });
    reader.close();
  } catch (error) {
    if (error instanceof StreamRejectedError) return error.response;
    throw error;
  }
  throw new Error('POST /stream/1 opened a stream; an error answer was expected');
}

function expectV10Error(res: Response, status: number, code?: string): void {
  res.expectStatus(status).expectSchema('v10-error');
  expect(typeof res.body.error.code).toBe('string');
  expect(typeof res.body.error.message).toBe('string');
  if (code !== undefined) expect(res.body.error.code).toBe(code);
}

describe('Event endpoints', () => {
  const t = useTenant({ roles: ['admin', 'server'] });
  let coll: string;
  let token: string;
  beforeAll(async () => {
    coll = uniqueName('E');
    await createCollections(t.server, coll);
    ({ token } = await createSource(t.server, `${coll}.all().eventSource()`));
  });

  check(['PROTO-ENDPOINT-008', 'PROTO-STATUS-003'], 'POST /query/1 exists and answers 200 for a query of the FQL subset', async () => {
    const res = (await t.server.fql(`${coll}.all().eventSource()`, undefined, { format: 'tagged' })).expectStatus(200);
    expect(typeof res.body.data['@stream']).toBe('string');
  });

  check(['PROTO-ENDPOINT-006', 'PROTO-STATUS-003'], 'POST /feed/1 exists and answers 200 with a feed page', async () => {
    (await t.server.feed({ token })).expectStatus(200).expectSchema('feed-response');
  });

  check(
    ['PROTO-ENDPOINT-007', 'PROTO-STATUS-003'],
    'POST /stream/1 exists and answers 200 with an open stream whose first event is status',
    async () => {
      const reader = await t.server.stream({ token });
      try {
        expect(reader.status).toBe(200);
        expect((await reader.next()).type).toBe('status');
      } finally {
        reader.close();
      }
    },
  );

  check(
    ['PROTO-AUTH-007'],
    'an unknown secret on /query/1, /feed/1 and /stream/1 answers 401 {"error": {"code": "unauthorized", "message"}}',
    async () => {
      expectV10Error(await t.server.fql(`${coll}.all().eventSource()`, undefined, { secret: UNKNOWN_SECRET }), 401, 'unauthorized');
      expectV10Error(await t.server.feed({ token }, { secret: UNKNOWN_SECRET }), 401, 'unauthorized');
      expectV10Error(await refusedStream(t.server, { token }, UNKNOWN_SECRET), 401, 'unauthorized');
    },
  );

  check(
    ['PROTO-ERROR-010'],
    'errors of /query/1, /feed/1 and /stream/1 before any event answer {"error": {"code", "message"}}',
    async () => {
      expectV10Error(await t.server.fql(`${coll}.all(`), 400);
      expectV10Error(await t.server.feed({ page_size: 1 }), 400, 'invalid_request');
      expectV10Error(await refusedStream(t.server, { cursor: 'x' }), 400, 'invalid_request');
    },
  );

  check.each(['/query/2', '/feed/2', '/stream/2'])(
    ['PROTO-VERSION-008'],
    'POST %s (an unknown version segment) answers 404, not 5xx',
    async (path) => {
      const res = await t.server.request('POST', path, { body: { token }, validate: false });
      expect(res.status).toBe(404);
    },
  );

  check(['LIMIT-PAGE-002'], 'a feed page_size of 16000 is accepted and 16001 is refused with 400 invalid_request', async () => {
    (await t.server.feed({ token, page_size: 16000 })).expectStatus(200);
    expectV10Error(await t.server.feed({ token, page_size: 16001 }), 400, 'invalid_request');
  });
});
