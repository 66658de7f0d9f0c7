// FQL v4 object functions (profile v4-functions, spec/requirements/functions-collections.md): Merge with and without
// a resolver lambda, ContainsPath / Contains, ContainsField, ContainsValue, ToObject and ToArray.
import { beforeAll, describe, expect } from 'vitest';
import { check, decimal, useTenant } from '../../../harness/index.js';
import { collection, createIndex, literal, match, lambda, createKey } from '../../../harness/v4.js';
import { expectFailure, named, resultOf } from './function-cases.js';

const t = useTenant();

const v = (name: string): unknown => ({ var: name });

/** A document of `obj_docs` with data `{x: 10, y: 20}`, as Create answered it. */
let doc: { ref: unknown; ts: bigint; data: Record<string, unknown> };
const docRef = (): unknown => doc.ref;

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: 'obj_docs' } } })).expectStatus(201);
  (
    await t.server.query(createIndex({ name: 'obj_values', source: collection('obj_docs'), values: [{ field: ['data', 'x'] }] }))
  ).expectStatus(201);
  doc = (await t.server.query({ create: collection('obj_docs'), params: literal({ data: { x: 10n, y: 20n } }) })).expectStatus(
    201,
  ).resource;
});

// The tests read the fixtures written above or write collections, databases and roles of their own names, so they
// run at once.
describe.concurrent('Merge', () => {
  check.each(
    named([
      { expr: { merge: literal({}), with: literal({ x: 10n, y: 20n }) }, expected: { x: 10n, y: 20n } },
      { expr: { merge: literal({ x: 10n, y: 20n }), with: literal({ z: 30n }) }, expected: { x: 10n, y: 20n, z: 30n } },
      { expr: { merge: literal({ x: 10n, y: 20n, z: -1n }), with: literal({ z: 30n }) }, expected: { x: 10n, y: 20n, z: 30n } },
      { expr: { merge: literal({ x: 10n, y: 20n, z: -1n }), with: literal({ z: null }) }, expected: { x: 10n, y: 20n } },
      { expr: { merge: literal({ x: 1n }), with: literal({ nope: null }) }, expected: { x: 1n } },
      { expr: { merge: literal({}), with: [literal({ x: 10n }), literal({ y: 20n }), literal({ x: 30n })] }, expected: { x: 30n, y: 20n } },
      { expr: { merge: literal({ x: 1n }), with: [] }, expected: { x: 1n } },
      { expr: { merge: literal({ a: { b: 1n } }), with: literal({ a: { c: 2n } }) }, expected: { a: { c: 2n } } },
    ]),
  )(['FN-OBJ-001'], 'Merge: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check(['FN-OBJ-001'], 'Merge takes a document as Get answers it', async () => {
    expect(await resultOf(t.server, { merge: { get: docRef() }, with: literal({ data: { z: 30n } }) })).toEqual({
      ref: doc.ref,
      ts: doc.ts,
      data: { z: 30n },
    });
    expect(await resultOf(t.server, { merge: literal({ data: { z: 30n } }), with: { get: docRef() } })).toEqual({
      ref: doc.ref,
      ts: doc.ts,
      data: doc.data,
    });
  });

  check.each(
    named([
      {
        expr: {
          merge: literal({ x: 10n, y: 20n }),
          with: literal({ x: 100n, y: 200n }),
          lambda: lambda(['key', 'left', 'right'], v('left')),
        },
        expected: { x: 10n, y: 20n },
      },
      {
        expr: {
          merge: literal({ x: 10n, y: 20n }),
          with: literal({ x: 100n, y: 200n }),
          lambda: lambda(['key', 'left', 'right'], v('right')),
        },
        expected: { x: 100n, y: 200n },
      },
      {
        expr: { merge: literal({ x: 10n, y: 20n }), with: literal({ x: 100n, y: 200n }), lambda: lambda('args', v('args')) },
        expected: { x: ['x', 10n, 100n], y: ['y', 20n, 200n] },
      },
      {
        expr: { merge: literal({}), with: literal({ a: 1n }), lambda: lambda(['k', 'l', 'r'], [v('l'), v('r')]) },
        expected: { a: [null, 1n] },
      },
      { expr: { merge: literal({ a: 1n, b: 2n }), with: literal({ a: 5n }), lambda: lambda(['k', 'l', 'r'], null) }, expected: { b: 2n } },
      {
        expr: {
          merge: literal({ a: 1n }),
          with: [literal({ a: 2n }), literal({ a: 3n })],
          lambda: lambda(['k', 'l', 'r'], [v('l'), v('r')]),
        },
        expected: { a: [[1n, 2n], 3n] },
      },
      {
        expr: { merge: literal({ a: 1n }), with: literal({ b: 2n }), lambda: lambda(['k', 'l', 'r'], v('k')) },
        expected: { a: 1n, b: 'b' },
      },
    ]),
  )(['FN-OBJ-002'], 'Merge with a lambda: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each(
    named([
      { expr: { merge: 'x', with: literal({}) }, description: 'Object expected, String provided.', position: ['merge'] },
      { expr: { merge: literal({}), with: 'y' }, description: 'Object expected, String provided.', position: ['with'] },
      { expr: { merge: 'x', with: 'y' }, description: 'Object expected, String provided.', position: ['merge'] },
      {
        expr: { merge: literal({}), with: [literal({}), 'str', 10] },
        description: 'Object expected, String provided.',
        position: ['with', 1n],
      },
      { expr: { merge: [1], with: literal({}) }, description: 'Object expected, Array provided.', position: ['merge'] },
      { expr: { merge: literal({}), with: [10] }, description: 'Object expected, Integer provided.', position: ['with', 0n] },
    ]),
  )(['FN-OBJ-003'], 'Merge of a value that is not an object: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      { expr: { merge: literal({}), with: literal({}), lambda: 'z' }, description: 'Lambda expected, String provided.' },
      { expr: { merge: literal({}), with: literal({}), lambda: 5 }, description: 'Lambda expected, Integer provided.' },
      { expr: { merge: 'x', with: 'y', lambda: null }, description: 'Lambda expected, Null provided.' },
      {
        expr: { merge: literal({}), with: literal({}), lambda: { lambda: 'invalid lambda' } },
        description: 'No form/function found, or invalid argument keys: { lambda }.',
      },
      {
        expr: { let: [{ f: lambda(['k', 'l', 'r'], v('r')) }], in: { merge: literal({}), with: literal({}), lambda: v('f') } },
        description: 'No form/function found, or invalid argument keys: { var }.',
      },
    ]),
  )(
    ['FN-OBJ-004'],
    'Merge with a lambda argument that is not a lambda form answers invalid expression: $name',
    async ({ expr, description }) => {
      const position = 'let' in expr ? ['in', 'lambda'] : ['lambda'];
      await expectFailure(t.server, expr, 400, 'invalid expression', description, position);
    },
  );
});

