/**
 * Refs in the object a write gives (DEC-048): every Create, Update and Replace, of documents and of schema records,
 * refuses an object holding a ref that does not resolve in the database the query runs in, as the real service's
 * `RefValidator` does (fauna/faunadb `ast/functions/WriteFunctions.scala`).
 */
import type { ValidationFailure } from '../errors/query-error.js';
import { failpointWhere } from '../failpoints.js';
import { userCollectionKey, type DatabaseId } from '../store/store.js';
import type { Transaction } from '../txn/transaction.js';
import { MAX_VERSION_BYTES, versionTooLarge } from '../txn/write-size.js';
import { hasDatabaseScope, isCollectionRef, isObjectValue, Ref, type Value } from '../values/value.js';
import type { EvalContext } from './context.js';
import { isNativeCollection } from './documents.js';

/** Native collections whose records are named, so a ref to one of them names a record that must exist. */
const NAMED_RECORDS: ReadonlySet<string> = new Set(['collections', 'indexes', 'databases', 'roles', 'functions', 'access_providers']);

// Implements: DOC-REF-001, DOC-REF-002, DOC-REF-003, DOC-REF-004, ABAC-ROLE-008
/**
 * One `invalid reference` failure per ref in `value` that does not resolve, its `field` the path from the object's
 * root. A document ref resolves when its collection exists, whether or not the document does; a ref to a named
 * schema record (a collection, index, database, role or function) when the record exists; a native collection always.
 * A ref with a database scope never does: written data holds refs of its own database only.
 */
export function unresolvedRefFailures(ctx: EvalContext, value: Value): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  // Each value visited after the first is at least two bytes of the version written (`1,` in an array is the
  // densest), so past half the version limit the write is refused, before a value that shares its parts (small in
  // memory, exponential when walked) is walked whole.
  let visited = 0;
  // The path of the value being visited; copied only for a failure.
  const path: Array<string | number> = [];
  const visit = (v: Value): void => {
    if (++visited > MAX_VERSION_BYTES / 2 + 1) throw versionTooLarge(visited * 2);
    if (v instanceof Ref) {
      const why = unresolved(ctx.txn, ctx.database, v);
      if (why !== undefined) failures.push({ field: [...path], code: 'invalid reference', description: why });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        visit(v[i]!);
        path.pop();
      }
    } else if (isObjectValue(v)) {
      for (const key of Object.keys(v)) {
        path.push(key);
        visit(v[key]!);
        path.pop();
      }
    }
  };
  visit(value);
  return failures;
}

function unresolved(txn: Transaction, database: DatabaseId, ref: Ref): string | undefined {
  const exists = (collection: string, id: string) => txn.get(database, collection, id) !== undefined;
  if (hasDatabaseScope(ref)) return 'Reference cannot be scoped.';
  const parent = ref.collection;
  if (parent === undefined) return isNativeCollection(ref) ? undefined : 'Cannot read reference.';
  if (isNativeCollection(parent)) return NAMED_RECORDS.has(parent.id) && !exists(parent.id, ref.id) ? 'Cannot read reference.' : undefined;
  if (!isCollectionRef(parent) || parent.collection === undefined || !exists('collections', parent.id)) return 'Cannot read reference.';
  return failpointWhere('WRITTEN-REF-MISSING-DOCUMENT-REFUSED', () => !exists(userCollectionKey(parent.id), ref.id))
    ? 'Reference was not found.'
    : undefined;
}
