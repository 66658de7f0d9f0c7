// How large a write may be (DEC-070): a document version past 8,388,608 bytes, or a query's writes past 16 MiB, is
// refused with 400 bad request and nothing is written. The large documents are built from one 3.9 MB string bound by
// Let, so every request body stays far below the 8 MiB body limit.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollections, docRef, expectProtocolError, obj } from '../../harness/v4.js';

const COLLECTION = 'large_things';
/** 3.9 MB: two copies (7.8 MB) fit a version, three (11.7 MB) do not; two 7.8 MB versions fit a query, three do not. */
const PART = 'x'.repeat(3_900_000);
const part = { var: 'part' };

/** A query binding PART and running `expr`, in which `{"var":"part"}` stands for it. */
const withPart = (expr: unknown) => ({ let: [{ part: PART }], in: expr });
const ref = (id: string) => docRef(COLLECTION, id);
/** Create of document `id` whose data holds `copies` copies of PART, answering only its id (not 8 MB back). */
const createWith = (id: string, copies: number) => ({
  select: ['ref', 'id'],
  from: { create: ref(id), params: obj({ data: obj(Object.fromEntries(Array.from({ length: copies }, (_, i) => [`p${i}`, part]))) }) },
});

describe('Write limits', () => {
  const t = useTenant();

  beforeAll(async () => {
    await createCollections(t.server, COLLECTION);
  });

  async function exists(id: string): Promise<boolean> {
    const res = await t.server.query({ exists: ref(id) });
    res.expectStatus(200);
    return (res.json as { resource: boolean }).resource;
  }

  check(['LIMIT-WRITE-001'], 'a version of 7.8 MB is written; one of 11.7 MB answers 400 bad request and is not', async () => {
    const kept = await t.server.query(withPart(createWith('101', 2)));
    kept.expectStatus(200);
    expect(kept.json).toEqual({ resource: '101' });
    expect(await exists('101')).toBe(true);

    expectProtocolError(await t.server.query(withPart(createWith('102', 3))), 400, 'bad request');
    expect(await exists('102'), 'the refused version was not written').toBe(false);
  });

  check(['LIMIT-WRITE-001'], 'an Update that would make a version of 11.7 MB answers 400 bad request and changes nothing', async () => {
    (await t.server.query(withPart(createWith('103', 2)))).expectStatus(200);
    const update = { update: ref('103'), params: obj({ data: obj({ p2: part }) }) };
    expectProtocolError(await t.server.query(withPart({ select: 'ts', from: update })), 400, 'bad request');
    const added = await t.server.query({ select: ['data', 'p2'], from: { get: ref('103') }, default: 'absent' });
    added.expectStatus(200);
    expect(added.json, 'the refused Update added no field').toEqual({ resource: 'absent' });
  });

  check(
    ['LIMIT-WRITE-002'],
    'a query writing two 7.8 MB versions is kept; one writing three answers 400 bad request and writes none of them',
    async () => {
      const kept = await t.server.query(withPart({ do: [createWith('104', 2), createWith('105', 2)] }));
      kept.expectStatus(200);
      expect([await exists('104'), await exists('105')]).toEqual([true, true]);

      expectProtocolError(
        await t.server.query(withPart({ do: [createWith('106', 2), createWith('107', 2), createWith('108', 2)] })),
        400,
        'bad request',
      );
      expect([await exists('106'), await exists('107'), await exists('108')], 'no write of the refused query was kept').toEqual([
        false,
        false,
        false,
      ]);
    },
  );
});
