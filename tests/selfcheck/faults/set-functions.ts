// Faults against the v4 set functions Range, Singleton and Filter of a set (FN-SET; spec/requirements/functions-sets.md):
// each is a server that gets one rule of the family wrong the way a hand-written implementation plausibly would, by
// rewriting the expression it is sent or the answer it gives.
import type { Fault, FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import { requestSecret, withSecret } from './key-ledger.js';
import { expressionUses, nativeCollectionOf, records, rewriteExpression, rewriteJson, topLevelForm, v4Errors } from './rewrites.js';

/** Keys of the expressions that build sets, as the suite writes them. */
const SET_FORMS = ['match', 'documents', 'union', 'intersection', 'difference', 'range', 'filter', 'singleton'];
const isSetExpression = (value: unknown): boolean => isJsonObject(value) && SET_FORMS.some((key) => key in value);
const isRangeCall = (object: JsonObject): boolean => 'range' in object && 'from' in object && 'to' in object;

/**
 * Rewrites, in the request's expression, every object `matches` selects; the objects are collected first, so a
 * rewrite that nests the original is not visited again.
 */
function rewriteObjects(matches: (object: JsonObject) => boolean, rewrite: (object: JsonObject) => boolean): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    const found: JsonObject[] = [];
    forEachObject(expression, (object) => {
      if (matches(object)) found.push(object);
    });
    return found.filter(rewrite).length;
  });
}

/** A bound made of values only (integers, or an array of them): what a value-only comparison mishandles. */
const isValueBound = (bound: unknown): boolean => isJsonInteger(bound) || (Array.isArray(bound) && bound.length > 0 && bound.every(isJsonInteger));

/** A request-form or wire-form ref in a bound, as the suite writes them. */
const isRefExpression = (value: unknown): boolean => isJsonObject(value) && ('ref' in value || '@ref' in value);

/** Answers of a top-level call of `form` that failed with an error whose description passes `matches`. */
function rewriteErrors(form: string, matches: (description: string) => boolean, rewrite: (error: JsonObject) => void): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status >= 400 && topLevelForm(context.original) === form,
    (body) => {
      const errors = v4Errors(body).filter((error) => matches(String(error.description)));
      errors.forEach(rewrite);
      return errors.length;
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
        if (nativeCollectionOf(record) === 'keys' && typeof record.secret === 'string' && isJsonObject(record.role)) creators.set(record.secret, creator);
      }
      return undefined;
    },
  };
}

