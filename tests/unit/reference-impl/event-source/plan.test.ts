import { describe, expect, it } from 'vitest';
import { TaggedDocument } from '../../../../reference-impl/codec/tagged.js';
import {
  planEventSource,
  type EventChange,
  type EventDocument,
  type EventSourceResolver,
  type IndexInfo,
} from '../../../../reference-impl/event-source/plan.js';
import { FqlError } from '../../../../reference-impl/fql/fql-error.js';
import { parseQuery } from '../../../../reference-impl/fql/parser.js';
import type { QueryInput } from '../../../../reference-impl/fql/query-input.js';
import { Ref, Time, type Value } from '../../../../reference-impl/values/value.js';

const indexes: Record<string, IndexInfo> = {
  products_by_category: { sourceCollection: 'Product', terms: [['data', 'category']], values: [['data', 'price']] },
  products_by_category_and_color: { sourceCollection: 'Product', terms: [['data', 'category'], ['data', 'color']], values: [] },
  products_all: { sourceCollection: 'Product', terms: [], values: [['data', 'name']] },
  orders_by_status: { sourceCollection: 'Order', terms: [['data', 'status']], values: [] },
  tokens_by_instance: { sourceCollection: 'tokens', terms: [['instance']], values: [] },
};

const resolver: EventSourceResolver = {
  collection: (name) => ({ exists: ['Product', 'Order', 'tokens'].includes(name), system: name === 'tokens' }),
  index: (name) => indexes[name],
};

function plan(query: QueryInput, variables?: Map<string, Value>) {
  return planEventSource(parseQuery(query), resolver, variables ? { variables } : {});
}

function planError(query: QueryInput): FqlError {
  try {
    plan(query);
  } catch (error) {
    if (error instanceof FqlError) return error;
    throw error;
  }
  throw new Error('expected the query to be rejected');
}

let nextTs = 1_000n;
function product(id: string, fields: Record<string, Value>, coll = 'Product'): EventDocument {
  nextTs += 1n;
  return { id, coll: new Ref(coll, new Ref('collections')), ts: Time.fromMicros(nextTs), ...fields };
}

