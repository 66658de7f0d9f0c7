// What the index, set, paging and ordering faults read of the traffic: create_index params, paginate forms, pages,
// and the v4 error a fault substitutes. Inputs are the wire JSON the proxy hands them.
import { describe, expect, it } from 'vitest';
import type { BufferedResponse, ProxiedRequest } from '../../../selfcheck/fault.js';
import {
  createIndexParams,
  hasCursor,
  indexName,
  isPage,
  matchedIndexName,
  paginateForms,
  topLevelPage,
  unwrapObject,
  v4ErrorResponse,
} from '../../../selfcheck/faults/lib/index-tracking.js';

const v4 = (expression: unknown): ProxiedRequest => ({
  method: 'POST',
  path: '/',
  headers: {},
  body: Buffer.from(JSON.stringify(expression)),
});
const createIndex = (params: Record<string, unknown>) => ({ create_index: { object: params } });

describe('isPage and topLevelPage', () => {
  it('isPage holds for an object with a data array only', () => {
    expect(isPage({ data: [] })).toBe(true);
    expect(isPage({ data: {} })).toBe(false);
    expect(isPage({ after: [] })).toBe(false);
    expect(isPage(undefined)).toBe(false);
  });

  it('topLevelPage answers the resource of a 200 to a top-level paginate, and nothing otherwise', () => {
    const page = { data: [1], after: [2] };
    const body = { resource: page };
    const paginate = v4({ paginate: { match: { index: 'i' } } });
    expect(topLevelPage(body, { status: 200, original: paginate })).toBe(page);
    expect(topLevelPage(body, { status: 400, original: paginate })).toBeUndefined();
    expect(
      topLevelPage(body, {
        status: 200,
        original: v4({ map: { lambda: 'x', expr: 1 }, collection: { paginate: { match: { index: 'i' } } } }),
      }),
    ).toBeUndefined();
    expect(topLevelPage({ resource: { ref: 1 } }, { status: 200, original: paginate })).toBeUndefined();
    expect(topLevelPage(body, { status: 200, original: { ...paginate, path: '/query/1' } })).toBeUndefined();
  });
});

describe('reading expressions', () => {
  it('unwrapObject takes the object out of a lone {"object": …} wrapper, keeps other objects, refuses non-objects', () => {
    expect(unwrapObject({ object: { a: 1 } })).toEqual({ a: 1 });
    expect(unwrapObject({ a: 1 })).toEqual({ a: 1 });
    expect(unwrapObject({ object: { a: 1 }, b: 2 })).toEqual({ object: { a: 1 }, b: 2 });
    expect(unwrapObject([1])).toBeUndefined();
    expect(unwrapObject('x')).toBeUndefined();
  });

  it('createIndexParams finds every create_index at any depth, wrapped or not', () => {
    const expression = {
      do: [
        createIndex({ name: 'a' }),
        { let: [{ x: { create_index: { name: 'b' } } }], in: { create_collection: { object: { name: 'c' } } } },
      ],
    };
    expect(createIndexParams(expression)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(createIndexParams({ create_collection: { object: { name: 'c' } } })).toEqual([]);
  });

  it('indexName reads {"index": name} and nothing larger', () => {
    expect(indexName({ index: 'i' })).toBe('i');
    expect(indexName({ index: 'i', scope: { database: 'd' } })).toBeUndefined();
    expect(indexName({ index: 1 })).toBeUndefined();
    expect(indexName('i')).toBeUndefined();
  });

  it('paginateForms lists every paginate form, nested ones too', () => {
    const inner = { paginate: { match: { index: 'j' } } };
    const outer = { paginate: { match: { index: 'i' } }, size: 2 };
    expect(paginateForms({ do: [outer, { map: { lambda: 'x', expr: 1 }, collection: inner }] })).toEqual([outer, inner]);
    expect(paginateForms({ get: { index: 'i' } })).toEqual([]);
  });

  it('hasCursor sees after/before on the form or in its cursor object, and not the other one', () => {
    expect(hasCursor({ paginate: 1, after: [] }, 'after')).toBe(true);
    expect(hasCursor({ paginate: 1, cursor: { before: [] } }, 'before')).toBe(true);
    expect(hasCursor({ paginate: 1, cursor: { before: [] } }, 'after')).toBe(false);
    expect(hasCursor({ paginate: 1, after: [] }, 'before')).toBe(false);
  });

  it('matchedIndexName reads a plain match set only', () => {
    expect(matchedIndexName({ paginate: { match: { index: 'i' }, terms: 'x' } })).toBe('i');
    expect(matchedIndexName({ paginate: { union: [{ match: { index: 'i' } }] } })).toBeUndefined();
    expect(matchedIndexName({ paginate: { documents: { collection: 'c' } } })).toBeUndefined();
  });
});

describe('v4ErrorResponse', () => {
  it('keeps the other headers, sets the status, a JSON content type and the v4 errors body', () => {
    const success: BufferedResponse = {
      status: 200,
      headers: { 'x-txn-time': '5', 'content-type': 'text/plain' },
      body: Buffer.from('{"resource":1}'),
    };
    const error = v4ErrorResponse(success, 400, 'instance not unique', 'document is not unique.', ['create']);
    expect(error.status).toBe(400);
    expect(error.headers).toEqual({ 'x-txn-time': '5', 'content-type': 'application/json' });
    expect(JSON.parse(error.body.toString())).toEqual({
      errors: [{ position: ['create'], code: 'instance not unique', description: 'document is not unique.' }],
    });
    expect(success.status).toBe(200);
    expect(JSON.parse(v4ErrorResponse(success, 404, 'instance not found', 'x').body.toString()).errors[0].position).toEqual([]);
  });
});
