// The faults of spec/requirements/indexes.md that are code; their rows (ids, titles, what they break) are in indexes.json.
import type { BufferedResponse, ExchangeContext, Fault, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import {
  createIndexParams,
  dropKeys,
  someObject,
  indexName,
  isPage,
  matchedIndexName,
  paginateForms,
  topLevelPage,
  unwrapObject,
  v4ErrorResponse,
} from './lib/index-tracking.js';
import {
  acceptedModification,
  bodyJson,
  expressionUses,
  hasErrorCode,
  nativeCollectionOf,
  onExpression,
  onJson,
  onObjects,
  onResponse,
  records,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  recodeErrors,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

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

/** A fault that edits the index params `find` picks in a request (`edit` answers whether or how many changes it made). */
const onParams = (find: (expression: unknown) => JsonObject[], edit: (params: JsonObject) => boolean | number): Fault['apply'] =>
  onExpression((expression) => find(expression).reduce((n, params) => n + Number(edit(params)), 0));

/** The term and value objects of index params. */
function columnsOf(params: JsonObject): JsonObject[] {
  return (['terms', 'values'] as const)
    .flatMap((key) => (Array.isArray(params[key]) ? params[key] : []).map(unwrapObject))
    .filter((column) => column !== undefined);
}

/** Whether a request is a top-level `create_index` whose params `holds` of. */
function createsIndex(request: ProxiedRequest, holds: (params: JsonObject) => boolean): boolean {
  return topLevelForm(request) === 'create_index' && createIndexParams(v4Expression(request)).some(holds);
}

/** Gives `key` the value `to` in the index records of an answer where `was` holds of its value; answers how many. */
function setInIndexRecords(body: unknown, key: string, was: (value: unknown) => boolean, to: unknown): number {
  const changed = indexRecords(body).filter((record) => was(record[key]));
  for (const record of changed) record[key] = to;
  return changed.length;
}

/** A 201 with the index record the server would have made, answering a refused `create_index`. */
const fabricatedCreation = (response: BufferedResponse, ctx: ExchangeContext): BufferedResponse =>
  withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0] ?? {}) });

/** Rewrites the data of the page a successful top-level `paginate` answered, when `applies` to it. */
const onPage = (applies: (data: unknown[]) => boolean, rewrite: (data: unknown[]) => unknown[]): Fault['apply'] =>
  onJson(
    (body, ctx) => applies(topLevelPage(body, ctx)?.data ?? []),
    (body) => {
      const data = v4Resource(body)!.data as unknown[];
      data.splice(0, data.length, ...rewrite(data));
    },
  );

const isRef = (value: unknown): boolean => isJsonObject(value) && isJsonObject(value['@ref']);

/** True for a source object whose collection is the wildcard `_`. */
function isWildcardSource(item: unknown): boolean {
  const object = unwrapObject(item);
  return object !== undefined && (object.collection === '_' || object.class === '_');
}

/** Whether index params have an array source of wildcard and named source objects. */
function mixesWildcard(params: JsonObject): boolean {
  return Array.isArray(params.source) && params.source.some(isWildcardSource) && !params.source.every(isWildcardSource);
}

/** The binding values (`fields` entries) of every source object of every `create_index` in an expression. */
function bindingHolders(expression: unknown): JsonObject[] {
  return createIndexParams(expression).flatMap((params) =>
    (Array.isArray(params.source) ? params.source : [])
      .map((item) => unwrapObject(unwrapObject(item)?.fields))
      .filter((fields): fields is JsonObject => fields !== undefined),
  );
}

const READ_WRITE_FORMS = ['get', 'create', 'update', 'replace', 'delete', 'paginate', 'match', 'exists', 'documents', 'insert', 'remove'];

/** Names the SD reserves and the real service accepts (IDX-DEF-009). */
const SD_RESERVED_INDEX_NAMES = new Set(['events', 'sets', 'self', 'instances']);

const NO_SUCH_INDEX = new Set(['invalid ref', 'instance not found']);

