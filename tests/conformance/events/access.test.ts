// Role filtering of event sources (ABAC): a source emits only the documents the roles of the secret that CONSUMES it
// (the /feed/1 or /stream/1 request's) may read, whichever secret created it; a change to those roles' privileges, or
// revoking the secret that opened a stream, ends the stream with permission_loss (DEC-036).
import { describe, expect } from 'vitest';
import { check, StreamRejectedError, useTenant } from '../../harness/index.js';
import { createCollections, roleKeySecret } from '../../harness/v4.js';
import {
  addDoc,
  addDocs,
  collectData,
  createSource,
  docId,
  expectEnded,
  expectQuiet,
  feedAll,
  nextEventWhileWriting,
  REVOCATION_TEST_TIMEOUT_MS,
  showEvent,
} from './event-fixtures.js';

describe('Event sources and roles', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  /** A user with a token whose role reads the `Item` documents with `visible == true`. */
  async function tokenWithRole(role: string, items: string, users: string): Promise<string> {
    await createCollections(t.server, items);
    await createCollections(t.server, users);
    const visible = {
      lambda: 'ref',
      expr: { equals: [{ select: ['data', 'visible'], from: { get: { var: 'ref' } }, default: false }, true] },
    };
    (
      await t.admin.query({
        create_role: {
          object: {
            name: role,
            membership: [{ object: { resource: { collection: users } } }],
            privileges: [{ object: { resource: { collection: items }, actions: { object: { read: { query: visible } } } } }],
          },
        },
      })
    ).expectStatus(200, 201);
    const user = (
      await t.server.query({ create: { collection: users }, params: { object: { credentials: { object: { password: 'pass-word-2' } } } } })
    ).expectStatus(201);
    const login = (await t.server.query({ login: user.resource.ref, params: { object: { password: 'pass-word-2' } } })).expectStatus(
      200,
      201,
    );
    return login.resource.secret as string;
  }

  check(
    ['EVT-ACCESS-001', 'EVT-ACCESS-002'],
    'a source used with a token emits events only for documents its roles may read; discarded ones still count in stats',
    async () => {
      const secret = await tokenWithRole('reader_a', 'ItemA', 'UserA');
      const client = t.as(secret);
      const { token } = await createSource(client, 'ItemA.all().eventSource()');
      const [shown, hidden] = await addDocs(t.server, 'ItemA', [{ visible: true }, { visible: false }]);
      const { events, pages } = await feedAll(client, { token });
      expect(events.map(docId)).toEqual([shown!.id]);
      expect(events.map(docId)).not.toContain(hidden!.id);
      const readOps = pages.reduce((sum, page) => sum + BigInt(page.stats.read_ops as bigint), 0n);
      expect(readOps >= 2n, 'the discarded document is still processed').toBe(true);
    },
  );

  check(
    ['STREAM-CLOSE-002'],
    'changing the privileges of the role behind the token that opened the stream sends permission_loss and ends the stream; the token still authenticates',
    async () => {
      const secret = await tokenWithRole('reader_b', 'ItemB', 'UserB');
      const client = t.as(secret);
      const { token } = await createSource(client, 'ItemB.all().eventSource()');
      const reader = await client.stream({ token });
      try {
        expect((await reader.next()).type).toBe('status');
        (
          await t.admin.query({
            update: { role: 'reader_b' },
            params: { object: { privileges: [{ object: { resource: { collection: 'ItemB' }, actions: { object: { read: true } } } }] } },
          })
        ).expectStatus(200);
        // Documents the changed role reads: a server that keeps the stream going sends their events instead.
        const event = await nextEventWhileWriting(reader, () => addDoc(t.server, 'ItemB', { visible: true }));
        expect(event.type, `the first event after the role changed: ${showEvent(event)}`).toBe('error');
        expect(event.error.code).toBe('permission_loss');
        await expectEnded(reader);
      } finally {
        reader.close();
      }
      // What ended the stream was the role change, not a revocation.
      expect((await client.query(1)).status, 'the token still authenticates').not.toBe(401);
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  check(
    ['EVT-ACCESS-005'],
    "events are filtered with the rights of the secret that consumes the source: a server key's source shows a restricted token only what it may read",
    async () => {
      const secret = await tokenWithRole('reader_c', 'ItemC', 'UserC');
      const restricted = t.as(secret);
      const byServer = await createSource(t.server, 'ItemC.all().eventSource()');
      const byToken = await createSource(restricted, 'ItemC.all().eventSource()');
      const [shown, hidden] = await addDocs(t.server, 'ItemC', [{ visible: true }, { visible: false }]);
      // Created by a server key, consumed with the restricted token: only what the token's role reads.
      expect((await feedAll(restricted, { token: byServer.token })).events.map(docId)).toEqual([shown!.id]);
      // Created by the restricted token, consumed with a server key: whether the creator's rights narrow the events is
      // not asserted (DEC-036); either way they are the readable document, or both.
      const ids = (await feedAll(t.server, { token: byToken.token })).events.map(docId);
      expect([[shown!.id], [shown!.id, hidden!.id]]).toContainEqual(ids);
      const reader = await restricted.stream({ token: byServer.token, start_ts: shown!.ts });
      try {
        expect((await reader.next()).type).toBe('status');
        const [, later] = await addDocs(t.server, 'ItemC', [{ visible: false }, { visible: true }]);
        expect((await collectData(reader, 1)).map(docId)).toEqual([later!.id]);
      } finally {
        reader.close();
      }
    },
  );

  check(
    ['EVT-ACCESS-006', 'STREAM-CLOSE-003'],
    'logging out the token that opened a stream ends it with permission_loss, also when a server key created the source',
    async () => {
      const secret = await tokenWithRole('reader_d', 'ItemD', 'UserD');
      const opener = t.as(secret);
      const { token } = await createSource(t.server, 'ItemD.all().eventSource()');
      const reader = await opener.stream({ token });
      try {
        expect((await reader.next()).type).toBe('status');
        (await opener.query({ logout: false })).expectStatus(200);
        // Documents the token's role reads: a server that keeps the stream going sends their events instead.
        const event = await nextEventWhileWriting(reader, () => addDoc(t.server, 'ItemD', { visible: true }));
        expect(event.type, `the first event after the logout: ${showEvent(event)}`).toBe('error');
        expect(event.error.code).toBe('permission_loss');
        await expectEnded(reader);
      } finally {
        reader.close();
      }
    },
    { timeout: REVOCATION_TEST_TIMEOUT_MS },
  );

  /** A key whose role has no privileges at all, and a collection with one document. */
  async function keyWithoutPrivileges(role: string, items: string) {
    await createCollections(t.server, items);
    const doc = await addDoc(t.server, items, { visible: true });
    (await t.admin.query({ create_role: { object: { name: role, privileges: [] } } })).expectStatus(200, 201);
    return { doc, client: t.as(await roleKeySecret(t.admin, role)) };
  }

  check(
    ['ESRC-ACCESS-001'],
    'creating an event source with a secret whose roles may not read the collection answers 400 permission_denied and no token',
    async () => {
      const { doc, client } = await keyWithoutPrivileges('no_reads_e', 'ItemE');
      for (const query of [
        'ItemE.all().eventSource()',
        'ItemE.where(.visible == true).eventSource()',
        `Set.single(ItemE.byId("${doc.id}")).eventSource()`,
      ]) {
        const res = (await client.fql(query, undefined, { format: 'tagged' })).expectStatus(400).expectErrorCode('permission_denied');
        expect(res.body, `${query}: no token`).not.toHaveProperty('data');
      }
    },
  );

  check(
    ['ESRC-ACCESS-002'],
    'consuming a token with a secret whose roles may not read the collection answers 400 invalid_request, or yields none of its events',
    async () => {
      const { client } = await keyWithoutPrivileges('no_reads_f', 'ItemF');
      const { token } = await createSource(t.server, 'ItemF.all().eventSource()');
      await addDoc(t.server, 'ItemF', { visible: true });
      const feed = await client.feed({ token });
      if (feed.status === 200) expect(feed.body.events, "a feed opened anyway holds none of the collection's events").toEqual([]);
      else feed.expectStatus(400).expectErrorCode('invalid_request');
      const reader = await client.stream({ token }).catch((err: unknown) => {
        if (!(err instanceof StreamRejectedError)) throw err;
        err.response.expectStatus(400).expectErrorCode('invalid_request');
        return undefined;
      });
      if (reader === undefined) return;
      try {
        expect((await reader.next()).type).toBe('status');
        await addDoc(t.server, 'ItemF', { visible: true });
        await expectQuiet(reader, 1_000);
      } finally {
        reader.close();
      }
    },
  );
});
