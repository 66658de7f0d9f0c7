// The faults of spec/requirements/sets.md that are code; their rows (ids, titles, what they break) are in sets.json.
import type { ProxiedRequest } from '../fault.js';
import { isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { indexName, isPage, paginateForms, someObject, topLevelPage, v4ErrorResponse } from './lib/index-tracking.js';
import { topLevel } from './lib/records.js';
import {
  bodyJson,
  expressionUses,
  onJson,
  onObjects,
  onResponse,
  replaceObject,
  rewriteJson,
  topLevelForm,
  v4Expression,
  v4Resource,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** Rewrites the data of pages answering a `paginate` whose expression uses `form`. */
function pageOf(form: string, rewrite: (data: unknown[]) => boolean): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, ctx) => expressionUses(ctx.original, 'paginate') && expressionUses(ctx.original, form) && isPage(v4Resource(body)),
    (body) => rewrite(v4Resource(body)!.data as unknown[]),
  );
}

/** Replaces every `{"@set": x}` of a tree by `x`; answers how many it replaced. */
function unwrapSets(value: unknown): number {
  let count = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isJsonObject(node)) {
      if (isJsonObject(node['@set']) && Object.keys(node).length === 1) {
        replaceObject(node, node['@set']);
        count += 1;
      }
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return count;
}

/** The `match` forms of an expression holding a `{"index": …}` and no `terms`. */
function termlessMatch(form: JsonObject): boolean {
  const set = form.paginate;
  return isJsonObject(set) && indexName(set.match) !== undefined && !('terms' in set);
}

/** Keys of the v4 expressions that build a set (and the `@set` tag of a set sent back as a value). */
const SET_EXPRESSIONS = ['match', 'union', 'intersection', 'difference', 'distinct', 'join', 'documents', '@set'];

/** The argument of a top-level `{"<form>": …}` when it is a set expression, e.g. `{"get": {"match": …}}`. */
function topLevelSetArgument(request: ProxiedRequest, form: 'get' | 'exists'): boolean {
  const expression = v4Expression(request);
  if (!isJsonObject(expression) || topLevelForm(request) !== form) return false;
  const argument = expression[form];
  return isJsonObject(argument) && SET_EXPRESSIONS.some((key) => key in argument);
}

export const code: FaultCode = {
  'SET-TAG-DROPPED': onJson(() => true, unwrapSets),
  'SET-MATCH-ONE-ELEMENT-ARRAY': onObjects((object) => {
    if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length !== 1) return false;
    const [term] = object.terms;
    if (Array.isArray(term) || isJsonObject(term)) return false;
    object.terms = [`${typeof term === 'string' ? term : stringifyJson(term)}\u0000not-the-scalar`];
    return true;
  }),
  'SET-UNION-DROPS-ENTRY': () => ({ json: pageOf('union', (data) => data.length > 1 && data.pop() !== undefined) }),
  'SET-DIFFERENCE-REVERSED': onObjects((object) => {
    if (!Array.isArray(object.difference) || object.difference.length !== 2) return false;
    object.difference.reverse();
    return true;
  }),
  'SET-DISTINCT-IGNORED': onObjects((object) => {
    if (Object.keys(object).length !== 1 || !isJsonObject(object.distinct)) return false;
    replaceObject(object, object.distinct);
    return true;
  }),
  'SET-JOIN-IGNORES-TARGET': onObjects((object) => {
    if (Object.keys(object).length !== 2 || !('with' in object) || !isJsonObject(object.join)) return false;
    replaceObject(object, object.join);
    return true;
  }),
  'SET-DOCUMENTS-DROPS-FIRST': () => ({ json: pageOf('documents', (data) => data.length > 0 && data.shift() !== undefined) }),
  'SET-MATCH-TERMS-REVERSED': onObjects((object) => {
    const terms = 'match' in object && Array.isArray(object.terms) ? object.terms : [];
    if (terms.length < 2 || terms.some((term) => Array.isArray(term) || isJsonObject(term))) return false;
    terms.reverse();
    return true;
  }),
  'SET-MATCH-NO-TERMS-EMPTY': onJson(
    (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 0 && paginateForms(v4Expression(ctx.original)).some(termlessMatch),
    (body) => {
      const page = v4Resource(body)!;
      page.data = [];
      delete page.after;
      delete page.before;
    },
  ),
  'SET-MATCH-NOTHING-NOT-FOUND': onResponse(
    (response, ctx) => {
      if (response.status !== 200 || topLevelForm(ctx.original) !== 'paginate') return false;
      const set = paginateForms(v4Expression(ctx.original))[0]?.paginate;
      const page = v4Resource(bodyJson(response));
      return isJsonObject(set) && 'match' in set && 'terms' in set && isPage(page) && page.data.length === 0;
    },
    (response) => v4ErrorResponse(response, 404, 'instance not found', 'Set not found.', ['paginate']),
  ),
  'SET-MATCH-LEGACY-REJECTED': onResponse(
    (response, ctx) =>
      response.status === 200 &&
      someObject(v4Expression(ctx.original), (object) => 'match' in object && 'index' in object && Object.keys(object).length === 2),
    (response) =>
      v4ErrorResponse(response, 400, 'invalid expression', 'No form/function found, or invalid argument keys: { match, index }.'),
  ),
  'SET-GET-REFUSED': onResponse(
    (response, ctx) => response.status === 200 && topLevelSetArgument(ctx.original, 'get'),
    (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Ref expected, Set provided.', ['get']),
  ),
  'SET-EXISTS-ALWAYS-FALSE': onJson(
    (body, ctx) => ctx.status === 200 && topLevelSetArgument(ctx.original, 'exists') && isJsonObject(body) && body.resource === true,
    (body) => {
      (body as JsonObject).resource = false;
    },
  ),
  'SET-COMBINATION-OPERAND-BARE': onJson(
    (_body, ctx) => {
      const form = topLevelForm(ctx.original) ?? '';
      return ctx.status === 200 && ['union', 'intersection', 'difference'].includes(form) && !Array.isArray(topLevel(ctx.original)?.[form]);
    },
    (body) => {
      const set = v4Resource(body)?.['@set'];
      const [name, operands] = isJsonObject(set) ? (Object.entries(set)[0] ?? []) : [];
      if (!Array.isArray(operands) || operands.length !== 1) return 0;
      (set as JsonObject)[name!] = operands[0];
      return 1;
    },
  ),
};
