// Get and Exists of a set (DEC-055): Get answers the document of the set's first entry in the set's own order,
// Exists whether the set has an entry. `Get(Match(index, term))` is the usual v4 lookup of one document.
import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueName, useTenant } from '../../harness/index.js';
import { collection, createActiveIndex, createDoc, match, paginate, refId } from '../../harness/v4.js';
import type { WireValue } from '../../harness/model/wire-order.js';

const t = useTenant({ roles: ['server', 'client'] });
const coll = uniqueName('things');
const byFoo = uniqueName('by_foo');
const barsByFoo = uniqueName('bars_by_foo');

interface Doc {
  ref: WireValue;
  ts: bigint;
  data: Record<string, WireValue>;
}

/** Created one query after another: `first` (foo 1, bar 3), then `second` (foo 1, bar 2), then foo 2 and `solo`. */
let first: Doc;
let second: Doc;
let solo: Doc;

async function created(data: Record<string, unknown>): Promise<Doc> {
  return (await t.server.query(createDoc(coll, data))).expectStatus(201).resource as Doc;
}

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  await createActiveIndex(t.server, { name: byFoo, source: collection(coll), terms: [{ field: ['data', 'foo'] }] });
  await createActiveIndex(t.server, {
    name: barsByFoo,
    source: collection(coll),
    terms: [{ field: ['data', 'foo'] }],
    values: [{ field: ['data', 'bar'] }],
  });
  first = await created({ foo: 1n, bar: 3n });
  second = await created({ foo: 1n, bar: 2n });
  await created({ foo: 2n, bar: 4n });
  solo = await created({ foo: 'solo', bar: 9n });
});

const get = async (set: unknown, opts: Record<string, unknown> = {}): Promise<Doc> =>
  (await t.server.query({ get: set, ...opts })).expectStatus(200).resource as Doc;

describe('Get of a set', () => {
  check(['SET-GET-001'], 'Get of a Match with one entry answers that document, as Get of its ref does', async () => {
    const read = await get(match(byFoo, 'solo'));
    expect(read).toEqual(solo);
    expect(read).toEqual((await t.server.query({ get: solo.ref })).expectStatus(200).resource);
  });

  check(
    ['SET-GET-001'],
    "Get of a Match answers the document of the set's first entry in the index's order, not the first created",
    async () => {
      // The set's order is by data.bar: 2 (the second document created) before 3 (the first).
      expect((await paginate(t.server, match(barsByFoo, 1n))).data).toEqual([2n, 3n]);
      const read = await get(match(barsByFoo, 1n));
      expect(refId(read.ref), 'the document whose entry comes first (bar 2)').toBe(refId(second.ref));
      expect(read).toEqual(second);
      expect(refId(read.ref)).not.toBe(refId(first.ref));
    },
  );

  check(
    ['SET-GET-001'],
    'Get of a Union answers the document of the first entry of the union, whichever operand it comes from',
    async () => {
      const union = { union: [match(barsByFoo, 2n), match(barsByFoo, 1n)] };
      expect((await paginate(t.server, union)).data).toEqual([2n, 3n, 4n]);
      expect(await get(union)).toEqual(second);
    },
  );

  check(['SET-GET-001'], 'Get of a set with ts reads the set and the document as of that time', async () => {
    // When `first` was created, `second` (bar 2) was not there yet: `first` (bar 3) was the set's first entry.
    expect(await get(match(barsByFoo, 1n), { ts: first.ts })).toEqual(first);
    expect(await get(match(barsByFoo, 1n), { ts: second.ts })).toEqual(second);
  });

  check(['SET-GET-001'], 'Get of an empty set answers 404 instance not found at the position of the Get', async () => {
    for (const set of [match(byFoo, 'nothing'), { union: [match(byFoo, 'nothing'), match(barsByFoo, 0n)] }]) {
      const res = await t.server.query({ get: set });
      res.expectStatus(404).expectErrorCode('instance not found');
      expect(res.body.errors[0].position, res.explain('is refused at the Get')).toEqual([]);
    }
    const nested = await t.server.query({ do: [null, { get: match(byFoo, 'nothing') }] });
    nested.expectStatus(404).expectErrorCode('instance not found');
    expect(nested.body.errors[0].position, nested.explain('is refused at the Get')).toEqual(['do', 1n]);
  });

  check(['SET-GET-001'], 'Get of a set whose index the caller may not read answers permission denied, as Paginate does', async () => {
    const paged = await t.client.query({ paginate: match(byFoo, 'solo') });
    paged.expectStatus(403).expectErrorCode('permission denied');
    const res = await t.client.query({ get: match(byFoo, 'solo') });
    res.expectStatus(403).expectErrorCode('permission denied');
  });
});

describe('Exists of a set', () => {
  check(['SET-GET-002'], 'Exists of a set with an entry answers true', async () => {
    const sets = {
      'Match with one entry': match(byFoo, 'solo'),
      'Match with two entries': match(barsByFoo, 1n),
      'Union with an empty operand': { union: [match(byFoo, 'nothing'), match(barsByFoo, 2n)] },
    };
    for (const [name, set] of Object.entries(sets))
      expect((await t.server.query({ exists: set })).expectStatus(200).resource, name).toBe(true);
  });

  check(['SET-GET-002'], 'Exists of an empty set answers false', async () => {
    const sets = {
      'empty Match': match(byFoo, 'nothing'),
      'Union of empty sets': { union: [match(byFoo, 'nothing'), match(barsByFoo, 0n)] },
      'empty Intersection': { intersection: [match(byFoo, 1n), match(byFoo, 2n)] },
    };
    for (const [name, set] of Object.entries(sets))
      expect((await t.server.query({ exists: set })).expectStatus(200).resource, name).toBe(false);
  });
});
