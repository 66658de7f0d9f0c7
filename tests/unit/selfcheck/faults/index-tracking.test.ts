// What the index, set, paging and ordering faults learn from the traffic: index definitions, paginate forms,
// documents answered, and the v4 error a fault substitutes. Inputs are the wire JSON the proxy hands them.
import { describe, expect, it } from 'vitest';
import type { BufferedResponse, FaultHooks, ProxiedRequest } from '../../../selfcheck/fault.js';
import {
  createIndexParams,
  DocumentLedger,
  hasCursor,
  IndexDefinitions,
  indexName,
  isPage,
  matchedIndexName,
  observingIndexes,
  paginateForms,
  topLevelPage,
  unwrapObject,
  v4ErrorResponse,
} from '../../../selfcheck/faults/lib/index-tracking.js';
import { parseJson } from '../../../selfcheck/json-body.js';

const v4 = (expression: unknown): ProxiedRequest => ({
  method: 'POST',
  path: '/',
  headers: {},
  body: Buffer.from(JSON.stringify(expression)),
});
/** A body as the proxy hands it to a JSON hook: parsed losslessly. */
const wire = (value: unknown): unknown => parseJson(JSON.stringify(value));
const docRef = (collection: string, id: string) => ({
  '@ref': { id, collection: { '@ref': { id: collection, collection: { '@ref': { id: 'collections' } } } } },
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

describe('IndexDefinitions', () => {
  it('records each create_index of a request with its reverse flags, partitions, source, terms, values and uniqueness', () => {
    const indexes = new IndexDefinitions();
    indexes.observe(
      v4(
        createIndex({
          name: 'by_city',
          source: { collection: 'people' },
          terms: [{ object: { field: ['data', 'city'] } }, { object: { field: 'ts' } }],
          values: [{ object: { field: ['data', 'age'], reverse: true } }, { object: { field: ['ref'] } }],
          unique: true,
          partitions: 8,
        }),
      ),
    );
    expect(indexes.get('by_city')).toEqual({
      name: 'by_city',
      reverse: [true, false],
      partitions: 8,
      source: { collection: 'people' },
      sourceCollection: 'people',
      termPaths: [['data', 'city'], ['ts']],
      termIsBinding: [false, false],
      valuePaths: [['data', 'age'], ['ref']],
      unique: true,
    });
    expect(indexes.get('other')).toBeUndefined();
  });

  it('keeps array positions in term paths as numbers and leaves out what was not given', () => {
    const indexes = new IndexDefinitions();
    indexes.observe(v4(createIndex({ name: 'i', source: { collection: 'c' }, terms: [{ object: { field: ['data', 'tags', 0] } }] })));
    const seen = indexes.get('i')!;
    expect(seen.termPaths).toEqual([['data', 'tags', 0]]);
    expect(seen.reverse).toEqual([]);
    expect(seen.unique).toBe(false);
    expect('partitions' in seen).toBe(false);
  });

  it('reads the path of a binding that selects from its parameter, and no path for other bindings', () => {
    const binding = (expr: unknown) => ({ query: { lambda: 'doc', expr } });
    const source = [
      {
        object: {
          collection: { collection: 'people' },
          fields: {
            object: {
              city: binding({ select: ['data', 'city'], from: { var: 'doc' } }),
              withDefault: binding({ select: ['data', 'city'], from: { var: 'doc' }, default: 'x' }),
              computed: binding({ concat: [{ select: ['data', 'a'], from: { var: 'doc' } }] }),
              otherVar: binding({ select: ['data', 'city'], from: { var: 'other' } }),
            },
          },
        },
      },
    ];
    const indexes = new IndexDefinitions();
    indexes.observe(
      v4(
        createIndex({
          name: 'b',
          source,
          terms: ['city', 'withDefault', 'computed', 'otherVar', 'missing'].map((name) => ({ object: { binding: name } })),
        }),
      ),
    );
    const seen = indexes.get('b')!;
    expect(seen.termPaths).toEqual([['data', 'city'], undefined, undefined, undefined, undefined]);
    expect(seen.termIsBinding).toEqual([true, true, true, true, true]);
    expect(seen.sourceCollection).toBe('people');
  });

  it('reads a binding path and the collection of a single source object sent without an array', () => {
    const indexes = new IndexDefinitions();
    const source = {
      object: {
        collection: { collection: 'people' },
        fields: { object: { k: { query: { lambda: 'd', expr: { select: ['data', 'k'], from: { var: 'd' } } } } } },
      },
    };
    indexes.observe(v4(createIndex({ name: 'lone', source, terms: [{ object: { binding: 'k' } }] })));
    expect(indexes.get('lone')!.termPaths).toEqual([['data', 'k']]);
    expect(indexes.get('lone')!.sourceCollection).toBe('people');
  });

  it('knows no source collection for several sources, and no binding path then', () => {
    const indexes = new IndexDefinitions();
    const bound = {
      object: {
        collection: { collection: 'a' },
        fields: { object: { k: { query: { lambda: 'd', expr: { select: ['data', 'k'], from: { var: 'd' } } } } } },
      },
    };
    indexes.observe(
      v4(
        createIndex({
          name: 'two',
          source: [bound, { object: { collection: { collection: 'b' } } }],
          terms: [{ object: { binding: 'k' } }],
        }),
      ),
    );
    expect(indexes.get('two')!.sourceCollection).toBeUndefined();
    expect(indexes.get('two')!.termPaths).toEqual([undefined]);
  });

  it('ignores create_index without a string name, and a later definition of a name replaces the earlier', () => {
    const indexes = new IndexDefinitions();
    indexes.observe(v4(createIndex({ name: { concat: ['a', 'b'] }, source: { collection: 'c' } })));
    expect(indexes.all()).toEqual([]);
    indexes.observe(v4({ do: [createIndex({ name: 'i', unique: true }), createIndex({ name: 'j' })] }));
    indexes.observe(v4(createIndex({ name: 'i' })));
    expect(indexes.all().map((index) => [index.name, index.unique])).toEqual([
      ['i', false],
      ['j', false],
    ]);
  });

  it('observes v4 queries only', () => {
    const indexes = new IndexDefinitions();
    indexes.observe({ ...v4(createIndex({ name: 'i' })), path: '/query/1' });
    expect(indexes.all()).toEqual([]);
  });

  it('pagedIndex answers the seen index a lone paginate reads through a match', () => {
    const indexes = new IndexDefinitions();
    indexes.observe(v4(createIndex({ name: 'i', values: [{ object: { field: ['data', 'n'] } }] })));
    const form = { paginate: { match: { index: 'i' } }, size: 3 };
    expect(indexes.pagedIndex(v4(form))).toEqual({ index: indexes.get('i'), form: wire(form) });
    expect(indexes.pagedIndex(v4({ paginate: { match: { index: 'unseen' } } }))).toBeUndefined();
    expect(indexes.pagedIndex(v4({ do: [form, form] }))).toBeUndefined();
    expect(indexes.pagedIndex(v4({ paginate: { documents: { collection: 'c' } } }))).toBeUndefined();
  });
});

describe('observingIndexes', () => {
  it("records a request's index definitions before the fault's own request hook sees it, and keeps the other hooks", async () => {
    let seenByHook: unknown;
    const json: FaultHooks['json'] = () => 'rewritten';
    const hooks = observingIndexes((indexes) => ({
      request: (request) => {
        seenByHook = indexes.get('i');
        return request.path === '/change' ? { ...request, path: '/' } : undefined;
      },
      json,
    }));
    expect(await hooks.request!(v4(createIndex({ name: 'i', unique: true })))).toBeUndefined();
    expect(seenByHook).toMatchObject({ name: 'i', unique: true });
    expect(await hooks.request!({ ...v4(1), path: '/change' })).toMatchObject({ path: '/' });
    expect(hooks.json).toBe(json);
  });

  it('still records definitions when the fault has no request hook of its own', async () => {
    let definitions: IndexDefinitions | undefined;
    const hooks = observingIndexes((indexes) => {
      definitions = indexes;
      return {};
    });
    expect(await hooks.request!(v4(createIndex({ name: 'i' })))).toBeUndefined();
    expect(definitions!.get('i')?.name).toBe('i');
  });
});

describe('DocumentLedger', () => {
  const doc = (collection: string, id: string, data: Record<string, unknown>) => ({ ref: docRef(collection, id), ts: 1, data });

  it('records user documents of a successful answer, nested ones too, by collection', () => {
    const ledger = new DocumentLedger();
    const a = doc('people', '1', { n: 1 });
    const b = doc('people', '2', { n: 2 });
    const c = doc('pets', '3', {});
    ledger.observe(wire({ resource: { data: [a, { nested: b }], other: c } }), 200, v4({ paginate: 1 }));
    expect(ledger.live('people').map((seen) => seen.record)).toEqual(wire([a, b]));
    expect(ledger.live('pets')).toHaveLength(1);
    expect(ledger.get(docRef('people', '2'))).toMatchObject({ collection: 'people', deleted: false, record: wire(b) });
    expect(ledger.deleted('people')).toEqual([]);
  });

  it('skips answers with errors or statuses of 300 and above, and records that are not user documents', () => {
    const ledger = new DocumentLedger();
    ledger.observe(wire({ resource: doc('people', '1', {}) }), 400, v4({ get: 1 }));
    const keyRecord = { ref: { '@ref': { id: '9', collection: { '@ref': { id: 'keys' } } } }, ts: 1, data: {} };
    const withoutData = { ref: docRef('people', '2'), ts: 1 };
    const withoutTs = { ref: docRef('people', '3'), data: {} };
    ledger.observe(wire({ resource: [keyRecord, withoutData, withoutTs] }), 200, v4({ get: 1 }));
    ledger.observe('not an object', 200, v4({ get: 1 }));
    expect(ledger.live('people')).toEqual([]);
    expect(ledger.live('keys')).toEqual([]);
  });

  it('marks the documents a top-level delete answered as deleted; a later read of the same ref revives them', () => {
    const ledger = new DocumentLedger();
    ledger.observe(wire({ resource: doc('people', '1', { n: 1 }) }), 201, v4({ create: 1 }));
    ledger.observe(wire({ resource: doc('people', '1', { n: 1 }) }), 200, v4({ delete: docRef('people', '1') }));
    expect(ledger.live('people')).toEqual([]);
    expect(ledger.deleted('people').map((seen) => seen.ref)).toEqual([wire(docRef('people', '1'))]);
    ledger.observe(wire({ resource: doc('people', '1', { n: 2 }) }), 201, v4({ create: 1 }));
    expect(ledger.live('people').map((seen) => seen.record.data)).toEqual([wire({ n: 2 })]);
    expect(ledger.deleted('people')).toEqual([]);
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
