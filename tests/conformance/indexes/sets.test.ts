import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueName, useTenant } from '../../harness/index.js';
import {
  collection,
  createActiveIndex,
  createDoc,
  expectQueryError,
  index,
  match,
  NO_INDEX,
  paginate,
  refId,
  walkForward,
} from '../../harness/v4.js';
import type { WireValue } from '../../harness/model/wire-order.js';

const t = useTenant({ roles: ['server'] });
const coll = uniqueName('people');
const byCity = uniqueName('by_city');
const byRole = uniqueName('by_role');
const byCityRole = uniqueName('by_city_role');
const all = uniqueName('all');
const cityOfRef = uniqueName('city_of');
const cities = uniqueName('cities');
let refs: WireValue[] = [];

// The real service's data for combinations of covered values: two collections whose documents hold n = 1, 2, 2, 3, 3, 3
// and n = 1, 2, 2, 2, 3, 3, an index covering n on each, and one on the second with n as term too.
const ones = uniqueName('n_one');
const twos = uniqueName('n_two');
const n1 = uniqueName('n1');
const n2 = uniqueName('n2');
const n2ByN = uniqueName('n2_by_n');
const n1Desc = uniqueName('n1_desc');

const people = [
  { city: 'Paris', role: 'admin' },
  { city: 'Paris', role: 'user' },
  { city: 'Rome', role: 'admin' },
  { city: 'Oslo', role: 'user' },
];

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  refs = ((await t.server.query(people.map((p) => createDoc(coll, p)))).expectStatus(200).resource as Array<{ ref: WireValue }>).map(
    (d) => d.ref,
  );
  await createActiveIndex(t.server, { name: byCity, source: collection(coll), terms: [{ field: ['data', 'city'] }] });
  await createActiveIndex(t.server, { name: byRole, source: collection(coll), terms: [{ field: ['data', 'role'] }] });
  await createActiveIndex(t.server, {
    name: byCityRole,
    source: collection(coll),
    terms: [{ field: ['data', 'city'] }, { field: ['data', 'role'] }],
  });
  await createActiveIndex(t.server, { name: all, source: collection(coll) });
  await createActiveIndex(t.server, {
    name: cityOfRef,
    source: collection(coll),
    terms: [{ field: ['ref'] }],
    values: [{ field: ['data', 'city'] }],
  });
  await createActiveIndex(t.server, { name: cities, source: collection(coll), values: [{ field: ['data', 'city'] }] });
  for (const [name, ns] of [
    [ones, [1n, 2n, 2n, 3n, 3n, 3n]],
    [twos, [1n, 2n, 2n, 2n, 3n, 3n]],
  ] as const) {
    (await t.server.query({ create_collection: { object: { name } } })).expectStatus(201);
    (await t.server.query(ns.map((n) => createDoc(name, { n })))).expectStatus(200);
  }
  await createActiveIndex(t.server, { name: n1, source: collection(ones), values: [{ field: ['data', 'n'] }] });
  await createActiveIndex(t.server, { name: n2, source: collection(twos), values: [{ field: ['data', 'n'] }] });
  await createActiveIndex(t.server, {
    name: n2ByN,
    source: collection(twos),
    terms: [{ field: ['data', 'n'] }],
    values: [{ field: ['data', 'n'] }],
  });
  await createActiveIndex(t.server, { name: n1Desc, source: collection(ones), values: [{ field: ['data', 'n'], reverse: true }] });
});

const ids = (data: WireValue[]): string[] => data.map(refId);
/** Refs in the order an index without values holds them (numeric ids numerically). */
const inRefOrder = (data: WireValue[]): string[] => ids(data).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
/** Every element of a set, read page by page forward with `after`. */
const walked = async (set: unknown, size: number): Promise<WireValue[]> => (await walkForward(t.server, set, size)).flatMap((p) => p.data);
/** Every element of a set on one page. */
const onePage = async (set: unknown): Promise<WireValue[]> => (await paginate(t.server, set, { size: 1000n })).data;
const sortedIds = (data: WireValue[]): string[] => ids(data).sort();
const indexRef = (name: string): unknown => ({ '@ref': { id: name, collection: { '@ref': { id: 'indexes' } } } });

