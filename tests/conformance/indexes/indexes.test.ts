import { describe, expect } from 'vitest';
import { check, uniqueName, useTenant } from '../../harness/index.js';
import {
  collection,
  createActiveIndex,
  createDoc,
  createIndex,
  expectQueryError,
  index,
  INVALID_DEFINITION,
  match,
  NO_INDEX,
  paginate,
  refId,
  roleKeySecret,
  waitActive,
} from '../../harness/v4.js';
import type { WireValue } from '../../harness/model/wire-order.js';

const t = useTenant({ roles: ['admin', 'server', 'client'] });

/** A fresh collection holding `docs` (one request each), returning its name and the created refs. */
async function seeded(docs: Array<Record<string, unknown>>): Promise<{ coll: string; refs: WireValue[] }> {
  const coll = uniqueName('c');
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  if (docs.length === 0) return { coll, refs: [] };
  const res = (await t.server.query(docs.map((d) => createDoc(coll, d)))).expectStatus(200, 201);
  return { coll, refs: (res.resource as Array<{ ref: WireValue }>).map((d) => d.ref) };
}

const ids = (data: WireValue[]): string[] => data.map(refId).sort();

// Every test works in collections and indexes of its own (the listing test asks only about its own), so the tests of
// each block run at once: against a distant server the file is otherwise one of the suite's longest chains of round trips.

describe.concurrent('Definition', () => {
  check(
    ['IDX-DEF-001', 'IDX-DEF-005', 'IDX-ATTR-001', 'IDX-ATTR-002', 'IDX-ATTR-005'],
    'create_index answers 201 with ref in indexes, ts, name, source, active, and returns terms, values, unique, serialized, partitions, permissions as given',
    async () => {
      const { coll } = await seeded([]);
      const name = uniqueName('i');
      const res = (
        await t.server.query(
          createIndex({
            name,
            source: collection(coll),
            terms: [{ field: ['data', 'a'] }],
            values: [{ field: ['data', 'b'], reverse: true }],
            unique: true,
            serialized: false,
            partitions: 3n,
            permissions: { object: { read: 'public' } },
          }),
        )
      ).expectStatus(201);
      const r = res.resource;
      expect(r.ref).toEqual({ '@ref': { id: name, collection: { '@ref': { id: 'indexes' } } } });
      expect(typeof r.ts).toBe('bigint');
      expect(r.name).toBe(name);
      expect(r.source).toEqual({ '@ref': { id: coll, collection: { '@ref': { id: 'collections' } } } });
      expect(typeof r.active).toBe('boolean');
      expect(r.terms).toEqual([{ field: ['data', 'a'] }]);
      expect(r.values).toEqual([{ field: ['data', 'b'], reverse: true }]);
      expect(r.unique).toBe(true);
      expect(r.serialized).toBe(false);
      expect(r.partitions).toBe(3n);
      expect(r.permissions).toEqual({ read: 'public' });
    },
  );

  check(['IDX-DEF-002'], 'create_index without name or without source answers 400 validation failed', async () => {
    const { coll } = await seeded([]);
    (await t.server.query({ create_index: { object: { source: collection(coll) } } }))
      .expectStatus(400)
      .expectErrorCode('validation failed');
    (await t.server.query({ create_index: { object: { name: uniqueName('i') } } })).expectStatus(400).expectErrorCode('validation failed');
  });

  check(
    ['IDX-DEF-007'],
    'Update or Replace of an index with a field create_index refuses answers 400 validation failed and leaves the index unchanged',
    async () => {
      const { coll } = await seeded([]);
      const name = uniqueName('i');
      (await t.server.query(createIndex({ name, source: collection(coll), terms: [{ field: ['data', 'a'] }] }))).expectStatus(201);
      const stored = (await t.server.query({ get: index(name) })).expectStatus(200).resource;
      for (const fields of [{ unique: 'yes' }, { serialized: 1n }, { name: 5n }]) {
        (await t.server.query({ update: index(name), params: { object: fields } })).expectStatus(400).expectErrorCode('validation failed');
      }
      (
        await t.server.query({
          replace: index(name),
          params: { object: { name, source: collection(coll), terms: [{ object: { field: ['data', 'a'] } }], unique: 'yes' } },
        })
      )
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect((await t.server.query({ get: index(name) })).expectStatus(200).resource).toEqual(stored);
    },
  );

  check(['IDX-DEF-003'], 'create_index with a name already used by an index answers 400 instance already exists', async () => {
    const { coll } = await seeded([]);
    const name = uniqueName('i');
    (await t.server.query(createIndex({ name, source: collection(coll) }))).expectStatus(201);
    (await t.server.query(createIndex({ name, source: collection(coll) }))).expectStatus(400).expectErrorCode('instance already exists');
  });

  check(
    ['IDX-DEF-008'],
    'The index name _ is refused with 400 validation failed, failure reserved name on name, and nothing is created',
    async () => {
      const { coll } = await seeded([]);
      const res = (await t.server.query(createIndex({ name: '_', source: collection(coll) })))
        .expectStatus(400)
        .expectErrorCode('validation failed');
      expect(res.body.errors[0].failures).toContainEqual(expect.objectContaining({ field: ['name'], code: 'reserved name' }));
      expectQueryError(await t.server.query({ get: index('_') }), ...NO_INDEX);
    },
  );

  check.each(['events', 'sets', 'self', 'instances'])(
    ['IDX-DEF-009'],
    'The index name %s either creates the index or answers 400 validation failed and creates nothing',
    async (name) => {
      const { coll } = await seeded([]);
      const res = await t.server.query(createIndex({ name: name as string, source: collection(coll) }));
      if (res.status === 201) {
        expect(res.resource.name).toBe(name);
        expect((await t.server.query({ get: index(name as string) })).expectStatus(200).resource.name).toBe(name);
        return;
      }
      res.expectStatus(400).expectErrorCode('validation failed');
      expectQueryError(await t.server.query({ get: index(name as string) }), ...NO_INDEX);
    },
  );

  check(['IDX-DEF-006'], 'A client key cannot create an index (403 permission denied)', async () => {
    const { coll } = await seeded([]);
    (await t.client.query(createIndex({ name: uniqueName('i'), source: collection(coll) })))
      .expectStatus(403)
      .expectErrorCode('permission denied');
  });

  check(
    ['LIMIT-PART-001', 'LIMIT-PART-002'],
    'partitions above 8, 0 or negative answer 400 validation failed and create no index',
    async () => {
      const { coll } = await seeded([]);
      for (const partitions of [9n, 0n, -1n]) {
        const name = uniqueName('i');
        (await t.server.query(createIndex({ name, source: collection(coll), partitions })))
          .expectStatus(400)
          .expectErrorCode('validation failed');
        expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX, [404, 'instance not found']);
      }
    },
  );

  check(['IDX-ATTR-003'], 'Without partitions, a term-less index reports 8 whatever its source, and a termed index 1', async () => {
    const { coll } = await seeded([]);
    const other = await seeded([]);
    expect(
      (await t.server.query(createIndex({ name: uniqueName('i'), source: collection(coll) }))).expectStatus(201).resource.partitions,
    ).toBe(8n);
    const both = [{ object: { collection: collection(coll) } }, { object: { collection: collection(other.coll) } }];
    expect((await t.server.query(createIndex({ name: uniqueName('i'), source: both }))).expectStatus(201).resource.partitions).toBe(8n);
    expect(
      (
        await t.server.query(createIndex({ name: uniqueName('i'), source: collection(coll), terms: [{ field: ['data', 'x'] }] }))
      ).expectStatus(201).resource.partitions,
    ).toBe(1n);
  });
});

