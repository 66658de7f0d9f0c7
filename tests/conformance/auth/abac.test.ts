import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Client, type Response } from '../../harness/index.js';
import { createCollections, lambda, obj, createKey } from '../../harness/v4.js';
import { createUser, login, refKey, type User } from './auth-fixtures.js';
import { assertMatchesSchema } from '../../harness/response-schemas.js';
import { checkNoLeaks, scanFileResponses } from './response-scan.js';

const scan = scanFileResponses();

const ME = { current_identity: null };
const ownerOf = (doc: unknown) => ({ select: ['data', 'owner'], from: doc, default: null });
const predicate = (params: string | string[], expr: unknown) => ({ query: lambda(params, expr) });

/** Read and delete get the ref; create the new values; write the old and new values (DEC-041). */
const noteOwnerRole = obj({
  name: 'note_owners',
  membership: [obj({ resource: { collection: 'users' } })],
  privileges: [
    obj({
      resource: { collection: 'notes' },
      actions: obj({
        read: predicate('ref', { equals: [ME, ownerOf({ get: { var: 'ref' } })] }),
        create: predicate('values', { equals: [ME, ownerOf({ var: 'values' })] }),
        write: predicate(['old', 'new'], { and: [{ equals: [ME, ownerOf({ var: 'old' })] }, { equals: [ME, ownerOf({ var: 'new' })] }] }),
        delete: predicate('ref', { equals: [ME, ownerOf({ get: { var: 'ref' } })] }),
      }),
    }),
    obj({ resource: { index: 'all_notes' }, actions: obj({ read: true }) }),
    obj({ resource: { collection: 'vault' }, actions: obj({ read: predicate('ref', { abort: 'predicate failure' }) }) }),
  ],
});

const drafterRole = obj({
  name: 'drafters',
  membership: [
    obj({
      resource: { collection: 'members' },
      predicate: predicate('ref', { select: ['data', 'active'], from: { get: { var: 'ref' } }, default: false }),
    }),
  ],
  privileges: [obj({ resource: { collection: 'drafts' }, actions: obj({ read: true, create: true, write: true, delete: true }) })],
});

const librarianRole = obj({
  name: 'librarians',
  membership: obj({ resource: { collection: 'members' } }),
  privileges: [
    obj({ resource: { collection: 'library' }, actions: obj({ read: true }) }),
    obj({ resource: { index: 'library_by_tag' }, actions: obj({ read: true }) }),
  ],
});

