import { beforeAll, describe, expect } from 'vitest';
import { check, decimal, useTenant } from '../../harness/index.js';
import {
  collection,
  createCollection,
  createDoc,
  docRef,
  expectedCollectionRef,
  expectRecord,
  literal,
  refPayload,
  txnTime,
} from '../../harness/v4.js';

const t = useTenant({ roles: ['admin', 'server'] });

beforeAll(async () => {
  // history_days is explicit so that reads at an earlier ts are within retention on any server.
  (await t.server.query([createCollection('docs', { history_days: 30n }), createCollection('other')])).expectStatus(200, 201);
});

describe('Create', () => {
  check(
    ['DOC-CREATE-001', 'DOC-CREATE-002', 'DOC-CREATE-007'],
    'Create answers 201 with ref (<collection>/<server-chosen id>), ts = x-txn-time and data',
    async () => {
      const res = (await t.server.query(createDoc(collection('docs'), { name: 'Ada' }))).expectStatus(201);
      const doc = res.resource;
      expectRecord('document', doc);
      const ref = refPayload(doc.ref);
      expect(ref.collection).toEqual(expectedCollectionRef('docs'));
      expect(ref.id.length).toBeGreaterThan(0);
      expect(typeof doc.ts, 'ts is an integer').toBe('bigint');
      expect(doc.ts).toBe(txnTime(res));
      expect(doc.data).toEqual({ name: 'Ada' });
    },
  );

  check(['DOC-CREATE-003'], 'Documents created in one collection get pairwise different ids', async () => {
    const batch = (
      await t.server.query(Array.from({ length: 10 }, (_, i) => createDoc(collection('docs'), { i: BigInt(i) })))
    ).expectStatus(200, 201);
    const single = [];
    for (let i = 0; i < 3; i += 1)
      single.push((await t.server.query(createDoc(collection('docs'), { single: true }))).expectStatus(201).resource);
    const ids = [...batch.resource, ...single].map((doc: { ref: unknown }) => refPayload(doc.ref).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  check(['DOC-CREATE-004'], 'Create with {"ref": <collection>, "id": "<digits>"} creates the document with that id', async () => {
    const doc = (await t.server.query(createDoc(docRef('docs', '4242'), { chosen: true }))).expectStatus(201).resource;
    expect(refPayload(doc.ref).id).toBe('4242');
    expect(refPayload(doc.ref).collection).toEqual(expectedCollectionRef('docs'));
    expect((await t.server.query({ get: docRef('docs', '4242') })).expectStatus(200).resource.data).toEqual({ chosen: true });
  });

  check(
    ['DOC-CREATE-011'],
    'A document id that is not a 64-bit integer answers 400 invalid argument at the id, and nothing is written',
    async () => {
      const refused = [
        { id: 'abc', description: "Number or numeric String expected, non-numeric 'abc' provided." },
        { id: '12x', description: "Number or numeric String expected, non-numeric '12x' provided." },
        { id: '9223372036854775808', description: "The id provided is too large: '9223372036854775808'" },
        { id: '99999999999999999999', description: "The id provided is too large: '99999999999999999999'" },
      ];
      for (const { id, description } of refused) {
        const viaRef = await t.server.query(createDoc(docRef('docs', id), { refused: true }));
        viaRef.expectStatus(400).expectErrorCode('invalid argument');
        expect(
          [viaRef.body.errors[0].position, viaRef.body.errors[0].description],
          viaRef.explain('refuses the id elsewhere or in other words'),
        ).toEqual([['create', 'id'], description]);
        const literal = { '@ref': { id, collection: expectedCollectionRef('docs') } };
        const viaLiteral = await t.server.query({ create: literal, params: { object: { data: { object: { refused: true } } } } });
        viaLiteral.expectStatus(400).expectErrorCode('invalid argument');
        expect(viaLiteral.body.errors[0].position, viaLiteral.explain("refuses the literal's id elsewhere")).toEqual(['create', 'id']);
      }
      const page = (await t.server.query({ paginate: { documents: collection('docs') }, size: 10_000n })).expectStatus(200).resource;
      expect(
        page.data.map((ref: unknown) => refPayload(ref).id).filter((id: string) => !/^\d+$/.test(id) || id.length > 19),
        'documents written with a refused id',
      ).toEqual([]);
      const largest = (await t.server.query(createDoc(docRef('docs', '9223372036854775807'), { largest: true }))).expectStatus(
        201,
      ).resource;
      expect(refPayload(largest.ref).id).toBe('9223372036854775807');
      // Ids the server generates afterwards are still 64-bit.
      const generated = refPayload(
        (await t.server.query(createDoc(collection('docs'), { after: true }))).expectStatus(201).resource.ref,
      ).id;
      expect(generated, 'a generated id').toMatch(/^\d+$/);
      expect(BigInt(generated) <= 9223372036854775807n, `generated id ${generated} is beyond 64 bits`).toBe(true);
    },
  );

  check(['DOC-CREATE-010'], 'Create with a collection ref never replaces a document created with an id the client chose', async () => {
    // Ids a server is likely to generate next, whether it counts up or derives ids from the time in milliseconds
    // (as the real service's do); on a server that generates ids otherwise they are just ids chosen by the client.
    const seed = refPayload((await t.server.query(createDoc(collection('other'), { seed: true }))).expectStatus(201).resource.ref).id;
    const chosen = new Set<string>();
    if (/^[1-9]\d*$/.test(seed)) {
      const start = BigInt(seed);
      const millisecond = (start / 1_000_000n) * 1_000_000n;
      for (let k = 1n; k <= 40n; k += 1n) chosen.add((start + k).toString());
      for (let k = 1n; k <= 400n; k += 1n) chosen.add((millisecond + k * 1_000_000n).toString());
    }
    const ids = [...chosen];
    for (let i = 0; i < ids.length; i += 100) {
      (await t.server.query(ids.slice(i, i + 100).map((id) => createDoc(docRef('other', id), { chosen: id })))).expectStatus(200, 201);
    }
    const generated: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      const doc = (await t.server.query(createDoc(collection('other'), { generated: BigInt(i) }))).expectStatus(201).resource;
      generated.push(refPayload(doc.ref).id);
    }
    expect(
      generated.filter((id) => chosen.has(id)),
      'generated ids that were already taken',
    ).toEqual([]);
    const readBack = (
      await t.server.query(ids.map((id) => ({ select: ['data', 'chosen'], from: { get: docRef('other', id) } })))
    ).expectStatus(200).resource;
    expect(readBack, 'every document created with a chosen id keeps its data').toEqual(ids);
  });

  check(
    ['DOC-CREATE-005'],
    'Creating a document whose id already exists answers 400 instance already exists and changes nothing',
    async () => {
      const first = (await t.server.query(createDoc(docRef('docs', '5151'), { v: 'first' }))).expectStatus(201).resource;
      (await t.server.query(createDoc(docRef('docs', '5151'), { v: 'second' })))
        .expectStatus(400)
        .expectErrorCode('instance already exists');
      const got = (await t.server.query({ get: docRef('docs', '5151') })).expectStatus(200).resource;
      expect(got.data).toEqual({ v: 'first' });
      expect(got.ts).toBe(first.ts);
    },
  );

  check(['DOC-CREATE-006'], 'data of the answer equals the data sent: nested objects, arrays, strings, numbers and booleans', async () => {
    const data = {
      text: 'héllo ✓ "quoted" \\ back',
      empty: '',
      int: 42n,
      negative: -7n,
      big: 9007199254740993n,
      dec: decimal('1.5'),
      whole_decimal: decimal('2.0'),
      yes: true,
      no: false,
      list: [1n, 'two', [3n, { four: 4n }], false],
      nested: { deeper: { deepest: 'bottom', n: 0n }, sibling: [] },
      nothing: {},
    };
    const created = (await t.server.query(createDoc(collection('docs'), data))).expectStatus(201).resource;
    const expected = { ...data, dec: 1.5, whole_decimal: 2 };
    expect(created.data).toEqual(expected);
    expect(typeof created.data.whole_decimal, 'a decimal stays a decimal').toBe('number');
    expect(typeof created.data.int, 'an integer stays an integer').toBe('bigint');
    expect((await t.server.query({ get: created.ref })).expectStatus(200).resource.data).toEqual(expected);
  });

  check(['DOC-CREATE-012'], 'Create, Update and Replace drop nulls wherever they stand, array elements included', async () => {
    const created = (
      await t.server.query(createDoc(collection('docs'), { l: [1n, null, 2n], m: [{ a: null, b: 1n }, [null]], kept: 'x' }))
    ).expectStatus(201).resource;
    expect(created.data).toEqual({ l: [1n, 2n], m: [{ b: 1n }, []], kept: 'x' });
    expect((await t.server.query({ get: created.ref })).expectStatus(200).resource.data).toEqual({
      l: [1n, 2n],
      m: [{ b: 1n }, []],
      kept: 'x',
    });
    const updated = (
      await t.server.query({ update: created.ref, params: { object: { data: literal({ l: [null, 3n], n: { x: null, y: 1n } }) } } })
    ).expectStatus(200).resource;
    expect(updated.data).toEqual({ l: [3n], m: [{ b: 1n }, []], kept: 'x', n: { y: 1n } });
    const replaced = (
      await t.server.query({ replace: created.ref, params: { object: { data: literal({ r: [null, { z: [null, 'z'] }] }) } } })
    ).expectStatus(200).resource;
    expect(replaced.data).toEqual({ r: [{ z: ['z'] }] });
    expect((await t.server.query({ get: created.ref })).expectStatus(200).resource.data).toEqual({ r: [{ z: ['z'] }] });
  });

  check(['DOC-CREATE-008'], 'A data field set to null in Create is absent from the stored document', async () => {
    const doc = (await t.server.query(createDoc(collection('docs'), { kept: 1n, dropped: null }))).expectStatus(201).resource;
    expect(doc.data).toEqual({ kept: 1n });
    const got = (await t.server.query({ get: doc.ref })).expectStatus(200).resource;
    expect(got.data).toEqual({ kept: 1n });
    expect(got.data).not.toHaveProperty('dropped');
  });

  check.each([
    { label: 'a string', data: 'text' },
    { label: 'a number', data: 5n },
    { label: 'an array', data: ['a'] },
    { label: 'a boolean', data: true },
  ])(['DOC-CREATE-009'], 'Create with data that is $label answers 400', async ({ data }) => {
    const res = await t.server.query({ create: collection('other'), params: { object: { data: literal(data) } } });
    res.expectStatus(400).expectErrorCode('validation failed', 'invalid argument');
  });
});

describe('Get', () => {
  check(['DOC-GET-001'], 'Get answers the current version: the same ref, the latest ts and data', async () => {
    const created = (await t.server.query(createDoc(collection('docs'), { v: 1n }))).expectStatus(201).resource;
    const updated = (await t.server.query({ update: created.ref, params: literal({ data: { v: 2n } }) })).expectStatus(200).resource;
    const got = (await t.server.query({ get: created.ref })).expectStatus(200).resource;
    expectRecord('document', got);
    expect(got.ref).toEqual(created.ref);
    expect(got.ts).toBe(updated.ts);
    expect(got.ts > created.ts).toBe(true);
    expect(got.data).toEqual({ v: 2n });
  });

  check(['DOC-GET-002'], 'Get of a ref that never existed answers 404 instance not found', async () => {
    (await t.server.query({ get: docRef('docs', '999999999') })).expectStatus(404).expectErrorCode('instance not found');
  });

  check(['DOC-GET-003'], 'Get accepts the long @ref, the short @ref string and {"ref", "id"} and answers the same document', async () => {
    const created = (await t.server.query(createDoc(docRef('docs', '3030'), { forms: 'all' }))).expectStatus(201).resource;
    const forms = [
      { '@ref': { id: '3030', collection: { '@ref': { id: 'docs', collection: { '@ref': { id: 'collections' } } } } } },
      { '@ref': 'collections/docs/3030' },
      docRef('docs', '3030'),
      { ref: { class: 'docs' }, id: '3030' },
    ];
    for (const form of forms) {
      const got = (await t.server.query({ get: form })).expectStatus(200).resource;
      expect(got.ref, JSON.stringify(form)).toEqual(created.ref);
      expect(got.data).toEqual({ forms: 'all' });
    }
  });

  check(['DOC-GET-004'], 'Get with ts answers the version that was current at that time', async () => {
    const v1 = (await t.server.query(createDoc(collection('docs'), { version: 1n }))).expectStatus(201).resource;
    const v2 = (await t.server.query({ update: v1.ref, params: literal({ data: { version: 2n } }) })).expectStatus(200).resource;
    const v3 = (await t.server.query({ update: v1.ref, params: literal({ data: { version: 3n } }) })).expectStatus(200).resource;

    const atV1 = (await t.server.query({ get: v1.ref, ts: v1.ts })).expectStatus(200).resource;
    expect(atV1.data).toEqual({ version: 1n });
    expect(atV1.ts).toBe(v1.ts);
    // Between two versions, the earlier one is current.
    const betweenV2V3 = (await t.server.query({ get: v1.ref, ts: v3.ts - 1n })).expectStatus(200).resource;
    expect(betweenV2V3.data).toEqual({ version: 2n });
    expect(betweenV2V3.ts).toBe(v2.ts);
    expect((await t.server.query({ get: v1.ref, ts: v3.ts })).expectStatus(200).resource.data).toEqual({ version: 3n });
    // Before the document existed there is nothing.
    (await t.server.query({ get: v1.ref, ts: v1.ts - 1n })).expectStatus(404).expectErrorCode('instance not found');
  });
});
