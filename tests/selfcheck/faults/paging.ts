// Faults of the `paging` and `ordering` areas: pages, cursors, sizes and the order of index entries.
import type { Fault, FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, getPath, isJsonInteger, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import { resortPage, type EntryType, type OrderMistake } from './lib/entry-order.js';
import { DocumentLedger, createIndexParams, hasCursor, isPage, observingIndexes, topLevelPage, paginateForms, unwrapObject, v4ErrorResponse } from './lib/index-tracking.js';
import { expressionUses, rewriteExpression, rewriteJson, rewriteResponse, topLevelForm, v4Errors, v4Expression, v4Resource } from './lib/rewrites.js';

/** Value objects of `values` arrays in index definitions (plain or `{"object": …}` wrapped). */
function indexValueObjects(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if (!Array.isArray(object.values)) return;
    for (const item of object.values) {
      const value = isJsonObject(item) && isJsonObject(item.object) ? item.object : item;
      if (isJsonObject(value) && 'field' in value) found.push(value);
    }
  });
  return found;
}

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

/** The first covered value of a page entry (entries of several values are arrays). */
function leadingValue(entry: unknown): unknown {
  return Array.isArray(entry) ? entry[0] : entry;
}

/** A page answering a `paginate` the suite sent (the resource of the answer), for answer rewrites. */
function pageAnswer(rewrite: (page: JsonObject & { data: unknown[] }, forms: JsonObject[]) => number | boolean): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, ctx) => paginateForms(v4Expression(ctx.original)).length > 0 && isPage(v4Resource(body)),
    (body, ctx) => rewrite(v4Resource(body) as JsonObject & { data: unknown[] }, paginateForms(v4Expression(ctx.original))),
  );
}

function isRefEntry(value: unknown): boolean {
  return isJsonObject(value) && isJsonObject(value['@ref']);
}

/** Reverses every run of consecutive entries that differ only in their trailing ref; answers how many runs. */
function reverseTies(data: unknown[]): number {
  let runs = 0;
  const prefixOf = (entry: unknown): string | undefined => (Array.isArray(entry) && entry.length > 1 && isRefEntry(entry[entry.length - 1]) ? stringifyJson(entry.slice(0, -1)) : undefined);
  let start = 0;
  while (start < data.length) {
    const prefix = prefixOf(data[start]);
    let end = start + 1;
    while (prefix !== undefined && end < data.length && prefixOf(data[end]) === prefix) end += 1;
    if (end - start > 1) {
      data.splice(start, end - start, ...data.slice(start, end).reverse());
      runs += 1;
    }
    start = end;
  }
  return runs;
}

/** Puts the string-valued entries of a page before its integer-valued ones, keeping every other position. */
function stringsBeforeIntegers(data: unknown[]): boolean {
  const positions = data.map((entry, i) => [entry, i] as const).filter(([entry]) => typeof leadingValue(entry) === 'string' || isJsonInteger(leadingValue(entry)));
  const strings = positions.filter(([entry]) => typeof leadingValue(entry) === 'string').map(([entry]) => entry);
  const integers = positions.filter(([entry]) => typeof leadingValue(entry) !== 'string').map(([entry]) => entry);
  if (strings.length === 0 || integers.length === 0) return false;
  const reordered = [...strings, ...integers];
  let changed = false;
  positions.forEach(([entry, i], k) => {
    if (reordered[k] !== entry) changed = true;
    data[i] = reordered[k];
  });
  return changed;
}

/** True when the request's top-level form is a `paginate` (not a Map or Select over one). */
function isTopLevelPaginate(request: ProxiedRequest): boolean {
  return topLevelForm(request) === 'paginate';
}

/**
 * A fault that orders the pages of indexes created in the same run with a comparator making `mistake`; the
 * index definitions are read from the `create_index` requests the proxy relays.
 */
