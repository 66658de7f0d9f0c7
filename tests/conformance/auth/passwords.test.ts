import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueId, useTenant } from '../../harness/index.js';
import { createCollections, obj } from '../../harness/v4.js';
import { createUser, identityStatus, login, loginExpr, newPassword, type User } from './auth-fixtures.js';
import { checkNoLeaks, scanFileResponses } from './response-scan.js';

const scan = scanFileResponses();
const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

// In order: the last check scans every response the file received.
describe('Passwords (credentials)', { shuffle: false }, () => {
  const t = useTenant();

  beforeAll(async () => {
    await createCollections(t.server, 'users');
    await login(t.server, await createUser(t.server, 'users'));
  });

  const expectLoginFails = async (user: User, password: string) => {
    (await t.server.query(loginExpr(user.ref, password))).expectStatus(400).expectErrorCode('authentication failed');
  };

  check(['AUTH-PASSWORD-001', 'DOC-CRED-003'], 'a password set with Create lets Login with that password succeed', async () => {
    const user = await createUser(t.server, 'users', { email: 'ada@example.com' });
    await login(t.server, user);
    await expectLoginFails(user, newPassword());
  });

  check(
    ['AUTH-PASSWORD-002', 'DOC-CRED-003'],
    'a password changed with Update makes Login succeed with the new password and fail with the old one',
    async () => {
      const user = await createUser(t.server, 'users');
      const next = newPassword();
      (await t.server.query({ update: user.ref, params: obj({ credentials: obj({ password: next }) }) })).expectStatus(200);
      await expectLoginFails(user, user.password);
      await login(t.server, { ref: user.ref, password: next });
    },
  );

  check(
    ['AUTH-PASSWORD-003', 'DOC-CRED-003'],
    'a password changed with Replace makes Login succeed with the new password and fail with the old one',
    async () => {
      const user = await createUser(t.server, 'users');
      const next = newPassword();
      (
        await t.server.query({ replace: user.ref, params: obj({ data: obj({ replaced: true }), credentials: obj({ password: next }) }) })
      ).expectStatus(200);
      await expectLoginFails(user, user.password);
      await login(t.server, { ref: user.ref, password: next });
    },
  );

  check(['AUTH-PASSWORD-004'], 'any hashed_password shown is a BCrypt hash, never the password', async () => {
    const user = await createUser(t.server, 'users');
    const res = (await t.server.query({ get: user.ref })).expectStatus(200);
    expect(res.text).not.toContain(user.password);
    const shown = res.resource.hashed_password;
    if (shown !== undefined) expect(shown).toMatch(BCRYPT);
  });

  check.each([
    { label: 'a number', password: 12345n },
    { label: 'an object', password: obj({ p: 'x' }) },
    { label: 'a boolean', password: true },
  ])(['AUTH-PASSWORD-005'], 'a credentials.password that is $label answers 400 and creates nothing', async ({ password }) => {
    const id = uniqueId();
    const ref = { ref: { collection: 'users' }, id };
    const res = await t.server.query({ create: ref, params: obj({ data: obj({}), credentials: obj({ password }) }) });
    res.expectStatus(400).expectErrorCode('validation failed', 'invalid argument');
    expect((await t.server.query({ exists: ref })).expectStatus(200).resource).toBe(false);
  });

  check(['AUTH-PASSWORD-006'], 'updating only data of a user keeps the password working', async () => {
    const user = await createUser(t.server, 'users', { v: 1n });
    (await t.server.query({ update: user.ref, params: obj({ data: obj({ v: 2n }) }) })).expectStatus(200);
    await login(t.server, user);
  });

  check(['AUTH-PASSWORD-007'], 'a Replace without credentials keeps the password working', async () => {
    const user = await createUser(t.server, 'users', { v: 1n });
    (await t.server.query({ replace: user.ref, params: obj({ data: obj({ v: 2n }) }) })).expectStatus(200);
    await login(t.server, user);
    expect((await t.server.query({ identify: user.ref, password: user.password })).expectStatus(200).resource).toBe(true);
  });

  check(['DOC-CRED-001'], 'no answer to Create, Update, Replace, Get or Delete carries a credentials field', async () => {
    const password = newPassword();
    const created = (
      await t.server.query({ create: { collection: 'users' }, params: obj({ data: obj({}), credentials: obj({ password }) }) })
    ).expectStatus(201);
    const ref = created.resource.ref;
    const answers = [
      created,
      await t.server.query({ update: ref, params: obj({ credentials: obj({ password: newPassword() }) }) }),
      await t.server.query({ replace: ref, params: obj({ data: obj({ r: 1n }), credentials: obj({ password: newPassword() }) }) }),
      await t.server.query({ get: ref }),
      await t.server.query({ delete: ref }),
    ];
    for (const res of answers) {
      res.expectStatus(200, 201);
      expect(res.resource, res.explain('carries credentials')).not.toHaveProperty('credentials');
    }
  });

  check(['AUTH-CHANGE-001'], 'a token stays valid after the password is changed with Update', async () => {
    const user = await createUser(t.server, 'users');
    const { secret } = await login(t.server, user);
    (await t.server.query({ update: user.ref, params: obj({ credentials: obj({ password: newPassword() }) }) })).expectStatus(200);
    expect(await identityStatus(t.as(secret))).toBe(200);
    const res = (await t.as(secret).query({ current_identity: null })).expectStatus(200);
    expect(res.resource).toEqual(user.ref);
  });

  check(['AUTH-CHANGE-002'], 'a token stays valid after the password is changed with Replace', async () => {
    const user = await createUser(t.server, 'users');
    const { secret } = await login(t.server, user);
    (
      await t.server.query({ replace: user.ref, params: obj({ data: obj({}), credentials: obj({ password: newPassword() }) }) })
    ).expectStatus(200);
    expect(await identityStatus(t.as(secret))).toBe(200);
  });

  checkNoLeaks(scan);
});
