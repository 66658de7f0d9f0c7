// Faults of the `indexes` area: index records and states, uniqueness, rules on renames and changes, Match and
// the composite sets. Request rewrites make the server do the wrong thing; answer rewrites make it say it.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import {
  expressionUses,
  nativeCollectionOf,
  records,
  renameKeys,
  replaceObject,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  v4Errors,
  v4Resource,
  withJsonBody,
  withStatus,
  bodyJson,
} from './rewrites.js';

/** The object a `{"object": …}` wrapper holds, or the value itself when it is a plain object. */
function unwrapObject(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  return isJsonObject(value.object) && Object.keys(value).length === 1 ? value.object : value;
}

/** The params objects of every `create_index` in an expression. */
function createIndexParams(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    const params = 'create_index' in object ? unwrapObject(object.create_index) : undefined;
    if (params) found.push(params);
  });
  return found;
}

/** True for `{"index": …}` or a long-form ref into `indexes`. */
function isIndexTarget(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if ('index' in value && Object.keys(value).length === 1) return true;
  const ref = isJsonObject(value['@ref']) ? value['@ref'] : undefined;
  const parent = ref && isJsonObject(ref.collection) ? ref.collection['@ref'] : undefined;
  return isJsonObject(parent) && parent.id === 'indexes' && !('collection' in parent);
}

/** The params objects of every Update/Replace of an index record. */
function indexUpdateParams(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    const target = object.update ?? object.replace;
    const params = target !== undefined && isIndexTarget(target) ? unwrapObject(object.params) : undefined;
    if (params) found.push(params);
  });
  return found;
}

function isPage(resource: JsonObject | undefined): resource is JsonObject & { data: unknown[] } {
  return resource !== undefined && Array.isArray(resource.data);
}

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

const RESERVED_INDEX_NAMES = new Set(['events', 'sets', 'self', 'instances', '_']);

const NO_SUCH_INDEX = new Set(['invalid ref', 'instance not found']);

