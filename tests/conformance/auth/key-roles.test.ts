import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { createCollections, obj, createKey } from '../../harness/v4.js';

const ROLE = 'note_readers';
const readNotes = obj({ name: ROLE, privileges: [obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) })] });

/** 400 `validation failed` with a failure on the `role` field (its path may go on to a list index). */
function expectRoleRefused(res: Response): void {
  res.expectStatus(400).expectErrorCode('validation failed');
  const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[] }>;
  expect(
    failures.some((f) => Array.isArray(f.field) && f.field[0] === 'role'),
    res.explain('has no failure on "role"'),
  ).toBe(true);
}

// In order: the checks count the keys of the tenant's database before and after each refusal.
describe('Keys with role refs', { shuffle: false }, () => {
  const t = useTenant();
  let note: unknown;
  let other: unknown;
  let roleRef: unknown;

  const keyRefs = async () => (await t.admin.query({ paginate: { keys: null }, size: 1000n })).expectStatus(200).resource.data as unknown[];
  const keyWithRole = async (role: unknown) => t.admin.query(createKey(undefined, role));

  /** Sends each refused write and checks that none of them added a key. */
  async function expectNoKeyCreated(...writes: unknown[]): Promise<void> {
    const before = await keyRefs();
    for (const write of writes) expectRoleRefused(await t.admin.query(write));
    expect(await keyRefs()).toEqual(before);
  }

  beforeAll(async () => {
    // A collection named like the role: a ref to it is not the role.
    await createCollections(t.server, 'notes', 'others', ROLE);
    note = (await t.server.query({ create: { collection: 'notes' }, params: obj({ data: obj({ n: 1n }) }) })).expectStatus(201).resource
      .ref;
    other = (await t.server.query({ create: { collection: 'others' }, params: obj({ data: obj({ n: 2n }) }) })).expectStatus(201).resource
      .ref;
    roleRef = (await t.admin.query({ create_role: readNotes })).expectStatus(201).resource.ref;
  });

  check(['KEY-ROLE-009'], "a key created with a role ref gets the role's privileges and nothing more", async () => {
    const key = (await keyWithRole({ role: ROLE })).expectStatus(201).resource;
    expect(key.role).toEqual(roleRef);
    const asKey = t.as(key.secret);
    expect((await asKey.query({ get: note })).expectStatus(200).resource.data).toEqual({ n: 1n });
    (await asKey.query({ get: other })).expectStatus(403).expectErrorCode('permission denied');
    (await asKey.query({ create: { collection: 'notes' }, params: obj({ data: obj({ n: 3n }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
  });

  check(
    ['KEY-ROLE-016'],
    "CreateKey with a role's name as a string makes a key with that role's privileges only, or answers 400 validation failed",
    async () => {
      const res = await keyWithRole(ROLE);
      if (res.status === 400) {
        res.expectErrorCode('validation failed');
        return;
      }
      const asKey = t.as(res.expectStatus(201).resource.secret);
      expect((await asKey.query({ get: note })).expectStatus(200).resource.data).toEqual({ n: 1n });
      (await asKey.query({ get: other })).expectStatus(403).expectErrorCode('permission denied');
      (await asKey.query({ create: { collection: 'notes' }, params: obj({ data: obj({ n: 4n }) }) }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
    },
  );

  check(
    ['KEY-ROLE-010'],
    'CreateKey and Create on keys naming a role that does not exist, alone or in a list, answer 400 validation failed and create no key',
    async () => {
      await expectNoKeyCreated(
        createKey(undefined, { role: 'no_such_role' }),
        { create: { keys: null }, params: obj({ role: { role: 'no_such_role' } }) },
        createKey(undefined, [{ role: ROLE }, { role: 'no_such_role' }]),
      );
    },
  );

  check(
    ['KEY-ROLE-011'],
    'CreateKey with a collection ref as role, even one named like a role, answers 400 validation failed and creates no key',
    async () => {
      await expectNoKeyCreated(createKey(undefined, { collection: ROLE }), createKey(undefined, [{ role: ROLE }, { collection: 'notes' }]));
    },
  );

  check(
    ['KEY-ROLE-014'],
    'CreateKey with a role that is neither a string nor a ref answers 400 validation failed with invalid type on role and creates no key',
    async () => {
      const before = await keyRefs();
      for (const role of [5n, true, obj({ name: ROLE }), [{ role: ROLE }, 5n]]) {
        const res = (await keyWithRole(role)).expectStatus(400).expectErrorCode('validation failed');
        const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[]; code?: unknown }>;
        expect(
          failures.some((f) => Array.isArray(f.field) && f.field[0] === 'role' && f.code === 'invalid type'),
          res.explain('has no invalid type failure on "role"'),
        ).toBe(true);
      }
      expect(await keyRefs()).toEqual(before);
    },
  );

  check(
    ['KEY-ROLE-012'],
    'CreateKey with a role ref scoped to another database that has the role answers 400 validation failed and creates no key',
    async () => {
      (await t.admin.query({ create_database: obj({ name: 'elsewhere' }) })).expectStatus(201);
      const secret = (await t.admin.query(createKey('elsewhere', 'admin'))).expectStatus(201).resource.secret;
      await createCollections(t.as(secret), 'notes');
      (await t.as(secret).query({ create_role: readNotes })).expectStatus(201);
      await expectNoKeyCreated(createKey(undefined, { role: ROLE, scope: { database: 'elsewhere' } }));
    },
  );

  check(
    ['KEY-ROLE-013'],
    'Update or Replace of a key with a role ref to no role, or a ref that is not a role, answers 400 and leaves the key unchanged',
    async () => {
      const key = (await keyWithRole({ role: ROLE })).expectStatus(201).resource;
      const stored = (await t.admin.query({ get: key.ref })).expectStatus(200).resource;
      expectRoleRefused(await t.admin.query({ update: key.ref, params: obj({ role: { role: 'no_such_role' } }) }));
      expectRoleRefused(await t.admin.query({ replace: key.ref, params: obj({ role: { collection: 'notes' } }) }));
      expect((await t.admin.query({ get: key.ref })).expectStatus(200).resource).toEqual(stored);
      expect((await t.as(key.secret).query({ get: note })).expectStatus(200).resource.data).toEqual({ n: 1n });
    },
  );
});
