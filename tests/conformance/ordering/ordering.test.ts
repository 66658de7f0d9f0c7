// Ordering of index values, driven by ordering-cases.json (pure data): each case's values are stored in one
// document each, covered by one index value (with the case's reverse flag), and must come back in the listed
// order on one page and across pages of size 1. Where the real service's type order and the SD's differ (decimals,
// bytes: ORD-TYPE-011, ORD-TYPE-012) a case lists both; which one the server follows is probed once, and every case
// must then follow that one.
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect } from 'vitest';
import { check, type Response, stringifyWireJson, uniqueName, useTenant } from '../../harness/index.js';
import {
  collection,
  type ColumnSpec,
  createDoc,
  createIndex,
  decimals,
  docRef,
  match,
  paginate,
  pastEnd,
  refId,
  walkBackward,
  walkForward,
} from '../../harness/v4.js';
import type { WireValue } from '../../harness/model/wire-order.js';
import { ORDERING_CASES, type OrderingCase } from './ordering-cases.js';

const t = useTenant({ roles: ['server'] });

/** The collections the cases' document refs name, in name order. */
function collectionsNamedBy(values: readonly WireValue[]): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const collection = (v as { '@ref'?: { collection?: { '@ref'?: { id?: unknown; collection?: { '@ref'?: { id?: unknown } } } } } })[
        '@ref'
      ]?.collection?.['@ref'];
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
  for (const name of collectionsNamedBy(ORDERING_CASES.flatMap((c) => c.values))) {
    (await t.server.query({ create_collection: { object: { name } } })).expectStatus(201);
  }
  typeOrder = probeTypeOrder();
  // A failed probe fails the tests that ask for the order, not the others: the hook waits for it without failing.
  await typeOrder.catch(() => undefined);
});

/**
 * Arrays and objects are covered whole only by a value object with `mva: false` (the real service; by default it
 * reads an array as one entry per element and an object as null) or by a server that covers them whole without it
 * (the SD's reading). An array in a covered field gives one entry per element either way without `mva: false`, so a
 * case holding arrays is stored one level down, as `{"w": value}`: objects compare by key and then by value, which
 * keeps the case's order and makes the array order observable. Null (and a missing value) stays a missing field.
 */
function stored(c: OrderingCase, v: WireValue): WireValue {
  return c.values.some((x) => JSON.stringify(x, (_k, y: unknown) => (typeof y === 'bigint' ? 0 : y)).includes('[')) && v !== null
    ? { w: v }
    : v;
}

/**
 * Creates an index covering `value` then the ref. A case covering arrays or objects whole asks for `mva: false`; a
 * server that refuses the attribute (it is not in the SD) covers objects whole anyway, so the index is then created
 * without it.
 */
async function createOrderingIndex(coll: string, name: string, value: ColumnSpec): Promise<void> {
  const create = (column: ColumnSpec): Promise<Response> =>
    t.server.query(createIndex({ name, source: collection(coll), values: [column, { field: ['ref'] }], active: true }));
  const res = await create(value);
  if (res.status === 400 && value.mva === false) {
    const { mva: _mva, ...plain } = value;
    (await create(plain)).expectStatus(201);
    return;
  }
  res.expectStatus(201);
}

/**
 * Stores one document per value (the last without the field when the case says `missing`) and indexes it
 * with values [v, ref]: the ref keeps an entry whose v is null in the index (an all-null entry is not indexed).
 */
async function storeCase(c: OrderingCase): Promise<string> {
  const coll = uniqueName('o');
  const name = uniqueName('oi');
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  await createOrderingIndex(coll, name, {
    field: ['data', 'v'],
    ...(c.reverse ? { reverse: true } : {}),
    ...(c.whole ? { mva: false } : {}),
  });
  // Written in reverse of the expected order so that insertion order cannot pass for index order.
  const docs = c.values
    .map((v, i): WireValue => ((c.missing && i === c.values.length - 1) || v === null ? { other: 0n } : { v: stored(c, v) }))
    .reverse();
  (await t.server.query(docs.map((d) => createDoc(coll, decimals(d))))).expectStatus(200, 201);
  return name;
}

const firstValues = (data: WireValue[]): WireValue[] => data.map((e) => (e as WireValue[])[0]!);

type TypeOrder = 'real service' | 'SD';