describe('Match', () => {
  check(['SET-MATCH-001'], 'Match evaluated alone answers a @set with the index ref and the terms', async () => {
    const res = (await t.server.query(match(byCity, 'Paris'))).expectStatus(200);
    expect(res.resource).toEqual({ '@set': { match: indexRef(byCity), terms: 'Paris' } });
  });

  check(['SET-MATCH-001'], 'A one-element terms array is rendered as its element, an empty one is left out', async () => {
    expect((await t.server.query(match(byCity, ['Paris']))).expectStatus(200).resource).toEqual({
      '@set': { match: indexRef(byCity), terms: 'Paris' },
    });
    expect((await t.server.query(match(all, []))).expectStatus(200).resource).toEqual({ '@set': { match: indexRef(all) } });
    expect((await t.server.query(match(byCityRole, ['Paris', 'user']))).expectStatus(200).resource).toEqual({
      '@set': { match: indexRef(byCityRole), terms: ['Paris', 'user'] },
    });
  });

  check(['SET-MATCH-002'], 'For a single-term index a bare scalar and a one-element array yield the same entries', async () => {
    const bare = (await paginate(t.server, match(byCity, 'Paris'))).data;
    expect(sortedIds(bare)).toEqual(sortedIds([refs[0]!, refs[1]!]));
    expect((await paginate(t.server, match(byCity, ['Paris']))).data).toEqual(bare);
  });

  check(['SET-MATCH-003'], 'A compound index takes one value per term and yields the documents matching all', async () => {
    expect((await paginate(t.server, match(byCityRole, ['Paris', 'user']))).data).toEqual([refs[1]]);
  });

  check(['SET-MATCH-004'], 'Match without terms on a term-less index yields every document', async () => {
    expect(sortedIds((await paginate(t.server, match(all))).data)).toEqual(sortedIds(refs));
  });

  check(['SET-MATCH-005'], 'A term no document has yields an empty page', async () => {
    expect(await paginate(t.server, match(byCity, 'Nowhere'))).toEqual({ data: [] });
  });

  check(['SET-MATCH-006'], 'Match on an index that does not exist answers 400 invalid ref (or 404)', async () => {
    const missing = uniqueName('missing');
    const res = await t.server.query({ paginate: match(missing, 'x') });
    expectQueryError(res, ...NO_INDEX);
    if (res.status === 400) expect(res.body.errors[0].description).toBe(`Ref refers to undefined index '${missing}'`);
  });

  check(['SET-MATCH-007'], 'The legacy form {"match": terms, "index": index} equals the current form', async () => {
    const legacy = (await paginate(t.server, { match: 'Rome', index: index(byCity) })).data;
    expect(legacy).toEqual([refs[2]]);
    expect(legacy).toEqual((await paginate(t.server, match(byCity, 'Rome'))).data);
  });
});

describe('Set references', () => {
  check(['SET-REF-001', 'SET-REF-002'], 'Set references with equal structure are equal, with different terms not', async () => {
    expect((await t.server.query({ equals: [match(byCity, 'Paris'), match(byCity, 'Paris')] })).expectStatus(200).resource).toBe(true);
    expect((await t.server.query({ equals: [match(byCity, 'Paris'), match(byCity, 'Rome')] })).expectStatus(200).resource).toBe(false);
  });

  check(['SET-REF-001'], 'Match with a term and with the one-element array of it are equal', async () => {
    expect((await t.server.query({ equals: [match(byCity, 'Paris'), match(byCity, ['Paris'])] })).expectStatus(200).resource).toBe(true);
  });

  check(['SET-REF-003'], 'A @set returned by the server and sent back reads the same entries', async () => {
    const set = (await t.server.query({ intersection: [match(byCity, 'Paris'), match(byRole, 'admin')] })).expectStatus(200).resource;
    expect((await paginate(t.server, set)).data).toEqual([refs[0]]);
  });

  check.each(['union', 'intersection', 'difference'])(
    ['SET-REF-004'],
    'A %s evaluated alone answers a @set holding its operands',
    async (kind) => {
      const res = (await t.server.query({ [kind as string]: [match(byCity, 'Paris'), match(byRole, 'admin')] })).expectStatus(200);
      const operands = [{ '@set': { match: indexRef(byCity), terms: 'Paris' } }, { '@set': { match: indexRef(byRole), terms: 'admin' } }];
      expect(res.resource).toEqual({ '@set': { [kind as string]: operands } });
    },
  );

  check.each(['union', 'intersection', 'difference'])(
    ['SET-REF-004'],
    'A %s of one set given bare renders its operands as an array',
    async (kind) => {
      const res = (await t.server.query({ [kind as string]: match(byCity, 'Paris') })).expectStatus(200);
      expect(res.resource).toEqual({ '@set': { [kind as string]: [{ '@set': { match: indexRef(byCity), terms: 'Paris' } }] } });
    },
  );

  check(['SET-REF-004'], 'Distinct and Join evaluated alone answer @set holding their operands', async () => {
    expect((await t.server.query({ distinct: match(byCity, 'Paris') })).expectStatus(200).resource).toEqual({
      '@set': { distinct: { '@set': { match: indexRef(byCity), terms: 'Paris' } } },
    });
    expect((await t.server.query({ join: match(byCity, 'Paris'), with: index(cityOfRef) })).expectStatus(200).resource).toEqual({
      '@set': { join: { '@set': { match: indexRef(byCity), terms: 'Paris' } }, with: indexRef(cityOfRef) },
    });
  });
});

