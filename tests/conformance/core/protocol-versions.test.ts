import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollection, createDoc, docRef, expectProtocolError } from '../../harness/v4.js';

const COLL = 'spells';

/** Every key used inside `@ref` payloads of a rendered value. */
function refKeys(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) refKeys(v, into);
  } else if (value !== null && typeof value === 'object') {
    const ref = (value as Record<string, unknown>)['@ref'];
    if (ref !== null && typeof ref === 'object') {
      for (const k of Object.keys(ref)) into.add(k);
    }
    for (const v of Object.values(value)) refKeys(v, into);
  }
  return into;
}

describe('API versions and wording', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query(createCollection(COLL))).expectStatus(201);
    (await t.server.query(createDoc(docRef(COLL, '1'), { v: 1 }))).expectStatus(201);
  });

  check(['PROTO-VERSION-001'], 'with X-FaunaDB-API-Version: 4, refs render their collection under the key collection', async () => {
    const res = (await t.server.query({ get: docRef(COLL, '1') }, { apiVersion: '4' })).expectStatus(200);
    expect(res.resource.ref).toEqual({
      '@ref': { id: '1', collection: { '@ref': { id: COLL, collection: { '@ref': { id: 'collections' } } } } },
    });
    expect([...refKeys(res.body)]).not.toContain('class');
  });

  check(['PROTO-VERSION-002'], 'without X-FaunaDB-API-Version, refs render their collection under the key class', async () => {
    const res = (await t.server.query({ get: docRef(COLL, '1') }, { apiVersion: null })).expectStatus(200);
    expect(res.resource.ref).toEqual({ '@ref': { id: '1', class: { '@ref': { id: COLL, class: { '@ref': { id: 'classes' } } } } } });
    expect([...refKeys(res.body)]).not.toContain('collection');
  });

  check(['PROTO-VERSION-003'], 'with X-FaunaDB-API-Version: 2.1, refs render their collection under the key class', async () => {
    const res = (await t.server.query({ get: docRef(COLL, '1') }, { apiVersion: '2.1' })).expectStatus(200);
    expect(res.resource.ref['@ref'].class['@ref'].id).toBe(COLL);
    expect([...refKeys(res.body)]).not.toContain('collection');
  });

  check.each([{ version: null }, { version: '2.1' }, { version: '4' }])(
    ['PROTO-VERSION-004'],
    'input refs are accepted with either collection or class (API version $version)',
    async ({ version }) => {
      const withCollection = { '@ref': { id: '1', collection: { '@ref': { id: COLL, collection: { '@ref': { id: 'collections' } } } } } };
      const withClass = { '@ref': { id: '1', class: { '@ref': { id: COLL, class: { '@ref': { id: 'classes' } } } } } };
      const res = await t.server.query(
        [
          { select: ['data', 'v'], from: { get: withCollection } },
          { select: ['data', 'v'], from: { get: withClass } },
          { equals: [withClass, withCollection] },
        ],
        { apiVersion: version },
      );
      expect(res.expectStatus(200).resource).toEqual([1n, 1n, true]);
    },
  );

  check(['PROTO-VERSION-005'], '{"class": "c"} and {"collection": "c"} name the same collection in expressions', async () => {
    const res = await t.server.query([
      { equals: [{ class: COLL }, { collection: COLL }] },
      { select: ['data', 'v'], from: { get: { ref: { class: COLL }, id: '1' } } },
    ]);
    expect(res.expectStatus(200).resource).toEqual([true, 1n]);
    (await t.server.query({ create: { class: COLL }, params: { object: { data: { object: { via: 'class' } } } } })).expectStatus(201);
  });

  check.each([{ version: '9' }, { version: 'banana' }, { version: '4.5' }])(
    ['PROTO-VERSION-006'],
    'an unsupported X-FaunaDB-API-Version ($version) answers 400 bad request',
    async ({ version }) => {
      expectProtocolError(await t.server.query({ now: null }, { apiVersion: version }), 400, 'bad request');
    },
  );

  check(['PROTO-VERSION-007'], 'with API version 4, native collection refs render as {"@ref":{"id":"collections"}} and so on', async () => {
    const natives = ['collections', 'databases', 'keys', 'indexes', 'tokens', 'roles'];
    const res = await t.server.query(
      natives.map((name) => ({ [name]: null })),
      { apiVersion: '4' },
    );
    expect(res.expectStatus(200).resource).toEqual(natives.map((id) => ({ '@ref': { id } })));
  });

  check(['PROTO-VERSION-010'], 'below 2.7 error descriptions say class and instance', async () => {
    const described = async (expr: unknown, apiVersion: string | null, status: number) => {
      const res = (await t.server.query(expr, { apiVersion })).expectStatus(status);
      return res.body.errors[0].description as string;
    };
    for (const apiVersion of ['2.1', null, '2.0']) {
      expect(await described({ get: docRef(COLL, '404') }, apiVersion, 404)).toBe('Instance not found.');
      expect(await described(createDoc(docRef(COLL, '1'), { v: 2 }), apiVersion, 400)).toBe('Instance already exists.');
      expect(await described(createCollection(COLL), apiVersion, 400)).toBe('Class already exists.');
      expect(await described({ create_collection: { object: { name: 'a b' } } }, apiVersion, 400)).toBe('instance data is not valid.');
      expect(await described({ get: docRef('foofoo', '123') }, apiVersion, 400)).toBe("Ref refers to undefined class 'foofoo'");
    }
    // 2.7 and later: collection and document.
    expect(await described({ get: docRef(COLL, '404') }, '2.7', 404)).toBe('Document not found.');
    expect(await described(createCollection(COLL), '4', 400)).toBe('Collection already exists.');
    expect(await described({ get: docRef('foofoo', '123') }, '4', 400)).toBe("Ref refers to undefined collection 'foofoo'");
  });
});
