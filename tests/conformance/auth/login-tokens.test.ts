import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollections, obj } from '../../harness/v4.js';
import { createUser, identityStatus, login, loginExpr, newPassword, refKey, tokenCount, type User, emailIndex } from './auth-fixtures.js';
import { assertMatchesSchema } from '../../harness/response-schemas.js';
import { checkNoLeaks, scanFileResponses } from './response-scan.js';

const scan = scanFileResponses();
const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

// In order: the last check scans every response the file received.
describe('Login and tokens', { shuffle: false }, () => {
  const t = useTenant();
  let ada: User;

  beforeAll(async () => {
    await createCollections(t.server, 'users', 'guests', 'token_owners');
    ada = await createUser(t.server, 'users', { email: 'ada@example.com' });
    (await t.server.query(emailIndex('users_by_email', true))).expectStatus(201);
    await login(t.server, ada);
  });

  const byEmail = (email: string) => ({ match: { index: 'users_by_email' }, terms: email });

  check(
    ['AUTH-LOGIN-001', 'AUTH-LOGIN-002'],
    'Login with a ref and the right password answers 201 with a token record: ref in tokens, ts, instance, secret',
    async () => {
      const res = (await t.server.query(loginExpr(ada.ref, ada.password))).expectStatus(201);
      assertMatchesSchema('token-login', (res.json as { resource: unknown }).resource, 'Login resource', res.text);
      const token = res.resource;
      expect(token.ref['@ref'].collection).toEqual({ '@ref': { id: 'tokens' } });
      expect(typeof token.ts).toBe('bigint');
      expect(token.instance).toEqual(ada.ref);
      expect(typeof token.secret).toBe('string');
    },
  );

  check(['AUTH-LOGIN-003'], 'Login with a Match on a unique index finds the user and answers a token for that user', async () => {
    const token = (await t.server.query(loginExpr(byEmail('ada@example.com'), ada.password))).expectStatus(201).resource;
    expect(token.instance).toEqual(ada.ref);
  });

  check(['AUTH-LOGIN-004'], 'Login with a wrong password answers 400 authentication failed with a position array', async () => {
    const res = (await t.server.query(loginExpr(ada.ref, newPassword()))).expectStatus(400).expectErrorCode('authentication failed');
    expect(Array.isArray(res.body.errors[0].position)).toBe(true);
  });

  check(['AUTH-LOGIN-005'], 'Login with a ref of a document that does not exist answers 400 authentication failed', async () => {
    const missing = { ref: { collection: 'users' }, id: '1234567890' };
    (await t.server.query(loginExpr(missing, ada.password))).expectStatus(400).expectErrorCode('authentication failed');
  });

  check(['AUTH-LOGIN-006'], 'Login with a Match that finds no document answers 400 authentication failed', async () => {
    (await t.server.query(loginExpr(byEmail('nobody@example.com'), ada.password)))
      .expectStatus(400)
      .expectErrorCode('authentication failed');
  });

  check(['AUTH-LOGIN-007'], 'Login on a document without credentials answers 400 authentication failed', async () => {
    const res = (await t.server.query({ create: { collection: 'guests' }, params: obj({ data: obj({}) }) })).expectStatus(201);
    (await t.server.query(loginExpr(res.resource.ref, newPassword()))).expectStatus(400).expectErrorCode('authentication failed');
    (await t.server.query(loginExpr(res.resource.ref, ''))).expectStatus(400).expectErrorCode('authentication failed');
  });

  check(['AUTH-LOGIN-008'], 'data given to Login is copied onto the token', async () => {
    const { response, secret } = await login(t.server, ada, { name: 'laptop', n: 7n });
    expect(response.resource.data).toEqual({ name: 'laptop', n: 7n });
    const stored = (await t.server.query({ get: response.resource.ref })).expectStatus(200).resource;
    expect(stored.data).toEqual({ name: 'laptop', n: 7n });
    expect(await identityStatus(t.as(secret))).toBe(200);
  });

  check(['AUTH-LOGIN-009'], 'a user can hold several tokens: two Logins answer different secrets that both authenticate', async () => {
    const first = await login(t.server, ada);
    const second = await login(t.server, ada);
    expect(first.secret).not.toBe(second.secret);
    expect(refKey(first.response.resource.ref)).not.toBe(refKey(second.response.resource.ref));
    for (const secret of [first.secret, second.secret]) {
      expect((await t.as(secret).query({ current_identity: null })).expectStatus(200).resource).toEqual(ada.ref);
    }
  });

  check(['AUTH-LOGIN-010'], 'a failed Login creates no token', async () => {
    const user = await createUser(t.server, 'users');
    await login(t.server, user);
    const before = await tokenCount(t.server, user);
    expect(before).toBe(1);
    (await t.server.query(loginExpr(user.ref, newPassword()))).expectStatus(400);
    expect(await tokenCount(t.server, user)).toBe(before);
  });

  check(
    ['AUTH-LOGIN-011'],
    "a client key's Login through a public unique index answers a token (SD reading) or 403 permission denied and no token (core reading)",
    async () => {
      const before = await tokenCount(t.server, ada);
      const res = await t.client.query(loginExpr(byEmail('ada@example.com'), ada.password));
      if (res.status === 403) {
        res.expectErrorCode('permission denied');
        expect(await tokenCount(t.server, ada)).toBe(before);
        return;
      }
      const token = res.expectStatus(201).resource;
      expect(token.instance).toEqual(ada.ref);
      expect(await tokenCount(t.server, ada)).toBe(before + 1);
      expect((await t.as(token.secret).query({ identity: null })).expectStatus(200).resource).toEqual(ada.ref);
    },
  );

  check(['AUTH-LOGIN-012'], 'a token secret from Login authenticates requests that run as that user', async () => {
    const { secret } = await login(t.server, ada);
    const res = (await t.as(secret).query({ identity: null })).expectStatus(200);
    expect(res.resource).toEqual(ada.ref);
  });

  check(['AUTH-TOKEN-001', 'AUTH-TOKEN-003'], 'Get of a token record carries a BCrypt hashed_secret and no secret', async () => {
    const { response, secret } = await login(t.server, ada, { name: 'phone' });
    const res = (await t.server.query({ get: response.resource.ref })).expectStatus(200);
    expect(res.resource).not.toHaveProperty('secret');
    expect(res.resource.hashed_secret).toMatch(BCRYPT);
    expect(res.resource.hashed_secret).not.toBe(secret);
    expect(res.text).not.toContain(secret);
  });

  check(['AUTH-TOKEN-004'], 'a token created without ttl keeps working after other operations', async () => {
    const { secret } = await login(t.server, ada);
    await createUser(t.server, 'users');
    await login(t.server, ada);
    expect(await identityStatus(t.as(secret))).toBe(200);
  });

  check(['AUTH-TOKEN-005'], 'a token whose ttl is in the past answers 401 unauthorized', async () => {
    const res = (
      await t.server.query({ login: ada.ref, params: obj({ password: ada.password, ttl: { '@ts': '2001-01-01T00:00:00Z' } }) })
    ).expectStatus(201);
    (await t.as(res.resource.secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
    const { secret, response } = await login(t.server, ada);
    (await t.server.query({ update: response.resource.ref, params: obj({ ttl: { '@ts': '2001-01-01T00:00:00Z' } }) })).expectStatus(200);
    (await t.as(secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
  });

  check(['AUTH-TOKEN-006'], 'deleting a token document with a server key makes its secret answer 401', async () => {
    const { secret, response } = await login(t.server, ada);
    (await t.server.query({ delete: response.resource.ref })).expectStatus(200);
    (await t.as(secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
  });

  check(['AUTH-TOKEN-007'], "deleting the user document makes the user's tokens answer 401", async () => {
    const user = await createUser(t.server, 'users');
    const { secret } = await login(t.server, user);
    expect(await identityStatus(t.as(secret))).toBe(200);
    (await t.server.query({ delete: user.ref })).expectStatus(200);
    (await t.as(secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
  });

  check(
    ['AUTH-TOKEN-008'],
    'paginating {"tokens": null} with a server key lists token refs; Get of one has instance and no secret',
    async () => {
      const { response } = await login(t.server, ada);
      const page = (await t.server.query({ paginate: { tokens: null }, size: 100000n })).expectStatus(200).resource;
      const refs: unknown[] = page.data;
      expect(refs.map(refKey)).toContain(refKey(response.resource.ref));
      const got = (await t.server.query({ get: response.resource.ref })).expectStatus(200).resource;
      expect(got.instance).toEqual(ada.ref);
      expect(got).not.toHaveProperty('secret');
    },
  );

  check(
    ['AUTH-TOKEN-009'],
    "with a role granting read on it, an index over tokens by instance, queried with the user's own token, lists that user's token names and no other user's; without the role, 403",
    async () => {
      (
        await t.server.query({
          create_index: obj({
            name: 'tokens_by_instance',
            source: { tokens: null },
            terms: [obj({ field: ['instance'] })],
            values: [obj({ field: ['data', 'name'] })],
          }),
        })
      ).expectStatus(201);
      const owner = await createUser(t.server, 'token_owners');
      const other = await createUser(t.server, 'token_owners');
      const { secret } = await login(t.server, owner, { name: 'laptop' });
      await login(t.server, owner, { name: 'phone' });
      await login(t.server, other, { name: 'tablet' });
      const ownNames = { paginate: { match: { index: 'tokens_by_instance' }, terms: { current_identity: null } } };
      (await t.as(secret).query(ownNames)).expectStatus(403).expectErrorCode('permission denied');
      (
        await t.admin.query({
          create_role: obj({
            name: 'own_tokens',
            membership: [obj({ resource: { collection: 'token_owners' } })],
            privileges: [obj({ resource: { index: 'tokens_by_instance' }, actions: obj({ read: true }) })],
          }),
        })
      ).expectStatus(201);
      const res = (await t.as(secret).query(ownNames)).expectStatus(200);
      expect([...res.resource.data].sort()).toEqual(['laptop', 'phone']);
    },
  );

  check(
    ['AUTH-TOKEN-012', 'AUTH-TOKEN-001'],
    "a server key's Create in the tokens collection answers 201 with a secret that authenticates as the document; Get of the token shows no secret",
    async () => {
      const res = (
        await t.server.query({ create: { tokens: null }, params: obj({ instance: ada.ref, data: obj({ name: 'made' }) }) })
      ).expectStatus(201);
      const token = res.resource;
      expect(token.instance).toEqual(ada.ref);
      expect(token.data).toEqual({ name: 'made' });
      expect(typeof token.secret).toBe('string');
      expect((await t.as(token.secret).query({ identity: null })).expectStatus(200).resource).toEqual(ada.ref);
      const stored = (await t.server.query({ get: token.ref })).expectStatus(200);
      expect(stored.resource).not.toHaveProperty('secret');
      expect(stored.text).not.toContain(token.secret);
    },
  );

  check(['AUTH-LOGIN-013'], 'Login without a password answers 400 authentication failed and creates no token', async () => {
    const before = await tokenCount(t.server, ada);
    (await t.server.query({ login: ada.ref, params: obj({}) })).expectStatus(400).expectErrorCode('authentication failed');
    (await t.server.query({ login: ada.ref, params: obj({ data: obj({ name: 'x' }) }) }))
      .expectStatus(400)
      .expectErrorCode('authentication failed');
    expect(await tokenCount(t.server, ada)).toBe(before);
  });

  check(
    ['AUTH-TOKEN-010'],
    "a token may Get and Delete its own identity's tokens without a role; another identity's token answers 403",
    async () => {
      const owner = await createUser(t.server, 'token_owners');
      const stranger = await createUser(t.server, 'token_owners');
      const mine = await login(t.server, owner, { name: 'desk' });
      const sibling = (await login(t.server, owner, { name: 'pocket' })).response.resource.ref;
      const theirs = (await login(t.server, stranger, { name: 'theirs' })).response.resource.ref;
      const asOwner = t.as(mine.secret);
      expect((await asOwner.query({ get: sibling })).expectStatus(200).resource.data).toEqual({ name: 'pocket' });
      (await asOwner.query({ get: theirs })).expectStatus(403).expectErrorCode('permission denied');
      (await asOwner.query({ delete: theirs })).expectStatus(403).expectErrorCode('permission denied');
      (await asOwner.query({ delete: sibling })).expectStatus(200);
      expect((await t.server.query({ exists: sibling })).expectStatus(200).resource).toBe(false);
      expect((await t.server.query({ exists: theirs })).expectStatus(200).resource).toBe(true);
    },
  );

  checkNoLeaks(scan);
});
