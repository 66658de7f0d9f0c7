// At most 64 roles of a database may name one collection in their membership (DEC-052).
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { createCollections, obj } from '../../harness/v4.js';

const LIMIT = 64;
const readsNotes = [obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) })];
const memberRole = (name: string) => obj({ name, membership: [obj({ resource: { collection: 'users' } })], privileges: readsNotes });

/** 400 `validation failed` with a `resources exceeded` failure. */
function expectLimitReached(res: Response): void {
  res.expectStatus(400).expectErrorCode('validation failed');
  const failures = (res.body.errors[0].failures ?? []) as Array<{ code?: unknown }>;
  expect(
    failures.some((f) => f.code === 'resources exceeded'),
    res.explain('has no resources exceeded failure'),
  ).toBe(true);
}

describe('Roles per membership collection', () => {
  const t = useTenant();
  const roleNames = async () =>
    ((await t.admin.query({ paginate: { roles: null }, size: 1000n })).expectStatus(200).resource.data as Array<{ '@ref': { id: string } }>)
      .map((r) => r['@ref'].id)
      .sort();

  beforeAll(async () => {
    await createCollections(t.server, 'notes', 'users');
    (await t.admin.query(Array.from({ length: LIMIT }, (_, i) => ({ create_role: memberRole(`member_${i}`) })))).expectStatus(200, 201);
    (await t.admin.query({ create_role: obj({ name: 'outsider', privileges: readsNotes }) })).expectStatus(201);
  });

  check(
    ['LIMIT-ROLES-001'],
    'a 65th role naming a collection in its membership answers 400 validation failed (resources exceeded) and writes nothing; after a deletion it is created',
    async () => {
      const before = await roleNames();
      expect(before.filter((n) => n.startsWith('member_'))).toHaveLength(LIMIT);
      expectLimitReached(await t.admin.query({ create_role: memberRole('one_too_many') }));
      expectLimitReached(
        await t.admin.query({ update: { role: 'outsider' }, params: obj({ membership: [obj({ resource: { collection: 'users' } })] }) }),
      );
      expectLimitReached(await t.admin.query({ replace: { role: 'outsider' }, params: memberRole('outsider') }));
      expect(await roleNames()).toEqual(before);
      expect((await t.admin.query({ get: { role: 'outsider' } })).expectStatus(200).resource.membership ?? []).toEqual([]);
      // A member role rewritten with the same membership is still one of the 64.
      (await t.admin.query({ update: { role: 'member_0' }, params: obj({ data: obj({ touched: true }) }) })).expectStatus(200);
      (await t.admin.query({ delete: { role: 'member_1' } })).expectStatus(200);
      (await t.admin.query({ create_role: memberRole('one_too_many') })).expectStatus(201);
    },
  );
});
