import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueName, useTenant } from '../../harness/index.js';
import {
  collection,
  createActiveIndex,
  createDoc,
  cursorExpr,
  match,
  paginate,
  refId,
  walkBackward,
  walkForward,
} from '../../harness/v4.js';
import type { WireValue } from '../../harness/model/wire-order.js';

const t = useTenant({ roles: ['server'] });
const coll = uniqueName('items');
const byRef = uniqueName('refs');
const byN = uniqueName('by_n');
const byGroup = uniqueName('group');
const empty = uniqueName('empty');
const COUNT = 70;
let refs: WireValue[] = [];

beforeAll(async () => {
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  // n repeats (i % 7), so equal covered values straddle page boundaries.
  const created = (
    await t.server.query(Array.from({ length: COUNT }, (_, i) => createDoc(coll, { i: BigInt(i), n: BigInt(i % 7) })))
  ).expectStatus(200).resource as Array<{ ref: WireValue }>;
  refs = created.map((d) => d.ref);
  await createActiveIndex(t.server, { name: byRef, source: collection(coll) });
  await createActiveIndex(t.server, { name: byN, source: collection(coll), values: [{ field: ['data', 'n'] }] });
  await createActiveIndex(t.server, {
    name: byGroup,
    source: collection(coll),
    terms: [{ field: ['data', 'n'] }],
    values: [{ field: ['data', 'i'] }],
  });
  await createActiveIndex(t.server, { name: empty, source: collection(coll), terms: [{ field: ['data', 'absent'] }] });
});

const ids = (data: WireValue[]): string[] => data.map(refId);
/** The refs sorted as the index orders them (by ref: numeric ids numerically). */
const refOrder = (): WireValue[] =>
  [...refs].sort((a, b) => {
    const x = BigInt(refId(a));
    const y = BigInt(refId(b));
    return x < y ? -1 : x > y ? 1 : 0;
  });

// The tests read the fixtures written above or write collections and indexes of their own, so they run at once.
describe.concurrent('Pages', () => {
  check(
    ['PAGE-SHAPE-001', 'PAGE-SHAPE-002', 'PAGE-SHAPE-003'],
    'A page has data; after while more follows, none on the last page; before only on pages reached with after',
    async () => {
      const first = await paginate(t.server, match(byRef), { size: 30n });
      expect(Array.isArray(first.data)).toBe(true);
      expect(first.after).toBeDefined();
      expect(first.before).toBeUndefined();
      const second = await paginate(t.server, match(byRef), { size: 30n, after: cursorExpr(first.after!) });
      expect(second.before).toBeDefined();
      const last = await paginate(t.server, match(byRef), { size: 100n, after: cursorExpr(first.after!) });
      expect(last.after).toBeUndefined();
      expect(last.before).toBeDefined();
    },
  );

  check(['PAGE-CURSOR-012'], 'A page reached with a cursor carries it on the side it came from, a bare value as an array', async () => {
    const first = await paginate(t.server, match(byRef), { size: 30n });
    const second = await paginate(t.server, match(byRef), { size: 30n, after: cursorExpr(first.after!) });
    expect(second.before).toEqual(first.after);
    const back = await paginate(t.server, match(byRef), { size: 10n, before: cursorExpr(second.before!) });
    expect(back.after).toEqual(second.before);
    // A prefix the client built comes back as sent, not as the tuple of the first entry it reaches.
    const fromValue = await paginate(t.server, match(byGroup, 3n), { after: 20n, size: 2n });
    expect(fromValue).toEqual({ before: [20n], after: [38n, refs[38]], data: [24n, 31n] });
    const toValue = await paginate(t.server, match(byGroup, 3n), { before: [21n], size: 2n });
    expect(toValue).toEqual({ before: [10n, refs[10]], after: [21n], data: [10n, 17n] });
  });

  check(['PAGE-SHAPE-004'], 'An empty set answers {"data": []} without cursors', async () => {
    expect(await paginate(t.server, match(empty, 'x'))).toEqual({ data: [] });
  });

  check(['PAGE-SHAPE-005', 'PAGE-CURSOR-003'], 'Walking forward with after visits every entry once, in index order', async () => {
    const pages = await walkForward(t.server, match(byRef), 9);
    expect(ids(pages.flatMap((p) => p.data))).toEqual(ids(refOrder()));
  });
});