function orderingFault(id: string, title: string, breaks: readonly string[], description: string, mistake: OrderMistake): Fault {
  return {
    id,
    title,
    breaks,
    area: 'ordering',
    description,
    apply: () =>
      observingIndexes((indexes) => ({
        json: rewriteJson(
          (body, ctx) => topLevelPage(body, ctx) !== undefined && indexes.pagedIndex(ctx.original) !== undefined,
          (body, ctx) => resortPage(v4Resource(body)!.data as unknown[], indexes.pagedIndex(ctx.original)!.index, mistake),
        ),
      })),
  };
}

const plural = (type: EntryType): string => (type === 'boolean' || type === 'bytes' ? type : `${type}s`);
const capitalized = (text: string): string => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** A fault whose comparator has the places of `a` and `b` in the type order exchanged. */
function typeSwapFault(requirement: string, a: EntryType, b: EntryType): Fault {
  return orderingFault(
    `ORD-${a.toUpperCase()}S-AFTER-${b.toUpperCase()}S`,
    `${capitalized(plural(a))} sort after ${plural(b)}`,
    [requirement],
    `Pages of an index are ordered with ${a} and ${b} exchanged in the type order (everything else as the reference server orders it).`,
    { swapTypes: [a, b] },
  );
}

/** A fault whose comparator puts type `a` right after type `b`, a place neither accepted type order gives it. */
function typeMovedFault(requirement: string, a: EntryType, b: EntryType): Fault {
  return orderingFault(
    `ORD-${plural(a).toUpperCase()}-AFTER-${plural(b).toUpperCase()}`,
    `${capitalized(plural(a))} sort right after ${plural(b)}`,
    [requirement],
    `Pages of an index are ordered with ${plural(a)} moved right after ${plural(b)} (everything else as the reference server orders it).`,
    { typeAfter: [a, b] },
  );
}

/**
 * Entries of one null run whose document lacks the covered field move after those whose value is null by other means
 * (an array holding null): a server that tells a missing value from null. Documents are known from the answers that
 * created them.
 */
