/**
 * A failpoint that lets a refused write go ahead and answers the refusal after committing it
 * (`Transaction.failAfterCommit`) does so on `POST /query/1` too, whose writes go through the v4 forms that set it;
 * without the failpoint the write is refused and nothing is kept.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { createDispatcher } from '../../../../reference-impl/endpoints/dispatcher.js';
import { FAILPOINTS_HEADER } from '../../../../reference-impl/failpoints.js';
import { recordingExchange } from './recording-exchange.js';

const ROOT = 'fail-after-commit-root';

const parts = composeReferenceServer({ rootSecret: ROOT, bcryptCost: 4, serverKey: new Uint8Array(32) });
const dispatch = createDispatcher(
  parts.routes,
  parts.services,
  (error) => {
    throw error;
  },
  { failpoints: true },
);

async function post(path: string, body: unknown, secret: string, headers: Record<string, string> = {}) {
  const { exchange, answer } = recordingExchange('POST', path, { authorization: `Bearer ${secret}`, ...headers }, body);
  await dispatch(exchange);
  return {
    status: answer.status,
    body: JSON.parse(answer.body) as { data?: unknown; error?: { code: string }; resource?: { secret?: string } },
  };
}

const count = async () => (await post('/query/1', { query: 'Kept.all().count()' }, ROOT)).body.data;

let client: string;

beforeAll(async () => {
  expect((await post('/query/1', { query: 'Collection.create({ name: "Kept" })' }, ROOT)).status).toBe(200);
  const key = await post('/', { create_key: { object: { role: 'client' } } }, ROOT, { 'x-faunadb-api-version': '4' });
  expect(key.status).toBe(201);
  client = key.body.resource?.secret ?? '';
  expect(client).not.toBe('');
});

describe('POST /query/1 and Transaction.failAfterCommit', () => {
  it('refuses a client key’s write and keeps nothing without the failpoint', async () => {
    const refused = await post('/query/1', { query: 'Kept.create({ n: 1 })' }, client);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('permission_denied');
    expect(await count()).toBe(0);
  });

  it('commits the write and still answers the refusal under AUTH-CLIENT-DENIED-AFTER-WRITING', async () => {
    const refused = await post('/query/1', { query: 'Kept.create({ n: 2 })' }, client, {
      [FAILPOINTS_HEADER]: 'AUTH-CLIENT-DENIED-AFTER-WRITING',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('permission_denied');
    expect(await count()).toBe(1);
  });
});
