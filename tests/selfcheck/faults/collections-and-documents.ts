// The faults of spec/requirements/collections-and-documents.md that are code; their rows (ids, titles, what they break) are in collections-and-documents.json.
import type { FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { isUserDocument, passwordsIn } from './lib/access.js';
import {
  RecordMemory,
  dataMembers,
  isDocumentKey,
  isKeyRef,
  isNotFound,
  nameDefaultsToUndefined,
  objectMembers,
  refKey,
  topLevel,
  answerError,
} from './lib/records.js';
import {
  acceptedModification,
  bodyJson,
  deleteKeys,
  editObjects,
  expressionUses,
  hasErrorCode,
  nativeCollectionOf,
  onExpression,
  onJson,
  onObjects,
  onResponse,
  records,
  refPayloads,
  replaceObject,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  tsIsTxnTime,
  emptyPage,
  validationFailedAnswer,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** A plain JSON value as a v4 expression (objects wrapped in `object`, tagged values as they are). */
function asExpression(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asExpression);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return value;
  return { object: Object.fromEntries(keys.map((key) => [key, asExpression(value[key])])) };
}

/** `2024-01-02T03:04:05.123456Z` → microseconds since the epoch. */
/** The object of a top-level Update or Replace of a collection that gives it a new name, else undefined. */
function collectionRenameObject(expression: unknown): JsonObject | undefined {
  if (!isJsonObject(expression)) return undefined;
  const target = schemaRefOf(expression.update ?? expression.replace);
  const params = expression.params;
  const object = isJsonObject(params) && isJsonObject(params.object) ? params.object : undefined;
  return target?.kind === 'collection' && object !== undefined && typeof object.name === 'string' && object.name !== target.name
    ? object
    : undefined;
}

/** Whether `id` is the text of a signed 64-bit integer (or `self`), as document ids must be. */
function isLongId(id: string): boolean {
  return id === 'self' || (/^[+-]?\d+$/.test(id) && BigInt(id) <= 2n ** 63n - 1n && BigInt(id) >= -(2n ** 63n));
}

/** A numeric id standing in for a non-numeric one: the same text always gives the same id. */
function numericStandIn(id: string): string {
  let hash = 7n;
  for (const char of id) hash = (hash * 31n + BigInt(char.codePointAt(0)!)) % 10n ** 15n;
  return `4${hash.toString().padStart(15, '0')}`;
}

/** A top-level Update or Replace sent as "create it when missing". */
function upsert(form: 'update' | 'replace'): FaultHooks['request'] {
  return (req) => {
    const expression = topLevel(req);
    if (expression === undefined || !(form in expression) || !('params' in expression)) return undefined;
    const upserting = { if: { exists: expression[form] }, then: expression, else: { create: expression[form], params: expression.params } };
    return { ...req, body: Buffer.from(stringifyJson(upserting)) };
  };
}

/** Whether a v4 expression holds a document ref expression (`{"ref": …, "id": …}`) anywhere. */
function holdsDocumentRef(expression: unknown): boolean {
  let found = false;
  forEachObject(expression, (object) => {
    if ('ref' in object && 'id' in object) found = true;
  });
  return found;
}

/**
 * A server whose generated ids can be ids already in use: once the suite has created documents with chosen ids in a
 * collection, its next Create with a collection ref of that collection overwrites one of them (a delete, then a
 * create with that id, in one transaction: the answer is the 201 of a new document).
 */
function generatedIdsOverwriteChosen(): FaultHooks {
  const chosenIds = new Map<string, string[]>();
  return {
    request: rewriteExpression((expression) => {
      forEachObject(expression, (form) => {
        const target = isJsonObject(form.create) ? form.create : undefined;
        if (!target || !isJsonObject(target.ref) || typeof target.ref.collection !== 'string' || typeof target.id !== 'string') return;
        const ids = chosenIds.get(target.ref.collection) ?? [];
        ids.push(target.id);
        chosenIds.set(target.ref.collection, ids);
      });
      if (!isJsonObject(expression) || !isJsonObject(expression.create)) return 0;
      const target = expression.create;
      const id = typeof target.collection === 'string' ? chosenIds.get(target.collection)?.shift() : undefined;
      if (id === undefined) return 0;
      const ref = { ref: { collection: target.collection }, id };
      replaceObject(expression, { do: [{ delete: ref }, { create: ref, params: expression.params ?? null }] });
      return 1;
    }),
  };
}

export const code: FaultCode = {
  'DOC-GET-REF-LITERAL-NOT-FOUND': onResponse(
    (res, ctx) => {
      const target = topLevel(ctx.original)?.get;
      return res.status === 200 && topLevelForm(ctx.original) === 'get' && isJsonObject(target) && isJsonObject(target['@ref']);
    },
    (res) => answerError(res, 404, 'instance not found', 'Document not found.'),
  ),
  'CRED-RETURNED': onJson(
    (_body, ctx) => passwordsIn(v4Expression(ctx.original)).length > 0,
    (body, ctx) => {
      const password = passwordsIn(v4Expression(ctx.original))[0]!;
      return records(body).reduce((n, record) => {
        if (!isUserDocument(record)) return n;
        record.credentials = { password };
        return n + 1;
      }, 0);
    },
  ),
  'CRED-PASSWORD-IN-LATER-ANSWERS': () => {
    let latest: string | undefined;
    return {
      json: rewriteJson(
        () => true,
        (body, ctx) => {
          const set = passwordsIn(v4Expression(ctx.original));
          if (set.length > 0) {
            latest = set[set.length - 1];
            return 0;
          }
          if (latest === undefined) return 0;
          const password = latest;
          return records(body).reduce((n, record) => {
            if (!isUserDocument(record) || !isJsonObject(record.data)) return n;
            record.data.password_hint = password;
            return n + 1;
          }, 0);
        },
      ),
    };
  },
  'CRED-REJECTED': onResponse(
    (_res, ctx) => passwordsIn(v4Expression(ctx.original)).length > 0,
    (res) => validationFailedAnswer(res, [], { field: ['credentials'], code: 'invalid field', description: 'Unknown field.' }),
  ),
  'GENERATED-ID-OVERWRITES-CHOSEN': generatedIdsOverwriteChosen,
  'DOC-DATA-INTEGERS-AS-DECIMALS': onJson(
    () => true,
    (body) => {
      let changed = 0;
      const decimalize = (value: unknown): unknown => {
        if (isJsonInteger(value)) {
          changed += 1;
          return jsonDecimal(Number(String(value)));
        }
        if (Array.isArray(value)) return value.map(decimalize);
        if (isJsonObject(value)) {
          for (const [key, child] of Object.entries(value)) value[key] = decimalize(child);
        }
        return value;
      };
      forEachObject(body, (object) => {
        if (isJsonObject(object.data)) object.data = decimalize(object.data);
      });
      return changed;
    },
  ),
  'DOC-TS-AS-DECIMAL': onJson(
    () => true,
    (body) =>
      records(body).reduce((n, record) => {
        if (!isJsonInteger(record.ts)) return n;
        record.ts = jsonDecimal(Number(String(record.ts)));
        return n + 1;
      }, 0),
  ),
  'DOC-LIST-DROPS-LAST': onJson(
    (body, ctx) =>
      expressionUses(ctx.original, 'documents') &&
      Array.isArray(v4Resource(body)?.data) &&
      (v4Resource(body)!.data as unknown[]).length > 0,
    (body) => {
      (v4Resource(body)!.data as unknown[]).pop();
    },
  ),
  'DOC-ID-AS-INTEGER': onJson(
    () => true,
    (body) =>
      refPayloads(body).reduce((n, ref) => {
        const key = refKey({ '@ref': ref });
        if (key === undefined || !isDocumentKey(key) || typeof ref.id !== 'string' || !/^\d+$/.test(ref.id)) return n;
        ref.id = jsonInt(BigInt(ref.id));
        return n + 1;
      }, 0),
  ),
  'DOC-ID-FROM-CLOCK': onExpression((expression) => {
    const id = String(Date.now());
    return editObjects(expression, (object) => {
      const target = isJsonObject(object.create) ? object.create : undefined;
      const coll = target === undefined || Object.keys(target).length !== 1 ? undefined : (target.collection ?? target.class);
      if (typeof coll !== 'string' || !('params' in object)) return false;
      object.create = { ref: { collection: coll }, id };
      return true;
    });
  }),
  'DOC-CHOSEN-ID-IGNORED': onObjects((object) => {
    const target = isJsonObject(object.create) ? object.create : undefined;
    if (
      target === undefined ||
      !('params' in object) ||
      typeof target.id !== 'string' ||
      !isJsonObject(target.ref) ||
      Object.keys(target).length !== 2
    )
      return false;
    object.create = target.ref;
    return true;
  }),
  'DOC-CREATE-KEEPS-NULLS': onJson(
    (body, ctx) => ctx.status === 201 && topLevelForm(ctx.original) === 'create' && isJsonObject(v4Resource(body)?.data),
    (body, ctx) => {
      const sent = dataMembers(topLevel(ctx.original)!) ?? {};
      const data = v4Resource(body)!.data as JsonObject;
      let added = 0;
      for (const [field, value] of Object.entries(sent)) {
        if (value === null && !(field in data)) {
          data[field] = null;
          added += 1;
        }
      }
      return added;
    },
  ),
  'DOC-NON-OBJECT-DATA-DROPPED': onObjects((object) => {
    const params = 'create' in object ? objectMembers(object.params) : undefined;
    if (params === undefined || !('data' in params) || params.data === null || objectMembers(params.data) !== undefined) return false;
    delete params.data;
    return true;
  }),
  'DOC-GET-TS-OF-CREATION': () => {
    const firstTs = new Map<string, unknown>();
    return {
      json: (body, ctx) => {
        for (const record of records(body)) {
          const key = refKey(record.ref);
          if (key !== undefined && isDocumentKey(key) && !firstTs.has(key)) firstTs.set(key, record.ts);
        }
        const resource = v4Resource(body);
        const key = refKey(resource?.ref);
        if (topLevelForm(ctx.original) !== 'get' || ctx.status !== 200 || key === undefined || !firstTs.has(key)) return undefined;
        if (String(firstTs.get(key)) === String(resource!.ts)) return undefined;
        resource!.ts = firstTs.get(key);
        return body;
      },
    };
  },
  'DOC-UPDATE-SHALLOW-MERGE': () => ({
    request: (req) => {
      const expression = topLevel(req);
      const data = expression !== undefined && 'update' in expression ? dataMembers(expression) : undefined;
      const nested = Object.entries(data ?? {})
        .filter(([, value]) => objectMembers(value) !== undefined)
        .map(([field]) => field);
      if (nested.length === 0) return undefined;
      const clear = {
        update: expression!.update,
        params: { object: { data: { object: Object.fromEntries(nested.map((field) => [field, null])) } } },
      };
      return { ...req, body: Buffer.from(stringifyJson({ do: [clear, expression] })) };
    },
  }),
  'DOC-UPDATE-NULL-IGNORED': onExpression((expression) => {
    let removed = 0;
    const dropNulls = (members: JsonObject | undefined): void => {
      for (const [field, value] of Object.entries(members ?? {})) {
        if (value === null) {
          delete members![field];
          removed += 1;
        } else dropNulls(objectMembers(value));
      }
    };
    forEachObject(expression, (object) => {
      if ('update' in object) dropNulls(dataMembers(object));
    });
    return removed;
  }),
  'DOC-UPDATE-ANSWERS-PREVIOUS-TS': () => {
    const latestTs = new Map<string, unknown>();
    return {
      json: (body, ctx) => {
        const resource = v4Resource(body);
        const key = refKey(resource?.ref);
        const previous = key === undefined ? undefined : latestTs.get(key);
        for (const record of records(body)) {
          const recordKey = refKey(record.ref);
          if (recordKey !== undefined) latestTs.set(recordKey, record.ts);
        }
        if (
          topLevelForm(ctx.original) !== 'update' ||
          ctx.status !== 200 ||
          previous === undefined ||
          String(previous) === String(resource!.ts)
        )
          return undefined;
        resource!.ts = previous;
        return body;
      },
    };
  },
  'DOC-UPDATE-UPSERTS': () => ({ request: upsert('update') }),
  'DOC-UPDATE-ARRAYS-MERGED': () => {
    const memory = new RecordMemory();
    return {
      request: rewriteExpression((expression) => {
        const data = isJsonObject(expression) && 'update' in expression ? dataMembers(expression) : undefined;
        const key = isJsonObject(expression) ? refKey(expression.update) : undefined;
        const stored = key === undefined ? undefined : memory.get(key)?.data;
        if (data === undefined || !isJsonObject(stored)) return 0;
        let merged = 0;
        for (const [field, value] of Object.entries(data)) {
          const before = stored[field];
          if (!Array.isArray(value) || !Array.isArray(before) || before.length <= value.length) continue;
          data[field] = [...value, ...before.slice(value.length).map(asExpression)];
          merged += 1;
        }
        return merged;
      }),
      json: (body) => {
        memory.learn(body);
        return undefined;
      },
    };
  },
  'DOC-REPLACE-ANSWERS-PREVIOUS': () => {
    const memory = new RecordMemory();
    return {
      json: (body, ctx) => {
        const key = refKey(v4Resource(body)?.ref);
        const previous = key === undefined ? undefined : memory.get(key);
        memory.learn(body);
        if (topLevelForm(ctx.original) !== 'replace' || ctx.status !== 200 || previous === undefined) return undefined;
        (body as JsonObject).resource = previous;
        return body;
      },
    };
  },
  'DOC-REPLACE-UPSERTS': () => ({ request: upsert('replace') }),
  'DOC-RECREATED-KEEPS-OLD-FIELDS': () => {
    const deleted = new Map<string, JsonObject>();
    const revived = new Map<string, JsonObject>();
    return {
      json: (body, ctx) => {
        const form = topLevelForm(ctx.original);
        const resource = v4Resource(body);
        const key = refKey(resource?.ref);
        if (form === 'delete' && ctx.status === 200 && key !== undefined && isJsonObject(resource!.data)) deleted.set(key, resource!.data);
        if (form === 'create' && ctx.status === 201 && key !== undefined && deleted.has(key)) revived.set(key, deleted.get(key)!);
        let merged = 0;
        for (const record of records(body)) {
          const old = revived.get(refKey(record.ref) ?? '');
          if (old === undefined || !isJsonObject(record.data)) continue;
          record.data = { ...old, ...record.data };
          merged += 1;
        }
        return merged > 0 ? body : undefined;
      },
    };
  },
  'COLL-LIST-EMPTY': onJson(
    (body, ctx) =>
      expressionUses(ctx.original, 'collections') &&
      !expressionUses(ctx.original, 'create_collection') &&
      Array.isArray(v4Resource(body)?.data),
    emptyPage,
  ),
  'COLL-REF-INTERNAL-ID': () => {
    const numbers = new Map<string, string>();
    return {
      json: rewriteJson(
        () => true,
        (body) =>
          records(body).reduce((n, record) => {
            const ref =
              nativeCollectionOf(record) === 'collections' && isJsonObject(record.ref) && isJsonObject(record.ref['@ref'])
                ? record.ref['@ref']
                : undefined;
            if (ref === undefined || typeof ref.id !== 'string') return n;
            if (!numbers.has(ref.id)) numbers.set(ref.id, String(1000 + numbers.size));
            ref.id = numbers.get(ref.id)!;
            return n + 1;
          }, 0),
      ),
    };
  },
  'SCHEMA-UPDATE-UNCHECKED': () =>
    acceptedModification(
      (body, target) =>
        hasErrorCode(body, 'validation failed') &&
        (['collection', 'database'].includes(schemaRefOf(target)?.kind ?? '') || isKeyRef(target)),
    ),
  'COLL-NAME-OPTIONAL': () => ({ request: nameDefaultsToUndefined('create_collection') }),
  'COLL-HISTORY-DAYS-UNCHECKED': onExpression((expression) => {
    const members = isJsonObject(expression) ? objectMembers(expression.create_collection) : undefined;
    if (members === undefined || !('history_days' in members)) return 0;
    const days = members.history_days;
    if (isJsonInteger(days) && BigInt(String(days)) >= 0n) return 0;
    delete members.history_days;
    return 1;
  }),
  'COLL-HISTORY-DAYS-NOT-STORED': onJson(
    (_body, ctx) => !expressionUses(ctx.original, 'create_collection') && !expressionUses(ctx.original, 'create_class'),
    (body) =>
      records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'collections' || !isJsonInteger(record.history_days) || String(record.history_days) === '30')
          return n;
        record.history_days = jsonInt(30);
        return n + 1;
      }, 0),
  ),
  'COLL-DELETE-ANSWERS-REF': onJson(
    (body, ctx) =>
      topLevelForm(ctx.original) === 'delete' &&
      ctx.status === 200 &&
      v4Resource(body) !== undefined &&
      nativeCollectionOf(v4Resource(body)!) === 'collections',
    (body) => {
      (body as JsonObject).resource = v4Resource(body)!.ref;
    },
  ),
  'COLL-DELETE-TS-IS-DELETE-TIME': tsIsTxnTime('delete', 'collections'),
  'COLL-DELETE-KEEPS-DOCUMENTS': () => {
    const memory = new RecordMemory();
    const deletedCollections = new Set<string>();
    return {
      response: (res, ctx) => {
        const body = bodyJson(res);
        memory.learn(body);
        const form = topLevel(ctx.original);
        const resource = v4Resource(body);
        if (
          form !== undefined &&
          'delete' in form &&
          res.status === 200 &&
          resource !== undefined &&
          nativeCollectionOf(resource) === 'collections' &&
          typeof resource.name === 'string'
        )
          deletedCollections.add(resource.name);
        const key = refKey(form?.get);
        const remembered = key === undefined ? undefined : memory.get(key);
        if (key === undefined || remembered === undefined || !deletedCollections.has(key.split('/')[0]!) || !isNotFound(res.status, body))
          return undefined;
        return withStatus(withJsonBody(res, { resource: remembered }), 200);
      },
    };
  },
  'COLL-CREATED-ON-FIRST-WRITE': () => ({
    request: (req) => {
      const expression = topLevel(req);
      const key = expression !== undefined && 'create' in expression && 'params' in expression ? refKey(expression.create) : undefined;
      if (key === undefined) return undefined;
      const coll = key.startsWith('collections/') ? key.slice('collections/'.length) : isDocumentKey(key) ? key.split('/')[0]! : undefined;
      if (coll === undefined) return undefined;
      const ensure = { if: { exists: { collection: coll } }, then: null, else: { create_collection: { object: { name: coll } } } };
      return { ...req, body: Buffer.from(stringifyJson({ do: [ensure, expression] })) };
    },
  }),
  'COLL-UPDATE-HISTORY-DAYS-IGNORED': onExpression((expression) => {
    const members =
      isJsonObject(expression) && refKey(expression.update)?.startsWith('collections/') ? objectMembers(expression.params) : undefined;
    return members !== undefined ? deleteKeys(members, 'history_days', (object) => object === members) : 0;
  }),
  'COLL-RENAME-REFUSED': () => ({
    request: rewriteExpression((expression) => {
      const object = collectionRenameObject(expression);
      if (object === undefined) return 0;
      delete object.name;
      return 1;
    }),
    response: rewriteResponse(
      (_res, ctx) => collectionRenameObject(v4Expression(ctx.original)) !== undefined,
      (res) =>
        validationFailedAnswer(res, [], { field: ['name'], code: 'invalid value', description: 'Renaming collections is not supported.' }),
    ),
  }),
  'DOC-ID-ANY-STRING': onExpression((expression) => {
    let changed = 0;
    const substitute = (id: unknown): string | undefined => (typeof id === 'string' && !isLongId(id) ? numericStandIn(id) : undefined);
    forEachObject(expression, (object) => {
      // `{"ref": …, "id": …}`, or a long-form `@ref` of a document (its collection has a collection of its own).
      const literal = isJsonObject(object['@ref']) ? object['@ref'] : undefined;
      const parent = isJsonObject(literal?.collection) ? literal.collection['@ref'] : undefined;
      const payload =
        literal === undefined
          ? 'ref' in object
            ? object
            : undefined
          : isJsonObject(parent) && parent.collection !== undefined
            ? literal
            : undefined;
      const standIn = payload === undefined ? undefined : substitute(payload.id);
      if (standIn === undefined) return;
      payload!.id = standIn;
      changed += 1;
    });
    return changed;
  }),
  'WRITTEN-REF-MISSING-DOCUMENT-REFUSED': onResponse(
    (res, ctx) =>
      res.status === 201 && topLevelForm(ctx.original) === 'create' && holdsDocumentRef((v4Expression(ctx.original) as JsonObject).params),
    (res) => validationFailedAnswer(res, [], { field: ['data'], code: 'invalid reference', description: 'Reference was not found.' }),
  ),
  'NAME-ASCII-ONLY': onResponse(
    (res, ctx) => {
      if (res.status !== 201 || topLevelForm(ctx.original) !== 'create_collection') return false;
      const name = objectMembers((v4Expression(ctx.original) as JsonObject).create_collection)?.name;
      return typeof name === 'string' && !/^[A-Za-z0-9_-]+$/.test(name);
    },
    (res) => validationFailedAnswer(res, [], { field: ['name'], code: 'invalid characters', description: 'Invalid name.' }),
  ),
  'COLL-UNDERSCORE-NAME-ACCEPTED': onExpression((expression) => {
    if (!isJsonObject(expression)) return 0;
    const create = expression.create_collection ?? expression.create_class;
    const object = isJsonObject(create) && isJsonObject(create.object) ? create.object : undefined;
    if (object?.name !== '_') return 0;
    object.name = '_underscore';
    return 1;
  }),
  'SCOPED-WRITE-ACCEPTED': onResponse(
    (res, ctx) => {
      const form = topLevelForm(ctx.original);
      if (res.status !== 400 || form === undefined || !['create', 'update', 'replace', 'delete'].includes(form)) return false;
      return (
        hasErrorCode(bodyJson(res), 'invalid argument') &&
        JSON.stringify((v4Expression(ctx.original) as JsonObject)[form]).includes('"scope"')
      );
    },
    (res) => withStatus(withJsonBody(res, { resource: { ts: jsonInt(Date.now() * 1000) } }), 200),
  ),
  'REPLACE-DROPS-NAME': onExpression((expression) => {
    if (!isJsonObject(expression) || !['collection', 'database'].includes(schemaRefOf(expression.replace)?.kind ?? '')) return 0;
    const members = objectMembers(expression.params);
    if (members === undefined || 'name' in members) return 0;
    members.name = null;
    return 1;
  }),
};
