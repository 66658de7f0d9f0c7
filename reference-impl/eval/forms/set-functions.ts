/**
 * FQL v4 set functions beyond the SD's list (DEC-065, spec/requirements/functions-sets.md): `Range` and
 * `Singleton`. Like the SD's set forms they only build `@set` values; `SetReader` (set-reading.ts) reads them.
 * `Filter` of a set lives with Filter of arrays and pages (collections-functions.ts).
 */
import { Ref, SetRef, type Value } from '../../values/value.js';
import { locateDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { isSetValue, wrongType } from './iterables.js';

// Implements: FN-SET-006
/**
 * A `Range` bound as the set renders it: a tuple of one as its value (unless that value is an array, which would
 * read back as a tuple), anything else as given. An empty tuple stays `[]`, so the set ref keeps both bounds.
 */
function renderedBound(bound: Value): Value {
  return Array.isArray(bound) && bound.length === 1 && !Array.isArray(bound[0]) ? bound[0]! : bound;
}

// Implements: FN-SET-001, FN-SET-006, FN-SET-007
/** `{"range": <set>, "from": <bound>, "to": <bound>}`: the set's entries between the bounds, both inclusive. */
const range: FormDefinition = {
  required: ['range', 'from', 'to'],
  async evaluate(ctx, args) {
    const set = await args.value(ctx, 'range');
    if (!isSetValue(set)) throw wrongType('Set', set, args.position('range'));
    const from = renderedBound(await args.value(ctx, 'from'));
    const to = renderedBound(await args.value(ctx, 'to'));
    return new SetRef({ range: set, from, to });
  },
};

// Implements: FN-SET-009, FN-SET-010
/** `{"singleton": <ref>}`: the set of that one ref (empty while its document does not exist). */
const singleton: FormDefinition = {
  required: ['singleton'],
  async evaluate(ctx, args) {
    const ref = await args.value(ctx, 'singleton');
    if (!(ref instanceof Ref)) throw wrongType('Ref', ref, args.position('singleton'));
    // A ref into a collection (or to a schema record) that does not exist is `invalid ref`, as the service resolves it.
    if (ref.collection !== undefined) locateDocument(ctx, ref, args.position('singleton'));
    return new SetRef({ singleton: ref });
  },
};

export const setFunctionForms: readonly FormDefinition[] = [range, singleton];