/** One value of each type whose place differs between the two type orders, and a neighbour of each. */
const PROBE: OrderingCase = {
  description: 'type order probe',
  values: [1.5, 5n, { '@bytes': 'AQI=' }, 'x'],
  sd: [5n, 'x', 1.5, { '@bytes': 'AQI=' }],
  requirements: ['ORD-TYPE-011', 'ORD-TYPE-012'],
};

/** The type order of the probe's page; a page following neither fails every test that asks for it. */
async function probeTypeOrder(): Promise<TypeOrder> {
  const page = firstValues((await paginate(t.server, match(await storeCase(PROBE)))).data);
  if (isDeepStrictEqual(page, PROBE.values)) return 'real service';
  if (isDeepStrictEqual(page, PROBE.sd)) return 'SD';
  throw new Error(`the type order probe came back in neither accepted order: ${stringifyWireJson(page)}`);
}

let typeOrder: Promise<TypeOrder> | undefined;

/**
 * The type order the server's pages follow (ORD-TYPE-011, ORD-TYPE-012: one of the two, for every page), probed once
 * for the file, before its tests, so that each test holds its cases to the same one.
 */
function serverTypeOrder(): Promise<TypeOrder> {
  if (typeOrder === undefined) throw new Error('the type order is probed in beforeAll');
  return typeOrder;
}

/** The order a case must come back in under the server's type order. */
async function expectedOrder(c: OrderingCase): Promise<WireValue[]> {
  const order = c.sd !== undefined && (await serverTypeOrder()) === 'SD' ? c.sd : c.values;
  return order.map((v) => stored(c, v));
}

// Every test below works in a collection and an index of its own, so they run at once: against a distant server this
// file is otherwise the suite's longest chain of round trips (a case makes one per value and a few more).

describe.concurrent('Ordering cases', () => {
  for (const c of ORDERING_CASES) {
    check(c.requirements, `${c.description}${c.reverse ? ' (reverse)' : ''}`, async () => {
      const name = await storeCase(c);
      const onePage = firstValues((await paginate(t.server, match(name), { size: 1000n })).data);
      expect(onePage).toEqual(await expectedOrder(c));
      const walked = firstValues((await walkForward(t.server, match(name), 1)).flatMap((p) => p.data));
      expect(walked).toEqual(onePage);
    });
  }
});

