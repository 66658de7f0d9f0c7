// The faults of spec/requirements/databases-and-keys.md that are code; their rows (ids, titles, what they break) are in databases-and-keys.json.
import type { FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, parseJson, stringifyJson, type JsonObject } from '../json-body.js';
import {
  type Ledgers,
  answersForm,
  documentRefKey,
  keyOf,
  objectPayload,
  permissionDenied,
  unauthorized,
  withLedgers,
} from './lib/access.js';
import { KeyLedger, learningKeys, requestSecret, withSecret } from './lib/key-ledger.js';
import { RecordMemory, answerError, isDocumentKey, isNotFound, nameDefaultsToUndefined, refKey, topLevel } from './lib/records.js';
import {
  bodyJson,
  hasErrorCode,
  nativeCollectionOf,
  onJson,
  onResponse,
  records,
  refPayloads,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  tsIsTxnTime,
  onAnswerObjects,
  onObjects,
  onRecords,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** The `{"object": …}` payload of a top-level `create_key`. */
function createKeyPayload(request: ProxiedRequest): JsonObject | undefined {
  return topLevelForm(request) === 'create_key' ? objectPayload(topLevel(request)?.create_key) : undefined;
}

/**
 * A name lookup that falls through to records another credential saw: Get of a missing `kind` answers the record
 * another key's answers carried, Exists answers true. Emulates a server that resolves names outside the key's database.
 */
function crossDatabaseLookup(kind: (key: string) => boolean): FaultHooks {
  const memory = new RecordMemory();
  return {
    response: (res, ctx) => {
      const body = bodyJson(res);
      const secret = requestSecret(ctx.original);
      const form = topLevel(ctx.original);
      const key = refKey(form?.get ?? form?.exists);
      if (form !== undefined && 'delete' in form && res.status === 200) {
        const deleted = refKey(form.delete);
        if (deleted !== undefined) memory.forget(deleted);
      }
      memory.learn(body, secret);
      if (form === undefined || key === undefined || !kind(key)) return undefined;
      const seenWith = memory.seenWith(key);
      if (seenWith === undefined || seenWith === secret) return undefined;
      if ('get' in form && Object.keys(form).length === 1 && isNotFound(res.status, body))
        return withStatus(withJsonBody(res, { resource: memory.get(key) }), 200);
      if ('exists' in form && Object.keys(form).length === 1 && res.status === 200 && isJsonObject(body) && body.resource === false)
        return withJsonBody(res, { resource: true });
      return undefined;
    },
  };
}

/** The native collection a top-level `{"paginate": {"<native>": null}}` lists, if the request is one. */
function listedNative(request: ProxiedRequest): string | undefined {
  const expression = v4Expression(request);
  const set = topLevelForm(request) === 'paginate' && isJsonObject(expression) ? expression.paginate : undefined;
  if (!isJsonObject(set)) return undefined;
  const keys = Object.keys(set);
  return keys.length === 1 && set[keys[0]!] === null ? keys[0] : undefined;
}

/** A 401 answer to a request made with a secret `known` picks (one the run created) becomes 404 `instance not found`. */
const knownSecretNotFound = (known: (ledgers: Ledgers, request: ProxiedRequest) => boolean) =>
  withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => res.status === 401 && known(ledgers, ctx.original),
      (res) => answerError(res, 404, 'instance not found', 'Database not found.'),
    ),
  }));

