// Refs in written data (DEC-048): a write whose object holds a ref that does not resolve in the query's database is
// refused with an `invalid reference` failure at the ref's path, and writes nothing.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { collection, docRef, obj, createKey } from '../../harness/v4.js';

const t = useTenant();

/** The values of `fields` stay expressions (`obj`, not `literal`), so a ref expression in them is written as a ref. */
const withData = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown => obj({ ...extra, data: obj(fields) });
const create = (target: unknown, fields: Record<string, unknown>): unknown => ({ create: target, params: withData(fields) });

/** 400 `validation failed` with an `invalid reference` failure whose field is `path` (list indexes compared as text). */
function expectUnresolved(res: Response, path: readonly string[]): void {
  res.expectStatus(400).expectErrorCode('validation failed');
  const failures = (res.body.errors[0].failures ?? []) as Array<{ field?: unknown[]; code?: unknown }>;
  const at = (f: (typeof failures)[number]) => Array.isArray(f.field) && f.field.map(String).join('\u0000') === path.join('\u0000');
  expect(
    failures.some((f) => at(f) && f.code === 'invalid reference'),
    res.explain(`has no invalid reference failure at ${JSON.stringify(path)}`),
  ).toBe(true);
}

const notes = async (): Promise<unknown[]> =>
  (await t.server.query({ paginate: { documents: collection('notes') }, size: 1000n })).expectStatus(200).resource.data as unknown[];

