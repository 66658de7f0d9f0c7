import { describe, expect } from 'vitest';
import { check, decimal, useTenant } from '../../harness/index.js';
import {
  collection,
  createCollection,
  createDoc,
  docRef,
  expectedCollectionRef,
  expectQueryError,
  expectRecord,
  NOT_FOUND,
  refPayload,
  txnTime,
} from '../../harness/v4.js';

const t = useTenant({ roles: ['admin', 'server'] });

/** How long the old name of a renamed collection may keep resolving (the real service's schema cache). */
const RENAME_SETTLE_MS = 30_000;

describe('CreateCollection', () => {
  check(
    ['COLL-CREATE-001', 'COLL-CREATE-002', 'COLL-CREATE-006'],
    'CreateCollection with a server key answers 201 with ref (collections/<name>), ts, name and an integer history_days',
    async () => {
      const res = (await t.server.query(createCollection('users'))).expectStatus(201);
      const record = res.resource;
      expectRecord('collection', record);
      expect(record.ref).toEqual(expectedCollectionRef('users'));
      expect(record.name).toBe('users');
      expect(record.ts).toBe(txnTime(res));
      expect(typeof record.history_days, 'history_days is an integer when not given').toBe('bigint');
      expect(record.history_days >= 0n).toBe(true);
    },
  );

  check(['COLL-CREATE-003'], 'CreateCollection without name answers 400 validation failed', async () => {
    (await t.server.query({ create_collection: { object: { history_days: 1n } } })).expectStatus(400).expectErrorCode('validation failed');
  });

  /** 400 `validation failed` with a failure of `code` on `name`, and no collection of that name afterwards. */
  async function expectNameRefused(name: string, code: string): Promise<void> {
    const res = (await t.server.query(createCollection(name))).expectStatus(400).expectErrorCode('validation failed');
    const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[]; code?: unknown }>;
    expect(
      failures.some((f) => Array.isArray(f.field) && f.field.join() === 'name' && f.code === code),
      res.explain(`has no ${code} failure on name`),
    ).toBe(true);
    expect((await t.server.query({ exists: collection(name) })).expectStatus(200).resource, `no collection ${JSON.stringify(name)}`).toBe(
      false,
    );
  }

  check(
    ['COLL-CREATE-009'],
    'CreateCollection accepts names of letters (not only ASCII), digits and ;@+$-_.!~%, and the ref carries the name as given',
    async () => {
      for (const name of ['users.v2', 'naïve~1', 'a@b$c+d!e%f;g', 'Ωmega_λ-9']) {
        const record = (await t.server.query(createCollection(name))).expectStatus(201).resource;
        expect(record.ref).toEqual(expectedCollectionRef(name));
        expect((await t.server.query({ get: collection(name) })).expectStatus(200).resource.name).toBe(name);
      }
    },
  );

  check(
    ['COLL-CREATE-010'],
    'CreateCollection with a name holding any other character answers 400 validation failed with invalid characters on name',
    async () => {
      for (const name of ['two words', 'a/b', 'a:b', 'quote"d', '', 'a,b', 'tab\tname'])
        await expectNameRefused(name, 'invalid characters');
    },
  );

  check(['COLL-CREATE-011'], 'CreateCollection named _ answers 400 validation failed with reserved name on name', async () => {
    await expectNameRefused('_', 'reserved name');
  });

  check(
    ['COLL-CREATE-012'],
    'CreateCollection named events, sets, self or instances is refused as a reserved name or creates the collection',
    async () => {
      for (const name of ['events', 'sets', 'self', 'instances']) {
        const res = await t.server.query(createCollection(name));
        if (res.status === 400) {
          await expectNameRefused(name, 'reserved name');
          continue;
        }
        const record = res.expectStatus(201).resource;
        expect([record.ref, record.name], res.explain('created another collection')).toEqual([expectedCollectionRef(name), name]);
        expect((await t.server.query({ get: collection(name) })).expectStatus(200).resource.name).toBe(name);
      }
    },
  );

  check(['COLL-CREATE-004'], 'CreateCollection with a name already used in the database answers 400 instance already exists', async () => {
    (await t.server.query(createCollection('dup'))).expectStatus(201);
    (await t.server.query(createCollection('dup'))).expectStatus(400).expectErrorCode('instance already exists');
    (await t.server.query({ create_class: { object: { name: 'dup' } } })).expectStatus(400).expectErrorCode('instance already exists');
  });

  check.each([0n, 7n, 365n])(['COLL-CREATE-005'], 'history_days %s given to CreateCollection is returned unchanged', async (days) => {
    const record = (await t.server.query(createCollection(`kept_${days}`, { history_days: days }))).expectStatus(201).resource;
    expect(record.history_days).toBe(days);
  });

  check(['COLL-CREATE-007'], 'create_class creates a collection just as create_collection does', async () => {
    const res = (await t.server.query({ create_class: { object: { name: 'legacy' } } })).expectStatus(201);
    expectRecord('collection', res.resource);
    expect(res.resource.ref).toEqual(expectedCollectionRef('legacy'));
    const got = (await t.server.query({ get: collection('legacy') })).expectStatus(200).resource;
    expect(got.ref).toEqual(expectedCollectionRef('legacy'));
    (await t.server.query(createDoc(collection('legacy'), { ok: true }))).expectStatus(201);
  });

  check.each([
    { label: '-1', value: -1n },
    { label: '1.5', value: decimal('1.5') },
    { label: '"3"', value: '3' },
  ])(['COLL-CREATE-008'], 'history_days $label answers 400 validation failed', async ({ label, value }) => {
    (await t.server.query(createCollection(`bad_history_${label.replace(/\W/g, '')}`, { history_days: value })))
      .expectStatus(400)
      .expectErrorCode('validation failed');
  });
});

