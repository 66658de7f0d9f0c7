// Role filtering of event sources (ABAC): a source emits only the documents the roles of the secret that CREATED
// it may read, whichever secret of the database consumes it; a change to those roles' privileges, or revoking the
// creating secret, ends an open stream with permission_loss.
import { describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { collectData, createCollection, createDocs, createSource, docId, feedAll, nextData, showEvent } from './event-fixtures.js';

describe('Event sources and roles', () => {
  const t = useTenant({ roles: ['admin', 'server'] });

  /** A user with a token whose role reads the `Item` documents with `visible == true`. */
  async function tokenWithRole(role: string, items: string, users: string): Promise<string> {
    await createCollection(t.server, items);
    await createCollection(t.server, users);
    const visible = { lambda: 'ref', expr: { equals: [{ select: ['data', 'visible'], from: { get: { var: 'ref' } }, default: false }, true] } };
    (await t.admin.query({ create_role: { object: {
      name: role,
      membership: [{ object: { resource: { collection: users } } }],
      privileges: [{ object: { resource: { collection: items }, actions: { object: { read: { query: visible } } } } }],
    } } })).expectStatus(200, 201);
    const user = (await t.server.query({ create: { collection: users }, params: { object: { credentials: { object: { password: 'pass-word-2' } } } } })).expectStatus(201);
    const login = (await t.server.query({ login: (user.json as any).resource.ref, params: { object: { password: 'pass-word-2' } } })).expectStatus(200, 201);
    return login.resource.secret as string;
  }

  check(['EVT-ACCESS-001', 'EVT-ACCESS-002'], 'a source used with a token emits events only for documents its roles may read; discarded ones still count in stats', async () => {
    const secret = await tokenWithRole('reader_a', 'ItemA', 'UserA');
    const client = t.as(secret);
    const { token } = await createSource(client, 'ItemA.all().eventSource()');
    const [shown, hidden] = await createDocs(t.server, 'ItemA', [{ visible: true }, { visible: false }]);
    const { events, pages } = await feedAll(client, { token });
    expect(events.map(docId)).toEqual([shown!.id]);
    expect(events.map(docId)).not.toContain(hidden!.id);
    const readOps = pages.reduce((sum, page) => sum + BigInt(page.stats.read_ops), 0n);
    expect(readOps >= 2n, 'the discarded document is still processed').toBe(true);
  });

  check(['STREAM-CLOSE-002'], 'changing the privileges of the role behind the token sends permission_loss and ends the stream', async () => {
    const secret = await tokenWithRole('reader_b', 'ItemB', 'UserB');
    const client = t.as(secret);
    const { token } = await createSource(client, 'ItemB.all().eventSource()');
    const reader = await client.stream({ token });
    try {
      expect((await reader.next()).type).toBe('status');
      (await t.admin.query({ update: { role: 'reader_b' }, params: { object: { privileges: [{ object: { resource: { collection: 'ItemB' }, actions: { object: { read: true } } } }] } } })).expectStatus(200);
      const event = await nextData(reader);
      expect(event.type).toBe('error');
      expect(event.error.code).toBe('permission_loss');
    } finally {
      reader.close();
    }
  });

  check(['EVT-ACCESS-003'], 'events are filtered with the rights of the secret that created the source, not of the secret that consumes it', async () => {
    const secret = await tokenWithRole('reader_c', 'ItemC', 'UserC');
    const restricted = t.as(secret);
    const byToken = await createSource(restricted, 'ItemC.all().eventSource()');
    const byServer = await createSource(t.server, 'ItemC.all().eventSource()');
    const [shown, hidden] = await createDocs(t.server, 'ItemC', [{ visible: true }, { visible: false }]);
    // Created by the restricted token, consumed with a server key: still only what the token's role reads.
    expect((await feedAll(t.server, { token: byToken.token })).events.map(docId)).toEqual([shown!.id]);
    // Created by a server key, consumed with the restricted token: every tracked document.
    expect((await feedAll(restricted, { token: byServer.token })).events.map(docId).sort()).toEqual([shown!.id, hidden!.id].sort());
    const reader = await t.server.stream({ token: byToken.token, start_ts: shown!.ts });
    try {
      expect((await reader.next()).type).toBe('status');
      const [later] = await createDocs(t.server, 'ItemC', [{ visible: false }, { visible: true }]).then((docs) => docs.slice(1));
      expect((await collectData(reader, 1)).map(docId)).toEqual([later!.id]);
    } finally {
      reader.close();
    }
  });

  check(['EVT-ACCESS-004', 'STREAM-CLOSE-003'], 'logging out the token that created the source ends a stream consumed with a still valid server key with permission_loss', async () => {
    const secret = await tokenWithRole('reader_d', 'ItemD', 'UserD');
    const { token } = await createSource(t.as(secret), 'ItemD.all().eventSource()');
    const reader = await t.server.stream({ token });
    try {
      expect((await reader.next()).type).toBe('status');
      (await t.as(secret).query({ logout: false })).expectStatus(200);
      const event = await nextData(reader);
      expect(event.type).toBe('error');
      expect(event.error.code).toBe('permission_loss');
      const after = await reader.next({ timeoutMs: 3_000 }).then((e) => new Error(`another event followed: ${showEvent(e)}`), (e: Error) => e);
      expect(after.name, after.message).toBe('StreamEndedError');
    } finally {
      reader.close();
    }
    // The consuming key is still valid: the server key itself still works.
    (await t.server.query({ exists: { collection: 'ItemD' } })).expectStatus(200);
  });
});
