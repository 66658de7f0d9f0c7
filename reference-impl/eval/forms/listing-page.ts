/**
 * Paginate over a collection listing (`Documents(c)` or a native collection such as `keys`) without
 * materialising the collection: the page is walked from the store's ordered ids, one seek plus as many steps
 * as it takes to find `size + 1` readable documents. Used only where the walk provably yields what the
 * materialised set would (otherwise the caller materialises): every id is a canonical number (so store order
 * is ref order), the request has not written to the collection, and any cursor is a ref of that collection.
 */
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import type { IndexTuple } from '../../indexes/index-store.js';
import type { SetPageOptions } from '../../indexes/ordered-set.js';
import { collectionRefOf } from '../../indexes/index-manager.js';
import { isCanonicalNumericId, type CollectionKey, type DatabaseId, type DocumentVersion, type LiveChunk } from '../../store/store.js';
import { Ref, SetRef, type Value } from '../../values/value.js';
import { GenerationalWeakCache, KEPT_ENTRIES_PER_GENERATION } from '../../values/generational-weak-cache.js';
import type { EvalContext } from '../context.js';
import { isNativeCollection, requireListingAccess, resolveCollection, resolveDatabaseScope } from '../documents.js';

interface Listing {
  database: DatabaseId;
  key: CollectionKey;
  /** The collection ref each listed ref carries: scoped when the listing names a collection of another database. */
  collectionRef: Ref;
  /** The database scope each listed record ref carries, for a native collection read through a scope. */
  scope?: Ref;
}

/**
 * The collection ref the documents of a listed collection carry. Read through a database scope
 * (`Documents(Collection("c", Database("d")))`) it keeps that scope, so a listed ref sent back (to Get) designates
 * the same document.
 */
export function listedCollectionRef(collection: Ref, key: CollectionKey): Ref {
  const scope = collection.database ?? collection.collection?.database;
  const ref = collectionRefOf(key);
  return scope === undefined ? ref : new Ref(ref.id, ref.collection, scope);
}

function listingOf(ctx: EvalContext, set: Value, position: Position): Listing | undefined {
  if (set instanceof Ref && isNativeCollection(set)) {
    const database = resolveDatabaseScope(ctx, set.database, position);
    const listing: Listing = { database, key: set.id, collectionRef: collectionRefOf(set.id) };
    if (set.database !== undefined) listing.scope = set.database;
    return listing;
  }
  if (!(set instanceof SetRef)) return undefined;
  const keys = Object.keys(set.structure);
  const collection = set.structure.documents;
  if (keys.length !== 1 || !(collection instanceof Ref)) return undefined;
  const { database, collection: key } = resolveCollection(ctx, collection, position);
  return { database, key, collectionRef: listedCollectionRef(collection, key) };
}

/**
 * The Ref each recently listed document version was listed with, so that paging the same documents again reuses its
 * Ref and the text the codec keeps on it. Bounded (see `GenerationalWeakCache`): paging through a large collection
 * keeps at most ~64k of them (~150 bytes each), and a version no longer stored takes its Ref with it.
 */
const listedRefs = new GenerationalWeakCache<DocumentVersion, Ref>(KEPT_ENTRIES_PER_GENERATION);

function listedRef(chunk: LiveChunk, i: number, { collectionRef, scope }: Listing): Ref {
  // A scoped listing is rare (an admin looking into a child database): its refs are not kept.
  if (scope !== undefined) return new Ref(chunk.id(i), collectionRef, scope);
  const version = chunk.versions[i]!;
  const known = listedRefs.get(version);
  // A version belongs to one document, but keeps its object when its collection is renamed: that is checked.
  if (known !== undefined && (known.collection === collectionRef || known.collection!.equals(collectionRef))) return known;
  const ref = new Ref(chunk.id(i), collectionRef);
  listedRefs.set(version, ref);
  return ref;
}

/** A page of a listing: its refs, and the cursors (`[ref]`) before and after it. */
export interface ListingPage {
  data: Ref[];
  before?: IndexTuple;
  after?: IndexTuple;
}

/** The id a cursor names when it is exactly `[ref]` of the listed collection with a canonical id. */
function cursorId(listing: Listing, cursor: IndexTuple | undefined): string | undefined | false {
  if (cursor === undefined) return undefined;
  const [ref] = cursor;
  if (cursor.length !== 1 || !(ref instanceof Ref) || ref.collection === undefined) return false;
  if (ref.database === undefined ? listing.scope !== undefined : listing.scope === undefined || !ref.database.equals(listing.scope))
    return false;
  if (!ref.collection.equals(listing.collectionRef) || !isCanonicalNumericId(ref.id)) return false;
  return ref.id;
}

// Implements: UDF-RECORD-002, DB-LIST-003, KEY-SECRET-003, KEY-SECRET-012, COLL-GET-002, DOC-LIFE-003, IDX-STATE-007
// Implements: AUTH-TOKEN-008
/**
 * The page, or undefined when this set or request needs the materialised path. Access is checked per
 * document walked, exactly as the materialised listing does; the page comes at once unless a check waits.
 */