describe.concurrent('Sources and bindings', () => {
  check(
    ['IDX-SOURCE-001', 'IDX-SOURCE-002'],
    'A single collection ref indexes that collection; an array of source objects indexes every named one',
    async () => {
      const a = await seeded([{ k: 1n }]);
      const b = await seeded([{ k: 1n }]);
      const single = uniqueName('i');
      const multi = uniqueName('i');
      await createActiveIndex(t.server, { name: single, source: collection(a.coll) });
      await createActiveIndex(t.server, {
        name: multi,
        source: [{ object: { collection: collection(a.coll) } }, { object: { collection: collection(b.coll) } }],
      });
      expect(ids((await paginate(t.server, match(single))).data)).toEqual(ids(a.refs));
      expect(ids((await paginate(t.server, match(multi))).data)).toEqual(ids([...a.refs, ...b.refs]));
    },
  );

  check(['IDX-SOURCE-003'], 'A collection named in two source objects answers 400 validation failed', async () => {
    const { coll } = await seeded([]);
    const source = [{ object: { collection: collection(coll) } }, { object: { collection: collection(coll) } }];
    (await t.server.query(createIndex({ name: uniqueName('i'), source }))).expectStatus(400).expectErrorCode('validation failed');
  });

  check(
    ['IDX-SOURCE-004', 'IDX-SOURCE-005'],
    'A wildcard source indexes every other collection; a named source takes its documents exclusively',
    async () => {
      const named = await seeded([{ v: 'named' }]);
      const other = await seeded([{ v: 'other' }]);
      const name = uniqueName('i');
      const upper = { query: { lambda: 'd', expr: { uppercase: { select: ['data', 'v'], from: { var: 'd' } } } } };
      const plain = { query: { lambda: 'd', expr: { select: ['data', 'v'], from: { var: 'd' } } } };
      await createActiveIndex(t.server, {
        name,
        source: [
          { object: { collection: collection(named.coll), fields: { object: { b: upper } } } },
          { object: { collection: '_', fields: { object: { b: plain } } } },
        ],
        terms: [{ field: ['ref'] }],
        values: [{ binding: 'b' }],
      });
      const boundValueOf = async (ref: WireValue): Promise<WireValue[]> => (await paginate(t.server, match(name, ref))).data;
      expect(await boundValueOf(named.refs[0]!)).toEqual(['NAMED']);
      expect(await boundValueOf(other.refs[0]!)).toEqual(['other']);
    },
  );

  check(['IDX-SOURCE-006', 'IDX-VALUE-004'], 'A binding computes a value that a term and a value can use by name', async () => {
    const { coll, refs } = await seeded([
      { first: 'Ada', last: 'Lovelace' },
      { first: 'Alan', last: 'Turing' },
    ]);
    const name = uniqueName('i');
    const full = {
      query: {
        lambda: 'd',
        expr: {
          concat: [
            { select: ['data', 'first'], from: { var: 'd' } },
            { select: ['data', 'last'], from: { var: 'd' } },
          ],
          separator: ' ',
        },
      },
    };
    await createActiveIndex(t.server, {
      name,
      source: [{ object: { collection: collection(coll), fields: { object: { full } } } }],
      terms: [{ binding: 'full' }],
      values: [{ binding: 'full' }, { field: ['ref'] }],
    });
    expect((await paginate(t.server, match(name, 'Alan Turing'))).data).toEqual([['Alan Turing', refs[1]]]);
  });

  check(['IDX-SOURCE-007'], 'A binding that emits an array makes one entry per element', async () => {
    const { coll, refs } = await seeded([{ tags: ['x', 'y'] }]);
    const name = uniqueName('i');
    const tags = { query: { lambda: 'd', expr: { select: ['data', 'tags'], from: { var: 'd' } } } };
    await createActiveIndex(t.server, {
      name,
      source: [{ object: { collection: collection(coll), fields: { object: { tags } } } }],
      terms: [{ binding: 'tags' }],
    });
    expect((await paginate(t.server, match(name, 'x'))).data).toEqual(refs);
    expect((await paginate(t.server, match(name, 'y'))).data).toEqual(refs);
  });

  check(['IDX-SOURCE-008'], 'A binding that reads or writes (get, create, paginate) is rejected at create_index with 400', async () => {
    const { coll } = await seeded([]);
    for (const expr of [
      { get: { var: 'd' } },
      { create: collection(coll), params: { object: {} } },
      { paginate: { documents: collection(coll) } },
    ]) {
      const source = [{ object: { collection: collection(coll), fields: { object: { b: { query: { lambda: 'd', expr } } } } } }];
      expectQueryError(
        await t.server.query(createIndex({ name: uniqueName('i'), source, terms: [{ binding: 'b' }] })),
        ...INVALID_DEFINITION,
      );
    }
  });

  check(['IDX-SOURCE-010'], 'A binding that is not a lambda is rejected with 400 validation failed and nothing is created', async () => {
    const { coll } = await seeded([]);
    const name = uniqueName('i');
    const source = [{ object: { collection: collection(coll), fields: { object: { b: 'not a lambda' } } } }];
    (await t.server.query(createIndex({ name, source, terms: [{ binding: 'b' }] }))).expectStatus(400).expectErrorCode('validation failed');
    expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
  });

  check(
    ['IDX-SOURCE-011'],
    'A binding lambda of two arguments is accepted, or rejected with 400 validation failed and nothing created',
    async () => {
      const { coll } = await seeded([{ k: 'x' }]);
      const name = uniqueName('i');
      const two = { query: { lambda: ['a', 'b'], expr: { var: 'a' } } };
      const source = [{ object: { collection: collection(coll), fields: { object: { b: two } } } }];
      const res = await t.server.query(createIndex({ name, source, terms: [{ binding: 'b' }] }));
      if (res.status === 201) {
        expect(res.resource.name).toBe(name);
        (await t.server.query({ get: index(name) })).expectStatus(200);
        return;
      }
      res.expectStatus(400).expectErrorCode('validation failed');
      expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
    },
  );

  check(['IDX-SOURCE-012'], 'A binding no term or value uses is rejected with 400 validation failed and nothing is created', async () => {
    const { coll } = await seeded([]);
    const name = uniqueName('i');
    const unused = { query: { lambda: 'd', expr: { select: ['data', 'x'], from: { var: 'd' } } } };
    const source = [{ object: { collection: collection(coll), fields: { object: { unused } } } }];
    (await t.server.query(createIndex({ name, source, terms: [{ field: ['data', 'x'] }] })))
      .expectStatus(400)
      .expectErrorCode('validation failed');
    expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
  });

  check(
    ['IDX-SOURCE-013'],
    'A wildcard mixed with collection refs and no bindings is rejected with 400 validation failed and nothing is created',
    async () => {
      const { coll } = await seeded([]);
      const name = uniqueName('i');
      const source = [{ object: { collection: collection(coll) } }, { object: { collection: '_' } }];
      (await t.server.query(createIndex({ name, source }))).expectStatus(400).expectErrorCode('validation failed');
      expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
    },
  );
});

