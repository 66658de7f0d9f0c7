// The `ttl` of keys and tokens: it ends the secret (AUTH-KEY-001) and hides the record (AUTH-TOKEN-011). Times are
// given already passed, so no test waits for one to pass.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Client } from '../../harness/index.js';
import { createCollections, obj, createKey } from '../../harness/v4.js';
import { createUser, login, refKey, type User } from './auth-fixtures.js';

const PAST = { '@ts': '2001-01-01T00:00:00Z' };
const FUTURE = { '@ts': '2200-01-01T00:00:00Z' };

describe("Keys' and tokens' ttl", () => {
  const t = useTenant();
  let ada: User;

  beforeAll(async () => {
    await createCollections(t.server, 'users');
    ada = await createUser(t.server, 'users');
    (
      await t.server.query({
        create_index: obj({ name: 'tokens_by_instance', source: { tokens: null }, terms: [obj({ field: ['instance'] })] }),
      })
    ).expectStatus(201);
  });

  const serverKey = async (params: Record<string, unknown>): Promise<{ ref: unknown; secret: string }> =>
    (await t.admin.query(createKey(undefined, 'server', params))).expectStatus(201).resource;

  /** The status and, when refused, the error code of a simple request made with `secret`. */
  const statusOf = async (secret: string): Promise<number> => {
    const res = await t.as(secret).query({ exists: { collection: 'users' } });
    if (res.status === 401) res.expectErrorCode('unauthorized');
    return res.status;
  };

  /** Every ref of a listing, read in one page. */
  const listed = async (caller: Client, set: unknown): Promise<string[]> => {
    const page = (await caller.query({ paginate: set, size: 100000n })).expectStatus(200).resource;
    return (page.data as unknown[]).map(refKey);
  };

  /** Get answers 404 `instance not found` with `description`, and Exists answers false. */
  const expectGone = async (caller: Client, ref: unknown, description: string): Promise<void> => {
    const res = (await caller.query({ get: ref })).expectStatus(404).expectErrorCode('instance not found');
    expect(res.body.errors[0].description).toBe(description);
    expect((await caller.query({ exists: ref })).expectStatus(200).resource).toBe(false);
  };

  check(
    ['AUTH-KEY-001'],
    'a key created with a ttl already passed answers 401 unauthorized; one whose ttl is ahead authenticates',
    async () => {
      expect(await statusOf((await serverKey({ ttl: PAST })).secret)).toBe(401);
      expect(await statusOf((await serverKey({ ttl: FUTURE })).secret)).toBe(200);
    },
  );

  check(['AUTH-KEY-001'], 'a key given a passed ttl by Update answers 401 unauthorized from the next request on', async () => {
    const key = await serverKey({});
    expect(await statusOf(key.secret)).toBe(200);
    (await t.admin.query({ update: key.ref, params: obj({ ttl: PAST }) })).expectStatus(200);
    expect(await statusOf(key.secret)).toBe(401);
  });

  check(
    ['AUTH-TOKEN-011'],
    'a token record whose ttl has passed is gone: Get 404 Token not found., Exists false, left out of the tokens and of an index over tokens',
    async () => {
      const live = (await login(t.server, ada)).response.resource.ref;
      const expired = (await t.server.query({ login: ada.ref, params: obj({ password: ada.password, ttl: PAST }) })).expectStatus(201)
        .resource.ref;
      const updated = (await login(t.server, ada)).response.resource.ref;
      (await t.server.query({ update: updated, params: obj({ ttl: PAST }) })).expectStatus(200);
      for (const ref of [expired, updated]) await expectGone(t.server, ref, 'Token not found.');
      expect((await t.server.query({ get: live })).expectStatus(200).resource.ref).toEqual(live);
      for (const set of [{ tokens: null }, { match: { index: 'tokens_by_instance' }, terms: ada.ref }]) {
        const refs = await listed(t.server, set);
        expect(refs).toContain(refKey(live));
        expect(refs).not.toContain(refKey(expired));
        expect(refs).not.toContain(refKey(updated));
      }
    },
  );

  check(
    ['AUTH-TOKEN-011'],
    'a key record whose ttl has passed is gone: Get 404 Key not found., Exists false, left out of the keys',
    async () => {
      const live = await serverKey({ ttl: FUTURE });
      const expired = await serverKey({ ttl: PAST });
      await expectGone(t.admin, expired.ref, 'Key not found.');
      expect((await t.admin.query({ get: live.ref })).expectStatus(200).resource.ref).toEqual(live.ref);
      const refs = await listed(t.admin, { keys: null });
      expect(refs).toContain(refKey(live.ref));
      expect(refs).not.toContain(refKey(expired.ref));
    },
  );
});
