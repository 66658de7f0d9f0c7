// Sets in FQL v10 (profile fql10, spec/requirements/fql10.md FQL-SET-*): a collection's documents, set methods,
// pages of 16 with cursors, paginate(n), Set.sequence and toSet, reads that stop where they may, toArray's limit.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, fails, ok } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });
const coll = uniqueName('Items');
const int = (n: number) => ({ '@int': String(n) });

beforeAll(async () => {
  await ok(t.admin, `Collection.create({ name: "${coll}" })`);
  // 40 documents, created in order so that their ids ascend with n.
  for (let n = 0; n < 40; n += 10)
    await ok(t.admin, `Set.sequence(${n}, ${n + 10}).forEach(n => ${coll}.create({ n: n, even: n % 2 == 0 }))`);
});

describe('sets', () => {
  check(
    ['FQL-SET-001'],
    'all, where and firstWhere read documents in id order; map, where, forEach, toArray, first, count and take',
    async () => {
      expect(await data(t.admin, `${coll}.all().count()`)).toEqual(int(40));
      expect(await data(t.admin, `${coll}.all().take(3).map(.n).toArray()`)).toEqual([int(0), int(1), int(2)]);
      expect(await data(t.admin, `${coll}.where(.n > 36).map(d => d.n * 10).toArray()`)).toEqual([int(370), int(380), int(390)]);
      expect(await data(t.admin, `${coll}.all().where(.even).count()`)).toEqual(int(20));
      expect((await data(t.admin, `${coll}.firstWhere(.n == 5)`))['@doc']).toMatchObject({ n: int(5) });
      expect((await data(t.admin, `${coll}.all().firstWhere(.n >= 7)`))['@doc']).toMatchObject({ n: int(7) });
      expect(await data(t.admin, `${coll}.firstWhere(.n == 500)`)).toBeNull();
      expect((await data(t.admin, `${coll}.all().first()`))['@doc']).toMatchObject({ n: int(0) });
      expect(await data(t.admin, `${coll}.all().where(.n > 100).first()`)).toBeNull();
      const marker = uniqueName('fe');
      expect(await data(t.admin, `${coll}.where(.n < 2).forEach(d => ${coll}.create({ copy: d.n, marker: "${marker}" }))`)).toBeNull();
      expect(await data(t.admin, `${coll}.where(.marker == "${marker}").map(.copy).toArray()`)).toEqual([int(0), int(1)]);
      await ok(t.admin, `${coll}.where(.marker == "${marker}").forEach(.delete())`);
      // Ids chosen out of creation order: id order, not creation order, decides.
      const ordered = uniqueName('Ordered');
      await ok(t.admin, `Collection.create({ name: "${ordered}" })`);
      await ok(t.admin, `[${[300, 100, 200].map((id) => `${ordered}.create({ id: "${id}", n: ${id} })`).join(', ')}]`);
      expect(await data(t.admin, `${ordered}.all().map(.n).toArray()`)).toEqual([int(100), int(200), int(300)]);
      expect(await data(t.admin, `${ordered}.where(.n > 100).map(.n).toArray()`)).toEqual([int(200), int(300)]);
      expect((await data(t.admin, `${ordered}.firstWhere(.n > 0)`))['@doc']).toMatchObject({ n: int(100) });
    },
  );

  check(['FQL-SET-002'], 'a set in an answer is a page of 16 with a cursor that Set.paginate continues; tagged @set', async () => {
    const first = await data(t.admin, `${coll}.all().map(.n)`);
    expect(Object.keys(first)).toEqual(['@set']);
    expect(first['@set'].data).toEqual(Array.from({ length: 16 }, (_, i) => int(i)));
    expect(typeof first['@set'].after).toBe('string');
    const second = (await ok(t.admin, `Set.paginate("${first['@set'].after}")`, { format: 'simple' })).body.data;
    expect(second.data).toEqual(Array.from({ length: 16 }, (_, i) => BigInt(16 + i)));
    const third = (await ok(t.admin, `Set.paginate("${second.after}")`, { format: 'simple' })).body.data;
    expect(third.data).toEqual(Array.from({ length: 8 }, (_, i) => BigInt(32 + i)));
    expect(third).not.toHaveProperty('after');
    const small = await data(t.admin, `${coll}.where(.n < 3).map(.n)`);
    expect(small).toEqual({ '@set': { data: [int(0), int(1), int(2)] } });
  });

  check(['FQL-SET-003'], 'paginate(n) answers n elements and a cursor; n outside 1..100000 is invalid_bounds', async () => {
    const page = (await ok(t.admin, `${coll}.all().map(.n).paginate(5)`, { format: 'simple' })).body.data;
    expect(page.data).toEqual([0n, 1n, 2n, 3n, 4n]);
    const next = (await ok(t.admin, `Set.paginate("${page.after}", 3)`, { format: 'simple' })).body.data;
    expect(next.data).toEqual([5n, 6n, 7n]);
    expect((await ok(t.admin, `${coll}.all().paginate(1000).data { n }`, { format: 'simple' })).body.data).toHaveLength(40);
    for (const size of ['0', '-1', '100001']) await fails(t.admin, `${coll}.all().paginate(${size})`, 'invalid_bounds');
  });

  check(['FQL-SET-004'], 'Set.sequence(a, b) is a..b-1; [..].toSet() is the array as a set', async () => {
    expect(await data(t.admin, 'Set.sequence(0, 3).toArray()')).toEqual([int(0), int(1), int(2)]);
    expect(await data(t.admin, 'Set.sequence(5, 5).toArray()')).toEqual([]);
    expect(await data(t.admin, 'Set.sequence(-2, 1).map(x => x * 2).toArray()')).toEqual([int(-4), int(-2), int(0)]);
    const page = (
      await ok(t.admin, `${JSON.stringify(Array.from({ length: 20 }, (_, i) => i))}.toSet().paginate(16)`, { format: 'simple' })
    ).body.data;
    expect(page.data).toHaveLength(16);
    expect((await ok(t.admin, `Set.paginate("${page.after}")`, { format: 'simple' })).body.data.data).toEqual([16n, 17n, 18n, 19n]);
  });

  check(
    ['FQL-SET-005'],
    'a set is read as far as needed: take, first and the first page of a billion-element sequence; toArray past 16,000 is value_too_large',
    async () => {
      // A deadline far above what these reads need, so that a server building the whole set fails rather than stalls.
      const deadline = { headers: { 'x-query-timeout-ms': '5000' } };
      expect((await ok(t.admin, 'Set.sequence(0, 1000000000).take(3).toArray()', deadline)).body.data).toEqual([int(0), int(1), int(2)]);
      expect((await ok(t.admin, 'Set.sequence(7, 1000000000).first()', deadline)).body.data).toEqual(int(7));
      expect((await ok(t.admin, 'Set.sequence(0, 1000000000).drop(2)', { format: 'simple', ...deadline })).body.data.data).toEqual(
        Array.from({ length: 16 }, (_, i) => BigInt(i + 2)),
      );
      expect((await ok(t.admin, 'Set.sequence(0, 16000).toArray().length', deadline)).body.data).toEqual(int(16000));
      const tooLarge = await fails(t.admin, 'Set.sequence(0, 16001).toArray()', 'value_too_large', deadline);
      expect(tooLarge.error.message).toBe('Value too large: exceeded maximum number of elements (limit=16000).');
      await fails(t.admin, 'Set.sequence(0, 1000000000).map(x => x + 1).toArray()', 'value_too_large', deadline);
    },
  );
});
