// The faults of spec/requirements/abac.md that are code; their rows (ids, titles, what they break) are in abac.json.
import type { BufferedResponse, FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  clientAsServer,
  clientRequest,
  deniedAfterWriting,
  errorAnswer,
  keyOf,
  objectPayload,
  permissionDenied,
  refCollection,
  refusedOnlyFor,
  roleCreatedAnyway,
  tokenAsServer,
  topObject,
  userCollection,
  withLedgers,
  type Ledgers,
} from './lib/access.js';
import { adminSecretFor, serverSecretFor, withSecret, type KnownToken } from './lib/key-ledger.js';
import {
  acceptedModification,
  hasErrorCode,
  isV4Query,
  nativeCollectionOf,
  onJson,
  onResponse,
  records,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  withJsonBody,
  withStatus,
  onObjects,
  validationFailedAnswer,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** Whether every failure of a `validation failed` answer is an `invalid reference` on a role's privilege or membership resource. */
function refusedForRoleResources(body: unknown): boolean {
  const onResource = (field: unknown) =>
    Array.isArray(field) && (field[0] === 'privileges' || field[0] === 'membership') && field[field.length - 1] === 'resource';
  return refusedOnlyFor(body, (failure) => failure.code === 'invalid reference' && onResource(failure.field));
}

/** The index name of a top-level `{"paginate": {"match": {"index": name}, …}}`. */
function matchedIndex(request: ProxiedRequest): string | undefined {
  const set = topObject(request)?.paginate;
  if (!isJsonObject(set)) return undefined;
  const index = schemaRefOf(set.match);
  return index?.kind === 'index' ? index.name : undefined;
}

/**
 * A token's 200 answer to a top-level Paginate of a Match on an index becomes 403 when a known role's privilege on that
 * index has `actions` that `grants` picks out.
 */
function matchDeniedWhereRolesGrant(grants: (actions: JsonObject) => boolean): () => FaultHooks {
  return withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const index = matchedIndex(ctx.original);
      if (res.status !== 200 || index === undefined || ledgers.tokens.ofRequest(ctx.original) === undefined) return false;
      return ledgers.roles.roles.some((role) => role.privileges.some((p) => p.kind === 'index' && p.name === index && grants(p.actions)));
    }, permissionDenied),
  }));
}

/** Forms that read or write documents (as opposed to identity, logout and schema forms). */
const DATA_FORMS = new Set(['get', 'create', 'update', 'replace', 'delete', 'paginate', 'map', 'exists']);

const SCHEMA_FORMS = new Set(['create_collection', 'create_index', 'create_role', 'create_key', 'create_database', 'create_function']);

/** True when any lambda under `value` calls `abort`. */
function raises(value: unknown): boolean {
  let found = false;
  forEachObject(value, (object) => {
    if ('abort' in object) found = true;
  });
  return found;
}

/** True when none of the token's roles grants `action` on `collection` (a predicate counts as a possible grant). */
function noRoleGrants(ledgers: Ledgers, token: KnownToken, action: string, collection: string | undefined): boolean {
  if (collection === undefined) return false;
  return !ledgers.roles
    .rolesOf(userCollection(token))
    .some((role) =>
      role.privileges.some(
        (p) => p.kind === 'collection' && p.name === collection && p.actions[action] !== undefined && p.actions[action] !== false,
      ),
    );
}

/** The server secret for a token's document write that its roles certainly do not allow. */
function tokenWriteDenied(forms: readonly string[], action: string): (req: ProxiedRequest, ledgers: Ledgers) => string | undefined {
  return (req, ledgers) => {
    const token = ledgers.tokens.ofRequest(req);
    const form = topLevelForm(req);
    if (token === undefined || form === undefined || !forms.includes(form)) return undefined;
    const target = topObject(req)?.[form];
    const collection = form === 'create' ? (schemaRefOf(target)?.name ?? refCollection(target)) : refCollection(target);
    return noRoleGrants(ledgers, token, action, collection) ? serverSecretFor(token, ledgers.keys) : undefined;
  };
}

/** Whether a request is a top-level Get, Update, Replace or Delete of a role. */
function targetsRole(req: ProxiedRequest): boolean {
  const form = topLevelForm(req);
  return (
    form !== undefined && ['get', 'update', 'replace', 'delete'].includes(form) && schemaRefOf(topObject(req)?.[form])?.kind === 'role'
  );
}

