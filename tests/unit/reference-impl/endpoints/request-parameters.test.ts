/**
 * Request parameter headers (DEC-063) at the dispatcher: what the conformance suite does not pin down. The check comes
 * before authentication and (on v4) after the API version, covers every v4 path, leaves `/stream/1` alone, and reads
 * integers and booleans as Scala's `toLongOption` / `toIntOption` / `toBooleanOption` do.
 */
import { describe, expect, it } from 'vitest';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { createDispatcher } from '../../../../reference-impl/endpoints/dispatcher.js';
import { recordingExchange } from './recording-exchange.js';

const SECRET = 'request-parameters-root';

function setup() {
  const parts = composeReferenceServer({ rootSecret: SECRET, bcryptCost: 4, serverKey: new Uint8Array(32) });
  const dispatch = createDispatcher(parts.routes, parts.services, (error) => {
    throw error;
  });
  return async (method: string, path: string, headers: Record<string, string>, body: unknown = { equals: [1, 1] }) => {
    const { exchange, answer } = recordingExchange(method, path, headers, body);
    await dispatch(exchange);
    return { status: answer.status, body: answer.body === '' ? undefined : JSON.parse(answer.body) };
  };
}

const AUTH = { authorization: `Bearer ${SECRET}`, 'x-faunadb-api-version': '4' };
const v4Error = (description: string) => ({ errors: [{ code: 'bad request', description }] });

describe('request parameter headers', () => {
  it('are checked before authentication, on every v4 path and on the v10 endpoints that read them', async () => {
    const send = setup();
    const bad = { 'x-last-seen-txn': 'x' };
    expect(await send('POST', '/', bad)).toEqual({
      status: 400,
      body: v4Error("Invalid header 'x-last-seen-txn': Invalid timestamp 'x'."),
    });
    expect(await send('POST', '/', { ...bad, authorization: 'Bearer nope' })).toMatchObject({ status: 400 });
    expect(await send('GET', '/ping', bad)).toMatchObject({ status: 400 });
    expect(await send('GET', '/collections/c/1', { ...AUTH, ...bad })).toMatchObject({ status: 400 });
    expect(await send('PUT', '/', { ...AUTH, ...bad })).toMatchObject({ status: 400 });
    expect(await send('POST', '/query/1', { 'x-typecheck': 'nope' }, { query: '1' })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_request', message: "Invalid header 'x-typecheck': Must be a boolean value." } },
    });
    expect(await send('POST', '/feed/1', { 'x-max-contention-retries': '9' }, {})).toEqual({
      status: 400,
      body: {
        error: { code: 'invalid_request', message: "Invalid headers: Invalid header 'x-max-contention-retries': Must be between 0 and 7." },
      },
    });
  });

  it('report a bad API version first on v4, then the first bad header in the real service order', async () => {
    const send = setup();
    const res = await send('POST', '/', { ...AUTH, 'x-faunadb-api-version': '99', 'x-query-timeout': '0' });
    expect(res.body.errors[0].description).toBe("Invalid header 'x-faunadb-api-version': Unsupported or invalid API version '99'.");
    const both = await send('POST', '/', { ...AUTH, 'x-max-retries-on-contention': '8', 'x-last-seen-txn': 'x' });
    expect(both.body.errors[0].description).toBe("Invalid header 'x-last-seen-txn': Invalid timestamp 'x'.");
    const query = await send('POST', '/query/1', { ...AUTH, 'x-performance-hints': 'x', 'x-last-txn-ts': 'y' }, { query: '1' });
    expect(query.body.error.message).toBe("Invalid header 'x-last-txn-ts': Invalid timestamp 'y'.");
  });

  it('accept signed integers and booleans in any case, and leave /stream/1 and other families alone', async () => {
    const send = setup();
    const ok = await send('POST', '/', {
      ...AUTH,
      'x-last-seen-txn': '+5',
      'x-query-timeout': '+600000',
      'x-max-retries-on-contention': '-0',
      'x-typecheck': 'x',
    });
    expect(ok).toEqual({ status: 200, body: { resource: true } });
    const query = await send(
      'POST',
      '/query/1',
      { ...AUTH, 'x-typecheck': 'TRUE', 'x-linearized': 'fAlSe', 'x-last-seen-txn': 'x' },
      { query: 'nope' },
    );
    expect(query.body.error?.code).not.toBe('invalid_request');
    const stream = await send('POST', '/stream/1', { ...AUTH, 'x-last-txn-ts': 'x', 'x-query-timeout-ms': '0' }, {});
    expect(stream.body.error.message).not.toMatch(/Invalid header/);
  });
});
