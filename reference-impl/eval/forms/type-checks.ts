/**
 * The type predicates of FQL v4 (IsNumber … IsRole), as the real service answers them (profile `v4-functions`,
 * DEC-065; spec/requirements/functions-numbers.md). Each takes any value and answers a boolean; none fails.
 */
import { errors } from '../../errors/query-error.js';
import { failpoint, failpointWhere } from '../../failpoints.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, isObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import { whenReady } from '../when-ready.js';
import { unresolvedRef } from './numbers.js';

/**
 * A document as Get, Create and the other writes answer it: an object whose `ref` is a document's ref and whose
 * `ts` is an integer. The reference server keeps documents as plain objects, so this is decided by shape (DEC-065,
 * functions-numbers.md "Decisions").
 */
export function documentRef(value: Value): Ref | undefined {
  if (!isObjectValue(value)) return undefined;
  const ref = value.ref;
  return ref instanceof Ref && ref.collection !== undefined && typeof value.ts === 'bigint' ? ref : undefined;
}

/** A ref that resolves in the current database (a ref naming a missing collection, index, … does not). */
function resolvedRef(ctx: EvalContext, value: Value): Ref | undefined {
  return value instanceof Ref && unresolvedRef(ctx, value) === undefined ? value : undefined;
}

/** Whether `ref` is a record of the native collection `collection` (`Ref(name, Ref('indexes'))`, …). */
function inNativeCollection(ref: Ref, collection: string): boolean {
  const parent = ref.collection;
  // Native collections (`Collections()`, `Keys()`, …) are records of the collections collection themselves.
  if (parent === undefined) return collection === 'collections';
  return parent.id === collection && parent.collection === undefined;
}

// Implements: FN-TYPE-008
/** IsCollection, IsIndex, …: a resolved ref to such a record, or such a record as a document. */
function schemaPredicate(collection: string): (value: Value, ctx: EvalContext) => boolean {
  return (value, ctx) => {
    const recordsToo = !(['collections', 'indexes'].includes(collection) && failpoint('TYPE-IS-COLLECTION-REFS-ONLY'));
    const ref = resolvedRef(ctx, value) ?? (recordsToo ? documentRef(value) : undefined);
    return ref !== undefined && inNativeCollection(ref, collection);
  };
}

type Predicate = (value: Value, ctx: EvalContext) => boolean;

const isNumber = (v: Value): boolean => typeof v === 'bigint' || typeof v === 'number';

const isDoc: Predicate = (v, ctx) => resolvedRef(ctx, v) !== undefined || documentRef(v) !== undefined;

/** IsInteger of what is not a number fails under failpoint TYPE-IS-INTEGER-FAILS-ON-NON-NUMBERS. */
function isInteger(v: Value): boolean {
  if (!isNumber(v) && failpoint('TYPE-IS-INTEGER-FAILS-ON-NON-NUMBERS')) throw errors.invalidArgument('Number expected.', []);
  return typeof v === 'bigint';
}

const PREDICATES: ReadonlyArray<readonly [string, Predicate]> = [
  // Implements: FN-TYPE-001
  ['is_number', (v) => typeof v === 'bigint' || (typeof v === 'number' && !failpoint('TYPE-IS-NUMBER-INTEGERS-ONLY'))],
  ['is_double', (v) => typeof v === 'number'],
  ['is_integer', isInteger],
  // Implements: FN-TYPE-002
  ['is_boolean', (v) => typeof v === 'boolean'],
  ['is_null', (v) => v === null],
  ['is_string', (v) => typeof v === 'string'],
  ['is_array', (v) => Array.isArray(v)],
  // Implements: FN-TYPE-003
  // Pages and documents are objects too.
  ['is_object', (v, ctx) => isObjectValue(v) && !(failpoint('TYPE-IS-OBJECT-NOT-DOCUMENTS') && isDoc(v, ctx))],
  ['is_bytes', (v) => v instanceof Bytes],
  ['is_timestamp', (v) => v instanceof Time || (v instanceof DateValue && failpoint('TYPE-IS-TIMESTAMP-DATES'))],
  ['is_date', (v) => v instanceof DateValue],
  // Implements: FN-TYPE-004
  // Any ref, even one naming something that does not exist.
  ['is_ref', (v, ctx) => v instanceof Ref && !failpointWhere('TYPE-IS-REF-RESOLVED-ONLY', () => resolvedRef(ctx, v) === undefined)],
  // Implements: FN-TYPE-005
  // A native collection ref stands for the set of its records.
  ['is_set', (v) => v instanceof SetRef || (v instanceof Ref && v.collection === undefined && !failpoint('TYPE-IS-SET-NO-NATIVE'))],
  // Implements: FN-TYPE-006
  ['is_doc', (v, ctx) => (failpoint('TYPE-IS-DOC-REFS-ONLY') ? v instanceof Ref : isDoc(v, ctx))],
  // Implements: FN-TYPE-007
  ['is_lambda', (v) => v instanceof QueryValue && !failpoint('TYPE-IS-LAMBDA-NEVER')],
  ['is_collection', schemaPredicate('collections')],
  ['is_database', schemaPredicate('databases')],
  ['is_index', schemaPredicate('indexes')],
  ['is_function', schemaPredicate('functions')],
  ['is_key', schemaPredicate('keys')],
  ['is_token', schemaPredicate('tokens')],
  ['is_credentials', schemaPredicate('credentials')],
  ['is_role', schemaPredicate('roles')],
];

// Implements: FN-TYPE-009
export const typeCheckForms: readonly FormDefinition[] = PREDICATES.map(([name, holds]) => ({
  required: [name],
  evaluate: (ctx, args) => whenReady(args.valueOrPending(ctx, name), (value) => holds(value, ctx)),
}));
