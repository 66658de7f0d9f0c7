import { beforeAll, describe, expect } from 'vitest';
import { check, rootClient, useTenant } from '../../harness/index.js';
import { createCollections, createKey, obj } from '../../harness/v4.js';
import { createUser, login, newPassword, tokenCount, type User, emailIndex } from './auth-fixtures.js';
import { checkNoLeaks, scanFileResponses } from './response-scan.js';

const scan = scanFileResponses();

// In order: the last check scans every response the file received.
describe('Client keys and key scope', { shuffle: false }, () => {
  const t = useTenant();
  let ada: User;

  beforeAll(async () => {
    await createCollections(t.server, 'users');
    ada = await createUser(t.server, 'users', { email: 'ada@example.com' });
    (await t.server.query([emailIndex('public_by_email', true), emailIndex('private_by_email', false)])).expectStatus(200, 201);
    await login(t.server, ada);
  });

  check(
    ['AUTH-CLIENT-001'],
    "a client key's Paginate of a public index answers its entries (SD reading) or 403 permission denied (core reading)",
    async () => {
      const open = await t.client.query({ paginate: { match: { index: 'public_by_email' }, terms: 'ada@example.com' } });
      if (open.status === 403) {
        open.expectErrorCode('permission denied');
        expect(open.text).not.toContain(JSON.stringify(ada.ref['@ref'].id));
      } else {
        expect(open.expectStatus(200).resource.data).toEqual([ada.ref]);
      }
    },
  );

  check(['AUTH-CLIENT-002'], 'a client key gets 403 permission denied on an index without public read', async () => {
    const closed = await t.client.query({ paginate: { match: { index: 'private_by_email' }, terms: 'ada@example.com' } });
    closed.expectStatus(403).expectErrorCode('permission denied');
    expect(closed.text).not.toContain(JSON.stringify(ada.ref['@ref'].id));
  });

  check(['AUTH-CLIENT-005'], 'a client key can Login and Identify with a document ref, without any privilege on the document', async () => {
    const before = await tokenCount(t.server, ada);
    const token = await login(t.client, ada);
    expect(token.response.resource.instance).toEqual(ada.ref);
    expect(await tokenCount(t.server, ada)).toBe(before + 1);
    expect((await t.as(token.secret).query({ identity: null })).expectStatus(200).resource).toEqual(ada.ref);
    expect((await t.client.query({ identify: ada.ref, password: ada.password })).expectStatus(200).resource).toBe(true);
    expect((await t.client.query({ identify: ada.ref, password: newPassword() })).expectStatus(200).resource).toBe(false);
  });

  check(['KEY-ROLE-006'], 'a client key cannot read a document by Get: 403 permission denied', async () => {
    (await t.client.query({ get: ada.ref })).expectStatus(403).expectErrorCode('permission denied');
  });

  check(['KEY-ROLE-007'], 'a client key cannot create collections: 403 permission denied', async () => {
    (await t.client.query({ create_collection: obj({ name: 'by_client' }) })).expectStatus(403).expectErrorCode('permission denied');
    expect((await t.server.query({ exists: { collection: 'by_client' } })).expectStatus(200).resource).toBe(false);
    // A name that is taken is no different: the refusal must not reveal that it exists.
    (await t.client.query({ create_collection: obj({ name: 'users' }) })).expectStatus(403).expectErrorCode('permission denied');
  });

  check(['AUTH-CLIENT-003'], 'a client key cannot Create, Update or Delete documents and changes nothing', async () => {
    const before = (await t.server.query({ get: ada.ref })).expectStatus(200).resource;
    (await t.client.query({ create: { collection: 'users' }, params: obj({ data: obj({ email: 'eve@example.com' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    (await t.client.query({ update: ada.ref, params: obj({ data: obj({ email: 'eve@example.com' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    (await t.client.query({ delete: ada.ref })).expectStatus(403).expectErrorCode('permission denied');
    // Creating at the id of a live document is refused as a create, not answered `instance already exists`.
    (await t.client.query({ create: ada.ref, params: obj({ data: obj({ email: 'eve@example.com' }) }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    const after = (await t.server.query({ get: ada.ref })).expectStatus(200).resource;
    expect(after).toEqual(before);
    const found = (await t.server.query({ paginate: { match: { index: 'public_by_email' }, terms: 'eve@example.com' } })).expectStatus(200);
    expect(found.resource.data).toEqual([]);
  });

  check(['AUTH-CLIENT-004'], 'a client key cannot create tokens other than through Login', async () => {
    const before = await tokenCount(t.server, ada);
    (await t.client.query({ create: { tokens: null }, params: obj({ instance: ada.ref }) }))
      .expectStatus(403)
      .expectErrorCode('permission denied');
    expect(await tokenCount(t.server, ada)).toBe(before);
    (await t.client.query({ login: ada.ref, params: obj({ password: ada.password }) })).expectStatus(201);
    expect(await tokenCount(t.server, ada)).toBe(before + 1);
  });

  check(['KEY-SCOPE-001', 'KEY-SCOPE-002'], 'a key of database A cannot touch database B, its sibling, nor its parent', async () => {
    (await t.admin.query([{ create_database: obj({ name: 'a' }) }, { create_database: obj({ name: 'b' }) }])).expectStatus(200, 201);
    const keyOf = async (database: string) =>
      rootClient().as((await t.admin.query(createKey(database, 'server'))).expectStatus(201).resource.secret);
    const a = await keyOf('a');
    const b = await keyOf('b');
    await createCollections(b, 'notes');
    const note = (await b.query({ create: { collection: 'notes' }, params: obj({ data: obj({ n: 1n }) }) })).expectStatus(201).resource.ref;
    const fromA = await a.query({ get: note });
    fromA.expectStatus(400, 404).expectErrorCode('invalid ref', 'instance not found');
    (await a.query({ get: { ref: { collection: 'notes', scope: { database: 'b' } }, id: note['@ref'].id } })).expectStatus(400, 403, 404);
    (await a.query({ delete: note })).expectStatus(400, 404);
    (await b.query({ get: ada.ref })).expectStatus(400, 404).expectErrorCode('invalid ref', 'instance not found');
    expect((await b.query({ get: note })).expectStatus(200).resource.data).toEqual({ n: 1n });
  });

  check(['AUTH-LOGIN-012', 'KEY-SCOPE-001'], 'a token of database A cannot read documents of database B', async () => {
    (await t.admin.query({ create_database: obj({ name: 'c' }) })).expectStatus(201);
    const inner = rootClient().as((await t.admin.query(createKey('c', 'server'))).expectStatus(201).resource.secret);
    await createCollections(inner, 'notes');
    const note = (await inner.query({ create: { collection: 'notes' }, params: obj({ data: obj({}) }) })).expectStatus(201).resource.ref;
    const token = await login(t.server, ada);
    (await t.as(token.secret).query({ get: note })).expectStatus(400, 403, 404);
    (await t.as(token.secret).query({ get: { ref: { collection: 'notes', scope: { database: 'c' } }, id: note['@ref'].id } })).expectStatus(
      400,
      403,
      404,
    );
  });

  checkNoLeaks(scan);
});
