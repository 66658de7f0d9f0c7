import { beforeAll, describe, expect } from 'vitest';
import type { Client, Response } from '../../harness/index.js';
import { collection, createCollection, createDatabase, createDoc, createKey, docRef, expectRecord, refPayload } from '../../harness/v4.js';
import { check, useTenant } from '../../harness/index.js';

const t = useTenant({ roles: ['admin', 'server'] });

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/** Every secret this file created, and every answer it got that is not the CreateKey answer of that secret. */
const created = new Map<string, Response>();
const answers: Response[] = [];

async function ask(client: Client, expr: unknown): Promise<Response> {
  const res = await client.query(expr);
  answers.push(res);
  return res;
}

async function newKey(
  client: Client,
  db: string | undefined,
  role: string,
  extra: Record<string, unknown> = {},
): Promise<{ ref: unknown; secret: string; record: { hashed_secret: string } }> {
  const res = (await client.query(createKey(db, role, extra))).expectStatus(201);
  const record = res.resource;
  expect(typeof record.secret, 'CreateKey answers the secret').toBe('string');
  created.set(record.secret, res);
  return { ref: record.ref, secret: record.secret, record };
}

function expectNoSecretIn(responses: readonly Response[]): void {
  for (const res of responses) {
    for (const [secret, origin] of created) {
      if (res !== origin && res.text.includes(secret))
        throw new Error(`${res.method} ${res.path} (status ${res.status}) repeats a key secret that only its CreateKey answer may carry`);
    }
  }
}

// Created before every test of the file (tests run in a seeded random order) and used again by KEY-LIFE-004.
let longLived: { secret: string };

beforeAll(async () => {
  (await t.admin.query(createDatabase('long_lived'))).expectStatus(201);
  longLived = await newKey(t.admin, 'long_lived', 'server');
  (await t.as(longLived.secret).query(createCollection('kept'))).expectStatus(201);
});

