/**
 * The v4 endpoint answers a request that waits for nothing before the dispatcher returns (no promise is made),
 * and answers the same way, only later, when something has to wait: a password hash, a role predicate, a busy
 * transaction queue. Failures found at once become the same documented errors as failures found later.
 */
import { describe, expect, it } from 'vitest';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { createDispatcher } from '../../../../reference-impl/endpoints/dispatcher.js';
import { recordingExchange } from './recording-exchange.js';

const SECRET = 'answered-at-once-root';

function setup() {
  const parts = composeReferenceServer({ rootSecret: SECRET, bcryptCost: 4, serverKey: new Uint8Array(32) });
  const dispatch = createDispatcher(parts.routes, parts.services, (error) => {
    throw error;
  });
  const send = (expr: unknown) => {
    const { exchange, answer } = recordingExchange('POST', '/', { authorization: `Bearer ${SECRET}`, 'x-faunadb-api-version': '4' }, expr);
    return { pending: dispatch(exchange), answer, exchange };
  };
  return { parts, send };
}

const resource = (body: string) => (JSON.parse(body) as { resource: Record<string, unknown> }).resource;

describe('v4 requests that wait for nothing', () => {
  it('are answered before the dispatcher returns: Create, Get, Paginate over documents, and errors', async () => {
    const { send } = setup();
    const made = send({ create_collection: { object: { name: 'things' } } });
    await made.pending;
    expect(made.answer.status).toBe(201);

    const created = send({ create: { collection: 'things' }, params: { object: { data: { object: { n: 1 } } } } });
    expect(created.pending).toBeUndefined();
    expect(created.answer.status).toBe(201);
    const id = (resource(created.answer.body).ref as { '@ref': { id: string } })['@ref'].id;

    const read = send({ get: { ref: { collection: 'things' }, id } });
    expect(read.pending).toBeUndefined();
    expect(read.answer.status).toBe(200);
    expect(resource(read.answer.body).data).toEqual({ n: 1 });

    const page = send({ paginate: { documents: { collection: 'things' } }, size: 10 });
    expect(page.pending).toBeUndefined();
    expect((resource(page.answer.body).data as unknown[]).length).toBe(1);

    const missing = send({ get: { ref: { collection: 'things' }, id: '404' } });
    expect(missing.pending).toBeUndefined();
    expect(missing.answer.status).toBe(404);
    expect(JSON.parse(missing.answer.body)).toMatchObject({ errors: [{ code: 'instance not found', position: [] }] });

    const wrongType = send({ get: { collection: 'things' }, ts: 'yesterday' });
    if (wrongType.pending) await wrongType.pending;
    expect(wrongType.answer.status).toBe(400);
    expect(JSON.parse(wrongType.answer.body)).toMatchObject({ errors: [{ code: 'invalid argument', position: ['ts'] }] });
  });

  it('answer later, with the same outcome, when a password must be hashed or another transaction is running', async () => {
    const { send } = setup();
    await send({ create_collection: { object: { name: 'users' } } }).pending;
    const withPassword = send({
      create: { collection: 'users' },
      params: { object: { credentials: { object: { password: 'sekret' } }, data: { object: { a: 1 } } } },
    });
    expect(withPassword.pending).toBeInstanceOf(Promise);
    // Queued behind the hashing create: it may not run (or answer) before that one commits.
    const queued = send({ paginate: { documents: { collection: 'users' } } });
    expect(queued.pending).toBeInstanceOf(Promise);
    expect(queued.exchange.responded).toBe(false);
    await withPassword.pending;
    await queued.pending;
    expect(withPassword.answer.status).toBe(201);
    expect((resource(queued.answer.body).data as unknown[]).length).toBe(1);
  });

  it('commit nothing when they fail at once, even after an earlier write in the same request', async () => {
    const { send, parts } = setup();
    await send({ create_collection: { object: { name: 'things' } } }).pending;
    const before = parts.store.lastCommitTs;
    const failed = send([
      { create: { collection: 'things' }, params: { object: { data: { object: { n: 1 } } } } },
      { create: { collection: 'nowhere' } },
    ]);
    expect(failed.pending).toBeUndefined();
    expect(failed.answer.status).toBe(400);
    expect(JSON.parse(failed.answer.body)).toMatchObject({ errors: [{ code: 'invalid ref', position: [1, 'create'] }] });
    expect(parts.store.lastCommitTs).toBe(before);
    const page = send({ paginate: { documents: { collection: 'things' } } });
    expect(resource(page.answer.body).data).toEqual([]);
  });
});