describe.concurrent('ContainsPath, ContainsField and ContainsValue', () => {
  const nested = literal({ a: { b: 1n, list: [10n, { c: null }] } });
  check.each(
    named([
      { expr: { contains_path: ['a', 'b'], in: nested }, expected: true },
      { expr: { contains_path: ['a', 'c'], in: nested }, expected: false },
      { expr: { contains_path: ['a', 'list', 1, 'c'], in: nested }, expected: true },
      { expr: { contains_path: ['a', 'list', 2], in: nested }, expected: false },
      { expr: { contains_path: ['a', 'list', -1], in: nested }, expected: false },
      { expr: { contains_path: ['a', 'b', 'c'], in: nested }, expected: false },
      { expr: { contains_path: ['a', 0], in: nested }, expected: false },
      { expr: { contains_path: 'a', in: nested }, expected: true },
      { expr: { contains_path: [], in: 'anything' }, expected: true },
      { expr: { contains_path: 0, in: [5n] }, expected: true },
      { expr: { contains_path: 'length', in: 'str' }, expected: false },
      { expr: { contains_path: 0, in: null }, expected: false },
      { expr: { contains: ['a', 'b'], in: nested }, expected: true },
      { expr: { contains: ['a', 'x'], in: nested }, expected: false },
    ]),
  )(['FN-OBJ-005'], 'ContainsPath: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toBe(expected);
  });

  check(['FN-OBJ-005'], 'ContainsPath follows a path of 50,000 elements', async () => {
    // The collection of a native collection's ref is the collection of collections, and so on, at every step.
    expect(await resultOf(t.server, { contains_path: Array.from({ length: 50_000 }, () => 'collection'), in: { collections: null } })).toBe(
      true,
    );
  });

  check(['FN-OBJ-005'], 'ContainsPath on refs and documents', async () => {
    const cases: Array<[unknown, boolean]> = [
      [['id'], true],
      [['collection'], true],
      [['collection', 'id'], true],
      [['id', 'x'], false],
      [['database'], false],
      [['data'], false],
    ];
    for (const [path, expected] of cases)
      expect(await resultOf(t.server, { contains_path: path, in: docRef() }), JSON.stringify(path)).toBe(expected);
    expect(await resultOf(t.server, { contains_path: ['data', 'x'], in: { get: docRef() } })).toBe(true);
    expect(await resultOf(t.server, { contains_path: ['data', 'z'], in: { get: docRef() } })).toBe(false);
  });

  check.each(
    named([
      {
        expr: { contains_path: ['a', true], in: literal({}) },
        description: 'String or Integer expected, Boolean provided.',
        position: ['contains_path', 1n],
      },
      {
        expr: { contains_path: null, in: literal({}) },
        description: 'String or Integer expected, Null provided.',
        position: ['contains_path'],
      },
      {
        expr: { contains_path: [decimal('1.5')], in: [1] },
        description: 'String or Integer expected, Double provided.',
        position: ['contains_path', 0n],
      },
      {
        expr: { contains: [literal({ a: 1 })], in: [1] },
        description: 'String or Integer expected, Object provided.',
        position: ['contains', 0n],
      },
    ]),
  )(['FN-OBJ-006'], 'ContainsPath with a path element of the wrong type: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      { expr: { contains_field: 'a', in: literal({ a: 1n }) }, expected: true },
      { expr: { contains_field: 'b', in: literal({ a: { b: 1n } }) }, expected: false },
      { expr: { contains_field: 'a', in: 'a' }, expected: false },
      { expr: { contains_field: 'a', in: 5 }, expected: false },
      { expr: { contains_field: 'a', in: null }, expected: false },
    ]),
  )(['FN-OBJ-007'], 'ContainsField: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toBe(expected);
  });

  check(['FN-OBJ-007'], 'ContainsField on a ref and a document, and its errors', async () => {
    expect(await resultOf(t.server, { contains_field: 'id', in: docRef() })).toBe(true);
    expect(await resultOf(t.server, { contains_field: 'data', in: { get: docRef() } })).toBe(true);
    expect(await resultOf(t.server, { contains_field: 'x', in: { get: docRef() } })).toBe(false);
    await expectFailure(t.server, { contains_field: 1, in: literal({}) }, 400, 'invalid argument', 'String expected, Integer provided.', [
      'contains_field',
    ]);
    await expectFailure(
      t.server,
      { contains_field: ['a'], in: literal({ a: 1 }) },
      400,
      'invalid argument',
      'String expected, Array provided.',
      ['contains_field'],
    );
    await expectFailure(t.server, { contains_field: 'a', in: [1] }, 400, 'invalid argument', 'Object expected, Array provided.', ['in']);
  });

  check.each(
    named([
      { expr: { contains_value: 1, in: [1, 2] }, expected: true },
      { expr: { contains_value: 3, in: [1, 2] }, expected: false },
      { expr: { contains_value: decimal('1.0'), in: [1, 2] }, expected: false },
      { expr: { contains_value: 'b', in: literal({ a: 'b' }) }, expected: true },
      { expr: { contains_value: 'a', in: literal({ a: 'b' }) }, expected: false },
      { expr: { contains_value: 1, in: literal({ a: { b: 1 } }) }, expected: false },
      { expr: { contains_value: literal({ b: 1n }), in: literal({ a: { b: 1 } }) }, expected: true },
      { expr: { contains_value: [1], in: [[1], 2] }, expected: true },
    ]),
  )(['FN-OBJ-008'], 'ContainsValue in arrays and objects: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toBe(expected);
  });

  check(['FN-OBJ-008'], 'ContainsValue of a ref scoped to a child database also finds that database', async () => {
    (await t.admin.query({ create_database: { object: { name: 'obj_child' } } })).expectStatus(201);
    const childCollection = { collection: 'things', scope: { database: 'obj_child' } };
    const scoped = { ref: childCollection, id: '7' };
    expect(await resultOf(t.admin, { contains_value: { database: 'obj_child' }, in: scoped })).toBe(true);
    expect(await resultOf(t.admin, { contains_value: childCollection, in: scoped })).toBe(true);
    expect(await resultOf(t.admin, { contains_value: '7', in: scoped })).toBe(true);
    expect(await resultOf(t.admin, { contains_value: '10', in: scoped })).toBe(false);
  });

  check(['FN-OBJ-008'], 'ContainsValue of a page finds its whole data array or a cursor, not its elements', async () => {
    const set = { documents: collection('obj_paged') };
    (await t.server.query({ create_collection: { object: { name: 'obj_paged' } } })).expectStatus(201);
    (await t.server.query([1n, 2n, 3n].map((n) => ({ create: collection('obj_paged'), params: literal({ data: { n } }) })))).expectStatus(
      200,
    );
    const all = (await resultOf(t.server, { paginate: set })).data as unknown[];
    const page = { paginate: set, size: 1n, after: [all[1]] };
    const paged = await resultOf(t.server, page);
    expect(paged.data, 'the page holds the second document').toEqual([all[1]]);
    expect(await resultOf(t.server, { contains_value: [all[1]], in: page })).toBe(true);
    expect(await resultOf(t.server, { contains_value: all[1], in: page })).toBe(false);
    expect(await resultOf(t.server, { contains_value: paged.before, in: page })).toBe(true);
    expect(await resultOf(t.server, { contains_value: paged.after, in: page })).toBe(true);
  });

  check(['FN-OBJ-008'], 'ContainsValue of an event finds its time, action, document and data', async () => {
    const event = { select: ['data', 0], from: { paginate: { events: docRef() } } };
    const created = await resultOf(t.server, event);
    expect(await resultOf(t.server, { contains_value: created.ts, in: event })).toBe(true);
    expect(await resultOf(t.server, { contains_value: 'create', in: event })).toBe(true);
    expect(await resultOf(t.server, { contains_value: docRef(), in: event })).toBe(true);
    expect(await resultOf(t.server, { contains_value: literal({ x: 10n, y: 20n }), in: event })).toBe(true);
    expect(await resultOf(t.server, { contains_value: 10n, in: event })).toBe(false);
  });

  check(['FN-OBJ-008'], 'ContainsValue in a set the caller may not read answers 403 permission denied at the call', async () => {
    const obj = (fields: Record<string, unknown>) => ({ object: fields });
    (
      await t.admin.query({
        create_role: obj({ name: 'obj_no_index', privileges: [obj({ resource: collection('obj_docs'), actions: obj({ read: true }) })] }),
      })
    ).expectStatus(201);
    const reader = t.as((await t.admin.query(createKey(undefined, { role: 'obj_no_index' }))).expectStatus(201).resource.secret as string);
    await expectFailure(
      reader,
      { contains_value: 10, in: match('obj_values') },
      403,
      'permission denied',
      'Insufficient privileges to perform the action.',
      [],
    );
  });

  check(['FN-OBJ-008'], 'ContainsValue in a set, a ref and a document', async () => {
    expect(await resultOf(t.server, { contains_value: 10, in: match('obj_values') })).toBe(true);
    expect(await resultOf(t.server, { contains_value: 20, in: match('obj_values') })).toBe(false);
    expect(await resultOf(t.server, { contains_value: docRef(), in: { documents: collection('obj_docs') } })).toBe(true);
    const id = (doc.ref as { '@ref': { id: string } })['@ref'].id;
    expect(await resultOf(t.server, { contains_value: id, in: docRef() })).toBe(true);
    expect(await resultOf(t.server, { contains_value: collection('obj_docs'), in: docRef() })).toBe(true);
    expect(await resultOf(t.server, { contains_value: 'obj_docs', in: docRef() })).toBe(false);
    expect(await resultOf(t.server, { contains_value: docRef(), in: { get: docRef() } })).toBe(true);
    expect(await resultOf(t.server, { contains_value: collection('obj_docs'), in: { get: docRef() } })).toBe(true);
    expect(await resultOf(t.server, { contains_value: literal({ x: 10n, y: 20n }), in: { get: docRef() } })).toBe(true);
    expect(await resultOf(t.server, { contains_value: 10, in: { get: docRef() } })).toBe(false);
  });

  check.each(
    named([
      { expr: { contains_value: 1, in: 'str' } },
      { expr: { contains_value: 1, in: 1 } },
      { expr: { contains_value: 1, in: null } },
      { expr: { contains_value: true, in: true } },
      { expr: { contains_value: 1, in: { time: '2024-01-01T00:00:00Z' } } },
    ]),
  )(['FN-OBJ-009'], 'ContainsValue in a scalar answers invalid argument: $name', async ({ expr }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', 'Object, Array, Page, Set, or Ref expected, Scalar provided.', ['in']);
  });
});

