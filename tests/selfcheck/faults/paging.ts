// Faults of the `paging` and `ordering` areas: pages, cursors, sizes and the order of index entries.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import { expressionUses, rewriteExpression, rewriteJson, v4Expression, v4Resource } from './rewrites.js';

function isPage(resource: JsonObject | undefined): resource is JsonObject & { data: unknown[] } {
  return resource !== undefined && Array.isArray(resource.data);
}

/** The `paginate` forms of an expression. */
function paginateForms(expression: unknown): JsonObject[] {
  const forms: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if ('paginate' in object) forms.push(object);
  });
  return forms;
}

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
    title: 'Out-of-range page sizes are accepted',
    breaks: ['PAGE-SIZE-004'],
    area: 'paging',
    description: 'A `size` of 0, below 0, above 100000 or not an integer is replaced by 64 before it reaches the server.',
    apply: () => ({ request: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if (!('size' in form)) return n;
      const size = jsonNumber(form.size);
      if (size !== undefined && Number.isInteger(size) && size >= 1 && size <= 100_000) return n;
      form.size = jsonInt(64);
      return n + 1;
    }, 0)) }),
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
];