describe('Refs in written data', () => {
  let existing: unknown;
  let elsewhereSecret: string;

  beforeAll(async () => {
    (await t.server.query([{ create_collection: obj({ name: 'notes' }) }, { create_collection: obj({ name: 'people' }) }])).expectStatus(
      200,
      201,
    );
    (await t.admin.query({ create_database: obj({ name: 'elsewhere' }) })).expectStatus(201);
    elsewhereSecret = (await t.admin.query(createKey('elsewhere', 'server'))).expectStatus(201).resource.secret;
    (await t.as(elsewhereSecret).query({ create_collection: obj({ name: 'notes' }) })).expectStatus(201);
    existing = (await t.server.query(create(collection('notes'), { n: 1n }))).expectStatus(201).resource;
  });

  check(
    ['DOC-REF-001'],
    'Create, Update and Replace of a document holding a ref to a collection or index that does not exist answer 400 validation failed at its path and write nothing',
    async () => {
      const before = await notes();
      expectUnresolved(await t.server.query(create(collection('notes'), { friend: docRef('no_such_collection', '1') })), [
        'data',
        'friend',
      ]);
      expectUnresolved(await t.server.query(create(collection('notes'), { nested: obj({ list: [1n, { index: 'no_such_index' }] }) })), [
        'data',
        'nested',
        'list',
        '1',
      ]);
      expectUnresolved(await t.server.query(create(docRef('notes', '4242'), { owner: collection('no_such_collection') })), [
        'data',
        'owner',
      ]);
      const ref = (existing as { ref: unknown }).ref;
      expectUnresolved(await t.server.query({ update: ref, params: withData({ friend: docRef('no_such_collection', '1') }) }), [
        'data',
        'friend',
      ]);
      expectUnresolved(await t.server.query({ replace: ref, params: withData({ idx: { index: 'no_such_index' } }) }), ['data', 'idx']);
      expect(await notes()).toEqual(before);
      expect((await t.server.query({ get: ref })).expectStatus(200).resource).toEqual(existing);
    },
  );

  check(
    ['DOC-REF-002'],
    'A ref to a document that does not exist, in a collection that does, and refs to existing collections, indexes and databases are stored as given',
    async () => {
      (await t.server.query({ create_index: obj({ name: 'all_people', source: collection('people') }) })).expectStatus(201);
      const missingPerson = {
        '@ref': { id: '31337', collection: { '@ref': { id: 'people', collection: { '@ref': { id: 'collections' } } } } },
      };
      const created = (
        await t.server.query(
          create(collection('notes'), { friend: docRef('people', '31337'), coll: collection('people'), idx: { index: 'all_people' } }),
        )
      ).expectStatus(201).resource;
      expect(created.data.friend).toEqual(missingPerson);
      expect((await t.server.query({ get: created.ref })).expectStatus(200).resource.data.friend).toEqual(missingPerson);
      (await t.admin.query(create(collection('notes'), { db: { database: 'elsewhere' } }))).expectStatus(201);
    },
  );

  check(
    ['DOC-REF-003'],
    'A write holding a ref with a database scope answers 400 validation failed and writes nothing, even when that database has what it names',
    async () => {
      const before = await notes();
      const scopedNotes = { collection: 'notes', scope: { database: 'elsewhere' } };
      expectUnresolved(await t.admin.query(create(collection('notes'), { there: scopedNotes })), ['data', 'there']);
      expectUnresolved(await t.admin.query(create(collection('notes'), { there: [{ ref: scopedNotes, id: '1' }] })), [
        'data',
        'there',
        '0',
      ]);
      expect(await notes()).toEqual(before);
    },
  );

  check(
    ['DOC-REF-005'],
    'Create, Update, Replace and Delete of a scoped ref answer 400 invalid argument and write nothing in the database it names',
    async () => {
      const there = t.as(elsewhereSecret);
      const thereNotes = async () =>
        (await there.query({ paginate: { documents: collection('notes') }, size: 1000n })).expectStatus(200).resource.data as unknown[];
      const doc = (await there.query(create(collection('notes'), { n: 1n }))).expectStatus(201).resource;
      const id = (doc.ref as { '@ref': { id: string } })['@ref'].id;
      const before = await thereNotes();
      const scopedNotes = { collection: 'notes', scope: { database: 'elsewhere' } };
      const scopedDoc = { ref: scopedNotes, id };
      for (const write of [
        create(scopedNotes, { n: 2n }),
        create({ ref: scopedNotes, id: '777' }, { n: 3n }),
        { update: scopedDoc, params: withData({ n: 4n }) },
        { replace: scopedDoc, params: withData({ n: 5n }) },
        { delete: scopedDoc },
      ]) {
        (await t.admin.query(write)).expectStatus(400).expectErrorCode('invalid argument');
      }
      expect(await thereNotes()).toEqual(before);
      expect((await there.query({ get: doc.ref })).expectStatus(200).resource).toEqual(doc);
    },
  );

  check(
    ['DOC-REF-004'],
    'CreateCollection, CreateIndex, CreateRole, CreateKey and CreateDatabase holding a ref to a collection that does not exist answer 400 validation failed and create nothing',
    async () => {
      const data = obj({ link: collection('no_such_collection') });
      const keys = async () =>
        (await t.admin.query({ paginate: { keys: null }, size: 1000n })).expectStatus(200).resource.data as unknown[];
      const keysBefore = await keys();
      const readNotes = [obj({ resource: collection('notes'), actions: obj({ read: true }) })];
      for (const write of [
        { create_collection: obj({ name: 'refused_collection', data }) },
        { create_index: obj({ name: 'refused_index', source: collection('notes'), data }) },
        { create_role: obj({ name: 'refused_role', privileges: readNotes, data }) },
        createKey(undefined, 'server', { data }),
        { create_database: obj({ name: 'refused_database', data }) },
      ]) {
        expectUnresolved(await t.admin.query(write), ['data', 'link']);
      }
      for (const ref of [
        collection('refused_collection'),
        { index: 'refused_index' },
        { role: 'refused_role' },
        { database: 'refused_database' },
      ]) {
        expect((await t.admin.query({ exists: ref })).expectStatus(200).resource, `${JSON.stringify(ref)} was not created`).toBe(false);
      }
      expect(await keys()).toEqual(keysBefore);
    },
  );

  check(
    ['DOC-REF-006'],
    'Get, Update, Replace and Delete of a collection, index, database or role that does not exist answer 400 invalid ref at the argument',
    async () => {
      for (const [form, target] of [
        ['get', collection('absent')],
        ['get', { index: 'absent' }],
        ['get', { database: 'absent' }],
        ['get', { role: 'absent' }],
        ['update', collection('absent')],
        ['replace', { index: 'absent' }],
        ['delete', { role: 'absent' }],
      ] as const) {
        const expr = form === 'get' || form === 'delete' ? { [form]: target } : { [form]: target, params: withData({ a: 1n }) };
        const res = await t.admin.query(expr);
        res.expectStatus(400).expectErrorCode('invalid ref');
        expect(res.body.errors[0].position, res.explain(`${form} of ${JSON.stringify(target)} is refused at its argument`)).toEqual([form]);
      }
    },
  );

  check(['DOC-REF-007'], 'Exists of a ref that does not resolve answers false', async () => {
    (await t.server.query({ create_collection: obj({ name: 'present' }) })).expectStatus(201);
    for (const ref of [
      collection('absent'),
      { index: 'absent' },
      { database: 'absent' },
      { role: 'absent' },
      docRef('absent', '1'),
      docRef('present', '1'),
    ]) {
      expect((await t.admin.query({ exists: ref })).expectStatus(200).resource, `Exists(${JSON.stringify(ref)})`).toBe(false);
    }
    expect((await t.admin.query({ exists: collection('present') })).expectStatus(200).resource).toBe(true);
  });
});