describe('planning event sources', () => {
  it('plans Coll.all()', () => {
    const p = plan('Product.all().eventSource()');
    expect(p.collection).toBe('Product');
    expect(p.kind).toBe('all');
    expect(p.steps).toEqual([]);
    expect(p.contains(product('1', {}))).toBe(true);
    expect(p.contains(product('1', {}, 'Order'))).toBe(false);
  });

  it('plans Coll.where() and chained where(), including where() on the event source', () => {
    const p = plan('Product.where(.price > 10).where(p => p.color == "red").eventSource().where(.stock > 0)');
    expect(p.kind).toBe('where');
    expect(p.predicates).toHaveLength(3);
    expect(p.contains(product('1', { price: 11n, color: 'red', stock: 1n }))).toBe(true);
    expect(p.contains(product('1', { price: 11n, color: 'red', stock: 0n }))).toBe(false);
    expect(p.contains(product('1', { price: 9n, color: 'red', stock: 1n }))).toBe(false);
    expect(plan('Product.all().where(.a == 1).eventSource()').kind).toBe('where');
  });

  it('plans an index set with its terms and fields in document form', () => {
    const p = plan('Product.products_by_category("tools").eventSource()');
    expect(p.kind).toBe('index');
    expect(p.index).toEqual({ name: 'products_by_category', terms: ['tools'], termFields: [['category']], valueFields: [['price']] });
    expect(p.contains(product('1', { category: 'tools' }))).toBe(true);
    expect(p.contains(product('1', { category: ['garden', 'tools'] }))).toBe(true);
    expect(p.contains(product('1', { category: 'garden' }))).toBe(false);
    expect(p.contains(product('1', {}))).toBe(false);
  });

  it('matches compound index terms with null for a missing field, and no-term indexes match all', () => {
    const p = plan('Product.products_by_category_and_color("tools", null).eventSource()');
    expect(p.contains(product('1', { category: 'tools' }))).toBe(true);
    expect(p.contains(product('1', { category: 'tools', color: 'red' }))).toBe(false);
    expect(plan('Product.products_all().eventSource()').contains(product('2', {}))).toBe(true);
  });

  it('keeps index terms type-exact (1 is not 1.0)', () => {
    const p = plan('Order.orders_by_status(1).eventSource()');
    expect(p.contains(product('1', { status: 1n }, 'Order'))).toBe(true);
    expect(p.contains(product('1', { status: 1 }, 'Order'))).toBe(false);
  });

  it('plans Set.single(Coll.byId(id)) and Set.single(<interpolated ref>)', () => {
    const p = plan('Set.single(Product.byId("42")).eventsOn(.price)');
    expect(p.kind).toBe('single');
    expect(p.docId).toBe('42');
    expect(p.eventsOn).toEqual([['price']]);
    expect(p.contains(product('42', {}))).toBe(true);
    expect(p.contains(product('43', {}))).toBe(false);
    const q = plan({ fql: ['Set.single(', { value: { '@ref': { id: '7', coll: { '@mod': 'Order' } } } }, ').eventSource()'] });
    expect([q.collection, q.docId]).toEqual(['Order', '7']);
    expect(plan('Set.single(Product.byId(42)).eventSource()').docId).toBe('42');
  });

  it('uses query arguments in predicates, index terms and ids', () => {
    const vars = new Map<string, Value>([['cat', 'tools'], ['min', 5n], ['id', '9']]);
    expect(plan('Product.products_by_category(cat).where(.price >= min).eventSource()', vars).index?.terms).toEqual(['tools']);
    expect(plan('Set.single(Product.byId(id)).eventSource()', vars).docId).toBe('9');
  });

  it('builds event data: the tagged document, a map result, or a projection', () => {
    const doc = product('5', { name: 'saw', price: 20n, dims: { w: 3n } });
    expect(plan('Product.all().eventSource()').eventData(doc)).toEqual(new TaggedDocument(doc));
    expect(plan('Product.all().map(.name).eventSource()').eventData(doc)).toBe('saw');
    expect(plan('Product.all() { name, w: .dims.w }.eventSource()').eventData(doc)).toEqual({ name: 'saw', w: 3n });
    const mapped = plan('Product.all().map(x => { n: x.name, p: x.price }).where(.p > 10).eventSource()');
    expect(mapped.transformed).toBe(true);
    expect(mapped.contains(doc)).toBe(true);
    expect(mapped.contains(product('6', { name: 'nail', price: 1n }))).toBe(false);
  });

  it('accepts the older method names toStream() and changesOn()', () => {
    expect(plan('Product.all().toStream()').kind).toBe('all');
    expect(plan('Product.all().changesOn(.price)').eventsOn).toEqual([['price']]);
  });

  describe('rejections', () => {
    it.each([
      ['Product.all().drop(1).eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on sets returned from `.drop()`."],
      ['Product.all().take(5).eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on sets returned from `.take()`."],
      ['Product.all().order(.price).eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on sets returned from `.order()`."],
      ['Product.all().reverse().eventsOn(.a)', 'invalid_receiver', "can't call `.eventsOn()` because streaming is not supported on sets that have been reversed."],
      ['Product.where(.a == 1)\n  .paginate(10)\n  .eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on sets returned from `.paginate()`."],
      ['Product.all().first().eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on sets returned from `.first()`."],
      ['Product.all().concat(Order.all()).eventSource()', 'invalid_receiver', "can't call `.eventSource()` because streaming is not supported on concatenated sets."],
      ['Set.sequence(1, 10).eventSource()', 'invalid_receiver', '1:5: streaming is not supported on `Set.sequence()`; event sources are created from `<Collection>.all()`, `<Collection>.where(…)`, `<Collection>.<index>(…)` or `Set.single(<Collection>.byId(…))`'],
      ['Collection.all().eventSource()', 'invalid_receiver', '1:1: `Collection` is a system collection; event sources are not supported on system collections'],
      ['Key.all().eventSource()', 'invalid_receiver', '1:1: `Key` is a system collection; event sources are not supported on system collections'],
      ['Token.all().eventSource()', 'invalid_receiver', '1:1: `Token` is a system collection; event sources are not supported on system collections'],
      ['Credential.all().eventSource()', 'invalid_receiver', '1:1: `Credential` is a system collection; event sources are not supported on system collections'],
      ['Database.all().eventSource()', 'invalid_receiver', '1:1: `Database` is a system collection; event sources are not supported on system collections'],
      ['Role.all().eventSource()', 'invalid_receiver', '1:1: `Role` is a system collection; event sources are not supported on system collections'],
      ['Function.all().eventSource()', 'invalid_receiver', '1:1: `Function` is a system collection; event sources are not supported on system collections'],
      ['AccessProvider.all().eventSource()', 'invalid_receiver', '1:1: `AccessProvider` is a system collection; event sources are not supported on system collections'],
      ['Set.single(Key.byId("1")).eventSource()', 'invalid_receiver', '1:12: `Key` is a system collection; event sources are not supported on system collections'],
      ['Product.tokens_by_instance("x").eventSource()', 'invalid_receiver', '1:9: index `tokens_by_instance` is over the system collection `tokens`; event sources are not supported on system-collection indexes'],
      ['Product.orders_by_status("new").eventSource()', 'invalid_query', '1:9: index `orders_by_status` does not index collection `Product` (its source is `Order`)'],
      ['Product.nope().eventSource()', 'invalid_query', '1:9: the method `nope` does not exist on collection `Product` (no index named `nope`)'],
      ['Nope.all().eventSource()', 'invalid_query', '1:1: Unbound variable `Nope`'],
      ['Product.products_by_category().eventSource()', 'invalid_argument', '1:9: index `products_by_category` has 1 term(s), but 0 were given'],
      ['Product.products_by_category("a").eventsOn(.name)', 'invalid_argument', "1:44: `eventsOn()` on index `products_by_category` accepts only the index's terms and values fields (`.category`, `.price`); `.name` is not one of them"],
      ['Product.all().eventsOn()', 'invalid_argument', '1:15: `eventsOn()` needs at least one field, such as `.price`'],
      ['Product.all().eventsOn("price")', 'invalid_argument', '1:24: `eventsOn()` takes field accessors such as `.price` or `.address.city`'],
      ['Product.all().eventSource(1)', 'invalid_argument', '1:15: `eventSource()` takes no arguments'],
      ['Product.where(true).eventSource()', 'invalid_argument', '1:15: `where()` takes a function, such as `x => x.price > 10` or `.price > 10`'],
      ['Product.where((a, b) => a).eventSource()', 'invalid_argument', '1:15: the function passed to `where()` must take exactly one argument'],
      ['Product.where(.name.startsWith("a")).eventSource()', 'invalid_query', '1:15: `startsWith()` is not supported inside predicates, lambdas and projections by this FQL subset'],
      ['Product.where(.a == y).eventSource()', 'invalid_query', '1:21: Unbound variable `y`'],
      ['Product.where(x => x.a == .b).eventSource()', 'invalid_query', '1:27: `.b` has no implicit argument here; name the lambda parameter instead'],
      ['Product.all().eventSource() { a }', 'invalid_query', '1:1: a projection cannot be applied to an event source; only `where()` and `map()` can'],
      ['Product.where(.a > 0).eventsOn(.a)', 'invalid_receiver', "can't call `.eventsOn()` because it was not called on the source set."],
      ['Product.all().map(.a).changesOn(.a)', 'invalid_receiver', "can't call `.changesOn()` because it was not called on the source set."],
      ['Product.all()', 'invalid_query', '1:14: the query does not create an event source; call `.eventSource()` or `.eventsOn(…)` on a supported set (this FQL subset only creates event sources)'],
      ['Product.all().drop(1)', 'invalid_query', '1:22: the query does not create an event source; call `.eventSource()` or `.eventsOn(…)` on a supported set (this FQL subset only creates event sources)'],
      ['Product.byId("1").eventSource()', 'invalid_receiver', '1:9: `byId()` returns a document, not a set; use `Set.single(Product.byId(…))`'],
      ['Set.single(Product.byId("abc")).eventSource()', 'invalid_argument', '1:25: a document id is a string of digits or a non-negative integer'],
      ['Product.eventSource()', 'invalid_query', '1:1: `Product` is a collection, not a set; event sources are created from `<Collection>.all()`, `<Collection>.where(…)`, `<Collection>.<index>(…)` or `Set.single(<Collection>.byId(…))`'],
      ['[1, 2]', 'invalid_query', '1:1: this FQL subset cannot evaluate this expression; event sources are created from `<Collection>.all()`, `<Collection>.where(…)`, `<Collection>.<index>(…)` or `Set.single(<Collection>.byId(…))`'],
    ])('%s → %s', (query, code, message) => {
      const error = planError(query);
      expect({ code: error.code, message: error.message }).toEqual({ code, message });
      expect(error.span).toBeDefined();
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
  ['eventsOn + where: unwatched change that would move in', 'Product.all().eventsOn(.a).where(.b > 0)', { a: 1n, b: 0n }, { a: 1n, b: 1n }, 'none'],
  ['index: create with matching term', 'Product.products_by_category("t").eventSource()', null, { category: 't' }, 'add'],
  ['index: term changes into set', 'Product.products_by_category("t").eventSource()', { category: 'u' }, { category: 't' }, 'add'],
  ['index: term changes out of set', 'Product.products_by_category("t").eventSource()', { category: 't' }, { category: 'u' }, 'remove'],
  ['index: value field changes', 'Product.products_by_category("t").eventSource()', { category: 't', price: 1n }, { category: 't', price: 2n }, 'update'],
  ['index: other field changes', 'Product.products_by_category("t").eventSource()', { category: 't', name: 'a' }, { category: 't', name: 'b' }, 'none'],
  ['index: eventsOn value field only', 'Product.products_by_category("t").eventsOn(.price)', { category: 't', price: 1n }, { category: 't', price: 2n }, 'update'],
  ['index: eventsOn value, term changes', 'Product.products_by_category("t").eventsOn(.price)', { category: 't', price: 1n }, { category: 'u', price: 1n }, 'none'],
  ['index: delete', 'Product.products_by_category("t").eventSource()', { category: 't' }, null, 'remove'],
  ['single: that document changes', 'Set.single(Product.byId("1")).eventSource()', { a: 1n }, { a: 2n }, 'update'],
  ['single: created', 'Set.single(Product.byId("1")).eventSource()', null, { a: 1n }, 'add'],
  ['single: deleted', 'Set.single(Product.byId("1")).eventSource()', { a: 1n }, null, 'remove'],
  ['single + eventsOn: other field', 'Set.single(Product.byId("1")).eventsOn(.a)', { a: 1n, b: 1n }, { a: 1n, b: 2n }, 'none'],
];

describe('trigger table: which write causes which event', () => {
  it.each(triggerTable)('%s', (_name, query, before, after, expected) => {
    const p = plan(query);
    const version = (fields: Record<string, Value> | null) => (fields === null ? null : product('1', fields));
    expect(p.relevant(version(before), version(after))).toBe(expected);
  });

  it('ignores documents of other collections and other ids', () => {
    expect(plan('Product.all().eventSource()').relevant(null, product('1', {}, 'Order'))).toBe('none');
    expect(plan('Set.single(Product.byId("2")).eventSource()').relevant(null, product('1', {}))).toBe('none');
  });

  it('reports a run-time fault of a predicate as an FqlError for an error event', () => {
    const p = plan('Product.where(.d.x == 1).eventSource()');
    expect(() => p.relevant(null, product('1', {}))).toThrow(FqlError);
  });
});