describe.concurrent('Terms and values', () => {
  check(
    ['IDX-TERM-001', 'IDX-TERM-003', 'IDX-VALUE-002'],
    'A data term locates documents by exactly that value (not one differing in case), an array indexes each element, and entries without values are refs',
    async () => {
      const { coll, refs } = await seeded([
        { city: 'Paris', tags: ['a', 'b'] },
        { city: 'Rome', tags: ['b'] },
        { city: 'rome', tags: ['c'] },
      ]);
      const byCity = uniqueName('i');
      const byTag = uniqueName('i');
      await createActiveIndex(t.server, { name: byCity, source: collection(coll), terms: [{ field: ['data', 'city'] }] });
      await createActiveIndex(t.server, { name: byTag, source: collection(coll), terms: [{ field: ['data', 'tags'] }] });
      expect((await paginate(t.server, match(byCity, 'Rome'))).data).toEqual([refs[1]]);
      expect((await paginate(t.server, match(byTag, 'a'))).data).toEqual([refs[0]]);
      expect(ids((await paginate(t.server, match(byTag, 'b'))).data)).toEqual(ids([refs[0]!, refs[1]!]));
    },
  );

  check(['IDX-TERM-002', 'IDX-VALUE-003'], 'A term ["ref"] locates a document by its ref, and a value ["ref"] covers it', async () => {
    const { coll, refs } = await seeded([{ n: 1n }, { n: 2n }]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, {
      name,
      source: collection(coll),
      terms: [{ field: ['ref'] }],
      values: [{ field: ['data', 'n'] }, { field: ['ref'] }],
    });
    expect((await paginate(t.server, match(name, refs[1]))).data).toEqual([[2n, refs[1]]]);
  });

  check(['IDX-TERM-004'], 'With several terms, a missing field is a null term that Match finds with null', async () => {
    const { coll, refs } = await seeded([{ a: 'x', b: 'y' }, { a: 'x' }]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'a'] }, { field: ['data', 'b'] }] });
    expect((await paginate(t.server, match(name, ['x', null]))).data).toEqual([refs[1]]);
    expect((await paginate(t.server, match(name, ['x', 'y']))).data).toEqual([refs[0]]);
  });

  check(['IDX-TERM-005'], 'With no terms, Match without terms yields every document', async () => {
    const { coll, refs } = await seeded([{ n: 1n }, { n: 2n }, {}]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll) });
    expect(ids((await paginate(t.server, match(name))).data)).toEqual(ids(refs));
  });

  check(
    ['IDX-VALUE-001', 'IDX-VALUE-005'],
    'One value is returned as itself, several as an array in values order; a missing path covers null',
    async () => {
      const { coll, refs } = await seeded([{ a: 1n, b: 'x' }, { a: 2n }]);
      const one = uniqueName('i');
      const two = uniqueName('i');
      await createActiveIndex(t.server, { name: one, source: collection(coll), values: [{ field: ['data', 'a'] }] });
      await createActiveIndex(t.server, {
        name: two,
        source: collection(coll),
        values: [{ field: ['data', 'b'] }, { field: ['data', 'a'] }, { field: ['ref'] }],
      });
      expect((await paginate(t.server, match(one))).data).toEqual([1n, 2n]);
      expect((await paginate(t.server, match(two))).data).toEqual([
        ['x', 1n, refs[0]],
        [null, 2n, refs[1]],
      ]);
    },
  );

  check(['IDX-TERM-006'], 'A document whose every term is null is in no set: Match with null, or all nulls, does not find it', async () => {
    const { coll, refs } = await seeded([{ a: 'x', b: 'y' }, {}, { a: { k: 1n } }, { c: 1n }]);
    const single = uniqueName('i');
    const compound = uniqueName('i');
    await createActiveIndex(t.server, { name: single, source: collection(coll), terms: [{ field: ['data', 'a'] }] });
    await createActiveIndex(t.server, {
      name: compound,
      source: collection(coll),
      terms: [{ field: ['data', 'a'] }, { field: ['data', 'b'] }],
    });
    expect((await paginate(t.server, match(single, 'x'))).data).toEqual([refs[0]]);
    expect((await paginate(t.server, match(single, null))).data).toEqual([]);
    expect((await paginate(t.server, match(compound, [null, null]))).data).toEqual([]);
    expect((await paginate(t.server, match(compound, ['x', 'y']))).data).toEqual([refs[0]]);
  });

  check(
    ['IDX-VALUE-007'],
    'An entry whose covered values are all null is not stored; with several values one non-null value keeps it',
    async () => {
      const { coll, refs } = await seeded([{ v: 1n }, { other: 0n }, { v: [null] }, { w: 'kept' }]);
      const one = uniqueName('i');
      const two = uniqueName('i');
      await createActiveIndex(t.server, { name: one, source: collection(coll), values: [{ field: ['data', 'v'] }] });
      await createActiveIndex(t.server, {
        name: two,
        source: collection(coll),
        values: [{ field: ['data', 'v'] }, { field: ['data', 'w'] }],
      });
      expect((await paginate(t.server, match(one))).data).toEqual([1n]);
      expect((await paginate(t.server, match(two))).data).toEqual([
        [1n, null],
        [null, 'kept'],
      ]);
      expect(refs).toHaveLength(4);
    },
  );

  check(['IDX-VALUE-008'], 'An array at a value path gives one entry per element; an object there covers the object or null', async () => {
    const { coll, refs } = await seeded([
      { v: ['b', 'a'], w: 'arr' },
      { v: { k: 1n }, w: 'obj' },
    ]);
    const one = uniqueName('i');
    const two = uniqueName('i');
    await createActiveIndex(t.server, { name: one, source: collection(coll), values: [{ field: ['data', 'v'] }, { field: ['ref'] }] });
    await createActiveIndex(t.server, {
      name: two,
      source: collection(coll),
      terms: [{ field: ['data', 'w'] }],
      values: [{ field: ['data', 'v'] }, { field: ['data', 'w'] }],
    });
    const arrayEntries = (await paginate(t.server, match(one))).data.filter((e) => refId((e as WireValue[])[1]!) === refId(refs[0]!));
    expect(arrayEntries).toEqual([
      ['a', refs[0]],
      ['b', refs[0]],
    ]);
    // The SD's reading covers the object; the real service reads an object at a value path as null by default.
    expect([[[{ k: 1n }, 'obj']], [[null, 'obj']]]).toContainEqual((await paginate(t.server, match(two, 'obj'))).data);
  });

  check(
    ['IDX-VALUE-009'],
    'A value object with mva: false covers an array or an object as one value, and the record returns mva',
    async () => {
      const { coll } = await seeded([{ v: { a: 1n } }, { v: [2n, 1n] }]);
      const name = uniqueName('i');
      const created = await createActiveIndex(t.server, { name, source: collection(coll), values: [{ field: ['data', 'v'], mva: false }] });
      expect(created.resource.values).toEqual([{ field: ['data', 'v'], mva: false }]);
      expect((await paginate(t.server, match(name))).data).toEqual([[2n, 1n], { a: 1n }]);
    },
  );

  check(['IDX-VALUE-006'], 'Create, Update, Replace and Delete are reflected in the next request', async () => {
    const { coll, refs } = await seeded([{ k: 'a' }, { k: 'b' }]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'k'] }] });
    const created = (await t.server.query(createDoc(coll, { k: 'a' }))).expectStatus(201).resource.ref;
    expect(ids((await paginate(t.server, match(name, 'a'))).data)).toEqual(ids([refs[0]!, created]));
    (await t.server.query({ update: refs[0], params: { object: { data: { object: { k: 'c' } } } } })).expectStatus(200);
    (await t.server.query({ replace: refs[1], params: { object: { data: { object: { k: 'a' } } } } })).expectStatus(200);
    (await t.server.query({ delete: created })).expectStatus(200);
    expect((await paginate(t.server, match(name, 'a'))).data).toEqual([refs[1]]);
    expect((await paginate(t.server, match(name, 'c'))).data).toEqual([refs[0]]);
    expect((await paginate(t.server, match(name, 'b'))).data).toEqual([]);
  });
});

