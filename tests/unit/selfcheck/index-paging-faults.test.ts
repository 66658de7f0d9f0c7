// The index, set, paging and ordering faults change exactly what they claim: hooks applied directly.
import { describe, expect, it } from 'vitest';
import type { JsonResponseContext, ProxiedRequest } from '../../selfcheck/fault.js';
import { findFault } from '../../selfcheck/faults/catalogue.js';
import { parseJson, stringifyJson } from '../../selfcheck/json-body.js';

const v4 = (expression: unknown): ProxiedRequest => ({
  method: 'POST',
  path: '/',
  headers: {},
  body: Buffer.from(JSON.stringify(expression)),
});

function hooks(id: string) {
  const fault = findFault(id);
  if (!fault) throw new Error(`no fault ${id}`);
  return fault.apply();
}

/** The expression as the fault sends it upstream, or undefined when it leaves the request alone. */
async function upstream(id: string, expression: unknown): Promise<unknown> {
  const out = await hooks(id).request!(v4(expression));
  return out === undefined ? undefined : JSON.parse(out.body.toString());
}

/** The answer body as the fault returns it to the suite (the original when unchanged). */
function answer(id: string, expression: unknown, body: unknown): unknown {
  const request = v4(expression);
  const context: JsonResponseContext = { original: request, request, status: 200, headers: {} };
  const parsed = parseJson(JSON.stringify(body));
  const out = hooks(id).json!(parsed, context);
  return JSON.parse(stringifyJson(out ?? parsed));
}

const ref = (id: string) => ({ '@ref': { id, collection: { '@ref': { id: 'c', collection: { '@ref': { id: 'collections' } } } } } });
const set = { match: { index: 'i' }, terms: 'x' };

describe('index and set faults', () => {
  it('SET-DISTINCT-IGNORED and SET-JOIN-IGNORES-TARGET replace the form by its source set', async () => {
    expect(await upstream('SET-DISTINCT-IGNORED', { paginate: { distinct: set } })).toEqual({ paginate: set });
    expect(await upstream('SET-JOIN-IGNORES-TARGET', { paginate: { join: set, with: { index: 'j' } } })).toEqual({ paginate: set });
  });

  it('SET-MATCH-ONE-ELEMENT-ARRAY rewrites only one-element scalar terms of a match', async () => {
    const rewritten = (await upstream('SET-MATCH-ONE-ELEMENT-ARRAY', { paginate: { match: { index: 'i' }, terms: ['Paris'] } })) as {
      paginate: { terms: string[] };
    };
    expect(rewritten.paginate.terms).toHaveLength(1);
    expect(rewritten.paginate.terms[0]).not.toBe('Paris');
    expect(
      await upstream('SET-MATCH-ONE-ELEMENT-ARRAY', { paginate: { match: { index: 'i' }, terms: ['Paris', 'user'] } }),
    ).toBeUndefined();
    expect(
      await upstream('SET-MATCH-ONE-ELEMENT-ARRAY', {
        create_index: { object: { name: 'i', terms: [{ object: { field: ['data', 'k'] } }] } },
      }),
    ).toBeUndefined();
  });

  it('IDX-UNIQUE-IGNORED drops unique from create_index and from index updates only', async () => {
    expect(await upstream('IDX-UNIQUE-IGNORED', { create_index: { object: { name: 'i', unique: true } } })).toEqual({
      create_index: { object: { name: 'i' } },
    });
    expect(await upstream('IDX-UNIQUE-IGNORED', { update: { index: 'i' }, params: { object: { unique: true } } })).toEqual({
      update: { index: 'i' },
      params: { object: {} },
    });
    expect(
      await upstream('IDX-UNIQUE-IGNORED', { update: ref('1'), params: { object: { data: { object: { unique: true } } } } }),
    ).toBeUndefined();
  });

  it('SET-TAG-DROPPED unwraps nested @set values', () => {
    const body = { resource: { '@set': { union: [{ '@set': { match: 'i' } }] } } };
    expect(answer('SET-TAG-DROPPED', { union: [] }, body)).toEqual({ resource: { union: [{ match: 'i' }] } });
  });
});

describe('paging and ordering faults', () => {
  it('PAGE-MAP-TWICE wraps each map over a paginate once', async () => {
    const lambda = { lambda: 'x', expr: { var: 'x' } };
    const page = { paginate: set };
    expect(await upstream('PAGE-MAP-TWICE', { map: lambda, collection: page })).toEqual({
      map: lambda,
      collection: { map: lambda, collection: page },
    });
  });

  it('PAGE-BEFORE-INCLUSIVE appends the entry the before cursor names', () => {
    const body = { resource: { data: [ref('1'), ref('2')], after: [ref('3')] } };
    expect(answer('PAGE-BEFORE-INCLUSIVE', { paginate: set, before: [ref('3')] }, body)).toEqual({
      resource: { data: [ref('1'), ref('2'), ref('3')], after: [ref('3')] },
    });
    expect(answer('PAGE-BEFORE-INCLUSIVE', { paginate: set, after: [ref('3')] }, body)).toEqual(body);
  });

  it('ORD-TIE-BREAK-REVERSED reverses runs of equal values only', () => {
    const body = {
      resource: {
        data: [
          ['a', ref('1')],
          ['b', ref('2')],
          ['b', ref('3')],
          ['c', ref('4')],
        ],
      },
    };
    expect(answer('ORD-TIE-BREAK-REVERSED', { paginate: set }, body)).toEqual({
      resource: {
        data: [
          ['a', ref('1')],
          ['b', ref('3')],
          ['b', ref('2')],
          ['c', ref('4')],
        ],
      },
    });
  });

  it('PAGE-CURSOR-WITHOUT-REF drops the trailing ref of values cursors, not of ref-only cursors', () => {
    const body = { resource: { data: [], after: [5, ref('1')], before: [ref('2')] } };
    expect(answer('PAGE-CURSOR-WITHOUT-REF', { paginate: set }, body)).toEqual({ resource: { data: [], after: [5], before: [ref('2')] } });
  });
});