describe.concurrent('Size', () => {
  check(['PAGE-SIZE-001'], 'size n gives exactly n entries when enough follow, fewer at the end', async () => {
    expect((await paginate(t.server, match(byRef), { size: 7n })).data).toHaveLength(7);
    const first = await paginate(t.server, match(byRef), { size: 65n });
    expect((await paginate(t.server, match(byRef), { size: 65n, after: cursorExpr(first.after!) })).data).toHaveLength(COUNT - 65);
  });

  check(['PAGE-SIZE-002'], 'Without size a page holds 64 entries', async () => {
    const page = await paginate(t.server, match(byRef));
    expect(page.data).toHaveLength(64);
    expect(page.after).toBeDefined();
  });

  check(['PAGE-SIZE-003'], 'size 100000 is accepted', async () => {
    expect((await paginate(t.server, match(byRef), { size: 100000n })).data).toHaveLength(COUNT);
  });

  check.each(['2.5', '"10"'])(['PAGE-SIZE-004'], 'size %s (not an integer) answers 400 invalid argument', async (size) => {
    const value = size === '2.5' ? 2.5 : '10';
    (await t.server.query({ paginate: match(byRef), size: value })).expectStatus(400).expectErrorCode('invalid argument');
  });

  check(['PAGE-SIZE-006'], 'a negative size with a cursor carries it on its own side only', async () => {
    const first = await paginate(t.server, match(byRef), { size: 5n });
    expect(await paginate(t.server, match(byRef), { size: -1n, after: cursorExpr(first.after!) })).toEqual({
      before: first.after,
      data: [],
    });
    expect(await paginate(t.server, match(byRef), { size: -3n, before: cursorExpr(first.after!) })).toEqual({
      after: first.after,
      data: [],
    });
  });

  check(
    ['PAGE-SIZE-005'],
    'size 0 and a negative size answer an empty page; size 0 after a cursor answers that cursor on both sides',
    async () => {
      for (const size of [0n, -1n, -100n]) {
        const page = await paginate(t.server, match(byRef), { size });
        expect(page.data, `size ${size}`).toEqual([]);
      }
      const first = await paginate(t.server, match(byRef), { size: 5n });
      const empty = await paginate(t.server, match(byRef), { size: 0n, after: cursorExpr(first.after!) });
      expect(empty.data).toEqual([]);
      expect(empty.after).toEqual(first.after);
      expect(empty.before).toEqual(first.after);
    },
  );

  check(['LIMIT-PAGE-001'], 'a size above 100000 is served as 100000, not refused', async () => {
    for (const size of [100001n, 5_000_000n]) expect((await paginate(t.server, match(byRef), { size })).data).toHaveLength(COUNT);
  });
});

