/**
 * `POST /query/1` at the dispatcher: a successful answer echoes the `x-query-tags` header as `query_tags` (DEC-008,
 * wire-facts §3) and leaves the field out when no tags were sent (fauna-js reads it back into
 * `QuerySuccess.query_tags`); arguments of every name are bound, also in the event sources a query makes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { createDispatcher } from '../../../../reference-impl/endpoints/dispatcher.js';
import { recordingExchange } from './recording-exchange.js';

const SECRET = 'query-v10-root';

const parts = composeReferenceServer({ rootSecret: SECRET, bcryptCost: 4, serverKey: new Uint8Array(32) });
const dispatch = createDispatcher(parts.routes, parts.services, (error) => {
  throw error;
});

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { exchange, answer } = recordingExchange('POST', path, { authorization: `Bearer ${SECRET}`, ...headers }, body);
  await dispatch(exchange);
  return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
}

beforeAll(async () => {
  const created = await post('/', { create_collection: { object: { name: 'Tagged' } } }, { 'x-faunadb-api-version': '4' });
  expect(created.status).toBe(201);
});

describe('POST /query/1 query_tags', () => {
  it('echoes x-query-tags as query_tags on a successful answer', async () => {
    const res = await post(
      '/query/1',
      { query: 'Tagged.all().eventSource()' },
      { 'x-format': 'tagged', 'x-query-tags': 'team=search,build=42' },
    );
    expect(res.status).toBe(200);
    expect(res.body.query_tags).toBe('team=search,build=42');
  });

  it('leaves query_tags out when none were sent', async () => {
    const res = await post('/query/1', { query: 'Tagged.all().eventSource()' });
    expect(res.status).toBe(200);
    expect('query_tags' in res.body).toBe(false);
  });
});

describe('POST /query/1 arguments', () => {
  // An argument is a variable of any name: one named `__proto__` must not become the prototype of a map of them.
  const args = JSON.parse('{"__proto__": {"@int": "5"}, "x": {"@int": "1"}}') as Record<string, unknown>;

  it('binds an argument named __proto__ like any other', async () => {
    const res = await post('/query/1', { query: '[__proto__, x]', arguments: args }, { 'x-format': 'tagged' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ '@int': '5' }, { '@int': '1' }]);
  });

  it('keeps an argument named __proto__ that an event source reads', async () => {
    const made = await post(
      '/query/1',
      { query: 'Tagged.where(.n == __proto__ + x).eventSource()', arguments: args },
      { 'x-format': 'tagged' },
    );
    expect(made.status).toBe(200);
    const token = (made.body.data as { '@stream': string })['@stream'];
    expect((await post('/query/1', { query: 'Tagged.create({ n: 6 })' })).status).toBe(200);
    const feed = await post('/feed/1', { token });
    expect(feed.status).toBe(200);
    const events = feed.body.events as { type: string; data: unknown }[];
    expect(events.map((event) => event.type)).toEqual(['add']);
  });
});
