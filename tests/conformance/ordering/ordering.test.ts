// Ordering of index values, driven by ordering-cases.json (pure data): each case's values are stored in one
// document each, covered by one index value (with the case's reverse flag), and must come back in the listed
// order on one page and across pages of size 1.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect } from 'vitest';
import { check, parseWireJson, useTenant } from '../../harness/index.js';
import { WIRE_TYPE_ORDER, wireTypeOf, type WireValue } from '../../harness/model/wire-order.js';
import { collection, createDoc, createIndex, match, paginate, pastEnd, uniqueName, walkBackward, walkForward } from '../indexes/index-fixtures.js';

interface OrderingCase {
  description: string;
  values: WireValue[];
  reverse?: boolean;
  missing?: boolean;
}

const cases = (parseWireJson(readFileSync(new URL('./ordering-cases.json', import.meta.url), 'utf8')) as { cases: OrderingCase[] }).cases;
const t = useTenant({ roles: ['server'] });

/** The collections the cases' document refs name, in name order. */
function collectionsNamedBy(values: readonly WireValue[]): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const collection = (v as { '@ref'?: { collection?: { '@ref'?: { id?: unknown; collection?: { '@ref'?: { id?: unknown } } } } } })['@ref']?.collection?.['@ref'];
      if (collection?.collection?.['@ref']?.id === 'collections' && typeof collection.id === 'string') names.add(collection.id);
      Object.values(v).forEach(visit);
    }
  };
  visit(values);
  return [...names].sort();
}

// A write holding a ref must name a collection that exists (DOC-REF-001), so the collections the cases' refs name
// are created first, one by one in name order (the real service orders refs by collection id).
beforeAll(async () => {
  for (const name of collectionsNamedBy(cases.flatMap((c) => c.values))) {
    (await t.server.query({ create_collection: { object: { name } } })).expectStatus(201);
  }
});

const CONTENT_ID: Record<string, string> = {
  integer: 'ORD-CONTENT-001',
  decimal: 'ORD-CONTENT-002',
  string: 'ORD-CONTENT-003',
  array: 'ORD-CONTENT-004',
  object: 'ORD-CONTENT-005',
  time: 'ORD-CONTENT-006',
  date: 'ORD-CONTENT-006',
  boolean: 'ORD-CONTENT-007',
  ref: 'ORD-CONTENT-008',
};

/** The requirements a case exercises, derived from the types of its values. */
function requirementsOf(c: OrderingCase): string[] {
  const types = c.values.map((v) => wireTypeOf(v));
  const ids = new Set<string>();
  if (c.reverse) ids.add(new Set(types).size > 1 ? 'ORD-REVERSE-003' : 'ORD-REVERSE-001');
  if (c.missing) ids.add('ORD-TYPE-009');
  if (new Set(types).size === WIRE_TYPE_ORDER.length - 3) ids.add('ORD-TYPE-010');
  for (let i = 1; i < types.length; i++) {
    const [a, b] = [types[i - 1]!, types[i]!];
    if (a === b) {
      if (CONTENT_ID[a] && !c.reverse) ids.add(CONTENT_ID[a]);
      continue;
    }
    const [lo, hi] = c.reverse ? [b, a] : [a, b];
    const rank = WIRE_TYPE_ORDER.indexOf(lo);
    if (WIRE_TYPE_ORDER.indexOf(hi) === rank + 1 && rank < 8) ids.add(`ORD-TYPE-00${rank + 1}`);
    else if (lo === 'decimal' && hi === 'null') ids.add('ORD-TYPE-009');
    else ids.add('ORD-TYPE-010');
  }
  return [...ids];
}

/**
 * An array in a covered field indexes each element (SD "Term object"), so a case holding arrays is stored one
 * level down, as `{"w": value}`: objects compare by key and then by value, which keeps the case's order and
 * makes the array order observable. Null (and a missing value) stays a missing field.
 */
function stored(c: OrderingCase, v: WireValue): WireValue {
  return c.values.some((x) => JSON.stringify(x, (_k, y: unknown) => (typeof y === 'bigint' ? 0 : y)).includes('[')) && v !== null ? { w: v } : v;
}

/**
 * Stores one document per value (the last without the field when the case says `missing`) and indexes it
 * with values [v, ref]: the ref keeps an entry whose v is null in the index (an all-null entry is not indexed).
 */
