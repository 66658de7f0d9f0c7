import { describe, expect, it, vi } from 'vitest';
import { EventSourcePlan, type EventChange } from '../../../../reference-impl/fql/runtime/event-source-plan.js';
import { FqlError } from '../../../../reference-impl/fql/fql-error.js';
import { encodeTaggedM, materialize } from '../../../../reference-impl/fql/runtime/render.js';
import { DocRef } from '../../../../reference-impl/fql/runtime/values.js';
import { ROOT_DATABASE, type DocumentVersion } from '../../../../reference-impl/store/store.js';
import type { ObjectValue, Value } from '../../../../reference-impl/values/value.js';
import { evaluate, sourceSpec, unitRuntime, ROOT_IDENTITY } from './fql-fixture.js';
import { StoreFixture } from '../events/store-fixture.js';

/** Product (with collection-defined indexes) and Order, as `Collection.create` stores them. */
function schema(): StoreFixture {
  const fixture = new StoreFixture();
  fixture.commit([{ collection: 'Order' }]);
  const field = (path: string, order?: string): ObjectValue => (order === undefined ? { field: path } : { field: path, order });
  const indexes: ObjectValue = {
    byCategory: { terms: [field('.category')], values: [field('.price')] },
    byCategoryAndColor: { terms: [field('.category'), field('.color')], values: [] },
    byName: { terms: [], values: [field('.name', 'desc')] },
  };
  const ts = fixture.store.lastCommitTs + 1n;
  fixture.store.commit([
    {
      ts,
      database: ROOT_DATABASE,
      writes: [
        {
          collection: 'collections',
          id: 'Product',
          action: 'create',
          before: undefined,
          after: { ts, action: 'create', fields: { name: 'Product', indexes }, hidden: {} },
        },
      ],
    },
  ]);
  return fixture;
}

const fixture = schema();
const runtime = unitRuntime(fixture.store);
const rt = () => runtime(ROOT_IDENTITY, fixture.store.lastCommitTs);

async function plan(query: string): Promise<EventSourcePlan> {
  return new EventSourcePlan(await sourceSpec(fixture.store, query));
}

async function planError(query: string): Promise<FqlError> {
  try {
    await evaluate(fixture.store, query);
  } catch (error) {
    if (error instanceof FqlError) return error;
    throw error;
  }
  throw new Error(`expected ${query} to be rejected`);
}

/** A document version of Product (or `coll`), fixed in advance as an event's is. */
function product(id: string, data: Record<string, Value>, coll = 'Product'): DocRef {
  const version: DocumentVersion = { ts: fixture.store.lastCommitTs, action: 'create', fields: { data: data as ObjectValue }, hidden: {} };
  return new DocRef({ kind: 'user', name: coll }, id, version);
}

async function contains(p: EventSourcePlan, doc: DocRef): Promise<boolean> {
  return (await p.relevant(rt(), null, doc)).change === 'add';
}

/** The data of the event creating `doc`, tagged. */
async function data(p: EventSourcePlan, doc: DocRef): Promise<unknown> {
  const runtime = rt();
  const relevance = await p.relevant(runtime, null, doc);
  if (relevance.change === 'none') throw new Error('the document is not in the source');
  return encodeTaggedM(await materialize(runtime, relevance.data));
}

