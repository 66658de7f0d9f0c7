// The faults of spec/requirements/paging.md that are code; their rows (ids, titles, what they break) are in paging.json.
import type { Fault, FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import { hasCursor, isPage, paginateForms, topLevelPage, unwrapObject, v4ErrorResponse } from './lib/index-tracking.js';
import { isRefEntry, pageAnswer } from './lib/pages.js';
import { expressionUses, onExpression, onJson, onObjects, onResponse, topLevelForm, v4Expression, v4Resource } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** The cursor (`after` or `before`) a `paginate` form was sent with, when it is an array. */
function requestCursor(form: JsonObject, which: 'after' | 'before'): unknown[] | undefined {
  const direct = form[which];
  const viaCursor = isJsonObject(form.cursor) ? form.cursor[which] : undefined;
  const cursor = direct ?? viaCursor;
  return Array.isArray(cursor) ? cursor : undefined;
}

/** Whether a `paginate` form was sent with the null cursor `which`, direct or inside `cursor`. */
function nullCursor(form: JsonObject, which: 'after' | 'before'): boolean {
  const cursor = unwrapObject(form.cursor);
  return (which in form && form[which] === null) || (cursor !== undefined && which in cursor && cursor[which] === null);
}

/** A fault that edits every `paginate` form of a request (`edit` answers whether it changed the form). */
const onForms = (edit: (form: JsonObject) => boolean): Fault['apply'] =>
  onExpression((expression) => paginateForms(expression).filter(edit).length);

/** A fault answering a successful `paginate` that `holds` of with 400 `invalid argument` (`description`, at `position`). */
const refusedPaginate = (holds: (form: JsonObject) => boolean, description: string, position: string): Fault['apply'] =>
  onResponse(
    (response, ctx) => response.status === 200 && paginateForms(v4Expression(ctx.original)).some(holds),
    (response) => v4ErrorResponse(response, 400, 'invalid argument', description, [position]),
  );

/** True for a cursor element written as a `{"@ref": …}` literal. */
function isRefLiteral(value: unknown): boolean {
  return isJsonObject(value) && '@ref' in value;
}

/** The `after` cursor of a top-level `paginate` expression, direct or inside `cursor`. */
function afterCursor(expression: JsonObject): unknown {
  return expression.after ?? (isJsonObject(expression.cursor) ? expression.cursor.after : undefined);
}

/**
 * Offset cursors: the proxy remembers how many entries preceded each `after` cursor it relayed and answers a
 * page asked for with that cursor by skipping that many entries of the set as it is now.
 */
function offsetCursorHooks(): FaultHooks {
  const offsets = new Map<string, number>();
  const skipped = new WeakMap<ProxiedRequest, { skip: number; cursor: unknown }>();
  const keyOf = (set: unknown, cursor: unknown): string => stringifyJson([set, cursor]);
  return {
    request: (request) => {
      const expression = v4Expression(request);
      if (!isJsonObject(expression) || topLevelForm(request) !== 'paginate' || hasCursor(expression, 'before') || 'ts' in expression)
        return undefined;
      const cursor = afterCursor(expression);
      const skip = cursor === undefined ? undefined : offsets.get(keyOf(expression.paginate, cursor));
      if (skip === undefined) return undefined;
      const rewritten: JsonObject = { ...expression, size: jsonInt(skip + (jsonNumber(expression.size) ?? 64)) };
      delete rewritten.after;
      delete rewritten.cursor;
      const forwarded = { ...request, body: Buffer.from(stringifyJson(rewritten)) };
      skipped.set(forwarded, { skip, cursor });
      return forwarded;
    },
    json: (body, ctx) => {
      const expression = v4Expression(ctx.original);
      const page = topLevelPage(body, ctx);
      if (!isJsonObject(expression) || page === undefined || hasCursor(expression, 'before')) return undefined;
      const plan = skipped.get(ctx.request);
      if (plan === undefined && hasCursor(expression, 'after')) return undefined;
      if (page.after !== undefined) offsets.set(keyOf(expression.paginate, page.after), page.data.length);
      if (plan === undefined) return undefined;
      page.data.splice(0, plan.skip);
      page.before = plan.cursor;
      return body;
    },
  };
}

export const code: FaultCode = {
  'PAGE-DROPS-LAST': () => ({ json: pageAnswer((page) => page.data.splice(-1).length) }),
  'PAGE-AFTER-EXCLUSIVE': () => ({
    json: pageAnswer((page, forms) => forms.some((form) => hasCursor(form, 'after')) && page.data.splice(0, 1).length > 0),
  }),
  'PAGE-BEFORE-ON-FIRST-PAGE': () => ({
    json: pageAnswer((page, forms) => {
      if (forms.some((form) => 'after' in form || 'before' in form || 'cursor' in form) || page.data.length === 0 || 'before' in page)
        return false;
      page.before = Array.isArray(page.data[0]) ? page.data[0] : [page.data[0]];
      return true;
    }),
  }),
  'PAGE-SIZE-UNCHECKED': onForms((form) => {
    if (!('size' in form) || isJsonInteger(form.size)) return false;
    form.size = jsonInt(64);
    return true;
  }),
  'PAGE-CURSOR-EXTRA-KEYS-IGNORED': onForms((form) => {
    const cursor = unwrapObject(form.cursor);
    const sides = Object.keys(cursor ?? {}).filter((key) => key === 'after' || key === 'before');
    if (cursor === undefined || (sides.length === 1 && Object.keys(cursor).length === 1)) return false;
    form.cursor = sides[0] === undefined ? null : { object: { [sides[0]]: cursor[sides[0]]! } };
    return true;
  }),
  'PAGE-SIZE-ZERO-REFUSED': refusedPaginate((form) => (jsonNumber(form.size) ?? 1) < 1, 'Page size must be at least 1.', 'size'),
  'PAGE-MAP-REVERSED': onJson(
    (body, ctx) => expressionUses(ctx.original, 'map') && expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)),
    // Reversing fewer than two entries changes nothing.
    (body) => (v4Resource(body)!.data as unknown[]).reverse().length > 1,
  ),
  'PAGE-BEFORE-INCLUSIVE': () => ({
    json: pageAnswer((page, forms) => {
      const cursor = forms.map((form) => requestCursor(form, 'before')).find((c) => c !== undefined && c.length > 0);
      if (cursor === undefined) return false;
      page.data.push(cursor.length === 1 ? cursor[0] : cursor);
      return true;
    }),
  }),
  'PAGE-CURSOR-WITHOUT-REF': () => ({
    json: pageAnswer((page) => {
      const cursors = [page.after, page.before].filter((c) => Array.isArray(c) && c.length > 1 && isRefEntry(c.at(-1))) as unknown[][];
      for (const cursor of cursors) cursor.pop();
      return cursors.length;
    }),
  }),
  'PAGE-SIZE-OFF-BY-ONE': onForms((form) => {
    const size = jsonNumber(form.size);
    if (!isJsonInteger(form.size) || size === undefined || size < 1 || size >= 100_000) return false;
    form.size = jsonInt(size + 1);
    return true;
  }),
  'PAGE-MAP-TWICE': onExpression((expression) => {
    // Collected first: the wrapped map is itself a map over a paginate and must not be wrapped again.
    const maps: JsonObject[] = [];
    forEachObject(expression, (object) => {
      if ('map' in object && isJsonObject(object.collection) && 'paginate' in object.collection) maps.push(object);
    });
    for (const object of maps) object.collection = { map: object.map, collection: object.collection };
    return maps.length;
  }),
  'PAGE-FILTER-INVERTED': onObjects((object) => {
    const lambda = 'filter' in object && 'collection' in object ? object.filter : undefined;
    if (!isJsonObject(lambda) || !('lambda' in lambda) || !('expr' in lambda)) return false;
    lambda.expr = { not: lambda.expr };
    return true;
  }),
  'PAGE-OFFSET-CURSORS': offsetCursorHooks,
  'PAGE-REF-LITERAL-CURSOR-REJECTED': refusedPaginate(
    (form) => (['after', 'before'] as const).some((which) => requestCursor(form, which)?.some(isRefLiteral) ?? false),
    'Cursor refs must be written as Ref expressions.',
    'after',
  ),
  'PAGE-PARTIAL-CURSOR-IGNORED': onForms((form) => {
    if (!Array.isArray(form.after) || form.after.length === 0 || form.after.some(isRefLiteral)) return false;
    delete form.after;
    return true;
  }),
  'PAGE-MAP-PARAMS-SWAPPED': onObjects((object) => {
    const lambda = 'map' in object && 'collection' in object ? object.map : undefined;
    if (!isJsonObject(lambda) || !Array.isArray(lambda.lambda) || lambda.lambda.length < 2) return false;
    lambda.lambda.reverse();
    return true;
  }),
  'PAGE-SELECT-DATA-GIVES-PAGE': onJson(
    (body, ctx) =>
      ctx.status === 200 &&
      topLevelForm(ctx.original) === 'select' &&
      expressionUses(ctx.original, 'paginate') &&
      isJsonObject(body) &&
      Array.isArray(body.resource),
    (body) => {
      (body as JsonObject).resource = { data: (body as JsonObject).resource };
    },
  ),
  'PAGE-BARE-ARRAY': onJson(
    (body, ctx) => topLevelPage(body, ctx) !== undefined,
    (body) => {
      (body as JsonObject).resource = v4Resource(body)!.data;
    },
  ),
  'PAGE-EMPTY-NULL-CURSORS': () => ({
    json: pageAnswer((page) => {
      if (page.data.length > 0 || 'after' in page || 'before' in page) return false;
      page.after = null;
      page.before = null;
      return true;
    }),
  }),
  'PAGE-DESCENDING': onJson(
    (body, ctx) => topLevelPage(body, ctx) !== undefined,
    // Reversing fewer than two entries changes nothing.
    (body) => (v4Resource(body)!.data as unknown[]).reverse().length > 1,
  ),
  'PAGE-SIZE-MAX-EXCLUSIVE': refusedPaginate(
    (form) => jsonNumber(form.size) === 100_000,
    'Page size must be between 1 and 100000 (exclusive).',
    'size',
  ),
  'PAGE-AFTER-NULL-IS-FIRST-PAGE': onForms((form) => {
    if (!nullCursor(form, 'after')) return false;
    delete form.after;
    if ('cursor' in form) form.cursor = null;
    return true;
  }),
  'PAGE-BEFORE-NULL-NOT-ECHOED': () => ({
    json: pageAnswer((page, forms) => forms.some((form) => nullCursor(form, 'before')) && 'after' in page && delete page.after),
  }),
  'PAGE-CURSOR-ECHOED-BARE': () => ({
    json: pageAnswer((page, forms) => {
      let changed = 0;
      for (const form of forms) {
        const cursor = unwrapObject(form.cursor);
        const after = form.after ?? cursor?.after;
        const before = form.before ?? cursor?.before;
        if (after !== undefined && after !== null && !Array.isArray(after) && Array.isArray(page.before)) {
          page.before = after;
          changed++;
        }
        if (before !== undefined && before !== null && !Array.isArray(before) && Array.isArray(page.after)) {
          page.after = before;
          changed++;
        }
      }
      return changed;
    }),
  }),
  'PAGE-NEGATIVE-SIZE-BOTH-SIDES': () => ({
    json: pageAnswer((page, forms) => {
      if (!forms.some((form) => (jsonNumber(form.size) ?? 0) < 0)) return false;
      if ('before' in page && !('after' in page)) page.after = page.before;
      else if ('after' in page && !('before' in page)) page.before = page.after;
      else return false;
      return true;
    }),
  }),
};
