import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollection, createDoc, docRef, getDoc } from '../../harness/v4.js';

const COLL = 'at_keys';

describe('Field names starting with @ inside {"object": …}', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query(createCollection(COLL))).expectStatus(201);
  });

  check(
    ['PROTO-VALUE-013'],
    'inside {"object": …} a key starting with @ is a field name, answered wrapped as @obj and kept in documents',
    async () => {
      const answered = await t.server.query({ object: { '@x': 1, plain: { object: { '@nested': 'v' } } } });
      expect(answered.expectStatus(200).resource).toEqual({ '@obj': { '@x': 1n, plain: { '@obj': { '@nested': 'v' } } } });
      (await t.server.query(createDoc(docRef(COLL, '1'), { '@tag': 'kept', n: 2 }))).expectStatus(201);
      expect((await t.server.query(getDoc(docRef(COLL, '1')))).expectStatus(200).resource.data).toEqual({
        '@obj': { '@tag': 'kept', n: 2n },
      });
    },
  );
});
