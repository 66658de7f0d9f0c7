// Collections, databases, keys and documents in FQL v10 (profile fql10, spec/requirements/fql10.md FQL-SCHEMA-*,
// FQL-DOC-*): creation, lookup by name and id, collection-defined indexes, updates, replaces, deletes and ids.
import { describe, expect } from 'vitest';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, expectTag, fails, ok } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });

async function collection(prefix: string, extra = ''): Promise<string> {
  const name = uniqueName(prefix);
  await ok(t.admin, `Collection.create({ name: "${name}"${extra} })`);
  return name;
}

describe('collections', () => {
  check(['FQL-SCHEMA-001'], 'Collection.create answers the collection document, whose name then names the collection', async () => {
    const name = uniqueName('Book');
    const created = await data(t.admin, `Collection.create({ name: "${name}" })`);
    expect(created['@doc']).toMatchObject({ name, coll: { '@mod': 'Collection' } });
    expectTag(created['@doc'].ts, '@time');
    expect(created['@doc']).not.toHaveProperty('id');
    const doc = await data(t.admin, `${name}.create({ title: "The Hitchhiker's Guide to the Galaxy" })`);
    expect(doc['@doc']).toMatchObject({ coll: { '@mod': name }, title: "The Hitchhiker's Guide to the Galaxy" });
  });

  check(
    ['FQL-SCHEMA-002'],
    'Collection.create with a taken, reserved or invalid name answers constraint_failure and writes nothing',
    async () => {
      const taken = await collection('Taken');
      for (const name of [taken, 'Collection', 'not a name']) {
        const body = await fails(t.admin, `Collection.create({ name: "${name}" })`, 'constraint_failure');
        expect(body.error.message).toBe('Failed to create Collection.');
        expect(body.error.constraint_failures).toEqual([
          expect.objectContaining({ message: expect.any(String), paths: expect.arrayContaining([expect.any(Array)]) }),
        ]);
      }
      expect(await data(t.admin, 'Collection.byName("not a name") == null')).toBe(true);
      await fails(t.admin, 'Collection.create({ name: "Fine1" })\nCollection.create({ name: "Fine1" })', 'constraint_failure');
      expect(await data(t.admin, 'Collection.byName("Fine1").exists()')).toBe(false);
    },
  );

  check(['FQL-SCHEMA-003'], 'Collection.byName finds a collection or is null; deleting it removes its documents too', async () => {
    const name = await collection('Gone');
    expect(await data(t.admin, `Collection.byName("${name}") != null`)).toBe(true);
    expect((await data(t.admin, `Collection.byName("${name}")`))['@doc']).toMatchObject({ name });
    expect(await data(t.admin, `Collection.byName("${uniqueName('Never')}") == null`)).toBe(true);
    await ok(t.admin, `${name}.create({ a: 1 })`);
    await ok(t.admin, `if (Collection.byName("${name}") != null) {\n  Collection.byName("${name}")!.delete()\n}`);
    expect(await data(t.admin, `Collection.byName("${name}") == null`)).toBe(true);
    await fails(t.admin, `${name}.all()`, 'unbound_variable');
    await ok(t.admin, `Collection.create({ name: "${name}" })`);
    expect(await data(t.admin, `${name}.all().count()`)).toEqual({ '@int': '0' });
    const other = await collection('Def');
    await ok(t.admin, `${other}.definition.delete()`);
    expect(await data(t.admin, `Collection.byName("${other}").exists()`)).toBe(false);
  });

  check(['FQL-SCHEMA-004'], 'a collection-defined index is a method: its documents with those terms, ordered by its values', async () => {
    const name = await collection(
      'Person',
      ', indexes: { byCity: { terms: [{ field: ".city" }], values: [{ field: ".age", order: "desc" }] }, byName: { terms: [{ field: "name" }] } }',
    );
    await ok(
      t.admin,
      `${name}.create({ name: "a", city: "x", age: 30 })\n${name}.create({ name: "b", city: "y", age: 40 })\n${name}.create({ name: "c", city: "x", age: 50 })\n${name}.create({ name: "d", city: "x", age: 10 })`,
    );
    expect(await data(t.admin, `${name}.byCity("x").map(.name).toArray()`)).toEqual(['c', 'a', 'd']);
    // Equal values, ids chosen out of creation order: only the id tie-break decides.
    await ok(
      t.admin,
      `${name}.create({ id: "200", name: "f", city: "w", age: 20 })\n${name}.create({ id: "100", name: "e", city: "w", age: 20 })`,
    );
    expect(await data(t.admin, `${name}.byCity("w").map(.name).toArray()`)).toEqual(['e', 'f']);
    expect(await data(t.admin, `${name}.byName("b").map(.age).toArray()`)).toEqual([{ '@int': '40' }]);
    expect(await data(t.admin, `${name}.byCity("z").toArray()`)).toEqual([]);
  });
});

