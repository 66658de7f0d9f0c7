// Faults of the `paging` and `ordering` areas: pages, cursors, sizes and the order of index entries.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import { expressionUses, rewriteJson, v4Expression, v4Resource } from './rewrites.js';

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

function rewriteExpression(rewrite: (expression: unknown) => number): Fault['apply'] {
  return () => ({
    request: (req) => {
      const expression = v4Expression(req);
      if (expression === undefined) return undefined;
      return rewrite(expression) > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
    },
  });
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
    apply: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if ('size' in form) return n;
      form.size = jsonInt(16);
      return n + 1;
    }, 0)),
  },
  {
    id: 'PAGE-SIZE-UNCHECKED',
    title: 'Out-of-range page sizes are accepted',
    breaks: ['PAGE-SIZE-004'],
    area: 'paging',
    description: 'A `size` of 0, below 0, above 100000 or not an integer is replaced by 64 before it reaches the server.',
    apply: rewriteExpression((expression) => paginateForms(expression).reduce((n, form) => {
      if (!('size' in form)) return n;
      const size = jsonNumber(form.size);
      if (size !== undefined && Number.isInteger(size) && size >= 1 && size <= 100_000) return n;
      form.size = jsonInt(64);
      return n + 1;
    }, 0)),
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
    apply: rewriteExpression((expression) => indexValueObjects(expression).reduce((n, value) => {
      if (!('reverse' in value)) return n;
      delete value.reverse;
      return n + 1;
    }, 0)),
  },
  {
    id: 'ORD-DEFAULT-DESCENDING',
    title: 'Values sort descending by default',
    breaks: ['ORD-REVERSE-004'],
    area: 'ordering',
    description: 'Every index value definition without `reverse` is sent upstream with `reverse: true`.',
    apply: rewriteExpression((expression) => indexValueObjects(expression).reduce((n, value) => {
      if ('reverse' in value) return n;
      value.reverse = true;
      return n + 1;
    }, 0)),
  },
];
