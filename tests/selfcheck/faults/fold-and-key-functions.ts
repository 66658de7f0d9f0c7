// Faults against Reduce, SelectAll, KeyFromSecret and the errors of Map, Foreach and Filter for what they do not take
// (FN-AGG-011…013, FN-ARR-009, FN-ARR-011, FN-OBJ-012, FN-KEY; spec/requirements/functions-collections.md, functions-keys.md):
// each is a server that gets one rule wrong the way a hand-written implementation plausibly would.
import type { Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonObject, type JsonObject } from '../json-body.js';
import { bodyJson, rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

/** The query's expression when it is a top-level call of `form`. */
function topLevelCall(request: JsonResponseContext['original'], form: string): JsonObject | undefined {
  const expression = v4Expression(request);
  return isJsonObject(expression) && form in expression ? expression : undefined;
}

/** A JSON hook that edits the errors of a failed top-level call of one of `forms`; `edit` returns whether it changed one. */
function rewriteErrorsOf(forms: readonly string[], edit: (error: JsonObject) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status >= 400 && forms.some((form) => topLevelCall(context.original, form) !== undefined),
    (body) => v4Errors(body).filter(edit).length,
  );
}

export const FOLD_AND_KEY_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'FOLD-SELECT-ALL-OPTION-WRAPS',
    title: 'Select with all: true keeps the arrays it finds whole',
    breaks: ['FN-OBJ-014'],
    area: 'core',
    description: 'A top-level `Select` with `all: true` that answers several values answers them wrapped in one more array, as a Select that collects what it finds without splicing arrays in.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && topLevelCall(context.original, 'select')?.all === true && isJsonObject(body) && Array.isArray(body.resource) && body.resource.length > 1,
        (body) => {
          (body as JsonObject).resource = [(body as JsonObject).resource!];
          return true;
        },
      ),
    }),
  },
  {
    id: 'FOLD-REDUCE-ELEMENT-FIRST',
    title: 'Reduce passes the element before the accumulator',
    breaks: ['FN-AGG-011', 'FN-AGG-012'],
    area: 'core',
    description: 'Reduce calls its lambda with `[element, accumulator]` instead of `[accumulator, element]`, as a server modelled on a right fold would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const fn = object['reduce'];
          if (!('initial' in object) || !isJsonObject(fn) || !Array.isArray(fn['lambda']) || fn['lambda'].length !== 2) return;
          fn['lambda'] = [...fn['lambda']].reverse();
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'FOLD-REDUCE-PAGE-BARE',
    title: 'Reduce of a page answers the bare result',
    breaks: ['FN-AGG-012'],
    area: 'core',
    description: 'Reduce of a page answers the folded value itself rather than a page holding it with the page’s cursors.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && isJsonObject(body) && topLevelCall(context.original, 'reduce') !== undefined,
        (body) => {
          const page = (body as JsonObject)['resource'];
          if (!isJsonObject(page) || !Array.isArray(page['data']) || page['data'].length !== 1) return false;
          (body as JsonObject)['resource'] = page['data'][0];
          return true;
        },
      ),
    }),
  },
  {
    id: 'FOLD-REDUCE-SETS-UNNAMED',
    title: 'Reduce names only arrays and pages for a wrong collection',
    breaks: ['FN-AGG-013'],
    area: 'core',
    description: 'Reduce of a value that is not an array, page or set answers "Array or Page expected, <type> provided.", as Map does for sets.',
    apply: () => ({
      json: rewriteErrorsOf(['reduce'], (error) => {
        const description = String(error['description']);
        if (!description.startsWith('Array, Set, or Page expected')) return false;
        error['description'] = description.replace('Array, Set, or Page expected', 'Array or Page expected');
        return true;
      }),
    }),
  },
  {
    id: 'FOLD-LAMBDA-FORM-INVALID-ARGUMENT',
    title: 'A lambda argument not written as a lambda is an invalid argument',
    breaks: ['FN-AGG-013', 'FN-ARR-011'],
    area: 'core',
    description: 'Reduce(1, 0, [1]) and Map(1, [1]) answer invalid argument "Lambda expected, Integer provided.", as a server that evaluates the lambda argument before checking it would, where the real service refuses it as invalid expression when it parses the query.',
    apply: () => ({
      json: rewriteErrorsOf(['reduce', 'map', 'foreach', 'filter'], (error) => {
        const description = String(error['description']);
        if (error['code'] !== 'invalid expression' || !(description.startsWith('Lambda expected') || description.startsWith('No form/function found'))) return false;
        error['code'] = 'invalid argument';
        return true;
      }),
    }),
  },
  {
    id: 'FOLD-LAMBDA-ARITY-AT-FORM',
    title: 'A lambda application that does not fit is reported at the form',
    breaks: ['FN-AGG-013', 'FN-ARR-011'],
    area: 'core',
    description: 'Reduce, Map and Filter report "Lambda expects an array with …" at ["reduce"] (["map"], ["filter"]) where the real service reports it at the lambda, ["reduce", "lambda"].',
    apply: () => ({
      json: rewriteErrorsOf(['reduce', 'map', 'foreach', 'filter', 'paginate'], (error) => {
        const position = error['position'];
        if (!String(error['description']).startsWith('Lambda expects an array') || !Array.isArray(position) || position.length < 2) return false;
        if (position[position.length - 1] !== 'lambda' || !['reduce', 'map', 'foreach', 'filter'].includes(String(position[position.length - 2]))) return false;
        position.pop();
        return true;
      }),
    }),
  },
  {
    id: 'FOLD-MAP-OLD-MESSAGE',
    title: 'Map and Foreach of a non-collection name only arrays and pages',
    breaks: ['FN-ARR-009'],
    area: 'core',
    description: 'Map and Foreach of a value that is not an array, page or set answer "Array or Page expected, <type> provided." (the message they give for a set).',
    apply: () => ({
      json: rewriteErrorsOf(['map', 'foreach'], (error) => {
        const description = String(error['description']);
        if (!description.startsWith('Array, Set, or Page expected')) return false;
        error['description'] = description.replace('Array, Set, or Page expected', 'Array or Page expected');
        return true;
      }),
    }),
  },
  {
    id: 'FOLD-SELECT-ALL-ONE-UNWRAPPED',
    title: 'SelectAll answers a lone value bare',
    breaks: ['FN-OBJ-012'],
    area: 'core',
    description: 'SelectAll that finds exactly one value answers that value itself, as Select would, instead of a one-element array.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && isJsonObject(body) && topLevelCall(context.original, 'select_all') !== undefined,
        (body) => {
          const found = (body as JsonObject)['resource'];
          if (!Array.isArray(found) || found.length !== 1) return false;
          (body as JsonObject)['resource'] = found[0];
          return true;
        },
      ),
    }),
  },
  {
    id: 'FOLD-SELECT-ALL-NOT-FOUND',
    title: 'SelectAll of a missing path answers value not found',
    breaks: ['FN-OBJ-012'],
    area: 'core',
    description: 'SelectAll that finds nothing answers 404 `value not found` as Select without a default does, instead of `[]`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          if (res.status !== 200 || topLevelCall(ctx.original, 'select_all') === undefined) return false;
          const body = bodyJson(res);
          return isJsonObject(body) && Array.isArray(body['resource']) && body['resource'].length === 0;
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['from'], code: 'value not found', description: 'Value not found at path [].' }] }), 404),
      ),
    }),
  },
  {
    id: 'KEY-FROM-SECRET-PERMISSION-DENIED',
    title: 'KeyFromSecret tells a refused read from an unknown secret',
    breaks: ['FN-KEY-004', 'FN-KEY-003'],
    area: 'core',
    description: 'KeyFromSecret answers 403 `permission denied` instead of `instance not found` for a text shaped like a secret (one the caller may not read, or a deleted key’s), so the answer reveals that the secret exists.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const call = topLevelCall(ctx.original, 'key_from_secret');
          return res.status === 404 && call !== undefined && /^fn[A-Za-z0-9_-]{20,}/.test(String(call['key_from_secret']));
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }), 403),
      ),
    }),
  },
  {
    id: 'KEY-FROM-SECRET-ORPHAN-TOKEN',
    title: 'KeyFromSecret finds a token whose user is gone',
    breaks: ['FN-KEY-003'],
    area: 'core',
    description: 'The reference server\'s KeyFromSecret answers the record of a token whose identity document was deleted (failpoint KEY-FROM-SECRET-ORPHAN-TOKEN), though that secret no longer authenticates.',
    apply: () => ({ failpoints: ['KEY-FROM-SECRET-ORPHAN-TOKEN'] }),
  },
  {
    id: 'KEY-FROM-SECRET-UNKNOWN-NULL',
    title: 'KeyFromSecret of an unknown secret answers null',
    breaks: ['FN-KEY-003'],
    area: 'core',
    description: 'KeyFromSecret of a text that is no live secret answers 200 with null instead of 404 `instance not found`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 404 && topLevelCall(ctx.original, 'key_from_secret') !== undefined,
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'KEY-FROM-SECRET-SHOWS-SECRET',
    title: 'KeyFromSecret answers the record with its secret',
    breaks: ['FN-KEY-001', 'FN-KEY-002'],
    area: 'core',
    description: 'KeyFromSecret adds the secret it was given to the record it answers, which Get of the record never shows.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && isJsonObject(body) && isJsonObject(body['resource']) && topLevelCall(context.original, 'key_from_secret') !== undefined,
        (body, context) => {
          ((body as JsonObject)['resource'] as JsonObject)['secret'] = topLevelCall(context.original, 'key_from_secret')!['key_from_secret']!;
          return true;
        },
      ),
    }),
  },
  {
    id: 'KEY-FROM-SECRET-ANY-ARGUMENT',
    title: 'KeyFromSecret looks up any argument',
    breaks: ['FN-KEY-005'],
    area: 'core',
    description: 'KeyFromSecret of a value that is not a string answers 404 `instance not found`, as if it were a secret that matches nothing.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) =>
          res.status === 400 &&
          topLevelCall(ctx.original, 'key_from_secret') !== undefined &&
          v4Errors(bodyJson(res)).some((e) => String(e['description']).startsWith('String expected')),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'instance not found', description: 'No key found for secret.' }] }), 404),
      ),
    }),
  },
];