function missingAfterNullFault(): Fault {
  return {
    id: 'ORD-MISSING-AFTER-NULL',
    title: 'A missing value sorts after null',
    breaks: ['ORD-TYPE-009'],
    area: 'ordering',
    description: 'In a page of an index covering [field, ref], the entries with a null first value whose document lacks the field move after the other null entries.',
    apply: () =>
      observingIndexes((indexes) => {
        const documents = new DocumentLedger();
        return {
          json: (body, ctx) => {
            documents.observe(body, ctx.status, ctx.original);
            const page = topLevelPage(body, ctx);
            const path = page === undefined ? undefined : indexes.pagedIndex(ctx.original)?.index.valuePaths[0];
            if (page === undefined || path === undefined) return undefined;
            const nulls = page.data.filter((entry) => Array.isArray(entry) && entry[0] === null);
            const lacking = nulls.filter((entry) => getPath(documents.get((entry as unknown[])[1])?.record, path) === undefined);
            const reordered = [...nulls.filter((entry) => !lacking.includes(entry)), ...lacking];
            if (reordered.every((entry, i) => entry === nulls[i])) return undefined;
            let next = 0;
            page.data = page.data.map((entry) => (nulls.includes(entry) ? reordered[next++] : entry));
            return body;
          },
        };
      }),
  };
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
      if (!isJsonObject(expression) || !isTopLevelPaginate(request) || hasCursor(expression, 'before') || 'ts' in expression) return undefined;
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

export const PAGING_FAULTS: readonly Fault[] = [
  {
    id: 'PAGE-DROPS-LAST',
    title: 'A page drops its last entry',
    breaks: ['PAGE-SIZE-001', 'PAGE-CURSOR-003'],
    area: 'paging',
    description: 'Every non-empty page answering a `paginate` loses its last entry (cursors unchanged, so the entry is skipped).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)) && (v4Resource(body)!.data as unknown[]).length > 0,
        (body) => {
          (v4Resource(body)!.data as unknown[]).pop();
        },
      ),
    }),
  },
  {
    id: 'PAGE-AFTER-EXCLUSIVE',
    title: '`after` treated as exclusive',
    breaks: ['PAGE-CURSOR-001'],
    area: 'paging',
    description: 'A page requested with `after` loses its first entry, the one the cursor names.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => paginateForms(v4Expression(ctx.original)).some((form) => 'after' in form || (isJsonObject(form.cursor) && 'after' in form.cursor)) && isPage(v4Resource(body)) && (v4Resource(body)!.data as unknown[]).length > 0,
        (body) => {
          (v4Resource(body)!.data as unknown[]).shift();
        },
      ),
    }),
  },
  {
    id: 'PAGE-AFTER-MISSING',
    title: 'Pages followed by more entries lack `after`',
    breaks: ['PAGE-SHAPE-002'],
    area: 'paging',
    description: '`after` is removed from every page.',
    apply: () => ({
      json: rewriteJson((body) => isPage(v4Resource(body)) && 'after' in v4Resource(body)!, (body) => {
        delete v4Resource(body)!.after;
      }),
    }),
  },
  {
    id: 'PAGE-BEFORE-ON-FIRST-PAGE',
    title: 'The first page carries `before`',
    breaks: ['PAGE-SHAPE-003'],
    area: 'paging',
    description: 'A page requested without a cursor gets a `before` cursor equal to its first entry.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => {
          const forms = paginateForms(v4Expression(ctx.original));
          const resource = v4Resource(body);
          return forms.length > 0 && forms.every((form) => !('after' in form) && !('before' in form) && !('cursor' in form)) && isPage(resource) && resource.data.length > 0 && !('before' in resource);
        },
        (body) => {
          const resource = v4Resource(body)!;
          const first = (resource.data as unknown[])[0];
          resource.before = Array.isArray(first) ? first : [first];
        },
      ),
    }),
  },
  {
    id: 'PAGE-DEFAULT-SIZE-16',
    title: 'Default page size is 16',
    breaks: ['PAGE-SIZE-002'],
    area: 'paging',
    description: 'Every `paginate` without `size` is sent upstream with `size: 16`.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if ('size' in form) return n;
      form.size = jsonInt(16);
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-SIZE-UNCHECKED',
    title: 'Page sizes that are not integers are accepted',
    breaks: ['PAGE-SIZE-004'],
    area: 'paging',
    description: 'A `size` that is not an integer is replaced by 64 before it reaches the server.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if (!('size' in form) || isJsonInteger(form.size)) return n;
      form.size = jsonInt(64);
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-CURSOR-EXTRA-KEYS-IGNORED',
    title: 'A cursor object with other keys is accepted',
    breaks: ['PAGE-CURSOR-011'],
    area: 'paging',
    description: 'A `cursor` object holding anything besides one of `after` and `before` is sent with only its first such side (or as `null` when it has none), so it is served instead of refused.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      const cursor = unwrapObject(form.cursor);
      if (!isJsonObject(cursor)) return n;
      const keys = Object.keys(cursor);
      if (keys.length === 1 && (keys[0] === 'after' || keys[0] === 'before')) return n;
      const side = keys.find((k) => k === 'after' || k === 'before');
      form.cursor = side === undefined ? null : { object: { [side]: cursor[side]! } };
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-SIZE-ZERO-REFUSED',
    title: 'Page sizes below 1 are refused',
    breaks: ['PAGE-SIZE-005'],
    area: 'paging',
    description: 'A `paginate` with an integer `size` below 1 answers 400 `invalid argument`, as a server that bounds sizes from below would.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && paginateForms(v4Expression(ctx.original)).some((form) => { const size = jsonNumber(form.size); return size !== undefined && size < 1; }),
        (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Page size must be at least 1.', ['size']),
      ),
    }),
  },
  {
    id: 'PAGE-MAP-REVERSED',
    title: 'Map over a page answers entries in reverse',
    breaks: ['PAGE-MAP-001', 'PAGE-MAP-006'],
    area: 'paging',
    description: 'A page answering a query that maps over a `paginate` has its `data` reversed.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'map') && expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)) && (v4Resource(body)!.data as unknown[]).length > 1,
        (body) => {
          (v4Resource(body)!.data as unknown[]).reverse();
        },
      ),
    }),
  },
  {
    id: 'ORD-REVERSE-IGNORED',
    title: '`reverse` is ignored',
    breaks: ['ORD-REVERSE-001'],
    area: 'ordering',
    description: '`reverse` is removed from every index value definition before it reaches the server.',
    apply: () => ({ request: rewriteExpression((expression) => indexValueObjects(expression).reduce((n, value) => {
      if (!('reverse' in value)) return n;
      delete value.reverse;
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'ORD-DEFAULT-DESCENDING',
    title: 'Values sort descending by default',
    breaks: ['ORD-REVERSE-004'],
    area: 'ordering',
    description: 'Every index value definition without `reverse` is sent upstream with `reverse: true`.',
    apply: () => ({ request: rewriteExpression((expression) => indexValueObjects(expression).reduce((n, value) => {
      if ('reverse' in value) return n;
      value.reverse = true;
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-BEFORE-INCLUSIVE',
    title: '`before` treated as inclusive',
    breaks: ['PAGE-CURSOR-002', 'PAGE-CURSOR-004'],
    area: 'paging',
    description: 'A page requested with a `before` cursor also holds the entry the cursor names, at its end.',
    apply: () => ({
      json: pageAnswer((page, forms) => {
        const cursor = forms.map((form) => requestCursor(form, 'before')).find((c) => c !== undefined && c.length > 0);
        if (cursor === undefined) return false;
        page.data.push(cursor.length === 1 ? cursor[0] : cursor);
        return true;
      }),
    }),
  },
  {
    id: 'PAGE-BEFORE-MISSING',
    title: 'Pages reached with `after` lack `before`',
    breaks: ['PAGE-SHAPE-003'],
    area: 'paging',
    description: '`before` is removed from every page.',
    apply: () => ({
      json: pageAnswer((page) => {
        if (!('before' in page)) return false;
        delete page.before;
        return true;
      }),
    }),
  },
  {
    id: 'PAGE-CURSOR-WITHOUT-REF',
    title: 'Cursors of a values index lack the boundary ref',
    breaks: ['PAGE-CURSOR-005', 'PAGE-CURSOR-006'],
    area: 'paging',
    description: 'An `after` or `before` cursor of two or more elements ending with a ref loses the ref.',
    apply: () => ({
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
  },
  {
    id: 'PAGE-SIZE-OFF-BY-ONE',
    title: 'A page holds one entry more than `size`',
    breaks: ['PAGE-SIZE-001'],
    area: 'paging',
    description: 'Every integer `size` below 100000 is sent upstream one larger.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      const size = jsonNumber(form.size);
      if (!isJsonInteger(form.size) || size === undefined || size < 1 || size >= 100_000) return n;
      form.size = jsonInt(size + 1);
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-MAP-TWICE',
    title: 'Map over a page applies the lambda twice',
    breaks: ['PAGE-MAP-001', 'PAGE-MAP-006'],
    area: 'paging',
    description: 'Every `{"map": f, "collection": p}` whose collection is a `paginate` is sent upstream as a map of f over the map of f over p.',
    apply: () => ({ request: rewriteExpression((expression) => {
      // Collected first: the wrapped map is itself a map over a paginate and must not be wrapped again.
      const maps: JsonObject[] = [];
      forEachObject(expression, (object) => {
        if ('map' in object && isJsonObject(object.collection) && 'paginate' in object.collection) maps.push(object);
      });
      for (const object of maps) object.collection = { map: object.map, collection: object.collection };
      return maps.length;
    }) }),
  },
  {
    id: 'PAGE-FILTER-INVERTED',
    title: 'Filter keeps the entries its lambda rejects',
    breaks: ['PAGE-MAP-003', 'PAGE-MAP-005'],
    area: 'paging',
    description: 'The body of every `filter` lambda is negated before it reaches the server.',
    apply: () => ({ request: rewriteExpression((expression) => {
      let changed = 0;
      forEachObject(expression, (object) => {
        const lambda = 'filter' in object && 'collection' in object ? object.filter : undefined;
        if (!isJsonObject(lambda) || !('lambda' in lambda) || !('expr' in lambda)) return;
        lambda.expr = { not: lambda.expr };
        changed += 1;
      });
      return changed;
    }) }),
  },
  {
    id: 'PAGE-TS-IGNORED',
    title: 'Paginate ignores `ts`',
    breaks: ['PAGE-TS-001'],
    area: 'paging',
    description: '`ts` is removed from every `paginate` form, so the set is read as of now.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if (!('ts' in form)) return n;
      delete form.ts;
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'ORD-STRINGS-BEFORE-INTEGERS',
    title: 'Strings sort before integers',
    breaks: ['ORD-TYPE-001', 'ORD-TYPE-010'],
    area: 'ordering',
    description: 'In a page holding both, string-valued entries are moved ahead of integer-valued ones (each group keeps its order).',
    apply: () => ({ json: pageAnswer((page) => stringsBeforeIntegers(page.data)) }),
  },
  {
    id: 'ORD-TIE-BREAK-REVERSED',
    title: 'Equal values are ordered by descending ref',
    breaks: ['ORD-CONTENT-010'],
    area: 'ordering',
    description: 'Runs of page entries equal in every value but the trailing ref are reversed.',
    apply: () => ({ json: pageAnswer((page) => reverseTies(page.data)) }),
  },
  {
    id: 'PAGE-OFFSET-CURSORS',
    title: 'Cursors are offsets into the set as it is now',
    breaks: ['PAGE-CURSOR-007'],
    area: 'paging',
    description: 'A page asked for with an `after` cursor the proxy relayed starts as many entries into the current set as preceded the cursor when it was issued, so inserts before the position repeat entries.',
    apply: offsetCursorHooks,
  },
  {
    id: 'PAGE-REF-LITERAL-CURSOR-REJECTED',
    title: 'A cursor holding `@ref` literals is rejected',
    breaks: ['PAGE-CURSOR-008'],
    area: 'paging',
    description: 'A successful `paginate` whose `after` or `before` cursor holds a `{"@ref": …}` literal (as the driver resends it) answers 400 `invalid argument`.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && paginateForms(v4Expression(ctx.original)).some((form) => (['after', 'before'] as const).some((which) => {
          const cursor = form[which] ?? (isJsonObject(form.cursor) ? form.cursor[which] : undefined);
          return Array.isArray(cursor) && cursor.some(isRefLiteral);
        })),
        (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Cursor refs must be written as Ref expressions.', ['after']),
      ),
    }),
  },
  {
    id: 'PAGE-PARTIAL-CURSOR-IGNORED',
    title: 'A client-built cursor without a ref is ignored',
    breaks: ['PAGE-CURSOR-009'],
    area: 'paging',
    description: 'An `after` cursor array holding no ref is removed, so the page starts at the beginning of the set.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      const cursor = form.after;
      if (!Array.isArray(cursor) || cursor.length === 0 || cursor.some(isRefLiteral)) return n;
      delete form.after;
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-CURSOR-OBJECT-IGNORED',
    title: '`cursor: {after: c}` is ignored',
    breaks: ['PAGE-CURSOR-010'],
    area: 'paging',
    description: '`cursor` is removed from every `paginate` form, so only the direct `after`/`before` position a page.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if (!('cursor' in form)) return n;
      delete form.cursor;
      return n + 1;
    }, 0)) }),
  },
  {
    id: 'PAGE-MAP-PARAMS-SWAPPED',
    title: 'A lambda over several parameters binds them right to left',
    breaks: ['PAGE-MAP-002'],
    area: 'paging',
    description: 'The parameter list of every `map` lambda with two or more parameters is reversed.',
    apply: () => ({ request: rewriteExpression((expression) => {
      let changed = 0;
      forEachObject(expression, (object) => {
        const lambda = 'map' in object && 'collection' in object ? object.map : undefined;
        if (!isJsonObject(lambda) || !Array.isArray(lambda.lambda) || lambda.lambda.length < 2) return;
        lambda.lambda.reverse();
        changed += 1;
      });
      return changed;
    }) }),
  },
  {
    id: 'PAGE-SELECT-DATA-GIVES-PAGE',
    title: 'Select ["data"] on a page answers the page',
    breaks: ['PAGE-MAP-004'],
    area: 'paging',
    description: 'A top-level `select` over a `paginate` that answered an array answers `{"data": array}` instead.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 200 && topLevelForm(ctx.original) === 'select' && expressionUses(ctx.original, 'paginate') && isJsonObject(body) && Array.isArray(body.resource),
        (body) => {
          const holder = body as JsonObject;
          holder.resource = { data: holder.resource };
        },
      ),
    }),
  },
  {
    id: 'PAGE-BARE-ARRAY',
    title: 'Paginate answers a bare array',
    breaks: ['PAGE-SHAPE-001'],
    area: 'paging',
    description: 'A top-level `paginate` answers its entries as an array, without the page object and its cursors.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelPage(body, ctx) !== undefined,
        (body) => {
          const holder = body as JsonObject;
          holder.resource = (holder.resource as JsonObject).data;
        },
      ),
    }),
  },
  {
    id: 'PAGE-EMPTY-NULL-CURSORS',
    title: 'An empty page carries null cursors',
    breaks: ['PAGE-SHAPE-004'],
    area: 'paging',
    description: 'A page with no entries and no cursors gets `"after": null` and `"before": null`.',
    apply: () => ({
      json: pageAnswer((page) => {
        if (page.data.length > 0 || 'after' in page || 'before' in page) return false;
        page.after = null;
        page.before = null;
        return true;
      }),
    }),
  },
  {
    id: 'PAGE-DESCENDING',
    title: 'Each page lists its entries in descending index order',
    breaks: ['PAGE-SHAPE-005'],
    area: 'paging',
    description: 'The entries of every top-level page with two or more entries are reversed (cursors unchanged).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 1,
        (body) => {
          (v4Resource(body)!.data as unknown[]).reverse();
        },
      ),
    }),
  },
  {
    id: 'PAGE-SIZE-MAX-EXCLUSIVE',
    title: '`size` 100000 is rejected',
    breaks: ['PAGE-SIZE-003'],
    area: 'paging',
    description: 'A `paginate` with `size` 100000 answers 400 `invalid argument` (the bound checked as exclusive).',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && paginateForms(v4Expression(ctx.original)).some((form) => jsonNumber(form.size) === 100_000),
        (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Page size must be between 1 and 100000 (exclusive).', ['size']),
      ),
    }),
  },
  {
    id: 'PAGE-AFTER-NULL-IS-FIRST-PAGE',
    title: '`after: null` answers the first page',
    breaks: ['PAGE-CURSOR-013'],
    area: 'paging',
    description: 'A `paginate` with `after: null` (or `cursor: {after: null}`) is served as one without a cursor, as the reference server did before it followed the real service.',
    apply: () => ({
      request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
        if (!nullCursor(form, 'after')) return n;
        delete form.after;
        if ('cursor' in form) form.cursor = null;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'PAGE-BEFORE-NULL-NOT-ECHOED',
    title: 'A page asked for with `before: null` lacks `after`',
    breaks: ['PAGE-CURSOR-013', 'FN-SET-005'],
    area: 'paging',
    description: 'The page answering `before: null` does not carry the null cursor back as `after: [null]`, as the reference server did before.',
    apply: () => ({
      json: pageAnswer((page, forms) => {
        if (!forms.some((form) => nullCursor(form, 'before')) || !('after' in page)) return false;
        delete page.after;
        return true;
      }),
    }),
  },
  {
    id: 'PAGE-BEFORE-IS-FIRST-ENTRY',
    title: 'A page reached with `after` names its first entry as `before`',
    breaks: ['PAGE-CURSOR-012'],
    area: 'paging',
    description: 'The `before` of a page reached with `after` is the cursor of the page’s first entry instead of the cursor sent, which differs when the client sent a prefix such as `[20]`.',
    apply: () => ({ failpoints: ['PAGE-BEFORE-IS-FIRST-ENTRY'] }),
  },
  {
    id: 'PAGE-CURSOR-ECHOED-BARE',
    title: 'A bare cursor value comes back bare',
    breaks: ['PAGE-CURSOR-012'],
    area: 'paging',
    description: 'A page reached with a cursor that is one value, not an array (`after: 20`), carries it back as that value instead of `[20]`.',
    apply: () => ({
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
  },
  {
    id: 'PAGE-NEGATIVE-SIZE-BOTH-SIDES',
    title: 'A negative size carries the cursor on both sides',
    breaks: ['PAGE-SIZE-006'],
    area: 'paging',
    description: 'An empty page asked for with a negative `size` and a cursor carries the cursor as both `before` and `after`, as size 0 does.',
    apply: () => ({
      json: pageAnswer((page, forms) => {
        if (!forms.some((form) => (jsonNumber(form.size) ?? 0) < 0)) return false;
        if ('before' in page && !('after' in page)) page.after = page.before;
        else if ('after' in page && !('before' in page)) page.before = page.after;
        else return false;
        return true;
      }),
    }),
  },
  {
    id: 'PAGE-CURSOR-OBJECT-OWN-TEXT',
    title: 'A bad cursor object is refused with another description',
    breaks: ['PAGE-CURSOR-011'],
    area: 'paging',
    description: 'A `cursor` object without exactly one of `after` and `before` is refused with "Cursor must be an object with either after or before, Object provided.", the reference server’s own text before.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => ctx.status === 400 && expressionUses(ctx.original, 'cursor'),
        (body) => {
          const errors = v4Errors(body).filter((error) => String(error.description).startsWith('Invalid cursor object.'));
          for (const error of errors) error.description = 'Cursor must be an object with either after or before, Object provided.';
          return errors.length;
        },
      ),
    }),
  },
  {
    id: 'PAGE-SOURCES-IGNORED',
    title: '`sources: true` is ignored',
    breaks: ['PAGE-SOURCES-001'],
    area: 'core',
    description: 'A `paginate` with `sources` is served as one without it, so its elements come without their sources.',
    apply: () => ({
      request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
        if (!('sources' in form)) return n;
        delete form.sources;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'PAGE-DOC-REF-REFUSED',
    title: 'Paginate of a document ref is refused',
    breaks: ['PAGE-DOC-001'],
    area: 'core',
    description: 'Paginate of a document ref answers 400 `invalid argument` "Set expected, Ref provided.", as the reference server did before.',
    apply: () => ({ failpoints: ['PAGE-DOC-REF-REFUSED'] }),
  },
  orderingFault('ORD-INTEGERS-AS-TEXT', 'Integers sort by their decimal text', ['ORD-CONTENT-001'], 'Integers compare as the strings of their digits (so 10 < 2 and -1 < -10).', { integersAsText: true }),
  orderingFault('ORD-DECIMALS-AS-TEXT', 'Decimals sort by their text', ['ORD-CONTENT-002'], 'Decimals compare as their JSON text instead of numerically.', { decimalsAsText: true }),
  orderingFault('ORD-STRINGS-BY-CODE-POINT', 'Strings sort by code point', ['ORD-CONTENT-003'], 'Strings compare by code point instead of by the default collation (so "B" < "a" and "f" < "é").', { stringsByCodePoint: true }),
  orderingFault('ORD-ARRAYS-BY-LENGTH', 'Shorter arrays sort first', ['ORD-CONTENT-004'], 'Arrays compare by length first, then element by element.', { arraysByLengthFirst: true }),
  orderingFault('ORD-OBJECTS-BY-KEY-COUNT', 'Objects with fewer keys sort first', ['ORD-CONTENT-005'], 'Objects compare by their number of keys first, then by their entries.', { objectsByKeyCountFirst: true }),
  orderingFault('ORD-TIMES-AS-TEXT', 'Times sort by their text', ['ORD-CONTENT-006'], 'Times compare as their RFC 3339 strings (so a fraction sorts before a whole second).', { timesAsText: true }),
  orderingFault('ORD-TRUE-BEFORE-FALSE', '`true` sorts before `false`', ['ORD-CONTENT-007'], 'Booleans compare with true first.', { trueBeforeFalse: true }),
  orderingFault('ORD-REF-IDS-AS-TEXT', 'Ref ids sort as text', ['ORD-CONTENT-008'], 'Refs of one collection compare their ids as strings (so 10 < 2).', { refIdsAsText: true }),
  orderingFault('ORD-REFS-BY-COLLECTION-FIRST', 'Refs sort by collection before id', ['ORD-CONTENT-008'], 'Refs of different collections compare their collections first, then their ids.', { refsByCollectionFirst: true }),
  orderingFault('ORD-VALUES-FROM-LAST', 'Entries sort on their last value first', ['ORD-CONTENT-009'], 'Entries of several values compare the last covered value first and the first value last.', { columnsFromLast: true }),
  orderingFault('ORD-REVERSE-KEEPS-TYPE-ORDER', '`reverse` keeps the type order ascending', ['ORD-REVERSE-003'], 'A reversed value flips the order within each type but leaves integers first and nulls last.', { reverseKeepsTypeOrder: true }),
  typeSwapFault('ORD-TYPE-002', 'string', 'array'),
  typeSwapFault('ORD-TYPE-003', 'array', 'object'),
  typeSwapFault('ORD-TYPE-004', 'object', 'ref'),
  typeSwapFault('ORD-TYPE-005', 'ref', 'time'),
  typeSwapFault('ORD-TYPE-006', 'time', 'date'),
  typeSwapFault('ORD-TYPE-007', 'date', 'boolean'),
  typeMovedFault('ORD-TYPE-009', 'decimal', 'null'),
  typeMovedFault('ORD-TYPE-011', 'decimal', 'string'),
  typeMovedFault('ORD-TYPE-012', 'bytes', 'null'),
  missingAfterNullFault(),
  {
    id: 'ORD-REVERSE-FLIPS-ALL-VALUES',
    title: '`reverse` on one value reverses every value',
    breaks: ['ORD-REVERSE-002'],
    area: 'ordering',
    description: 'In an index definition where one value has `reverse: true`, every value without `reverse` is sent with `reverse: true`.',
    apply: () => ({ request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
      const values = (Array.isArray(params.values) ? params.values : []).map(unwrapObject).filter((value): value is JsonObject => value !== undefined);
      if (!values.some((value) => value.reverse === true)) return n;
      const plain = values.filter((value) => !('reverse' in value));
      for (const value of plain) value.reverse = true;
      return n + plain.length;
    }, 0)) }),
  },
  {
    id: 'ORD-BACKWARD-PAGE-UNREVERSED',
    title: 'Pages read backward through a reversed index come in ascending order',
    breaks: ['ORD-REVERSE-005'],
    area: 'ordering',
    description: 'A page asked for with `before` from an index with a reversed value lists its entries in reverse of the index order.',
    apply: () =>
      observingIndexes((indexes) => ({
        json: rewriteJson(
          (body, ctx) => {
            const paged = indexes.pagedIndex(ctx.original);
            const page = topLevelPage(body, ctx);
            return page !== undefined && page.data.length > 1 && paged !== undefined && paged.index.reverse.includes(true) && hasCursor(paged.form, 'before');
          },
          (body) => {
            (v4Resource(body)!.data as unknown[]).reverse();
          },
        ),
      })),
  },
];
