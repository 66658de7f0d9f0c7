/**
 * What the aggregate, array and object functions (DEC-065, spec/requirements/functions-collections.md) share: telling
 * arrays, pages and sets apart, reading a set's elements as Paginate reads them, and the type names the real service
 * puts in its messages.
 */
import { errors, type Position } from '../../errors/query-error.js';
import { Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import { isNativeCollection } from '../documents.js';
import { argumentTypeName } from '../arguments.js';
import { firstEntryRef } from './paging.js';

/**
 * A page as the wire carries it: an object whose only fields are `data` (an array) and the cursors `before` and
 * `after`. The wire has no other mark of a page, so such an object is one (functions-collections.md, Decisions).
 */
export function isPageValue(value: Value): value is ObjectValue & { data: Value[] } {
  if (!isObjectValue(value) || !Array.isArray(value.data)) return false;
  for (const key of Object.keys(value)) if (key !== 'data' && key !== 'before' && key !== 'after') return false;
  return true;
}

/** A set: a `@set` value, or a native collection ref such as `Ref("keys")`, which the service reads as its listing. */
export function isSetValue(value: Value): value is SetRef | Ref {
  return value instanceof SetRef || (value instanceof Ref && isNativeCollection(value));
}

/** The type name the service reports for `value`: refs by kind (`Collection Ref`, `Index Ref`, …) and pages as `Page`. */
export function serviceTypeName(value: Value): string {
  return isPageValue(value) ? 'Page' : argumentTypeName(value);
}

export function wrongType(expected: string, value: Value, position: Position) {
  return errors.invalidArgument(`${expected} expected, ${serviceTypeName(value)} provided.`, position);
}

export type IterableArgument =
  | { kind: 'array'; items: Value[] }
  | { kind: 'page'; page: ObjectValue & { data: Value[] }; items: Value[] }
  | { kind: 'set'; set: SetRef | Ref };

// Implements: FN-AGG-009
/** An argument that may be an array, a page or a set; anything else is `invalid argument` at `position`. */
export function iterableArgument(value: Value, position: Position): IterableArgument {
  if (Array.isArray(value)) return { kind: 'array', items: value };
  if (isPageValue(value)) return { kind: 'page', page: value, items: value.data };
  if (isSetValue(value)) return { kind: 'set', set: value };
  throw wrongType('Array, Set, or Page', value, position);
}

/** The set inside any `Reverse` wrappers, and whether an odd number of them reverses its order. */
function unwrapReverse(set: SetRef | Ref): { inner: Value; reversed: boolean } {
  let inner: Value = set;
  let reversed = false;
  while (inner instanceof SetRef && Object.keys(inner.structure).length === 1 && 'reverse' in inner.structure) {
    inner = inner.structure.reverse!;
    reversed = !reversed;
  }
  return { inner, reversed };
}

// Implements: FN-AGG-007, FN-AGG-010, FN-AGG-012
/** Every element of a set in the set's order, read (and access-checked, DEC-054) as Paginate reads it. */
export async function setElements(ctx: EvalContext, set: SetRef | Ref, position: Position): Promise<Value[]> {
  const { inner, reversed } = unwrapReverse(set);
  const ordered = await ctx.services.sets.read(ctx, inner, position);
  const out: Value[] = [];
  const it = ordered.ascending();
  for (let r = it.next(); !r.done; r = it.next()) out.push(ordered.element(r.value));
  return reversed ? out.reverse() : out;
}

/** Whether a set holds at least one element the caller may read; reads no further than the first. */
export async function setHasElements(ctx: EvalContext, set: SetRef | Ref, position: Position): Promise<boolean> {
  return (await firstEntryRef(ctx, unwrapReverse(set).inner, position, undefined)) !== undefined;
}

/** A page with other data and cursors, fields in the order Paginate writes them. */
export function pageWith(data: Value[], before: Value | undefined, after: Value | undefined): ObjectValue {
  const out: ObjectValue = {};
  if (before !== undefined) out.before = before;
  if (after !== undefined) out.after = after;
  out.data = data;
  return out;
}
