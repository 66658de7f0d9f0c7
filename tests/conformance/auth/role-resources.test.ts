import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { createCollections, obj, createKey } from '../../harness/v4.js';

const readable = (resource: unknown) => obj({ resource, actions: obj({ read: true }) });
const role = (name: string, privileges: unknown[], membership?: unknown[]) =>
  obj({ name, privileges, ...(membership === undefined ? {} : { membership: membership.map((resource) => obj({ resource })) }) });

/** 400 `validation failed` with a failure of `code` (`invalid reference` unless told) on the `resource` of a `privileges` or `membership` entry. */
function expectResourceRefused(res: Response, field: 'privileges' | 'membership', code = 'invalid reference'): void {
  res.expectStatus(400).expectErrorCode('validation failed');
  const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[]; code?: unknown }>;
  const onResource = (f: (typeof failures)[number]) =>
    Array.isArray(f.field) && f.field[0] === field && f.field[f.field.length - 1] === 'resource';
  expect(
    failures.some((f) => onResource(f) && f.code === code),
    res.explain(`has no ${code} failure on a ${field} resource`),
  ).toBe(true);
}

// In order: the checks count the tenant's roles before and after each refusal.
describe('Resources named by roles', { shuffle: false }, () => {
  const t = useTenant();
  let note: unknown;

  const roleRefs = async () =>
    (await t.admin.query({ paginate: { roles: null }, size: 1000n })).expectStatus(200).resource.data as unknown[];

  /** Sends each refused write and checks that none of them added a role. */
  async function expectNoRoleCreated(field: 'privileges' | 'membership', ...writes: unknown[]): Promise<void> {
    await expectNoRoleCreatedWith(field, 'invalid reference', ...writes);
  }

  async function expectNoRoleCreatedWith(field: 'privileges' | 'membership', code: string, ...writes: unknown[]): Promise<void> {
    const before = await roleRefs();
    for (const write of writes) expectResourceRefused(await t.admin.query(write), field, code);
    expect(await roleRefs()).toEqual(before);
  }

  beforeAll(async () => {
    await createCollections(t.server, 'notes', 'users');
    note = (await t.server.query({ create: { collection: 'notes' }, params: obj({ data: obj({ n: 1n }) }) })).expectStatus(201).resource
      .ref;
  });

  check(
    ['ABAC-ROLE-006'],
    'create_role and Create on roles with a privilege on a collection, index or function that does not exist answer 400 validation failed and create no role',
    async () => {
      await expectNoRoleCreated(
        'privileges',
        { create_role: role('r', [readable({ collection: 'no_such_collection' })]) },
        { create_role: role('r', [readable({ collection: 'notes' }), readable({ index: 'no_such_index' })]) },
        { create_role: role('r', [readable({ function: 'no_such_function' })]) },
        { create: { roles: null }, params: role('r', [readable({ collection: 'no_such_collection' })]) },
      );
    },
  );

  check(
    ['ABAC-ROLE-007'],
    'create_role with a membership collection that does not exist answers 400 validation failed and creates no role',
    async () => {
      await expectNoRoleCreated('membership', {
        create_role: role('r', [readable({ collection: 'notes' })], [{ collection: 'users' }, { collection: 'no_such_collection' }]),
      });
    },
  );

  check(
    ['ABAC-ROLE-008'],
    'create_role with a resource scoped to a database that has it answers 400 validation failed and creates no role',
    async () => {
      (await t.admin.query({ create_database: obj({ name: 'elsewhere' }) })).expectStatus(201);
      const secret = (await t.admin.query(createKey('elsewhere', 'server'))).expectStatus(201).resource.secret;
      await createCollections(t.as(secret), 'notes', 'users');
      const scoped = (collection: string) => ({ collection, scope: { database: 'elsewhere' } });
      await expectNoRoleCreated('privileges', { create_role: role('r', [readable(scoped('notes'))]) });
      await expectNoRoleCreated('membership', { create_role: role('r', [readable({ collection: 'notes' })], [scoped('users')]) });
    },
  );

  check(
    ['ABAC-ROLE-009'],
    'Update or Replace of a role naming a resource that does not exist answers 400 validation failed and leaves the role unchanged',
    async () => {
      const ref = (await t.admin.query({ create_role: role('editable', [readable({ collection: 'notes' })]) })).expectStatus(201).resource
        .ref;
      const stored = (await t.admin.query({ get: ref })).expectStatus(200).resource;
      expectResourceRefused(
        await t.admin.query({ update: ref, params: obj({ privileges: [readable({ collection: 'no_such_collection' })] }) }),
        'privileges',
      );
      expectResourceRefused(
        await t.admin.query({
          replace: ref,
          params: role('editable', [readable({ collection: 'notes' })], [{ collection: 'no_such_collection' }]),
        }),
        'membership',
      );
      expect((await t.admin.query({ get: ref })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(
    ['ABAC-ROLE-013'],
    'a membership resource that is an index, role or document ref, or not a ref, answers 400 validation failed (invalid type) and writes no role',
    async () => {
      (await t.server.query({ create_index: obj({ name: 'all_notes', source: { collection: 'notes' } }) })).expectStatus(201);
      const members = [{ index: 'all_notes' }, note, 'notes'];
      await expectNoRoleCreatedWith(
        'membership',
        'invalid type',
        ...members.map((member) => ({ create_role: role('r', [readable({ collection: 'notes' })], [member]) })),
      );
      await expectNoRoleCreatedWith('membership', 'invalid type', {
        create: { roles: null },
        params: role('r', [readable({ collection: 'notes' })], [{ index: 'all_notes' }]),
      });
      const ref = (
        await t.admin.query({ create_role: role('member_checked', [readable({ collection: 'notes' })], [{ collection: 'users' }]) })
      ).expectStatus(201).resource.ref;
      const stored = (await t.admin.query({ get: ref })).expectStatus(200).resource;
      (await t.admin.query({ create_role: role('another', [readable({ collection: 'notes' })]) })).expectStatus(201);
      const anotherRole = { role: 'another' };
      expectResourceRefused(
        await t.admin.query({ update: ref, params: obj({ membership: [obj({ resource: anotherRole })] }) }),
        'membership',
        'invalid type',
      );
      expectResourceRefused(
        await t.admin.query({
          replace: ref,
          params: role('member_checked', [readable({ collection: 'notes' })], [{ index: 'all_notes' }]),
        }),
        'membership',
        'invalid type',
      );
      expect((await t.admin.query({ get: ref })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(['PROTO-ERROR-011'], "a validation failure's field path writes a list index as a string", async () => {
    const res = await t.admin.query({
      create_role: role('indexed', [readable({ collection: 'notes' }), readable({ collection: 'no_such_collection' })]),
    });
    res.expectStatus(400).expectErrorCode('validation failed');
    expect(
      res.body.errors[0].failures.map((f: { field: unknown }) => f.field),
      res.explain('names the second privilege as ["privileges", "1", "resource"]'),
    ).toEqual([['privileges', '1', 'resource']]);
  });

  /** A role reading `notes` and a collection it then deletes; the role's ref. */
  async function roleOutlivingCollection(name: string, collection: string): Promise<unknown> {
    await createCollections(t.server, collection);
    const ref = (
      await t.admin.query({ create_role: role(name, [readable({ collection }), readable({ collection: 'notes' })]) })
    ).expectStatus(201).resource.ref;
    (await t.server.query({ delete: { collection } })).expectStatus(200);
    return ref;
  }

  check(['ABAC-ROLE-010'], 'deleting a collection a role names leaves the role, which keeps granting its other privileges', async () => {
    const ref = await roleOutlivingCollection('survivor', 'doomed');
    (await t.admin.query({ get: ref })).expectStatus(200);
    const key = (await t.admin.query(createKey(undefined, { role: 'survivor' }))).expectStatus(201).resource;
    expect((await t.as(key.secret).query({ get: note })).expectStatus(200).resource.data).toEqual({ n: 1n });
  });

  check(
    ['ABAC-ROLE-011'],
    'an Update of a role that keeps a privilege on a deleted collection answers 400 validation failed; one that drops it answers 200',
    async () => {
      const ref = await roleOutlivingCollection('stale', 'gone');
      expectResourceRefused(await t.admin.query({ update: ref, params: obj({ data: obj({ touched: true }) }) }), 'privileges');
      (await t.admin.query({ update: ref, params: obj({ privileges: [readable({ collection: 'notes' })] }) })).expectStatus(200);
    },
  );
});
