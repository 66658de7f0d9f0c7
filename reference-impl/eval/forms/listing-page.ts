/**
 * Paginate over a collection listing (`Documents(c)` or a native collection such as `keys`) without
 * materialising the collection: the page is walked from the store's ordered ids, one seek plus as many steps
 * as it takes to find `size + 1` readable documents. Used only where the walk provably yields what the
 * materialised set would (otherwise the caller materialises): every id is a canonical number (so store order
 * is ref order), the request has not written to the collection, and any cursor is a ref of that collection.
 */
import { errors, type Position } from '../../errors/query-error.js';
import type { IndexPage, IndexTuple } from '../../indexes/index-store.js';
import type { SetPageOptions } from '../../indexes/ordered-set.js';
import { collectionRefOf } from '../../indexes/index-manager.js';
import { isCanonicalNumericId, type CollectionKey, type DatabaseId, type DocumentVersion, type LiveChunk } from '../../store/store.js';
import { Ref, SetRef, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import { isNativeCollection, resolveCollection, resolveDatabaseScope } from '../documents.js';

interface Listing {
  database: DatabaseId;
  key: CollectionKey;
  collectionRef: Ref;
}

function listingOf(ctx: EvalContext, set: Value, position: Position): Listing | undefined {
  if (set instanceof Ref && isNativeCollection(set)) {
    const database = resolveDatabaseScope(ctx, set.database, position);
    return { database, key: set.id, collectionRef: collectionRefOf(set.id) };
  }
  if (!(set instanceof SetRef)) return undefined;
  const keys = Object.keys(set.structure);
  const collection = set.structure['documents'];
  if (keys.length !== 1 || !(collection instanceof Ref)) return undefined;
  const { database, collection: key } = resolveCollection(ctx, collection, position);
  return { database, key, collectionRef: collectionRefOf(key) };
}

/**
 * The Ref each listed document version was listed with, so that paging the same documents again reuses its
 * Ref and the text the codec keeps on it (weakly held: a version no longer stored takes its Ref with it).
 */
const listedRefs = new WeakMap<DocumentVersion, Ref>();

function listedRef(id: string, version: DocumentVersion, collectionRef: Ref): Ref {
  const known = listedRefs.get(version);
  // A version keeps its object when its collection is renamed, so the collection is checked, not assumed.
  if (known !== undefined && known.id === id && known.collection!.equals(collectionRef)) return known;
  const ref = new Ref(id, collectionRef);
  listedRefs.set(version, ref);
  return ref;
}

/** The id a cursor names when it is exactly `[ref]` of the listed collection with a canonical id. */
function cursorId(listing: Listing, cursor: IndexTuple | undefined): string | undefined | false {
  if (cursor === undefined) return undefined;
  const [ref] = cursor;
  if (cursor.length !== 1 || !(ref instanceof Ref) || ref.database !== undefined || ref.collection === undefined) return false;
  if (!ref.collection.equals(listing.collectionRef) || !isCanonicalNumericId(ref.id)) return false;
  return ref.id;
}

/**
 * The page, or undefined when this set or request needs the materialised path. Access is checked per
 * document walked, exactly as the materialised listing does; the page comes at once unless a check waits.
 */
export function listingPage(ctx: EvalContext, set: Value, position: Position, atTs: bigint | undefined, options: SetPageOptions): IndexPage | undefined | Promise<IndexPage | undefined> {
  const listing = listingOf(ctx, set, position);
  if (!listing) return undefined;
  const { database, key, collectionRef } = listing;
  const { store } = ctx.txn;
  if (!store.hasOnlyCanonicalIds(database, key)) return undefined;
  if (atTs === undefined && ctx.txn.hasWritesTo(database, key)) return undefined;
  const backwards = options.before !== undefined || options.fromEnd === true;
  const from = cursorId(listing, backwards ? options.before : options.after);
  if (from === false) return undefined;
  const { size } = options;
  if (!Number.isSafeInteger(size) || size < 1) throw errors.invalidArgument('Page size must be a positive integer.', position);
  const chunks = store.walkCollectionChunks(database, key, atTs ?? ctx.txn.ts, backwards ? 'descending' : 'ascending', from, size + 1);
  if (!ctx.services.access.readsEveryDocument(ctx, database, key)) return checkedPage(ctx, listing, chunks, backwards, options);
  const taken: IndexTuple[] = [];
  walk: for (const chunk of chunks) {
    for (let i = 0; i < chunk.ids.length; i++) {
      taken.push([listedRef(chunk.ids[i]!, chunk.versions[i]!, collectionRef)]);
      if (taken.length > size) break walk;
    }
  }
  return pageOf(taken, backwards, options);
}

/** The same walk for a caller whose read rights depend on the document: each one walked is checked. */
async function checkedPage(ctx: EvalContext, listing: Listing, chunks: Iterable<LiveChunk>, backwards: boolean, options: SetPageOptions): Promise<IndexPage> {
  const { database, key, collectionRef } = listing;
  const taken: IndexTuple[] = [];
  walk: for (const chunk of chunks) {
    for (let i = 0; i < chunk.ids.length; i++) {
      const version = chunk.versions[i]!;
      const ref = listedRef(chunk.ids[i]!, version, collectionRef);
      const allowed = ctx.services.access.allows(ctx, { action: 'read', database, collection: key, ref, before: version });
      if (allowed === true || (allowed !== false && (await allowed))) taken.push([ref]);
      if (taken.length > options.size) break walk;
    }
  }
  return pageOf(taken, backwards, options);
}

/** The page of the `size + 1` (or fewer) entries taken in walk order. */
function pageOf(taken: IndexTuple[], backwards: boolean, options: SetPageOptions): IndexPage {
  const { size } = options;
  if (backwards) {
    const page: IndexPage = { data: taken.slice(0, size).reverse() };
    if (taken.length > size) page.before = taken[size - 1];
    if (options.before !== undefined) page.after = options.before;
    return page;
  }
  const page: IndexPage = { data: taken.slice(0, size) };
  if (options.after !== undefined) page.before = options.after;
  if (taken.length > size) page.after = taken[size];
  return page;
}
