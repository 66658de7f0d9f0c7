// Cross-origin requests (DEC-061): what a driver running in a browser needs from the server.
import { describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';

const ORIGIN = 'http://app.example.com';

describe('Cross-origin requests', () => {
  const t = useTenant({ roles: ['server'] });

  check(
    ['PROTO-CORS-001'],
    'a request with Origin is answered with that origin allowed, credentials allowed and its x- headers exposed; one without Origin gets none of it',
    async () => {
      const res = (await t.server.query(1n, { headers: { origin: ORIGIN } })).expectStatus(200);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      const exposed = (res.headers['access-control-expose-headers'] ?? '').split(',').map((name) => name.trim().toLowerCase());
      expect(exposed, res.explain('exposes x-txn-time')).toContain('x-txn-time');
      const refused = await t.server.query(1n, { headers: { origin: ORIGIN, authorization: 'Bearer not-a-secret' } });
      refused.expectStatus(401);
      expect(refused.headers['access-control-allow-origin'], refused.explain('a 401 is readable cross-origin too')).toBe(ORIGIN);
      const plain = (await t.server.query(1n)).expectStatus(200);
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  check(
    ['PROTO-CORS-002'],
    'a preflight (OPTIONS with Origin, no secret) answers 2xx allowing POST and the headers drivers send',
    async () => {
      // A preflight answer's body is no API shape (204 has none): only its status and headers are checked.
      const res = await t.server.request('OPTIONS', '/', {
        validate: false,
        headers: {
          origin: ORIGIN,
          authorization: null,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, x-faunadb-api-version',
        },
      });
      expect(res.status >= 200 && res.status < 300, res.explain('is a 2xx')).toBe(true);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      const methods = (res.headers['access-control-allow-methods'] ?? '').split(',').map((m) => m.trim().toUpperCase());
      expect(methods).toContain('POST');
      const headers = (res.headers['access-control-allow-headers'] ?? '').split(',').map((h) => h.trim().toLowerCase());
      for (const header of ['authorization', 'content-type', 'x-faunadb-api-version', 'x-last-seen-txn', 'x-query-timeout'])
        expect(headers, res.explain(`allows ${header}`)).toContain(header);
    },
  );
});
