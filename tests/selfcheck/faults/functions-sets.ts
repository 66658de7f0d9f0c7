// The faults of spec/requirements/functions-sets.md that are code; their rows (ids, titles, what they break) are in functions-sets.json.
import type { FaultHooks } from '../fault.js';
import { isJsonInteger, isJsonObject, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { requestSecret, withSecret } from './lib/key-ledger.js';
import {
  editErrors,
  editObjects,
  expressionUses,
  nativeCollectionOf,
  onJson,
  records,
  replaceObject,
  topLevelForm,
} from './lib/rewrites.js';
import { isArrayCombination, rewriteObjects } from './lib/sets.js';
import type { FaultCode } from './lib/table.js';

/** Keys of the expressions that build sets, as the suite writes them. */
const SET_FORMS = ['match', 'documents', 'union', 'intersection', 'difference', 'range', 'filter', 'singleton'];

const isSetExpression = (value: unknown): boolean => isJsonObject(value) && SET_FORMS.some((key) => key in value);

const isRangeCall = (object: JsonObject): boolean => 'range' in object && 'from' in object && 'to' in object;

/** A bound made of values only (integers, or an array of them): what a value-only comparison mishandles. */
const isValueBound = (bound: unknown): boolean =>
  isJsonInteger(bound) || (Array.isArray(bound) && bound.length > 0 && bound.every(isJsonInteger));

/** A request-form or wire-form ref in a bound, as the suite writes them. */
const isRefExpression = (value: unknown): boolean => isJsonObject(value) && ('ref' in value || '@ref' in value);

/** Wraps every combination of arrays `{name: [[…], …]}` in a Distinct: a server that computes it as a set of values. */
function deduplicatedArrays(name: string): FaultHooks['request'] {
  return rewriteObjects(isArrayCombination(name), (object) => {
    replaceObject(object, { distinct: { ...object } });
    return true;
  });
}

/** Pages the set a call of one of `forms` takes as its `collection`: a server that reads its first page only. */
function firstPageOfSets(forms: readonly string[]): FaultHooks['request'] {
  return rewriteObjects(
    (object) => forms.some((form) => form in object) && 'collection' in object && isSetExpression(object.collection),
    (object) => {
      object.collection = { paginate: object.collection };
      return true;
    },
  );
}

/**
 * Sends the Range and Filter reads of a key with a custom role with the rights of the key that created it: a server
 * that checks the index's read privilege but not the documents' read rules for the entries of a derived set.
 */
function derivedSetsReadAsCreator(): FaultHooks {
  const creators = new Map<string, string>();
  return {
    request: (req) => {
      const creator = creators.get(requestSecret(req) ?? '');
      if (creator === undefined || !(expressionUses(req, 'range') || expressionUses(req, 'filter'))) return undefined;
      return withSecret(req, creator);
    },
    json: (body, context) => {
      const creator = requestSecret(context.original);
      if (creator === undefined) return undefined;
      for (const record of records(body)) {
        if (nativeCollectionOf(record) === 'keys' && typeof record.secret === 'string' && isJsonObject(record.role))
          creators.set(record.secret, creator);
      }
      return undefined;
    },
  };
}

export const code: FaultCode = {
  'SET-RANGE-PREFIX-UPPER-EXCLUSIVE': () => ({
    request: rewriteObjects(
      (object) => isRangeCall(object) && isValueBound(object.to),
      (object) => {
        const { range, from, to } = object;
        replaceObject(object, {
          difference: [
            { range, from, to },
            { range, from: to, to },
          ],
        });
        return true;
      },
    ),
  }),
  'SET-RANGE-EMPTY-TO-NOTHING': () => ({
    request: rewriteObjects(
      (object) => isRangeCall(object) && Array.isArray(object.to) && object.to.length === 0,
      (object) => {
        object.to = jsonInt(-9223372036854775808n);
        return true;
      },
    ),
  }),
  'SET-RANGE-BOUND-REF-IGNORED': () => ({
    request: rewriteObjects(
      (object) => isRangeCall(object),
      (object) => {
        let changed = false;
        for (const side of ['from', 'to'] as const) {
          const bound = object[side];
          if (!Array.isArray(bound) || bound.length < 2 || !isRefExpression(bound[bound.length - 1])) continue;
          object[side] = bound.slice(0, -1);
          changed = true;
        }
        return changed;
      },
    ),
  }),
  'SET-RANGE-CURSOR-ESCAPES': () => ({
    request: rewriteObjects(
      (object) => isJsonObject(object.paginate) && isRangeCall(object.paginate) && ('after' in object || 'before' in object),
      (object) => {
        object.paginate = (object.paginate as JsonObject).range;
        return true;
      },
    ),
  }),
  'SET-RANGE-BOUNDS-RENDERED-AS-ARRAYS': onJson(
    (body, context) => context.status === 200 && isJsonObject(body) && topLevelForm(context.original) === 'range',
    (body) =>
      editObjects(body, (object) => {
        const set = isJsonObject(object['@set']) && 'range' in object['@set'] ? object['@set'] : {};
        const sides = (['from', 'to'] as const).filter((side) => side in set && !Array.isArray(set[side]));
        for (const side of sides) set[side] = [set[side]];
        return sides.length;
      }),
  ),
  'SET-DERIVED-SETS-IGNORE-READ-RULES': derivedSetsReadAsCreator,
  'SET-SINGLETON-IGNORES-EXISTENCE': () => ({
    request: rewriteObjects(
      (object) =>
        isJsonObject(object.paginate) &&
        'singleton' in object.paginate &&
        Object.keys(object).every((k) => k === 'paginate' || k === 'size'),
      (object) => {
        const ref = (object.paginate as JsonObject).singleton;
        replaceObject(object, { let: [{ fs_singleton_ref: ref }], in: { object: { data: [{ var: 'fs_singleton_ref' }] } } });
        return true;
      },
    ),
  }),
  'SET-FILTER-SET-FIRST-PAGE': () => ({ request: firstPageOfSets(['filter']) }),
  'SET-MAP-PAGES-SETS': () => ({ request: firstPageOfSets(['map', 'foreach']) }),
  'SET-ARRAY-UNION-DEDUPLICATES': () => ({ request: deduplicatedArrays('union') }),
  'SET-ARRAY-UNION-CONCATENATES': () => ({
    request: rewriteObjects(isArrayCombination('union'), (object) => {
      const [first, ...rest] = object.union as unknown[][];
      replaceObject(object, { append: rest.flat(), collection: first! });
      return true;
    }),
  }),
  'SET-ARRAY-INTERSECTION-DEDUPLICATES': () => ({ request: deduplicatedArrays('intersection') }),
  'SET-DISTINCT-SORTS': onJson(
    (body, context) =>
      context.status === 200 && topLevelForm(context.original) === 'distinct' && isJsonObject(body) && Array.isArray(body.resource),
    (body) => {
      const values = (body as JsonObject).resource as unknown[];
      const sorted = [...values].sort((a, b) => (stringifyJson(a) < stringifyJson(b) ? -1 : stringifyJson(a) > stringifyJson(b) ? 1 : 0));
      if (sorted.every((v, i) => v === values[i])) return 0;
      values.splice(0, values.length, ...sorted);
      return 1;
    },
  ),
  'SET-ARRAY-OPERANDS-REFUSED-AS-NOT-SETS': onJson(
    (_body, context) =>
      context.status === 400 && ['union', 'intersection', 'difference', 'distinct'].some((form) => expressionUses(context.original, form)),
    (body) =>
      editErrors(body, (error) => {
        const description = String(error.description);
        const provided = /^(?:Set or Array|Array, Set, or Page) expected, (.+) provided\.$/.exec(description)?.[1];
        if (description === 'Arguments cannot be of different types, expected Set or Array.')
          error.description = 'Set expected, Array provided.';
        else if (provided !== undefined) error.description = `Set expected, ${provided} provided.`;
        else return false;
        return true;
      }),
  ),
};
