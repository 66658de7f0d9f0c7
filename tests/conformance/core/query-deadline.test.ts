// Query deadlines (DEC-069): a query still running when its `x-query-timeout` has passed is stopped with 503
// `time out`, soon after the deadline, and keeps none of its writes. The long query is a user function that calls
// itself twice per level: `fan(22)` is about four million calls, seconds of work for any server, sent with a 300 ms
// deadline.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollections, obj } from '../auth/auth-fixtures.js';
import { expectProtocolError } from './protocol-wire.js';

const FAN = 'deadline_fan';
const DEADLINE_MS = 300;
/** How long after the deadline the answer may come: generous for a loaded machine, far below the work's own time. */
const ANSWER_WITHIN_MS = 2_500;

const fan = (n: unknown) => ({ call: { function: FAN }, arguments: n });
/** `fan(n)`: 0 when n is 0, else fan(n - 1) + fan(n - 1), so 2^n calls. */
const fanBody = {
  query: {
    lambda: 'n',
    expr: { if: { equals: [{ var: 'n' }, 0] }, then: 0, else: { add: [fan({ subtract: [{ var: 'n' }, 1] }), fan({ subtract: [{ var: 'n' }, 1] })] } },
  },
};
const LONG_QUERY = fan(22);
const withDeadline = { headers: { 'x-query-timeout': String(DEADLINE_MS) } };

describe('Query deadlines', () => {
  const t = useTenant();

  beforeAll(async () => {
    await createCollections(t.server, 'deadline_items');
    (await t.server.query({ create_function: obj({ name: FAN, body: fanBody }) })).expectStatus(201);
    // The function works: a small argument answers at once.
    const small = await t.server.query(fan(3), withDeadline);
    small.expectStatus(200);
    expect(small.json).toEqual({ resource: 0 });
  });

  check(['LIMIT-TIME-001'], 'a query outlasting x-query-timeout answers 503 time out soon after the deadline, and the server goes on answering', async () => {
    const res = await t.server.query(LONG_QUERY, withDeadline);
    expectProtocolError(res, 503, 'time out');
    expect(res.durationMs, res.explain(`answers within ${ANSWER_WITHIN_MS} ms of a ${DEADLINE_MS} ms deadline, not when the work would end`)).toBeLessThan(ANSWER_WITHIN_MS);
    const next = await t.server.query({ add: [1, 2] });
    next.expectStatus(200);
    expect(next.json).toEqual({ resource: 3 });
  });

  check(['LIMIT-TIME-002'], 'a query stopped at its deadline keeps none of the writes it made before', async () => {
    const write = { create: { ref: { collection: 'deadline_items' }, id: '1' }, params: obj({ data: obj({ kept: false }) }) };
    expectProtocolError(await t.server.query({ do: [write, LONG_QUERY] }, withDeadline), 503, 'time out');
    const exists = await t.server.query({ exists: { ref: { collection: 'deadline_items' }, id: '1' } });
    exists.expectStatus(200);
    expect(exists.json, 'the document created before the deadline was not kept').toEqual({ resource: false });
  });
});