describe.concurrent('Unique', () => {
  check(
    ['IDX-UNIQUE-001', 'IDX-UNIQUE-003'],
    'A Create duplicating terms and values answers 400 instance not unique and creates nothing; different values are accepted',
    async () => {
      const { coll } = await seeded([{ email: 'a@x', n: 1n }]);
      const name = uniqueName('i');
      await createActiveIndex(t.server, {
        name,
        source: collection(coll),
        terms: [{ field: ['data', 'email'] }],
        values: [{ field: ['data', 'n'] }],
        unique: true,
      });
      (await t.server.query(createDoc(coll, { email: 'a@x', n: 1n }))).expectStatus(400).expectErrorCode('instance not unique');
      expect((await paginate(t.server, match(name, 'a@x'))).data).toEqual([1n]);
      (await t.server.query(createDoc(coll, { email: 'a@x', n: 2n }))).expectStatus(201);
      expect((await paginate(t.server, match(name, 'a@x'))).data).toEqual([1n, 2n]);
    },
  );

  check(['IDX-UNIQUE-002'], 'An Update making an entry equal to another answers 400 instance not unique and changes nothing', async () => {
    const { coll, refs } = await seeded([{ email: 'a' }, { email: 'b' }]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'email'] }], unique: true });
    (await t.server.query({ update: refs[1], params: { object: { data: { object: { email: 'a' } } } } }))
      .expectStatus(400)
      .expectErrorCode('instance not unique');
    expect((await t.server.query({ get: refs[1] })).expectStatus(200).resource.data).toEqual({ email: 'b' });
  });

  check(['IDX-UNIQUE-001'], 'Two concurrent Creates of the same unique value: exactly one succeeds', async () => {
    const { coll } = await seeded([]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'u'] }], unique: true });
    const results = await Promise.all(Array.from({ length: 6 }, () => t.server.query(createDoc(coll, { u: 'same' }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) r.expectStatus(400).expectErrorCode('instance not unique');
    expect((await paginate(t.server, match(name, 'same'))).data).toHaveLength(1);
  });

  check(
    ['IDX-UNIQUE-004', 'IDX-UNIQUE-005'],
    'unique: true on a set with duplicates succeeds at creation and by Update, and the duplicates stay',
    async () => {
      const { coll } = await seeded([{ e: 'dup' }, { e: 'dup' }]);
      const created = uniqueName('i');
      const updated = uniqueName('i');
      await createActiveIndex(t.server, { name: created, source: collection(coll), terms: [{ field: ['data', 'e'] }], unique: true });
      expect((await paginate(t.server, match(created, 'dup'))).data).toHaveLength(2);
      await createActiveIndex(t.server, { name: updated, source: collection(coll), terms: [{ field: ['data', 'e'] }] });
      expect(
        (await t.server.query({ update: index(updated), params: { object: { unique: true } } })).expectStatus(200).resource.unique,
      ).toBe(true);
      expect((await paginate(t.server, match(updated, 'dup'))).data).toHaveLength(2);
    },
  );

  check(
    ['IDX-UNIQUE-006'],
    'Updating unique on a term-less index of 8 partitions succeeds, or answers 400 validation failed and leaves it unchanged',
    async () => {
      const { coll } = await seeded([{ e: 'x' }]);
      const name = uniqueName('i');
      expect((await createActiveIndex(t.server, { name, source: collection(coll) })).resource.partitions).toBe(8n);
      const res = await t.server.query({ update: index(name), params: { object: { unique: true } } });
      if (res.status === 200) {
        expect(res.resource.unique).toBe(true);
      } else {
        res.expectStatus(400).expectErrorCode('validation failed');
        expect((await t.server.query({ get: index(name) })).expectStatus(200).resource.unique).not.toBe(true);
      }
      expect((await paginate(t.server, match(name))).data).toHaveLength(1);
    },
  );
});

