// Faults against the v4 set functions Range, Singleton and Filter of a set, and the set functions of arrays (FN-SET;
// spec/requirements/functions-sets.md), and against the combinations, Join and rendering of the SD's sets (SET;
// sets.md): each is a server that gets one rule wrong the way a hand-written implementation plausibly would, by
// rewriting the expression it is sent or the answer it gives, or by a failpoint of the reference server.
import type { Fault, FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { requestSecret, withSecret } from './lib/key-ledger.js';
import { expressionUses, nativeCollectionOf, records, replaceObject, rewriteExpression, rewriteJson, topLevelForm, v4Expression, v4Errors } from './lib/rewrites.js';

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

/** The one-key call `{name: operands}` of a set combination. */
const isCombination = (name: string) => (object: JsonObject): boolean => Object.keys(object).length === 1 && name in object;

/** A combination whose operands are all written as arrays (the array form of the functions). */
const isArrayCombination = (name: string) => (object: JsonObject): boolean =>
  isCombination(name)(object) && Array.isArray(object[name]) && (object[name] as unknown[]).length > 0 && (object[name] as unknown[]).every(Array.isArray);

/** Wraps every `{name: …}` combination of sets a `paginate` reads in a Distinct: a server that keeps one copy of each element. */
function deduplicatedCombination(name: string): FaultHooks['request'] {
  return rewriteObjects(
    (object) => 'paginate' in object,
    (form) => {
      const found: JsonObject[] = [];
      forEachObject(form.paginate, (object) => {
        if (isCombination(name)(object) && !isArrayCombination(name)(object)) found.push(object);
      });
      for (const object of found) replaceObject(object, { distinct: { ...object } });
      return found.length > 0;
    },
  );
}

/** Wraps every combination of arrays `{name: [[…], …]}` in a Distinct: a server that computes it as a set of values. */
function deduplicatedArrays(name: string): FaultHooks['request'] {
  return rewriteObjects(isArrayCombination(name), (object) => {
    replaceObject(object, { distinct: { ...object } });
    return true;
  });
}

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
  {
    id: 'SET-UNION-DEDUPLICATES',
    title: 'Union keeps one copy of each element',
    breaks: ['SET-UNION-002'],
    area: 'indexes',
    description: 'A Union read by Paginate holds each element once, as the reference server did before it followed the real service (`Union(n1, n2)` pages as 1, 2, 3).',
    apply: () => ({ request: deduplicatedCombination('union') }),
  },
  {
    id: 'SET-UNION-KEEPS-EVERY-COPY',
    title: 'Union adds up the copies of its operands',
    breaks: ['SET-UNION-002'],
    area: 'indexes',
    description: 'A Union holds every copy of an element from every operand, a concatenation in order (1, 2, 2, 3, 3, 3 ∪ 1, 2, 2, 2, 3, 3 pages five 2s and five 3s).',
    apply: () => ({ failpoints: ['SET-UNION-KEEPS-EVERY-COPY'] }),
  },
  {
    id: 'SET-INTERSECTION-DEDUPLICATES',
    title: 'Intersection keeps one copy of each element',
    breaks: ['SET-INTERSECT-003'],
    area: 'indexes',
    description: 'An Intersection read by Paginate holds each element once, as the reference server did before.',
    apply: () => ({ request: deduplicatedCombination('intersection') }),
  },
  {
    id: 'SET-DIFFERENCE-DEDUPLICATES',
    title: 'Difference keeps one copy of each element',
    breaks: ['SET-DIFF-002'],
    area: 'indexes',
    description: 'A Difference read by Paginate holds each element once, as the reference server did before.',
    apply: () => ({ request: deduplicatedCombination('difference') }),
  },
  {
    id: 'SET-DIFFERENCE-SUBTRACTS-COPIES',
    title: 'Difference subtracts copies one for one',
    breaks: ['SET-DIFF-002'],
    area: 'indexes',
    description: 'An element the other operands hold is dropped once per copy they hold, keeping the first operand’s surplus (1, 2, 2, 3, 3, 3 minus 3, 3 pages 1, 2, 2, 3).',
    apply: () => ({ failpoints: ['SET-DIFFERENCE-SUBTRACTS-COPIES'] }),
  },
  {
    id: 'SET-ARRAY-UNION-DEDUPLICATES',
    title: 'Union of arrays keeps one copy of each value',
    breaks: ['FN-SET-016'],
    area: 'core',
    description: 'Union of arrays answers each value once, as a set union would.',
    apply: () => ({ request: deduplicatedArrays('union') }),
  },
  {
    id: 'SET-ARRAY-UNION-CONCATENATES',
    title: 'Union of arrays concatenates them',
    breaks: ['FN-SET-016'],
    area: 'core',
    description: 'Union of arrays answers the arrays one after the other, every copy of every value kept.',
    apply: () => ({
      request: rewriteObjects(isArrayCombination('union'), (object) => {
        const [first, ...rest] = object.union as unknown[][];
        replaceObject(object, { append: rest.flat(), collection: first! });
        return true;
      }),
    }),
  },
  {
    id: 'SET-ARRAY-INTERSECTION-DEDUPLICATES',
    title: 'Intersection of arrays keeps one copy of each value',
    breaks: ['FN-SET-017'],
    area: 'core',
    description: 'Intersection of arrays answers each shared value once, as a set intersection would.',
    apply: () => ({ request: deduplicatedArrays('intersection') }),
  },
  {
    id: 'SET-ARRAY-DIFFERENCE-REMOVES-ALL',
    title: 'Difference of arrays removes every copy',
    breaks: ['FN-SET-018'],
    area: 'core',
    description: 'Difference of arrays removes every copy of a value another array holds, not one copy per copy (`[1, 2, 2, 3, 3] − [3]` is `[1, 2, 2]`).',
    apply: () => ({ failpoints: ['SET-ARRAY-DIFFERENCE-REMOVES-ALL'] }),
  },
  {
    id: 'SET-DISTINCT-SORTS',
    title: 'Distinct of an array sorts it',
    breaks: ['FN-SET-019'],
    area: 'core',
    description: 'Distinct of an array answers its values once each in sorted order, as a set built from them would, instead of at their first places.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && topLevelForm(context.original) === 'distinct' && isJsonObject(body) && Array.isArray(body.resource),
        (body) => {
          const values = (body as JsonObject).resource as unknown[];
          const sorted = [...values].sort((a, b) => (stringifyJson(a) < stringifyJson(b) ? -1 : stringifyJson(a) > stringifyJson(b) ? 1 : 0));
          if (sorted.every((v, i) => v === values[i])) return 0;
          values.splice(0, values.length, ...sorted);
          return 1;
        },
      ),
    }),
  },
  {
    id: 'SET-ARRAY-OPERANDS-REFUSED-AS-NOT-SETS',
    title: 'Combinations refuse what is not a set with the message of sets',
    breaks: ['FN-SET-020'],
    area: 'core',
    description: 'Union, Intersection, Difference and Distinct refuse a mixture of arrays and sets, a page, or another value with "Set expected, <type> provided.", as a server that takes only sets does.',
    apply: () => ({
      json: rewriteJson(
        (_body, context) => context.status === 400 && ['union', 'intersection', 'difference', 'distinct'].some((form) => expressionUses(context.original, form)),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const description = String(error.description);
            const provided = /^(?:Set or Array|Array, Set, or Page) expected, (.+) provided\.$/.exec(description)?.[1];
            if (description === 'Arguments cannot be of different types, expected Set or Array.') error.description = 'Set expected, Array provided.';
            else if (provided !== undefined) error.description = `Set expected, ${provided} provided.`;
            else continue;
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'SET-JOIN-FIRST-SOURCE-VALUE-ONLY',
    title: 'Join maps only the first value of its source',
    breaks: ['SET-JOIN-002'],
    area: 'indexes',
    description: 'Join applies its lambda (or index) to the first element of the source only.',
    apply: () => ({ failpoints: ['SET-JOIN-FIRST-SOURCE-VALUE-ONLY'] }),
  },
  {
    id: 'SET-JOIN-CONCATENATES',
    title: 'Join concatenates the sets of its source values',
    breaks: ['SET-JOIN-002'],
    area: 'indexes',
    description: 'Join answers the target sets of the source values one after the other, without merging them: an element two source values reach appears twice, and the order is the source’s.',
    apply: () => ({ failpoints: ['SET-JOIN-CONCATENATES'] }),
  },
  {
    id: 'SET-JOIN-LAMBDA-UNCHECKED',
    title: 'A Join lambda may read and write',
    breaks: ['SET-JOIN-003'],
    area: 'indexes',
    description: 'The lambda of a Join is not judged before it runs, so a lambda that reads or writes is run when the set is read.',
    apply: () => ({ failpoints: ['SET-JOIN-LAMBDA-UNCHECKED'] }),
  },
  {
    id: 'SET-MATCH-TERMS-AS-GIVEN',
    title: 'A Match keeps its terms as written',
    breaks: ['SET-MATCH-001', 'SET-REF-001'],
    area: 'indexes',
    description: 'A Match renders (and compares) its terms as the request wrote them, so `Match(i, ["x"])` has `"terms": ["x"]` and differs from `Match(i, "x")`.',
    apply: () => ({ failpoints: ['SET-MATCH-TERMS-AS-GIVEN'] }),
  },
  {
    id: 'SET-COMBINATION-OPERAND-BARE',
    title: 'A combination of one set renders it bare',
    breaks: ['SET-REF-004'],
    area: 'indexes',
    description: 'A Union, Intersection or Difference given one set without an array renders that set as its operand, not an array of it.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => {
          const expression = v4Expression(context.original);
          const form = topLevelForm(context.original);
          return context.status === 200 && form !== undefined && ['union', 'intersection', 'difference'].includes(form) && isJsonObject(expression) && !Array.isArray(expression[form]) && isJsonObject((body as JsonObject).resource);
        },
        (body) => {
          const set = ((body as JsonObject).resource as JsonObject)['@set'];
          if (!isJsonObject(set)) return 0;
          const [name] = Object.keys(set);
          const operands = set[name!];
          if (!Array.isArray(operands) || operands.length !== 1) return 0;
          set[name!] = operands[0];
          return 1;
        },
      ),
    }),
  },
  {
    id: 'SET-UNDEFINED-INDEX-TEXT-PERIOD',
    title: 'An undefined index is reported with a full stop',
    breaks: ['SET-MATCH-006'],
    area: 'indexes',
    description: 'The description of an undefined index ends with a full stop ("Ref refers to undefined index \'x\'."), as the reference server wrote it before.',
    apply: () => ({
      json: rewriteJson(
        (_body, context) => context.status === 400,
        (body) => {
          const errors = v4Errors(body).filter((error) => /^Ref refers to undefined index '[^']*'$/.test(String(error.description)));
          for (const error of errors) error.description = `${String(error.description)}.`;
          return errors.length;
        },
      ),
    }),
  },
  {
    id: 'SET-INCOMPATIBLE-COMBINED',
    title: 'Sets of different orders are combined',
    breaks: ['SET-COMPAT-001'],
    area: 'indexes',
    description: 'A Union, Intersection or Difference of sets whose covered values are reversed differently is built (and read in the first operand’s order) instead of refused.',
    apply: () => ({ failpoints: ['SET-INCOMPATIBLE-COMBINED'] }),
  },
];
