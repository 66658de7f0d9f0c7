// Failpoints are honoured only by a server started with them, only for the request that names them (through every
// await of its handler), and the answer says which fired.
import { describe, expect, it } from 'vitest';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { createDispatcher } from '../../../../reference-impl/endpoints/dispatcher.js';
import { activeFailpoints, failpoint, FAILPOINTS_FIRED_HEADER, FAILPOINTS_HEADER } from '../../../../reference-impl/failpoints.js';
import { RouteTable } from '../../../../reference-impl/endpoints/route-table.js';
import type { Exchange } from '../../../../reference-impl/transport/exchange.js';

const parts = composeReferenceServer({ rootSecret: 'failpoints-root', bcryptCost: 4, serverKey: new Uint8Array(32) });

/** One route that reports, after an await, whether failpoints A and B are on. */
function routes(): RouteTable {
  return new RouteTable().add({
    path: '/probe',
    auth: 'none',
    errors: 'v4',
    methods: {
      GET: async (ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        ctx.exchange.respond(200, {}, JSON.stringify({ a: failpoint('A'), b: failpoint('B'), kept: activeFailpoints() !== undefined }));
      },
    },
  });
}

async function probe(enabled: boolean, header: string | undefined) {
  const dispatch = createDispatcher(
    routes(),
    parts.services,
    (error) => {
      throw error;
    },
    { failpoints: enabled },
  );
  const answer = { headers: {} as Record<string, string>, body: '' };
  const exchange: Exchange = {
    request: {
      method: 'GET',
      path: '/probe',
      query: new URLSearchParams(),
      headers: header === undefined ? {} : { [FAILPOINTS_HEADER]: header },
      body: Buffer.alloc(0),
      protocol: 'http/1.1',
    },
    responded: false,
    respond(_status, headers, body) {
      answer.headers = headers;
      answer.body = body;
    },
    openStream() {
      throw new Error('not a stream');
    },
  };
  await dispatch(exchange);
  return { seen: JSON.parse(answer.body) as { a: boolean; b: boolean; kept: boolean }, fired: answer.headers[FAILPOINTS_FIRED_HEADER] };
}

describe('failpoints', () => {
  it('are ignored by a server started without them', async () => {
    expect(await probe(false, 'A')).toEqual({ seen: { a: false, b: false, kept: false }, fired: undefined });
  });

  it('are on for the request that names them, after its handler awaited, and the answer names those that fired', async () => {
    expect(await probe(true, 'A, C')).toEqual({ seen: { a: true, b: false, kept: true }, fired: 'A' });
    expect(await probe(true, undefined)).toEqual({ seen: { a: false, b: false, kept: false }, fired: undefined });
    expect(failpoint('A')).toBe(false);
  });
});