export const INDEX_FAULTS: readonly Fault[] = [
  {
    id: 'IDX-ACTIVE-NEVER',
    title: 'Index records report `active: false` forever',
    breaks: ['IDX-STATE-001', 'IDX-STATE-004'],
    area: 'indexes',
    description: 'Every index record in an answer reports `active: false`, built or not.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => {
        let changed = 0;
        for (const record of records(body)) {
          if (nativeCollectionOf(record) === 'indexes' && record.active === true) {
            record.active = false;
            changed += 1;
          }
        }
        return changed;
      }),
    }),
  },
  {
    id: 'IDX-ACTIVE-BEFORE-BUILT',
    title: 'An index is active before its build covered the existing documents',
    breaks: ['IDX-STATE-002'],
    area: 'indexes',
    description: 'Every `create_index` without `active` is sent with `active: true`: the index answers active at once and never indexes the documents that existed before it.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if ('active' in params) return n;
        params.active = true;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-UNIQUE-IGNORED',
    title: 'Unique violations are accepted',
    breaks: ['IDX-UNIQUE-001', 'IDX-UNIQUE-002'],
    area: 'indexes',
    description: '`unique` is removed from every index definition and index update, so duplicate entries answer 201/200.',
    apply: () => ({
      request: rewriteExpression((expression) => [...createIndexParams(expression), ...indexUpdateParams(expression)].reduce((n, params) => {
        if (!('unique' in params)) return n;
        delete params.unique;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-RESERVED-NAME-ACCEPTED',
    title: 'Reserved index names are accepted',
    breaks: ['IDX-DEF-004'],
    area: 'indexes',
    description: 'A `create_index` named `events`, `sets`, `self`, `instances` or `_` goes upstream under another name, so it succeeds.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (typeof params.name !== 'string' || !RESERVED_INDEX_NAMES.has(params.name)) return n;
        params.name = `accepted_${params.name === '_' ? 'underscore' : params.name}_${Math.random().toString(36).slice(2, 8)}`;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-PARTITIONS-UNCHECKED',
    title: 'Out-of-range partitions are accepted',
    breaks: ['LIMIT-PART-001', 'LIMIT-PART-002'],
    area: 'indexes',
    description: '`partitions` outside 1..8 in a `create_index` is replaced by 1 before it reaches the server.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        const partitions = jsonNumber(params.partitions);
        if (partitions === undefined || (partitions >= 1 && partitions <= 8)) return n;
        params.partitions = jsonInt(1);
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-IMMUTABLE-FIELDS-CHANGED',
    title: 'Updates of terms, values or partitions are accepted',
    breaks: ['IDX-RULE-004', 'IDX-RULE-005', 'IDX-RULE-006'],
    area: 'indexes',
    description: '`terms`, `values` and `partitions` are removed from Update/Replace params of an index, so the change answers 200.',
    apply: () => ({
      request: rewriteExpression((expression) => indexUpdateParams(expression).reduce((n, params) => {
        let removed = 0;
        for (const field of ['terms', 'values', 'partitions']) {
          if (field in params) {
            delete params[field];
            removed += 1;
          }
        }
        return n + removed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-MISSING-INDEX-EMPTY',
    title: 'A Match on a missing or deleted index reads as an empty set',
    breaks: ['IDX-RULE-007', 'SET-MATCH-006'],
    area: 'indexes',
    description: 'An `invalid ref`/`instance not found` error answering a `paginate` of a `match` becomes 200 `{"resource": {"data": []}}`.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status >= 400 && expressionUses(ctx.original, 'paginate') && expressionUses(ctx.original, 'match') && v4Errors(bodyJson(response)).some((e) => NO_SUCH_INDEX.has(String(e.code))),
        (response) => withJsonBody(withStatus(response, 200), { resource: { data: [] } }),
      ),
    }),
  },
  {
    id: 'IDX-VALUES-OUT-OF-ORDER',
    title: 'Several covered values come back in reverse of `values`',
    breaks: ['IDX-VALUE-001'],
    area: 'indexes',
    description: 'In pages whose entries are all arrays of two or more values, each entry is reversed.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)),
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          if (data.length === 0 || !data.every((e) => Array.isArray(e) && e.length > 1)) return 0;
          for (const entry of data) (entry as unknown[]).reverse();
          return data.length;
        },
      ),
    }),
  },
  {
    id: 'SET-TAG-DROPPED',
    title: 'Set references render without their `@set` tag',
    breaks: ['SET-MATCH-001', 'SET-REF-004'],
    area: 'indexes',
    description: 'Every `{"@set": x}` in an answer is replaced by `x`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => unwrapSets(body)) }),
  },
  {
    id: 'SET-MATCH-ONE-ELEMENT-ARRAY',
    title: 'A one-element array term does not match like the bare scalar',
    breaks: ['SET-MATCH-002'],
    area: 'indexes',
    description: 'In every `match` whose `terms` is a one-element array of a scalar, the element is replaced by a value no document holds.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length !== 1) return;
          const [term] = object.terms;
          if (Array.isArray(term) || isJsonObject(term)) return;
          object.terms = [`${typeof term === 'string' ? term : stringifyJson(term)}\u0000not-the-scalar`];
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'SET-UNION-DROPS-ENTRY',
    title: 'Union drops an entry',
    breaks: ['SET-UNION-001'],
    area: 'indexes',
    description: 'A page of a `paginate` over a `union` holding more than one entry loses its last entry.',
    apply: () => ({ json: pageOf('union', (data) => data.length > 1 && data.pop() !== undefined) }),
  },
  {
    id: 'SET-INTERSECTION-IS-UNION',
    title: 'Intersection answers the union',
    breaks: ['SET-INTERSECT-001', 'SET-INTERSECT-002'],
    area: 'indexes',
    description: 'Every `intersection` in a request is sent upstream as a `union`.',
    apply: () => ({ request: rewriteExpression((expression) => renameKeys(expression, 'intersection', 'union')) }),
  },
  {
    id: 'SET-DIFFERENCE-REVERSED',
    title: 'Difference subtracts the first set from the second',
    breaks: ['SET-DIFF-001'],
    area: 'indexes',
    description: 'The operands of every two-operand `difference` are swapped.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (Array.isArray(object.difference) && object.difference.length === 2) {
            object.difference.reverse();
            changed += 1;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'SET-DISTINCT-IGNORED',
    title: 'Distinct keeps duplicates',
    breaks: ['SET-DISTINCT-001'],
    area: 'indexes',
    description: 'Every `{"distinct": s}` is sent upstream as `s`.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (Object.keys(object).length === 1 && isJsonObject(object.distinct)) {
            replaceObject(object, object.distinct);
            changed += 1;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'SET-JOIN-IGNORES-TARGET',
    title: 'Join answers its source set',
    breaks: ['SET-JOIN-001', 'SET-JOIN-002'],
    area: 'indexes',
    description: 'Every `{"join": s, "with": t}` is sent upstream as `s`.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (Object.keys(object).length === 2 && 'with' in object && isJsonObject(object.join)) {
            replaceObject(object, object.join);
            changed += 1;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'SET-DOCUMENTS-DROPS-FIRST',
    title: 'Documents() drops the first document',
    breaks: ['SET-DOCS-001'],
    area: 'indexes',
    description: 'A page of a `paginate` over `documents` loses its first entry.',
    apply: () => ({ json: pageOf('documents', (data) => data.length > 0 && data.shift() !== undefined) }),
  },
];