export const code: FaultCode = {
  'INDEX-UPDATE-UNCHECKED': () =>
    acceptedModification((body, target) => hasErrorCode(body, 'validation failed') && schemaRefOf(target)?.kind === 'index'),
  'IDX-ACTIVE-NEVER': onJson(
    () => true,
    (body) => setInIndexRecords(body, 'active', (active) => active === true, false),
  ),
  'IDX-SMALL-BUILD-ASYNC': onJson(
    (_body, ctx) =>
      ctx.status === 201 &&
      topLevelForm(ctx.original) === 'create_index' &&
      createIndexParams(v4Expression(ctx.original)).every((params) => !('active' in params)),
    (body) => setInIndexRecords(body, 'active', (active) => active === true, false),
  ),
  'IDX-UNIQUE-IGNORED': onParams(
    (expression) => [...createIndexParams(expression), ...indexUpdateParams(expression)],
    (params) => dropKeys(params, ['unique']),
  ),
  'IDX-RESERVED-NAME-ACCEPTED': onParams(createIndexParams, (params) => {
    if (params.name !== '_') return false;
    params.name = `accepted_underscore_${Math.random().toString(36).slice(2, 8)}`;
    return true;
  }),
  'IDX-SD-RESERVED-NAME-WRONG-CODE': onJson(
    (_body, ctx) =>
      ctx.status === 400 &&
      createIndexParams(v4Expression(ctx.original)).some((params) => SD_RESERVED_INDEX_NAMES.has(String(params.name))),
    recodeErrors('validation failed', 'invalid argument'),
  ),
  'IDX-IMMUTABLE-FIELDS-CHANGED': onParams(indexUpdateParams, (params) => dropKeys(params, ['terms', 'values', 'partitions'])),
  'IDX-SOURCE-CHANGE-ACCEPTED': onParams(indexUpdateParams, (params) => dropKeys(params, ['source'])),
  'IDX-SAME-DEFINITION-REFUSED': onResponse(
    (response, ctx) =>
      response.status === 200 && indexUpdateParams(v4Expression(ctx.original)).some((params) => 'terms' in params || 'values' in params),
    (response) => v4ErrorResponse(response, 400, 'validation failed', 'document data is not valid.', ['update']),
  ),
  'IDX-MISSING-INDEX-EMPTY': onResponse(
    (response, ctx) =>
      response.status >= 400 &&
      expressionUses(ctx.original, 'paginate') &&
      expressionUses(ctx.original, 'match') &&
      v4Errors(bodyJson(response)).some((e) => NO_SUCH_INDEX.has(String(e.code))),
    (response) => withJsonBody(withStatus(response, 200), { resource: { data: [] } }),
  ),
  'IDX-VALUES-OUT-OF-ORDER': onJson(
    (body, ctx) => expressionUses(ctx.original, 'paginate') && isPage(v4Resource(body)),
    (body) => {
      const data = v4Resource(body)!.data as unknown[];
      if (data.length === 0 || !data.every((e) => Array.isArray(e) && e.length > 1)) return 0;
      for (const entry of data) (entry as unknown[]).reverse();
      return data.length;
    },
  ),
  'IDX-PERMISSIONS-NOT-STORED': onParams(createIndexParams, (params) => dropKeys(params, ['permissions'])),
  'IDX-PARTITIONS-NOT-STORED': onParams(createIndexParams, (params) => {
    const partitions = jsonNumber(params.partitions);
    return partitions !== undefined && partitions >= 1 && partitions <= 8 && dropKeys(params, ['partitions']) > 0;
  }),
  'IDX-DEFAULT-PARTITIONS-BY-SOURCE': onJson(
    (_body, ctx) =>
      ctx.status === 201 &&
      createsIndex(ctx.original, (params) => Array.isArray(params.source) && !('terms' in params) && !('partitions' in params)),
    (body) => setInIndexRecords(body, 'partitions', (partitions) => jsonNumber(partitions) === 8, jsonInt(1)),
  ),
  'IDX-NAME-GENERATED': onParams(createIndexParams, (params) => {
    if ('name' in params || !('source' in params)) return false;
    params.name = `index_${Math.random().toString(36).slice(2, 10)}`;
    return true;
  }),
  'IDX-CLIENT-CAN-CREATE': onResponse(
    (response, ctx) => response.status === 403 && topLevelForm(ctx.original) === 'create_index',
    fabricatedCreation,
  ),
  'IDX-CREATE-AND-READ-ALLOWED': onResponse(
    (response, ctx) => {
      if (response.status !== 400) return false;
      const expression = v4Expression(ctx.original);
      const created = new Set(createIndexParams(expression).map((params) => params.name));
      return created.size > 0 && paginateForms(expression).some((form) => created.has(matchedIndexName(form)));
    },
    (response) => withJsonBody(withStatus(response, 200), { resource: { data: [] } }),
  ),
  'IDX-DUPLICATE-SOURCE-ACCEPTED': onParams(createIndexParams, (params) => {
    if (!Array.isArray(params.source)) return false;
    const keys = params.source.map((item) => stringifyJson(unwrapObject(item)?.collection ?? item));
    const kept = params.source.filter((_, i) => keys.indexOf(keys[i]!) === i);
    if (kept.length === params.source.length) return false;
    params.source = kept;
    return true;
  }),
  'IDX-WILDCARD-IGNORED': onParams(createIndexParams, (params) => {
    if (!mixesWildcard(params)) return false;
    params.source = (params.source as unknown[]).filter((item) => !isWildcardSource(item));
    return true;
  }),
  'IDX-WILDCARD-OVERRIDES-NAMED': onParams(createIndexParams, (params) => {
    if (!mixesWildcard(params)) return false;
    params.source = (params.source as unknown[]).filter(isWildcardSource);
    return true;
  }),
  'IDX-BINDING-PURITY-UNCHECKED': onParams(bindingHolders, (fields) => {
    const impure = Object.values(fields)
      .map((binding) => (isJsonObject(binding) && isJsonObject(binding.query) ? binding.query : undefined))
      .filter(
        (lambda) =>
          typeof lambda?.lambda === 'string' && someObject(lambda.expr, (object) => READ_WRITE_FORMS.some((form) => form in object)),
      );
    for (const lambda of impure) lambda!.expr = { var: lambda!.lambda };
    return impure.length;
  }),
  'IDX-BINDING-SHAPE-UNCHECKED': onParams(bindingHolders, (fields) => {
    const bare = Object.entries(fields).filter(([, binding]) => !isJsonObject(binding) || !isJsonObject(binding.query));
    for (const [key, binding] of bare) fields[key] = { query: { lambda: 'doc', expr: binding } };
    return bare.length;
  }),
  'IDX-BINDING-ARITY-WRONG-CODE': onJson(
    (_body, ctx) =>
      ctx.status === 400 &&
      bindingHolders(v4Expression(ctx.original)).some((fields) =>
        Object.values(fields).some(
          (binding) =>
            isJsonObject(binding) && isJsonObject(binding.query) && Array.isArray(binding.query.lambda) && binding.query.lambda.length > 1,
        ),
      ),
    recodeErrors('validation failed', 'invalid argument'),
  ),
  'IDX-UNUSED-BINDING-ACCEPTED': onParams(createIndexParams, (params) => {
    const used = new Set(columnsOf(params).map((column) => column.binding));
    return (Array.isArray(params.source) ? params.source : []).reduce<number>((n, item) => {
      const fields = unwrapObject(unwrapObject(item)?.fields) ?? {};
      return (
        n +
        dropKeys(
          fields,
          Object.keys(fields).filter((name) => !used.has(name)),
        )
      );
    }, 0);
  }),
  'IDX-MIXED-WILDCARD-ACCEPTED': onResponse(
    (response, ctx) =>
      response.status === 400 &&
      createsIndex(
        ctx.original,
        (params) => mixesWildcard(params) && (params.source as unknown[]).every((item) => unwrapObject(item)?.fields === undefined),
      ),
    fabricatedCreation,
  ),
  'IDX-NULL-TERMS-UNINDEXED': onObjects((object) => {
    if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length < 2 || !object.terms.includes(null)) return false;
    object.terms = object.terms.map((term) => (term === null ? '\u0000no-such-term' : term));
    return true;
  }),
  'IDX-REF-ENTRIES-WRAPPED': onPage(
    (data) => data.length > 0 && data.every((entry) => isJsonObject(entry) && '@ref' in entry),
    (data) => data.map((entry) => [entry]),
  ),
  'IDX-MISSING-VALUE-OMITTED': onPage(
    (data) => data.some((entry) => Array.isArray(entry) && entry.includes(null)),
    (data) => data.map((entry) => (Array.isArray(entry) ? entry.filter((value) => value !== null) : entry)),
  ),
  'IDX-MVA-IGNORED': onParams(createIndexParams, (params) => columnsOf(params).reduce((n, column) => n + dropKeys(column, ['mva']), 0)),
  'IDX-BUILDING-READ-FAILS': () => {
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
        (response, ctx) =>
          (response.status === 200 || response.status === 404) &&
          paginateForms(v4Expression(ctx.original)).some((form) => building.has(matchedIndexName(form) ?? '')),
        (response) => v4ErrorResponse(response, 400, 'invalid argument', 'Index is not active yet.', ['paginate']),
      ),
    };
  },
  'IDX-DELETED-STILL-LISTED': () => {
    const deleted = new Set<string>();
    return {
      request: (request) => {
        forEachObject(v4Expression(request), (object) => {
          const name = indexName(object.delete);
          if (name !== undefined) deleted.add(name);
        });
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
  'IDX-UNIQUE-UPDATE-REJECTED': onResponse(
    (response, ctx) => response.status === 200 && indexUpdateParams(v4Expression(ctx.original)).some((params) => params.unique === true),
    (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['update']),
  ),
  'IDX-UNIQUE-TOGGLE-WRONG-ERROR': onJson(
    (_body, ctx) => ctx.status === 400 && indexUpdateParams(v4Expression(ctx.original)).some((params) => 'unique' in params),
    recodeErrors('validation failed', 'instance not unique'),
  ),
  'IDX-SOURCE-FIRST-ONLY': onParams(createIndexParams, (params) => {
    if (!Array.isArray(params.source) || params.source.length < 2) return false;
    params.source = params.source.slice(0, 1);
    return true;
  }),
  'IDX-BINDING-READ-AS-FIELD': onParams(createIndexParams, (params) => {
    const read = columnsOf(params).filter((column) => typeof column.binding === 'string');
    for (const column of read) {
      column.field = ['data', column.binding];
      delete column.binding;
    }
    return read.length;
  }),
  'IDX-REF-TERM-BY-ID': onObjects((object) => {
    const ref = 'match' in object && isRef(object.terms) ? ((object.terms as JsonObject)['@ref'] as JsonObject) : undefined;
    if (ref === undefined || typeof ref.id !== 'string') return false;
    object.terms = ref.id;
    return true;
  }),
  'IDX-REF-VALUE-AS-ID': onPage(
    (data) => data.some((entry) => Array.isArray(entry) && entry.some(isRef)),
    (data) =>
      data.map((entry) =>
        Array.isArray(entry) ? entry.map((value) => (isRef(value) ? ((value as JsonObject)['@ref'] as JsonObject).id : value)) : entry,
      ),
  ),
  'IDX-UNIQUE-OVER-EXISTING-REJECTED': onResponse(
    (response, ctx) => response.status === 201 && createsIndex(ctx.original, (params) => params.unique === true && params.active !== true),
    (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['create_index']),
  ),
  'IDX-COLLECTION-AND-INDEX-ALLOWED': onResponse((response, ctx) => {
    if (response.status !== 400) return false;
    const expression = v4Expression(ctx.original);
    const collections = new Set<unknown>();
    forEachObject(expression, (object) => {
      const params = 'create_collection' in object ? unwrapObject(object.create_collection) : undefined;
      if (params !== undefined) collections.add(params.name);
    });
    return createIndexParams(expression).some((params) => isJsonObject(params.source) && collections.has(params.source.collection));
  }, fabricatedCreation),
  'IDX-SINGLE-SOURCE-UNRESTRICTED': onParams(createIndexParams, (params) => {
    if (!isJsonObject(params.source) || typeof params.source.collection !== 'string') return false;
    params.source = [{ object: { collection: '_' } }];
    return true;
  }),
};