async function storeCase(c: OrderingCase): Promise<string> {
  const coll = uniqueName('o');
  const name = uniqueName('oi');
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  (await t.server.query(createIndex({ name, source: collection(coll), values: [{ field: ['data', 'v'], ...(c.reverse ? { reverse: true } : {}) }, { field: ['ref'] }], active: true }))).expectStatus(201);
  // Written in reverse of the expected order so that insertion order cannot pass for index order.
  const docs = c.values.map((v, i): WireValue => ((c.missing && i === c.values.length - 1) || v === null ? { other: 0n } : { v: stored(c, v) })).reverse();
  (await t.server.query(docs.map((d) => createDoc(coll, d)))).expectStatus(200, 201);
  return name;
}

const firstValues = (data: WireValue[]): WireValue[] => data.map((e) => (e as WireValue[])[0]!);

describe('Ordering cases', () => {
  for (const c of cases) {
    check(requirementsOf(c), `${c.description}${c.reverse ? ' (reverse)' : ''}`, async () => {
      const name = await storeCase(c);
      const expected = c.values.map((v) => stored(c, v));
      const onePage = firstValues((await paginate(t.server, match(name), { size: 1000n })).data);
      expect(onePage).toEqual(expected);
      const walked = firstValues((await walkForward(t.server, match(name), 1)).flatMap((p) => p.data));
      expect(walked).toEqual(expected);
    });
  }
});

describe('Several values and reverse', () => {
  check(['ORD-CONTENT-009', 'ORD-REVERSE-002', 'ORD-REVERSE-004'], 'Entries sort by the first value then the second; reverse on the first leaves the second ascending; no reverse means ascending', async () => {
    const coll = uniqueName('o');
    const asc = uniqueName('asc');
    const rev = uniqueName('rev');
    (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
    (await t.server.query([
      createIndex({ name: asc, source: collection(coll), values: [{ field: ['data', 'a'] }, { field: ['data', 'b'] }], active: true }),
      createIndex({ name: rev, source: collection(coll), values: [{ field: ['data', 'a'], reverse: true }, { field: ['data', 'b'] }], active: true }),
    ])).expectStatus(200);
    (await t.server.query([[1n, 2n], [2n, 1n], [1n, 1n], [2n, 3n]].map(([a, b]) => createDoc(coll, { a: a!, b: b! })))).expectStatus(200);
    expect((await paginate(t.server, match(asc))).data).toEqual([[1n, 1n], [1n, 2n], [2n, 1n], [2n, 3n]]);
    expect((await paginate(t.server, match(rev))).data).toEqual([[2n, 1n], [2n, 3n], [1n, 1n], [1n, 2n]]);
  });

  check(['ORD-REVERSE-005'], 'Walking a reversed index forward by after and backward by before visits the entries in reversed order, without gaps or repeats', async () => {
    const coll = uniqueName('o');
    const name = uniqueName('revwalk');
    (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
    (await t.server.query(createIndex({ name, source: collection(coll), values: [{ field: ['data', 'v'], reverse: true }, { field: ['ref'] }], active: true }))).expectStatus(201);
    const vs = [3n, 1n, 4n, 1n, 5n, 9n, 2n, 6n, 5n];
    const created = (await t.server.query(vs.map((v) => createDoc(coll, { v })))).expectStatus(200).resource as Array<{ ref: WireValue; data: { v: bigint } }>;
    const id = (ref: WireValue): bigint => BigInt((ref as { '@ref': { id: string } })['@ref'].id);
    // v descending; equal values keep the ref column ascending (reverse applies to v only).
    const expected = created
      .map((d) => [d.data.v, d.ref] as [bigint, WireValue])
      .sort((a, b) => (a[0] !== b[0] ? (a[0] > b[0] ? -1 : 1) : id(a[1]) < id(b[1]) ? -1 : 1));
    const forward = (await walkForward(t.server, match(name), 2)).flatMap((p) => p.data);
    expect(forward).toEqual(expected);
    const backward = (await walkBackward(t.server, match(name), 2, pastEnd([true, false]))).reverse().flatMap((p) => p.data);
    expect(backward).toEqual(expected);
  });

  check(['ORD-CONTENT-010'], 'Entries with equal covered values sort by their document ref', async () => {
    const coll = uniqueName('o');
    const name = uniqueName('eq');
    (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
    (await t.server.query(createIndex({ name, source: collection(coll), values: [{ field: ['data', 'v'] }, { field: ['ref'] }], active: true }))).expectStatus(201);
    const ids = ['30', '4', '200', '1'];
    (await t.server.query(ids.map((id) => ({ create: { ref: collection(coll), id }, params: { object: { data: { object: { v: 'same' } } } } })))).expectStatus(200);
    const data = (await paginate(t.server, match(name))).data as Array<[string, { '@ref': { id: string } }]>;
    expect(data.map((e) => e[1]['@ref'].id)).toEqual(['1', '4', '30', '200']);
  });
});