describe('Key secrets', () => {
  check(['KEY-SECRET-001'], 'The secret of a new key authenticates requests with its role in its database', async () => {
    (await t.admin.query(createDatabase('served'))).expectStatus(201);
    const key = await newKey(t.admin, 'served', 'server');
    const client = t.as(key.secret);
    (await ask(client, createCollection('in_served'))).expectStatus(201);
    // Server role: documents yes, databases no.
    (await ask(client, createDoc(collection('in_served'), { x: 1n }))).expectStatus(201);
    (await ask(client, createDatabase('nope'))).expectStatus(403).expectErrorCode('permission denied');
    // The collection landed in `served`, not in the tenant's own database.
    expect((await ask(t.server, { exists: collection('in_served') })).expectStatus(200).resource).toBe(false);
  });

  check(['KEY-SECRET-002', 'KEY-SECRET-005'], 'Get of a key record carries hashed_secret but never secret', async () => {
    const key = await newKey(t.admin, undefined, 'server', { data: { object: { label: 'read_back' } } });
    const res = (await ask(t.admin, { get: key.ref })).expectStatus(200);
    const record = res.resource;
    expectRecord('key', record);
    expect(record).not.toHaveProperty('secret');
    expect(record.hashed_secret).toBe(key.record.hashed_secret);
    expect(record.data).toEqual({ label: 'read_back' });
    expect(record.ref).toEqual(key.ref);
    expectNoSecretIn([res]);
  });

  check(
    ['KEY-SECRET-003', 'KEY-SECRET-005'],
    'Paginating {"keys": null} answers key refs, and Map with Get over them yields records without secret',
    async () => {
      const key = await newKey(t.admin, undefined, 'client', { data: { object: { label: 'listed' } } });
      const page = (await ask(t.admin, { paginate: { keys: null }, size: 1000n })).expectStatus(200).resource;
      expect(page.data).toContainEqual(key.ref);
      for (const ref of page.data) expect(refPayload(ref).collection).toEqual({ '@ref': { id: 'keys' } });

      const mapped = (
        await ask(t.admin, { map: { lambda: 'k', expr: { get: { var: 'k' } } }, collection: { paginate: { keys: null }, size: 1000n } })
      ).expectStatus(200).resource;
      expect(mapped.data.length).toBe(page.data.length);
      for (const record of mapped.data) {
        expectRecord('key', record);
        expect(record).not.toHaveProperty('secret');
      }
      expect(mapped.data.map((r: { ref: unknown }) => r.ref)).toContainEqual(key.ref);
    },
  );

  check(
    ['KEY-SECRET-012'],
    'Paginating {"keys": null} lists the keys made in the caller\'s database, for it and for its children, not the key its parent made for it',
    async () => {
      (await t.admin.query(createDatabase('placed'))).expectStatus(201);
      const placedKey = await newKey(t.admin, 'placed', 'admin');
      const placed = t.as(placedKey.secret);
      (await ask(placed, createDatabase('inner'))).expectStatus(201);
      const own = await newKey(placed, undefined, 'server');
      const forInner = await newKey(placed, 'inner', 'client');
      const keysOf = async (client: Client) =>
        (await ask(client, { paginate: { keys: null }, size: 1000n })).expectStatus(200).resource.data as unknown[];
      const listedByParent = await keysOf(t.admin);
      expect(listedByParent).toContainEqual(placedKey.ref);
      expect(listedByParent).not.toContainEqual(own.ref);
      expect(listedByParent).not.toContainEqual(forInner.ref);
      const listedInPlaced = await keysOf(placed);
      expect(listedInPlaced).toHaveLength(2);
      expect(listedInPlaced).toEqual(expect.arrayContaining([own.ref, forInner.ref]));
    },
  );

  check(['KEY-SECRET-004'], 'hashed_secret is a BCrypt hash ($2a$/$2b$/$2y$, 60 characters) and differs from the secret', async () => {
    const key = await newKey(t.admin, undefined, 'server');
    expect(key.record.hashed_secret).toHaveLength(60);
    expect(key.record.hashed_secret).toMatch(BCRYPT);
    expect(key.record.hashed_secret).not.toBe(key.secret);
    expect(key.record.hashed_secret.includes(key.secret)).toBe(false);
  });

  check(['KEY-SECRET-006'], 'Two keys created in one request get different secrets', async () => {
    // An array result is not itself a created document, so 200 is as right as 201 here.
    const res = (await t.admin.query([createKey(undefined, 'server'), createKey(undefined, 'server')])).expectStatus(200, 201);
    const [first, second] = res.resource as Array<{ secret: string; ref: unknown }>;
    for (const key of [first!, second!]) created.set(key.secret, res);
    expect(first!.secret).not.toBe(second!.secret);
    expect(first!.ref).not.toEqual(second!.ref);
    // Both work on their own.
    for (const key of [first!, second!]) (await ask(t.as(key.secret), { exists: collection('anything') })).expectStatus(200);
  });

  check(['KEY-SECRET-007'], 'A key secret is at least 20 characters of ASCII without whitespace or ":"', async () => {
    const key = await newKey(t.admin, undefined, 'client');
    expect(key.secret.length).toBeGreaterThanOrEqual(20);
    expect(key.secret).toMatch(/^[\x21-\x39\x3b-\x7e]+$/);
  });

  check(['KEY-SECRET-005'], 'A key secret appears in no answer after its CreateKey answer, errors included', async () => {
    const key = await newKey(t.admin, undefined, 'server', { name: 'quiet' });
    const probe = t.as(key.secret);
    // Errors right after the creation, from the key itself and from others about it.
    (await ask(probe, { get: docRef('missing_collection', '1') })).expectStatus(400);
    (await ask(probe, { no_such_function: 1n })).expectStatus(400);
    (await ask(probe, createKey(undefined, 'server'))).expectStatus(403);
    (await ask(t.admin, createKey(undefined, 'bogus'))).expectStatus(400);
    (await ask(t.admin, { get: key.ref })).expectStatus(200);
    (await ask(t.admin, { update: key.ref, params: { object: { data: { object: { note: 'x' } } } } })).expectStatus(200);
    (await ask(t.admin, { replace: key.ref, params: { object: { role: 'server', name: 'quiet_again' } } })).expectStatus(200);
    (await ask(probe, { exists: collection('anything') })).expectStatus(200);
    expectNoSecretIn(answers);
  });

  check(
    ['KEY-SECRET-009', 'KEY-SECRET-005'],
    "No write of a key stores a secret it is given: Get carries no secret and the key's own secret still authenticates",
    async () => {
      const key = await newKey(t.admin, undefined, 'server', { data: { object: { label: 'given_own' } } });
      // Update and Replace given the key's own secret: accepted, and nothing of it is kept or answered.
      const updated = (
        await ask(t.admin, {
          update: key.ref,
          params: { object: { secret: key.secret, data: { object: { label: 'given_own_updated' } } } },
        })
      ).expectStatus(200).resource;
      expect(updated).not.toHaveProperty('secret');
      const replaced = (
        await ask(t.admin, {
          replace: key.ref,
          params: { object: { role: 'server', secret: key.secret, data: { object: { label: 'given_own_replaced' } } } },
        })
      ).expectStatus(200).resource;
      expect(replaced).not.toHaveProperty('secret');
      const record = (await ask(t.admin, { get: key.ref })).expectStatus(200).resource;
      expectRecord('key', record);
      expect(record).not.toHaveProperty('secret');
      expect(record.data).toEqual({ label: 'given_own_replaced' });
      expect(record.hashed_secret).toMatch(BCRYPT);
      (await ask(t.as(key.secret), { exists: collection('anything') })).expectStatus(200);

      // A create given a secret: the real service refuses one that is not the new key's (a client cannot know it), and a
      // server that creates the key anyway must neither keep the given secret nor let it stand for the key's own.
      const creates = [
        createKey(undefined, 'server', { secret: 'given-secret-of-my-own-choosing' }),
        { create: { keys: null }, params: { object: { role: 'server', secret: 'given-secret-of-my-own-choosing' } } },
      ];
      for (const expr of creates) {
        const res = await t.admin.query(expr);
        if (res.status === 400) {
          res.expectErrorCode('validation failed');
          continue;
        }
        res.expectStatus(201);
        const made = res.resource;
        expect(typeof made.secret, res.explain('answers no secret')).toBe('string');
        created.set(made.secret, res);
        const read = (await ask(t.admin, { get: made.ref })).expectStatus(200).resource;
        expect(read).not.toHaveProperty('secret');
        expect(read.hashed_secret).toMatch(BCRYPT);
        (await ask(t.as(made.secret), { exists: collection('anything') })).expectStatus(200);
      }
      expectNoSecretIn(answers);
    },
  );

  check(
    ['KEY-SECRET-010'],
    'A hashed_secret given to Update or Replace of a key is not stored: Get shows the hash the server made',
    async () => {
      const key = await newKey(t.admin, undefined, 'server', { name: 'hash_kept' });
      const original = key.record.hashed_secret as string;
      expect(original).toMatch(BCRYPT);
      (await ask(t.admin, { update: key.ref, params: { object: { hashed_secret: 'taco' } } })).expectStatus(200);
      expect((await ask(t.admin, { get: key.ref })).expectStatus(200).resource.hashed_secret).toBe(original);
      // A well-formed BCrypt hash of something else fares no better.
      const planted = '$2b$04$6F32Ai.NZZ8.Tb/zXGRcMeEHci6sWWE8N5YDMpMHdelINMyj4Mv26';
      (await ask(t.admin, { update: key.ref, params: { object: { hashed_secret: planted } } })).expectStatus(200);
      expect((await ask(t.admin, { get: key.ref })).expectStatus(200).resource.hashed_secret).toBe(original);
      (await ask(t.admin, { replace: key.ref, params: { object: { role: 'server', hashed_secret: 'taco' } } })).expectStatus(200);
      const record = (await ask(t.admin, { get: key.ref })).expectStatus(200).resource;
      expect(record.hashed_secret).toBe(original);
      expect(record).not.toHaveProperty('secret');
      (await ask(t.as(key.secret), { exists: collection('anything') })).expectStatus(200);
    },
  );

  check(
    ['KEY-SECRET-011', 'KEY-SECRET-005'],
    'Update or Replace of a key with a secret that is not its own answers 400 validation failed (invalid secret) and changes nothing',
    async () => {
      const key = await newKey(t.admin, undefined, 'server', { name: 'guarded' });
      const other = await newKey(t.admin, undefined, 'server', { name: 'bystander' });
      const stored = (await ask(t.admin, { get: key.ref })).expectStatus(200).resource;
      const writes = (secret: string) => [
        { update: key.ref, params: { object: { secret, name: 'renamed' } } },
        { replace: key.ref, params: { object: { role: 'server', secret, name: 'renamed' } } },
      ];
      for (const bad of ['badsecret', other.secret]) {
        for (const expr of writes(bad)) {
          const res = (await ask(t.admin, expr)).expectStatus(400).expectErrorCode('validation failed');
          const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[]; code?: unknown }>;
          expect(
            failures.some((f) => Array.isArray(f.field) && f.field.join() === 'secret' && f.code === 'invalid secret'),
            res.explain('has no invalid secret failure on secret'),
          ).toBe(true);
        }
      }
      expect((await ask(t.admin, { get: key.ref })).expectStatus(200).resource).toEqual(stored);
      (await ask(t.as(key.secret), { exists: collection('anything') })).expectStatus(200);
      (await ask(t.as(other.secret), { exists: collection('anything') })).expectStatus(200);
      expectNoSecretIn(answers);
    },
  );
});

