import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../harness/index.js';
import { collection, createCollection, createDoc, docRef, exists, getDoc, refId, txnTime, updateDoc } from '../../harness/v4.js';

const COLL = 'ledger';
const OTHER = 'journal';

/** `{"@ts": "…Z"}` → microseconds since the epoch; digits beyond microseconds must be zero to be exact. */
function isoToMicros(iso: string): bigint {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!match) throw new Error(`not an ISO 8601 UTC time: ${iso}`);
  const fraction = (match[2] ?? '').padEnd(9, '0');
  expect(fraction.slice(6), `${iso} has no precision below microseconds`).toBe('000');
  return BigInt(Date.parse(`${match[1]}Z`)) * 1000n + BigInt(fraction.slice(0, 6));
}

describe('Transactions', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query([createCollection(COLL), createCollection(OTHER)])).expectStatus(200);
    (await t.server.query(createDoc(docRef(COLL, '1'), { balance: 10 }))).expectStatus(201);
  });

  check(['TXN-ATOMIC-001'], 'all documents written by one request carry the same ts', async () => {
    const res = await t.server.query([
      createDoc(docRef(COLL, '10'), { n: 1 }),
      createDoc({ collection: COLL }, { n: 2 }),
      createDoc({ collection: OTHER }, { n: 3 }),
      updateDoc(docRef(COLL, '1'), { touched: true }),
    ]);
    const docs = res.expectStatus(200).resource as Array<{ ts: bigint; ref: { '@ref': { id: string } } }>;
    const stamps = new Set(docs.map((d) => d.ts));
    expect(stamps.size, res.explain('wrote documents with different ts')).toBe(1);
    expect([...stamps][0]).toBe(txnTime(res));
    const reread = (await t.server.query(docs.map((d) => ({ select: ['ts'], from: { get: d.ref } })))).expectStatus(200);
    expect(reread.resource).toEqual(docs.map((d) => d.ts));
  });

  describe('a failing request leaves no trace of its earlier writes', () => {
    const cases: Array<{ name: string; id: string; failing: unknown; status: number }> = [
      { name: 'an abort after two creates', id: '20', failing: { abort: 'stop' }, status: 400 },
      { name: 'an unknown function after a create', id: '21', failing: { frobnicate: 1 }, status: 400 },
      { name: 'a wrong argument type after a create', id: '22', failing: { if: 'not a boolean', then: 1, else: 2 }, status: 400 },
      { name: 'a Get of a missing document after a create', id: '23', failing: getDoc(docRef(COLL, '999999')), status: 404 },
      { name: 'a duplicate create after a create', id: '24', failing: createDoc(docRef(COLL, '1'), { dup: true }), status: 400 },
    ];
    check.each(cases)(['TXN-ATOMIC-002', 'PROTO-STATUS-004'], '$name', async ({ id, failing, status }) => {
      const res = await t.server.query({
        do: [
          createDoc(docRef(COLL, id), { n: 1 }),
          createDoc(docRef(OTHER, id), { n: 1 }),
          updateDoc(docRef(COLL, '1'), { [`by_${id}`]: true }),
          failing,
        ],
      });
      res.expectStatus(status).expectSchema('v4-query-error');
      const after = (
        await t.server.query([exists(docRef(COLL, id)), exists(docRef(OTHER, id)), { select: ['data'], from: getDoc(docRef(COLL, '1')) }])
      ).expectStatus(200);
      const [first, second, untouched] = after.resource;
      expect([first, second], 'documents created before the failure').toEqual([false, false]);
      expect(untouched, 'an update before the failure').not.toHaveProperty(`by_${id}`);
    });

    check(['TXN-ATOMIC-002'], 'an update and a delete before an abort are undone, and the document keeps its ts', async () => {
      const created = (await t.server.query(createDoc(docRef(COLL, '30'), { v: 'original' }))).expectStatus(201);
      (
        await t.server.query({ do: [updateDoc(docRef(COLL, '30'), { v: 'changed' }), { delete: docRef(COLL, '30') }, { abort: 'undo' }] })
      ).expectStatus(400);
      const doc = (await t.server.query(getDoc(docRef(COLL, '30')))).expectStatus(200).resource;
      expect([doc.ts, doc.data]).toEqual([created.resource.ts, { v: 'original' }]);
    });

    check(['TXN-ATOMIC-002'], 'a collection created before an abort does not exist afterwards', async () => {
      (
        await t.server.query({ do: [createCollection('ghosts'), createDoc({ collection: 'ghosts' }, { boo: 1 }), { abort: 'undo' }] })
      ).expectStatus(400);
      expect((await t.server.query(exists(collection('ghosts')))).expectStatus(200).resource).toBe(false);
    });
  });

  check(['TXN-ATOMIC-004'], "reads inside a request see the request's own earlier writes", async () => {
    const res = await t.server.query({
      do: [
        createDoc(docRef(COLL, '40'), { step: 'created' }),
        {
          let: [{ seen: { select: ['data', 'step'], from: getDoc(docRef(COLL, '40')) } }],
          in: { update: docRef(COLL, '40'), params: { object: { data: { object: { saw: { var: 'seen' }, step: 'updated' } } } } },
        },
        [{ select: ['data'], from: getDoc(docRef(COLL, '40')) }, { do: [{ delete: docRef(COLL, '40') }, exists(docRef(COLL, '40'))] }],
      ],
    });
    expect(res.expectStatus(200).resource).toEqual([{ step: 'updated', saw: 'created' }, false]);
  });

  check(['TXN-ORDER-001'], 'the ts of a later committed write is greater than the ts of an earlier one', async () => {
    let previous = 0n;
    for (let i = 0; i < 6; i += 1) {
      const res = (
        await t.server.query(i % 2 === 0 ? createDoc({ collection: COLL }, { i }) : updateDoc(docRef(COLL, '1'), { i }))
      ).expectStatus(200, 201);
      const ts = res.resource.ts as bigint;
      expect(ts > previous, `write ${i} has ts ${ts}, not after ${previous}`).toBe(true);
      expect(txnTime(res) > previous).toBe(true);
      previous = ts;
    }
  });

  /** Options that carry `res`'s `x-txn-time` as `x-last-seen-txn`, as a driver sends the latest one it has seen. */
  const seenAfter = (res: Response) => ({ headers: { 'x-last-seen-txn': txnTime(res).toString() } });

  check(
    ['TXN-ORDER-002', 'TXN-TIME-002'],
    "x-txn-time of a later request carrying the write's x-txn-time in x-last-seen-txn (a read too) is at or after the write's ts",
    async () => {
      for (let i = 0; i < 4; i += 1) {
        const write = (await t.server.query(updateDoc(docRef(COLL, '1'), { round: i }))).expectStatus(200);
        const written = write.resource.ts as bigint;
        const reads: Response[] = [
          await t.server.query({ equals: [1, 1] }, seenAfter(write)),
          await t.admin.query(getDoc(docRef(COLL, '1')), seenAfter(write)),
          await t.client.query({ now: null }, seenAfter(write)),
        ];
        for (const res of reads) {
          res.expectStatus(200);
          expect(
            txnTime(res) >= written,
            res.explain(`carries x-txn-time ${res.headers['x-txn-time']} before the committed write at ${written}`),
          ).toBe(true);
        }
      }
    },
  );

  check(
    ['TXN-ORDER-003'],
    "a read that follows a write's answer, carrying its x-txn-time in x-last-seen-txn, sees that write",
    async () => {
      for (let i = 0; i < 8; i += 1) {
        const id = String(50 + i);
        const created = (await t.server.query(createDoc(docRef(COLL, id), { v: i }))).expectStatus(201);
        // Another key, so nothing request-local can explain the read.
        expect(
          (await t.admin.query({ select: ['data', 'v'], from: getDoc(docRef(COLL, id)) }, seenAfter(created))).expectStatus(200).resource,
        ).toBe(BigInt(i));
        const updated = (await t.admin.query(updateDoc(docRef(COLL, id), { v: i + 100 }))).expectStatus(200);
        expect(
          (await t.server.query({ select: ['data', 'v'], from: getDoc(docRef(COLL, id)) }, seenAfter(updated))).expectStatus(200).resource,
        ).toBe(BigInt(i + 100));
        const deleted = (await t.server.query({ delete: docRef(COLL, id) })).expectStatus(200);
        expect((await t.admin.query(exists(docRef(COLL, id)), seenAfter(deleted))).expectStatus(200).resource).toBe(false);
      }
    },
  );

  check(
    ['TXN-CONC-001'],
    'concurrent Updates of one document setting different fields: every one that answered success is in the final version',
    async () => {
      (await t.server.query(createDoc(docRef(COLL, '60'), { base: true }))).expectStatus(201);
      const n = 24;
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => t.server.query(updateDoc(docRef(COLL, '60'), { [`f${i}`]: i }))),
      );
      const succeeded: number[] = [];
      answers.forEach((res, i) => {
        res.expectStatus(200, 409);
        if (res.status === 409) res.expectErrorCode('contended transaction');
        else succeeded.push(i);
      });
      expect(succeeded.length, 'at least one concurrent update succeeds').toBeGreaterThan(0);
      const data = (await t.server.query({ select: ['data'], from: getDoc(docRef(COLL, '60')) })).expectStatus(200).resource;
      for (const i of succeeded) expect(data[`f${i}`], `the update setting f${i} answered success`).toBe(BigInt(i));
      expect(data.base).toBe(true);
    },
  );

  check(['TXN-CONC-001'], 'concurrent read-modify-write Updates of one document lose no successful write', async () => {
    // Each update wraps the current value in one more level, so the final depth counts the updates that landed.
    (await t.server.query(createDoc(docRef(COLL, '61'), { chain: 'root' }))).expectStatus(201);
    const previous = { select: ['data', 'chain'], from: getDoc(docRef(COLL, '61')) };
    const expr = { update: docRef(COLL, '61'), params: { object: { data: { object: { chain: { object: { prev: previous } } } } } } };
    const n = 20;
    const answers = await Promise.all(Array.from({ length: n }, () => t.server.query(expr)));
    let successes = 0;
    for (const res of answers) {
      res.expectStatus(200, 409);
      if (res.status === 409) res.expectErrorCode('contended transaction');
      else successes += 1;
    }
    let chain = (await t.server.query({ select: ['data', 'chain'], from: getDoc(docRef(COLL, '61')) })).expectStatus(200).resource;
    let depth = 0;
    while (chain !== 'root') {
      expect(chain, 'each level is {"prev": …}').toHaveProperty('prev');
      chain = chain.prev;
      depth += 1;
    }
    expect(depth, `${successes} updates answered success`).toBe(successes);
  });

  check(
    ['TXN-CONC-003'],
    'concurrent Creates of distinct documents in one collection all succeed and each is readable afterwards',
    async () => {
      const n = 30;
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => t.server.query(createDoc({ collection: OTHER }, { k: i }))));
      const refs = answers.map((res) => res.expectStatus(201).resource.ref);
      expect(new Set(refs.map((r) => refId(r))).size, 'every create got its own ref').toBe(n);
      const read = (await t.server.query(refs.map((ref) => ({ select: ['data', 'k'], from: { get: ref } })))).expectStatus(200);
      expect(read.resource).toEqual(Array.from({ length: n }, (_, i) => BigInt(i)));
    },
  );

  check(['TXN-TIME-001'], '{"now": null} inside a write request is no later than its x-txn-time and the ts of what it writes', async () => {
    const res = (await t.server.query([createDoc(docRef(COLL, '70'), { n: 1 }), { now: null }, { time: 'now' }])).expectStatus(200);
    const [doc, now, timeNow] = res.resource;
    const micros = isoToMicros(now['@ts']);
    expect(micros <= txnTime(res), res.explain(`now ${micros} is after x-txn-time`)).toBe(true);
    expect(micros <= doc.ts, res.explain(`now ${micros} is after the ts of the document written`)).toBe(true);
    expect(timeNow).toEqual(now);
  });

  check(['TXN-TIME-001'], '{"now": null} in a request that writes nothing equals its x-txn-time', async () => {
    for (const client of [t.server, t.client]) {
      const res = (await client.query([{ now: null }, { time: 'now' }])).expectStatus(200);
      const [now, timeNow] = res.resource;
      expect(isoToMicros(now['@ts']), res.explain('answers a now other than its x-txn-time')).toBe(txnTime(res));
      expect(timeNow).toEqual(now);
    }
  });

  check(['TXN-TIME-001'], '{"now": null} is one value for the whole request', async () => {
    const res = (
      await t.server.query({
        do: [createDoc({ collection: COLL }, { n: 1 }), [{ now: null }, createDoc({ collection: COLL }, { n: 2 }), { now: null }]],
      })
    ).expectStatus(200);
    const [first, , second] = res.resource;
    expect(second).toEqual(first);
  });

  describe('with a unique index', () => {
    const UNIQUE = 'members';
    beforeAll(async () => {
      (await t.server.query(createCollection(UNIQUE))).expectStatus(201);
      const index = {
        name: 'members_by_email',
        source: { collection: UNIQUE },
        terms: [{ object: { field: ['data', 'email'] } }],
        unique: true,
      };
      (await t.admin.query({ create_index: { object: index } })).expectStatus(201);
      (await t.server.query(createDoc(docRef(UNIQUE, '1'), { email: 'taken@example.com' }))).expectStatus(201);
    });

    check(['TXN-ATOMIC-003'], 'a request that fails on a unique-index violation leaves its other writes undone', async () => {
      const res = await t.server.query({
        do: [
          createDoc(docRef(UNIQUE, '2'), { email: 'fresh@example.com' }),
          createDoc(docRef(COLL, '80'), { n: 1 }),
          createDoc(docRef(UNIQUE, '3'), { email: 'taken@example.com' }),
        ],
      });
      res.expectStatus(400, 409).expectSchema('v4-error').expectErrorCode('instance not unique', 'contended transaction');
      const after = await t.server.query([exists(docRef(UNIQUE, '2')), exists(docRef(COLL, '80')), exists(docRef(UNIQUE, '3'))]);
      expect(after.expectStatus(200).resource).toEqual([false, false, false]);
    });

    check(['TXN-CONC-002'], 'concurrent Creates that would violate a unique index commit at most one document', async () => {
      const n = 16;
      const ids = Array.from({ length: n }, (_, i) => String(100 + i));
      const answers = await Promise.all(ids.map((id) => t.server.query(createDoc(docRef(UNIQUE, id), { email: 'race@example.com' }))));
      for (const res of answers) {
        res.expectStatus(201, 400, 409);
        if (res.status !== 201) res.expectErrorCode('instance not unique', 'contended transaction');
      }
      const winners = answers.filter((res) => res.status === 201).length;
      expect(winners, 'creates that answered 201').toBeLessThanOrEqual(1);
      const present = (await t.server.query(ids.map((id) => exists(docRef(UNIQUE, id))))).expectStatus(200).resource as boolean[];
      expect(present.filter(Boolean).length, 'documents that exist afterwards').toBe(winners);
    });
  });
});