describe('planning event sources', () => {
  it('plans Coll.all()', async () => {
    const p = await plan('Product.all().eventSource()');
    expect([p.collection, p.kind]).toEqual(['Product', 'all']);
    expect(await contains(p, product('1', {}))).toBe(true);
    expect(await contains(p, product('1', {}, 'Order'))).toBe(false);
  });

  it('plans Coll.where() and chained where(), including where() on the event source', async () => {
    const p = await plan('Product.where(.price > 10).where(p => p.color == "red").eventSource().where(.stock > 0)');
    expect(p.kind).toBe('where');
    expect(await contains(p, product('1', { price: 11n, color: 'red', stock: 1n }))).toBe(true);
    expect(await contains(p, product('1', { price: 11n, color: 'red', stock: 0n }))).toBe(false);
    expect(await contains(p, product('1', { price: 9n, color: 'red', stock: 1n }))).toBe(false);
    expect((await plan('Product.all().where(.a == 1).eventSource()')).kind).toBe('where');
  });

  it('plans a collection-defined index with its terms and fields', async () => {
    const p = await plan('Product.byCategory("tools").eventSource()');
    expect(p.kind).toBe('index');
    expect(p.index).toEqual({ name: 'byCategory', terms: [['category']], values: [{ path: ['price'], desc: false }] });
    expect(await contains(p, product('1', { category: 'tools' }))).toBe(true);
    expect(await contains(p, product('1', { category: ['garden', 'tools'] }))).toBe(true);
    expect(await contains(p, product('1', { category: 'garden' }))).toBe(false);
    expect(await contains(p, product('1', {}))).toBe(false);
  });

  it('matches compound index terms with null for a missing field, and no-term indexes match all', async () => {
    const p = await plan('Product.byCategoryAndColor("tools", null).eventSource()');
    expect(await contains(p, product('1', { category: 'tools' }))).toBe(true);
    expect(await contains(p, product('1', { category: 'tools', color: 'red' }))).toBe(false);
    expect(await contains(await plan('Product.byName().eventSource()'), product('2', {}))).toBe(true);
  });

  it('keeps index terms type-exact (1 is not 1.0)', async () => {
    const p = await plan('Product.byCategory(1).eventSource()');
    expect(await contains(p, product('1', { category: 1n }))).toBe(true);
    expect(await contains(p, product('1', { category: 1 }))).toBe(false);
  });

  it('plans Set.single(Coll.byId(id)), by string or integer id', async () => {
    const p = await plan('Set.single(Product.byId("42")).eventsOn(.price)');
    expect([p.kind, p.docId]).toEqual(['single', '42']);
    expect(p.watchedFields).toEqual([['price']]);
    expect(await contains(p, product('42', {}))).toBe(true);
    expect(await contains(p, product('43', {}))).toBe(false);
    expect((await plan('Set.single(Product.byId(42)).eventSource()')).docId).toBe('42');
    expect((await plan('let doc = Order.byId("7")\nSet.single(doc).eventSource()')).collection).toBe('Order');
  });

  it('carries the variables its functions read', async () => {
    const p = await plan('let min = 5\nlet cat = "tools"\nProduct.byCategory(cat).where(.price >= min).eventSource()');
    expect(await contains(p, product('1', { category: 'tools', price: 5n }))).toBe(true);
    expect(await contains(p, product('1', { category: 'tools', price: 4n }))).toBe(false);
  });

  it("runs the source's functions once per document of an event, the data's run included (DEC-151)", async () => {
    const p = await plan('Product.where(.price > 1).map(.name).eventSource()');
    const runtime = rt();
    const calls = vi.spyOn(runtime, 'call');
    const before = product('7', { name: 'saw', price: 20n });
    const after = product('7', { name: 'plane', price: 30n });
    const events = [
      [null, before],
      [before, after],
      [after, null],
    ] as const;
    const seen = [];
    for (const [was, is] of events) {
      calls.mockClear();
      const relevance = await p.relevant(runtime, was, is);
      seen.push({ relevance, calls: calls.mock.calls.length });
    }
    // where and map, once for each document the write has: one for a create or a delete, two for an update.
    expect(seen).toEqual([
      { relevance: { change: 'add', data: 'saw' }, calls: 2 },
      { relevance: { change: 'update', data: 'plane' }, calls: 4 },
      { relevance: { change: 'remove', data: 'plane' }, calls: 2 },
    ]);
  });

  it('builds event data: the document, a map result, a projection, or any value a function computes', async () => {
    const doc = product('5', { name: 'saw', price: 20n, dims: { w: 3n } });
    expect(await data(await plan('Product.all().eventSource()'), doc)).toMatchObject({
      '@doc': { id: '5', coll: { '@mod': 'Product' }, name: 'saw', price: { '@int': '20' } },
    });
    expect(await data(await plan('Product.all().map(.name).eventSource()'), doc)).toBe('saw');
    expect(await data(await plan('Product.all() { name, w: .dims.w }.eventSource()'), doc)).toEqual({ name: 'saw', w: { '@int': '3' } });
    expect(
      await data(
        await plan('Product.all().map(d => { n: d.name + "!", twice: d.price * 2, now: Time.now() isa Time }).eventSource()'),
        doc,
      ),
    ).toEqual({ n: 'saw!', twice: { '@int': '40' }, now: true });
    const mapped = await plan('Product.all().map(x => { n: x.name, p: x.price }).where(.p > 10).eventSource()');
    expect(mapped.transformed).toBe(true);
    expect(await contains(mapped, doc)).toBe(true);
    expect(await contains(mapped, product('6', { name: 'nail', price: 1n }))).toBe(false);
  });

  it('accepts the older method names toStream() and changesOn()', async () => {
    expect((await plan('Product.all().toStream()')).kind).toBe('all');
    expect((await plan('Product.all().changesOn(.price)')).watchedFields).toEqual([['price']]);
  });

  describe('rejections', () => {
    it.each([
      [
        'Product.all().drop(1).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on sets returned from `.drop()`.",
      ],
      [
        'Product.all().take(5).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on sets returned from `.take()`.",
      ],
      [
        'Product.all().order(.price).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on sets returned from `.order()`.",
      ],
      [
        'Product.all().reverse().eventsOn(.a)',
        'invalid_receiver',
        "can't call `.eventsOn()` because streaming is not supported on sets that have been reversed.",
      ],
      [
        'Product.all().distinct().eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on distinct sets.",
      ],
      [
        'Product.all().flatMap(d => [d].toSet()).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on `.flatMap()` sets.",
      ],
      [
        'Product.all().concat(Order.all()).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on concatenated sets.",
      ],
      [
        'Set.sequence(1, 10).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because streaming is not supported on sets created from `Set.sequence()`.",
      ],
      ['[1, 2].toSet().eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on array sets."],
      [
        'Collection.all().eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because only collections and user defined indexes are streamable.",
      ],
      [
        'Key.all().eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because only collections and user defined indexes are streamable.",
      ],
      [
        'Database.all().eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because only collections and user defined indexes are streamable.",
      ],
      [
        'Set.single(5).eventSource()',
        'invalid_receiver',
        "can't call `.eventSource()` because only collections and user defined indexes are streamable.",
      ],
      ['Product.nope().eventSource()', 'invalid_function_invocation', 'The function `nope` does not exist on `ProductCollection`'],
      ['Nope.all().eventSource()', 'unbound_variable', 'Unbound variable `Nope`'],
      [
        'Product.byCategory().eventSource()',
        'invalid_function_invocation',
        'callee function expects exactly 1 argument, but 0 were provided.',
      ],
      ['Product.all().eventsOn()', 'invalid_function_invocation', 'callee function expects at least 1 argument, but 0 were provided.'],
      [
        'Product.all().eventsOn("price")',
        'invalid_argument',
        'invalid argument `fields`: `eventsOn()` takes field accessors such as `.price` or `.address.city`',
      ],
      ['Product.all().eventSource(1)', 'invalid_function_invocation', 'callee function expects no arguments, but 1 was provided.'],
      ['Product.where(true).eventSource()', 'invalid_argument', 'expected value for `predicate` of type Function, received Boolean'],
      [
        'Product.all().eventSource().take(1)',
        'invalid_function_invocation',
        'The function `take` does not exist on `EventSource<Product>`',
      ],
      ['Product.where(.a > 0).eventsOn(.a)', 'invalid_receiver', "can't call `.eventsOn()` because it was not called on the source set."],
      ['Product.all().map(.a).changesOn(.a)', 'invalid_receiver', "can't call `.changesOn()` because it was not called on the source set."],
      ['Product.byId("1").eventSource()', 'document_not_found', 'Collection `Product` does not contain document with id 1.'],
      ['Set.single(Product.byId("abc")).eventSource()', 'constraint_failure', 'Failed to create document.'],
    ])('%s → %s', async (query, code, message) => {
      const error = await planError(query);
      expect({ code: error.code, message: error.message }).toEqual({ code, message });
    });

    it('refuses eventsOn of a field an index does not cover', async () => {
      const error = await planError('Product.byCategory("a").eventsOn(.name)');
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain('`.name` is not covered by the `byCategory` index.');
    });
  });
});

/**
 * The SD trigger table ("What triggers which event"), as data: each row is a source, the version before and
 * after a write (null = create / delete), and the event it must cause.
 */
const triggerTable: readonly [string, string, Record<string, Value> | null, Record<string, Value> | null, EventChange][] = [
  ['all: create', 'Product.all().eventSource()', null, { a: 1n }, 'add'],
  ['all: update', 'Product.all().eventSource()', { a: 1n }, { a: 2n }, 'update'],
  ['all: delete', 'Product.all().eventSource()', { a: 1n }, null, 'remove'],
  ['where: create in set', 'Product.where(.a > 0).eventSource()', null, { a: 1n }, 'add'],
  ['where: create outside set', 'Product.where(.a > 0).eventSource()', null, { a: 0n }, 'none'],
  ['where: update moves in', 'Product.where(.a > 0).eventSource()', { a: 0n }, { a: 1n }, 'add'],
  ['where: update stays in', 'Product.where(.a > 0).eventSource()', { a: 1n }, { a: 2n }, 'update'],
  ['where: update moves out', 'Product.where(.a > 0).eventSource()', { a: 1n }, { a: 0n }, 'remove'],
  ['where: update stays out', 'Product.where(.a > 0).eventSource()', { a: 0n }, { a: -1n }, 'none'],
  ['where: delete in set', 'Product.where(.a > 0).eventSource()', { a: 1n }, null, 'remove'],
  ['where: delete outside set', 'Product.where(.a > 0).eventSource()', { a: 0n }, null, 'none'],
  ['where on source: moves in', 'Product.all().eventSource().where(.a > 0)', { a: 0n }, { a: 1n }, 'add'],
  ['eventsOn: watched field changes', 'Product.all().eventsOn(.a)', { a: 1n, b: 1n }, { a: 2n, b: 1n }, 'update'],
  ['eventsOn: other field changes', 'Product.all().eventsOn(.a)', { a: 1n, b: 1n }, { a: 1n, b: 2n }, 'none'],
  ['eventsOn: nested path changes', 'Product.all().eventsOn(.d.x)', { d: { x: 1n, y: 1n } }, { d: { x: 2n, y: 1n } }, 'update'],
  ['eventsOn: sibling of nested path changes', 'Product.all().eventsOn(.d.x)', { d: { x: 1n, y: 1n } }, { d: { x: 1n, y: 2n } }, 'none'],
  ['eventsOn: int to decimal counts as a change', 'Product.all().eventsOn(.a)', { a: 1n }, { a: 1 }, 'update'],
  ['eventsOn: create', 'Product.all().eventsOn(.a)', null, { b: 1n }, 'add'],
  ['eventsOn: delete', 'Product.all().eventsOn(.a)', { b: 1n }, null, 'remove'],
  ['eventsOn + where: watched change moves out', 'Product.all().eventsOn(.a).where(.a > 0)', { a: 1n }, { a: 0n }, 'remove'],
  [
    'eventsOn + where: unwatched change that would move in',
    'Product.all().eventsOn(.a).where(.b > 0)',
    { a: 1n, b: 0n },
    { a: 1n, b: 1n },
    'none',
  ],
  ['index: create with matching term', 'Product.products_by_category("t").eventSource()', null, { category: 't' }, 'add'],
  ['index: term changes into set', 'Product.products_by_category("t").eventSource()', { category: 'u' }, { category: 't' }, 'add'],
  ['index: term changes out of set', 'Product.products_by_category("t").eventSource()', { category: 't' }, { category: 'u' }, 'remove'],
  [
    'index: value field changes',
    'Product.products_by_category("t").eventSource()',
    { category: 't', price: 1n },
    { category: 't', price: 2n },
    'update',
  ],
  [
    'index: other field changes',
    'Product.products_by_category("t").eventSource()',
    { category: 't', name: 'a' },
    { category: 't', name: 'b' },
    'none',
  ],
  [
    'index: eventsOn value field only',
    'Product.products_by_category("t").eventsOn(.price)',
    { category: 't', price: 1n },
    { category: 't', price: 2n },
    'update',
  ],
  [
    'index: eventsOn value, term changes',
    'Product.products_by_category("t").eventsOn(.price)',
    { category: 't', price: 1n },
    { category: 'u', price: 1n },
    'none',
  ],
  ['index: delete', 'Product.products_by_category("t").eventSource()', { category: 't' }, null, 'remove'],
  ['single: that document changes', 'Set.single(Product.byId("1")).eventSource()', { a: 1n }, { a: 2n }, 'update'],
  ['single: created', 'Set.single(Product.byId("1")).eventSource()', null, { a: 1n }, 'add'],
  ['single: deleted', 'Set.single(Product.byId("1")).eventSource()', { a: 1n }, null, 'remove'],
  ['single + eventsOn: other field', 'Set.single(Product.byId("1")).eventsOn(.a)', { a: 1n, b: 1n }, { a: 1n, b: 2n }, 'none'],
];

describe('trigger table: which write causes which event', () => {
  it.each(triggerTable)('%s', async (_name, query, before, after, expected) => {
    const p = await plan(query.replaceAll('products_by_category', 'byCategory'));
    const version = (fields: Record<string, Value> | null) => (fields === null ? null : product('1', fields));
    expect((await p.relevant(rt(), version(before), version(after))).change).toBe(expected);
  });

  it('ignores documents of other collections and other ids', async () => {
    expect((await (await plan('Product.all().eventSource()')).relevant(rt(), null, product('1', {}, 'Order'))).change).toBe('none');
    expect((await (await plan('Set.single(Product.byId("2")).eventSource()')).relevant(rt(), null, product('1', {}))).change).toBe('none');
  });

  it('reports a run-time fault of a predicate as an FqlError for an error event', async () => {
    const p = await plan('Product.where(.d.x == 1).eventSource()');
    await expect(p.relevant(rt(), null, product('1', {}))).rejects.toThrow(FqlError);
    const aborting = await plan('Product.all().map(_ => abort("oops")).eventSource()');
    const error = await aborting.relevant(rt(), null, product('1', {})).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FqlError);
    expect((error as FqlError).code).toBe('abort');
  });
});