describe('Key lifecycle', () => {
  check(
    ['KEY-LIFE-001', 'KEY-LIFE-002'],
    'After Delete of a key its secret answers 401 unauthorized; other keys of the database keep working',
    async () => {
      const doomed = await newKey(t.admin, undefined, 'server');
      const kept = await newKey(t.admin, undefined, 'server');
      (await ask(t.as(doomed.secret), { exists: collection('anything') })).expectStatus(200);
      const deleted = (await ask(t.admin, { delete: doomed.ref })).expectStatus(200).resource;
      expect(deleted.ref).toEqual(doomed.ref);
      expect(deleted).not.toHaveProperty('secret');
      (await ask(t.as(doomed.secret), { exists: collection('anything') })).expectStatus(401).expectErrorCode('unauthorized');
      (await ask(t.as(kept.secret), { exists: collection('anything') })).expectStatus(200);
      (await ask(t.server, { exists: collection('anything') })).expectStatus(200);
    },
  );

  check(
    ['KEY-LIFE-003', 'KEY-SECRET-005'],
    "Updating a key's data (and name) keeps its secret working and does not return secret",
    async () => {
      const key = await newKey(t.admin, undefined, 'server', { name: 'before' });
      const updated = (
        await ask(t.admin, { update: key.ref, params: { object: { name: 'after', data: { object: { team: 'core' } } } } })
      ).expectStatus(200).resource;
      expectRecord('key', updated);
      expect(updated).not.toHaveProperty('secret');
      if ('name' in updated) expect(updated.name, 'a name kept is the name last written').toBe('after');
      expect(updated.data).toEqual({ team: 'core' });
      (await ask(t.as(key.secret), createCollection('after_update'))).expectStatus(201);
      expectNoSecretIn(answers);
    },
  );

  check(
    ['KEY-LIFE-005'],
    'Update or Replace of a key with a field CreateKey refuses answers 400 validation failed and leaves the key unchanged; a name that is not a string is refused so, or not kept',
    async () => {
      const key = await newKey(t.admin, undefined, 'server', { data: { object: { label: 'shaped' } } });
      const stored = (await ask(t.admin, { get: key.ref })).expectStatus(200).resource;
      for (const fields of [{ data: 5n }, { database: 'x' }]) {
        (await ask(t.admin, { update: key.ref, params: { object: fields } })).expectStatus(400).expectErrorCode('validation failed');
      }
      (await ask(t.admin, { replace: key.ref, params: { object: { role: 'server', data: 'x' } } }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await ask(t.admin, { get: key.ref })).expectStatus(200).resource).toEqual(stored);
      // A server that keeps names refuses one that is not a string; one that keeps none (the real service) drops it.
      const named = await ask(t.admin, { update: key.ref, params: { object: { name: 5n } } });
      const after = (await ask(t.admin, { get: key.ref })).expectStatus(200).resource;
      if (named.status === 400) {
        named.expectErrorCode('validation failed');
        expect(after).toEqual(stored);
      } else {
        expect(named.expectStatus(200).resource).not.toHaveProperty('name');
        expect(after).not.toHaveProperty('name');
        expect(after.data).toEqual(stored.data);
      }
      (await ask(t.as(key.secret), createCollection('after_refused_updates'))).expectStatus(201);
      expectNoSecretIn(answers);
    },
  );

  check(
    ['KEY-LIFE-004', 'KEY-SECRET-005'],
    'A key has no expiry: a key created before the other tests of this file still works',
    async () => {
      expect((await ask(t.as(longLived.secret), { exists: collection('kept') })).expectStatus(200).resource).toBe(true);
      expectNoSecretIn(answers);
    },
  );
});
