// Faults of the `indexes` area: index records and states, uniqueness, rules on renames and changes, Match and
// the composite sets. Request rewrites make the server do the wrong thing; answer rewrites make it say it.
import type { Fault, JsonResponseContext, ProxiedRequest } from '../fault.js';
import { forEachObject, getPath, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import {
  acceptedModification,
  expressionUses,
  hasErrorCode,
  nativeCollectionOf,
  records,
  renameKeys,
  replaceObject,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  v4Errors,
  v4Resource,
  withJsonBody,
  withStatus,
  bodyJson,
  topLevelForm,
  v4Expression,
} from './lib/rewrites.js';
import { DocumentLedger, type FieldPath, type IndexDefinitions, type PageResource, createIndexParams, isPage, observingIndexes, topLevelPage, indexName, matchedIndexName, paginateForms, unwrapObject, v4ErrorResponse } from './lib/index-tracking.js';

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

/** The long-form ref of the index `name`. */
function indexRef(name: string): JsonObject {
  return { '@ref': { id: name, collection: { '@ref': { id: 'indexes' } } } };
}

/** The record a server would answer for a `create_index` with `params` it accepted (for faults that accept what it refused). */
function fabricatedIndexRecord(params: JsonObject): JsonObject {
  const name = typeof params.name === 'string' ? params.name : 'index';
  const collection = isJsonObject(params.source) && typeof params.source.collection === 'string' ? params.source.collection : undefined;
  const source = collection === undefined ? params.source : { '@ref': { id: collection, collection: { '@ref': { id: 'collections' } } } };
  return { ref: indexRef(name), ts: jsonInt(Date.now() * 1000), active: true, serialized: true, name, source, partitions: jsonInt(1) };
}

/** Index records anywhere in an answer. */
function indexRecords(body: unknown): JsonObject[] {
  return records(body).filter((record) => nativeCollectionOf(record) === 'indexes');
}

/** The top-level `{"update": {"index": from}, "params": {…name: to…}}` of a request, if it renames an index. */
function renameOf(expression: unknown): { from: string; to: string } | undefined {
  if (!isJsonObject(expression)) return undefined;
  const from = indexName(expression.update);
  const to = unwrapObject(expression.params)?.name;
  return from !== undefined && typeof to === 'string' && to !== from ? { from, to } : undefined;
}

/** Every name in a `{"delete": {"index": name}}` of an expression. */
function deletedIndexNames(expression: unknown): string[] {
  const names: string[] = [];
  forEachObject(expression, (object) => {
    const name = indexName(object.delete);
    if (name !== undefined) names.push(name);
  });
  return names;
}

/** The source objects of a `source` (a lone collection expression becomes one source object). */
function sourceObjects(source: unknown): unknown[] {
  return Array.isArray(source) ? source : [{ object: { collection: source } }];
}

/** True for a source object whose collection is the wildcard `_`. */
function isWildcardSource(item: unknown): boolean {
  const object = unwrapObject(item);
  return object !== undefined && (object.collection === '_' || object.class === '_');
}

/** The binding values (`fields` entries) of every source object of every `create_index` in an expression. */
function bindingHolders(expression: unknown): JsonObject[] {
  return createIndexParams(expression).flatMap((params) => (Array.isArray(params.source) ? params.source : [])
    .map((item) => unwrapObject(unwrapObject(item)?.fields))
    .filter((fields): fields is JsonObject => fields !== undefined));
}

const READ_WRITE_FORMS = ['get', 'create', 'update', 'replace', 'delete', 'paginate', 'match', 'exists', 'documents', 'insert', 'remove'];

/** The `match` forms of an expression holding a `{"index": …}` and no `terms`. */
function termlessMatch(form: JsonObject): boolean {
  const set = form.paginate;
  return isJsonObject(set) && indexName(set.match) !== undefined && !('terms' in set);
}

/** True when the top-level expression is an `equals` of operands at least one of which holds a Match. */
function isSetEquality(request: ProxiedRequest): boolean {
  const expression = v4Expression(request);
  return isJsonObject(expression) && Array.isArray(expression.equals) && expressionUses(request, 'match');
}

/** True when two JSON values have the same text (both undefined counts as different: nothing to compare). */
function sameJson(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && stringifyJson(a) === stringifyJson(b);
}

/**
 * A successful top-level page of `{"match": {"index": name}, "terms": t}` where the index was seen with exactly one
 * term whose document path is known, no values and a single source collection: what the document-ledger faults
 * work on.
 */
function singleTermLookup(indexes: IndexDefinitions, body: unknown, ctx: JsonResponseContext): { page: PageResource; collection: string; path: FieldPath; term: unknown; viaBinding: boolean } | undefined {
  const page = topLevelPage(body, ctx);
  const paged = page === undefined ? undefined : indexes.pagedIndex(ctx.original);
  if (page === undefined || paged === undefined) return undefined;
  const { index, form } = paged;
  const path = index.termPaths.length === 1 ? index.termPaths[0] : undefined;
  const set = form.paginate as JsonObject;
  if (path === undefined || index.reverse.length > 0 || index.sourceCollection === undefined || !('terms' in set)) return undefined;
  const term = Array.isArray(set.terms) && set.terms.length === 1 ? set.terms[0] : set.terms;
  return { page, collection: index.sourceCollection, path, term, viaBinding: index.termIsBinding[0] === true };
}

/** Array term values indexed as one value: documents whose term (a field, or a binding when `viaBinding`) holds an array drop out of Match pages. */
function arrayTermWholeFault(id: string, title: string, requirement: string, description: string, viaBinding: boolean): Fault {
  return {
    id,
    title,
    breaks: [requirement],
    area: 'indexes',
    description,
    apply: () =>
      observingIndexes((indexes) => {
        const documents = new DocumentLedger();
        return {
          json: (body, ctx) => {
            documents.observe(body, ctx.status, ctx.original);
            const lookup = singleTermLookup(indexes, body, ctx);
            if (lookup === undefined || lookup.viaBinding !== viaBinding) return undefined;
            const kept = lookup.page.data.filter((entry) => !Array.isArray(getPath(documents.get(entry)?.record, lookup.path)));
            if (kept.length === lookup.page.data.length) return undefined;
            lookup.page.data = kept;
            return body;
          },
        };
      }),
  };
}

/** Names the SD reserves and the real service accepts (IDX-DEF-009). */
const SD_RESERVED_INDEX_NAMES = new Set(['events', 'sets', 'self', 'instances']);

const NO_SUCH_INDEX = new Set(['invalid ref', 'instance not found']);

/** Keys of the v4 expressions that build a set (and the `@set` tag of a set sent back as a value). */
const SET_EXPRESSIONS = ['match', 'union', 'intersection', 'difference', 'distinct', 'join', 'documents', '@set'];

/** The argument of a top-level `{"<form>": …}` when it is a set expression, e.g. `{"get": {"match": …}}`. */
function topLevelSetArgument(request: ProxiedRequest, form: 'get' | 'exists'): boolean {
  const expression = v4Expression(request);
  if (!isJsonObject(expression) || topLevelForm(request) !== form) return false;
  const argument = expression[form];
  return isJsonObject(argument) && SET_EXPRESSIONS.some((key) => key in argument);
}

export const INDEX_FAULTS: readonly Fault[] = [
  {
    id: 'INDEX-UPDATE-UNCHECKED',
    title: 'Update and Replace of an index store what create_index refuses',
    breaks: ['IDX-DEF-007'],
    area: 'indexes',
    description: 'A top-level `update` or `replace` of an index refused with `validation failed` answers 200 with its ref, as a server that checks index definitions on creation only would (nothing is written).',
    apply: () => acceptedModification((body, target) => hasErrorCode(body, 'validation failed') && schemaRefOf(target)?.kind === 'index'),
  },
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
    description: 'An index built in the background is marked `active: true` without indexing the documents that existed before it (the server\'s failpoint IDX-ACTIVE-BEFORE-BUILT).',
    apply: () => ({ failpoints: ['IDX-ACTIVE-BEFORE-BUILT'] }),
  },
  {
    id: 'IDX-ACTIVE-TRUE-PARTIAL-BUILD',
    title: 'An index created with `active: true` covers only some existing documents',
    breaks: ['IDX-STATE-005'],
    area: 'indexes',
    description: 'An index created with `active: true` indexes every other document that existed before it (the server\'s failpoint IDX-ACTIVE-TRUE-PARTIAL-BUILD), neither the SD\'s none nor the service\'s all.',
    apply: () => ({ failpoints: ['IDX-ACTIVE-TRUE-PARTIAL-BUILD'] }),
  },
  {
    id: 'IDX-SMALL-BUILD-ASYNC',
    title: 'A small index is reported as building',
    breaks: ['IDX-STATE-008'],
    area: 'indexes',
    description: 'The record answering a top-level `create_index` without `active` reports `active: false`, as a server that builds every index in the background answers.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create_index' && createIndexParams(v4Expression(ctx.original)).every((params) => !('active' in params)),
        (body) => indexRecords(body).reduce((n, record) => (record.active === true ? ((record.active = false), n + 1) : n), 0),
      ),
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
    title: 'The reserved index name `_` is accepted',
    breaks: ['IDX-DEF-008'],
    area: 'indexes',
    description: 'A `create_index` named `_` goes upstream under another name, so it succeeds.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (params.name !== '_') return n;
        params.name = `accepted_underscore_${Math.random().toString(36).slice(2, 8)}`;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-SD-RESERVED-NAME-WRONG-CODE',
    title: 'An index name the SD reserves is refused with the wrong error',
    breaks: ['IDX-DEF-009'],
    area: 'indexes',
    description: 'The `validation failed` answering a `create_index` named `events`, `sets`, `self` or `instances` is reported with code `invalid argument`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && createIndexParams(v4Expression(ctx.original)).some((params) => typeof params.name === 'string' && SD_RESERVED_INDEX_NAMES.has(params.name)),
        (body) => v4Errors(body).reduce((n, error) => (error.code === 'validation failed' ? ((error.code = 'invalid argument'), n + 1) : n), 0),
      ),
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
    id: 'IDX-SOURCE-CHANGE-ACCEPTED',
    title: 'An Update changing an index\'s source is accepted',
    breaks: ['IDX-RULE-012'],
    area: 'indexes',
    description: '`source` is removed from Update/Replace params of an index, so the change answers 200 (and the index keeps its source).',
    apply: () => ({
      request: rewriteExpression((expression) => indexUpdateParams(expression).reduce((n, params) => ('source' in params ? (delete params.source, n + 1) : n), 0)),
    }),
  },
  {
    id: 'IDX-SAME-DEFINITION-REFUSED',
    title: 'An Update repeating an index\'s terms and values is refused',
    breaks: ['IDX-RULE-004'],
    area: 'indexes',
    description: 'A 200 answering an Update of an index whose params carry `terms` or `values` becomes 400 `validation failed`, as a server refusing those fields whatever their value answers.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && indexUpdateParams(v4Expression(ctx.original)).some((params) => 'terms' in params || 'values' in params),
        (response) => v4ErrorResponse(response, 400, 'validation failed', 'document data is not valid.', ['update']),
      ),
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
    breaks: ['SET-UNION-002'],
    area: 'indexes',
    description: 'A page of a `paginate` over a `union` holding more than one entry loses its last entry.',
    apply: () => ({ json: pageOf('union', (data) => data.length > 1 && data.pop() !== undefined) }),
  },
  {
    id: 'SET-INTERSECTION-IS-UNION',
    title: 'Intersection answers the union',
    breaks: ['SET-INTERSECT-003', 'SET-INTERSECT-002'],
    area: 'indexes',
    description: 'Every `intersection` in a request is sent upstream as a `union`.',
    apply: () => ({ request: rewriteExpression((expression) => renameKeys(expression, 'intersection', 'union')) }),
  },
  {
    id: 'SET-DIFFERENCE-REVERSED',
    title: 'Difference subtracts the first set from the second',
    breaks: ['SET-DIFF-002'],
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
  {
    id: 'IDX-ACTIVE-MISSING',
    title: 'A new index record lacks `active`',
    breaks: ['IDX-DEF-001'],
    area: 'indexes',
    description: 'The index record answering a top-level `create_index` has no `active` field.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create_index',
        (body) => indexRecords(body).reduce((n, record) => ('active' in record ? (delete record.active, n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'IDX-SERIALIZED-DROPPED',
    title: 'Index records never carry `serialized`',
    breaks: ['IDX-ATTR-001'],
    area: 'indexes',
    description: '`serialized` is removed from every index record in an answer.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => indexRecords(body).reduce((n, record) => ('serialized' in record ? (delete record.serialized, n + 1) : n), 0)),
    }),
  },
  {
    id: 'IDX-PERMISSIONS-NOT-STORED',
    title: 'Index `permissions` are not stored',
    breaks: ['IDX-ATTR-005', 'IDX-DEF-005'],
    area: 'indexes',
    description: '`permissions` is removed from every `create_index` before it reaches the server, so the record lacks it.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => ('permissions' in params ? (delete params.permissions, n + 1) : n), 0)),
    }),
  },
  {
    id: 'IDX-PARTITIONS-NOT-STORED',
    title: 'A given `partitions` is replaced by the default',
    breaks: ['IDX-ATTR-002'],
    area: 'indexes',
    description: 'An in-range `partitions` is removed from every `create_index`, so the record reports the default.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        const partitions = jsonNumber(params.partitions);
        if (partitions === undefined || partitions < 1 || partitions > 8) return n;
        delete params.partitions;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-DEFAULT-PARTITIONS-BY-SOURCE',
    title: 'A term-less index over several collections defaults to one partition',
    breaks: ['IDX-ATTR-003'],
    area: 'indexes',
    description: 'The record answering a `create_index` without `terms` and `partitions` whose `source` is an array reports `partitions: 1`, as a server giving 8 only to term-less indexes of one collection would.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create_index' && createIndexParams(v4Expression(ctx.original)).some((params) => Array.isArray(params.source) && !('terms' in params) && !('partitions' in params)),
        (body) => indexRecords(body).reduce((n, record) => (jsonNumber(record.partitions) === 8 ? ((record.partitions = jsonInt(1)), n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'IDX-PARTITIONS-INTERLEAVED',
    title: 'A partitioned index answers its partitions one after the other',
    breaks: ['IDX-ATTR-004'],
    area: 'indexes',
    description: 'Pages of an index created with `partitions` of 2 or more list the entries at even positions, then those at odd positions (partitions concatenated instead of merged).',
    apply: () =>
      observingIndexes((indexes) => ({
        json: rewriteJson(
          (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 2 && (indexes.pagedIndex(ctx.original)?.index.partitions ?? 1) > 1,
          (body) => {
            const data = v4Resource(body)!.data as unknown[];
            data.splice(0, data.length, ...data.filter((_, i) => i % 2 === 0), ...data.filter((_, i) => i % 2 === 1));
          },
        ),
      })),
  },
  {
    id: 'IDX-DUPLICATE-NAME-WRONG-CODE',
    title: 'A duplicate index name answers `validation failed`',
    breaks: ['IDX-DEF-003'],
    area: 'indexes',
    description: 'The `instance already exists` error of a `create_index` is reported with code `validation failed`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && expressionUses(ctx.original, 'create_index'),
        (body) => v4Errors(body).reduce((n, error) => (error.code === 'instance already exists' ? ((error.code = 'validation failed'), n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'IDX-NAME-GENERATED',
    title: 'An index without `name` gets a generated one',
    breaks: ['IDX-DEF-002'],
    area: 'indexes',
    description: 'A `create_index` with a `source` and no `name` is sent with a generated name, so it answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if ('name' in params || !('source' in params)) return n;
        params.name = `index_${Math.random().toString(36).slice(2, 10)}`;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-CLIENT-CAN-CREATE',
    title: 'Keys without the privilege may create indexes',
    breaks: ['IDX-DEF-006'],
    area: 'indexes',
    description: 'A 403 `permission denied` answering a top-level `create_index` becomes 201 with the index record the server would have made.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 403 && topLevelForm(ctx.original) === 'create_index',
        (response, ctx) => withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0] ?? {}) }),
      ),
    }),
  },
  {
    id: 'IDX-RENAME-KEEPS-REF',
    title: 'A renamed index answers with its old ref',
    breaks: ['IDX-RULE-001'],
    area: 'indexes',
    description: 'The record answering an Update that renames an index keeps the ref of the old name.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 200 && renameOf(v4Expression(ctx.original)) !== undefined && v4Resource(body) !== undefined,
        (body, ctx) => {
          v4Resource(body)!.ref = indexRef(renameOf(v4Expression(ctx.original))!.from);
        },
      ),
    }),
  },
  {
    id: 'IDX-RENAME-REBUILDS',
    title: 'Renaming an index rebuilds it',
    breaks: ['IDX-RULE-002'],
    area: 'indexes',
    description: 'After a rename the index reports `active: false` and reads through the new name are empty (as while a rebuild runs).',
    apply: () => {
      const renamed = new Set<string>();
      return {
        request: (request) => {
          const rename = renameOf(v4Expression(request));
          if (rename !== undefined) renamed.add(rename.to);
          return undefined;
        },
        json: rewriteJson(() => renamed.size > 0, (body, ctx) => {
          let changed = 0;
          for (const record of indexRecords(body)) {
            if (typeof record.name === 'string' && renamed.has(record.name) && record.active === true) {
              record.active = false;
              changed += 1;
            }
          }
          const page = topLevelPage(body, ctx);
          const name = page === undefined ? undefined : paginateForms(v4Expression(ctx.original)).map(matchedIndexName)[0];
          if (page !== undefined && name !== undefined && renamed.has(name) && page.data.length > 0) {
            page.data.splice(0);
            delete page.after;
            delete page.before;
            changed += 1;
          }
          return changed;
        }),
      };
    },
  },
  {
    id: 'IDX-RENAME-DROPS-PRIVILEGES',
    title: 'A role privilege on an index is lost when the index is renamed',
    breaks: ['IDX-RULE-003'],
    area: 'indexes',
    description: 'Reads through a renamed index answer 403 `permission denied` to every secret that never created, renamed or deleted an index or role (role keys), as if privileges were kept by name.',
    apply: () => {
      const renamed = new Set<string>();
      const administrators = new Set<string>();
      return {
        request: (request) => {
          const expression = v4Expression(request);
          const rename = renameOf(expression);
          if (rename !== undefined) renamed.add(rename.to);
          if (rename !== undefined || ['create_index', 'create_role', 'create_collection'].some((form) => expressionUses(request, form))) administrators.add(request.headers.authorization ?? '');
          return undefined;
        },
        response: rewriteResponse(
          (response, ctx) => response.status === 200 && !administrators.has(ctx.original.headers.authorization ?? '')
            && paginateForms(v4Expression(ctx.original)).some((form) => renamed.has(matchedIndexName(form) ?? '')),
          (response) => v4ErrorResponse(response, 403, 'permission denied', 'Insufficient privileges to perform the action.'),
        ),
      };
    },
  },
  {
    id: 'IDX-CREATE-AND-READ-ALLOWED',
    title: 'An index can be read in the request that creates it',
    breaks: ['IDX-RULE-008'],
    area: 'indexes',
    description: 'The 400 answering a request that creates an index and Matches on it becomes 200 with an empty page.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => {
          if (response.status !== 400) return false;
          const expression = v4Expression(ctx.original);
          const created = new Set(createIndexParams(expression).map((params) => params.name));
          return created.size > 0 && paginateForms(expression).some((form) => created.has(matchedIndexName(form)));
        },
        (response) => withJsonBody(withStatus(response, 200), { resource: { data: [] } }),
      ),
    }),
  },
  {
    id: 'IDX-DELETED-ENTRIES-LINGER',
    title: 'A new index keeps the entries of a deleted namesake',
    breaks: ['IDX-RULE-010'],
    area: 'indexes',
    description: 'A `create_index` reusing the name of an index deleted in this run also gets the deleted index\'s sources, so its entries reappear.',
    apply: () => {
      const sources = new Map<string, unknown>();
      const deleted = new Map<string, unknown>();
      return {
        request: rewriteExpression((expression) => {
          let changed = 0;
          for (const params of createIndexParams(expression)) {
            if (typeof params.name !== 'string') continue;
            const old = deleted.get(params.name);
            if (old !== undefined && stringifyJson(old) !== stringifyJson(params.source)) {
              const current = sourceObjects(params.source);
              params.source = [...current, ...sourceObjects(old).filter((item) => !current.some((c) => stringifyJson(c) === stringifyJson(item)))];
              changed += 1;
            }
            sources.set(params.name, params.source);
          }
          for (const name of deletedIndexNames(expression)) {
            if (sources.has(name)) deleted.set(name, sources.get(name));
          }
          return changed;
        }),
      };
    },
  },
  {
    id: 'IDX-COLLECTION-DELETE-DROPS-SHARED',
    title: 'Deleting a collection deletes indexes that name other collections too',
    breaks: ['IDX-RULE-011'],
    area: 'indexes',
    description: 'Deleting a collection deletes every index whose source names it, not only those whose only source it is (the server\'s failpoint IDX-COLLECTION-DELETE-DROPS-SHARED).',
    apply: () => ({ failpoints: ['IDX-COLLECTION-DELETE-DROPS-SHARED'] }),
  },
  {
    id: 'IDX-RETIRED-COLLECTION-COVERED',
    title: 'An index covers a new collection with the name of a deleted source',
    breaks: ['IDX-RULE-011'],
    area: 'indexes',
    description: 'An index naming a deleted collection among others covers a later collection of the same name (the server\'s failpoint IDX-RETIRED-COLLECTION-COVERED).',
    apply: () => ({ failpoints: ['IDX-RETIRED-COLLECTION-COVERED'] }),
  },
  {
    id: 'IDX-DUPLICATE-SOURCE-ACCEPTED',
    title: 'A collection named twice in `source` is accepted',
    breaks: ['IDX-SOURCE-003'],
    area: 'indexes',
    description: 'Repeated source objects of a `create_index` are merged into one before it reaches the server, so it answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (!Array.isArray(params.source)) return n;
        const seen = new Set<string>();
        const kept = params.source.filter((item) => {
          const key = stringifyJson(unwrapObject(item)?.collection ?? item);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        if (kept.length === params.source.length) return n;
        params.source = kept;
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-WILDCARD-IGNORED',
    title: 'A wildcard source indexes nothing',
    breaks: ['IDX-SOURCE-004'],
    area: 'indexes',
    description: 'Wildcard source objects (`collection: "_"`) are removed from a `create_index` that names other collections too.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (!Array.isArray(params.source) || !params.source.some(isWildcardSource) || params.source.every(isWildcardSource)) return n;
        params.source = params.source.filter((item) => !isWildcardSource(item));
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-WILDCARD-OVERRIDES-NAMED',
    title: 'A wildcard source takes the documents of named collections too',
    breaks: ['IDX-SOURCE-005'],
    area: 'indexes',
    description: 'In a `create_index` with a wildcard source object, the named source objects are removed, so every document is indexed through the wildcard\'s bindings.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (!Array.isArray(params.source) || !params.source.some(isWildcardSource) || params.source.every(isWildcardSource)) return n;
        params.source = params.source.filter(isWildcardSource);
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-BINDING-PURITY-UNCHECKED',
    title: 'Bindings that read or write are accepted',
    breaks: ['IDX-SOURCE-008'],
    area: 'indexes',
    description: 'A binding lambda whose body reads or writes (get, create, paginate, …) is sent with a body answering its parameter, so `create_index` answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => bindingHolders(expression).reduce((n, fields) => {
        let changed = 0;
        for (const binding of Object.values(fields)) {
          const lambda = isJsonObject(binding) && isJsonObject(binding.query) ? binding.query : undefined;
          if (lambda === undefined || typeof lambda.lambda !== 'string') continue;
          let impure = false;
          forEachObject(lambda.expr, (object) => {
            if (READ_WRITE_FORMS.some((form) => form in object)) impure = true;
          });
          if (!impure) continue;
          lambda.expr = { var: lambda.lambda };
          changed += 1;
        }
        return n + changed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-BINDING-SHAPE-UNCHECKED',
    title: 'A binding that is not a lambda is accepted',
    breaks: ['IDX-SOURCE-010'],
    area: 'indexes',
    description: 'A binding that is no lambda is sent as a lambda answering it, so `create_index` answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => bindingHolders(expression).reduce((n, fields) => {
        let changed = 0;
        for (const [key, binding] of Object.entries(fields)) {
          if (isJsonObject(binding) && isJsonObject(binding.query)) continue;
          fields[key] = { query: { lambda: 'doc', expr: binding } };
          changed += 1;
        }
        return n + changed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-BINDING-ARITY-WRONG-CODE',
    title: 'A binding of two arguments is refused with the wrong error',
    breaks: ['IDX-SOURCE-011'],
    area: 'indexes',
    description: 'The `validation failed` answering a `create_index` with a binding lambda of several parameters is reported with code `invalid argument`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && bindingHolders(v4Expression(ctx.original)).some((fields) => Object.values(fields).some((binding) => isJsonObject(binding) && isJsonObject(binding.query) && Array.isArray(binding.query.lambda) && binding.query.lambda.length > 1)),
        (body) => v4Errors(body).reduce((n, error) => (error.code === 'validation failed' ? ((error.code = 'invalid argument'), n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'IDX-UNUSED-BINDING-ACCEPTED',
    title: 'A binding no term or value uses is accepted',
    breaks: ['IDX-SOURCE-012'],
    area: 'indexes',
    description: 'Bindings that no term or value of a `create_index` names are removed from its source objects, so it answers 201.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        const used = new Set((['terms', 'values'] as const).flatMap((key) => (Array.isArray(params[key]) ? params[key] : []).map((item) => unwrapObject(item)?.binding)));
        let removed = 0;
        for (const item of Array.isArray(params.source) ? params.source : []) {
          const fields = unwrapObject(unwrapObject(item)?.fields);
          for (const name of Object.keys(fields ?? {})) {
            if (used.has(name)) continue;
            delete fields![name];
            removed += 1;
          }
        }
        return n + removed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-MIXED-WILDCARD-ACCEPTED',
    title: 'A wildcard mixed with collection refs without bindings is accepted',
    breaks: ['IDX-SOURCE-013'],
    area: 'indexes',
    description: 'The 400 answering a `create_index` whose `source` mixes a wildcard and collections without `fields` becomes 201 with the index record the server would have made.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 400 && topLevelForm(ctx.original) === 'create_index' && createIndexParams(v4Expression(ctx.original)).some((params) => Array.isArray(params.source) && params.source.some(isWildcardSource) && !params.source.every(isWildcardSource) && params.source.every((item) => unwrapObject(item)?.fields === undefined)),
        (response, ctx) => withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0]!) }),
      ),
    }),
  },
  {
    id: 'IDX-NULL-TERMS-UNINDEXED',
    title: 'Documents lacking a term field are not indexed',
    breaks: ['IDX-TERM-004'],
    area: 'indexes',
    description: 'A null in a `match` with several terms is replaced by a value no document holds, so documents indexed with a null term are never found.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length < 2 || !object.terms.includes(null)) return;
          object.terms = object.terms.map((term) => (term === null ? '\u0000no-such-term' : term));
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'IDX-REF-ENTRIES-WRAPPED',
    title: 'Entries of an index without values are one-element arrays',
    breaks: ['IDX-VALUE-002'],
    area: 'indexes',
    description: 'A page whose entries are all refs answers each as `[ref]`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => {
          const page = topLevelPage(body, ctx);
          return page !== undefined && page.data.length > 0 && page.data.every((entry) => isJsonObject(entry) && '@ref' in entry);
        },
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          data.splice(0, data.length, ...data.map((entry) => [entry]));
        },
      ),
    }),
  },
  {
    id: 'IDX-MISSING-VALUE-OMITTED',
    title: 'A missing covered value is left out of the entry',
    breaks: ['IDX-VALUE-005'],
    area: 'indexes',
    description: 'Nulls are removed from page entries of several values.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelPage(body, ctx)?.data.some((entry) => Array.isArray(entry) && entry.includes(null)) ?? false,
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          data.splice(0, data.length, ...data.map((entry) => (Array.isArray(entry) ? entry.filter((value) => value !== null) : entry)));
        },
      ),
    }),
  },
  {
    id: 'IDX-NULL-TERMS-INDEXED',
    title: 'Documents whose terms are all null are indexed',
    breaks: ['IDX-TERM-006'],
    area: 'indexes',
    description: 'A document whose every term is null (missing, or an object there) is indexed under null terms, so Match with null finds it (the server\'s failpoint IDX-NULL-TERMS-INDEXED).',
    apply: () => ({ failpoints: ['IDX-NULL-TERMS-INDEXED'] }),
  },
  {
    id: 'IDX-NULL-VALUES-INDEXED',
    title: 'Entries whose covered values are all null are indexed',
    breaks: ['IDX-VALUE-007'],
    area: 'indexes',
    description: 'An entry whose covered values are all null is kept, so a document lacking an index\'s only value appears in its pages as null (the server\'s failpoint IDX-NULL-VALUES-INDEXED).',
    apply: () => ({ failpoints: ['IDX-NULL-VALUES-INDEXED'] }),
  },
  {
    id: 'IDX-ARRAY-VALUE-WHOLE',
    title: 'An array at a value path is covered as one value',
    breaks: ['IDX-VALUE-008'],
    area: 'indexes',
    description: 'An array at a value path makes one entry covering the whole array instead of one entry per element (the server\'s failpoint IDX-ARRAY-VALUE-WHOLE).',
    apply: () => ({ failpoints: ['IDX-ARRAY-VALUE-WHOLE'] }),
  },
  {
    id: 'IDX-MVA-IGNORED',
    title: '`mva: false` is ignored',
    breaks: ['IDX-VALUE-009'],
    area: 'indexes',
    description: '`mva` is removed from the term and value objects of every `create_index`, so arrays and objects are read as with the default.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        let removed = 0;
        for (const key of ['terms', 'values']) {
          for (const item of Array.isArray(params[key]) ? params[key] : []) {
            const column = unwrapObject(item);
            if (column === undefined || !('mva' in column)) continue;
            delete column.mva;
            removed += 1;
          }
        }
        return n + removed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-BUILDING-READ-FAILS',
    title: 'Reading an index that is still building fails with a wrong error',
    breaks: ['IDX-STATE-003'],
    area: 'indexes',
    description: 'A `paginate` of a Match on an index whose creation answered `active: false`, and that no Get has yet shown active, answers 400 `invalid argument` ("Index is not active yet.") instead of a page or 404 `instance not found`.',
    apply: () => {
      const building = new Set<string>();
      return {
        json: (body, ctx) => {
          const record = ctx.status < 300 ? v4Resource(body) : undefined;
          if (record !== undefined && nativeCollectionOf(record) === 'indexes' && typeof record.name === 'string') {
            if (record.active === false && topLevelForm(ctx.original) === 'create_index') building.add(record.name);
            if (record.active === true) building.delete(record.name);
          }
          return undefined;
        },
        response: rewriteResponse(
          (response, ctx) => (response.status === 200 || response.status === 404) && paginateForms(v4Expression(ctx.original)).some((form) => building.has(matchedIndexName(form) ?? '')),
          (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Index is not active yet.', ['paginate']),
        ),
      };
    },
  },
  {
    id: 'IDX-DELETED-STILL-LISTED',
    title: 'Deleted indexes are still listed',
    breaks: ['IDX-STATE-007'],
    area: 'indexes',
    description: 'Pages of `{"indexes": null}` also list the refs of indexes deleted in this run.',
    apply: () => {
      const deleted = new Set<string>();
      return {
        request: (request) => {
          for (const name of deletedIndexNames(v4Expression(request))) deleted.add(name);
          return undefined;
        },
        json: rewriteJson(
          (body, ctx) => {
            const set = paginateForms(v4Expression(ctx.original))[0]?.paginate;
            return deleted.size > 0 && topLevelPage(body, ctx) !== undefined && isJsonObject(set) && 'indexes' in set;
          },
          (body) => {
            const data = v4Resource(body)!.data as unknown[];
            const listed = new Set(data.map((entry) => stringifyJson(entry)));
            const missing = [...deleted].map(indexRef).filter((ref) => !listed.has(stringifyJson(ref)));
            data.push(...missing);
            return missing.length;
          },
        ),
      };
    },
  },
  {
    id: 'IDX-UNIQUE-UPDATE-REJECTED',
    title: 'Turning `unique` on is rejected',
    breaks: ['IDX-UNIQUE-004'],
    area: 'indexes',
    description: 'A successful Update of an index setting `unique: true` answers 400 `instance not unique` instead.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && indexUpdateParams(v4Expression(ctx.original)).some((params) => params.unique === true),
        (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['update']),
      ),
    }),
  },
  {
    id: 'IDX-UNIQUE-TOGGLE-WRONG-ERROR',
    title: 'A refused `unique` toggle answers the wrong error',
    breaks: ['IDX-UNIQUE-006'],
    area: 'indexes',
    description: 'The `validation failed` answering an Update of an index that sets `unique` is reported as `instance not unique`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && indexUpdateParams(v4Expression(ctx.original)).some((params) => 'unique' in params),
        (body) => v4Errors(body).reduce((n, error) => (error.code === 'validation failed' ? ((error.code = 'instance not unique'), n + 1) : n), 0),
      ),
    }),
  },
  {
    id: 'SET-MATCH-TERMS-REVERSED',
    title: 'Compound terms are matched in reverse order',
    breaks: ['SET-MATCH-003'],
    area: 'indexes',
    description: 'The `terms` array of every `match` with two or more scalar terms is reversed.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length < 2 || object.terms.some((term) => Array.isArray(term) || isJsonObject(term))) return;
          object.terms.reverse();
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'SET-MATCH-NO-TERMS-EMPTY',
    title: 'Match without terms yields nothing',
    breaks: ['SET-MATCH-004', 'IDX-TERM-005'],
    area: 'indexes',
    description: 'A top-level `paginate` of a Match without `terms` answers an empty page (absent terms read as a null term).',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 0 && paginateForms(v4Expression(ctx.original)).some(termlessMatch),
        (body) => {
          const page = v4Resource(body)!;
          page.data = [];
          delete page.after;
          delete page.before;
        },
      ),
    }),
  },
  {
    id: 'SET-MATCH-NOTHING-NOT-FOUND',
    title: 'A term no document has answers not found',
    breaks: ['SET-MATCH-005'],
    area: 'indexes',
    description: 'An empty page answering a top-level `paginate` of a Match with terms becomes 404 `instance not found`.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => {
          if (response.status !== 200 || topLevelForm(ctx.original) !== 'paginate') return false;
          const set = paginateForms(v4Expression(ctx.original))[0]?.paginate;
          const page = v4Resource(bodyJson(response));
          return isJsonObject(set) && 'match' in set && 'terms' in set && isPage(page) && page.data.length === 0;
        },
        (response) => v4ErrorResponse(response, 404, 'instance not found', 'Set not found.', ['paginate']),
      ),
    }),
  },
  {
    id: 'SET-MATCH-LEGACY-REJECTED',
    title: 'The legacy Match form is rejected',
    breaks: ['SET-MATCH-007'],
    area: 'indexes',
    description: 'A request holding `{"match": terms, "index": index}` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => {
          let legacy = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if ('match' in object && 'index' in object && Object.keys(object).length === 2) legacy = true;
          });
          return legacy && response.status === 200;
        },
        (response) => v4ErrorResponse(response, 400, 'invalid expression', 'No form/function found, or invalid argument keys: { match, index }.'),
      ),
    }),
  },
  {
    id: 'SET-EQUALS-BY-IDENTITY',
    title: 'Set references are equal only to themselves',
    breaks: ['SET-REF-001'],
    area: 'indexes',
    description: 'An `equals` of set references that answered true answers false (references compared by identity).',
    apply: () => ({
      json: rewriteJson((body, ctx) => ctx.status === 200 && isSetEquality(ctx.original) && isJsonObject(body) && body.resource === true, (body) => {
        (body as JsonObject).resource = false;
      }),
    }),
  },
  {
    id: 'SET-EQUALS-IGNORES-TERMS',
    title: 'Set references compare without their terms',
    breaks: ['SET-REF-002'],
    area: 'indexes',
    description: 'An `equals` of set references that answered false answers true (only the index compared).',
    apply: () => ({
      json: rewriteJson((body, ctx) => ctx.status === 200 && isSetEquality(ctx.original) && isJsonObject(body) && body.resource === false, (body) => {
        (body as JsonObject).resource = true;
      }),
    }),
  },
  {
    id: 'SET-LITERAL-REJECTED',
    title: 'A `@set` value sent back is rejected',
    breaks: ['SET-REF-003'],
    area: 'indexes',
    description: 'A request holding a `{"@set": …}` literal answers 400 `invalid expression` (sets can be rendered but not read back).',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && expressionUses(ctx.original, '@set'),
        (response) => v4ErrorResponse(response, 400, 'invalid expression', 'Set literals are not accepted.'),
      ),
    }),
  },
  {
    id: 'IDX-SOURCE-FIRST-ONLY',
    title: 'An array source indexes only its first collection',
    breaks: ['IDX-SOURCE-002'],
    area: 'indexes',
    description: 'A `create_index` whose `source` is an array of several source objects is sent with the first one only.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (!Array.isArray(params.source) || params.source.length < 2) return n;
        params.source = params.source.slice(0, 1);
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'IDX-BINDING-READ-AS-FIELD',
    title: 'A binding name is read as a data field',
    breaks: ['IDX-SOURCE-006', 'IDX-VALUE-004'],
    area: 'indexes',
    description: 'Every `{"binding": b}` term or value of a `create_index` is sent as `{"field": ["data", b]}`, so the binding\'s computed value is never used.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        let changed = 0;
        for (const key of ['terms', 'values']) {
          for (const item of Array.isArray(params[key]) ? params[key] : []) {
            const column = unwrapObject(item);
            if (column === undefined || typeof column.binding !== 'string') continue;
            column.field = ['data', column.binding];
            delete column.binding;
            changed += 1;
          }
        }
        return n + changed;
      }, 0)),
    }),
  },
  {
    id: 'IDX-REF-TERM-BY-ID',
    title: 'A ref term is matched by its id string',
    breaks: ['IDX-TERM-002'],
    area: 'indexes',
    description: 'A `match` whose terms are a ref literal is sent with the ref\'s id instead, so documents indexed under their ref are not found.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const ref = 'match' in object && isJsonObject(object.terms) && isJsonObject(object.terms['@ref']) ? object.terms['@ref'] : undefined;
          if (ref === undefined || typeof ref.id !== 'string') return;
          object.terms = ref.id;
          changed += 1;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'IDX-REF-VALUE-AS-ID',
    title: 'A covered ref is answered as its id',
    breaks: ['IDX-VALUE-003'],
    area: 'indexes',
    description: 'In page entries of several values, every ref is replaced by its id string.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelPage(body, ctx)?.data.some((entry) => Array.isArray(entry) && entry.some((value) => isJsonObject(value) && isJsonObject(value['@ref']))) ?? false,
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          data.splice(0, data.length, ...data.map((entry) => (Array.isArray(entry) ? entry.map((value) => (isJsonObject(value) && isJsonObject(value['@ref']) ? value['@ref'].id : value)) : entry)));
        },
      ),
    }),
  },
  {
    id: 'IDX-UNIQUE-OVER-EXISTING-REJECTED',
    title: 'A unique index over existing documents is rejected',
    breaks: ['IDX-UNIQUE-005'],
    area: 'indexes',
    description: 'A successful `create_index` with `unique: true` and without `active: true` (so built over existing documents) answers 400 `instance not unique`.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 201 && topLevelForm(ctx.original) === 'create_index' && createIndexParams(v4Expression(ctx.original)).some((params) => params.unique === true && params.active !== true),
        (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['create_index']),
      ),
    }),
  },
  {
    id: 'IDX-COLLECTION-AND-INDEX-ALLOWED',
    title: 'A collection and an index on it can be created in one request',
    breaks: ['IDX-RULE-009'],
    area: 'indexes',
    description: 'The 400 answering a request that creates a collection and an index whose source is that collection becomes 201 with the index record.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => {
          if (response.status !== 400) return false;
          const expression = v4Expression(ctx.original);
          const collections = new Set<unknown>();
          forEachObject(expression, (object) => {
            const params = 'create_collection' in object ? unwrapObject(object.create_collection) : undefined;
            if (params !== undefined) collections.add(params.name);
          });
          return createIndexParams(expression).some((params) => isJsonObject(params.source) && collections.has(params.source.collection));
        },
        (response, ctx) => withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0]!) }),
      ),
    }),
  },
  {
    id: 'IDX-DELETE-NOT-UNINDEXED',
    title: 'Deleted documents stay in indexes',
    breaks: ['IDX-VALUE-006', 'IDX-STATE-006'],
    area: 'indexes',
    description: 'Pages of a Match on a one-term index without values also list documents of its source collection deleted in this run whose term equals the Match\'s.',
    apply: () =>
      observingIndexes((indexes) => {
        const documents = new DocumentLedger();
        return {
          json: (body, ctx) => {
            documents.observe(body, ctx.status, ctx.original);
            const lookup = singleTermLookup(indexes, body, ctx);
            if (lookup === undefined) return undefined;
            const listed = new Set(lookup.page.data.map((entry) => stringifyJson(entry)));
            const stale = documents.deleted(lookup.collection).filter((doc) => !listed.has(stringifyJson(doc.ref)) && sameJson(getPath(doc.record, lookup.path), lookup.term));
            if (stale.length === 0) return undefined;
            lookup.page.data.push(...stale.map((doc) => doc.ref));
            return body;
          },
        };
      }),
  },
  arrayTermWholeFault(
    'IDX-ARRAY-TERM-WHOLE',
    'An array at a term path is indexed as one value',
    'IDX-TERM-003',
    'Pages of a Match on a one-term index without values lose the documents whose term path holds an array (as if the array as a whole were the term).',
    false,
  ),
  arrayTermWholeFault(
    'IDX-BINDING-ARRAY-WHOLE',
    'An array a binding emits is indexed as one value',
    'IDX-SOURCE-007',
    'Pages of a Match on an index whose one term is a binding selecting a document path lose the documents for which that path holds an array (binding results not split into entries).',
    true,
  ),
  {
    id: 'IDX-UNIQUE-TERMS-ONLY',
    title: 'Uniqueness is checked on terms alone',
    breaks: ['IDX-UNIQUE-003'],
    area: 'indexes',
    description: 'A Create answered 201 into the source of a unique index with terms and values answers 400 `instance not unique` when another live document has the same terms, whatever its values.',
    apply: () =>
      observingIndexes((indexes) => {
        const documents = new DocumentLedger();
        return {
          json: (body, ctx) => {
            documents.observe(body, ctx.status, ctx.original);
            return undefined;
          },
          response: rewriteResponse(
            (response, ctx) => {
              if (response.status !== 201 || topLevelForm(ctx.original) !== 'create') return false;
              const created = v4Resource(bodyJson(response));
              const doc = created === undefined ? undefined : documents.get(created.ref);
              if (doc === undefined) return false;
              return indexes.all().some((index) => index.unique && index.reverse.length > 0 && index.sourceCollection === doc.collection && index.termPaths.length > 0
                && index.termPaths.every((path) => path !== undefined)
                && documents.live(doc.collection).some((other) => other !== doc && index.termPaths.every((path) => sameJson(getPath(other.record, path!), getPath(doc.record, path!)))));
            },
            (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['create']),
          ),
        };
      }),
  },
  {
    id: 'IDX-TERMS-CASE-INSENSITIVE',
    title: 'String terms match regardless of case',
    breaks: ['IDX-TERM-001'],
    area: 'indexes',
    description: 'Pages of a Match on a one-term index without values also list live documents of its source whose string term differs from the Match\'s only in case.',
    apply: () =>
      observingIndexes((indexes) => {
        const documents = new DocumentLedger();
        return {
          json: (body, ctx) => {
            documents.observe(body, ctx.status, ctx.original);
            const lookup = singleTermLookup(indexes, body, ctx);
            if (lookup === undefined || typeof lookup.term !== 'string') return undefined;
            const term = lookup.term.toLowerCase();
            const listed = new Set(lookup.page.data.map((entry) => stringifyJson(entry)));
            const extra = documents.live(lookup.collection).filter((doc) => {
              const value = getPath(doc.record, lookup.path);
              return typeof value === 'string' && value !== lookup.term && value.toLowerCase() === term && !listed.has(stringifyJson(doc.ref));
            });
            if (extra.length === 0) return undefined;
            lookup.page.data.push(...extra.map((doc) => doc.ref));
            return body;
          },
        };
      }),
  },
  {
    id: 'IDX-SINGLE-SOURCE-UNRESTRICTED',
    title: 'A single collection source indexes every collection',
    breaks: ['IDX-SOURCE-001'],
    area: 'indexes',
    description: 'A `create_index` whose `source` is one collection ref is sent with the wildcard source `[{"collection": "_"}]`.',
    apply: () => ({
      request: rewriteExpression((expression) => createIndexParams(expression).reduce((n, params) => {
        if (!isJsonObject(params.source) || typeof params.source.collection !== 'string') return n;
        params.source = [{ object: { collection: '_' } }];
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'SET-GET-REFUSED',
    title: 'Get of a set is refused',
    breaks: ['SET-GET-001'],
    area: 'indexes',
    description: 'A 200 answer to a top-level `get` whose argument is a set expression (`match`, `union`, …) becomes 400 `invalid argument` at `["get"]`, as a server that takes refs only answers.',
    apply: () => ({
      response: rewriteResponse(
        (response, ctx) => response.status === 200 && topLevelSetArgument(ctx.original, 'get'),
        (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Ref expected, Set provided.', ['get']),
      ),
    }),
  },
  {
    id: 'SET-EXISTS-ALWAYS-FALSE',
    title: 'Exists of a set answers false',
    breaks: ['SET-GET-002'],
    area: 'indexes',
    description: 'A `true` answering a top-level `exists` whose argument is a set expression (`match`, `union`, …) becomes `false`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 200 && topLevelSetArgument(ctx.original, 'exists') && isJsonObject(body) && body.resource === true,
        (body) => {
          (body as JsonObject).resource = false;
          return true;
        },
      ),
    }),
  },
];
