// The faults of spec/requirements/collections-and-documents.md that are code; their rows (ids, titles, what they break) are in collections-and-documents.json.
import { isJsonInteger, isJsonObject, jsonDecimal, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { isUserDocument, passwordsIn } from './lib/access.js';
import {
  RecordMemory,
  isDocumentKey,
  isNotFound,
  nameDefaultsToUndefined,
  objectMembers,
  refKey,
  topLevel,
  answerError,
} from './lib/records.js';
import {
  bodyJson,
  deleteKeys,
  expressionUses,
  hasErrorCode,
  nativeCollectionOf,
  onExpression,
  onJson,
  onResponse,
  records,
  refPayloads,
  rewriteJson,
  schemaRefOf,
  topLevelForm,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  tsIsTxnTime,
  emptyPage,
  validationFailedAnswer,
  onAnswerObjects,
  replaceLeaves,
  onRecords,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

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
  'DOC-DATA-INTEGERS-AS-DECIMALS': onAnswerObjects((object) =>
    isJsonObject(object.data) ? replaceLeaves(object.data, (v) => (isJsonInteger(v) ? jsonDecimal(Number(String(v))) : v)) : 0,
  ),
  'DOC-TS-AS-DECIMAL': onRecords((record) => {
    if (!isJsonInteger(record.ts)) return false;
    record.ts = jsonDecimal(Number(String(record.ts)));
    return true;
  }),
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
        const name = resource !== undefined && nativeCollectionOf(resource) === 'collections' ? resource.name : undefined;
        if (form !== undefined && 'delete' in form && res.status === 200 && typeof name === 'string') deletedCollections.add(name);
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