describe.concurrent('ToObject and ToArray', () => {
  check.each(
    named([
      { expr: { to_object: [] }, expected: {} },
      {
        expr: {
          to_object: [
            ['x', 10],
            ['y', 20],
          ],
        },
        expected: { x: 10n, y: 20n },
      },
      {
        expr: {
          to_object: [
            ['x', null],
            ['y', null],
          ],
        },
        expected: { x: null, y: null },
      },
      { expr: { to_object: literal({ x: 10n }) }, expected: { x: 10n } },
      {
        expr: {
          to_object: {
            map: lambda(['k', 'n'], [v('k'), [v('n')]]),
            collection: [
              ['a', 1],
              ['b', 2],
            ],
          },
        },
        expected: { a: [1n], b: [2n] },
      },
    ]),
  )(['FN-OBJ-010'], 'ToObject: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check(['FN-OBJ-010'], 'ToObject of a document answers its fields', async () => {
    expect(await resultOf(t.server, { to_object: { get: docRef() } })).toEqual({ ref: doc.ref, ts: doc.ts, data: doc.data });
  });

  check.each(
    named([
      { expr: { to_object: 'str' }, description: 'Cannot cast String to Object.', position: ['to_object'] },
      { expr: { to_object: 10 }, description: 'Cannot cast Integer to Object.', position: ['to_object'] },
      { expr: { to_object: decimal('10.0') }, description: 'Cannot cast Double to Object.', position: ['to_object'] },
      { expr: { to_object: { '@date': '1970-01-01' } }, description: 'Cannot cast Date to Object.', position: ['to_object'] },
      { expr: { to_object: { indexes: null } }, description: 'Cannot cast Collection Ref to Object.', position: ['to_object'] },
      { expr: { to_object: match('obj_values') }, description: 'Cannot cast Set to Object.', position: ['to_object'] },
      { expr: { to_object: { paginate: match('obj_values') } }, description: 'Cannot cast Page to Object.', position: ['to_object'] },
      { expr: { to_object: [[10, 20]] }, description: 'Field/Value expected, Array provided.', position: ['to_object', 0n] },
      { expr: { to_object: [['a', 1], 'b'] }, description: 'Field/Value expected, String provided.', position: ['to_object', 1n] },
      { expr: { to_object: [['a', 1, 2]] }, description: 'Field/Value expected, Array provided.', position: ['to_object', 0n] },
    ]),
  )(['FN-OBJ-010'], 'ToObject refuses: $name', async ({ expr, description, position }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', description, position);
  });

  check.each(
    named([
      {
        expr: { to_array: literal({ x: 10n, y: 20n }) },
        expected: [
          ['x', 10n],
          ['y', 20n],
        ],
      },
      { expr: { to_array: literal({}) }, expected: [] },
      { expr: { to_array: [1, 'a'] }, expected: [1n, 'a'] },
    ]),
  )(['FN-OBJ-011'], 'ToArray: $name', async ({ expr, expected }) => {
    expect(await resultOf(t.server, expr)).toEqual(expected);
  });

  check.each(
    named([
      { expr: { to_array: 'str' }, type: 'String' },
      { expr: { to_array: null }, type: 'Null' },
      { expr: { to_array: true }, type: 'Boolean' },
      { expr: { to_array: match('obj_values') }, type: 'Set' },
    ]),
  )(['FN-OBJ-011'], 'ToArray refuses: $name', async ({ expr, type }) => {
    await expectFailure(t.server, expr, 400, 'invalid argument', `Cannot cast ${type} to Array.`, ['to_array']);
  });
});