describe('Combinations', () => {
  check(['SET-UNION-002'], 'Union of refs sets holds a document both hold once, in index order, also page by page', async () => {
    const union = { union: [match(byCity, 'Paris'), match(byRole, 'admin')] };
    expect(ids(await onePage(union))).toEqual(inRefOrder([refs[0]!, refs[1]!, refs[2]!]));
    expect(await walked(union, 1)).toEqual(await onePage(union));
  });

  check(['SET-UNION-002'], 'Union keeps each covered value as often as the operand holding it most', async () => {
    expect(await onePage({ union: [match(n1), match(n2)] })).toEqual([1n, 2n, 2n, 2n, 3n, 3n, 3n]);
    expect(await onePage({ distinct: { union: [match(n1), match(n2)] } })).toEqual([1n, 2n, 3n]);
    expect(await onePage({ union: [{ distinct: match(n1) }, match(n1)] })).toEqual([1n, 2n, 2n, 3n, 3n, 3n]);
    expect(await onePage({ union: [match(n1)] })).toEqual([1n, 2n, 2n, 3n, 3n, 3n]);
  });

  check(
    ['SET-INTERSECT-003', 'SET-INTERSECT-002'],
    'Intersection of refs sets yields the shared documents once; with an empty set it is empty',
    async () => {
      const shared = { intersection: [match(byCity, 'Paris'), match(byRole, 'admin')] };
      expect(await onePage(shared)).toEqual([refs[0]]);
      expect(await walked({ intersection: [match(all), match(byRole, 'user')] }, 1)).toEqual(await onePage(match(byRole, 'user')));
      expect(await onePage({ intersection: [match(byCity, 'Paris'), match(byCity, 'Nowhere')] })).toEqual([]);
    },
  );

  check(['SET-INTERSECT-003'], 'Intersection keeps each covered value as often as the operand holding it least', async () => {
    expect(await onePage({ intersection: [match(n1), match(n2)] })).toEqual([1n, 2n, 2n, 3n, 3n]);
    expect(await onePage({ intersection: [match(n1), match(n1)] })).toEqual([1n, 2n, 2n, 3n, 3n, 3n]);
  });

  check(['SET-DIFF-002'], 'Difference of refs sets yields the documents of the first the others do not hold', async () => {
    expect(await onePage({ difference: [match(byRole, 'admin'), match(byCity, 'Paris')] })).toEqual([refs[2]]);
    expect(await walked({ difference: [match(all), match(byCity, 'Rome')] }, 1)).toEqual(
      await onePage({ union: [match(byCity, 'Paris'), match(byCity, 'Oslo')] }),
    );
  });

  check(
    ['SET-DIFF-002'],
    'Difference drops a covered value another operand holds with all its copies, and keeps every copy of the others',
    async () => {
      expect(await onePage({ difference: [match(n1), match(n2ByN, 3n)] })).toEqual([1n, 2n, 2n]);
      expect(await onePage({ difference: [match(n1), match(n2ByN, 9n)] })).toEqual([1n, 2n, 2n, 3n, 3n, 3n]);
      expect(await onePage({ difference: [match(n1), match(n2)] })).toEqual([]);
    },
  );

  check.each(['union', 'intersection', 'difference'])(
    ['SET-COMPAT-001'],
    '%s of sets ordered differently is refused; of sets of one order, or of refs with values, it is not',
    async (kind) => {
      const res = (await t.server.query({ paginate: { [kind as string]: [match(n1), match(n1Desc)] } }))
        .expectStatus(400)
        .expectErrorCode('invalid argument');
      expect(res.body.errors[0].description).toBe('Sets are not compatible.');
      expect(res.body.errors[0].position).toEqual(['paginate', kind]);
      (await t.server.query({ paginate: { [kind as string]: [match(n1), match(n2)] } })).expectStatus(200);
      (await t.server.query({ paginate: { [kind as string]: [match(all), match(n1)] } })).expectStatus(200);
    },
  );

  check(['SET-DISTINCT-001'], 'Distinct yields each distinct entry once', async () => {
    expect((await paginate(t.server, match(cities))).data).toEqual(['Oslo', 'Paris', 'Paris', 'Rome']);
    expect((await paginate(t.server, { distinct: match(cities) })).data).toEqual(['Oslo', 'Paris', 'Rome']);
  });

  check(['SET-JOIN-001'], "Join with an index yields that index's entries for each value of the source as a term", async () => {
    const data = (await paginate(t.server, { join: match(byRole, 'admin'), with: index(cityOfRef) })).data;
    expect(data).toEqual(['Paris', 'Rome']);
  });

  check(
    ['SET-JOIN-002'],
    'Join with a lambda yields the union of the sets it answers for every source value, each element once',
    async () => {
      // The source values are Oslo, Paris, Paris, Rome: every one is mapped, and Paris's documents come back once.
      const joined = { join: match(cities), with: { lambda: 'c', expr: { match: index(byCity), terms: { var: 'c' } } } };
      expect(ids(await onePage(joined))).toEqual(inRefOrder(refs));
      expect(await walked(joined, 1)).toEqual(await onePage(joined));
      const rome = { join: match(cities), with: { lambda: 'c', expr: { match: index(byCityRole), terms: [{ var: 'c' }, 'admin'] } } };
      expect(ids(await onePage(rome))).toEqual(inRefOrder([refs[0]!, refs[2]!]));
    },
  );

  check(['SET-JOIN-003'], 'A Join lambda that writes or reads is refused at with, and nothing of it runs', async () => {
    const created = uniqueName('spells');
    const write = { lambda: 'c', expr: { create_index: { object: { name: created, source: collection(coll) } } } };
    const read = { lambda: 'c', expr: { get: { var: 'c' } } };
    const description = 'Invalid lambda. Lambda in this context may not read, write, or call a user function.';
    for (const [expr, position] of [
      [{ paginate: { join: match(byCity, 'Rome'), with: write } }, ['paginate', 'with']],
      [{ paginate: { join: match(byCity, 'Rome'), with: read } }, ['paginate', 'with']],
      [
        {
          join: match(byCity, 'Rome'),
          with: {
            lambda: 'c',
            expr: { if: false, then: { match: index(byCity), terms: 'x' }, else: { select: 'ref', from: { get: { var: 'c' } } } },
          },
        },
        ['with'],
      ],
    ] as const) {
      const res = (await t.server.query(expr)).expectStatus(400).expectErrorCode('invalid argument');
      expect(res.body.errors[0].description).toBe(description);
      expect(res.body.errors[0].position).toEqual(position);
    }
    expect((await t.server.query({ exists: index(created) })).expectStatus(200).resource).toBe(false);
  });

  check(['SET-DOCS-001'], 'Documents(collection) yields the ref of every live document', async () => {
    const other = uniqueName('docs');
    (await t.server.query({ create_collection: { object: { name: other } } })).expectStatus(201);
    const made = (
      (await t.server.query([createDoc(other, { a: 1n }), createDoc(other, { a: 2n }), createDoc(other, { a: 3n })])).expectStatus(200)
        .resource as Array<{ ref: WireValue }>
    ).map((d) => d.ref);
    (await t.server.query({ delete: made[1] })).expectStatus(200);
    expect(sortedIds((await paginate(t.server, { documents: collection(other) })).data)).toEqual(sortedIds([made[0]!, made[2]!]));
  });
});
