// The faults of spec/requirements/functions-collections.md that are code; their rows (ids, titles, what they break) are in functions-collections.json.
import type { FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import {
  bodyJson,
  editErrors,
  onJson,
  onObjects,
  onResponse,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import { topLevelCall } from './lib/calls.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

const FOLDS = ['count', 'sum', 'mean', 'any', 'all'];

const SET_READERS = [...FOLDS, 'is_empty', 'is_nonempty'];

/** Keys of the expressions that build sets, as the suite writes them. */
const SET_FORMS = ['match', 'documents', 'union', 'intersection', 'difference', 'collections'];

/** A JSON hook that rewrites the `resource` of a successful top-level call of one of `forms`; `rewrite` returns whether it changed it. */
function rewriteResult(
  forms: readonly string[],
  rewrite: (body: JsonObject, call: JsonObject, form: string) => boolean,
): FaultHooks['json'] {
  return rewriteJson(
    (body, context) =>
      context.status === 200 && isJsonObject(body) && 'resource' in body && topLevelCall(context.original, forms) !== undefined,
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
    (_body, context) => context.status === 400 && topLevelCall(context.original, forms) !== undefined,
    (body) =>
      editErrors(body, (error) => {
        const position = error.position;
        if (!Array.isArray(position) || position.length !== 2 || !forms.includes(String(position[0])) || !isJsonInteger(position[1]))
          return false;
        error.position = position.slice(0, 1);
        return true;
      }),
  );
}

/** A response hook for a server that answers `result` to a top-level call of `form` it should refuse with `description`. */
function refusalAnswered(form: string, description: string, result: unknown): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) =>
      res.status === 400 &&
      topLevelCall(ctx.original, [form]) !== undefined &&
      v4Errors(bodyJson(res)).some((e) => e.description === description),
    (res) => withStatus(withJsonBody(res, { resource: result }), 200),
  );
}

/** A JSON hook that edits the errors of a failed top-level call of one of `forms`; `edit` returns whether it changed one. */
function rewriteErrorsOf(forms: readonly string[], edit: (error: JsonObject) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status >= 400 && forms.some((form) => topLevelCall(context.original, form)?.call !== undefined),
    (body) => v4Errors(body).filter(edit).length,
  );
}

