// Faults against the aggregate, array and object functions (FN-AGG, FN-ARR, FN-OBJ;
// spec/requirements/functions-collections.md): each is a server that gets one rule of the family wrong the way a
// hand-written implementation plausibly would, by rewriting the expression it is sent or the answer to a call made at
// the top level of a query.
import { isLosslessNumber } from 'lossless-json';
import type { Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import { bodyJson, expressionUses, rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

const FOLDS = ['count', 'sum', 'mean', 'any', 'all'];
const SET_READERS = [...FOLDS, 'is_empty', 'is_nonempty'];
/** Keys of the expressions that build sets, as the suite writes them. */
const SET_FORMS = ['match', 'documents', 'union', 'intersection', 'difference', 'collections'];

/** The top-level call and its function name when the query is a call of one of `forms`. */
function topLevelCall(request: JsonResponseContext['original'], forms: readonly string[]): { form: string; call: JsonObject } | undefined {
  const expression = v4Expression(request);
  if (!isJsonObject(expression)) return undefined;
  const form = forms.find((f) => f in expression);
  return form === undefined ? undefined : { form, call: expression };
}

/** A JSON hook that rewrites the `resource` of a successful top-level call of one of `forms`; `rewrite` returns whether it changed it. */
function rewriteResult(forms: readonly string[], rewrite: (body: JsonObject, call: JsonObject, form: string) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => context.status === 200 && isJsonObject(body) && 'resource' in body && topLevelCall(context.original, forms) !== undefined,
    (body, context) => {
      const { form, call } = topLevelCall(context.original, forms)!;
      return rewrite(body as JsonObject, call, form);
    },
  );
}

const isSetExpression = (value: unknown): boolean => isJsonObject(value) && SET_FORMS.some((key) => key in value);

/**
 * A JSON hook for a server that reports an error about the i-th element of an argument at the argument itself: every
 * error of a top-level call of one of `forms` whose position is `[form, i]` loses the index.
 */
function errorAtWholeArgument(forms: readonly string[]): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => context.status === 400 && topLevelCall(context.original, forms) !== undefined,
    (body) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        const position = error.position;
        if (!Array.isArray(position) || position.length !== 2 || !forms.includes(String(position[0])) || !isJsonInteger(position[1])) continue;
        error.position = position.slice(0, 1);
        changed++;
      }
      return changed;
    },
  );
}

/** A response hook for a server that answers `result` to a top-level call of `form` it should refuse with `description`. */
function refusalAnswered(form: string, description: string, result: unknown): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) => res.status === 400 && topLevelCall(ctx.original, [form]) !== undefined && v4Errors(bodyJson(res)).some((e) => e.description === description),
    (res) => withStatus(withJsonBody(res, { resource: result }), 200),
  );
}