export function listingPage(
  ctx: EvalContext,
  set: Value,
  position: Position,
  atTs: bigint | undefined,
  options: SetPageOptions,
): ListingPage | undefined | Promise<ListingPage | undefined> {
  const listing = listingOf(ctx, set, position);
  if (!listing) return undefined;
  // Listings a failpoint empties are read the long way, where set-reading.ts empties them.
  const { key } = listing;
  if (key === 'functions' ? failpoint('UDF-FUNCTIONS-LISTING-EMPTY') : key === 'tokens' && failpoint('AUTH-TOKENS-UNLISTED'))
    return undefined;
  if (key === 'collections' && ctx.identity.kind === 'token' && failpoint('ABAC-LISTING-FILTERED')) return undefined;
  // A native collection is listed whole or refused whole; the documents of a user collection are filtered one by one.
  const refused =
    set instanceof Ref && !filteredListing(ctx, listing.key)
      ? requireListingAccess(ctx, listing.database, listing.key, position)
      : undefined;
  return refused
    ? refused.then(() => walkedPage(ctx, listing, position, atTs, options))
    : walkedPage(ctx, listing, position, atTs, options);
}

/** The self-check's failpoints: a server that filters a key's listing of schema records one by one instead of refusing it. */
function filteredListing(ctx: EvalContext, key: string): boolean {
  const { kind, role } = ctx.identity;
  if (kind === 'key' && role === 'client') return SCHEMA_LISTINGS.has(key) && failpoint('DB-LIST-CLIENT-EMPTY-PAGE');
  return kind === 'key' && role === 'server' && (key === 'keys' || key === 'databases') && failpoint('DB-LIST-SERVER-EMPTY-PAGE');
}

const SCHEMA_LISTINGS = new Set(['collections', 'indexes', 'functions', 'roles', 'databases', 'keys']);

function walkedPage(
  ctx: EvalContext,
  listing: Listing,
  position: Position,
  atTs: bigint | undefined,
  options: SetPageOptions,
): ListingPage | undefined | Promise<ListingPage | undefined> {
  const { database, key } = listing;
  const { store } = ctx.txn;
  if (!store.hasOnlyCanonicalIds(database, key)) return undefined;
  if (atTs === undefined && ctx.txn.hasWritesTo(database, key)) return undefined;
  const backwards = options.before !== undefined || options.fromEnd === true;
  const from = cursorId(listing, backwards ? options.before : options.after);
  if (from === false) return undefined;
  const { size } = options;
  if (!Number.isSafeInteger(size) || size < 1) throw errors.invalidArgument('Page size must be a positive integer.', position);
  const chunks = store.walkCollectionChunks(
    database,
    key,
    atTs ?? ctx.txn.ts,
    backwards ? 'descending' : 'ascending',
    from,
    size + 1,
    ctx.txn.ts,
  );
  if (!ctx.services.access.readsEveryDocument(ctx, database, key)) return checkedPage(ctx, listing, chunks, backwards, options);
  const taken: Ref[] = [];
  walk: for (const chunk of chunks) {
    for (let i = 0; i < chunk.count; i++) {
      taken.push(listedRef(chunk, i, listing));
      if (taken.length > size) break walk;
    }
  }
  return pageOf(taken, backwards, options);
}

/** The same walk for a caller whose read rights depend on the document: each one walked is checked. */
async function checkedPage(
  ctx: EvalContext,
  listing: Listing,
  chunks: Iterable<LiveChunk>,
  backwards: boolean,
  options: SetPageOptions,
): Promise<ListingPage> {
  const { database, key } = listing;
  const taken: Ref[] = [];
  walk: for (const chunk of chunks) {
    for (let i = 0; i < chunk.count; i++) {
      const ref = listedRef(chunk, i, listing);
      const allowed = ctx.services.access.allows(ctx, { action: 'read', database, collection: key, ref, before: chunk.versions[i]! });
      if (allowed === true || (allowed !== false && (await allowed))) taken.push(ref);
      if (taken.length > options.size) break walk;
    }
  }
  return pageOf(taken, backwards, options);
}

/** The page of the `size + 1` (or fewer) refs taken in walk order. */
function pageOf(taken: Ref[], backwards: boolean, options: SetPageOptions): ListingPage {
  const { size } = options;
  // The entry past the page, if the walk found one: forwards it is the next page's first (the `after` cursor).
  const next = taken.length > size ? taken[size] : undefined;
  const more = next !== undefined;
  if (more) taken.length = size;
  if (backwards) {
    const page: ListingPage = { data: taken.reverse() };
    if (more) page.before = [taken[0]!];
    if (options.before !== undefined) page.after = options.before;
    return page;
  }
  const page: ListingPage = { data: taken };
  if (options.after !== undefined) page.before = options.after;
  if (next !== undefined) page.after = [next];
  return page;
}
