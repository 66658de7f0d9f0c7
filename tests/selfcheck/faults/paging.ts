// The faults of spec/requirements/paging.md that are code; their rows (ids, titles, what they break) are in paging.json.
import type { FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import { hasCursor, isPage, paginateForms, topLevelPage, unwrapObject, v4ErrorResponse } from './lib/index-tracking.js';
import { isRefEntry, pageAnswer } from './lib/pages.js';
import { editObjects, expressionUses, onExpression, onJson, onResponse, topLevelForm, v4Expression, v4Resource } from './lib/rewrites.js';
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

/** True when the request's top-level form is a `paginate` (not a Map or Select over one). */
function isTopLevelPaginate(request: ProxiedRequest): boolean {
  return topLevelForm(request) === 'paginate';
}

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
      if (!isJsonObject(expression) || !isTopLevelPaginate(request) || hasCursor(expression, 'before') || 'ts' in expression)
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
  'PAGE-DROPS-LAST': onJson(
    (body, ctx) => expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)) && (v4Resource(body)!.data as unknown[]).length > 0,
    (body) => {
      (v4Resource(body)!.data as unknown[]).pop();
    },
  ),
  'PAGE-AFTER-EXCLUSIVE': onJson(
    (body, ctx) =>
      paginateForms(v4Expression(ctx.original)).some((form) => 'after' in form || (isJsonObject(form.cursor) && 'after' in form.cursor)) &&
      isPage(v4Resource(body)) &&
      (v4Resource(body)!.data as unknown[]).length > 0,
    (body) => {
      (v4Resource(body)!.data as unknown[]).shift();
    },
  ),
  'PAGE-AFTER-MISSING': onJson(
    (body) => isPage(v4Resource(body)) && 'after' in v4Resource(body)!,
    (body) => {
      delete v4Resource(body)!.after;
    },
  ),
  'PAGE-BEFORE-ON-FIRST-PAGE': onJson(
    (body, ctx) => {
      const forms = paginateForms(v4Expression(ctx.original));
      const resource = v4Resource(body);
      return (
        forms.length > 0 &&
        forms.every((form) => !('after' in form) && !('before' in form) && !('cursor' in form)) &&
        isPage(resource) &&
        resource.data.length > 0 &&
        !('before' in resource)
      );
    },
    (body) => {
      const resource = v4Resource(body)!;
      const first = (resource.data as unknown[])[0];
      resource.before = Array.isArray(first) ? first : [first];
    },
  ),
  'PAGE-DEFAULT-SIZE-16': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      if ('size' in form) return n;
      form.size = jsonInt(16);
      return n + 1;
    }, 0),
  ),
  'PAGE-SIZE-UNCHECKED': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      if (!('size' in form) || isJsonInteger(form.size)) return n;
      form.size = jsonInt(64);
      return n + 1;
    }, 0),
  ),
  'PAGE-CURSOR-EXTRA-KEYS-IGNORED': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      const cursor = unwrapObject(form.cursor);
      if (!isJsonObject(cursor)) return n;
      const keys = Object.keys(cursor);
      if (keys.length === 1 && (keys[0] === 'after' || keys[0] === 'before')) return n;
      const side = keys.find((k) => k === 'after' || k === 'before');
      form.cursor = side === undefined ? null : { object: { [side]: cursor[side]! } };
      return n + 1;
    }, 0),
  ),
  'PAGE-SIZE-ZERO-REFUSED': onResponse(
    (response, ctx) =>
      response.status === 200 &&
      paginateForms(v4Expression(ctx.original)).some((form) => {
        const size = jsonNumber(form.size);
        return size !== undefined && size < 1;
      }),
    (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Page size must be at least 1.', ['size']),
  ),
  'PAGE-MAP-REVERSED': onJson(
    (body, ctx) =>
      expressionUses(ctx.original, 'map') &&
      expressionUses(ctx.original, 'paginate') &&
      isPage(v4Resource(body)) &&
      (v4Resource(body)!.data as unknown[]).length > 1,
    (body) => {
      (v4Resource(body)!.data as unknown[]).reverse();
    },
  ),
  'PAGE-BEFORE-INCLUSIVE': () => ({
    json: pageAnswer((page, forms) => {
      const cursor = forms.map((form) => requestCursor(form, 'before')).find((c) => c !== undefined && c.length > 0);
      if (cursor === undefined) return false;
      page.data.push(cursor.length === 1 ? cursor[0] : cursor);
      return true;
    }),
  }),
  'PAGE-BEFORE-MISSING': () => ({
    json: pageAnswer((page) => {
      if (!('before' in page)) return false;
      delete page.before;
      return true;
    }),
  }),
  'PAGE-CURSOR-WITHOUT-REF': () => ({
    json: pageAnswer((page) => {
      let changed = 0;
      for (const which of ['after', 'before'] as const) {
        const cursor = page[which];
        if (Array.isArray(cursor) && cursor.length > 1 && isRefEntry(cursor[cursor.length - 1])) {
          cursor.pop();
          changed += 1;
        }
      }
      return changed;
    }),
  }),
  'PAGE-SIZE-OFF-BY-ONE': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      const size = jsonNumber(form.size);
      if (!isJsonInteger(form.size) || size === undefined || size < 1 || size >= 100_000) return n;
      form.size = jsonInt(size + 1);
      return n + 1;
    }, 0),
  ),
  'PAGE-MAP-TWICE': onExpression((expression) => {
    // Collected first: the wrapped map is itself a map over a paginate and must not be wrapped again.
    const maps: JsonObject[] = [];
    forEachObject(expression, (object) => {
      if ('map' in object && isJsonObject(object.collection) && 'paginate' in object.collection) maps.push(object);
    });
    for (const object of maps) object.collection = { map: object.map, collection: object.collection };
    return maps.length;
  }),
  'PAGE-FILTER-INVERTED': onExpression((expression) => {
    return editObjects(expression, (object) => {
      const lambda = 'filter' in object && 'collection' in object ? object.filter : undefined;
      if (!isJsonObject(lambda) || !('lambda' in lambda) || !('expr' in lambda)) return false;
      lambda.expr = { not: lambda.expr };
      return true;
    });
  }),
  'PAGE-OFFSET-CURSORS': offsetCursorHooks,
  'PAGE-REF-LITERAL-CURSOR-REJECTED': onResponse(
    (response, ctx) =>
      response.status === 200 &&
      paginateForms(v4Expression(ctx.original)).some((form) =>
        (['after', 'before'] as const).some((which) => {
          const cursor = form[which] ?? (isJsonObject(form.cursor) ? form.cursor[which] : undefined);
          return Array.isArray(cursor) && cursor.some(isRefLiteral);
        }),
      ),
    (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Cursor refs must be written as Ref expressions.', ['after']),
  ),
  'PAGE-PARTIAL-CURSOR-IGNORED': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      const cursor = form.after;
      if (!Array.isArray(cursor) || cursor.length === 0 || cursor.some(isRefLiteral)) return n;
      delete form.after;
      return n + 1;
    }, 0),
  ),
  'PAGE-MAP-PARAMS-SWAPPED': onExpression((expression) => {
    return editObjects(expression, (object) => {
      const lambda = 'map' in object && 'collection' in object ? object.map : undefined;
      if (!isJsonObject(lambda) || !Array.isArray(lambda.lambda) || lambda.lambda.length < 2) return false;
      lambda.lambda.reverse();
      return true;
    });
  }),
  'PAGE-SELECT-DATA-GIVES-PAGE': onJson(
    (body, ctx) =>
      ctx.status === 200 &&
      topLevelForm(ctx.original) === 'select' &&
      expressionUses(ctx.original, 'paginate') &&
      isJsonObject(body) &&
      Array.isArray(body.resource),
    (body) => {
      const holder = body as JsonObject;
      holder.resource = { data: holder.resource };
    },
  ),
  'PAGE-BARE-ARRAY': onJson(
    (body, ctx) => topLevelPage(body, ctx) !== undefined,
    (body) => {
      const holder = body as JsonObject;
      holder.resource = (holder.resource as JsonObject).data;
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
    (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 1,
    (body) => {
      (v4Resource(body)!.data as unknown[]).reverse();
    },
  ),
  'PAGE-SIZE-MAX-EXCLUSIVE': onResponse(
    (response, ctx) =>
      response.status === 200 && paginateForms(v4Expression(ctx.original)).some((form) => jsonNumber(form.size) === 100_000),
    (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Page size must be between 1 and 100000 (exclusive).', ['size']),
  ),
  'PAGE-AFTER-NULL-IS-FIRST-PAGE': onExpression((expression) =>
    paginateForms(expression).reduce((n, form) => {
      if (!nullCursor(form, 'after')) return n;
      delete form.after;
      if ('cursor' in form) form.cursor = null;
      return n + 1;
    }, 0),
  ),
  'PAGE-BEFORE-NULL-NOT-ECHOED': () => ({
    json: pageAnswer((page, forms) => {
      if (!forms.some((form) => nullCursor(form, 'before')) || !('after' in page)) return false;
      delete page.after;
      return true;
    }),
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