describe.concurrent('Cursors', () => {
  check(['PAGE-CURSOR-001'], 'The next page starts at the entry the after cursor names (inclusive)', async () => {
    const first = await paginate(t.server, match(byRef), { size: 10n });
    const all = refOrder();
    expect(first.after).toEqual([all[10]]);
    const next = await paginate(t.server, match(byRef), { size: 10n, after: cursorExpr(first.after!) });
    expect(next.data[0]).toEqual(all[10]);
  });

  check(['PAGE-CURSOR-002'], 'before answers the entries preceding the cursor, excluding it', async () => {
    const all = refOrder();
    const page = await paginate(t.server, match(byRef), { size: 5n, before: [all[20]] });
    expect(ids(page.data)).toEqual(ids(all.slice(15, 20)));
    expect(page.after).toEqual([all[20]]);
    expect(page.before).toEqual([all[15]]);
  });

  check(['PAGE-CURSOR-004'], 'Walking backward with before from the end visits every entry once', async () => {
    const pages = await walkBackward(t.server, match(byRef), 8);
    expect(ids(pages.reverse().flatMap((p) => p.data))).toEqual(ids(refOrder()));
  });

  check(
    ['PAGE-CURSOR-005', 'PAGE-CURSOR-006'],
    'Cursors of a values index end with the ref; equal values split across pages without gaps or repeats',
    async () => {
      const first = await paginate(t.server, match(byN), { size: 4n });
      expect(first.after).toHaveLength(2);
      expect(first.after![1]).toMatchObject({ '@ref': expect.any(Object) });
      const walked = (await walkForward(t.server, match(byN), 4)).flatMap((p) => p.data);
      const expected = refs.map((_, i) => BigInt(i % 7)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(walked).toEqual(expected);
    },
  );

  check(['PAGE-CURSOR-007'], 'Inserts and deletes between pages never make a walk repeat or skip an entry present throughout', async () => {
    const group = uniqueName('g');
    const local = uniqueName('c');
    (await t.server.query({ create_collection: { object: { name: local } } })).expectStatus(201);
    const idx = uniqueName('i');
    await createActiveIndex(t.server, { name: idx, source: collection(local), values: [{ field: ['data', 'v'] }, { field: ['ref'] }] });
    const stable = (
      (await t.server.query(Array.from({ length: 30 }, (_, i) => createDoc(local, { v: BigInt(i * 10), g: group })))).expectStatus(200)
        .resource as Array<{ ref: WireValue }>
    ).map((d) => d.ref);
    const seen: WireValue[] = [];
    let after: WireValue[] | undefined;
    let round = 0;
    do {
      const page = await paginate(t.server, match(idx), after === undefined ? { size: 4n } : { size: 4n, after: cursorExpr(after) });
      seen.push(...page.data.map((e) => (e as WireValue[])[1]!));
      after = page.after;
      // Before and after the cursor position: an insert with a smaller value, one with a larger value, and a transient one deleted again.
      const burst = (
        await t.server.query([
          createDoc(local, { v: BigInt(round * 10 + 1) }),
          createDoc(local, { v: BigInt(295 - round) }),
          createDoc(local, { v: 5n }),
        ])
      ).expectStatus(200).resource as Array<{ ref: WireValue }>;
      (await t.server.query({ delete: burst[2]!.ref })).expectStatus(200);
      round++;
    } while (after !== undefined && round < 100);
    const seenIds = ids(seen);
    expect(new Set(seenIds).size, 'no entry seen twice').toBe(seenIds.length);
    for (const ref of stable) expect(seenIds, 'every entry present throughout is seen').toContain(refId(ref));
  });

  check(['PAGE-CURSOR-008'], 'An after cursor sent back with @ref literals is accepted', async () => {
    const first = await paginate(t.server, match(byRef), { size: 3n });
    // The cursor goes back exactly as received: an array holding a {"@ref": …} literal, as the driver resends it.
    const next = await paginate(t.server, match(byRef), { size: 3n, after: first.after });
    expect(next.data[0]).toEqual(first.after![0]);
  });

  check(['PAGE-CURSOR-009'], 'A client-built cursor [value] positions the page at the first entry at or after it', async () => {
    const page = await paginate(t.server, match(byGroup, 3n), { after: [20n] });
    expect(page.data).toEqual([24n, 31n, 38n, 45n, 52n, 59n, 66n]);
    const between = await paginate(t.server, match(byGroup, 3n), { after: [21n], size: 2n });
    expect(between.data).toEqual([24n, 31n]);
  });

  check(['PAGE-CURSOR-010'], '{"cursor": {"after": c}} is equivalent to "after": c', async () => {
    const first = await paginate(t.server, match(byRef), { size: 5n });
    const direct = await paginate(t.server, match(byRef), { size: 5n, after: cursorExpr(first.after!) });
    const viaCursor = await paginate(t.server, match(byRef), { size: 5n, cursor: { object: { after: cursorExpr(first.after!) } } });
    expect(viaCursor).toEqual(direct);
  });
  check(['PAGE-CURSOR-011'], 'cursor: null is the first page; a cursor object with other keys answers 400 invalid argument', async () => {
    const first = await paginate(t.server, match(byRef), { size: 5n });
    expect(await paginate(t.server, match(byRef), { size: 5n, cursor: null })).toEqual(first);
    for (const cursor of [
      { object: { before: null, more: true } },
      { object: { after: cursorExpr(first.after!), before: null } },
      { object: {} },
    ]) {
      const res = (await t.server.query({ paginate: match(byRef), size: 5n, cursor }))
        .expectStatus(400)
        .expectErrorCode('invalid argument');
      expect(res.body.errors[0].description).toBe("Invalid cursor object. Expected an object with either 'before' or 'after' key in it.");
      expect(res.body.errors[0].position).toEqual(['cursor']);
    }
  });

  check(['PAGE-CURSOR-013'], 'before: null pages back from the end carrying after [null]; after: null is past the end', async () => {
    const all = refOrder();
    expect(await paginate(t.server, match(byRef), { size: 5n, before: null })).toEqual({
      before: [all[COUNT - 5]],
      after: [null],
      data: all.slice(COUNT - 5),
    });
    expect(await paginate(t.server, match(byRef), { size: 5n, cursor: { object: { before: null } } })).toEqual({
      before: [all[COUNT - 5]],
      after: [null],
      data: all.slice(COUNT - 5),
    });
    expect(await paginate(t.server, match(byRef), { size: 5n, after: null })).toEqual({ before: [null], data: [] });
    expect(await paginate(t.server, match(byRef), { size: 5n, cursor: { object: { after: null } } })).toEqual({ before: [null], data: [] });
    // An integer sorts before every ref: before it there is nothing, after it the whole set.
    expect(await paginate(t.server, match(byRef), { size: 5n, before: 0n })).toEqual({ after: [0n], data: [] });
    expect(await paginate(t.server, match(byRef), { size: 5n, after: 0n })).toEqual({
      before: [0n],
      after: [all[5]],
      data: all.slice(0, 5),
    });
    // Over covered values, null sorts after every value: the last page of n = 6.
    expect((await paginate(t.server, match(byGroup, 6n), { size: 2n, before: null })).data).toEqual([62n, 69n]);
  });
});

describe.concurrent('Processing pages', () => {
  check(['PAGE-MAP-001'], 'Map over a page applies the lambda to each entry and keeps after and before', async () => {
    const first = await paginate(t.server, match(byGroup, 2n), { size: 2n });
    const res = (
      await t.server.query({
        map: { lambda: 'x', expr: { equals: [{ var: 'x' }, 16n] } },
        collection: { paginate: match(byGroup, 2n), size: 2n, after: cursorExpr(first.after!) },
      })
    ).expectStatus(200).resource;
    expect(res.data).toEqual([true, false]);
    expect(res.after).toBeDefined();
    expect(res.before).toEqual(first.after);
  });

  check(['PAGE-MAP-002'], 'Map with several parameters destructures array entries', async () => {
    const idx = uniqueName('pairs');
    await createActiveIndex(t.server, {
      name: idx,
      source: collection(coll),
      terms: [{ field: ['data', 'n'] }],
      values: [{ field: ['data', 'i'] }, { field: ['data', 'n'] }],
    });
    const res = (
      await t.server.query({
        map: { lambda: ['i', 'n'], expr: [{ var: 'n' }, { var: 'i' }] },
        collection: { paginate: match(idx, 6n), size: 2n },
      })
    ).expectStatus(200).resource;
    expect(res.data).toEqual([
      [6n, 6n],
      [6n, 13n],
    ]);
  });

  check(['PAGE-MAP-003'], 'Filter keeps only the entries for which the lambda answers true', async () => {
    const res = (
      await t.server.query({ filter: { lambda: 'x', expr: { equals: [{ var: 'x' }, 15n] } }, collection: { paginate: match(byGroup, 1n) } })
    ).expectStatus(200).resource;
    expect(res.data).toEqual([15n]);
  });

  check(['PAGE-MAP-004'], 'Select ["data"] on a page answers its data array', async () => {
    expect(
      (await t.server.query({ select: ['data'], from: { paginate: match(byGroup, 5n), size: 2n } })).expectStatus(200).resource,
    ).toEqual([5n, 12n]);
  });

  check(['PAGE-MAP-005'], 'map, filter and foreach work on plain arrays', async () => {
    expect((await t.server.query({ map: { lambda: 'x', expr: [{ var: 'x' }] }, collection: [1n, 2n] })).expectStatus(200).resource).toEqual(
      [[1n], [2n]],
    );
    expect(
      (await t.server.query({ filter: { lambda: 'x', expr: { equals: [{ var: 'x' }, 2n] } }, collection: [1n, 2n] })).expectStatus(200)
        .resource,
    ).toEqual([2n]);
    expect(
      (await t.server.query({ foreach: { lambda: 'x', expr: { var: 'x' } }, collection: [1n, 2n] })).expectStatus(200).resource,
    ).toEqual([1n, 2n]);
  });

  check(['PAGE-MAP-006'], 'Map with Get over a page of refs answers the documents in page order', async () => {
    const page = await paginate(t.server, match(byRef), { size: 3n });
    const docs = (
      await t.server.query({ map: { lambda: 'r', expr: { get: { var: 'r' } } }, collection: { paginate: match(byRef), size: 3n } })
    ).expectStatus(200).resource;
    expect(docs.data.map((d: { ref: WireValue }) => d.ref)).toEqual(page.data);
  });

  check(['PAGE-TS-001'], 'Paginate with ts answers the set as it was then', async () => {
    const local = uniqueName('c');
    (await t.server.query({ create_collection: { object: { name: local } } })).expectStatus(201);
    const idx = uniqueName('i');
    await createActiveIndex(t.server, { name: idx, source: collection(local) });
    const first = (await t.server.query(createDoc(local, { a: 1n }))).expectStatus(201).resource;
    (await t.server.query(createDoc(local, { a: 2n }))).expectStatus(201);
    expect((await paginate(t.server, match(idx), { ts: first.ts })).data).toEqual([first.ref]);
    expect((await paginate(t.server, match(idx))).data).toHaveLength(2);
  });
});