export const SET_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'SET-RANGE-PREFIX-UPPER-EXCLUSIVE',
    title: 'Range compares its upper bound as a whole tuple',
    breaks: ['FN-SET-001', 'FN-SET-002', 'FN-SET-005'],
    area: 'core',
    description: 'A `to` of values is compared with the entries as a complete tuple, so it sorts before the entries it starts and the upper bound is left out (`Range(s, 3, 6)` pages 3, 4, 5).',
    apply: () => ({
      request: rewriteObjects(
        (object) => isRangeCall(object) && isValueBound(object.to),
        (object) => {
          const set = object.range;
          const excluded = { range: set, from: object.to, to: object.to };
          const kept = { range: set, from: object.from, to: object.to };
          for (const key of Object.keys(object)) delete object[key];
          object.difference = [kept, excluded];
          return true;
        },
      ),
    }),
  },
  {
    id: 'SET-RANGE-EMPTY-TO-NOTHING',
    title: 'An empty `to` bounds everything out',
    breaks: ['FN-SET-003'],
    area: 'core',
    description: 'An empty array as `to` is taken as the empty tuple, which sorts before every entry, so `Range(s, 10, [])` is empty instead of open-ended.',
    apply: () => ({
      request: rewriteObjects(
        (object) => isRangeCall(object) && Array.isArray(object.to) && object.to.length === 0,
        (object) => {
          object.to = jsonInt(-9223372036854775808n);
          return true;
        },
      ),
    }),
  },
  {
    id: 'SET-RANGE-BOUND-REF-IGNORED',
    title: 'Range ignores the ref of a bound',
    breaks: ['FN-SET-004'],
    area: 'core',
    description: 'A bound `[value, ref]` bounds by its values only, so every entry of that value is in the range whatever its ref.',
    apply: () => ({
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
  },
  {
    id: 'SET-RANGE-CURSOR-ESCAPES',
    title: 'Paging a Range from a cursor leaves its bounds',
    breaks: ['FN-SET-005'],
    area: 'core',
    description: 'Paginate of a Range set with an `after` or `before` cursor walks the underlying set from the cursor, as if the range applied to the first page only.',
    apply: () => ({
      request: rewriteObjects(
        (object) => isJsonObject(object.paginate) && isRangeCall(object.paginate) && ('after' in object || 'before' in object),
        (object) => {
          object.paginate = (object.paginate as JsonObject).range;
          return true;
        },
      ),
    }),
  },
  {
    id: 'SET-RANGE-BOUNDS-RENDERED-AS-ARRAYS',
    title: 'A Range set renders its bounds as arrays',
    breaks: ['FN-SET-006'],
    area: 'core',
    description: 'A rendered Range set carries each bound as the tuple it was read into (`"from": [3]`) instead of the one value.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && isJsonObject(body) && topLevelForm(context.original) === 'range',
        (body) => {
          let changed = 0;
          forEachObject(body, (object) => {
            const set = object['@set'];
            if (!isJsonObject(set) || !('range' in set)) return;
            for (const side of ['from', 'to'] as const) {
              if (side in set && !Array.isArray(set[side])) {
                set[side] = [set[side]];
                changed++;
              }
            }
          });
          return changed;
        },
      ),
    }),
  },
  {
    id: 'SET-RANGE-NOT-SET-AT-FORM',
    title: 'Range of a non-set is reported at the form',
    breaks: ['FN-SET-007'],
    area: 'core',
    description: 'Range of a value that is not a set answers "Set expected" at the position of the Range call (`[]`) instead of its `range` argument.',
    apply: () => ({ json: rewriteErrors('range', (d) => d.startsWith('Set expected'), (error) => (error.position = [])) }),
  },
  {
    id: 'SET-DERIVED-SETS-IGNORE-READ-RULES',
    title: 'Range and Filter of a Match ignore document read rules',
    breaks: ['FN-SET-008'],
    area: 'core',
    description: 'A key with a custom role reads Range and Filter sets of a Match with the rights of the key that created it, so it sees the entries of documents its role may not read.',
    apply: derivedSetsReadAsCreator,
  },
  {
    id: 'SET-SINGLETON-IGNORES-EXISTENCE',
    title: 'Singleton holds its ref whether or not the document exists',
    breaks: ['FN-SET-009'],
    area: 'core',
    description: 'Paginate of a Singleton answers a page with the ref without reading the document, so a ref to a missing or deleted document pages as itself.',
    apply: () => ({
      request: rewriteObjects(
        (object) => isJsonObject(object.paginate) && 'singleton' in object.paginate && Object.keys(object).every((k) => k === 'paginate' || k === 'size'),
        (object) => {
          const ref = (object.paginate as JsonObject).singleton;
          for (const key of Object.keys(object)) delete object[key];
          object.let = [{ fs_singleton_ref: ref }];
          object.in = { object: { data: [{ var: 'fs_singleton_ref' }] } };
          return true;
        },
      ),
    }),
  },
  {
    id: 'SET-SINGLETON-NON-REF-MESSAGE',
    title: 'Singleton of a non-ref names a set',
    breaks: ['FN-SET-010'],
    area: 'core',
    description: 'Singleton of a value that is not a ref answers "Set expected, <type> provided." instead of "Ref expected, …".',
    apply: () => ({ json: rewriteErrors('singleton', (d) => d.startsWith('Ref expected'), (error) => (error.description = String(error.description).replace('Ref expected', 'Set expected'))) }),
  },
  {
    id: 'SET-FILTER-SET-FIRST-PAGE',
    title: 'Filter of a set filters its first page',
    breaks: ['FN-SET-012'],
    area: 'core',
    description: 'Filter of a set reads the set’s first page and filters that, answering a page instead of a set that Paginate and the aggregates read.',
    apply: () => ({
      request: rewriteObjects(
        (object) => 'filter' in object && 'collection' in object && isSetExpression(object.collection),
        (object) => {
          object.collection = { paginate: object.collection };
          return true;
        },
      ),
    }),
  },
  {
    id: 'SET-FILTER-ERROR-AT-READ',
    title: 'A Filter set’s non-boolean is reported where the set is read',
    breaks: ['FN-SET-013'],
    area: 'core',
    description: 'A Filter lambda answering a non-boolean is reported at the position of the set being read (`["paginate"]`) instead of its `filter`.',
    apply: () => ({
      json: rewriteJson(
        (_body, context) => context.status === 400 && expressionUses(context.original, 'filter'),
        (body) => {
          const errors = v4Errors(body).filter((e) => String(e.description).startsWith('Boolean expected') && Array.isArray(e.position) && e.position.at(-1) === 'filter' && e.position.length > 1);
          for (const error of errors) error.position = (error.position as unknown[]).slice(0, -1);
          return errors.length;
        },
      ),
    }),
  },
  {
    id: 'SET-FILTER-NON-ITERABLE-MESSAGE',
    title: 'Filter of a non-collection leaves sets out of its message',
    breaks: ['FN-SET-014'],
    area: 'core',
    description: 'Filter of a value that is not an array, page or set answers "Array or Page expected, <type> provided.", the message of Filter before sets.',
    apply: () => ({
      json: rewriteErrors('filter', (d) => d.startsWith('Array, Set, or Page expected'), (error) => (error.description = String(error.description).replace('Array, Set, or Page expected', 'Array or Page expected'))),
    }),
  },
  {
    id: 'SET-MAP-PAGES-SETS',
    title: 'Map and Foreach of a set map its first page',
    breaks: ['FN-SET-015'],
    area: 'core',
    description: 'Map and Foreach of a set page it implicitly and process the first page, instead of refusing the set.',
    apply: () => ({
      request: rewriteObjects(
        (object) => ('map' in object || 'foreach' in object) && 'collection' in object && isSetExpression(object.collection),
        (object) => {
          object.collection = { paginate: object.collection };
          return true;
        },
      ),
    }),
  },
];
