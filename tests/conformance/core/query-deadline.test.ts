// Query deadlines (DEC-069): a query still running when its `x-query-timeout` has passed is stopped with 503
// `time out`, soon after the deadline, and keeps none of its writes. The long query is a user function that calls
// itself twice per level: `fan(16)` is 65,536 calls, far more than any server evaluates in the 10 ms deadline it is
// sent with, and fewer compute operations than the real service allows a transaction (12,000 of 50 each), so a server
// with that limit still meets the deadline first.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollections, expectProtocolError, obj } from '../../harness/v4.js';

const FAN = 'deadline_fan';
const DEADLINE_MS = 10;
/** How long after the deadline the answer may come: generous for a loaded machine, far below the work's own time. */
const ANSWER_WITHIN_MS = 2_500;

const fan = (n: unknown) => ({ call: { function: FAN }, arguments: n });
/** `fan(n)`: 0 when n is 0, else fan(n - 1) + fan(n - 1), so 2^n calls. */
const fanBody = {
  query: {
    lambda: 'n',
    expr: {
      if: { equals: [{ var: 'n' }, 0] },
      then: 0,
      else: { add: [fan({ subtract: [{ var: 'n' }, 1] }), fan({ subtract: [{ var: 'n' }, 1] })] },
    },
  },
};
const LONG_QUERY = fan(16);
const withDeadline = { headers: { 'x-query-timeout': String(DEADLINE_MS) } };

describe('Query deadlines', () => {
  const t = useTenant();

  beforeAll(async () => {
    await createCollections(t.server, 'deadline_items');
    (await t.server.query({ create_function: obj({ name: FAN, body: fanBody }) })).expectStatus(201);
    // The function works: a small argument answers at once.
    const small = await t.server.query(fan(3), { headers: { 'x-query-timeout': '10000' } });
    small.expectStatus(200);
    expect(small.json).toEqual({ resource: 0 });
  });

  check(
    ['LIMIT-TIME-001'],
    'a query outlasting x-query-timeout answers 503 time out soon after the deadline, and the server goes on answering',
    async () => {
      const res = await t.server.query(LONG_QUERY, withDeadline);
      expectProtocolError(res, 503, 'time out');
      expect(
        res.durationMs,
        res.explain(`answers within ${ANSWER_WITHIN_MS} ms of a ${DEADLINE_MS} ms deadline, not when the work would end`),
      ).toBeLessThan(ANSWER_WITHIN_MS);
      const next = await t.server.query({ add: [1, 2] });
      next.expectStatus(200);
      expect(next.json).toEqual({ resource: 3 });
    },
  );

  describe('values that share their parts', () => {
    /** `[acc, acc]` nested forty times from `leaf`: forty arrays, whose walk has 2^40 leaves. */
    const shared = (leaf: unknown) => ({
      reduce: { lambda: ['acc', 'x'], expr: [{ var: 'acc' }, { var: 'acc' }] },
      initial: leaf,
      collection: Array.from({ length: 40 }, (_, i) => i),
    });
    const SHARED_DEADLINE = { headers: { 'x-query-timeout': '1000' } };
    const SHARED_ANSWER_WITHIN_MS = 5_000;

    beforeAll(async () => {
      (
        await t.server.query({
          create_index: obj({
            name: 'deadline_by_tag',
            source: { collection: 'deadline_items' },
            terms: [obj({ field: ['data', 'tag'] })],
          }),
        })
      ).expectStatus(201);
    });

    check.each([
      // `answer`: what a 200 must hold (two equal values; no document holds such a tag).
      { name: 'Equals of two of them', expr: { equals: [shared([]), shared([])] }, statuses: [200, 503], answer: true },
      { name: 'LT of two of them', expr: { lt: [shared([]), shared([])] }, statuses: [200, 503], answer: false },
      {
        name: 'a Match on one',
        expr: { paginate: { match: { index: 'deadline_by_tag' }, terms: [shared([])] } },
        statuses: [200, 400, 503],
        answer: { data: [] },
      },
      {
        name: 'a Create holding one',
        expr: { create: { collection: 'deadline_items' }, params: obj({ data: obj({ tag: shared([]) }) }) },
        statuses: [400, 503],
      },
      { name: 'one as the result', expr: shared([]), statuses: [400, 503] },
    ])(['LIMIT-TIME-003'], '$name is answered by the deadline, and the server goes on answering', async ({ expr, statuses, answer }) => {
      const res = await t.server.query(expr, SHARED_DEADLINE);
      res.expectStatus(...statuses);
      if (res.status === 200) expect(res.json, res.explain('answers the result itself')).toEqual({ resource: answer });
      expect(res.durationMs, res.explain(`answers within ${SHARED_ANSWER_WITHIN_MS} ms of a 1000 ms deadline`)).toBeLessThan(
        SHARED_ANSWER_WITHIN_MS,
      );
      const next = await t.server.query({ add: [1, 2] });
      next.expectStatus(200);
      expect(next.json).toEqual({ resource: 3 });
    });
  });

  check(['LIMIT-TIME-002'], 'a query stopped at its deadline keeps none of the writes it made before', async () => {
    const write = { create: { ref: { collection: 'deadline_items' }, id: '1' }, params: obj({ data: obj({ kept: false }) }) };
    expectProtocolError(await t.server.query({ do: [write, LONG_QUERY] }, withDeadline), 503, 'time out');
    const exists = await t.server.query({ exists: { ref: { collection: 'deadline_items' }, id: '1' } });
    exists.expectStatus(200);
    expect(exists.json, 'the document created before the deadline was not kept').toEqual({ resource: false });
  });
});