// In order: the last check scans every response the file received.
describe('Roles and privileges (ABAC)', { shuffle: false }, () => {
  const t = useTenant();
  let alice: User;
  let bob: User;
  let active: User;
  let inactive: User;
  let outsider: User;
  let asAlice: Client;
  let asBob: Client;
  let asActive: Client;
  let asInactive: Client;
  let asOutsider: Client;
  let aliceNote: unknown;
  let bobNote: unknown;
  let draft: unknown;
  let book: unknown;
  let vaultDoc: unknown;
  let createdRole: Response;

  const create = async (collection: string, data: Record<string, unknown>) =>
    (await t.server.query({ create: { collection }, params: obj({ data: obj(data) }) })).expectStatus(201).resource.ref;
  const dataOf = async (ref: unknown) => (await t.server.query({ get: ref })).expectStatus(200).resource.data;

  beforeAll(async () => {
    await createCollections(t.server, 'users', 'members', 'outsiders', 'notes', 'drafts', 'library', 'vault');
    (
      await t.server.query([
        { create_index: obj({ name: 'all_notes', source: { collection: 'notes' } }) },
        { create_index: obj({ name: 'library_by_tag', source: { collection: 'library' }, terms: [obj({ field: ['data', 'tag'] })] }) },
      ])
    ).expectStatus(200, 201);
    createdRole = await t.admin.query({ create_role: noteOwnerRole });
    (await t.admin.query([{ create_role: drafterRole }, { create_role: librarianRole }])).expectStatus(200, 201);
    [alice, bob] = [await createUser(t.server, 'users'), await createUser(t.server, 'users')];
    active = await createUser(t.server, 'members', { active: true });
    inactive = await createUser(t.server, 'members', { active: false });
    outsider = await createUser(t.server, 'outsiders');
    [asAlice, asBob, asActive, asInactive, asOutsider] = await Promise.all(
      [alice, bob, active, inactive, outsider].map(async (u) => t.as((await login(t.server, u)).secret)),
    );
    aliceNote = await create('notes', { owner: alice.ref, text: 'a' });
    bobNote = await create('notes', { owner: bob.ref, text: 'b' });
    draft = await create('drafts', { v: 1n });
    book = await create('library', { tag: 'fiction' });
    vaultDoc = await create('vault', { s: 1n });
  });

  check(
    ['ABAC-ROLE-001', 'ABAC-ROLE-005'],
    'create_role with an admin key answers 201 with a role record; predicates come back as @query',
    async () => {
      const res = createdRole.expectStatus(201);
      const role = (res.json as { resource: Record<string, unknown> }).resource;
      assertMatchesSchema('role', role, 'CreateRole resource', res.text);
      expect(res.resource.name).toBe('note_owners');
      expect(res.resource.ref).toEqual({ '@ref': { id: 'note_owners', collection: { '@ref': { id: 'roles' } } } });
      expect(res.resource.membership).toBeDefined();
      const actions = (role.privileges as Array<{ actions: Record<string, unknown> }>)[0]!.actions;
      for (const action of ['read', 'create', 'write', 'delete']) expect(actions[action]).toHaveProperty('@query');
    },
  );

  check(['ABAC-ROLE-002'], 'create_role with a name already used answers 400 instance already exists', async () => {
    (await t.admin.query({ create_role: noteOwnerRole })).expectStatus(400).expectErrorCode('instance already exists');
  });

  check(['ABAC-ROLE-003'], 'create_role with a client key or a token answers 403 permission denied', async () => {
    const role = obj({ name: 'sneaky', privileges: [obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) })] });
    (await t.client.query({ create_role: role })).expectStatus(403).expectErrorCode('permission denied');
    (await asAlice.query({ create_role: role })).expectStatus(403).expectErrorCode('permission denied');
    expect((await t.admin.query({ exists: { role: 'sneaky' } })).expectStatus(200).resource).toBe(false);
    // Refused before the role is looked at: a taken name must not answer `instance already exists` to them, nor a
    // body the server would refuse `validation failed`.
    (await t.client.query({ create_role: noteOwnerRole })).expectStatus(403).expectErrorCode('permission denied');
    (await asAlice.query({ create_role: noteOwnerRole })).expectStatus(403).expectErrorCode('permission denied');
    const invalid = obj({ name: 'sneaky', privileges: [obj({ resource: { collection: 'notes' }, actions: obj({ read: 'yes' }) })] });
    (await t.client.query({ create_role: invalid })).expectStatus(403).expectErrorCode('permission denied');
    (await asAlice.query({ create_role: invalid })).expectStatus(403).expectErrorCode('permission denied');
    expect((await t.admin.query({ exists: { role: 'sneaky' } })).expectStatus(200).resource).toBe(false);
  });

  check(
    ['ABAC-ROLE-014'],
    'a client key, or a token whose roles grant nothing on roles, is refused Get, Update, Replace and Delete of a role (403) and the role is unchanged',
    async () => {
      const role = { role: 'drafters' };
      const stored = (await t.admin.query({ get: role })).expectStatus(200).resource;
      for (const caller of [t.client, asAlice]) {
        (await caller.query({ get: role })).expectStatus(403).expectErrorCode('permission denied');
        (await caller.query({ update: role, params: obj({ data: obj({ touched: true }) }) }))
          .expectStatus(403)
          .expectErrorCode('permission denied');
        (await caller.query({ replace: role, params: drafterRole })).expectStatus(403).expectErrorCode('permission denied');
        (await caller.query({ delete: role })).expectStatus(403).expectErrorCode('permission denied');
      }
      expect((await t.admin.query({ get: role })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(
    ['ABAC-ROLE-015'],
    "a server key's role writes and reads answer as an admin key's, or 403 permission denied with nothing changed",
    async () => {
      const privileges = [obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) })];
      const refused = (res: Response): boolean => {
        if (res.status !== 403) return false;
        res.expectErrorCode('permission denied');
        return true;
      };
      const exists = async (name: string) => (await t.admin.query({ exists: { role: name } })).expectStatus(200).resource;

      const created = await t.server.query({ create_role: obj({ name: 'by_server', privileges }) });
      if (refused(created)) expect(await exists('by_server')).toBe(false);
      else
        expect(created.expectStatus(201).resource).toEqual(
          (await t.admin.query({ get: { role: 'by_server' } })).expectStatus(200).resource,
        );

      (await t.admin.query({ create_role: obj({ name: 'server_managed', privileges }) })).expectStatus(201);
      const stored = (await t.admin.query({ get: { role: 'server_managed' } })).expectStatus(200).resource;
      const read = await t.server.query({ get: { role: 'server_managed' } });
      if (!refused(read)) expect(read.expectStatus(200).resource).toEqual(stored);
      const listing = { paginate: { roles: null }, size: 1000n };
      const listed = await t.server.query(listing);
      if (!refused(listed))
        expect(listed.expectStatus(200).resource.data).toEqual((await t.admin.query(listing)).expectStatus(200).resource.data);

      const updated = await t.server.query({ update: { role: 'server_managed' }, params: obj({ data: obj({ by: 'server' }) }) });
      const afterUpdate = (await t.admin.query({ get: { role: 'server_managed' } })).expectStatus(200).resource;
      if (refused(updated)) expect(afterUpdate).toEqual(stored);
      else expect([updated.expectStatus(200).resource, afterUpdate.data]).toEqual([afterUpdate, { by: 'server' }]);

      const deleted = await t.server.query({ delete: { role: 'server_managed' } });
      if (refused(deleted)) expect(await exists('server_managed')).toBe(true);
      else {
        deleted.expectStatus(200);
        expect(await exists('server_managed')).toBe(false);
      }
    },
  );

  check.each([{ value: 'yes' }, { value: 1n }, { value: obj({ a: 1n }) }])(
    ['ABAC-ROLE-004'],
    'a privilege action that is neither a boolean nor a query lambda ($value) answers 400 validation failed',
    async ({ value }) => {
      const role = obj({ name: 'broken', privileges: [obj({ resource: { collection: 'notes' }, actions: obj({ read: value }) })] });
      (await t.admin.query({ create_role: role })).expectStatus(400).expectErrorCode('validation failed');
    },
  );

  check(
    ['ABAC-ROLE-004'],
    'Update and Replace of a role with a privilege action that is neither a boolean nor a query lambda answer 400 validation failed and leave the role unchanged',
    async () => {
      const privileges = (read: unknown) => [obj({ resource: { collection: 'notes' }, actions: obj({ read }) })];
      const ref = (await t.admin.query({ create_role: obj({ name: 'reshaped', privileges: privileges(true) }) })).expectStatus(201).resource
        .ref;
      const stored = (await t.admin.query({ get: ref })).expectStatus(200).resource;
      (await t.admin.query({ update: ref, params: obj({ privileges: privileges('yes') }) }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      (await t.admin.query({ replace: ref, params: obj({ name: 'reshaped', privileges: privileges(1n) }) }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await t.admin.query({ get: ref })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(
    ['ABAC-ROLE-012'],
    'Update or Replace of a role with a name that is not a valid name or data that is not an object answers 400 validation failed and leaves the role unchanged',
    async () => {
      const privileges = [obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) })];
      const ref = (await t.admin.query({ create_role: obj({ name: 'renamed_badly', privileges }) })).expectStatus(201).resource.ref;
      const stored = (await t.admin.query({ get: ref })).expectStatus(200).resource;
      for (const fields of [obj({ name: 5n }), obj({ name: 'bad name!' }), obj({ data: 5n })]) {
        (await t.admin.query({ update: ref, params: fields })).expectStatus(400).expectErrorCode('validation failed');
      }
      (await t.admin.query({ replace: ref, params: obj({ name: 'renamed_badly', privileges, data: 'x' }) }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await t.admin.query({ get: ref })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(
    ['ABAC-ROLE-016'],
    'create_role with only a name, or with a privilege without actions, answers 201 and the role grants nothing',
    async () => {
      for (const role of [obj({ name: 'bare' }), obj({ name: 'actionless', privileges: [obj({ resource: { collection: 'notes' } })] })]) {
        const res = (await t.admin.query({ create_role: role })).expectStatus(201);
        assertMatchesSchema('role', (res.json as { resource: unknown }).resource, 'CreateRole resource', res.text);
      }
      for (const role of ['bare', 'actionless']) {
        const key = t.as((await t.admin.query(createKey(undefined, { role }))).expectStatus(201).resource.secret);
        expect((await key.query('works')).expectStatus(200).resource).toBe('works');
        (await key.query({ get: aliceNote })).expectStatus(403).expectErrorCode('permission denied');
      }
    },
  );

  check(
    ['ABAC-MEMBER-001', 'ABAC-PRIV-001'],
    "a token of a member gets the role's privileges: read true lets it Get any document",
    async () => {
      expect((await asActive.query({ get: book })).expectStatus(200).resource.data).toEqual({ tag: 'fiction' });
      expect((await asActive.query({ get: draft })).expectStatus(200).resource.data).toEqual({ v: 1n });
    },
  );

  check(
    ['ABAC-MEMBER-002', 'AUTH-ACCESS-001', 'ABAC-PRIV-002'],
    'a token of a user in no role gets 403 permission denied on Get',
    async () => {
      (await asOutsider.query({ get: book })).expectStatus(403).expectErrorCode('permission denied');
      (await asOutsider.query({ get: alice.ref })).expectStatus(403).expectErrorCode('permission denied');
      (await asAlice.query({ get: bob.ref })).expectStatus(403).expectErrorCode('permission denied');
    },
  );

  check(
    ['ABAC-MEMBER-003', 'ABAC-MEMBER-004'],
    'a membership predicate grants the role when it answers true and denies it when false',
    async () => {
      (await asActive.query({ get: draft })).expectStatus(200);
      (await asInactive.query({ get: draft })).expectStatus(403).expectErrorCode('permission denied');
    },
  );

  check(['ABAC-MEMBER-007'], 'a membership predicate that raises an error or answers anything but true denies the role (403)', async () => {
    const predicates: Record<string, unknown> = {
      erring_members: { abort: 'no membership' },
      wordy_members: 'yes',
      numeric_members: 1n,
      null_members: null,
    };
    await createCollections(t.server, ...Object.keys(predicates));
    (
      await t.admin.query(
        Object.entries(predicates).map(([name, expr]) => ({
          create_role: obj({
            name,
            membership: [obj({ resource: { collection: name }, predicate: predicate('ref', expr) })],
            privileges: [obj({ resource: { collection: 'library' }, actions: obj({ read: true }) })],
          }),
        })),
      )
    ).expectStatus(200, 201);
    for (const name of Object.keys(predicates)) {
      const member = t.as((await login(t.server, await createUser(t.server, name))).secret);
      (await member.query({ get: book })).expectStatus(403).expectErrorCode('permission denied');
    }
  });

  check(['ABAC-MEMBER-005'], 'a token that is a member of two roles may do what either role allows', async () => {
    (await asActive.query({ get: draft })).expectStatus(200);
    (await asActive.query({ get: book })).expectStatus(200);
    (await asInactive.query({ get: book })).expectStatus(200);
  });

  check(['ABAC-PRIV-003'], 'create true lets the token Create; without it Create answers 403 and creates nothing', async () => {
    (await asActive.query({ create: { collection: 'drafts' }, params: obj({ data: obj({ v: 2n }) }) })).expectStatus(201);
    const denied = { ref: { collection: 'library' }, id: '777000' };
    (await asActive.query({ create: denied, params: obj({ data: obj({ tag: 'x' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    expect((await t.server.query({ exists: denied })).expectStatus(200).resource).toBe(false);
  });

  check(['ABAC-PRIV-004'], 'write true lets the token Update and Replace; without it both answer 403 and change nothing', async () => {
    const mine = await create('drafts', { v: 2n });
    (await asActive.query({ update: mine, params: obj({ data: obj({ v: 3n }) }) })).expectStatus(200);
    expect(await dataOf(mine)).toEqual({ v: 3n });
    (await asActive.query({ replace: mine, params: obj({ data: obj({ w: 4n }) }) })).expectStatus(200);
    expect(await dataOf(mine)).toEqual({ w: 4n });
    (await asActive.query({ update: book, params: obj({ data: obj({ tag: 'x' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    (await asActive.query({ replace: book, params: obj({ data: obj({ tag: 'y' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    expect(await dataOf(book)).toEqual({ tag: 'fiction' });
  });

  check(['ABAC-PRIV-005'], 'delete true lets the token Delete; without it Delete answers 403 and the document stays', async () => {
    (await asActive.query({ delete: book })).expectStatus(403).expectErrorCode('permission denied');
    expect(await dataOf(book)).toEqual({ tag: 'fiction' });
    const doomed = await create('drafts', { v: 9n });
    (await asActive.query({ delete: doomed })).expectStatus(200);
    expect((await t.server.query({ exists: doomed })).expectStatus(200).resource).toBe(false);
  });

  check(['ABAC-PRIV-006'], 'read true on an index lets the token Paginate a Match on it; without it the Paginate answers 403', async () => {
    expect(
      (await asActive.query({ paginate: { match: { index: 'library_by_tag' }, terms: 'fiction' } })).expectStatus(200).resource.data,
    ).toEqual([book]);
    (await asAlice.query({ paginate: { match: { index: 'library_by_tag' }, terms: 'fiction' } }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
  });

  check(['ABAC-PRIV-007'], 'privileges on one collection grant nothing on another', async () => {
    (await asActive.query({ get: aliceNote })).expectStatus(403).expectErrorCode('permission denied');
    (await asActive.query({ create: { collection: 'notes' }, params: obj({ data: obj({ owner: active.ref }) }) })).expectStatus(403);
  });

  check.each([
    { what: 'collections', expr: { create_collection: obj({ name: 'by_token' }) } },
    { what: 'indexes', expr: { create_index: obj({ name: 'by_token', source: { collection: 'drafts' } }) } },
    {
      what: 'roles',
      expr: {
        create_role: obj({ name: 'by_token', privileges: [obj({ resource: { collection: 'drafts' }, actions: obj({ read: true }) })] }),
      },
    },
    { what: 'keys', expr: createKey(undefined, 'server') },
    { what: 'databases', expr: { create_database: obj({ name: 'by_token' }) } },
  ])(
    ['ABAC-PRIV-008'],
    'a token with privileges only on data cannot create $what (403), and nothing is created',
    async ({ what, expr }) => {
      const keys = async () =>
        (await t.admin.query({ paginate: { keys: null }, size: 1000n })).expectStatus(200).resource.data as unknown[];
      const keysBefore = await keys();
      (await asActive.query(expr)).expectStatus(403).expectErrorCode('permission denied');
      const refOf: Record<string, unknown> = {
        collections: { collection: 'by_token' },
        indexes: { index: 'by_token' },
        roles: { role: 'by_token' },
        databases: { database: 'by_token' },
      };
      if (what === 'keys') expect(await keys()).toEqual(keysBefore);
      else expect((await t.admin.query({ exists: refOf[what] })).expectStatus(200).resource, `no ${what} record was written`).toBe(false);
    },
  );

  check(
    ['ABAC-PRIV-009'],
    'Paginate of collections by a token answers 403 unless one of its roles may read collections, and then lists every collection',
    async () => {
      await createCollections(t.server, 'schema_readers');
      (
        await t.admin.query({
          create_role: obj({
            name: 'schema_readers',
            membership: [obj({ resource: { collection: 'schema_readers' } })],
            privileges: [obj({ resource: { collections: null }, actions: obj({ read: true }) })],
          }),
        })
      ).expectStatus(201);
      const reader = t.as((await login(t.server, await createUser(t.server, 'schema_readers'))).secret);
      const listing = { paginate: { collections: null }, size: 1000n };
      const all = (await t.admin.query(listing)).expectStatus(200).resource.data as unknown[];
      expect(all.length).toBeGreaterThan(1);
      expect((await reader.query(listing)).expectStatus(200).resource.data).toEqual(all);
      (await asAlice.query(listing)).expectStatus(403).expectErrorCode('permission denied');
    },
  );

  check(['ABAC-PRIV-010'], 'Exists of a document or role the caller may not read answers false, never 403', async () => {
    for (const [caller, ref] of [
      [t.client, aliceNote],
      [asOutsider, book],
      [asAlice, bobNote],
      [t.client, { role: 'drafters' }],
      [asAlice, { role: 'drafters' }],
    ] as const) {
      expect((await caller.query({ exists: ref })).expectStatus(200).resource, `Exists(${JSON.stringify(ref)})`).toBe(false);
    }
    expect((await asAlice.query({ exists: { ref: { collection: 'notes' }, id: '999999' } })).expectStatus(200).resource).toBe(false);
    expect((await asAlice.query({ exists: aliceNote })).expectStatus(200).resource).toBe(true);
  });

  check(
    ['ABAC-PRIV-011'],
    'a refusal by the roles is 403 permission denied, Insufficient privileges to perform the action., at [] for Get, Update, Replace and Delete and ["create"] for Create',
    async () => {
      const refusals: Array<[unknown, unknown[]]> = [
        [{ get: book }, []],
        [{ update: book, params: obj({ data: obj({ tag: 'x' }) }) }, []],
        [{ replace: book, params: obj({ data: obj({ tag: 'y' }) }) }, []],
        [{ delete: book }, []],
        [{ create: { collection: 'library' }, params: obj({ data: obj({ tag: 'z' }) }) }, ['create']],
      ];
      for (const [expr, position] of refusals) {
        const res = (await asAlice.query(expr)).expectStatus(403).expectErrorCode('permission denied');
        expect(res.body.errors[0].description, res.explain('describes the refusal')).toBe('Insufficient privileges to perform the action.');
        expect(res.body.errors[0].position, res.explain(`is refused at ${JSON.stringify(position)}`)).toEqual(position);
      }
      expect(await dataOf(book)).toEqual({ tag: 'fiction' });
    },
  );

  check(
    ['ABAC-PRED-001'],
    'a read predicate comparing a field with current_identity lets a token read its own documents and nothing else',
    async () => {
      expect((await asAlice.query({ get: aliceNote })).expectStatus(200).resource.data.text).toBe('a');
      (await asAlice.query({ get: bobNote })).expectStatus(403).expectErrorCode('permission denied');
      expect((await asBob.query({ get: bobNote })).expectStatus(200).resource.data.text).toBe('b');
    },
  );

  check(
    ['ABAC-PRED-002'],
    'a write predicate gets the old and new values; a write it answers false for is 403 and changes nothing',
    async () => {
      const own = await create('notes', { owner: alice.ref, text: 'x' });
      (await asAlice.query({ update: own, params: obj({ data: obj({ text: 'x2' }) }) })).expectStatus(200);
      (await asAlice.query({ update: own, params: obj({ data: obj({ owner: bob.ref }) }) }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      (await asAlice.query({ update: bobNote, params: obj({ data: obj({ owner: alice.ref }) }) }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      expect(await dataOf(own)).toEqual({ owner: alice.ref, text: 'x2' });
      expect(refKey((await dataOf(bobNote)).owner)).toBe(refKey(bob.ref));
    },
  );

  check(
    ['ABAC-PRED-003'],
    "a create predicate gets the new document's values; a Create it answers false for is 403 and creates nothing",
    async () => {
      (
        await asAlice.query({ create: { collection: 'notes' }, params: obj({ data: obj({ owner: alice.ref, text: 'mine' }) }) })
      ).expectStatus(201);
      const forged = { ref: { collection: 'notes' }, id: '888000' };
      (await asAlice.query({ create: forged, params: obj({ data: obj({ owner: bob.ref }) }) }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      expect((await t.server.query({ exists: forged })).expectStatus(200).resource).toBe(false);
    },
  );

  check(['ABAC-PRED-004'], 'a delete predicate gets the ref; a Delete it answers false for is 403 and the document stays', async () => {
    (await asAlice.query({ delete: bobNote })).expectStatus(403).expectErrorCode('permission denied');
    expect((await t.server.query({ exists: bobNote })).expectStatus(200).resource).toBe(true);
    const own = (await asAlice.query({ create: { collection: 'notes' }, params: obj({ data: obj({ owner: alice.ref }) }) })).expectStatus(
      201,
    ).resource.ref;
    (await asAlice.query({ delete: own })).expectStatus(200);
  });

  check(['ABAC-PRED-005'], 'a predicate that raises an error denies the action with 403, never 5xx', async () => {
    (await asAlice.query({ get: vaultDoc })).expectStatus(403).expectErrorCode('permission denied');
  });

  check(
    ['ABAC-PRED-006'],
    'Paginate of an index a role may read leaves out the entries of documents the token may not read; Map with Get over the page succeeds',
    async () => {
      const page = (await asAlice.query({ paginate: { match: { index: 'all_notes' } }, size: 1000n })).expectStatus(200).resource
        .data as unknown[];
      expect(page.map(refKey)).toContain(refKey(aliceNote));
      expect(page.map(refKey)).not.toContain(refKey(bobNote));
      const mapped = await asAlice.query({
        map: { lambda: 'r', expr: { get: { var: 'r' } } },
        collection: { paginate: { match: { index: 'all_notes' } }, size: 1000n },
      });
      expect((mapped.expectStatus(200).resource.data as Array<{ ref: unknown }>).map((doc) => refKey(doc.ref))).toEqual(page.map(refKey));
    },
  );

  check(['ABAC-PRED-012'], 'a write predicate gets the fields without ref or ts, as [old, new] for a one-parameter lambda', async () => {
    await createCollections(t.server, 'pairs', 'pair_writers', 'field_writers');
    const v = (i: number) => ({ select: [i, 'data', 'v'], from: { var: 'p' } });
    const lacks = (field: string, values: unknown) => ({ not: { contains_path: [field], in: values } });
    const writer = (name: string, write: unknown) =>
      obj({
        name,
        membership: [obj({ resource: { collection: name } })],
        privileges: [obj({ resource: { collection: 'pairs' }, actions: obj({ read: true, write }) })],
      });
    (
      await t.admin.query([
        {
          create_role: writer(
            'pair_writers',
            predicate('p', { and: [{ is_array: { var: 'p' } }, { equals: [v(0), 1n] }, { equals: [v(1), 2n] }] }),
          ),
        },
        {
          create_role: writer(
            'field_writers',
            predicate(['old', 'new'], { and: [lacks('ref', { var: 'old' }), lacks('ts', { var: 'old' }), lacks('ref', { var: 'new' })] }),
          ),
        },
      ])
    ).expectStatus(200, 201);
    const [pairs, fields] = await Promise.all(
      ['pair_writers', 'field_writers'].map(async (c) => t.as((await login(t.server, await createUser(t.server, c))).secret)),
    );
    const one = await create('pairs', { v: 1n });
    const five = await create('pairs', { v: 5n });
    (await pairs!.query({ update: one, params: obj({ data: obj({ v: 2n }) }) })).expectStatus(200);
    (await pairs!.query({ update: five, params: obj({ data: obj({ v: 2n }) }) })).expectStatus(403).expectErrorCode('permission denied');
    (await fields!.query({ update: five, params: obj({ data: obj({ v: 6n }) }) })).expectStatus(200);
    expect([await dataOf(one), await dataOf(five)]).toEqual([{ v: 2n }, { v: 6n }]);
  });

  describe('write privileges', () => {
    const jotRole = (name: string, member: string, actions: Record<string, unknown>) =>
      obj({
        name,
        membership: [obj({ resource: { collection: member } })],
        privileges: [obj({ resource: { collection: 'jots' }, actions: obj(actions) })],
      });
    const as: Record<string, Client> = {};

    beforeAll(async () => {
      await createCollections(t.server, 'jots', 'jot_writers', 'jot_deleters', 'jot_creators', 'jot_placers');
      (
        await t.admin.query([
          { create_role: jotRole('jot_writers', 'jot_writers', { write: true }) },
          { create_role: jotRole('jot_deleters', 'jot_deleters', { delete: true }) },
          { create_role: jotRole('jot_creators', 'jot_creators', { create: true }) },
          { create_role: jotRole('jot_placers', 'jot_placers', { create_with_id: true }) },
        ])
      ).expectStatus(200, 201);
      for (const member of ['jot_writers', 'jot_deleters', 'jot_creators', 'jot_placers'])
        as[member] = t.as((await login(t.server, await createUser(t.server, member))).secret);
    });

    check(['ABAC-PRED-010'], 'write alone lets a token Update and Replace, delete alone lets it Delete, without read', async () => {
      const jot = await create('jots', { n: 1n });
      (await as.jot_writers!.query({ get: jot })).expectStatus(403).expectErrorCode('permission denied');
      (await as.jot_writers!.query({ update: jot, params: obj({ data: obj({ n: 2n }) }) })).expectStatus(200);
      (await as.jot_writers!.query({ replace: jot, params: obj({ data: obj({ n: 3n }) }) })).expectStatus(200);
      expect(await dataOf(jot)).toEqual({ n: 3n });
      (await as.jot_deleters!.query({ update: jot, params: obj({ data: obj({ n: 4n }) }) }))
        .expectStatus(403)
        .expectErrorCode('permission denied');
      (await as.jot_deleters!.query({ delete: jot })).expectStatus(200);
      expect((await t.server.query({ exists: jot })).expectStatus(200).resource).toBe(false);
    });

    check(
      ['ABAC-PRED-011'],
      'creating with a chosen id needs create_with_id: create alone answers 403 for it and 201 without an id',
      async () => {
        const chosen = (id: string) => ({ create: { ref: { collection: 'jots' }, id }, params: obj({ data: obj({ n: 1n }) }) });
        (await as.jot_creators!.query(chosen('7001'))).expectStatus(403).expectErrorCode('permission denied');
        expect((await t.server.query({ exists: { ref: { collection: 'jots' }, id: '7001' } })).expectStatus(200).resource).toBe(false);
        (await as.jot_creators!.query({ create: { collection: 'jots' }, params: obj({ data: obj({ n: 1n }) }) })).expectStatus(201);
        (await as.jot_placers!.query(chosen('7002'))).expectStatus(201);
      },
    );
  });

  describe('index privileges', () => {
    let open: unknown;
    let closed: unknown;
    let asAuditor: Client;
    let asTagger: Client;
    const byTag = (tag: string) => ({ paginate: { match: { index: 'ledger_by_tag' }, terms: tag }, size: 1000n });

    beforeAll(async () => {
      await createCollections(t.server, 'ledgers', 'auditors', 'taggers');
      (
        await t.server.query({
          create_index: obj({ name: 'ledger_by_tag', source: { collection: 'ledgers' }, terms: [obj({ field: ['data', 'tag'] })] }),
        })
      ).expectStatus(201);
      [open, closed] = [await create('ledgers', { tag: 'open' }), await create('ledgers', { tag: 'closed' })];
      (
        await t.admin.query([
          {
            create_role: obj({
              name: 'auditors',
              membership: [obj({ resource: { collection: 'auditors' } })],
              privileges: [obj({ resource: { index: 'ledger_by_tag' }, actions: obj({ unrestricted_read: true }) })],
            }),
          },
          {
            create_role: obj({
              name: 'taggers',
              membership: [obj({ resource: { collection: 'taggers' } })],
              privileges: [
                obj({
                  resource: { index: 'ledger_by_tag' },
                  actions: obj({ read: predicate('terms', { equals: [{ var: 'terms' }, ['open']] }) }),
                }),
                obj({ resource: { collection: 'ledgers' }, actions: obj({ read: true }) }),
              ],
            }),
          },
        ])
      ).expectStatus(200, 201);
      asAuditor = t.as((await login(t.server, await createUser(t.server, 'auditors'))).secret);
      asTagger = t.as((await login(t.server, await createUser(t.server, 'taggers'))).secret);
    });

    check(
      ['ABAC-PRED-008'],
      'unrestricted_read on an index answers every entry of a Match, though Get of those documents stays 403',
      async () => {
        expect(((await asAuditor.query(byTag('open'))).expectStatus(200).resource.data as unknown[]).map(refKey)).toEqual([refKey(open)]);
        expect(((await asAuditor.query(byTag('closed'))).expectStatus(200).resource.data as unknown[]).map(refKey)).toEqual([
          refKey(closed),
        ]);
        (await asAuditor.query({ get: open })).expectStatus(403).expectErrorCode('permission denied');
      },
    );

    check(['ABAC-PRED-009'], "an index read predicate receives the Match's terms as one array", async () => {
      expect(((await asTagger.query(byTag('open'))).expectStatus(200).resource.data as unknown[]).map(refKey)).toEqual([refKey(open)]);
      (await asTagger.query(byTag('closed'))).expectStatus(403).expectErrorCode('permission denied');
    });
  });

  check(['ABAC-MEMBER-006'], 'membership is evaluated per request: after the predicate turns false the same token is denied', async () => {
    const member = await createUser(t.server, 'members', { active: true });
    const as = t.as((await login(t.server, member)).secret);
    (await as.query({ get: draft })).expectStatus(200);
    (await t.server.query({ update: member.ref, params: obj({ data: obj({ active: false }) }) })).expectStatus(200);
    (await as.query({ get: draft })).expectStatus(403).expectErrorCode('permission denied');
  });

  check(['ABAC-PRED-007'], "changes to a role's privileges apply to the next request of an existing token", async () => {
    await createCollections(t.server, 'archive', 'archivists');
    const record = await create('archive', { a: 1n });
    const privileges = (read: boolean) => [obj({ resource: { collection: 'archive' }, actions: obj({ read }) })];
    (
      await t.admin.query({
        create_role: obj({
          name: 'archivists',
          membership: [obj({ resource: { collection: 'archivists' } })],
          privileges: privileges(true),
        }),
      })
    ).expectStatus(201);
    const as = t.as((await login(t.server, await createUser(t.server, 'archivists'))).secret);
    (await as.query({ get: record })).expectStatus(200);
    (await t.admin.query({ update: { role: 'archivists' }, params: obj({ privileges: privileges(false) }) })).expectStatus(200);
    (await as.query({ get: record })).expectStatus(403).expectErrorCode('permission denied');
  });

  checkNoLeaks(scan);
});
