/**
 * Resolves the names an event-source query uses against a database as of a time: user collections from the
 * `collections` records, indexes from the `indexes` records (their `source`, `terms` and `values`).
 */
import { MODULE_OF_NATIVE_COLLECTION } from '../codec/tagged.js';
import type { DatabaseId, Store } from '../store/store.js';
import { isObjectValue, Ref, type Value } from '../values/value.js';

/** What the resolver knows about a collection name. */
export interface CollectionInfo {
  readonly exists: boolean;
  readonly system: boolean;
}

/** A v4 index reading one collection, its terms and values as written (v4 paths such as `["data", "email"]`). */
export interface IndexInfo {
  readonly sourceCollection: string;
  readonly terms: readonly (readonly string[])[];
  readonly values: readonly (readonly string[])[];
}

export interface EventSourceResolver {
  collection(name: string): CollectionInfo;
  index(name: string): IndexInfo | undefined;
}

export function storeResolver(store: Store, database: DatabaseId, atTs: bigint): EventSourceResolver {
  return {
    collection(name: string): CollectionInfo {
      return { exists: store.getDocument(database, 'collections', name, atTs) !== undefined, system: false };
    },
    index(name: string): IndexInfo | undefined {
      const record = store.getDocument(database, 'indexes', name, atTs);
      if (!record) return undefined;
      const sourceCollection = indexSourceCollection(record.fields.source);
      if (sourceCollection === undefined) return undefined;
      const terms = fieldPaths(record.fields.terms);
      const values = fieldPaths(record.fields.values);
      if (terms === undefined || values === undefined) return undefined;
      return { sourceCollection, terms, values };
    },
  };
}

/** The one collection an index reads: a collection ref, or `{collection: ref}` without bindings. */
function indexSourceCollection(source: Value | undefined): string | undefined {
  if (Array.isArray(source)) return source.length === 1 ? indexSourceCollection(source[0]) : undefined;
  if (isObjectValue(source)) {
    if (source.fields !== undefined && source.fields !== null) return undefined;
    return indexSourceCollection(source.collection);
  }
  if (source instanceof Ref && source.collection?.id === 'collections' && source.collection.collection === undefined) return source.id;
  // A native collection (keys, tokens, …): its module name, which the planner rejects as a system collection.
  if (source instanceof Ref && source.collection === undefined) {
    return MODULE_OF_NATIVE_COLLECTION[source.id as keyof typeof MODULE_OF_NATIVE_COLLECTION] ?? source.id;
  }
  return undefined;
}

/** `[{field: ["data", "a"]}, {field: "ref"}]` → `[["data", "a"], ["ref"]]`; undefined when a column is a binding. */
function fieldPaths(columns: Value | undefined): string[][] | undefined {
  if (columns === undefined || columns === null) return [];
  const list = Array.isArray(columns) ? columns : [columns];
  const out: string[][] = [];
  for (const column of list) {
    if (!isObjectValue(column)) return undefined;
    const field = column.field;
    if (typeof field === 'string') out.push([field]);
    else if (Array.isArray(field) && field.every((s): s is string => typeof s === 'string')) out.push(field);
    else return undefined;
  }
  return out;
}
