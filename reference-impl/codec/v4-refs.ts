/**
 * Refs as the v4 wire names them: short ref paths (`collections/c/1`), document ids and the old `classes` name,
 * read as the real service's parser reads them.
 */
import { QueryError, type Position } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import { Ref } from '../values/value.js';

/** The largest document id: ids are signed 64-bit integers. */
const MAX_DOCUMENT_ID = 2n ** 63n - 1n;
const LONG_TEXT = /^[+-]?[0-9]+$/;
const DIGITS = /^[0-9]*$/;

// Implements: DOC-CREATE-011
/**
 * A document id as the real service reads one (fauna/faunadb `RefParser`, `RefFunction`; DEC-132): a decimal integer
 * that fits in 64 bits, optionally signed, kept in its canonical form (`007` is `7`). Anything else is 400
 * `invalid argument` at `position`: `The id provided is too large: '<id>'` for digits only, else `Number or numeric
 * String expected, non-numeric '<id>' provided.`
 */
export function documentId(id: string, position: Position): string {
  if (LONG_TEXT.test(id)) {
    const value = BigInt(id);
    if (value <= MAX_DOCUMENT_ID && value >= -MAX_DOCUMENT_ID - 1n) return value.toString();
  }
  if (failpoint('DOC-ID-ANY-STRING')) return id;
  if (DIGITS.test(id)) throw new QueryError('invalid argument', `The id provided is too large: '${id}'`, position);
  throw new QueryError('invalid argument', `Number or numeric String expected, non-numeric '${id}' provided.`, position);
}

/** Whether the records of `collection` have numeric ids: documents of a user collection, keys, tokens, credentials. */
export function hasNumericIds(collection: Ref): boolean {
  if (collection.collection === undefined) return collection.id === 'keys' || collection.id === 'tokens' || collection.id === 'credentials';
  return collection.collection.id === 'collections' && collection.collection.collection === undefined;
}

/** The ref of a native collection (`keys`, `collections`, …), in `database` when given. */
export function nativeRef(id: string, database?: Ref): Ref {
  return new Ref(id, undefined, database);
}

// Implements: PROTO-VERSION-004
/** `classes` is the old name of the `collections` native collection. */
export function normalizeCollectionRef(ref: Ref): Ref {
  if (ref.collection === undefined && ref.id === 'classes') return new Ref('collections', undefined, ref.database);
  if (ref.collection && ref.collection.collection === undefined && ref.collection.id === 'classes') {
    return new Ref(ref.id, new Ref('collections', undefined, ref.collection.database), ref.database);
  }
  return ref;
}

const SCHEMA_PATH_PREFIXES: Record<string, string> = {
  classes: 'collections',
  collections: 'collections',
  indexes: 'indexes',
  databases: 'databases',
  keys: 'keys',
  tokens: 'tokens',
  credentials: 'credentials',
  roles: 'roles',
  functions: 'functions',
  access_providers: 'access_providers',
};

// Implements: PROTO-VALUE-002, DOC-GET-003
/**
 * The short ref form: `collections/c/1`, `classes/c/1`, `collections/c`, `databases/db`, `keys/123`,
 * `tokens/self`, `collections`, … A document's id is decimal digits that fit in 64 bits, or `self`. Anything else is
 * 400 `invalid expression` `Invalid ref.`, as the real service's parser answers it (fauna/faunadb `RefParser`
 * `LegacyRefParser`, `Parser.parseRef`).
 */
export function parseRefPath(path: string, position: Position): Ref {
  const parts = path.split('/');
  const invalid = () => new QueryError('invalid expression', 'Invalid ref.', position);
  if (parts.some((p) => p === '')) throw invalid();
  const native = SCHEMA_PATH_PREFIXES[parts[0]!];
  if (native === undefined) throw invalid();
  const nativeCollection = nativeRef(native);
  const shortId = (id: string) => {
    if (id === 'self') return id;
    if (!/^[0-9]+$/.test(id) || BigInt(id) > MAX_DOCUMENT_ID) throw invalid();
    return BigInt(id).toString();
  };
  if (parts.length === 1) return nativeCollection;
  if (parts.length === 2) return new Ref(hasNumericIds(nativeCollection) ? shortId(parts[1]!) : parts[1]!, nativeCollection);
  if (parts.length === 3 && native === 'collections') return new Ref(shortId(parts[2]!), new Ref(parts[1]!, nativeCollection));
  throw invalid();
}
