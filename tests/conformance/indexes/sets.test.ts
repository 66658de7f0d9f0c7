import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import type { WireValue } from '../../harness/model/wire-order.js';
import { NO_INDEX, collection, createActiveIndex, createDoc, expectQueryError, index, match, paginate, refId, uniqueName } from './index-fixtures.js';

const t = useTenant({ roles: ['server'] });
const coll = uniqueName('people');
const byCity = uniqueName('by_city');
const byRole = uniqueName('by_role');
const byCityRole = uniqueName('by_city_role');
const all = uniqueName('all');
const cityOfRef = uniqueName('city_of');
let refs: WireValue[] = [];

const people = [
  { city: 'Paris', role: 'admin' },
  { city: 'Paris', role: 'user' },
  { city: 'Rome', role: 'admin' },
  { city: 'Oslo', role: 'user' },
];

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  refs = ((await t.server.query(people.map((p) => createDoc(coll, p)))).expectStatus(200).resource as Array<{ ref: WireValue }>).map((d) => d.ref);
  await createActiveIndex(t.server, { name: byCity, source: collection(coll), terms: [{ field: ['data', 'city'] }] });
  await createActiveIndex(t.server, { name: byRole, source: collection(coll), terms: [{ field: ['data', 'role'] }] });
  await createActiveIndex(t.server, { name: byCityRole, source: collection(coll), terms: [{ field: ['data', 'city'] }, { field: ['data', 'role'] }] });
  await createActiveIndex(t.server, { name: all, source: collection(coll) });
  await createActiveIndex(t.server, { name: cityOfRef, source: collection(coll), terms: [{ field: ['ref'] }], values: [{ field: ['data', 'city'] }] });
});

const ids = (data: WireValue[]): string[] => data.map(refId);
const sortedIds = (data: WireValue[]): string[] => ids(data).sort();
const indexRef = (name: string): unknown => ({ '@ref': { id: name, collection: { '@ref': { id: 'indexes' } } } });

describe('Match', () => {
  check(['SET-MATCH-001'], 'Match evaluated alone answers a @set with the index ref and the terms', async () => {
    const res = (await t.server.query(match(byCity, 'Paris'))).expectStatus(200);
    expect(res.resource).toEqual({ '@set': { match: indexRef(byCity), terms: 'Paris' } });
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
    expectQueryError(await t.server.query({ paginate: match(uniqueName('missing'), 'x') }), NO_INDEX);
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

  check(['SET-REF-003'], 'A @set returned by the server and sent back reads the same entries', async () => {
    const set = (await t.server.query({ intersection: [match(byCity, 'Paris'), match(byRole, 'admin')] })).expectStatus(200).resource;
    expect((await paginate(t.server, set)).data).toEqual([refs[0]]);
  });

  check.each(['union', 'intersection', 'difference'])(['SET-REF-004'], 'A %s evaluated alone answers a @set holding its operands', async (kind) => {
    const res = (await t.server.query({ [kind as string]: [match(byCity, 'Paris'), match(byRole, 'admin')] })).expectStatus(200);
    const operands = [{ '@set': { match: indexRef(byCity), terms: 'Paris' } }, { '@set': { match: indexRef(byRole), terms: 'admin' } }];
    expect(res.resource).toEqual({ '@set': { [kind as string]: operands } });
  });

  check(['SET-REF-004'], 'Distinct and Join evaluated alone answer @set holding their operands', async () => {
    expect((await t.server.query({ distinct: match(byCity, 'Paris') })).expectStatus(200).resource).toEqual({ '@set': { distinct: { '@set': { match: indexRef(byCity), terms: 'Paris' } } } });
    expect((await t.server.query({ join: match(byCity, 'Paris'), with: index(cityOfRef) })).expectStatus(200).resource).toEqual({
      '@set': { join: { '@set': { match: indexRef(byCity), terms: 'Paris' } }, with: indexRef(cityOfRef) },
    });
  });
});

describe('Combinations', () => {
  check(['SET-UNION-001'], 'Union yields each entry of either set exactly once, in index order', async () => {
    const data = (await paginate(t.server, { union: [match(byCity, 'Paris'), match(byRole, 'admin')] })).data;
    expect(ids(data)).toEqual(ids([refs[0]!, refs[1]!, refs[2]!]));
  });

  check(['SET-INTERSECT-001', 'SET-INTERSECT-002'], 'Intersection yields exactly the shared entries; with an empty set it is empty', async () => {
    expect((await paginate(t.server, { intersection: [match(byCity, 'Paris'), match(byRole, 'admin')] })).data).toEqual([refs[0]]);
    expect((await paginate(t.server, { intersection: [match(byCity, 'Paris'), match(byCity, 'Nowhere')] })).data).toEqual([]);
  });

  check(['SET-DIFF-001'], 'Difference yields the entries of the first set that are not in the others', async () => {
    expect((await paginate(t.server, { difference: [match(byRole, 'admin'), match(byCity, 'Paris')] })).data).toEqual([refs[2]]);
  });

  check(['SET-DISTINCT-001'], 'Distinct yields each distinct entry once', async () => {
    const cities = uniqueName('cities');
    await createActiveIndex(t.server, { name: cities, source: collection(coll), values: [{ field: ['data', 'city'] }] });
    expect((await paginate(t.server, match(cities))).data).toEqual(['Oslo', 'Paris', 'Paris', 'Rome']);
    expect((await paginate(t.server, { distinct: match(cities) })).data).toEqual(['Oslo', 'Paris', 'Rome']);
  });

  check(['SET-JOIN-001'], 'Join with an index yields that index\'s entries for each value of the source as a term', async () => {
    const data = (await paginate(t.server, { join: match(byRole, 'admin'), with: index(cityOfRef) })).data;
    expect(data).toEqual(['Paris', 'Rome']);
  });

  check(['SET-JOIN-002'], 'Join with a lambda yields the union of the sets it answers', async () => {
    const cities = { union: [match(byCity, 'Rome'), match(byCity, 'Oslo')] };
    const cityNames = uniqueName('names');
    await createActiveIndex(t.server, { name: cityNames, source: collection(coll), terms: [{ field: ['data', 'city'] }], values: [{ field: ['data', 'city'] }] });
    const joined = { join: match(cityNames, 'Rome'), with: { lambda: 'c', expr: { match: index(byCity), terms: { var: 'c' } } } };
    expect((await paginate(t.server, joined)).data).toEqual([refs[2]]);
    expect(sortedIds((await paginate(t.server, cities)).data)).toEqual(sortedIds([refs[2]!, refs[3]!]));
  });

  check(['SET-DOCS-001'], 'Documents(collection) yields the ref of every live document', async () => {
    const other = uniqueName('docs');
    (await t.server.query({ create_collection: { object: { name: other } } })).expectStatus(201);
    const made = ((await t.server.query([createDoc(other, { a: 1n }), createDoc(other, { a: 2n }), createDoc(other, { a: 3n })])).expectStatus(200).resource as Array<{ ref: WireValue }>).map((d) => d.ref);
    (await t.server.query({ delete: made[1] })).expectStatus(200);
    expect(sortedIds((await paginate(t.server, { documents: collection(other) })).data)).toEqual(sortedIds([made[0]!, made[2]!]));
  });
});