export const code: FaultCode = {
  // `prepend` goes last, as the fault always had it: the form a server reads can depend on the order of the keys.
  'ARR-APPEND-PREPENDS': onObjects((object) => {
    if (!('append' in object) || !('collection' in object)) return false;
    object.prepend = object.append;
    delete object.append;
    return true;
  }),
  'ARR-REVERSE-SET-IGNORED': onObjects((object) => {
    const set = object.paginate;
    if (!isJsonObject(set) || !('reverse' in set) || Object.keys(set).length !== 1) return false;
    object.paginate = set.reverse!;
    return true;
  }),
  'AGG-SUM-INTEGERS-AS-DOUBLE': () => ({
    json: rewriteResult(['sum'], (body) => {
      if (!isJsonInteger(body.resource)) return false;
      body.resource = jsonDecimal(Number(String(body.resource)));
      return true;
    }),
  }),
  'AGG-PAGE-FOLD-BARE': () => ({
    json: rewriteResult(FOLDS, (body) => {
      const page = body.resource;
      if (!isJsonObject(page) || !Array.isArray(page.data) || page.data.length !== 1) return false;
      body.resource = page.data[0];
      return true;
    }),
  }),
  'AGG-ELEMENT-ERROR-AT-ELEMENT': onJson(
    (_body, context) => context.status === 400 && topLevelCall(context.original, FOLDS) !== undefined,
    (body) =>
      editErrors(body, (error) => {
        const description = String(error.description);
        if (!Array.isArray(error.position) || !/^(Number|Boolean) expected/.test(description)) return false;
        error.position = [...error.position, jsonInt(1)];
        return true;
      }),
  ),
  'AGG-SETS-REFUSED': onResponse(
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
  'AGG-SET-PERMISSIONS-IGNORED': onResponse(
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
  'ARR-SLICED-PAGE-CURSORS-KEPT': () => ({
    request: rewriteExpression((expression) => {
      let changed = 0;
      forEachObject(expression, (object) => {
        for (const form of ['take', 'drop'] as const) {
          const source = object.collection;
          if (!(form in object) || !isJsonObject(source) || !('paginate' in source)) continue;
          // Slice the data with Map over the page's own cursors: {data: Take(n, Select(data, page)), before, after}.
          const page = { var: '__page' };
          const cursor = (side: string) => ({ select: [side], from: page, default: null });
          object.let = [{ __page: source }];
          object.in = {
            object: {
              data: { [form]: object[form], collection: { select: ['data'], from: page } },
              before: cursor('before'),
              after: cursor('after'),
            },
          };
          delete object[form];
          delete object.collection;
          changed++;
        }
      });
      return changed;
    }),
  }),
  'OBJ-MERGE-NULL-KEPT': () => ({
    json: rewriteResult(['merge'], (body, call) => {
      const merged = body.resource;
      if (!isJsonObject(merged) || 'lambda' in call) return false;
      const withArg = call.with;
      const fields = isJsonObject(withArg) && isJsonObject(withArg.object) ? withArg.object : undefined;
      const nulls = fields === undefined ? [] : Object.keys(fields).filter((key) => fields[key] === null);
      for (const key of nulls) merged[key] = null;
      return nulls.length > 0;
    }),
  }),
  'OBJ-CONTAINS-VALUE-LOOSE-NUMBERS': onObjects((object) => {
    const value = object.contains_value;
    if (!isLosslessNumber(value) || !/^-?\d+\.0+$/.test(value.toString())) return false;
    object.contains_value = jsonInt(BigInt(value.toString().split('.')[0]!));
    return true;
  }),
  'OBJ-CONTAINS-VALUE-PAGE-ELEMENTS': onObjects((object) => {
    if (!('contains_value' in object) || !isJsonObject(object.in) || !('paginate' in object.in)) return false;
    object.in = { select: ['data'], from: object.in };
    return true;
  }),
  'OBJ-CONTAINS-VALUE-DENIED-AT-ARGUMENT': onJson(
    (_body, context) =>
      context.status === 403 &&
      isJsonObject(v4Expression(context.original)) &&
      'contains_value' in (v4Expression(context.original) as JsonObject),
    (body) =>
      editErrors(body, (error) => {
        if (error.code !== 'permission denied' || !Array.isArray(error.position)) return false;
        error.position = [...error.position, 'in'];
        return true;
      }),
  ),
  'OBJ-TO-OBJECT-ERROR-AT-ARGUMENT': onJson(
    (_body, context) => context.status === 400 && topLevelCall(context.original, ['to_object']) !== undefined,
    (body) =>
      editErrors(body, (error) => {
        if (!Array.isArray(error.position) || error.position.length < 2) return false;
        error.position = error.position.slice(0, 1);
        return true;
      }),
  ),
  'AGG-EMPTY-ANY-ALL-SWAPPED': () => ({
    json: rewriteResult(['any', 'all'], (body, call, form) => {
      if (!Array.isArray(call[form]) || (call[form] as unknown[]).length !== 0 || typeof body.resource !== 'boolean') return false;
      body.resource = !body.resource;
      return true;
    }),
  }),
  'ARR-NEGATIVE-COUNT-FROM-END': () => ({
    json: rewriteResult(['take', 'drop'], (body, call, form) => {
      const count = call[form];
      const array = call.collection;
      if (!isJsonInteger(count) || Number(String(count)) >= 0 || !Array.isArray(array) || !Array.isArray(body.resource)) return false;
      const n = Number(String(count));
      body.resource = form === 'take' ? array.slice(0, n) : array.slice(n);
      return true;
    }),
  }),
  'ARR-COLLECTION-ERROR-AT-COUNT': onJson(
    (_body, context) => context.status === 400 && topLevelCall(context.original, ['take', 'drop']) !== undefined,
    (body, context) => {
      const { form } = topLevelCall(context.original, ['take', 'drop'])!;
      return editErrors(body, (error) => {
        if (!Array.isArray(error.position) || error.position.length !== 1 || error.position[0] !== 'collection') return false;
        error.position = [form];
        return true;
      });
    },
  ),
  'ARR-REVERSE-PAGE-CURSORS-SWAPPED': () => ({
    json: rewriteResult(['reverse'], (body) => {
      const page = body.resource;
      if (!isJsonObject(page) || !Array.isArray(page.data) || !('before' in page) || !('after' in page)) return false;
      [page.before, page.after] = [page.after, page.before];
      return true;
    }),
  }),
  'OBJ-MERGE-LAMBDA-IGNORED': onObjects((object) => {
    if (!('merge' in object) || !('with' in object) || !isJsonObject(object.lambda) || !('lambda' in object.lambda)) return false;
    delete object.lambda;
    return true;
  }),
  'OBJ-MERGE-WITH-ELEMENT-AT-ARGUMENT': onJson(
    (_body, context) => context.status === 400 && topLevelCall(context.original, ['merge']) !== undefined,
    (body) =>
      editErrors(body, (error) => {
        if (!Array.isArray(error.position) || error.position.length !== 2 || error.position[0] !== 'with') return false;
        error.position = ['with'];
        return true;
      }),
  ),
  'OBJ-CONTAINS-PATH-ELEMENT-AT-ARGUMENT': () => ({ json: errorAtWholeArgument(['contains_path', 'contains']) }),
  'OBJ-CONTAINS-FIELD-ARRAY-FALSE': () => ({ response: refusalAnswered('contains_field', 'Object expected, Array provided.', false) }),
  'OBJ-CONTAINS-VALUE-SCALAR-FALSE': () => ({
    response: refusalAnswered('contains_value', 'Object, Array, Page, Set, or Ref expected, Scalar provided.', false),
  }),
  'OBJ-TO-ARRAY-PAIRS-REVERSED': () => ({
    json: rewriteResult(['to_array'], (body, call) => {
      if (!isJsonObject(call.to_array) || !Array.isArray(body.resource)) return false;
      let changed = 0;
      for (const pair of body.resource) {
        if (!Array.isArray(pair) || pair.length !== 2) continue;
        pair.reverse();
        changed++;
      }
      return changed > 0;
    }),
  }),
  'OBJ-SELECT-ALL-PATH-ELEMENT-AT-ARGUMENT': () => ({ json: errorAtWholeArgument(['select_all']) }),
  'FOLD-SELECT-ALL-OPTION-WRAPS': onJson(
    (body, context) =>
      context.status === 200 &&
      topLevelCall(context.original, 'select')?.call.all === true &&
      isJsonObject(body) &&
      Array.isArray(body.resource) &&
      body.resource.length > 1,
    (body) => {
      (body as JsonObject).resource = [(body as JsonObject).resource!];
      return true;
    },
  ),
  'FOLD-REDUCE-ELEMENT-FIRST': onObjects((object) => {
    const fn = object.reduce;
    if (!('initial' in object) || !isJsonObject(fn) || !Array.isArray(fn.lambda) || fn.lambda.length !== 2) return false;
    fn.lambda = [...fn.lambda].reverse();
    return true;
  }),
  'FOLD-REDUCE-PAGE-BARE': onJson(
    (body, context) => context.status === 200 && isJsonObject(body) && topLevelCall(context.original, 'reduce')?.call !== undefined,
    (body) => {
      const page = (body as JsonObject).resource;
      if (!isJsonObject(page) || !Array.isArray(page.data) || page.data.length !== 1) return false;
      (body as JsonObject).resource = page.data[0];
      return true;
    },
  ),
  'FOLD-REDUCE-SETS-UNNAMED': () => ({
    json: rewriteErrorsOf(['reduce'], (error) => {
      const description = String(error.description);
      if (!description.startsWith('Array, Set, or Page expected')) return false;
      error.description = description.replace('Array, Set, or Page expected', 'Array or Page expected');
      return true;
    }),
  }),
  'FOLD-LAMBDA-FORM-INVALID-ARGUMENT': () => ({
    json: rewriteErrorsOf(['reduce', 'map', 'foreach', 'filter'], (error) => {
      const description = String(error.description);
      if (
        error.code !== 'invalid expression' ||
        !(description.startsWith('Lambda expected') || description.startsWith('No form/function found'))
      )
        return false;
      error.code = 'invalid argument';
      return true;
    }),
  }),
  'FOLD-LAMBDA-ARITY-AT-FORM': () => ({
    json: rewriteErrorsOf(['reduce', 'map', 'foreach', 'filter', 'paginate'], (error) => {
      const position = error.position;
      if (!String(error.description).startsWith('Lambda expects an array') || !Array.isArray(position) || position.length < 2) return false;
      if (
        position[position.length - 1] !== 'lambda' ||
        !['reduce', 'map', 'foreach', 'filter'].includes(String(position[position.length - 2]))
      )
        return false;
      position.pop();
      return true;
    }),
  }),
  'FOLD-MAP-OLD-MESSAGE': () => ({
    json: rewriteErrorsOf(['map', 'foreach'], (error) => {
      const description = String(error.description);
      if (!description.startsWith('Array, Set, or Page expected')) return false;
      error.description = description.replace('Array, Set, or Page expected', 'Array or Page expected');
      return true;
    }),
  }),
  'FOLD-SELECT-ALL-ONE-UNWRAPPED': onJson(
    (body, context) => context.status === 200 && isJsonObject(body) && topLevelCall(context.original, 'select_all')?.call !== undefined,
    (body) => {
      const found = (body as JsonObject).resource;
      if (!Array.isArray(found) || found.length !== 1) return false;
      (body as JsonObject).resource = found[0];
      return true;
    },
  ),
};