describe.concurrent('Other attributes', () => {
  check(['IDX-ATTR-004'], 'partitions has no effect on entries or order', async () => {
    const { coll } = await seeded([{ n: 3n }, { n: 1n }, { n: 2n }]);
    const pages: WireValue[][] = [];
    for (const partitions of [1n, 8n]) {
      const name = uniqueName('i');
      await createActiveIndex(t.server, { name, source: collection(coll), values: [{ field: ['data', 'n'] }], partitions });
      pages.push((await paginate(t.server, match(name))).data);
    }
    expect(pages[0]).toEqual([1n, 2n, 3n]);
    expect(pages[1]).toEqual(pages[0]);
  });
});

describe.concurrent('Rules', () => {
  check(
    ['IDX-RULE-001', 'IDX-RULE-002'],
    'A rename changes the ref, and Match through the new name answers the same entries without a rebuild',
    async () => {
      const { coll, refs } = await seeded([{ k: 'a' }]);
      const name = uniqueName('i');
      const renamed = uniqueName('r');
      await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'k'] }] });
      const res = (await t.server.query({ update: index(name), params: { object: { name: renamed } } })).expectStatus(200).resource;
      expect(res.ref).toEqual({ '@ref': { id: renamed, collection: { '@ref': { id: 'indexes' } } } });
      expect(res.active).toBe(true);
      expect((await paginate(t.server, match(renamed, 'a'))).data).toEqual(refs);
      expectQueryError(await t.server.query({ paginate: match(name, 'a') }), ...NO_INDEX);
    },
  );

  check(['IDX-RULE-003'], 'After a rename, a role privilege that named the index keeps applying to it', async () => {
    const { coll, refs } = await seeded([{ k: 'a' }]);
    const [name, renamed, other, role] = [uniqueName('i'), uniqueName('r'), uniqueName('o'), uniqueName('role')];
    await createActiveIndex(t.server, { name, source: collection(coll), terms: [{ field: ['data', 'k'] }] });
    await createActiveIndex(t.server, { name: other, source: collection(coll), terms: [{ field: ['data', 'k'] }] });
    const privilege = { object: { resource: index(name), actions: { object: { read: true } } } };
    // Entries of a Match are those of documents the role may read too (DEC-054).
    const documents = { object: { resource: collection(coll), actions: { object: { read: true } } } };
    (await t.admin.query({ create_role: { object: { name: role, privileges: [privilege, documents] } } })).expectStatus(201);
    const asRole = t.as(await roleKeySecret(t.admin, role));
    expect((await paginate(asRole, match(name, 'a'))).data).toEqual(refs);
    (await asRole.query({ paginate: match(other, 'a') })).expectStatus(403).expectErrorCode('permission denied');
    (await t.server.query({ update: index(name), params: { object: { name: renamed } } })).expectStatus(200);
    expect((await paginate(asRole, match(renamed, 'a'))).data).toEqual(refs);
    (await asRole.query({ paginate: match(other, 'a') })).expectStatus(403).expectErrorCode('permission denied');
  });

  const changes: Record<string, unknown> = {
    terms: { terms: [{ object: { field: ['data', 'other'] } }] },
    values: { values: [{ object: { field: ['data', 'other'] } }] },
    partitions: { partitions: 2n },
  };
  check.each(['terms', 'values', 'partitions'])(
    ['IDX-RULE-004', 'IDX-RULE-005', 'IDX-RULE-006'],
    'An Update changing %s answers 400 and leaves the index unchanged',
    async (field) => {
      const change = changes[field as string];
      const { coll } = await seeded([{ k: 'a' }]);
      const name = uniqueName('i');
      const before = (
        await createActiveIndex(t.server, {
          name,
          source: collection(coll),
          terms: [{ field: ['data', 'k'] }],
          values: [{ field: ['data', 'k'] }],
        })
      ).resource;
      expectQueryError(await t.server.query({ update: index(name), params: { object: change } }), ...INVALID_DEFINITION);
      const after = (await t.server.query({ get: index(name) })).expectStatus(200).resource;
      expect([after.terms, after.values, after.partitions]).toEqual([before.terms, before.values, before.partitions]);
      expect((await paginate(t.server, match(name, 'a'))).data).toEqual(['a']);
      // Repeating the definition as stored changes nothing, so it is no change.
      const same = {
        terms: [{ object: { field: ['data', 'k'] } }],
        values: [{ object: { field: ['data', 'k'] } }],
        partitions: before.partitions,
      };
      (await t.server.query({ update: index(name), params: { object: same } })).expectStatus(200);
    },
  );

  check(['IDX-RULE-012'], 'An Update changing source answers 400 validation failed and leaves the index unchanged', async () => {
    const a = await seeded([{ k: 'a' }]);
    const b = await seeded([{ k: 'a' }]);
    const name = uniqueName('i');
    const before = (await createActiveIndex(t.server, { name, source: collection(a.coll), terms: [{ field: ['data', 'k'] }] })).resource;
    (await t.server.query({ update: index(name), params: { object: { source: collection(b.coll) } } }))
      .expectStatus(400)
      .expectErrorCode('validation failed');
    expect((await t.server.query({ get: index(name) })).expectStatus(200).resource.source).toEqual(before.source);
    expect((await paginate(t.server, match(name, 'a'))).data).toEqual(a.refs);
  });

  check(['IDX-RULE-007'], 'After an index is deleted, Paginate of a Match on it answers an error in the next request', async () => {
    const { coll } = await seeded([{ k: 1n }]);
    const name = uniqueName('i');
    await createActiveIndex(t.server, { name, source: collection(coll) });
    (await t.server.query({ delete: index(name) })).expectStatus(200);
    expectQueryError(await t.server.query({ paginate: match(name) }), ...NO_INDEX);
  });

  check(['IDX-RULE-008'], 'Creating an index and reading it in one request answers 400 and creates nothing', async () => {
    const { coll } = await seeded([{ k: 1n }]);
    const name = uniqueName('i');
    expectQueryError(await t.server.query({ do: [createIndex({ name, source: collection(coll) }), { paginate: match(name) }] }), [400]);
    expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
  });

  check(['IDX-RULE-009'], 'Creating a collection and an index on it in one request answers 400 and creates nothing', async () => {
    const coll = uniqueName('c');
    const name = uniqueName('i');
    expectQueryError(
      await t.server.query({ do: [{ create_collection: { object: { name: coll } } }, createIndex({ name, source: collection(coll) })] }),
      [400],
    );
    expectQueryError(await t.server.query({ get: index(name) }), ...NO_INDEX);
    expectQueryError(await t.server.query({ get: collection(coll) }), ...NO_INDEX);
  });

  check(
    ['IDX-RULE-010'],
    'A new index with the name of a deleted one holds none of its entries for documents it does not cover',
    async () => {
      const a = await seeded([{ k: 1n }]);
      const b = await seeded([{ k: 1n }]);
      const name = uniqueName('i');
      await createActiveIndex(t.server, { name, source: collection(a.coll) });
      (await t.server.query({ delete: index(name) })).expectStatus(200);
      await createActiveIndex(t.server, { name, source: collection(b.coll) });
      expect((await paginate(t.server, match(name))).data).toEqual(b.refs);
    },
  );

  check(
    ['IDX-RULE-011'],
    'Deleting a collection deletes the indexes whose only source it is; one naming other collections too stays without its documents; neither covers a new namesake',
    async () => {
      const { coll } = await seeded([{ k: 'a' }]);
      const kept = await seeded([{ k: 'a' }]);
      const [own, shared, wildcard] = [uniqueName('i'), uniqueName('i'), uniqueName('w')];
      await createActiveIndex(t.server, { name: own, source: collection(coll), terms: [{ field: ['data', 'k'] }] });
      await createActiveIndex(t.server, {
        name: wildcard,
        source: [{ object: { collection: '_' } }],
        terms: [{ field: ['data', 'k'] }],
        active: true,
      });
      await createActiveIndex(t.server, {
        name: shared,
        source: [{ object: { collection: collection(coll) } }, { object: { collection: collection(kept.coll) } }],
        terms: [{ field: ['data', 'k'] }],
      });
      (await t.server.query({ delete: collection(coll) })).expectStatus(200);
      expectQueryError(await t.server.query({ get: index(own) }), ...NO_INDEX);
      expect((await t.server.query({ get: index(shared) })).expectStatus(200).resource.name).toBe(shared);
      expect((await paginate(t.server, match(shared, 'a'))).data).toEqual(kept.refs);
      (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
      (await t.server.query(createDoc(coll, { k: 'a' }))).expectStatus(201);
      expectQueryError(await t.server.query({ paginate: match(own, 'a') }), ...NO_INDEX);
      expect((await paginate(t.server, match(shared, 'a'))).data).toEqual(kept.refs);
      (await t.server.query({ get: index(wildcard) })).expectStatus(200);
    },
  );
});

