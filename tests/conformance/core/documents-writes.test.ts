import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import {
  collection,
  createCollection,
  createDoc,
  docRef,
  expectRecord,
  literal,
  refPayload,
  txnTime,
  updateDoc,
} from '../../harness/v4.js';

const t = useTenant({ roles: ['server'] });

beforeAll(async () => {
  (await t.server.query([createCollection('notes'), createCollection('listed')])).expectStatus(200, 201);
});

async function create(data: Record<string, unknown>): Promise<{ ref: unknown; ts: bigint; data: unknown }> {
  return (await t.server.query(createDoc(collection('notes'), data))).expectStatus(201).resource;
}

const replace = (ref: unknown, data: Record<string, unknown>): unknown => ({ replace: ref, params: literal({ data }) });

describe('Update', () => {
  check(
    ['DOC-UPDATE-001', 'DOC-UPDATE-004'],
    'Update merges the given fields into data, keeps the others and answers a version with a greater ts',
    async () => {
      const before = await create({ a: 1n, b: 'keep' });
      const res = (await t.server.query(updateDoc(before.ref, { a: 2n, c: true }))).expectStatus(200);
      const after = res.resource;
      expectRecord('document', after);
      expect(after.ref).toEqual(before.ref);
      expect(after.data).toEqual({ a: 2n, b: 'keep', c: true });
      expect(after.ts > before.ts).toBe(true);
      expect(after.ts).toBe(txnTime(res));
      expect((await t.server.query({ get: before.ref })).expectStatus(200).resource.data).toEqual({ a: 2n, b: 'keep', c: true });
    },
  );

  check(['DOC-UPDATE-002'], 'Update merges nested objects field by field', async () => {
    const doc = await create({ profile: { name: 'Ada', address: { city: 'London', zip: 'N1' } }, top: 1n });
    const after = (await t.server.query(updateDoc(doc.ref, { profile: { address: { city: 'Paris' }, age: 36n } }))).expectStatus(
      200,
    ).resource;
    expect(after.data).toEqual({ profile: { name: 'Ada', address: { city: 'Paris', zip: 'N1' }, age: 36n }, top: 1n });
  });

  check(['DOC-UPDATE-003'], 'Update with a field set to null removes that field', async () => {
    const doc = await create({ gone: 'soon', nested: { drop: 1n, keep: 2n }, stays: true });
    const after = (await t.server.query(updateDoc(doc.ref, { gone: null, nested: { drop: null } }))).expectStatus(200).resource;
    expect(after.data).toEqual({ nested: { keep: 2n }, stays: true });
    const got = (await t.server.query({ get: doc.ref })).expectStatus(200).resource;
    expect(got.data).not.toHaveProperty('gone');
    expect(got.data.nested).not.toHaveProperty('drop');
  });

  check(['DOC-UPDATE-005'], 'Update of a missing document answers 404 instance not found', async () => {
    (await t.server.query(updateDoc(docRef('notes', '404404'), { a: 1n }))).expectStatus(404).expectErrorCode('instance not found');
    expect((await t.server.query({ exists: docRef('notes', '404404') })).expectStatus(200).resource).toBe(false);
  });

  check(['DOC-UPDATE-006'], 'Update replaces arrays as a whole', async () => {
    const doc = await create({ tags: ['a', 'b', 'c'], grid: [[1n, 2n], [3n]] });
    const after = (await t.server.query(updateDoc(doc.ref, { tags: ['z'], grid: [[9n]] }))).expectStatus(200).resource;
    expect(after.data).toEqual({ tags: ['z'], grid: [[9n]] });
  });
});