/** A collection record that is the one Create answered (`created`): same ref, name, history_days and ts. */
function expectSameRecord(record: Record<string, unknown>, created: Record<string, unknown>, name: string, historyDays: bigint): void {
  expectRecord('collection', record);
  expect(record.ref).toEqual(created.ref);
  expect(record.name).toBe(name);
  expect(record.history_days).toBe(historyDays);
  expect(record.ts).toBe(created.ts);
}

describe('Collection reads and lifecycle', () => {
  check(['COLL-GET-001'], 'Get of a collection answers the record with the same ref, name and history_days', async () => {
    const created = (await t.server.query(createCollection('read_me', { history_days: 3n }))).expectStatus(201).resource;
    const got = (await t.server.query({ get: collection('read_me') })).expectStatus(200).resource;
    expectSameRecord(got, created, 'read_me', 3n);
  });

  check(['COLL-GET-002'], 'Paginating {"collections": null} lists the refs of the database\'s collections', async () => {
    const names = ['listed_a', 'listed_b', 'listed_c'];
    (await t.server.query(names.map((n) => createCollection(n)))).expectStatus(200, 201);
    const page = (await t.server.query({ paginate: { collections: null }, size: 1000n })).expectStatus(200).resource;
    for (const n of names) expect(page.data).toContainEqual(expectedCollectionRef(n));
    for (const ref of page.data) expect(refPayload(ref).collection).toEqual({ '@ref': { id: 'collections' } });
  });

  check(
    ['COLL-LIFE-001', 'COLL-LIFE-002', 'COLL-LIFE-003'],
    'Delete of a collection answers its record; afterwards its documents are not found and Create in it answers 400 invalid ref',
    async () => {
      const created = (await t.server.query(createCollection('gone', { history_days: 2n }))).expectStatus(201).resource;
      (await t.server.query(createDoc(docRef('gone', '11'), { v: 1n }))).expectStatus(201);
      const deleted = (await t.server.query({ delete: collection('gone') })).expectStatus(200).resource;
      // The record as it was: its last version's ts, not the time of the deletion.
      expectSameRecord(deleted, created, 'gone', 2n);

      expectQueryError(await t.server.query({ get: docRef('gone', '11') }), ...NOT_FOUND);
      (await t.server.query(createDoc(collection('gone'), { v: 2n }))).expectStatus(400).expectErrorCode('invalid ref');
      expect((await t.server.query({ exists: collection('gone') })).expectStatus(200).resource).toBe(false);
    },
  );

  check(['COLL-LIFE-004'], 'Create in a collection that never existed answers 400 invalid ref', async () => {
    (await t.server.query(createDoc(collection('never_was'), { v: 1n }))).expectStatus(400).expectErrorCode('invalid ref');
    (await t.server.query(createDoc(docRef('never_was', '5'), { v: 1n }))).expectStatus(400).expectErrorCode('invalid ref');
  });

  check(
    ['COLL-LIFE-006'],
    'Update or Replace of a collection with a field CreateCollection refuses answers 400 validation failed and leaves the collection unchanged',
    async () => {
      (await t.server.query(createCollection('kept_shape', { history_days: 3n }))).expectStatus(201);
      const stored = (await t.server.query({ get: collection('kept_shape') })).expectStatus(200).resource;
      for (const fields of [{ history_days: 'x' }, { history_days: -1n }, { data: 5n }, { name: 5n }, { name: 'bad name!' }]) {
        (await t.server.query({ update: collection('kept_shape'), params: { object: fields } }))
          .expectStatus(400)
          .expectErrorCode('validation failed');
      }
      (await t.server.query({ replace: collection('kept_shape'), params: { object: { name: 'kept_shape', history_days: 'x' } } }))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await t.server.query({ get: collection('kept_shape') })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(['COLL-LIFE-007'], 'Replace of a collection without name or history_days keeps them and replaces the rest', async () => {
    (await t.server.query(createCollection('replaced_shape', { history_days: 4n, data: { a: 1n } }))).expectStatus(201);
    const res = (
      await t.server.query({ replace: collection('replaced_shape'), params: { object: { data: { object: { b: 2n } } } } })
    ).expectStatus(200).resource;
    expect(res.ref).toEqual(expectedCollectionRef('replaced_shape'));
    const after = (await t.server.query({ get: collection('replaced_shape') })).expectStatus(200).resource;
    expect([after.name, after.history_days, after.data]).toEqual(['replaced_shape', 4n, { b: 2n }]);
  });

  /** Polls until the old name of a renamed collection no longer resolves; the real service lets it go with its schema cache. */
  async function expectNameGone(name: string): Promise<void> {
    const deadline = Date.now() + RENAME_SETTLE_MS;
    for (;;) {
      const res = await t.server.query({ get: collection(name) });
      if (res.status !== 200 || Date.now() > deadline) {
        res.expectStatus(400).expectErrorCode('invalid ref');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    (await t.server.query(createDoc(collection(name), { v: 1n }))).expectStatus(400).expectErrorCode('invalid ref');
    (await t.server.query({ get: docRef(name, '1') })).expectStatus(400).expectErrorCode('invalid ref');
  }

  check(
    ['COLL-LIFE-008'],
    'Update or Replace with a new name renames a collection, which keeps its documents; the old name stops resolving',
    async () => {
      (await t.server.query(createCollection('hermit_huts', { history_days: 3n }))).expectStatus(201);
      (await t.server.query(createDoc(docRef('hermit_huts', '1'), { n: 1n, tags: ['a'] }))).expectStatus(201);
      (await t.server.query(createDoc(docRef('hermit_huts', '2'), { n: 2n }))).expectStatus(201);

      const renamed = (
        await t.server.query({ update: collection('hermit_huts'), params: { object: { name: 'decrepit_huts' } } })
      ).expectStatus(200).resource;
      expectRecord('collection', renamed);
      expect([renamed.ref, renamed.name, renamed.history_days]).toEqual([expectedCollectionRef('decrepit_huts'), 'decrepit_huts', 3n]);
      const got = (await t.server.query({ get: collection('decrepit_huts') })).expectStatus(200).resource;
      expect([got.ref, got.name]).toEqual([expectedCollectionRef('decrepit_huts'), 'decrepit_huts']);
      for (const [id, data] of [
        ['1', { n: 1n, tags: ['a'] }],
        ['2', { n: 2n }],
      ] as const) {
        const doc = (await t.server.query({ get: docRef('decrepit_huts', id) })).expectStatus(200).resource;
        expect([doc.ref, doc.data]).toEqual([{ '@ref': { id, collection: expectedCollectionRef('decrepit_huts') } }, data]);
      }
      (await t.server.query(createDoc(docRef('decrepit_huts', '3'), { n: 3n }))).expectStatus(201);
      await expectNameGone('hermit_huts');

      // Back again, by Replace.
      const back = (
        await t.server.query({ replace: collection('decrepit_huts'), params: { object: { name: 'hermit_huts', history_days: 3n } } })
      ).expectStatus(200).resource;
      expect([back.ref, back.name]).toEqual([expectedCollectionRef('hermit_huts'), 'hermit_huts']);
      const page = (await t.server.query({ paginate: { documents: collection('hermit_huts') } })).expectStatus(200).resource;
      expect(page.data).toEqual(['1', '2', '3'].map((id) => ({ '@ref': { id, collection: expectedCollectionRef('hermit_huts') } })));
      await expectNameGone('decrepit_huts');
    },
    { timeout: 2 * RENAME_SETTLE_MS + 30_000 },
  );

  check(['COLL-LIFE-005'], "Update of a collection's history_days is returned by a later Get", async () => {
    (await t.server.query(createCollection('retuned', { history_days: 1n }))).expectStatus(201);
    const updated = (await t.server.query({ update: collection('retuned'), params: { object: { history_days: 9n } } })).expectStatus(
      200,
    ).resource;
    expect(updated.history_days).toBe(9n);
    expect((await t.server.query({ get: collection('retuned') })).expectStatus(200).resource.history_days).toBe(9n);
  });
});

describe('Collection wording by API version', () => {
  check(
    ['PROTO-VERSION-002', 'COLL-CREATE-007'],
    'Without an API version header a collection record names its native collection under class',
    async () => {
      const res = (await t.server.query(createCollection('old_words'), { apiVersion: null })).expectStatus(201);
      expect(res.resource.ref).toEqual({ '@ref': { id: 'old_words', class: { '@ref': { id: 'classes' } } } });
      const doc = (await t.server.query(createDoc(collection('old_words'), { a: 1n }), { apiVersion: null })).expectStatus(201).resource;
      expect(refPayload(doc.ref).class).toEqual({ '@ref': { id: 'old_words', class: { '@ref': { id: 'classes' } } } });
      expect(refPayload(doc.ref)).not.toHaveProperty('collection');
    },
  );

  check(['PROTO-VERSION-003'], 'With API version 2.1 a collection record names its native collection under class', async () => {
    (await t.server.query(createCollection('v21_words'))).expectStatus(201);
    const got = (await t.server.query({ get: collection('v21_words') }, { apiVersion: '2.1' })).expectStatus(200).resource;
    expect(got.ref).toEqual({ '@ref': { id: 'v21_words', class: { '@ref': { id: 'classes' } } } });
  });

  check(['PROTO-VERSION-001', 'PROTO-VERSION-007'], 'With API version 4 the same records name collection and collections', async () => {
    (await t.server.query(createCollection('new_words'), { apiVersion: null })).expectStatus(201);
    const got = (await t.server.query({ get: collection('new_words') }, { apiVersion: '4' })).expectStatus(200).resource;
    expect(got.ref).toEqual(expectedCollectionRef('new_words'));
  });
});