describe('databases and keys', () => {
  check(
    ['FQL-SCHEMA-005'],
    'Database.create makes a child database; byName finds it, == null and exists() false when missing; all() lists it',
    async () => {
      const name = uniqueName('child');
      expect(await data(t.admin, `Database.byName("${name}") == null`)).toBe(true);
      expect(await data(t.admin, `Database.byName("${name}").exists()`)).toBe(false);
      const created = await data(
        t.admin,
        `if (Database.byName("${name}") == null) {\n  Database.create({ name: "${name}", protected: null, typechecked: null, priority: null })\n}`,
      );
      expect(created['@doc']).toMatchObject({ name, coll: { '@mod': 'Database' } });
      expectTag(created['@doc'].ts, '@time');
      expect(await data(t.admin, `Database.byName("${name}").exists()`)).toBe(true);
      expect(await data(t.admin, `Database.all().paginate(1000).data { name }`)).toContainEqual({ name });
    },
  );

  check(['FQL-SCHEMA-006'], 'Database.create with the name of an existing child answers constraint_failure', async () => {
    const name = uniqueName('dup');
    await ok(t.admin, `Database.create({ name: "${name}" })`);
    await fails(t.admin, `Database.create({ name: "${name}" })`, 'constraint_failure');
    expect(await data(t.admin, `Database.all().where(.name == "${name}").count()`)).toEqual({ '@int': '1' });
  });

  check(['FQL-SCHEMA-007'], 'Key.create answers a secret that authenticates in the child database with its role', async () => {
    const name = uniqueName('keyed');
    const secret = await data(t.admin, `Database.create({ name: "${name}" })\nKey.create({ role: "admin", database: "${name}" }).secret`);
    expect(typeof secret).toBe('string');
    const child = t.admin.as(secret);
    const coll = uniqueName('InChild');
    await ok(child, `Collection.create({ name: "${coll}" })`);
    expect(await data(child, `Collection.byName("${coll}").exists()`)).toBe(true);
    expect(await data(t.admin, `Collection.byName("${coll}").exists()`)).toBe(false);
  });
});

describe('documents', () => {
  check(['FQL-DOC-001'], 'Coll.create answers the document: id, coll, ts and its fields, tagged @doc', async () => {
    const name = await collection('Doc');
    const created = await data(t.admin, `${name}.create({ foo: "bar", n: 1, nested: { a: [1, 2] } })`);
    expect(created['@doc']).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      coll: { '@mod': name },
      foo: 'bar',
      n: { '@int': '1' },
      nested: { a: [{ '@int': '1' }, { '@int': '2' }] },
    });
    expectTag(created['@doc'].ts, '@time');
    const simple = (await ok(t.admin, `${name}.create({ foo: "baz" })`, { format: 'simple' })).body.data;
    expect(simple).toMatchObject({ id: expect.any(String), coll: name, foo: 'baz' });
  });

  check(['FQL-DOC-002'], 'Coll.byId reads a document by a string or integer id; a missing one is null and not exists()', async () => {
    const name = await collection('ById');
    const id = (await data(t.admin, `${name}.create({ v: 7 }).id`)) as string;
    expect((await data(t.admin, `${name}.byId("${id}")`))['@doc']).toMatchObject({ id, v: { '@int': '7' } });
    expect((await data(t.admin, `${name}.byId(${id})`))['@doc']).toMatchObject({ id });
    expect(await data(t.admin, `${name}.byId(myArg).exists()`, { myArg: '1234' })).toBe(false);
    expect((await ok(t.admin, `${name}.byId("1234")`, { format: 'simple' })).body.data).toBeNull();
    expect(await data(t.admin, `${name}.byId("1234") == null`)).toBe(true);
  });

  check(['FQL-DOC-003'], 'update merges fields (null removes one) and answers the document; replace replaces them', async () => {
    const name = await collection('Upd');
    const updated = await data(
      t.admin,
      `let author = ${name}.create({ foo: "bar", seattle: "wa", gone: 1 })\nauthor.update({ seattle: "va", windy: "city", gone: null })`,
    );
    expect(updated['@doc']).toMatchObject({ foo: 'bar', seattle: 'va', windy: 'city' });
    expect(updated['@doc']).not.toHaveProperty('gone');
    const id = updated['@doc'].id as string;
    const replaced = await data(t.admin, `${name}.byId("${id}")!.replace({ foo: "berry", yellow: "crayon" })`);
    expect(replaced['@doc']).toMatchObject({ id, foo: 'berry', yellow: 'crayon' });
    expect(replaced['@doc']).not.toHaveProperty('seattle');
    expect((await data(t.admin, `${name}.byId("${id}")`))['@doc']).toMatchObject({ foo: 'berry', yellow: 'crayon' });
  });

  check(['FQL-DOC-004'], 'delete removes a document: afterwards byId(id).exists() is false', async () => {
    const name = await collection('Del');
    expect(await data(t.admin, `let author = ${name}.create({ foo: "bar" })\nauthor.delete()\n${name}.byId(author.id).exists()`)).toBe(
      false,
    );
    await ok(t.admin, `Set.sequence(0, 3).forEach(i => ${name}.create({ i: i }))`);
    await ok(t.admin, `${name}.all().forEach(d => d.delete())`);
    expect(await data(t.admin, `${name}.all().count()`)).toEqual({ '@int': '0' });
  });

  check(['FQL-DOC-005'], 'create with an id stores the document there; an id in use answers document_id_exists', async () => {
    const name = await collection('WithId');
    expect((await data(t.admin, `${name}.create({ id: "0", title: "first" })`))['@doc']).toMatchObject({ id: '0', title: 'first' });
    expect((await data(t.admin, `${name}.create({ id: 1, title: "second" })`))['@doc']).toMatchObject({ id: '1' });
    expect((await data(t.admin, `${name}.byId("0")`))['@doc']).toMatchObject({ title: 'first' });
    await fails(t.admin, `${name}.create({ id: "0", title: "again" })`, 'document_id_exists');
    expect((await data(t.admin, `${name}.byId("0")`))['@doc']).toMatchObject({ title: 'first' });
  });
});
