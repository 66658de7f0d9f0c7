// The faults of spec/requirements/indexes.md that are code; their rows (ids, titles, what they break) are in indexes.json.
import { forEachObject, isJsonObject, jsonInt, jsonNumber, stringifyJson, type JsonObject } from '../json-body.js';
import {
  createIndexParams,
  indexName,
  isPage,
  matchedIndexName,
  IndexDefinitions,
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
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  onRecords,
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

/** Every name in a `{"delete": {"index": name}}` of an expression. */
function deletedIndexNames(expression: unknown): string[] {
  const names: string[] = [];
  forEachObject(expression, (object) => {
    const name = indexName(object.delete);
    if (name !== undefined) names.push(name);
  });
  return names;
}

/** True for a source object whose collection is the wildcard `_`. */
function isWildcardSource(item: unknown): boolean {
  const object = unwrapObject(item);
  return object !== undefined && (object.collection === '_' || object.class === '_');
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
  'IDX-ACTIVE-NEVER': onRecords((record) => {
    if (nativeCollectionOf(record) !== 'indexes' || record.active !== true) return false;
    record.active = false;
    return true;
  }),
  'IDX-SMALL-BUILD-ASYNC': onJson(
    (_body, ctx) =>
      ctx.status === 201 &&
      topLevelForm(ctx.original) === 'create_index' &&
      createIndexParams(v4Expression(ctx.original)).every((params) => !('active' in params)),
    (body) =>
      indexRecords(body).reduce((n, record) => {
        if (record.active !== true) return n;
        record.active = false;
        return n + 1;
      }, 0),
  ),
  'IDX-UNIQUE-IGNORED': onExpression((expression) =>
    [...createIndexParams(expression), ...indexUpdateParams(expression)].reduce((n, params) => {
      if (!('unique' in params)) return n;
      delete params.unique;
      return n + 1;
    }, 0),
  ),
  'IDX-RESERVED-NAME-ACCEPTED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (params.name !== '_') return n;
      params.name = `accepted_underscore_${Math.random().toString(36).slice(2, 8)}`;
      return n + 1;
    }, 0),
  ),
  'IDX-SD-RESERVED-NAME-WRONG-CODE': onJson(
    (_body, ctx) =>
      ctx.status === 400 &&
      createIndexParams(v4Expression(ctx.original)).some(
        (params) => typeof params.name === 'string' && SD_RESERVED_INDEX_NAMES.has(params.name),
      ),
    recodeErrors('validation failed', 'invalid argument'),
  ),
  'IDX-IMMUTABLE-FIELDS-CHANGED': onExpression((expression) =>
    indexUpdateParams(expression).reduce((n, params) => {
      let removed = 0;
      for (const field of ['terms', 'values', 'partitions']) {
        if (field in params) {
          delete params[field];
          removed += 1;
        }
      }
      return n + removed;
    }, 0),
  ),
  'IDX-SOURCE-CHANGE-ACCEPTED': onExpression((expression) =>
    indexUpdateParams(expression).reduce((n, params) => {
      if (!('source' in params)) return n;
      delete params.source;
      return n + 1;
    }, 0),
  ),
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
  'IDX-ACTIVE-MISSING': onJson(
    (_body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create_index',
    (body) =>
      indexRecords(body).reduce((n, record) => {
        if (!('active' in record)) return n;
        delete record.active;
        return n + 1;
      }, 0),
  ),
  'IDX-SERIALIZED-DROPPED': onJson(
    () => true,
    (body) =>
      indexRecords(body).reduce((n, record) => {
        if (!('serialized' in record)) return n;
        delete record.serialized;
        return n + 1;
      }, 0),
  ),
  'IDX-PERMISSIONS-NOT-STORED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (!('permissions' in params)) return n;
      delete params.permissions;
      return n + 1;
    }, 0),
  ),
  'IDX-PARTITIONS-NOT-STORED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      const partitions = jsonNumber(params.partitions);
      if (partitions === undefined || partitions < 1 || partitions > 8) return n;
      delete params.partitions;
      return n + 1;
    }, 0),
  ),
  'IDX-DEFAULT-PARTITIONS-BY-SOURCE': onJson(
    (_body, ctx) =>
      ctx.status === 201 &&
      topLevelForm(ctx.original) === 'create_index' &&
      createIndexParams(v4Expression(ctx.original)).some(
        (params) => Array.isArray(params.source) && !('terms' in params) && !('partitions' in params),
      ),
    (body) =>
      indexRecords(body).reduce((n, record) => {
        if (jsonNumber(record.partitions) !== 8) return n;
        record.partitions = jsonInt(1);
        return n + 1;
      }, 0),
  ),
  'IDX-PARTITIONS-INTERLEAVED': () => {
    const partitions = new IndexDefinitions((params) => jsonNumber(params.partitions));
    return {
      request: partitions.observe,
      json: rewriteJson(
        (body, ctx) => (topLevelPage(body, ctx)?.data.length ?? 0) > 2 && (partitions.paged(ctx.original) ?? 1) > 1,
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          data.splice(0, data.length, ...data.filter((_, i) => i % 2 === 0), ...data.filter((_, i) => i % 2 === 1));
        },
      ),
    };
  },
  'IDX-NAME-GENERATED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if ('name' in params || !('source' in params)) return n;
      params.name = `index_${Math.random().toString(36).slice(2, 10)}`;
      return n + 1;
    }, 0),
  ),
  'IDX-CLIENT-CAN-CREATE': onResponse(
    (response, ctx) => response.status === 403 && topLevelForm(ctx.original) === 'create_index',
    (response, ctx) =>
      withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0] ?? {}) }),
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
  'IDX-DUPLICATE-SOURCE-ACCEPTED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
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
    }, 0),
  ),
  'IDX-WILDCARD-IGNORED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (!Array.isArray(params.source) || !params.source.some(isWildcardSource) || params.source.every(isWildcardSource)) return n;
      params.source = params.source.filter((item) => !isWildcardSource(item));
      return n + 1;
    }, 0),
  ),
  'IDX-WILDCARD-OVERRIDES-NAMED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (!Array.isArray(params.source) || !params.source.some(isWildcardSource) || params.source.every(isWildcardSource)) return n;
      params.source = params.source.filter(isWildcardSource);
      return n + 1;
    }, 0),
  ),
  'IDX-BINDING-PURITY-UNCHECKED': onExpression((expression) =>
    bindingHolders(expression).reduce((n, fields) => {
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
    }, 0),
  ),
  'IDX-BINDING-SHAPE-UNCHECKED': onExpression((expression) =>
    bindingHolders(expression).reduce((n, fields) => {
      let changed = 0;
      for (const [key, binding] of Object.entries(fields)) {
        if (isJsonObject(binding) && isJsonObject(binding.query)) continue;
        fields[key] = { query: { lambda: 'doc', expr: binding } };
        changed += 1;
      }
      return n + changed;
    }, 0),
  ),
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
  'IDX-UNUSED-BINDING-ACCEPTED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      const used = new Set(
        (['terms', 'values'] as const).flatMap((key) =>
          (Array.isArray(params[key]) ? params[key] : []).map((item) => unwrapObject(item)?.binding),
        ),
      );
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
    }, 0),
  ),
  'IDX-MIXED-WILDCARD-ACCEPTED': onResponse(
    (response, ctx) =>
      response.status === 400 &&
      topLevelForm(ctx.original) === 'create_index' &&
      createIndexParams(v4Expression(ctx.original)).some(
        (params) =>
          Array.isArray(params.source) &&
          params.source.some(isWildcardSource) &&
          !params.source.every(isWildcardSource) &&
          params.source.every((item) => unwrapObject(item)?.fields === undefined),
      ),
    (response, ctx) =>
      withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0]!) }),
  ),
  'IDX-NULL-TERMS-UNINDEXED': onObjects((object) => {
    if (!('match' in object) || !Array.isArray(object.terms) || object.terms.length < 2 || !object.terms.includes(null)) return false;
    object.terms = object.terms.map((term) => (term === null ? '\u0000no-such-term' : term));
    return true;
  }),
  'IDX-REF-ENTRIES-WRAPPED': onJson(
    (body, ctx) => {
      const page = topLevelPage(body, ctx);
      return page !== undefined && page.data.length > 0 && page.data.every((entry) => isJsonObject(entry) && '@ref' in entry);
    },
    (body) => {
      const data = v4Resource(body)!.data as unknown[];
      data.splice(0, data.length, ...data.map((entry) => [entry]));
    },
  ),
  'IDX-MISSING-VALUE-OMITTED': onJson(
    (body, ctx) => topLevelPage(body, ctx)?.data.some((entry) => Array.isArray(entry) && entry.includes(null)) ?? false,
    (body) => {
      const data = v4Resource(body)!.data as unknown[];
      data.splice(0, data.length, ...data.map((entry) => (Array.isArray(entry) ? entry.filter((value) => value !== null) : entry)));
    },
  ),
  'IDX-MVA-IGNORED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
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
    }, 0),
  ),
  'IDX-DELETED-STILL-LISTED': () => {
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
  'IDX-UNIQUE-UPDATE-REJECTED': onResponse(
    (response, ctx) => response.status === 200 && indexUpdateParams(v4Expression(ctx.original)).some((params) => params.unique === true),
    (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['update']),
  ),
  'IDX-UNIQUE-TOGGLE-WRONG-ERROR': onJson(
    (_body, ctx) => ctx.status === 400 && indexUpdateParams(v4Expression(ctx.original)).some((params) => 'unique' in params),
    recodeErrors('validation failed', 'instance not unique'),
  ),
  'IDX-SOURCE-FIRST-ONLY': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (!Array.isArray(params.source) || params.source.length < 2) return n;
      params.source = params.source.slice(0, 1);
      return n + 1;
    }, 0),
  ),
  'IDX-BINDING-READ-AS-FIELD': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
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
    }, 0),
  ),
  'IDX-REF-TERM-BY-ID': onObjects((object) => {
    const ref = 'match' in object && isJsonObject(object.terms) && isJsonObject(object.terms['@ref']) ? object.terms['@ref'] : undefined;
    if (ref === undefined || typeof ref.id !== 'string') return false;
    object.terms = ref.id;
    return true;
  }),
  'IDX-REF-VALUE-AS-ID': onJson(
    (body, ctx) =>
      topLevelPage(body, ctx)?.data.some(
        (entry) => Array.isArray(entry) && entry.some((value) => isJsonObject(value) && isJsonObject(value['@ref'])),
      ) ?? false,
    (body) => {
      const data = v4Resource(body)!.data as unknown[];
      data.splice(
        0,
        data.length,
        ...data.map((entry) =>
          Array.isArray(entry)
            ? entry.map((value) => (isJsonObject(value) && isJsonObject(value['@ref']) ? value['@ref'].id : value))
            : entry,
        ),
      );
    },
  ),
  'IDX-UNIQUE-OVER-EXISTING-REJECTED': onResponse(
    (response, ctx) =>
      response.status === 201 &&
      topLevelForm(ctx.original) === 'create_index' &&
      createIndexParams(v4Expression(ctx.original)).some((params) => params.unique === true && params.active !== true),
    (response) => v4ErrorResponse(response, 400, 'instance not unique', 'document is not unique.', ['create_index']),
  ),
  'IDX-COLLECTION-AND-INDEX-ALLOWED': onResponse(
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
    (response, ctx) =>
      withJsonBody(withStatus(response, 201), { resource: fabricatedIndexRecord(createIndexParams(v4Expression(ctx.original))[0]!) }),
  ),
  'IDX-SINGLE-SOURCE-UNRESTRICTED': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      if (!isJsonObject(params.source) || typeof params.source.collection !== 'string') return n;
      params.source = [{ object: { collection: '_' } }];
      return n + 1;
    }, 0),
  ),
};