/** An admin key of the database of the client key or token a request is made with. */
function adminOfCaller(req: ProxiedRequest, ledgers: Ledgers): string | undefined {
  const key = keyOf(ledgers, req);
  if (key?.role === 'client') return ledgers.keys.sibling(key, 'admin')?.secret;
  const token = ledgers.tokens.ofRequest(req);
  return token === undefined ? undefined : adminSecretFor(token, ledgers.keys);
}

export const code: FaultCode = {
  'ABAC-PREDICATES-GRANT-ALL': onObjects((object) => {
    if (!('create_role' in object)) return 0;
    let changed = 0;
    forEachObject(object.create_role, (inner) => {
      const actions = objectPayload(inner.actions);
      if (actions === undefined) return;
      for (const [action, value] of Object.entries(actions)) {
        if (isJsonObject(value) && 'query' in value) {
          actions[action] = true;
          changed += 1;
        }
      }
    });
    return changed;
  }),
  'ABAC-ROLES-NOT-APPLIED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) =>
        (res.status === 200 || res.status === 201) &&
        ledgers.tokens.ofRequest(ctx.original) !== undefined &&
        DATA_FORMS.has(topLevelForm(ctx.original) ?? ''),
      permissionDenied,
    ),
  })),
  'ABAC-MEMBER-PREDICATE-IGNORED': onObjects((object) => {
    if (!('create_role' in object)) return 0;
    let removed = 0;
    forEachObject(object.create_role, (inner) => {
      if (!('membership' in inner)) return;
      const entries = Array.isArray(inner.membership) ? inner.membership : [inner.membership];
      for (const entry of entries.map(objectPayload))
        if (entry !== undefined && 'predicate' in entry) {
          delete entry.predicate;
          removed += 1;
        }
    });
    return removed;
  }),
  'ABAC-MEMBER-PREDICATE-NEVER-MATCHES': onObjects((object) => {
    if (!('create_role' in object)) return 0;
    let dropped = 0;
    forEachObject(object.create_role, (inner) => {
      if (!Array.isArray(inner.membership)) return;
      const kept = inner.membership.filter((entry) => !(objectPayload(entry) !== undefined && 'predicate' in objectPayload(entry)!));
      dropped += inner.membership.length - kept.length;
      inner.membership = kept;
    });
    return dropped;
  }),
  'ABAC-FIRST-ROLE-ONLY': withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const token = ledgers.tokens.ofRequest(ctx.original);
      if (res.status !== 200 || token === undefined || topLevelForm(ctx.original) !== 'get') return false;
      const first = ledgers.roles.rolesOf(userCollection(token))[0];
      const collection = refCollection(topObject(ctx.original)?.get);
      return (
        first !== undefined && collection !== undefined && !first.privileges.some((p) => p.kind === 'collection' && p.name === collection)
      );
    }, permissionDenied),
  })),
  'ABAC-DECISIONS-CACHED': withLedgers((ledgers) => {
    const granted = new Map<string, BufferedResponse>();
    return {
      response: (res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        if (token === undefined || !isV4Query(ctx.original)) return undefined;
        const key = `${token.secret}\n${ctx.original.body.toString('utf8')}`;
        if (res.status === 200) granted.set(key, res);
        return res.status === 403 ? granted.get(key) : undefined;
      },
    };
  }),
  'ABAC-CREATE-UNCHECKED': tokenAsServer((_token, form) => form === 'create'),
  'ABAC-WRITE-UNCHECKED': tokenAsServer((_token, form) => form === 'update' || form === 'replace'),
  'ABAC-DELETE-UNCHECKED': tokenAsServer((_token, form) => form === 'delete'),
  'ABAC-INDEX-READ-UNCHECKED': tokenAsServer((_token, form) => form === 'paginate'),
  'ABAC-PRIVILEGES-ANY-COLLECTION': tokenAsServer((token, form, _req, ledgers) => {
    const action = form === 'get' ? 'read' : form === 'create' ? 'create' : undefined;
    return (
      action !== undefined &&
      ledgers.roles
        .rolesOf(userCollection(token))
        .some((role) =>
          role.privileges.some((p) => p.kind === 'collection' && p.actions[action] !== undefined && p.actions[action] !== false),
        )
    );
  }),
  'ABAC-SCHEMA-WRITES-UNCHECKED': tokenAsServer((_token, form) => SCHEMA_FORMS.has(form ?? '')),
  'ABAC-MAPPED-GET-UNCHECKED': tokenAsServer(
    (_token, form, req) =>
      form === 'map' && isJsonObject(topObject(req)?.collection) && 'paginate' in (topObject(req)!.collection as JsonObject),
  ),
  'ABAC-INDEX-ENTRIES-UNFILTERED': tokenAsServer(
    (_token, form, req) =>
      form === 'paginate' && isJsonObject(topObject(req)?.paginate) && 'match' in (topObject(req)!.paginate as JsonObject),
  ),
  'ABAC-UNRESTRICTED-READ-IGNORED': matchDeniedWhereRolesGrant((actions) => 'unrestricted_read' in actions && !('read' in actions)),
  'ABAC-INDEX-PREDICATE-GETS-REF': matchDeniedWhereRolesGrant((actions) => isJsonObject(actions.read)),
  'ABAC-WRITE-NEEDS-READ': withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const form = topLevelForm(ctx.original);
      if (
        res.status !== 200 ||
        form === undefined ||
        !['update', 'replace', 'delete'].includes(form) ||
        ledgers.tokens.ofRequest(ctx.original) === undefined
      )
        return false;
      const collection = refCollection(topObject(ctx.original)?.[form]);
      return (
        collection !== undefined &&
        !ledgers.roles.roles.some((role) =>
          role.privileges.some((p) => p.kind === 'collection' && p.name === collection && 'read' in p.actions),
        )
      );
    }, permissionDenied),
  })),
  'ABAC-CREATE-WITH-ID-AS-CREATE': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => {
        const target = topObject(ctx.original)?.create;
        if (
          res.status !== 403 ||
          topLevelForm(ctx.original) !== 'create' ||
          !isJsonObject(target) ||
          !('id' in target) ||
          ledgers.tokens.ofRequest(ctx.original) === undefined
        )
          return false;
        const collection = refCollection(target);
        return ledgers.roles.roles.some((role) =>
          role.privileges.some((p) => p.kind === 'collection' && p.name === collection && 'create' in p.actions),
        );
      },
      (res, ctx) => {
        const target = topObject(ctx.original)!.create as JsonObject;
        const ref = {
          '@ref': {
            id: String(target.id),
            collection: { '@ref': { id: refCollection(target), collection: { '@ref': { id: 'collections' } } } },
          },
        };
        return withStatus(withJsonBody(res, { resource: { ref, ts: jsonInt(Date.now() * 1000), data: {} } }), 201);
      },
    ),
  })),
  'ABAC-PREDICATE-ERROR-500': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => {
        if (res.status !== 403 || ledgers.tokens.ofRequest(ctx.original) === undefined || topLevelForm(ctx.original) !== 'get')
          return false;
        const collection = refCollection(topObject(ctx.original)?.get);
        return ledgers.roles.roles.some((role) =>
          role.privileges.some((p) => p.kind === 'collection' && p.name === collection && raises(p.actions.read)),
        );
      },
      (res) => errorAnswer(res, 500, 'internal server error', 'Transaction aborted: predicate failure'),
    ),
  })),
  'ABAC-NO-ROLE-FALLS-BACK-TO-KEY': tokenAsServer(
    (token, form, _req, ledgers) => DATA_FORMS.has(form ?? '') && ledgers.roles.rolesOf(userCollection(token)).length === 0,
  ),
  'ABAC-ROLE-PREDICATE-UNWRAPPED': onJson(
    () => true,
    (body) =>
      records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'roles' || !Array.isArray(record.privileges)) return n;
        for (const privilege of record.privileges) {
          if (!isJsonObject(privilege) || !isJsonObject(privilege.actions)) continue;
          for (const [action, value] of Object.entries(privilege.actions)) {
            if (isJsonObject(value) && '@query' in value) {
              privilege.actions[action] = value['@query'];
              n += 1;
            }
          }
        }
        return n;
      }, 0),
  ),
  'ABAC-ROLE-CLIENT-ALLOWED': clientAsServer((form) => form === 'create_role', 'admin'),
  'ABAC-ROLE-ADMIN-REFUSED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'create_role' && keyOf(ledgers, ctx.original)?.role === 'admin',
      permissionDenied,
    ),
  })),
  'ABAC-ROLE-READABLE-BY-ANYONE': withLedgers((ledgers) => ({
    request: (req) => {
      const admin = targetsRole(req) ? adminOfCaller(req, ledgers) : undefined;
      return admin === undefined ? undefined : withSecret(req, admin);
    },
  })),
  'ABAC-ROLE-SERVER-DENIED-AFTER-WRITING': deniedAfterWriting((req, ledgers) => {
    const key = keyOf(ledgers, req);
    const form = topLevelForm(req);
    const write = form === 'create_role' || ((form === 'update' || form === 'delete') && targetsRole(req));
    return key?.role === 'server' && write ? ledgers.keys.sibling(key, 'admin')?.secret : undefined;
  }),
  'ABAC-LISTING-FILTERED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => {
        const set = topObject(ctx.original)?.paginate;
        return (
          res.status === 403 &&
          ledgers.tokens.ofRequest(ctx.original) !== undefined &&
          isJsonObject(set) &&
          'collections' in set &&
          set.collections === null
        );
      },
      (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
    ),
  })),
  'ABAC-ROLE-PRIVILEGES-REQUIRED': onResponse(
    (res, ctx) => {
      const payload = topLevelForm(ctx.original) === 'create_role' ? objectPayload(topObject(ctx.original)?.create_role) : undefined;
      if (res.status !== 201 || payload === undefined) return false;
      const privileges =
        payload.privileges === undefined ? [] : Array.isArray(payload.privileges) ? payload.privileges : [payload.privileges];
      return privileges.length === 0 || privileges.some((p) => objectPayload(p)?.actions === undefined);
    },
    (res) =>
      validationFailedAnswer(res, ['create_role'], {
        field: ['privileges'],
        code: 'value required',
        description: 'Required value not found.',
      }),
  ),
  'ABAC-DENIED-AT-FORM': withLedgers((ledgers) => ({
    json: rewriteJson(
      (body, ctx) =>
        ctx.status === 403 &&
        ledgers.tokens.ofRequest(ctx.original) !== undefined &&
        topLevelForm(ctx.original) !== undefined &&
        hasErrorCode(body, 'permission denied'),
      (body, ctx) =>
        v4Errors(body).reduce((n, error) => {
          if (!Array.isArray(error.position) || error.position.length !== 0) return n;
          error.position = [topLevelForm(ctx.original)!];
          return n + 1;
        }, 0),
    ),
  })),
  'ABAC-SCHEMA-DENIED-AFTER-WRITING': deniedAfterWriting((req, ledgers) => {
    const token = ledgers.tokens.ofRequest(req);
    return token !== undefined && SCHEMA_FORMS.has(topLevelForm(req) ?? '') ? adminSecretFor(token, ledgers.keys) : undefined;
  }),
  'ABAC-ROLE-ACTION-COERCED': onObjects((object) => {
    if (!('create_role' in object)) return 0;
    let changed = 0;
    forEachObject(object.create_role, (inner) => {
      const actions = 'resource' in inner ? objectPayload(inner.actions) : undefined;
      if (actions === undefined) return;
      for (const [action, value] of Object.entries(actions)) {
        if (typeof value !== 'boolean' && !(isJsonObject(value) && 'query' in value)) {
          actions[action] = false;
          changed += 1;
        }
      }
    });
    return changed;
  }),
  'ABAC-ROLE-RESOURCES-UNCHECKED': () => ({ response: roleCreatedAnyway(refusedForRoleResources) }),
  'ABAC-ROLE-UPDATE-RESOURCES-UNCHECKED': () => acceptedModification(refusedForRoleResources),
  'ABAC-ROLE-UPDATE-SHAPE-UNCHECKED': () =>
    acceptedModification((body, target) => {
      if (schemaRefOf(target)?.kind !== 'role') return false;
      const failures = v4Errors(body).flatMap((error) =>
        error.code === 'validation failed' && Array.isArray(error.failures) ? error.failures : [undefined],
      );
      return (
        failures.length > 0 &&
        failures.every(
          (failure) =>
            isJsonObject(failure) && Array.isArray(failure.field) && (failure.field[0] === 'name' || failure.field[0] === 'data'),
        )
      );
    }),
  'ABAC-CREATE-DENIED-AFTER-WRITING': deniedAfterWriting(tokenWriteDenied(['create'], 'create')),
  'ABAC-WRITE-DENIED-AFTER-WRITING': deniedAfterWriting(tokenWriteDenied(['update', 'replace'], 'write')),
  'ABAC-DELETE-DENIED-AFTER-WRITING': deniedAfterWriting(tokenWriteDenied(['delete'], 'delete')),
  'ABAC-ROLE-CLIENT-DENIED-AFTER-WRITING': deniedAfterWriting(clientRequest(['create_role'], 'admin')),
};