/**
 * A read of an index that may still be building (IDX-STATE-003): either a page holding only documents of `refs`
 * (incomplete or complete; SD), or 404 `instance not found` saying the index is not active (the real service).
 */
async function readWhileBuilding(name: string, refs: WireValue[]): Promise<void> {
  const res = await t.server.query({ paginate: match(name), size: 1000n });
  if (res.status === 200) {
    const data = (res.resource as { data: WireValue[] }).data;
    expect(Array.isArray(data)).toBe(true);
    const known = new Set(ids(refs));
    for (const id of ids(data)) expect(known.has(id), `entry ${id} is a document of the source`).toBe(true);
    return;
  }
  res.expectStatus(404).expectErrorCode('instance not found');
  expect(res.body.errors[0].description).toBe(`Index '${name}' is not active.`);
}

describe.concurrent('States', () => {
  check(
    ['IDX-STATE-001', 'IDX-STATE-002', 'IDX-STATE-003'],
    'An index built over existing documents reports a boolean active, a read while it builds answers a page or 404 not active, and once active it covers every document',
    async () => {
      const { coll, refs } = await seeded(Array.from({ length: 300 }, (_, i) => ({ i: BigInt(i) })));
      const name = uniqueName('i');
      const created = (await t.server.query(createIndex({ name, source: collection(coll) }))).expectStatus(201).resource;
      expect(typeof created.active).toBe('boolean');
      await readWhileBuilding(name, refs);
      await waitActive(t.server, name);
      expect(ids((await paginate(t.server, match(name), { size: 1000n })).data)).toEqual(ids(refs));
    },
  );

  check(
    ['IDX-STATE-004', 'IDX-STATE-005', 'IDX-STATE-006'],
    'With active: true the index is active at once, covers all or none of the existing documents, and reflects later writes',
    async () => {
      const { coll, refs } = await seeded([{ k: 'old' }, { k: 'old' }]);
      const name = uniqueName('i');
      expect(
        (
          await t.server.query(createIndex({ name, source: collection(coll), terms: [{ field: ['data', 'k'] }], active: true }))
        ).expectStatus(201).resource.active,
      ).toBe(true);
      // The SD's reading leaves existing documents out; the real service builds every new index (a small one at once).
      const old = ids((await paginate(t.server, match(name, 'old'))).data);
      expect([[], ids(refs)]).toContainEqual(old);
      const fresh = (await t.server.query(createDoc(coll, { k: 'new' }))).expectStatus(201).resource.ref;
      (await t.server.query({ update: refs[0], params: { object: { data: { object: { k: 'new' } } } } })).expectStatus(200);
      expect(ids((await paginate(t.server, match(name, 'new'))).data)).toEqual(ids([fresh, refs[0]!]));
      expect((await paginate(t.server, match(name, 'old'))).data).toEqual(old.length === 0 ? [] : [refs[1]]);
      (await t.server.query({ delete: fresh })).expectStatus(200);
      expect((await paginate(t.server, match(name, 'new'))).data).toEqual([refs[0]]);
    },
  );

  check(
    ['IDX-STATE-008'],
    'A new index over a source of at most 128 document versions answers active: true and covers every existing document at once',
    async () => {
      const { coll, refs } = await seeded(Array.from({ length: 10 }, (_, i) => ({ i: BigInt(i) })));
      const name = uniqueName('i');
      expect((await t.server.query(createIndex({ name, source: collection(coll) }))).expectStatus(201).resource.active).toBe(true);
      expect(ids((await paginate(t.server, match(name))).data)).toEqual(ids(refs));
    },
  );

  check(['IDX-STATE-007'], 'Paginating {"indexes": null} lists the database\'s indexes and not a deleted one', async () => {
    const { coll } = await seeded([]);
    const kept = uniqueName('i');
    const gone = uniqueName('i');
    (
      await t.server.query([createIndex({ name: kept, source: collection(coll) }), createIndex({ name: gone, source: collection(coll) })])
    ).expectStatus(200, 201);
    (await t.server.query({ delete: index(gone) })).expectStatus(200);
    const listed = (await paginate(t.server, { indexes: null }, { size: 1000n })).data.map(refId);
    expect(listed).toContain(kept);
    expect(listed).not.toContain(gone);
  });
});