export const code: FaultCode = {
  'KEY-ROLE-REFS-UNCHECKED': onObjects((object) => {
    const payload = 'create_key' in object ? objectPayload(object.create_key) : undefined;
    if (payload === undefined || payload.role === undefined || typeof payload.role === 'string') return 0;
    payload.role = 'client';
    return 1;
  }),
  'KEY-CREATE-MISSING-DB-DENIED': onResponse(
    (res, ctx) =>
      (res.status === 400 || res.status === 404) &&
      'database' in (createKeyPayload(ctx.original) ?? {}) &&
      ['invalid ref', 'instance not found', 'validation failed'].some((code) => hasErrorCode(bodyJson(res), code)),
    permissionDenied,
  ),
  'KEY-DELETE-REVOKES-ROLE': withLedgers((ledgers) => {
    const revoked = new Set<string>();
    return {
      response: (res, ctx) => {
        const caller = keyOf(ledgers, ctx.original);
        if (caller !== undefined && revoked.has(`${caller.database}|${caller.role}`)) return unauthorized(res);
        const deleted =
          topLevelForm(ctx.original) === 'delete' && res.status === 200 ? ledgers.keys.byRef(topLevel(ctx.original)?.delete) : undefined;
        if (deleted !== undefined) revoked.add(`${deleted.database}|${deleted.role}`);
        return undefined;
      },
    };
  }),
  'KEY-SHARED-NAMESPACE': withLedgers((ledgers) => {
    const creators = new Map<string, string>();
    return {
      request: (req) => {
        const form = topLevelForm(req);
        const caller = keyOf(ledgers, req);
        const ref = form === 'get' || form === 'delete' ? documentRefKey(topLevel(req)?.[form]) : undefined;
        const creator = ref === undefined ? undefined : ledgers.keys.bySecret(creators.get(ref) ?? '');
        return caller !== undefined && creator !== undefined && creator.database !== caller.database
          ? withSecret(req, creator.secret)
          : undefined;
      },
      json: (body, ctx) => {
        const ref = answersForm('create', 201, ctx) ? documentRefKey(v4Resource(body)?.ref) : undefined;
        const secret = requestSecret(ctx.original);
        if (ref !== undefined && secret !== undefined && !creators.has(ref)) creators.set(ref, secret);
        return undefined;
      },
    };
  }),
  'KEY-PARENT-FALLBACK': withLedgers((ledgers) => {
    const createdBy = new Map<string, Set<string>>();
    return {
      request: (req) => {
        const secret = requestSecret(req) ?? '';
        forEachObject(v4Expression(req), (object) => {
          for (const form of ['create_collection', 'create_database']) {
            const name = form in object ? objectPayload(object[form])?.name : undefined;
            if (typeof name === 'string') createdBy.set(secret, (createdBy.get(secret) ?? new Set()).add(name));
          }
        });
        const target = topLevelForm(req) === 'get' ? schemaRefOf(topLevel(req)?.get) : undefined;
        const caller = keyOf(ledgers, req);
        const parent = caller?.creator === undefined ? undefined : ledgers.keys.bySecret(caller.creator);
        if (
          target === undefined ||
          !['collection', 'database'].includes(target.kind) ||
          parent === undefined ||
          createdBy.get(secret)?.has(target.name)
        )
          return undefined;
        return withSecret(req, parent.secret);
      },
    };
  }),
  'KEY-SECRET-PER-TRANSACTION': onJson(
    () => true,
    (body) => {
      const keys = records(body).filter((record) => nativeCollectionOf(record) === 'keys' && typeof record.secret === 'string');
      for (const key of keys.slice(1)) key.secret = keys[0]!.secret;
      return Math.max(keys.length - 1, 0);
    },
  ),
  'DB-REF-WRONG-NATIVE-COLLECTION': onJson(
    () => true,
    (body) =>
      refPayloads(body).reduce((n, ref) => {
        if (ref.id !== 'databases' || 'collection' in ref || 'class' in ref) return n;
        ref.id = 'database';
        return n + 1;
      }, 0),
  ),
  'DB-NAME-OPTIONAL': () => ({ request: nameDefaultsToUndefined('create_database') }),
  'DB-GET-TS-IS-READ-TIME': tsIsTxnTime('get', 'databases'),
  'DB-GET-MISSING-403': onResponse(
    (res, ctx) => refKey(topLevel(ctx.original)?.get)?.startsWith('databases/') === true && isNotFound(res.status, bodyJson(res)),
    (res) => answerError(res, 403, 'permission denied', 'Insufficient privileges to perform the action.', ['get']),
  ),
  'DB-DELETE-TS-IS-DELETE-TIME': tsIsTxnTime('delete', 'databases'),
  'DB-DELETED-KEY-NOT-FOUND': knownSecretNotFound((ledgers, req) => ledgers.keys.bySecret(requestSecret(req) ?? '') !== undefined),
  'DB-DELETED-TOKEN-NOT-FOUND': knownSecretNotFound((ledgers, req) => ledgers.tokens.ofRequest(req) !== undefined),
  'DB-RECREATED-INHERITS-COLLECTIONS': () =>
    learningKeys((ledger) => {
      const created = new Map<string, Map<string, string>>();
      const orphaned = new Map<string, Map<string, string>>();
      return {
        response: (res, ctx) => {
          const body = bodyJson(res);
          const form = topLevel(ctx.original);
          const resource = v4Resource(body);
          const database = ledger.bySecret(requestSecret(ctx.original) ?? '')?.database;
          const native = resource === undefined ? undefined : nativeCollectionOf(resource);
          const name = resource?.name;
          if (database !== undefined && res.status === 201 && native === 'collections' && typeof name === 'string')
            created.set(database, (created.get(database) ?? new Map()).set(name, stringifyJson(resource)));
          if (form !== undefined && 'delete' in form && res.status === 200 && native === 'databases') {
            const deleted = stringifyJson(resource!.ref);
            orphaned.set(deleted, new Map([...(orphaned.get(deleted) ?? []), ...(created.get(deleted) ?? [])]));
            created.delete(deleted);
          }
          const key = refKey(form?.get ?? form?.exists);
          const old =
            database === undefined || key === undefined || !key.startsWith('collections/')
              ? undefined
              : orphaned.get(database)?.get(key.slice('collections/'.length));
          if (old === undefined || form === undefined || Object.keys(form).length !== 1) return undefined;
          if ('exists' in form && res.status === 200 && isJsonObject(body) && body.resource === false)
            return withJsonBody(res, { resource: true });
          if ('get' in form && isNotFound(res.status, body)) return withStatus(withJsonBody(res, { resource: parseJson(old) }), 200);
          return undefined;
        },
      };
    }),
  'DB-CHILD-SEES-OTHER-COLLECTIONS': () => crossDatabaseLookup((key) => key.startsWith('collections/')),
  'DB-NAMES-GLOBAL': () => crossDatabaseLookup((key) => key.startsWith('databases/')),
  'DB-DOCUMENTS-SHARED': () => crossDatabaseLookup(isDocumentKey),
  'KEY-NAME-ALTERED': onRecords((record) => {
    if (nativeCollectionOf(record) !== 'keys' || typeof record.name !== 'string' || record.name === record.name.toUpperCase()) return false;
    record.name = record.name.toUpperCase();
    return true;
  }),
  'KEY-ROLE-NOT-ECHOED': onRecords((record) => {
    if (nativeCollectionOf(record) !== 'keys' || record.role === 'server' || typeof record.role !== 'string') return false;
    record.role = 'server';
    return true;
  }),
  'KEY-HASH-NOT-BCRYPT': onAnswerObjects((object) => {
    if (typeof object.hashed_secret !== 'string') return false;
    object.hashed_secret = Buffer.from(object.hashed_secret).toString('hex').padEnd(64, '0').slice(0, 64);
    return true;
  }),
  'KEY-SECRET-LEAKED-IN-ERRORS': () => {
    let latest: string | undefined;
    return {
      json: rewriteJson(
        () => true,
        (body) => {
          for (const record of records(body)) if (typeof record.secret === 'string') latest = record.secret;
          if (latest === undefined) return 0;
          const secret = latest;
          return v4Errors(body).reduce((n, error) => {
            error.description = `${String(error.description)} (key ${secret})`;
            return n + 1;
          }, 0);
        },
      ),
    };
  },
  'DB-LIST-ORDER-UNSTABLE': () => {
    let seen = 0;
    return {
      json: rewriteJson(
        (body, ctx) =>
          ctx.status === 200 &&
          ['collections', 'databases'].includes(listedNative(ctx.original) ?? '') &&
          Array.isArray(v4Resource(body)?.data) &&
          seen++ % 2 === 1,
        (body) => {
          const data = v4Resource(body)!.data as unknown[];
          if (data.length < 2) return false;
          data.reverse();
          return true;
        },
      ),
    };
  },
  'KEY-LISTED-WHERE-IT-OPENS': () => {
    const ledger = new KeyLedger();
    return {
      json: (body, ctx) => {
        ledger.learnFrom(body);
        const key = ledger.bySecret(requestSecret(ctx.original) ?? '');
        const data = v4Resource(body)?.data;
        if (ctx.status !== 200 || listedNative(ctx.original) !== 'keys' || key === undefined || !Array.isArray(data)) return undefined;
        if (data.some((ref) => stringifyJson(ref) === key.ref)) return undefined;
        data.push(parseJson(key.ref));
        return body;
      },
    };
  },
};