describe.concurrent('Nulls and numbers', () => {
  /** A collection with an index covering [v, ref], and documents created in the order given (so refs ascend). */
  async function indexed(docs: Array<Record<string, unknown>>): Promise<{ name: string; refs: WireValue[] }> {
    const coll = uniqueName('o');
    const name = uniqueName('oi');
    (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
    (
      await t.server.query(
        createIndex({ name, source: collection(coll), values: [{ field: ['data', 'v'] }, { field: ['ref'] }], active: true }),
      )
    ).expectStatus(201);
    const refs: WireValue[] = [];
    for (const d of docs) refs.push((await t.server.query(createDoc(coll, decimals(d as WireValue)))).expectStatus(201).resource.ref);
    return { name, refs };
  }

  check(
    ['ORD-TYPE-009'],
    'A missing value and a null (an array holding null) are the same null: after a decimal, among themselves by ref',
    async () => {
      const { name, refs } = await indexed([{ v: [null] }, { other: 0n }, { v: 9.5 }, { v: [null] }]);
      const [nullElement, missing, decimal, laterNull] = refs;
      expect((await paginate(t.server, match(name))).data).toEqual([
        [9.5, decimal],
        [null, nullElement],
        [null, missing],
        [null, laterNull],
      ]);
    },
  );

  check(
    ['ORD-TYPE-011'],
    'An integer and a decimal of equal value: equal and ordered by ref (real service), or the integer first (SD)',
    async () => {
      const { name, refs } = await indexed([{ v: 1.0 }, { v: 1n }]);
      const [decimal, integer] = refs;
      const data = (await paginate(t.server, match(name))).data;
      // The real service compares them by value (equal), so the ref decides; the SD's type order puts integers first.
      expect(data).toEqual(
        (await serverTypeOrder()) === 'SD'
          ? [
              [1n, integer],
              [1, decimal],
            ]
          : [
              [1, decimal],
              [1n, integer],
            ],
      );
    },
  );
});

describe.concurrent('Several values and reverse', () => {
  check(
    ['ORD-CONTENT-009', 'ORD-REVERSE-002', 'ORD-REVERSE-004'],
    'Entries sort by the first value then the second; reverse on the first leaves the second ascending; no reverse means ascending',
    async () => {
      const coll = uniqueName('o');
      const asc = uniqueName('asc');
      const rev = uniqueName('rev');
      (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
      (
        await t.server.query([
          createIndex({ name: asc, source: collection(coll), values: [{ field: ['data', 'a'] }, { field: ['data', 'b'] }], active: true }),
          createIndex({
            name: rev,
            source: collection(coll),
            values: [{ field: ['data', 'a'], reverse: true }, { field: ['data', 'b'] }],
            active: true,
          }),
        ])
      ).expectStatus(200);
      (
        await t.server.query(
          [
            [1n, 2n],
            [2n, 1n],
            [1n, 1n],
            [2n, 3n],
          ].map(([a, b]) => createDoc(coll, { a: a!, b: b! })),
        )
      ).expectStatus(200);
      expect((await paginate(t.server, match(asc))).data).toEqual([
        [1n, 1n],
        [1n, 2n],
        [2n, 1n],
        [2n, 3n],
      ]);
      expect((await paginate(t.server, match(rev))).data).toEqual([
        [2n, 1n],
        [2n, 3n],
        [1n, 1n],
        [1n, 2n],
      ]);
    },
  );

  check(
    ['ORD-REVERSE-005'],
    'Walking a reversed index forward by after and backward by before visits the entries in reversed order, without gaps or repeats',
    async () => {
      const coll = uniqueName('o');
      const name = uniqueName('revwalk');
      (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
      (
        await t.server.query(
          createIndex({
            name,
            source: collection(coll),
            values: [{ field: ['data', 'v'], reverse: true }, { field: ['ref'] }],
            active: true,
          }),
        )
      ).expectStatus(201);
      const vs = [3n, 1n, 4n, 1n, 5n, 9n, 2n, 6n, 5n];
      const created = (await t.server.query(vs.map((v) => createDoc(coll, { v })))).expectStatus(200).resource as Array<{
        ref: WireValue;
        data: { v: bigint };
      }>;
      const id = (ref: WireValue): bigint => BigInt((ref as { '@ref': { id: string } })['@ref'].id);
      // v descending; equal values keep the ref column ascending (reverse applies to v only).
      const expected = created
        .map((d) => [d.data.v, d.ref] as [bigint, WireValue])
        .sort((a, b) => (a[0] !== b[0] ? (a[0] > b[0] ? -1 : 1) : id(a[1]) < id(b[1]) ? -1 : 1));
      const forward = (await walkForward(t.server, match(name), 2)).flatMap((p) => p.data);
      expect(forward).toEqual(expected);
      const backward = (await walkBackward(t.server, match(name), 2, pastEnd([true, false]))).reverse().flatMap((p) => p.data);
      expect(backward).toEqual(expected);
    },
  );

  check(['ORD-CONTENT-010'], 'Entries with equal covered values sort by their document ref', async () => {
    const coll = uniqueName('o');
    const withRef = uniqueName('eq');
    const valuesOnly = uniqueName('tie');
    (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
    (
      await t.server.query([
        createIndex({ name: withRef, source: collection(coll), values: [{ field: ['data', 'v'] }, { field: ['ref'] }], active: true }),
        // Covers no ref: entries equal in both values differ only by the ref, so the tie-break alone orders them.
        createIndex({
          name: valuesOnly,
          source: collection(coll),
          values: [{ field: ['data', 'v'] }, { field: ['data', 'w'] }],
          active: true,
        }),
      ])
    ).expectStatus(200);
    // Created out of id order, and ids whose text order differs from their numeric order.
    const ids = ['30', '4', '200', '1'];
    (await t.server.query(ids.map((id) => createDoc(docRef(coll, id), { v: 'same', w: 1n })))).expectStatus(200);
    const data = (await paginate(t.server, match(withRef))).data as Array<[string, WireValue]>;
    expect(data.map((e) => refId(e[1]))).toEqual(['1', '4', '30', '200']);
    // A cursor carries the boundary entry's ref after its values (PAGE-CURSOR-005): walking one entry a page, each page's
    // `after` names the next entry's ref, so the refs come out in the order the tie-break gave the entries.
    const pages = await walkForward(t.server, match(valuesOnly), 1);
    expect(pages.map((p) => p.data)).toEqual(ids.map(() => [['same', 1n]]));
    expect(pages.flatMap((p) => (p.after === undefined ? [] : [refId(p.after.at(-1)!)]))).toEqual(['4', '30', '200']);
  });
});
