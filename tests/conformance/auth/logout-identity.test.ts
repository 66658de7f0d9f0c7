import { beforeAll, describe, expect } from 'vitest';
import { check, rootClient, target, useTenant, type Client } from '../../harness/index.js';
import { createCollections, obj, createKey } from '../../harness/v4.js';
import { BCRYPT_HASH, createUser, identityStatus, login, newPassword, tokenCount, type User, emailIndex } from './auth-fixtures.js';
import { assertMatchesSchema } from '../../harness/response-schemas.js';
import { checkNoLeaks, scanFileResponses } from './response-scan.js';

const scan = scanFileResponses();

// In order: the last check scans every response the file received.
describe('Logout, Identify, Identity and GET /tokens/self', { shuffle: false }, () => {
  const t = useTenant();
  let ada: User;
  let bob: User;

  beforeAll(async () => {
    await createCollections(t.server, 'users', 'guests');
    ada = await createUser(t.server, 'users');
    bob = await createUser(t.server, 'users');
    await login(t.server, bob);
  });

  // API version 4 so refs render with `collection`, as in the Login answer they are compared with.
  const selfOf = (secret: string, auth: 'basic' | 'bearer' = 'basic') =>
    t.as(secret).request('GET', '/tokens/self', { auth, headers: { 'x-faunadb-api-version': '4' } });

  check(
    ['AUTH-LOGOUT-001', 'AUTH-LOGOUT-002', 'AUTH-LOGOUT-003'],
    'Logout(false) answers true, ends the calling token and leaves the other tokens valid',
    async () => {
      const first = await login(t.server, ada);
      const second = await login(t.server, ada);
      expect((await t.as(first.secret).query({ logout: false })).expectStatus(200).resource).toBe(true);
      (await t.as(first.secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
      expect(await identityStatus(t.as(second.secret))).toBe(200);
    },
  );

  check(
    ['AUTH-LOGOUT-004', 'AUTH-LOGOUT-005'],
    "Logout(true) ends every token of that user and leaves other users' tokens valid",
    async () => {
      const tokens = [await login(t.server, ada), await login(t.server, ada), await login(t.server, ada)];
      const other = await login(t.server, bob);
      expect((await t.as(tokens[0]!.secret).query({ logout: true })).expectStatus(200).resource).toBe(true);
      for (const token of tokens)
        (await t.as(token.secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
      expect(await tokenCount(t.server, ada)).toBe(0);
      expect(await identityStatus(t.as(other.secret))).toBe(200);
    },
  );

  check(['AUTH-LOGOUT-006'], 'Logout with a key secret answers false and ends no token', async () => {
    const token = await login(t.server, ada);
    const before = await tokenCount(t.server, ada);
    expect((await t.server.query({ logout: true })).expectStatus(200).resource).toBe(false);
    expect((await t.client.query({ logout: false })).expectStatus(200).resource).toBe(false);
    expect(await tokenCount(t.server, ada)).toBe(before);
    expect(await identityStatus(t.as(token.secret))).toBe(200);
  });

  check(['AUTH-LOGOUT-007'], 'after Logout a new Login of the same user answers a working token', async () => {
    const token = await login(t.server, ada);
    (await t.as(token.secret).query({ logout: true })).expectStatus(200);
    const again = await login(t.server, ada);
    expect((await t.as(again.secret).query({ identity: null })).expectStatus(200).resource).toEqual(ada.ref);
  });

  check.each([{ arg: 'yes' }, { arg: 1n }, { arg: null }])(
    ['AUTH-LOGOUT-008'],
    'a logout argument that is not a boolean ($arg) answers 400 with a v4 query error',
    async ({ arg }) => {
      const token = await login(t.server, ada);
      const res = (await t.as(token.secret).query({ logout: arg })).expectStatus(400).expectSchema('v4-query-error');
      expect(res.errorCode).toBeDefined();
      expect(await identityStatus(t.as(token.secret))).toBe(200);
    },
  );

  check(['AUTH-IDENTIFY-001', 'AUTH-IDENTIFY-002'], 'Identify answers true for the right password and false for a wrong one', async () => {
    expect((await t.server.query({ identify: ada.ref, password: ada.password })).expectStatus(200).resource).toBe(true);
    expect((await t.server.query({ identify: ada.ref, password: newPassword() })).expectStatus(200).resource).toBe(false);
  });

  check(['AUTH-IDENTIFY-003'], 'Identify creates no token', async () => {
    const before = await tokenCount(t.server, bob);
    for (let i = 0; i < 3; i++)
      expect((await t.server.query({ identify: bob.ref, password: bob.password })).expectStatus(200).resource).toBe(true);
    expect(await tokenCount(t.server, bob)).toBe(before);
  });

  check(['AUTH-IDENTIFY-004'], 'Identify on a document without credentials answers false', async () => {
    const guest = (await t.server.query({ create: { collection: 'guests' }, params: obj({ data: obj({}) }) })).expectStatus(201).resource
      .ref;
    expect((await t.server.query({ identify: guest, password: newPassword() })).expectStatus(200).resource).toBe(false);
  });

  check(['AUTH-IDENTIFY-005'], 'Identify on a ref that does not exist answers false or 404 instance not found', async () => {
    const res = await t.server.query({ identify: { ref: { collection: 'users' }, id: '424242' }, password: newPassword() });
    if (res.status === 404) res.expectErrorCode('instance not found');
    else expect(res.expectStatus(200).resource).toBe(false);
  });

  check(
    ['AUTH-IDENTIFY-006'],
    'Identify with a Match on a unique index checks the first document found; an empty set is false; a set the caller may not read is 403 at ["identify"]',
    async () => {
      const carol = await createUser(t.server, 'users', { email: 'carol@example.com' });
      (await t.server.query(emailIndex('users_by_email', false))).expectStatus(201);
      const byEmail = (email: string) => ({ match: { index: 'users_by_email' }, terms: email });
      expect((await t.server.query({ identify: byEmail('carol@example.com'), password: carol.password })).expectStatus(200).resource).toBe(
        true,
      );
      expect((await t.server.query({ identify: byEmail('carol@example.com'), password: newPassword() })).expectStatus(200).resource).toBe(
        false,
      );
      expect((await t.server.query({ identify: byEmail('nobody@example.com'), password: carol.password })).expectStatus(200).resource).toBe(
        false,
      );
      const refused = (await t.client.query({ identify: byEmail('carol@example.com'), password: carol.password }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      expect(refused.body.errors[0].position).toEqual(['identify']);
    },
  );

  check(
    ['AUTH-IDENTITY-001', 'AUTH-IDENTITY-002', 'AUTH-IDENTITY-005'],
    "identity and current_identity answer the token's user; current_token answers the token's ref",
    async () => {
      const token = await login(t.server, ada);
      const as = t.as(token.secret);
      expect((await as.query({ identity: null })).expectStatus(200).resource).toEqual(ada.ref);
      expect((await as.query({ current_identity: null })).expectStatus(200).resource).toEqual(ada.ref);
      expect((await as.query({ current_token: null })).expectStatus(200).resource).toEqual(token.response.resource.ref);
    },
  );

  /** `current_token` answers 400 `invalid token` (`Token metadata is not accessible.`) at `[]`. */
  const expectInvalidToken = async (caller: Client) => {
    const res = (await caller.query({ current_token: null })).expectStatus(400).expectErrorCode('invalid token');
    expect(res.body.errors[0].description).toBe('Token metadata is not accessible.');
    expect(res.body.errors[0].position).toEqual([]);
  };

  check(
    ['AUTH-IDENTITY-006'],
    'current_token with a key of the database answers its ref and has_current_token true; with a key made in the parent, invalid token and false',
    async () => {
      const inner = (await t.admin.query(createKey(undefined, 'server'))).expectStatus(201).resource;
      const asInner = t.as(inner.secret);
      expect((await asInner.query({ current_token: null })).expectStatus(200).resource).toEqual(inner.ref);
      expect((await asInner.query({ has_current_token: null })).expectStatus(200).resource).toBe(true);
      // The tenant's own keys were made by the suite in the parent database, for this one.
      for (const key of [t.admin, t.server, t.client]) {
        await expectInvalidToken(key);
        expect((await key.query({ has_current_token: null })).expectStatus(200).resource).toBe(false);
      }
    },
  );

  check(['AUTH-IDENTITY-006'], 'current_token with the root secret answers invalid token and has_current_token false', async () => {
    const root = rootClient();
    const has = (await root.query({ has_current_token: null })).expectStatus(200).resource;
    const res = await root.query({ current_token: null });
    // A target run with an admin key as its secret, rather than a root secret, may hold that key's record: then the
    // secret must really be that key, as KeyFromSecret of it answers, or a server answering 200 for a root secret passes.
    if (!target().embedded && res.status === 200) {
      expect(res.resource['@ref'].collection).toEqual({ '@ref': { id: 'keys' } });
      const key = (await root.query({ key_from_secret: target().secret })).expectStatus(200).resource;
      expect(key.ref).toEqual(res.resource);
      expect(has).toBe(true);
      return;
    }
    await expectInvalidToken(root);
    expect(has).toBe(false);
  });

  check(['AUTH-IDENTITY-003'], 'identity and current_identity with a key secret answer 400 missing identity', async () => {
    for (const key of [t.server, t.client, t.admin]) {
      (await key.query({ identity: null })).expectStatus(400).expectErrorCode('missing identity');
      (await key.query({ current_identity: null })).expectStatus(400).expectErrorCode('missing identity');
    }
  });

  check(['AUTH-IDENTITY-004'], 'has_identity and has_current_identity answer true with a token and false with a key', async () => {
    const token = await login(t.server, ada);
    for (const form of ['has_identity', 'has_current_identity']) {
      expect((await t.as(token.secret).query({ [form]: null })).expectStatus(200).resource).toBe(true);
      expect((await t.server.query({ [form]: null })).expectStatus(200).resource).toBe(false);
      expect((await t.client.query({ [form]: null })).expectStatus(200).resource).toBe(false);
    }
  });

  check(['AUTH-ACCESS-002'], 'a token whose user is a member of no role can still call Identity and Logout', async () => {
    const token = await login(t.server, bob);
    (await t.as(token.secret).query({ get: ada.ref })).expectStatus(403).expectErrorCode('permission denied');
    expect((await t.as(token.secret).query({ identity: null })).expectStatus(200).resource).toEqual(bob.ref);
    expect((await t.as(token.secret).query({ current_identity: null })).expectStatus(200).resource).toEqual(bob.ref);
    expect((await t.as(token.secret).query({ logout: false })).expectStatus(200).resource).toBe(true);
  });

  check(
    ['AUTH-ACCESS-003'],
    'a token whose user is a member of no role gets 403 permission denied on Get of its own identity document',
    async () => {
      const token = await login(t.server, bob);
      (await t.as(token.secret).query({ get: bob.ref })).expectStatus(403).expectErrorCode('permission denied');
      expect((await t.as(token.secret).query({ identity: null })).expectStatus(200).resource).toEqual(bob.ref);
    },
  );

  check(
    ['AUTH-SELF-001', 'AUTH-SELF-002', 'AUTH-SELF-003', 'AUTH-SELF-004', 'AUTH-TOKEN-003'],
    'GET /tokens/self with a Basic token secret answers the token record with instance, a BCrypt hashed_secret, data, and no secret',
    async () => {
      const token = await login(t.server, ada, { name: 'laptop' });
      const res = (await selfOf(token.secret)).expectStatus(200);
      const resource = res.resource;
      assertMatchesSchema('token-self', (res.json as { resource: unknown }).resource, 'GET /tokens/self resource', res.text);
      expect(resource).not.toHaveProperty('secret');
      expect(res.text).not.toContain(token.secret);
      expect(resource.ref).toEqual(token.response.resource.ref);
      expect(resource.instance).toEqual(token.response.resource.instance);
      expect(resource.instance).toEqual(ada.ref);
      expect(resource.data).toEqual({ name: 'laptop' });
      expect(resource.hashed_secret).toMatch(BCRYPT_HASH);
      expect(resource.hashed_secret).not.toBe(token.secret);
    },
  );

  check(['AUTH-SELF-005'], 'GET /tokens/self with an invalid secret answers 401 unauthorized', async () => {
    const res = (await selfOf('not-a-valid-secret-at-all-0000000000')).expectStatus(401).expectErrorCode('unauthorized');
    expect(typeof res.body.errors[0].description).toBe('string');
  });

  check(['AUTH-SELF-006'], 'GET /tokens/self with a logged-out token answers 401 unauthorized', async () => {
    const token = await login(t.server, ada);
    (await selfOf(token.secret)).expectStatus(200);
    (await t.as(token.secret).query({ logout: false })).expectStatus(200);
    (await selfOf(token.secret)).expectStatus(401).expectErrorCode('unauthorized');
  });

  check(['AUTH-SELF-007'], 'GET /tokens/self with a key secret answers 404 not found', async () => {
    (await selfOf(t.secrets.server)).expectStatus(404).expectErrorCode('not found');
    (await selfOf(t.secrets.client)).expectStatus(404).expectErrorCode('not found');
  });

  check(['AUTH-SELF-008'], 'GET /tokens/self accepts the token secret as a Bearer credential', async () => {
    const token = await login(t.server, ada);
    const res = (await selfOf(token.secret, 'bearer')).expectStatus(200);
    expect(res.resource.ref).toEqual(token.response.resource.ref);
  });

  check(['DB-LIFE-003'], 'after a database is deleted, a token issued in it answers 401, on /tokens/self too', async () => {
    const root = rootClient();
    (await t.admin.query({ create_database: obj({ name: 'gone' }) })).expectStatus(201);
    const key = (await t.admin.query(createKey('gone', 'server'))).expectStatus(201).resource.secret as string;
    const inner = root.as(key);
    await createCollections(inner, 'users');
    const user = await createUser(inner, 'users');
    const token = await login(inner, user);
    (await selfOf(token.secret)).expectStatus(200);
    (await t.admin.query({ delete: { database: 'gone' } })).expectStatus(200);
    (await selfOf(token.secret)).expectStatus(401).expectErrorCode('unauthorized');
    (await t.as(token.secret).query({ has_current_identity: null })).expectStatus(401).expectErrorCode('unauthorized');
  });

  checkNoLeaks(scan);
});