describe('Replace', () => {
  check(['DOC-REPLACE-001', 'DOC-REPLACE-002'], 'Replace replaces data entirely and answers the same ref with a greater ts', async () => {
    const before = await create({ a: 1n, b: { inner: 'x', other: 'y' } });
    const res = (await t.server.query(replace(before.ref, { b: { inner: 'z' }, c: 3n }))).expectStatus(200);
    const after = res.resource;
    expectRecord('document', after);
    expect(after.ref).toEqual(before.ref);
    expect(after.data).toEqual({ b: { inner: 'z' }, c: 3n });
    expect(after.ts > before.ts).toBe(true);
    expect(after.ts).toBe(txnTime(res));
    expect((await t.server.query({ get: before.ref })).expectStatus(200).resource.data).toEqual({ b: { inner: 'z' }, c: 3n });
  });

  check(['DOC-REPLACE-003'], 'Replace of a missing document answers 404 instance not found', async () => {
    (await t.server.query(replace(docRef('notes', '505505'), { a: 1n }))).expectStatus(404).expectErrorCode('instance not found');
    expect((await t.server.query({ exists: docRef('notes', '505505') })).expectStatus(200).resource).toBe(false);
  });
});

describe('Delete and Exists', () => {
  check(
    ['DOC-DELETE-001', 'DOC-DELETE-002', 'DOC-LIFE-001'],
    'Delete answers the document as it was; afterwards Get answers 404 and Exists false',
    async () => {
      const doc = await create({ last: 'words' });
      const updated = (await t.server.query(updateDoc(doc.ref, { extra: 1n }))).expectStatus(200).resource;
      expect((await t.server.query({ exists: doc.ref })).expectStatus(200).resource).toBe(true);

      const deleted = (await t.server.query({ delete: doc.ref })).expectStatus(200).resource;
      expectRecord('document', deleted);
      expect(deleted.ref).toEqual(doc.ref);
      expect(deleted.data).toEqual({ last: 'words', extra: 1n });
      expect(deleted.ts).toBe(updated.ts);

      (await t.server.query({ get: doc.ref })).expectStatus(404).expectErrorCode('instance not found');
      expect((await t.server.query({ exists: doc.ref })).expectStatus(200).resource).toBe(false);
    },
  );

  check(
    ['DOC-DELETE-003', 'DOC-LIFE-001'],
    'Delete of a missing document answers 404 instance not found; Exists of a never-created one is false',
    async () => {
      (await t.server.query({ delete: docRef('notes', '606606') })).expectStatus(404).expectErrorCode('instance not found');
      expect((await t.server.query({ exists: docRef('notes', '606606') })).expectStatus(200).resource).toBe(false);
      const doc = await create({ twice: true });
      (await t.server.query({ delete: doc.ref })).expectStatus(200);
      (await t.server.query({ delete: doc.ref })).expectStatus(404).expectErrorCode('instance not found');
    },
  );

  check(['DOC-LIFE-002'], 'A document deleted and created again with the same id answers the new data on Get', async () => {
    const ref = docRef('notes', '707707');
    (await t.server.query(createDoc(ref, { generation: 1n, only_first: true }))).expectStatus(201);
    (await t.server.query({ delete: ref })).expectStatus(200);
    const again = (await t.server.query(createDoc(ref, { generation: 2n }))).expectStatus(201).resource;
    expect(refPayload(again.ref).id).toBe('707707');
    expect((await t.server.query({ get: ref })).expectStatus(200).resource.data).toEqual({ generation: 2n });
  });

  check(['DOC-LIFE-003'], 'Paginating {"documents": <collection>} lists the live documents and no deleted ones', async () => {
    const created = (await t.server.query(['a', 'b', 'c', 'd'].map((n) => createDoc(collection('listed'), { n })))).expectStatus(200, 201)
      .resource as Array<{ ref: unknown }>;
    (await t.server.query({ delete: created[1]!.ref })).expectStatus(200);
    const page = (await t.server.query({ paginate: { documents: collection('listed') }, size: 100n })).expectStatus(200).resource;
    const live = [created[0]!.ref, created[2]!.ref, created[3]!.ref];
    expect(page.data).toHaveLength(3);
    for (const ref of live) expect(page.data).toContainEqual(ref);
    expect(page.data).not.toContainEqual(created[1]!.ref);
  });
});