export const COLLECTION_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'ARR-REVERSE-SET-IGNORED',
    title: 'Paginate(Reverse(set)) pages the set in its own order',
    breaks: ['FN-ARR-008'],
    area: 'core',
    description: 'A `reverse` wrapped directly around the set of a Paginate is dropped, as by a server that reverses arrays and pages only.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const set = object.paginate;
          if (!isJsonObject(set) || !('reverse' in set) || Object.keys(set).length !== 1) return;
          object.paginate = set.reverse!;
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'AGG-SUM-INTEGERS-AS-DOUBLE',
    title: 'Sum of integers answers a decimal',
    breaks: ['FN-AGG-002'],
    area: 'core',
    description: 'Sum adds in floating point and always answers a decimal, so the sum of integers is `6.0` instead of `6`.',
    apply: () => ({
      json: rewriteResult(['sum'], (body) => {
        if (!isJsonInteger(body.resource)) return false;
        body.resource = jsonDecimal(Number(String(body.resource)));
        return true;
      }),
    }),
  },
  {
    id: 'AGG-MEAN-EMPTY-ZERO',
    title: 'Mean of nothing answers 0.0',
    breaks: ['FN-AGG-003'],
    area: 'core',
    description: 'Mean of an empty array, page or set answers 0.0 instead of refusing it with "Non-empty array expected.".',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) =>
          res.status === 400 &&
          topLevelCall(ctx.original, ['mean']) !== undefined &&
          v4Errors(bodyJson(res)).some((e) => e.description === 'Non-empty array expected.'),
        (res) => withStatus(withJsonBody(res, { resource: jsonDecimal(0) }), 200),
      ),
    }),
  },
  {
    id: 'AGG-PAGE-FOLD-BARE',
    title: 'A fold of a page answers the bare result',
    breaks: ['FN-AGG-006'],
    area: 'core',
    description: 'Count, Sum, Mean, Any and All of a page answer the result itself rather than a page holding it with the cursors.',
    apply: () => ({
      json: rewriteResult(FOLDS, (body) => {
        const page = body.resource;
        if (!isJsonObject(page) || !Array.isArray(page.data) || page.data.length !== 1) return false;
        body.resource = page.data[0];
        return true;
      }),
    }),
  },
  {
    id: 'AGG-ELEMENT-ERROR-AT-ELEMENT',
    title: 'A wrong element is reported at its index',
    breaks: ['FN-AGG-005'],
    area: 'core',
    description: 'Sum, Mean, Any and All report an element of the wrong type at the element’s position (`["sum", 1]`) instead of the argument’s.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, FOLDS) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const description = String(error.description);
            if (!Array.isArray(error.position) || !/^(Number|Boolean) expected/.test(description)) continue;
            error.position = [...error.position, jsonInt(1)];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'AGG-SETS-REFUSED',
    title: 'Aggregates refuse sets',
    breaks: ['FN-AGG-001', 'FN-AGG-007', 'FN-AGG-008'],
    area: 'core',
    description: 'Count, Sum, Mean, Any, All, IsEmpty and IsNonEmpty accept only arrays and pages, as if sets had to be paginated first.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const called = topLevelCall(ctx.original, SET_READERS);
          return res.status === 200 && called !== undefined && isSetExpression(called.call[called.form]);
        },
        (res, ctx) => {
          const { form } = topLevelCall(ctx.original, SET_READERS)!;
          const error = { position: [form], code: 'invalid argument', description: 'Array or Page expected, Set provided.' };
          return withStatus(withJsonBody(res, { errors: [error] }), 400);
        },
      ),
    }),
  },
  {
    id: 'AGG-SET-PERMISSIONS-IGNORED',
    title: 'Aggregates of a set ignore read permissions',
    breaks: ['FN-AGG-010'],
    area: 'core',
    description: 'Count and the other aggregates of a Match the caller may not read answer as if the set were empty instead of 403.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 403 && topLevelCall(ctx.original, SET_READERS) !== undefined,
        (res, ctx) => {
          const { form } = topLevelCall(ctx.original, SET_READERS)!;
          const empty: Record<string, unknown> = {
            count: jsonInt(0),
            sum: jsonInt(0),
            mean: jsonDecimal(0),
            any: false,
            all: true,
            is_empty: true,
            is_nonempty: false,
          };
          return withStatus(withJsonBody(res, { resource: empty[form] }), 200);
        },
      ),
    }),
  },
  {
    id: 'ARR-SLICED-PAGE-CURSORS-KEPT',
    title: 'Take and Drop of a page keep the page’s cursors',
    breaks: ['FN-ARR-002', 'FN-ARR-003'],
    area: 'core',
    description: 'Take and Drop slice a page’s data but answer the original `before` and `after`, so paging on skips or repeats entries.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          for (const form of ['take', 'drop'] as const) {
            const source = object['collection'];
            if (!(form in object) || !isJsonObject(source) || !('paginate' in source)) continue;
            // Slice the data with Map over the page's own cursors: {data: Take(n, Select(data, page)), before, after}.
            const page = { var: '__page' };
            const cursor = (side: string) => ({ select: [side], from: page, default: null });
            object['let'] = [{ __page: source }];
            object['in'] = {
              object: { data: { [form]: object[form], collection: { select: ['data'], from: page } }, before: cursor('before'), after: cursor('after') },
            };
            delete object[form];
            delete object['collection'];
            changed++;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'ARR-APPEND-PREPENDS',
    title: 'Append puts the elements first',
    breaks: ['FN-ARR-005'],
    area: 'core',
    description: 'Append behaves as Prepend: the new elements come before the array’s.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('append' in object) || !('collection' in object)) return;
          object['prepend'] = object['append'];
          delete object['append'];
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'OBJ-MERGE-NULL-KEPT',
    title: 'Merge keeps fields set to null',
    breaks: ['FN-OBJ-001'],
    area: 'core',
    description: 'Merge copies a null field of `with` into the result instead of removing the field.',
    apply: () => ({
      json: rewriteResult(['merge'], (body, call) => {
        const merged = body.resource;
        if (!isJsonObject(merged) || 'lambda' in call) return false;
        const withArg = call['with'];
        const fields = isJsonObject(withArg) && isJsonObject(withArg['object']) ? withArg['object'] : undefined;
        const nulls = fields === undefined ? [] : Object.keys(fields).filter((key) => fields[key] === null);
        for (const key of nulls) merged[key] = null;
        return nulls.length > 0;
      }),
    }),
  },
  {
    id: 'OBJ-CONTAINS-VALUE-LOOSE-NUMBERS',
    title: 'ContainsValue takes 1.0 for 1',
    breaks: ['FN-OBJ-008'],
    area: 'core',
    description: 'ContainsValue compares numbers by value, so a decimal such as 1.0 is found among integers.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const value = object['contains_value'];
          if (!isLosslessNumber(value) || !/^-?\d+\.0+$/.test(value.toString())) return;
          object['contains_value'] = jsonInt(BigInt(value.toString().split('.')[0]!));
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'OBJ-CONTAINS-VALUE-PAGE-ELEMENTS',
    title: 'ContainsValue of a page looks at its elements',
    breaks: ['FN-OBJ-008'],
    area: 'core',
    description: 'ContainsValue(v, Paginate(…)) answers whether v is one of the page\'s elements, as for an array, where the real service compares v with the page\'s fields: its whole data array and its cursors.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('contains_value' in object) || !isJsonObject(object.in) || !('paginate' in object.in)) return;
          object.in = { select: ['data'], from: object.in };
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'OBJ-CONTAINS-VALUE-DENIED-AT-ARGUMENT',
    title: 'ContainsValue of an unreadable set is refused at its argument',
    breaks: ['FN-OBJ-008'],
    area: 'core',
    description: 'ContainsValue(v, Match(index)) for a caller that may not read the index answers 403 at ["in"], where the real service answers at the call.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 403 && isJsonObject(v4Expression(context.original)) && 'contains_value' in (v4Expression(context.original) as JsonObject),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (error.code !== 'permission denied' || !Array.isArray(error.position)) continue;
            error.position = [...error.position, 'in'];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'OBJ-TO-OBJECT-ERROR-AT-ARGUMENT',
    title: 'ToObject reports a bad pair at the argument',
    breaks: ['FN-OBJ-010'],
    area: 'core',
    description: 'ToObject reports an element that is not a [name, value] pair at `["to_object"]` instead of at the element’s index.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, ['to_object']) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.length < 2) continue;
            error.position = error.position.slice(0, 1);
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'OBJ-MERGE-LAMBDA-ANY-EXPRESSION',
    title: 'Merge accepts any expression as its lambda',
    breaks: ['FN-OBJ-004'],
    area: 'core',
    description: 'Merge evaluates its `lambda` argument and refuses a non-lambda only as an invalid argument, not as an invalid expression.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && expressionUses(context.original, 'merge'),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (error.code !== 'invalid expression') continue;
            error.code = 'invalid argument';
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'AGG-EMPTY-ANY-ALL-SWAPPED',
    title: 'Any and All of nothing answer the opposite truth',
    breaks: ['FN-AGG-004'],
    area: 'core',
    description: 'Any of no elements answers true and All of no elements false, as a fold seeded with the wrong value would.',
    apply: () => ({
      json: rewriteResult(['any', 'all'], (body, call, form) => {
        if (!Array.isArray(call[form]) || (call[form] as unknown[]).length !== 0 || typeof body.resource !== 'boolean') return false;
        body.resource = !body.resource;
        return true;
      }),
    }),
  },
  {
    id: 'AGG-WRONG-TYPE-SETS-UNNAMED',
    title: 'Aggregates of a wrong value do not say sets are accepted',
    breaks: ['FN-AGG-009'],
    area: 'core',
    description: 'Count, Sum, Mean, Any, All, IsEmpty, IsNonEmpty and Reverse of a scalar answer "Array or Page expected, <type> provided.", the message of Take and Drop.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, [...SET_READERS, 'reverse']) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const description = String(error.description);
            if (!description.startsWith('Array, Set, or Page expected')) continue;
            error.description = description.replace('Array, Set, or Page expected', 'Array or Page expected');
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'ARR-NEGATIVE-COUNT-FROM-END',
    title: 'Take and Drop count a negative number from the end',
    breaks: ['FN-ARR-001'],
    area: 'core',
    description: 'Take(-1, [1, 2, 3]) answers [1, 2] and Drop(-1, [1, 2, 3]) answers [3], as JavaScript\'s `slice` does, instead of none and all of them.',
    apply: () => ({
      json: rewriteResult(['take', 'drop'], (body, call, form) => {
        const count = call[form];
        const array = call['collection'];
        if (!isJsonInteger(count) || Number(String(count)) >= 0 || !Array.isArray(array) || !Array.isArray(body.resource)) return false;
        const n = Number(String(count));
        body.resource = form === 'take' ? array.slice(0, n) : array.slice(n);
        return true;
      }),
    }),
  },
  {
    id: 'ARR-COLLECTION-ERROR-AT-COUNT',
    title: 'Take and Drop report a wrong collection at the count',
    breaks: ['FN-ARR-004'],
    area: 'core',
    description: 'A `collection` of Take or Drop that is neither an array nor a page is reported at `["take"]` / `["drop"]` instead of `["collection"]`.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, ['take', 'drop']) !== undefined,
        (body, context) => {
          const { form } = topLevelCall(context.original, ['take', 'drop'])!;
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.length !== 1 || error.position[0] !== 'collection') continue;
            error.position = [form];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'ARR-APPEND-PAGE-ACCEPTED',
    title: 'Append and Prepend say pages are accepted',
    breaks: ['FN-ARR-006'],
    area: 'core',
    description: 'Append and Prepend refuse a collection that is not an array with "Array or Page expected, <type> provided.", the message of Take and Drop.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, ['append', 'prepend']) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const description = String(error.description);
            if (!description.startsWith('Array expected,')) continue;
            error.description = description.replace('Array expected,', 'Array or Page expected,');
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'ARR-REVERSE-PAGE-CURSORS-SWAPPED',
    title: 'Reverse of a page swaps its cursors',
    breaks: ['FN-ARR-007'],
    area: 'core',
    description: 'Reverse of a page reverses `data` and also swaps `before` and `after`, as if the page had been read the other way.',
    apply: () => ({
      json: rewriteResult(['reverse'], (body) => {
        const page = body.resource;
        if (!isJsonObject(page) || !Array.isArray(page.data) || !('before' in page) || !('after' in page)) return false;
        [page.before, page.after] = [page.after, page.before];
        return true;
      }),
    }),
  },
  {
    id: 'OBJ-MERGE-LAMBDA-IGNORED',
    title: 'Merge ignores its lambda',
    breaks: ['FN-OBJ-002'],
    area: 'core',
    description: 'Merge with a lambda merges as without one: the right value always wins and the lambda is never called.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('merge' in object) || !('with' in object) || !isJsonObject(object['lambda']) || !('lambda' in object['lambda'])) return;
          delete object['lambda'];
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'OBJ-MERGE-WITH-ELEMENT-AT-ARGUMENT',
    title: 'Merge reports a wrong element of `with` at `with`',
    breaks: ['FN-OBJ-003'],
    area: 'core',
    description: 'An element of a `with` array that is not an object is reported at `["with"]` instead of `["with", i]`.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelCall(context.original, ['merge']) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.length !== 2 || error.position[0] !== 'with') continue;
            error.position = ['with'];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'OBJ-CONTAINS-OLD-NAME-UNKNOWN',
    title: 'Contains, the older name of ContainsPath, is unknown',
    breaks: ['FN-OBJ-005'],
    area: 'core',
    description: 'A server that implements ContainsPath only: `{"contains": path, "in": value}` answers 400 invalid expression.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 200 && topLevelCall(ctx.original, ['contains']) !== undefined,
        (res) => {
          const error = { position: [], code: 'invalid expression', description: 'No form/function found, or invalid argument keys: { contains, in }.' };
          return withStatus(withJsonBody(res, { errors: [error] }), 400);
        },
      ),
    }),
  },
  {
    id: 'OBJ-CONTAINS-PATH-ELEMENT-AT-ARGUMENT',
    title: 'ContainsPath reports a wrong path element at the path',
    breaks: ['FN-OBJ-006'],
    area: 'core',
    description: 'A path element of ContainsPath that is neither a string nor an integer is reported at `["contains_path"]` instead of at its index.',
    apply: () => ({ json: errorAtWholeArgument(['contains_path', 'contains']) }),
  },
  {
    id: 'OBJ-CONTAINS-FIELD-ARRAY-FALSE',
    title: 'ContainsField in an array answers false',
    breaks: ['FN-OBJ-007'],
    area: 'core',
    description: 'ContainsField treats an array as it treats scalars and answers false instead of refusing it with "Object expected, Array provided.".',
    apply: () => ({ response: refusalAnswered('contains_field', 'Object expected, Array provided.', false) }),
  },
  {
    id: 'OBJ-CONTAINS-VALUE-SCALAR-FALSE',
    title: 'ContainsValue in a scalar answers false',
    breaks: ['FN-OBJ-009'],
    area: 'core',
    description: 'ContainsValue in a string, number, boolean, null or time answers false instead of refusing it.',
    apply: () => ({ response: refusalAnswered('contains_value', 'Object, Array, Page, Set, or Ref expected, Scalar provided.', false) }),
  },
  {
    id: 'OBJ-TO-ARRAY-PAIRS-REVERSED',
    title: 'ToArray answers [value, name] pairs',
    breaks: ['FN-OBJ-011'],
    area: 'core',
    description: 'ToArray of an object answers each field as `[value, name]` instead of `[name, value]`.',
    apply: () => ({
      json: rewriteResult(['to_array'], (body, call) => {
        if (!isJsonObject(call['to_array']) || !Array.isArray(body.resource)) return false;
        let changed = 0;
        for (const pair of body.resource) {
          if (!Array.isArray(pair) || pair.length !== 2) continue;
          pair.reverse();
          changed++;
        }
        return changed > 0;
      }),
    }),
  },
  {
    id: 'OBJ-SELECT-ALL-PATH-ELEMENT-AT-ARGUMENT',
    title: 'SelectAll reports a wrong path element at the path',
    breaks: ['FN-OBJ-013'],
    area: 'core',
    description: 'A path element of SelectAll that is neither a string nor an integer is reported at `["select_all"]` instead of at its index.',
    apply: () => ({ json: errorAtWholeArgument(['select_all']) }),
  },
];
