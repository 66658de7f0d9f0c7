// Faults of the `auth` area: credentials, tokens, roles, and keys acting beyond their role.
import { createHash } from 'node:crypto';
import type { BufferedResponse, Fault, FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, parseJson, stringifyJson, type JsonObject } from '../json-body.js';
import { KeyLedger, TokenLedger, adminSecretFor, requestSecret, serverSecretFor, withSecret, type KnownToken } from './lib/key-ledger.js';
import {
  acceptedModification,
  bodyJson,
  deleteKeys,
  hasErrorCode,
  isV4Query,
  nativeCollectionOf,
  pathname,
  records,
  recodeFailures,
  rewriteJson,
  renameKeys,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';

/** Passwords found in `credentials: {password}` objects of a v4 expression (plain or `{"object": …}` wrapped). */
function passwordsIn(expression: unknown): string[] {
  const found: string[] = [];
  forEachObject(expression, (object) => {
    const credentials = isJsonObject(object.credentials) && isJsonObject(object.credentials.object) ? object.credentials.object : object.credentials;
    if (isJsonObject(credentials) && typeof credentials.password === 'string') found.push(credentials.password);
  });
  return found;
}

function isUserDocument(record: JsonObject): boolean {
  return nativeCollectionOf(record) === undefined && 'data' in record;
}

/** A request hook that edits every object of the v4 expression; forwards the request only when `edit` changed something. */
function editExpression(edit: (object: JsonObject) => number): (req: ProxiedRequest) => ProxiedRequest | undefined {
  return (req) => {
    const expression = v4Expression(req);
    let changed = 0;
    forEachObject(expression, (object) => {
      changed += edit(object);
    });
    return changed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
  };
}

/** The `{"object": …}` payload of a params-like argument, or the argument itself. */
function objectPayload(value: unknown): JsonObject | undefined {
  if (isJsonObject(value) && isJsonObject(value.object)) return value.object;
  return isJsonObject(value) ? value : undefined;
}

/** Whether a v4 error body is `validation failed` only, with failures that all match. */
function refusedOnlyFor(body: unknown, matches: (failure: JsonObject) => boolean): boolean {
  const failures = v4Errors(body).flatMap((error) => (error.code === 'validation failed' && Array.isArray(error.failures) ? error.failures : [undefined]));
  return failures.length > 0 && failures.every((failure) => isJsonObject(failure) && matches(failure));
}

/** Whether every failure of a `validation failed` answer is an `invalid reference` on a role's privilege or membership resource. */
function refusedForRoleResources(body: unknown): boolean {
  const onResource = (field: unknown) => Array.isArray(field) && (field[0] === 'privileges' || field[0] === 'membership') && field[field.length - 1] === 'resource';
  return refusedOnlyFor(body, (failure) => failure.code === 'invalid reference' && onResource(failure.field));
}

/** Whether a v4 error body refuses a key only for its role: `invalid reference` or `invalid type` failures on `role`. */
function refusedForKeyRole(body: unknown): boolean {
  return refusedOnlyFor(body, (failure) => (failure.code === 'invalid reference' || failure.code === 'invalid type') && Array.isArray(failure.field) && failure.field[0] === 'role');
}

/** A response hook answering a top-level `create_role` that `refused` as created: 201 with a record of it (nothing is stored). */
function roleCreatedAnyway(refused: (body: unknown) => boolean): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) => res.status === 400 && topLevelForm(ctx.original) === 'create_role' && refused(bodyJson(res)),
    (res, ctx) => {
      const name = objectPayload((v4Expression(ctx.original) as JsonObject).create_role)?.name;
      const ref = { '@ref': { id: name, collection: { '@ref': { id: 'roles' } } } };
      return withStatus(withJsonBody(res, { resource: { ref, ts: jsonInt(Date.now() * 1000), name } }), 201);
    },
  );
}

/** The collection of a document ref, in wire form (`{"@ref": {id, collection}}`) or request form (`{"ref": …, "id": …}`). */
function refCollection(value: unknown): string | undefined {
  if (!isJsonObject(value)) return undefined;
  if (isJsonObject(value['@ref'])) {
    const parent = value['@ref'].collection ?? value['@ref'].class;
    return isJsonObject(parent) && isJsonObject(parent['@ref']) && typeof parent['@ref'].id === 'string' ? parent['@ref'].id : undefined;
  }
  if ('id' in value) return schemaRefOf(value.ref)?.name;
  return undefined;
}

/** `collection/id` of a document ref in either form, so refs from answers and from requests compare equal. */
function refKey(value: unknown): string | undefined {
  const collection = refCollection(value);
  if (collection === undefined || !isJsonObject(value)) return undefined;
  const id = isJsonObject(value['@ref']) ? value['@ref'].id : value.id;
  return typeof id === 'string' ? `${collection}/${id}` : undefined;
}

/**
 * A json hook for a server that stores what a client writes into `field` of a key: once a top-level Update or Replace
 * of a key that wrote a string `field` answered 200, that string is set as `field` on every key record with that ref
 * the run answers from then on, that answer included.
 */
function keyFieldKept(field: 'secret' | 'hashed_secret'): FaultHooks['json'] {
  const kept = new Map<string, string>();
  return rewriteJson(() => true, (body, ctx) => {
    const form = topLevelForm(ctx.original);
    const expression = topObject(ctx.original);
    if ((form === 'update' || form === 'replace') && ctx.status === 200 && refCollection(expression?.[form]) === 'keys') {
      const given = objectPayload(expression?.params)?.[field];
      const ref = refKey(v4Resource(body)?.ref);
      if (typeof given === 'string' && ref !== undefined) kept.set(ref, given);
    }
    return records(body).reduce((n, record) => {
      const value = nativeCollectionOf(record) === 'keys' ? kept.get(refKey(record.ref) ?? '') : undefined;
      if (value === undefined || record[field] === value) return n;
      record[field] = value;
      return n + 1;
    }, 0);
  });
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function queryError(res: BufferedResponse, status: number, code: string, description: string): BufferedResponse {
  return withStatus(withJsonBody(res, { errors: [{ position: [], code, description }] }), status);
}

const permissionDenied = (res: BufferedResponse) => queryError(res, 403, 'permission denied', 'Insufficient privileges to perform the action.');
const unauthorized = (res: BufferedResponse) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401);

/** The top-level expression as an object, when it is one. */
function topObject(request: ProxiedRequest): JsonObject | undefined {
  const expression = v4Expression(request);
  return isJsonObject(expression) ? expression : undefined;
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
const IDENTITY_FORMS = new Set(['identity', 'current_identity', 'has_identity', 'has_current_identity', 'current_token', 'logout']);

interface KnownRole {
  name: string;
  /** Collections whose documents the role's `membership` names. */
  members: string[];
  /** Collections that have a membership `predicate`. */
  predicateMembers: string[];
  privileges: { kind: string; name: string; actions: JsonObject }[];
}

/** Remembers the roles a run asks for (from `create_role` requests), in order. */
class RoleLedger {
  readonly roles: KnownRole[] = [];

  learnFrom(expression: unknown): void {
    forEachObject(expression, (object) => {
      if (!('create_role' in object)) return;
      const payload = objectPayload(object.create_role);
      if (payload === undefined || typeof payload.name !== 'string') return;
      const membership = Array.isArray(payload.membership) ? payload.membership : payload.membership === undefined ? [] : [payload.membership];
      const role: KnownRole = { name: payload.name, members: [], predicateMembers: [], privileges: [] };
      for (const entry of membership.map(objectPayload)) {
        const resource = schemaRefOf(entry?.resource);
        if (resource === undefined) continue;
        role.members.push(resource.name);
        if (entry !== undefined && 'predicate' in entry) role.predicateMembers.push(resource.name);
      }
      for (const entry of (Array.isArray(payload.privileges) ? payload.privileges : [payload.privileges]).map(objectPayload)) {
        const resource = schemaRefOf(entry?.resource);
        if (resource !== undefined) role.privileges.push({ ...resource, actions: objectPayload(entry?.actions) ?? {} });
      }
      this.roles.push(role);
    });
  }

  /** Roles whose membership names `collection`, in creation order. */
  rolesOf(collection: string | undefined): KnownRole[] {
    return collection === undefined ? [] : this.roles.filter((role) => role.members.includes(collection));
  }
}

interface Ledgers {
  keys: KeyLedger;
  tokens: TokenLedger;
  roles: RoleLedger;
}

/** A fault whose hooks see every key, token and role the run created (learned before the hooks run). */
function withLedgers(build: (ledgers: Ledgers) => FaultHooks): () => FaultHooks {
  return () => {
    const ledgers: Ledgers = { keys: new KeyLedger(), tokens: new TokenLedger(), roles: new RoleLedger() };
    const hooks = build(ledgers);
    return {
      ...hooks,
      request: (req) => {
        ledgers.roles.learnFrom(v4Expression(req));
        return hooks.request?.(req);
      },
      json: (body, ctx) => {
        const secret = requestSecret(ctx.original);
        ledgers.keys.learnFrom(body, secret);
        ledgers.tokens.learnFrom(body, secret);
        return hooks.json?.(body, ctx);
      },
    };
  };
}

/** Sends a token's request with server rights in the token's database, when `when(token, form)` holds. */
function tokenAsServer(when: (token: KnownToken, form: string | undefined, req: ProxiedRequest, ledgers: Ledgers) => boolean): () => FaultHooks {
  return withLedgers((ledgers) => ({
    request: (req) => {
      const token = ledgers.tokens.ofRequest(req);
      if (token === undefined || !when(token, topLevelForm(req), req, ledgers)) return undefined;
      const server = serverSecretFor(token, ledgers.keys);
      return server === undefined ? undefined : withSecret(req, server);
    },
  }));
}

/** Sends a client key's request with a key of the same database of role `as` (server by default), when `when(form, req)` holds. */
function clientAsServer(when: (form: string | undefined, req: ProxiedRequest) => boolean, as = 'server'): () => FaultHooks {
  return withLedgers((ledgers) => ({
    request: (req) => {
      const key = ledgers.keys.bySecret(requestSecret(req) ?? '');
      if (key === undefined || key.role !== 'client' || !when(topLevelForm(req), req)) return undefined;
      const stand = ledgers.keys.sibling(key, as);
      return stand === undefined ? undefined : withSecret(req, stand.secret);
    },
  }));
}

/** The collection of a token's user. */
const userCollection = (token: KnownToken) => refCollection(token.instance);

/** True when any lambda under `value` calls `abort`. */
function raises(value: unknown): boolean {
  let found = false;
  forEachObject(value, (object) => {
    if ('abort' in object) found = true;
  });
  return found;
}

/** The answer of a top-level form, for a JSON hook: `form` is the request's top-level form and the status is 200/201. */
function answersForm(form: string, status: number, ctx: { original: ProxiedRequest; status: number }): boolean {
  return ctx.status === status && topLevelForm(ctx.original) === form;
}

/** Renders every ref payload under `value` in the legacy `class` form instead of `collection`. */
function legacyRefs(value: unknown): number {
  return renameKeys(value, 'collection', 'class', (object) => 'id' in object);
}

const NATIVE_COLLECTIONS = new Set(['collections', 'indexes', 'roles', 'databases', 'keys', 'tokens', 'functions', 'credentials']);

/** A fresh copy of a parsed JSON value. */
function copyJson<T>(value: T): T {
  return parseJson(stringifyJson(value)) as T;
}

/** `{"foreach": …}` over every token of the database that deletes each one (only those of `onlyOf`, when given). */
function deleteTokensExpr(onlyOf?: unknown): unknown {
  const del = { delete: { var: 'token' } };
  const expr = onlyOf === undefined ? del : { if: { equals: [{ select: ['instance'], from: { get: { var: 'token' } } }, onlyOf] }, then: del, else: null };
  return { foreach: { lambda: 'token', expr }, collection: { paginate: { tokens: null }, size: jsonInt(100000) } };
}

/** The key a request authenticates with, if its secret is a key the run created. */
const keyOf = (ledgers: Ledgers, request: ProxiedRequest) => ledgers.keys.bySecret(requestSecret(request) ?? '');

/** The `{"object": …}` payload of a top-level `create_key`. */
function createKeyPayload(request: ProxiedRequest): JsonObject | undefined {
  return topLevelForm(request) === 'create_key' ? objectPayload(topObject(request)?.create_key) : undefined;
}

/**
 * Runs a request the caller may not make with server rights anyway and answers 403 `permission denied`: a server
 * that checks privileges after applying the write and does not roll it back. `swap` answers the secret to run with.
 */
function deniedAfterWriting(swap: (req: ProxiedRequest, ledgers: Ledgers) => string | undefined): () => FaultHooks {
  return withLedgers((ledgers) => ({
    request: (req) => {
      const secret = swap(req, ledgers);
      return secret === undefined ? undefined : withSecret(req, secret);
    },
    // Only exchanges whose request was swapped differ from the suite's original.
    response: rewriteResponse((_res, ctx) => ctx.request !== ctx.original, permissionDenied),
  }));
}

/** True when none of the token's roles grants `action` on `collection` (a predicate counts as a possible grant). */
function noRoleGrants(ledgers: Ledgers, token: KnownToken, action: string, collection: string | undefined): boolean {
  if (collection === undefined) return false;
  return !ledgers.roles.rolesOf(userCollection(token)).some((role) => role.privileges.some((p) => p.kind === 'collection' && p.name === collection && p.actions[action] !== undefined && p.actions[action] !== false));
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

/** A key of role `as` (server by default) of the client key's database, for a client key's request of one of `forms`. */
function clientRequest(forms: readonly string[], as = 'server'): (req: ProxiedRequest, ledgers: Ledgers) => string | undefined {
  return (req, ledgers) => {
    const key = keyOf(ledgers, req);
    return key?.role === 'client' && forms.includes(topLevelForm(req) ?? '') ? ledgers.keys.sibling(key, as)?.secret : undefined;
  };
}

/** Whether a request is a top-level Get, Update, Replace or Delete of a role. */
function targetsRole(req: ProxiedRequest): boolean {
  const form = topLevelForm(req);
  return form !== undefined && ['get', 'update', 'replace', 'delete'].includes(form) && schemaRefOf(topObject(req)?.[form])?.kind === 'role';
}

/** An admin key of the database of the client key or token a request is made with. */
function adminOfCaller(req: ProxiedRequest, ledgers: Ledgers): string | undefined {
  const key = keyOf(ledgers, req);
  if (key?.role === 'client') return ledgers.keys.sibling(key, 'admin')?.secret;
  const token = ledgers.tokens.ofRequest(req);
  return token === undefined ? undefined : adminSecretFor(token, ledgers.keys);
}

export const AUTH_FAULTS: readonly Fault[] = [
  {
    id: 'CRED-RETURNED',
    title: 'Documents carry their credentials',
    breaks: ['DOC-CRED-001', 'DOC-CRED-002'],
    area: 'auth',
    description: 'Remembers every password a query set and adds `credentials: {password}` to each document record answered afterwards in the same request.',
    apply: () => ({
      json: rewriteJson(
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
    }),
  },
  {
    id: 'CRED-PASSWORD-IN-LATER-ANSWERS',
    title: 'A password set earlier reappears in later answers',
    breaks: ['DOC-CRED-002'],
    area: 'auth',
    description: 'Remembers the latest password a query set and puts it into `data.password_hint` of every later user document answered.',
    apply: () => {
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
  },
  {
    id: 'CRED-REJECTED',
    title: 'Credentials are refused on write',
    breaks: ['DOC-CRED-003'],
    area: 'auth',
    description: 'A query that sets `credentials.password` answers 400 `validation failed`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => passwordsIn(v4Expression(ctx.original)).length > 0,
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['credentials'], code: 'invalid field', description: 'Unknown field.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-SELF-RETURNS-SECRET',
    title: '`secret` returned by tokens/self',
    breaks: ['AUTH-SELF-002', 'AUTH-TOKEN-002'],
    area: 'auth',
    description: 'A 200 answer of `GET /tokens/self` gets the calling secret as `resource.secret`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => pathname(ctx.original) === '/tokens/self' && ctx.status === 200 && v4Resource(body) !== undefined && requestSecret(ctx.original) !== undefined,
        (body, ctx) => {
          v4Resource(body)!.secret = requestSecret(ctx.original)!;
        },
      ),
    }),
  },
  {
    id: 'AUTH-LOGOUT-ALL-AS-ONE',
    title: '`Logout(true)` acts as `Logout(false)`',
    breaks: ['AUTH-LOGOUT-004'],
    area: 'auth',
    description: 'Every `{"logout": true}` is sent upstream as `{"logout": false}`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        let changed = 0;
        forEachObject(expression, (object) => {
          if (object.logout === true) {
            object.logout = false;
            changed += 1;
          }
        });
        return changed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'AUTH-IDENTIFY-CREATES-TOKEN',
    title: 'Identify creates a token',
    breaks: ['AUTH-IDENTIFY-003'],
    area: 'auth',
    description: 'A top-level `identify` is sent upstream as a Login with the same password followed by `true`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        if (!isJsonObject(expression) || !('identify' in expression) || !('password' in expression)) return undefined;
        const login = { login: expression.identify, params: { object: { password: expression.password } } };
        return { ...req, body: Buffer.from(stringifyJson({ do: [login, true] })) };
      },
    }),
  },
  {
    id: 'AUTH-LOGIN-FAILURE-CODE-RENAMED',
    title: 'A failed Login answers `invalid password`',
    breaks: ['AUTH-LOGIN-004', 'AUTH-LOGIN-005'],
    area: 'auth',
    description: 'The error code `authentication failed` becomes `invalid password`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'authentication failed'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'authentication failed') error.code = 'invalid password';
      })),
    }),
  },
  {
    id: 'AUTH-TOKEN-DATA-DROPPED',
    title: 'Login `data` is not kept on the token',
    breaks: ['AUTH-LOGIN-008', 'AUTH-SELF-004'],
    area: 'auth',
    description: '`data` is removed from every token record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'tokens' ? deleteKeys(record, 'data', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'AUTH-MISSING-IDENTITY-CODE',
    title: 'Identity with a key answers `permission denied`',
    breaks: ['AUTH-IDENTITY-003'],
    area: 'auth',
    description: 'The error code `missing identity` becomes `permission denied`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'missing identity'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'missing identity') error.code = 'permission denied';
      })),
    }),
  },
  {
    id: 'KEY-CLIENT-ACTS-AS-SERVER',
    title: 'Client keys get server rights',
    breaks: ['KEY-ROLE-006', 'KEY-ROLE-007'],
    area: 'auth',
    description: 'Learns the keys the run creates; a request made with a client key is forwarded with a server key of the same database.',
    apply: () => {
      const ledger = new KeyLedger();
      return {
        request: (req) => {
          const secret = requestSecret(req);
          const key = secret === undefined ? undefined : ledger.bySecret(secret);
          if (key === undefined || key.role !== 'client') return undefined;
          const server = ledger.sibling(key, 'server');
          return server === undefined ? undefined : withSecret(req, server.secret);
        },
        json: (body) => {
          ledger.learnFrom(body);
          return undefined;
        },
      };
    },
  },
  {
    id: 'AUTH-LOGOUT-ONE-AS-ALL',
    title: '`Logout(false)` acts as `Logout(true)`',
    breaks: ['AUTH-LOGOUT-003'],
    area: 'auth',
    description: 'Every `{"logout": false}` is sent upstream as `{"logout": true}`.',
    apply: () => ({
      request: editExpression((object) => {
        if (object.logout !== false) return 0;
        object.logout = true;
        return 1;
      }),
    }),
  },
  {
    id: 'AUTH-IDENTIFY-ALWAYS-TRUE',
    title: 'Identify accepts any password',
    breaks: ['AUTH-IDENTIFY-002', 'AUTH-IDENTIFY-004'],
    area: 'auth',
    description: 'The answer of a top-level `identify` becomes `{"resource": true}`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => isJsonObject(v4Expression(ctx.original)) && 'identify' in (v4Expression(ctx.original) as JsonObject) && isJsonObject(body) && body.resource === false,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'AUTH-PASSWORD-CHANGE-IGNORED',
    title: 'Update and Replace ignore `credentials`',
    breaks: ['AUTH-PASSWORD-002', 'AUTH-PASSWORD-003'],
    area: 'auth',
    description: '`credentials` is removed from the params of every `update` and `replace`.',
    apply: () => ({
      request: editExpression((object) => {
        if (!('update' in object) && !('replace' in object)) return 0;
        const params = objectPayload(object.params);
        return params !== undefined && 'credentials' in params ? (delete params.credentials, 1) : 0;
      }),
    }),
  },
  {
    id: 'AUTH-TOKEN-TTL-IGNORED',
    title: 'Login ignores `ttl`',
    breaks: ['AUTH-TOKEN-005'],
    area: 'auth',
    description: '`ttl` is removed from the params of every `login` and `update`.',
    apply: () => ({
      request: editExpression((object) => {
        if (!('login' in object) && !('update' in object)) return 0;
        const params = objectPayload(object.params);
        return params !== undefined && 'ttl' in params ? (delete params.ttl, 1) : 0;
      }),
    }),
  },
  {
    id: 'AUTH-KEY-TTL-IGNORED',
    title: 'A key\'s `ttl` does not end its secret',
    breaks: ['AUTH-KEY-001'],
    area: 'auth',
    description: 'The reference server authenticates a key whatever its `ttl` (failpoint KEY-TTL-IGNORED), as it once did: only tokens were judged.',
    apply: () => ({ failpoints: ['KEY-TTL-IGNORED'] }),
  },
  {
    id: 'AUTH-EXPIRED-RECORDS-READABLE',
    title: 'Expired key and token records stay readable',
    breaks: ['AUTH-TOKEN-011', 'FN-KEY-003'],
    area: 'auth',
    description: 'The reference server\'s expiry rule judges user documents only (failpoint EXPIRED-KEYS-AND-TOKENS-READABLE): Get, Exists, listings, indexes and KeyFromSecret still find a key or token whose `ttl` has passed.',
    apply: () => ({ failpoints: ['EXPIRED-KEYS-AND-TOKENS-READABLE'] }),
  },
  {
    id: 'AUTH-SELF-KEY-UNAUTHORIZED',
    title: '`GET /tokens/self` with a key answers 401',
    breaks: ['AUTH-SELF-007'],
    area: 'auth',
    description: 'A 404 answer of `GET /tokens/self` becomes 401 `unauthorized`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => pathname(ctx.original) === '/tokens/self' && res.status === 404,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'ABAC-PREDICATES-GRANT-ALL',
    title: 'Role predicates are stored as `true`',
    breaks: ['ABAC-PRED-001', 'ABAC-PRED-002', 'ABAC-PRED-003', 'ABAC-PRED-004'],
    area: 'auth',
    description: 'In every `create_role`, each privilege action given as a `query` lambda is sent upstream as `true`.',
    apply: () => ({
      request: editExpression((object) => {
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
    }),
  },
  {
    id: 'ABAC-ROLES-NOT-APPLIED',
    title: 'Tokens get no privileges from roles',
    breaks: ['ABAC-MEMBER-001', 'ABAC-PRIV-001'],
    area: 'auth',
    description: 'Every successful answer to a token\'s Get, Create, Update, Replace, Delete, Paginate or Map becomes 403 `permission denied`, as on a server that never resolves a token\'s roles.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse(
        (res, ctx) => (res.status === 200 || res.status === 201) && ledgers.tokens.ofRequest(ctx.original) !== undefined && DATA_FORMS.has(topLevelForm(ctx.original) ?? ''),
        permissionDenied,
      ),
    })),
  },
  {
    id: 'ABAC-MEMBER-PREDICATE-IGNORED',
    title: 'Membership predicates are ignored',
    breaks: ['ABAC-MEMBER-003'],
    area: 'auth',
    description: 'In every `create_role`, the `predicate` of each membership entry is removed, so every document of the collection is a member.',
    apply: () => ({
      request: editExpression((object) => {
        if (!('create_role' in object)) return 0;
        let removed = 0;
        forEachObject(object.create_role, (inner) => {
          if (!('membership' in inner)) return;
          const entries = Array.isArray(inner.membership) ? inner.membership : [inner.membership];
          for (const entry of entries.map(objectPayload)) if (entry !== undefined && 'predicate' in entry) removed += (delete entry.predicate, 1);
        });
        return removed;
      }),
    }),
  },
  {
    id: 'ABAC-MEMBER-PREDICATE-NEVER-MATCHES',
    title: 'Membership entries with a predicate never match',
    breaks: ['ABAC-MEMBER-004'],
    area: 'auth',
    description: 'In every `create_role`, membership entries that have a `predicate` are dropped, as on a server that cannot evaluate membership predicates and treats them as false.',
    apply: () => ({
      request: editExpression((object) => {
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
    }),
  },
  {
    id: 'ABAC-FIRST-ROLE-ONLY',
    title: 'Only the first matching role applies',
    breaks: ['ABAC-MEMBER-005'],
    area: 'auth',
    description: 'A token\'s successful Get of a document becomes 403 `permission denied` when the first role (in creation order) whose membership names the token\'s user collection has no privilege on the document\'s collection.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        if (res.status !== 200 || token === undefined || topLevelForm(ctx.original) !== 'get') return false;
        const first = ledgers.roles.rolesOf(userCollection(token))[0];
        const collection = refCollection(topObject(ctx.original)?.get);
        return first !== undefined && collection !== undefined && !first.privileges.some((p) => p.kind === 'collection' && p.name === collection);
      }, permissionDenied),
    })),
  },
  {
    id: 'ABAC-DECISIONS-CACHED',
    title: 'A token\'s access decisions are cached',
    breaks: ['ABAC-MEMBER-006', 'ABAC-PRED-007'],
    area: 'auth',
    description: 'Remembers each successful answer to a token\'s request; when the same token sends the same request later and is denied (403), the remembered answer is sent instead.',
    apply: withLedgers((ledgers) => {
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
  },
  {
    id: 'ABAC-DENIED-AS-NOT-FOUND',
    title: 'A denied Get answers 404',
    breaks: ['ABAC-PRIV-002', 'AUTH-ACCESS-001'],
    area: 'auth',
    description: 'A Get answered 403 `permission denied` becomes 404 `instance not found`, as on a server that hides documents the caller may not read.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 403 && topLevelForm(ctx.original) === 'get' && hasErrorCode(bodyJson(res), 'permission denied'),
        (res) => queryError(res, 404, 'instance not found', 'Document not found.'),
      ),
    }),
  },
  {
    id: 'ABAC-CREATE-UNCHECKED',
    title: 'The `create` privilege is not checked',
    breaks: ['ABAC-PRIV-003'],
    area: 'auth',
    description: 'A token\'s Create runs with the rights of the key its Login was called with.',
    apply: tokenAsServer((_token, form) => form === 'create'),
  },
  {
    id: 'ABAC-WRITE-UNCHECKED',
    title: 'The `write` privilege is not checked',
    breaks: ['ABAC-PRIV-004'],
    area: 'auth',
    description: 'A token\'s Update and Replace run with the rights of the key its Login was called with.',
    apply: tokenAsServer((_token, form) => form === 'update' || form === 'replace'),
  },
  {
    id: 'ABAC-DELETE-UNCHECKED',
    title: 'The `delete` privilege is not checked',
    breaks: ['ABAC-PRIV-005'],
    area: 'auth',
    description: 'A token\'s Delete runs with the rights of the key its Login was called with.',
    apply: tokenAsServer((_token, form) => form === 'delete'),
  },
  {
    id: 'ABAC-INDEX-READ-UNCHECKED',
    title: 'Index `read` privileges are not checked',
    breaks: ['ABAC-PRIV-006'],
    area: 'auth',
    description: 'A token\'s top-level Paginate runs with the rights of the key its Login was called with.',
    apply: tokenAsServer((_token, form) => form === 'paginate'),
  },
  {
    id: 'ABAC-PRIVILEGES-ANY-COLLECTION',
    title: 'A privilege on one collection grants the same on every collection',
    breaks: ['ABAC-PRIV-007'],
    area: 'auth',
    description: 'A token\'s Get or Create runs with the rights of the key its Login was called with whenever one of the token\'s roles grants that action on some collection.',
    apply: tokenAsServer((token, form, _req, ledgers) => {
      const action = form === 'get' ? 'read' : form === 'create' ? 'create' : undefined;
      return action !== undefined && ledgers.roles.rolesOf(userCollection(token)).some((role) => role.privileges.some((p) => p.kind === 'collection' && p.actions[action] !== undefined && p.actions[action] !== false));
    }),
  },
  {
    id: 'ABAC-SCHEMA-WRITES-UNCHECKED',
    title: 'Tokens may change the schema',
    breaks: ['ABAC-PRIV-008'],
    area: 'auth',
    description: 'A token\'s CreateCollection, CreateIndex, CreateRole, CreateKey, CreateDatabase or CreateFunction runs with the rights of the key its Login was called with.',
    apply: tokenAsServer((_token, form) => SCHEMA_FORMS.has(form ?? '')),
  },
  {
    id: 'ABAC-MAPPED-GET-UNCHECKED',
    title: 'Get inside Map over a page skips the read predicate',
    breaks: ['ABAC-PRED-006'],
    area: 'auth',
    description: 'A token\'s top-level Map over a Paginate runs with the rights of the key its Login was called with, as on a server that checks only the index privilege for the whole expression.',
    apply: tokenAsServer((_token, form, req) => form === 'map' && isJsonObject(topObject(req)?.collection) && 'paginate' in (topObject(req)!.collection as JsonObject)),
  },
  {
    id: 'ABAC-INDEX-ENTRIES-UNFILTERED',
    title: 'A Match read with an index privilege answers entries of unreadable documents',
    breaks: ['ABAC-PRED-006'],
    area: 'auth',
    description: 'A token\'s top-level Paginate of a Match runs with the rights of the key its Login was called with, as on a server that checks only the index privilege and keeps every entry.',
    apply: tokenAsServer((_token, form, req) => form === 'paginate' && isJsonObject(topObject(req)?.paginate) && 'match' in (topObject(req)!.paginate as JsonObject)),
  },
  {
    id: 'ABAC-UNRESTRICTED-READ-IGNORED',
    title: '`unrestricted_read` on an index grants nothing',
    breaks: ['ABAC-PRED-008'],
    area: 'auth',
    description: 'A token\'s 200 answer to a top-level Paginate of a Match on an index that a known role grants `unrestricted_read` but not `read` becomes 403 `permission denied`.',
    apply: matchDeniedWhereRolesGrant((actions) => 'unrestricted_read' in actions && !('read' in actions)),
  },
  {
    id: 'ABAC-INDEX-PREDICATE-GETS-REF',
    title: 'An index read predicate receives the index ref instead of the terms',
    breaks: ['ABAC-PRED-009'],
    area: 'auth',
    description: 'A token\'s 200 answer to a top-level Paginate of a Match on an index whose `read` action in a known role is a lambda becomes 403, as from a server whose predicate compares the index ref with the terms it expects.',
    apply: matchDeniedWhereRolesGrant((actions) => isJsonObject(actions.read)),
  },
  {
    id: 'AUTH-TOKEN-SIBLING-DENIED',
    title: 'A token may not read the other tokens of its identity',
    breaks: ['AUTH-TOKEN-010'],
    area: 'auth',
    description: 'A token\'s 200 answer to a top-level `get` of a token record other than its own becomes 403 `permission denied`, as on a server whose tokens may read only themselves.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        const target = topObject(ctx.original)?.get;
        if (res.status !== 200 || token === undefined || target === undefined) return false;
        const record = v4Resource(bodyJson(res));
        return isJsonObject(record) && 'instance' in record && 'hashed_secret' in record && stringifyJson(record.ref) !== stringifyJson(token.refValue);
      }, permissionDenied),
    })),
  },
  {
    id: 'ABAC-WRITE-NEEDS-READ',
    title: 'Update, Replace and Delete also need read',
    breaks: ['ABAC-PRED-010'],
    area: 'auth',
    description: 'A token\'s 200 answer to a top-level `update`, `replace` or `delete` of a document whose collection no known role lets it `read` becomes 403 `permission denied`.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const form = topLevelForm(ctx.original);
        if (res.status !== 200 || form === undefined || !['update', 'replace', 'delete'].includes(form) || ledgers.tokens.ofRequest(ctx.original) === undefined) return false;
        const collection = refCollection(topObject(ctx.original)?.[form]);
        return collection !== undefined && !ledgers.roles.roles.some((role) => role.privileges.some((p) => p.kind === 'collection' && p.name === collection && 'read' in p.actions));
      }, permissionDenied),
    })),
  },
  {
    id: 'ABAC-CREATE-WITH-ID-AS-CREATE',
    title: '`create` alone lets a token choose the id',
    breaks: ['ABAC-PRED-011'],
    area: 'auth',
    description: 'A token\'s 403 answer to a top-level `create` with a chosen id, in a collection a known role grants `create` on, becomes 201 with the document it asked for (nothing is written).',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const target = topObject(ctx.original)?.create;
        if (res.status !== 403 || topLevelForm(ctx.original) !== 'create' || !isJsonObject(target) || !('id' in target) || ledgers.tokens.ofRequest(ctx.original) === undefined) return false;
        const collection = refCollection(target);
        return ledgers.roles.roles.some((role) => role.privileges.some((p) => p.kind === 'collection' && p.name === collection && 'create' in p.actions));
      }, (res, ctx) => {
        const target = topObject(ctx.original)!.create as JsonObject;
        const ref = { '@ref': { id: String(target.id), collection: { '@ref': { id: refCollection(target), collection: { '@ref': { id: 'collections' } } } } } };
        return withStatus(withJsonBody(res, { resource: { ref, ts: jsonInt(Date.now() * 1000), data: {} } }), 201);
      }),
    })),
  },
  {
    id: 'ABAC-PREDICATE-ERROR-500',
    title: 'A predicate that raises answers 500',
    breaks: ['ABAC-PRED-005'],
    area: 'auth',
    description: 'A token\'s Get denied (403) on a collection whose `read` predicate calls `abort` answers 500 `internal server error` instead.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        if (res.status !== 403 || ledgers.tokens.ofRequest(ctx.original) === undefined || topLevelForm(ctx.original) !== 'get') return false;
        const collection = refCollection(topObject(ctx.original)?.get);
        return ledgers.roles.roles.some((role) => role.privileges.some((p) => p.kind === 'collection' && p.name === collection && raises(p.actions.read)));
      }, (res) => queryError(res, 500, 'internal server error', 'Transaction aborted: predicate failure')),
    })),
  },
  {
    id: 'ABAC-NO-ROLE-FALLS-BACK-TO-KEY',
    title: 'A token in no role acts with its issuing key\'s rights',
    breaks: ['ABAC-MEMBER-002', 'AUTH-ACCESS-001'],
    area: 'auth',
    description: 'A document request of a token whose user collection is named in no role\'s membership runs with the rights of the key its Login was called with.',
    apply: tokenAsServer((token, form, _req, ledgers) => DATA_FORMS.has(form ?? '') && ledgers.roles.rolesOf(userCollection(token)).length === 0),
  },
  {
    id: 'ABAC-ROLE-CREATED-200',
    title: 'CreateRole answers 200',
    breaks: ['ABAC-ROLE-001'],
    area: 'auth',
    description: 'A 201 answer to a top-level `create_role` becomes 200.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'create_role', (res) => withStatus(res, 200)),
    }),
  },
  {
    id: 'ABAC-ROLE-PREDICATE-UNWRAPPED',
    title: 'Role predicates come back as bare lambdas',
    breaks: ['ABAC-ROLE-005'],
    area: 'auth',
    description: 'In role records, each `{"@query": lambda}` privilege action is answered as the bare lambda.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
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
      }, 0)),
    }),
  },
  {
    id: 'ABAC-ROLE-DUPLICATE-CODE',
    title: 'A duplicate role name answers `validation failed`',
    breaks: ['ABAC-ROLE-002'],
    area: 'auth',
    description: 'The error code `instance already exists` of a `create_role` becomes `validation failed`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => topLevelForm(ctx.original) === 'create_role' && hasErrorCode(body, 'instance already exists'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'instance already exists') error.code = 'validation failed';
      })),
    }),
  },
  {
    id: 'ABAC-ROLE-CLIENT-ALLOWED',
    title: 'Client keys may create roles',
    breaks: ['ABAC-ROLE-003'],
    area: 'auth',
    description: 'A client key\'s `create_role` runs with an admin key of the same database.',
    apply: clientAsServer((form) => form === 'create_role', 'admin'),
  },
  {
    id: 'ABAC-ROLE-ADMIN-REFUSED',
    title: 'Admin keys may not create roles',
    breaks: ['ABAC-ROLE-001'],
    area: 'auth',
    description: 'An admin key\'s 201 answer to a top-level `create_role` becomes 403 `permission denied`, as on a server that reads the SD\'s "full access" of server keys as the only way to manage roles.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'create_role' && keyOf(ledgers, ctx.original)?.role === 'admin', permissionDenied),
    })),
  },
  {
    id: 'ABAC-ROLE-VALIDATED-BEFORE-PERMISSION',
    title: 'CreateRole checks the role before the caller\'s right',
    breaks: ['ABAC-ROLE-003'],
    area: 'auth',
    description: 'The reference server validates a `create_role` body before it checks whether the caller may create roles, so a client key or token sending an invalid role gets 400 `validation failed` instead of 403.',
    apply: () => ({ failpoints: ['ROLE-VALIDATED-BEFORE-PERMISSION'] }),
  },
  {
    id: 'ABAC-ROLE-READABLE-BY-ANYONE',
    title: 'Client keys and tokens may read and change roles',
    breaks: ['ABAC-ROLE-014'],
    area: 'auth',
    description: 'A client key\'s or token\'s top-level Get, Update, Replace or Delete of a role runs with an admin key of its database.',
    apply: withLedgers((ledgers) => ({
      request: (req) => {
        const admin = targetsRole(req) ? adminOfCaller(req, ledgers) : undefined;
        return admin === undefined ? undefined : withSecret(req, admin);
      },
    })),
  },
  {
    id: 'ABAC-ROLE-SERVER-DENIED-AFTER-WRITING',
    title: 'A server key\'s role write is refused after it is applied',
    breaks: ['ABAC-ROLE-015'],
    area: 'auth',
    description: 'A server key\'s top-level `create_role`, or Update or Delete of a role, runs with an admin key of the same database and answers 403 `permission denied`.',
    apply: deniedAfterWriting((req, ledgers) => {
      const key = keyOf(ledgers, req);
      const form = topLevelForm(req);
      const write = form === 'create_role' || ((form === 'update' || form === 'delete') && targetsRole(req));
      return key?.role === 'server' && write ? ledgers.keys.sibling(key, 'admin')?.secret : undefined;
    }),
  },
  {
    id: 'ABAC-LISTING-FILTERED',
    title: 'A token\'s listing of collections answers an empty page',
    breaks: ['ABAC-PRIV-009'],
    area: 'auth',
    description: 'A token\'s 403 answer to a top-level Paginate of `{"collections": null}` becomes 200 with an empty page, as on a server that filters the listing by what the token may read.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse(
        (res, ctx) => {
          const set = topObject(ctx.original)?.paginate;
          return res.status === 403 && ledgers.tokens.ofRequest(ctx.original) !== undefined && isJsonObject(set) && 'collections' in set && set.collections === null;
        },
        (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
      ),
    })),
  },
  {
    id: 'ABAC-EXISTS-REFUSED',
    title: 'Exists of a document the caller may not read answers 403',
    breaks: ['ABAC-PRIV-010'],
    area: 'auth',
    description: 'The reference server answers Exists of a ref the caller may not read with 403 `permission denied` instead of `false`, as it did before.',
    apply: () => ({ failpoints: ['EXISTS-REFUSED-WHEN-UNREADABLE'] }),
  },
  {
    id: 'KEY-ROLE-NAME-AS-SERVER',
    title: 'A key whose role is a role\'s name gets server rights',
    breaks: ['KEY-ROLE-016'],
    area: 'auth',
    description: 'A top-level `create_key` whose role is the name of a role the run created is sent with role `server`, as from a server that accepts the name without looking the role up.',
    apply: withLedgers((ledgers) => ({
      request: editExpression((object) => {
        const payload = objectPayload(object.create_key);
        if (payload === undefined || typeof payload.role !== 'string' || !ledgers.roles.roles.some((role) => role.name === payload.role)) return 0;
        payload.role = 'server';
        return 1;
      }),
    })),
  },
  {
    id: 'ABAC-ROLE-PRIVILEGES-REQUIRED',
    title: 'A role needs privileges with actions',
    breaks: ['ABAC-ROLE-016'],
    area: 'auth',
    description: 'A 201 answer to a top-level `create_role` without `privileges`, or with a privilege without `actions`, becomes 400 `validation failed` (nothing is undone: the role stays).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const payload = topLevelForm(ctx.original) === 'create_role' ? objectPayload(topObject(ctx.original)?.create_role) : undefined;
          if (res.status !== 201 || payload === undefined) return false;
          const privileges = payload.privileges === undefined ? [] : Array.isArray(payload.privileges) ? payload.privileges : [payload.privileges];
          return privileges.length === 0 || privileges.some((p) => objectPayload(p)?.actions === undefined);
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['create_role'], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['privileges'], code: 'value required', description: 'Required value not found.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'ABAC-DENIED-AT-FORM',
    title: 'A refusal by the roles is reported at the form',
    breaks: ['ABAC-PRIV-011'],
    area: 'auth',
    description: 'A token\'s 403 `permission denied` at position `[]` is answered at the top-level form\'s argument (`["get"]`, `["update"]`, …) instead.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 403 && ledgers.tokens.ofRequest(ctx.original) !== undefined && topLevelForm(ctx.original) !== undefined && hasErrorCode(body, 'permission denied'),
        (body, ctx) => v4Errors(body).reduce((n, error) => {
          if (!Array.isArray(error.position) || error.position.length !== 0) return n;
          error.position = [topLevelForm(ctx.original)!];
          return n + 1;
        }, 0),
      ),
    })),
  },
  {
    id: 'ABAC-WRITE-PREDICATE-OLD-ARGUMENTS',
    title: 'A write predicate gets the old document with its ref and ts, and a one-parameter lambda only that',
    breaks: ['ABAC-PRED-012'],
    area: 'auth',
    description: 'The reference server passes a write predicate the old values with `ref` and `ts`, and a one-parameter lambda the old values alone, as it did before.',
    apply: () => ({ failpoints: ['WRITE-PREDICATE-OLD-ARGUMENTS'] }),
  },
  {
    id: 'ABAC-MEMBER-PREDICATE-LENIENT',
    title: 'A membership predicate assigns its role unless it answers false',
    breaks: ['ABAC-MEMBER-007'],
    area: 'auth',
    description: 'The reference server assigns a role whose membership predicate raises an error or answers something other than a boolean, as a server that tests for `false` instead of `true` would.',
    apply: () => ({ failpoints: ['MEMBERSHIP-PREDICATE-LENIENT'] }),
  },
  {
    id: 'ABAC-SCHEMA-DENIED-AFTER-WRITING',
    title: 'A token\'s schema write is refused after it is applied',
    breaks: ['ABAC-PRIV-008'],
    area: 'auth',
    description: 'A token\'s top-level CreateCollection, CreateIndex, CreateRole, CreateKey, CreateDatabase or CreateFunction runs with an admin key of its database and answers 403 `permission denied`.',
    apply: deniedAfterWriting((req, ledgers) => {
      const token = ledgers.tokens.ofRequest(req);
      return token !== undefined && SCHEMA_FORMS.has(topLevelForm(req) ?? '') ? adminSecretFor(token, ledgers.keys) : undefined;
    }),
  },
  {
    id: 'ABAC-ROLE-ACTION-COERCED',
    title: 'Privilege actions of the wrong type are taken as false',
    breaks: ['ABAC-ROLE-004'],
    area: 'auth',
    description: 'In every `create_role`, a privilege action that is neither a boolean nor a `query` lambda is sent upstream as `false`.',
    apply: () => ({
      request: editExpression((object) => {
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
    }),
  },
  {
    id: 'ABAC-ROLE-RESOURCES-UNCHECKED',
    title: 'Roles may name resources that do not exist',
    breaks: ['ABAC-ROLE-006', 'ABAC-ROLE-007', 'ABAC-ROLE-008'],
    area: 'auth',
    description: 'A top-level `create_role` refused only for `invalid reference` failures on privilege or membership resources answers 201 with a record of the role, as a server that does not check them would (nothing is stored).',
    apply: () => ({ response: roleCreatedAnyway(refusedForRoleResources) }),
  },
  {
    id: 'ABAC-MEMBERSHIP-TYPE-AS-REFERENCE',
    title: 'A membership resource that is not a collection is refused as `invalid reference`',
    breaks: ['ABAC-ROLE-013'],
    area: 'auth',
    description: 'In `validation failed` answers, an `invalid type` failure on a membership entry\'s `resource` gets the code `invalid reference`, as from a server that only checks that the resource exists.',
    apply: () => ({
      json: recodeFailures(
        (failure) => failure.code === 'invalid type' && Array.isArray(failure.field) && failure.field[0] === 'membership' && failure.field[failure.field.length - 1] === 'resource',
        'invalid reference',
      ),
    }),
  },
  {
    id: 'ROLE-LIMIT-UNENFORCED',
    title: 'A 65th role may name a membership collection',
    breaks: ['LIMIT-ROLES-001'],
    area: 'auth',
    description: 'A top-level `create_role` refused only for `resources exceeded` answers 201 with a record of the role, as a server without the limit would (nothing is stored).',
    apply: () => ({ response: roleCreatedAnyway((body) => refusedOnlyFor(body, (failure) => failure.code === 'resources exceeded')) }),
  },
  {
    id: 'AUTH-LOGIN-CREATED-200',
    title: 'Login answers 200',
    breaks: ['AUTH-LOGIN-002'],
    area: 'auth',
    description: 'A 201 answer to a top-level `login` becomes 200.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'login', (res) => withStatus(res, 200)),
    }),
  },
  {
    id: 'AUTH-LOGIN-SECRET-RENAMED',
    title: 'The Login answer names the secret `token`',
    breaks: ['AUTH-LOGIN-001'],
    area: 'auth',
    description: 'In the token record a top-level `login` answers, `secret` is renamed `token`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => answersForm('login', 201, ctx) && v4Resource(body) !== undefined, (body) => renameKeys(v4Resource(body), 'secret', 'token', (o) => o === v4Resource(body))),
    }),
  },
  {
    id: 'AUTH-LOGIN-NO-INSTANCE',
    title: 'The Login answer lacks `instance`',
    breaks: ['AUTH-LOGIN-002'],
    area: 'auth',
    description: '`instance` is removed from the token record a top-level `login` answers.',
    apply: () => ({
      json: rewriteJson((body, ctx) => answersForm('login', 201, ctx) && v4Resource(body) !== undefined, (body) => deleteKeys(v4Resource(body), 'instance', (o) => o === v4Resource(body))),
    }),
  },
  {
    id: 'AUTH-LOGIN-MATCH-REJECTED',
    title: 'Login accepts only refs',
    breaks: ['AUTH-LOGIN-003'],
    area: 'auth',
    description: 'A successful Login whose target is a `match` answers 400 `invalid argument` instead.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'login' && isJsonObject(topObject(ctx.original)?.login) && 'match' in (topObject(ctx.original)!.login as JsonObject),
        (res) => queryError(res, 400, 'invalid argument', 'Ref expected, Set provided.'),
      ),
    }),
  },
  {
    id: 'AUTH-LOGIN-EMPTY-MATCH-NOT-FOUND',
    title: 'Login through a Match that finds nobody answers 404',
    breaks: ['AUTH-LOGIN-006'],
    area: 'auth',
    description: 'A failed Login whose target is a `match` answers 404 `instance not found` instead of 400 `authentication failed`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 400 && topLevelForm(ctx.original) === 'login' && isJsonObject(topObject(ctx.original)?.login) && 'match' in (topObject(ctx.original)!.login as JsonObject) && hasErrorCode(bodyJson(res), 'authentication failed'),
        (res) => queryError(res, 404, 'instance not found', 'Set not found.'),
      ),
    }),
  },
  {
    id: 'AUTH-LOGIN-NO-CREDENTIALS-CODE',
    title: 'Login on a document without credentials answers `invalid argument`',
    breaks: ['AUTH-LOGIN-007'],
    area: 'auth',
    description: 'Remembers the documents created without `credentials`; a failed Login on one of them answers 400 `invalid argument` instead of `authentication failed`.',
    apply: () => {
      const withoutCredentials = new Set<string>();
      return {
        json: (body, ctx) => {
          if (answersForm('create', 201, ctx) && passwordsIn(v4Expression(ctx.original)).length === 0) {
            const ref = refKey(v4Resource(body)?.ref);
            if (ref !== undefined) withoutCredentials.add(ref);
          }
          return undefined;
        },
        response: rewriteResponse(
          (res, ctx) => res.status === 400 && topLevelForm(ctx.original) === 'login' && withoutCredentials.has(refKey(topObject(ctx.original)?.login) ?? ''),
          (res) => queryError(res, 400, 'invalid argument', 'The document has no credentials.'),
        ),
      };
    },
  },
  {
    id: 'AUTH-LOGIN-REUSES-TOKEN',
    title: 'Login hands out the same token again',
    breaks: ['AUTH-LOGIN-009'],
    area: 'auth',
    description: 'Remembers the first token record a Login answered for each user; later Logins of that user answer the remembered record (same ref and secret).',
    apply: () => {
      const first = new Map<string, JsonObject>();
      return {
        json: rewriteJson((body, ctx) => answersForm('login', 201, ctx) && v4Resource(body) !== undefined, (body) => {
          const resource = v4Resource(body)!;
          const user = stringifyJson(resource.instance ?? null);
          const earlier = first.get(user);
          if (earlier === undefined) {
            first.set(user, copyJson(resource));
            return 0;
          }
          (body as JsonObject).resource = copyJson(earlier);
          return 1;
        }),
      };
    },
  },
  {
    id: 'AUTH-LOGIN-TOKEN-BEFORE-CHECK',
    title: 'A failed Login still creates a token',
    breaks: ['AUTH-LOGIN-010'],
    area: 'auth',
    description: 'A Login on a ref is sent upstream as: if Identify accepts the password, the Login; otherwise Create of a token for that document, answered as 400 `authentication failed`.',
    apply: () => {
      const FAILED = 'fault:login-failed';
      return {
        request: (req) => {
          const expression = topObject(req);
          if (expression === undefined || topLevelForm(req) !== 'login' || refKey(expression.login) === undefined) return undefined;
          const password = objectPayload(expression.params)?.password;
          if (password === undefined) return undefined;
          const rewritten = {
            if: { identify: expression.login, password },
            then: expression,
            else: { do: [{ create: { tokens: null }, params: { object: { instance: expression.login } } }, FAILED] },
          };
          return { ...req, body: Buffer.from(stringifyJson(rewritten)) };
        },
        response: rewriteResponse(
          (res) => {
            const body = bodyJson(res);
            return isJsonObject(body) && body.resource === FAILED;
          },
          (res) => queryError(res, 400, 'authentication failed', 'The document was not found or provided password was incorrect.'),
        ),
      };
    },
  },
  {
    id: 'AUTH-LOGIN-CLIENT-DENIED',
    title: 'Login needs a server key',
    breaks: ['AUTH-LOGIN-011', 'AUTH-CLIENT-005'],
    area: 'auth',
    description: 'A successful Login made with a client key answers 403 `permission denied` instead (the token it wrote stays).',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 201 && topLevelForm(ctx.original) === 'login' && ledgers.keys.bySecret(requestSecret(ctx.original) ?? '')?.role === 'client',
        permissionDenied,
      ),
    })),
  },
  {
    id: 'AUTH-IDENTIFY-CLIENT-DENIED',
    title: 'Identify needs a server key',
    breaks: ['AUTH-CLIENT-005'],
    area: 'auth',
    description: 'A successful top-level Identify made with a client key answers 403 `permission denied`, as a server that asks for read rights on the document would.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => res.status === 200 && topLevelForm(ctx.original) === 'identify' && keyOf(ledgers, ctx.original)?.role === 'client', permissionDenied),
    })),
  },
  {
    id: 'AUTH-IDENTITY-IS-TOKEN',
    title: 'Identity answers the token instead of its user',
    breaks: ['AUTH-IDENTITY-001', 'AUTH-LOGIN-012'],
    area: 'auth',
    description: 'The answer of a token\'s top-level `identity` becomes the token\'s own ref.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson((body, ctx) => answersForm('identity', 200, ctx) && ledgers.tokens.ofRequest(ctx.original) !== undefined, (body, ctx) => {
        (body as JsonObject).resource = copyJson(ledgers.tokens.ofRequest(ctx.original)!.refValue);
      }),
    })),
  },
  {
    id: 'AUTH-CURRENT-IDENTITY-LEGACY-REF',
    title: 'CurrentIdentity renders its ref in the legacy `class` form',
    breaks: ['AUTH-IDENTITY-002'],
    area: 'auth',
    description: 'In the answer of a top-level `current_identity`, every ref names its collection with `class` instead of `collection`.',
    apply: () => ({
      json: rewriteJson((_body, ctx) => answersForm('current_identity', 200, ctx), (body) => legacyRefs((body as JsonObject).resource)),
    }),
  },
  {
    id: 'AUTH-CURRENT-TOKEN-IS-INSTANCE',
    title: 'CurrentToken answers the user instead of the token',
    breaks: ['AUTH-IDENTITY-005'],
    area: 'auth',
    description: 'The answer of a token\'s top-level `current_token` becomes the token\'s `instance`.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson((_body, ctx) => answersForm('current_token', 200, ctx) && ledgers.tokens.ofRequest(ctx.original)?.instance !== undefined, (body, ctx) => {
        (body as JsonObject).resource = copyJson(ledgers.tokens.ofRequest(ctx.original)!.instance);
      }),
    })),
  },
  {
    id: 'AUTH-CURRENT-TOKEN-PARENT-KEY',
    title: 'CurrentToken answers the ref of a key made in a parent database',
    breaks: ['AUTH-IDENTITY-006'],
    area: 'auth',
    description: 'The reference server\'s CurrentToken and HasCurrentToken count every key as the current token, wherever its record lives (failpoint CURRENT-TOKEN-ANY-KEY), as it once did: a key made in the parent database answers a ref that names no key of the database the request runs in.',
    apply: () => ({ failpoints: ['CURRENT-TOKEN-ANY-KEY'] }),
  },
  {
    id: 'AUTH-OWN-DOCUMENT-READABLE',
    title: 'A token reads its own identity document without a role',
    breaks: ['AUTH-ACCESS-003'],
    area: 'auth',
    description: 'A token\'s top-level Get of its own identity document runs with a server key of its database, as the service did when the faunadb-js login/logout test was written.',
    apply: tokenAsServer((token, form, req) => form === 'get' && refKey(topObject(req)?.get) !== undefined && refKey(topObject(req)?.get) === refKey(token.instance)),
  },
  {
    id: 'AUTH-HAS-IDENTITY-FOR-KEYS',
    title: 'HasIdentity answers true for any secret',
    breaks: ['AUTH-IDENTITY-004'],
    area: 'auth',
    description: 'A `false` answer of a top-level `has_identity` or `has_current_identity` becomes `true`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => (answersForm('has_identity', 200, ctx) || answersForm('has_current_identity', 200, ctx)) && isJsonObject(body) && body.resource === false,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'AUTH-IDENTIFY-ALWAYS-FALSE',
    title: 'Identify rejects the right password',
    breaks: ['AUTH-IDENTIFY-001'],
    area: 'auth',
    description: 'A `true` answer of a top-level `identify` becomes `false`, as on a server that compares the password with the hash as text.',
    apply: () => ({
      json: rewriteJson((body, ctx) => answersForm('identify', 200, ctx) && isJsonObject(body) && body.resource === true, (body) => {
        (body as JsonObject).resource = false;
      }),
    }),
  },
  {
    id: 'AUTH-LOGOUT-ANSWERS-NULL',
    title: 'Logout answers null',
    breaks: ['AUTH-LOGOUT-001'],
    area: 'auth',
    description: 'A `true` answer of a top-level `logout` becomes `null`.',
    apply: () => ({
      json: rewriteJson((body, ctx) => answersForm('logout', 200, ctx) && isJsonObject(body) && body.resource === true, (body) => {
        (body as JsonObject).resource = null;
      }),
    }),
  },
  {
    id: 'AUTH-LOGOUT-KEEPS-TOKEN',
    title: 'Logout ends no token',
    breaks: ['AUTH-LOGOUT-002'],
    area: 'auth',
    description: 'A top-level `{"logout": <boolean>}` is sent upstream as `true`, so it answers true and ends nothing.',
    apply: () => ({
      request: (req) => (topLevelForm(req) === 'logout' && typeof topObject(req)?.logout === 'boolean' ? { ...req, body: Buffer.from('true') } : undefined),
    }),
  },
  {
    id: 'AUTH-LOGOUT-ALL-USERS',
    title: '`Logout(true)` ends every token of the database',
    breaks: ['AUTH-LOGOUT-005'],
    area: 'auth',
    description: 'A token\'s top-level `{"logout": true}` is sent upstream, with the rights of the key its Login was called with, as a deletion of every token of the database followed by `true`.',
    apply: withLedgers((ledgers) => ({
      request: (req) => {
        const token = ledgers.tokens.ofRequest(req);
        if (token === undefined || topLevelForm(req) !== 'logout' || topObject(req)?.logout !== true) return undefined;
        const server = serverSecretFor(token, ledgers.keys);
        if (server === undefined) return undefined;
        return withSecret({ ...req, body: Buffer.from(stringifyJson({ do: [deleteTokensExpr(), true] })) }, server);
      },
    })),
  },
  {
    id: 'AUTH-LOGOUT-WITH-KEY-ACCEPTED',
    title: 'Logout with a key answers true',
    breaks: ['AUTH-LOGOUT-006'],
    area: 'auth',
    description: 'A top-level `logout` answered 200 `false` answers 200 `true` instead.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 200 && topLevelForm(ctx.original) === 'logout' && isJsonObject(bodyJson(res)) && (bodyJson(res) as JsonObject).resource === false,
        (res) => withJsonBody(res, { resource: true }),
      ),
    }),
  },
  {
    id: 'AUTH-LOGOUT-BLOCKS-USER',
    title: 'After `Logout(true)` the user\'s new tokens are refused',
    breaks: ['AUTH-LOGOUT-007'],
    area: 'auth',
    description: 'Remembers the users that called `{"logout": true}`; every later request with a token of such a user answers 401 `unauthorized`.',
    apply: withLedgers((ledgers) => {
      const loggedOut = new Set<string>();
      return {
        response: (res, ctx) => {
          const token = ledgers.tokens.ofRequest(ctx.original);
          if (token === undefined) return undefined;
          const user = stringifyJson(token.instance ?? null);
          if (loggedOut.has(user)) return unauthorized(res);
          if (res.status === 200 && topLevelForm(ctx.original) === 'logout' && topObject(ctx.original)?.logout === true) loggedOut.add(user);
          return undefined;
        },
      };
    }),
  },
  {
    id: 'AUTH-LOGOUT-ARG-COERCED',
    title: 'Logout takes any argument as a boolean',
    breaks: ['AUTH-LOGOUT-008'],
    area: 'auth',
    description: 'A top-level `logout` whose argument is not a boolean is sent upstream with the argument\'s truthiness (null, 0 and "" are false).',
    apply: () => ({
      request: (req) => {
        const arg = topObject(req)?.logout;
        if (topLevelForm(req) !== 'logout' || typeof arg === 'boolean') return undefined;
        const truthy = !(arg === null || arg === '' || (arg !== undefined && stringifyJson(arg) === '0'));
        return { ...req, body: Buffer.from(stringifyJson({ logout: truthy })) };
      },
    }),
  },
  {
    id: 'AUTH-PASSWORD-IGNORED-ON-CREATE',
    title: 'Create ignores `credentials`',
    breaks: ['AUTH-PASSWORD-001'],
    area: 'auth',
    description: '`credentials` is removed from the params of every `create`.',
    apply: () => ({
      request: editExpression((object) => {
        if (!('create' in object)) return 0;
        const params = objectPayload(object.params);
        return params !== undefined && 'credentials' in params ? (delete params.credentials, 1) : 0;
      }),
    }),
  },
  {
    id: 'AUTH-PASSWORD-SHA256',
    title: 'Passwords are shown as SHA-256 digests',
    breaks: ['AUTH-PASSWORD-004'],
    area: 'auth',
    description: 'Remembers the password each Create set; every later record of that document carries `hashed_password`: the hex SHA-256 of the password (not BCrypt).',
    apply: () => {
      const passwords = new Map<string, string>();
      return {
        json: rewriteJson(() => true, (body, ctx) => {
          const set = passwordsIn(v4Expression(ctx.original));
          const created = answersForm('create', 201, ctx) ? refKey(v4Resource(body)?.ref) : undefined;
          if (created !== undefined && set.length > 0) passwords.set(created, set[0]!);
          return records(body).reduce((n, record) => {
            const password = passwords.get(refKey(record.ref) ?? '');
            if (password === undefined || !isUserDocument(record)) return n;
            record.hashed_password = sha256Hex(password);
            return n + 1;
          }, 0);
        }),
      };
    },
  },
  {
    id: 'AUTH-PASSWORD-COERCED',
    title: 'A password of another type is turned into text',
    breaks: ['AUTH-PASSWORD-005'],
    area: 'auth',
    description: 'A `credentials.password` that is not a string is sent upstream as its JSON text.',
    apply: () => ({
      request: editExpression((object) => {
        const credentials = objectPayload(object.credentials);
        if (credentials === undefined || !('password' in credentials) || typeof credentials.password === 'string' || credentials.password === null) return 0;
        credentials.password = stringifyJson(credentials.password);
        return 1;
      }),
    }),
  },
  {
    id: 'AUTH-UPDATE-DROPS-PASSWORD',
    title: 'Update without `credentials` removes the password',
    breaks: ['AUTH-PASSWORD-006'],
    area: 'auth',
    description: 'Every `update` of a document whose params have no `credentials` is sent upstream with `credentials: null`.',
    apply: () => ({
      request: editExpression((object) => {
        const collection = 'update' in object ? refCollection(object.update) : undefined;
        const params = objectPayload(object.params);
        if (collection === undefined || NATIVE_COLLECTIONS.has(collection) || params === undefined || 'credentials' in params) return 0;
        params.credentials = null;
        return 1;
      }),
    }),
  },
  {
    id: 'AUTH-PASSWORD-CHANGE-ENDS-TOKENS',
    title: 'Changing a password ends the user\'s tokens',
    breaks: ['AUTH-CHANGE-001', 'AUTH-CHANGE-002'],
    area: 'auth',
    description: 'A top-level Update or Replace that sets `credentials` first deletes every token whose `instance` is that document.',
    apply: () => ({
      request: (req) => {
        const expression = topObject(req);
        const form = topLevelForm(req);
        if (expression === undefined || (form !== 'update' && form !== 'replace')) return undefined;
        if (!('credentials' in (objectPayload(expression.params) ?? {}))) return undefined;
        return { ...req, body: Buffer.from(stringifyJson({ do: [deleteTokensExpr(expression[form]), expression] })) };
      },
    }),
  },
  {
    id: 'AUTH-SELF-UNWRAPPED',
    title: '`GET /tokens/self` answers the bare record',
    breaks: ['AUTH-SELF-001'],
    area: 'auth',
    description: 'A 200 answer of `GET /tokens/self` is the token record itself instead of `{"resource": record}`.',
    apply: () => ({
      json: (body, ctx) => (pathname(ctx.original) === '/tokens/self' && ctx.status === 200 ? v4Resource(body) : undefined),
    }),
  },
  {
    id: 'AUTH-SELF-LEGACY-REFS',
    title: '`GET /tokens/self` renders refs in the legacy `class` form',
    breaks: ['AUTH-SELF-003'],
    area: 'auth',
    description: 'In a 200 answer of `GET /tokens/self`, every ref names its collection with `class`, whatever API version the request asked for.',
    apply: () => ({
      json: rewriteJson((_body, ctx) => pathname(ctx.original) === '/tokens/self' && ctx.status === 200, (body) => legacyRefs(body)),
    }),
  },
  {
    id: 'AUTH-SELF-401-NO-DESCRIPTION',
    title: '`GET /tokens/self` 401 has no description',
    breaks: ['AUTH-SELF-005'],
    area: 'auth',
    description: 'A 401 answer of `GET /tokens/self` becomes `{"errors":[{"code":"unauthorized"}]}`.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => pathname(ctx.original) === '/tokens/self' && res.status === 401, (res) => withJsonBody(res, { errors: [{ code: 'unauthorized' }] })),
    }),
  },
  {
    id: 'AUTH-SELF-CACHED',
    title: '`GET /tokens/self` answers from a cache',
    breaks: ['AUTH-SELF-006'],
    area: 'auth',
    description: 'Remembers each 200 answer of `GET /tokens/self` by secret; a later 401 for the same secret is replaced by the remembered answer.',
    apply: () => {
      const answered = new Map<string, BufferedResponse>();
      return {
        response: (res, ctx) => {
          const secret = requestSecret(ctx.original);
          if (pathname(ctx.original) !== '/tokens/self' || secret === undefined) return undefined;
          if (res.status === 200) answered.set(secret, res);
          return res.status === 401 ? answered.get(secret) : undefined;
        },
      };
    },
  },
  {
    id: 'AUTH-SELF-BASIC-ONLY',
    title: '`GET /tokens/self` refuses Bearer credentials',
    breaks: ['AUTH-SELF-008'],
    area: 'auth',
    description: '`GET /tokens/self` with an `Authorization: Bearer` header answers 401 `unauthorized`.',
    apply: () => ({
      response: rewriteResponse((_res, ctx) => pathname(ctx.original) === '/tokens/self' && (ctx.original.headers.authorization ?? '').startsWith('Bearer '), unauthorized),
    }),
  },
  {
    id: 'AUTH-TOKEN-GET-SHOWS-SECRET',
    title: 'Token records carry their secret',
    breaks: ['AUTH-TOKEN-001', 'AUTH-TOKEN-002'],
    area: 'auth',
    description: 'Every token record of a v4 answer that lacks `secret` gets the secret its Login answered.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson((_body, ctx) => isV4Query(ctx.original), (body) => records(body).reduce((n, record) => {
        const token = nativeCollectionOf(record) === 'tokens' && !('secret' in record) ? ledgers.tokens.byRef(record.ref) : undefined;
        if (token === undefined) return n;
        record.secret = token.secret;
        return n + 1;
      }, 0)),
    })),
  },
  {
    id: 'AUTH-TOKEN-SECRET-SHA256',
    title: 'Token secrets are hashed with SHA-256',
    breaks: ['AUTH-TOKEN-003'],
    area: 'auth',
    description: 'The `hashed_secret` of every token record whose secret is known becomes the hex SHA-256 of the secret.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
        const token = nativeCollectionOf(record) === 'tokens' && 'hashed_secret' in record ? ledgers.tokens.byRef(record.ref) : undefined;
        if (token === undefined) return n;
        record.hashed_secret = sha256Hex(token.secret);
        return n + 1;
      }, 0)),
    })),
  },
  {
    id: 'AUTH-LOGIN-ENDS-OLDER-TOKENS',
    title: 'A new Login ends the user\'s earlier tokens',
    breaks: ['AUTH-TOKEN-004', 'AUTH-LOGIN-009'],
    area: 'auth',
    description: 'A request with a token answers 401 `unauthorized` once a later Login of the same user answered another token.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((_res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        return token !== undefined && ledgers.tokens.ofSameUser(token).some((other) => other.order > token.order);
      }, unauthorized),
    })),
  },
  {
    id: 'AUTH-DELETED-USER-TOKENS-VALID',
    title: 'Tokens of a deleted user keep authenticating',
    breaks: ['AUTH-TOKEN-007'],
    area: 'auth',
    description: 'Remembers the documents deleted; an identity query (HasIdentity, Identity, …) of a token whose user was deleted, answered 401, answers as the token would have before the deletion.',
    apply: withLedgers((ledgers) => {
      const deleted = new Set<string>();
      return {
        response: (res, ctx) => {
          const form = topLevelForm(ctx.original);
          if (form === 'delete' && res.status === 200) {
            const ref = refKey(topObject(ctx.original)?.delete);
            if (ref !== undefined) deleted.add(ref);
          }
          const token = ledgers.tokens.ofRequest(ctx.original);
          if (res.status !== 401 || token === undefined || !deleted.has(refKey(token.instance) ?? '')) return undefined;
          const answers: Record<string, unknown> = { has_identity: true, has_current_identity: true, identity: token.instance, current_identity: token.instance, current_token: token.refValue };
          return form !== undefined && form in answers ? withStatus(withJsonBody(res, { resource: copyJson(answers[form]) }), 200) : undefined;
        },
      };
    }),
  },
  {
    id: 'AUTH-TOKEN-DELETE-SOFT',
    title: 'Deleting a token document does not revoke it',
    breaks: ['AUTH-TOKEN-006'],
    area: 'auth',
    description: 'A top-level Delete of a ref in `tokens` is sent upstream as a Get of it, so it answers the record and the secret keeps working.',
    apply: () => ({
      request: (req) => {
        const expression = topObject(req);
        if (topLevelForm(req) !== 'delete' || expression === undefined || refCollection(expression.delete) !== 'tokens') return undefined;
        return { ...req, body: Buffer.from(stringifyJson({ get: expression.delete })) };
      },
    }),
  },
  {
    id: 'AUTH-TOKENS-UNLISTED',
    title: 'Tokens are not listed by `{"tokens": null}`',
    breaks: ['AUTH-TOKEN-008'],
    area: 'auth',
    description: 'The page of every Paginate over `{"tokens": null}` (bare or under Map) answers no refs.',
    apply: () => ({
      json: rewriteJson((body, ctx) => {
        let overTokens = false;
        forEachObject(v4Expression(ctx.original), (object) => {
          if (isJsonObject(object.paginate) && 'tokens' in object.paginate) overTokens = true;
        });
        return overTokens && ctx.status === 200 && Array.isArray(v4Resource(body)?.data);
      }, (body) => {
        const page = v4Resource(body)!;
        const had = (page.data as unknown[]).length;
        page.data = [];
        return had;
      }),
    }),
  },
  {
    id: 'AUTH-TOKEN-INDEX-EMPTY',
    title: 'Indexes over tokens stay empty',
    breaks: ['AUTH-TOKEN-009'],
    area: 'auth',
    description: 'Remembers the indexes created with source `{"tokens": null}`; a page of a Match on one of them answers no entries.',
    apply: () => {
      const overTokens = new Set<string>();
      return {
        request: (req) => {
          forEachObject(v4Expression(req), (object) => {
            const payload = 'create_index' in object ? objectPayload(object.create_index) : undefined;
            if (payload !== undefined && isJsonObject(payload.source) && 'tokens' in payload.source && typeof payload.name === 'string') overTokens.add(payload.name);
          });
          return undefined;
        },
        json: rewriteJson((body, ctx) => {
          let matches = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            const index = isJsonObject(object.match) ? schemaRefOf(object.match) : undefined;
            if (index?.kind === 'index' && overTokens.has(index.name)) matches = true;
          });
          return matches && ctx.status === 200 && Array.isArray(v4Resource(body)?.data);
        }, (body) => {
          const page = v4Resource(body)!;
          const had = (page.data as unknown[]).length;
          page.data = [];
          return had;
        }),
      };
    },
  },
  {
    id: 'AUTH-TOKEN-INDEX-WITHOUT-ROLE',
    title: 'A token reads indexes without a role',
    breaks: ['AUTH-TOKEN-009'],
    area: 'auth',
    description: 'A token\'s top-level Paginate runs with a server key of its database while no role names the token\'s user collection, as a server that lets a token read an index over its own tokens by its built-in rights.',
    apply: tokenAsServer((token, form, _req, ledgers) => form === 'paginate' && ledgers.roles.rolesOf(userCollection(token)).length === 0),
  },
  {
    id: 'AUTH-TOKEN-CREATE-NO-SECRET',
    title: 'Create in the tokens collection answers no secret',
    breaks: ['AUTH-TOKEN-012'],
    area: 'auth',
    description: 'The 201 answer of a top-level Create in `{"tokens": null}` loses its `secret`, as a server that shows a token\'s secret only to Login.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => answersForm('create', 201, ctx) && isJsonObject(topObject(ctx.original)?.create) && 'tokens' in (topObject(ctx.original)!.create as JsonObject),
        (body) => deleteKeys(v4Resource(body), 'secret'),
      ),
    }),
  },
  {
    id: 'AUTH-IDENTIFY-SET-REFUSED',
    title: 'Identify takes refs only',
    breaks: ['AUTH-IDENTIFY-006'],
    area: 'auth',
    description: 'A top-level Identify whose argument is a Match answers 400 `invalid argument` "Ref expected, Set provided." at `["identify"]`, as the reference server once did.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => topLevelForm(ctx.original) === 'identify' && isJsonObject(topObject(ctx.original)?.identify) && 'match' in (topObject(ctx.original)!.identify as JsonObject),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['identify'], code: 'invalid argument', description: 'Ref expected, Set provided.' }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-REPLACE-DROPS-PASSWORD',
    title: 'Replace without `credentials` removes the password',
    breaks: ['AUTH-PASSWORD-007'],
    area: 'auth',
    description: 'Every `replace` of a document whose params have no `credentials` is sent upstream with `credentials: null`, as a server that replaces the credentials along with the rest of the document.',
    apply: () => ({
      request: editExpression((object) => {
        const collection = 'replace' in object ? refCollection(object.replace) : undefined;
        const params = objectPayload(object.params);
        if (collection === undefined || NATIVE_COLLECTIONS.has(collection) || params === undefined || 'credentials' in params) return 0;
        params.credentials = null;
        return 1;
      }),
    }),
  },
  {
    id: 'AUTH-NO-ROLE-NO-IDENTITY',
    title: 'A token in no role cannot call Identity or Logout',
    breaks: ['AUTH-ACCESS-002'],
    area: 'auth',
    description: 'A successful Identity, CurrentIdentity, HasIdentity, CurrentToken or Logout of a token whose user collection is named in no role\'s membership answers 403 `permission denied`.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        return res.status === 200 && token !== undefined && IDENTITY_FORMS.has(topLevelForm(ctx.original) ?? '') && ledgers.roles.rolesOf(userCollection(token)).length === 0;
      }, permissionDenied),
    })),
  },
  {
    id: 'AUTH-CLIENT-PUBLIC-EMPTY',
    title: 'A public index answers client keys an empty page',
    breaks: ['AUTH-CLIENT-001'],
    area: 'auth',
    description: 'A client key\'s successful top-level Paginate answers its page with `data: []`: a server that opens public indexes to client keys but filters the entries by the key\'s (empty) document rights.',
    apply: withLedgers((ledgers) => ({
      json: rewriteJson(
        (body, ctx) => answersForm('paginate', 200, ctx) && keyOf(ledgers, ctx.original)?.role === 'client',
        (body) => {
          const page = v4Resource(body);
          if (page === undefined || !Array.isArray(page.data) || page.data.length === 0) return false;
          page.data = [];
          return true;
        },
      ),
    })),
  },
  {
    id: 'AUTH-CLIENT-INDEX-UNCHECKED',
    title: 'Client keys may read any index',
    breaks: ['AUTH-CLIENT-002'],
    area: 'auth',
    description: 'A client key\'s top-level Paginate runs with a server key of the same database.',
    apply: clientAsServer((form) => form === 'paginate'),
  },
  {
    id: 'AUTH-CLIENT-WRITES-UNCHECKED',
    title: 'Client keys may write documents',
    breaks: ['AUTH-CLIENT-003'],
    area: 'auth',
    description: 'A client key\'s top-level Create, Update, Replace or Delete runs with a server key of the same database.',
    apply: clientAsServer((form) => ['create', 'update', 'replace', 'delete'].includes(form ?? '')),
  },
  {
    id: 'AUTH-CLIENT-CREATES-TOKENS',
    title: 'Client keys may create tokens directly',
    breaks: ['AUTH-CLIENT-004'],
    area: 'auth',
    description: 'A client key\'s top-level Create in `{"tokens": null}` runs with a server key of the same database.',
    apply: clientAsServer((form, req) => form === 'create' && isJsonObject(topObject(req)?.create) && 'tokens' in (topObject(req)!.create as JsonObject)),
  },
  {
    id: 'KEY-CREATE-NO-HASHED-SECRET',
    title: 'The CreateKey answer lacks `hashed_secret`',
    breaks: ['KEY-CREATE-001'],
    area: 'auth',
    description: '`hashed_secret` is removed from the key record a top-level `create_key` answers.',
    apply: () => ({
      json: rewriteJson((body, ctx) => answersForm('create_key', 201, ctx) && v4Resource(body) !== undefined, (body) => deleteKeys(v4Resource(body), 'hashed_secret', (o) => o === v4Resource(body))),
    }),
  },
  {
    id: 'KEY-CREATE-DATABASE-REQUIRED',
    title: 'CreateKey requires `database`',
    breaks: ['KEY-CREATE-003'],
    area: 'auth',
    description: 'A top-level `create_key` without `database` answers 400 `validation failed`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => createKeyPayload(ctx.original) !== undefined && !('database' in createKeyPayload(ctx.original)!),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['create_key'], code: 'validation failed', description: 'Instance data is not valid.', failures: [{ field: ['database'], code: 'value required', description: 'Required value not found.' }] }] }), 400),
      ),
    }),
  },
  {
    id: 'KEY-CREATE-ROLE-DEFAULTS',
    title: 'CreateKey without `role` makes a server key',
    breaks: ['KEY-CREATE-004'],
    area: 'auth',
    description: 'Every `create_key` without `role` is sent upstream with `role: "server"`.',
    apply: () => ({
      request: editExpression((object) => {
        const payload = 'create_key' in object ? objectPayload(object.create_key) : undefined;
        return payload !== undefined && !('role' in payload) ? ((payload.role = 'server'), 1) : 0;
      }),
    }),
  },
  {
    id: 'KEY-CREATE-MISSING-DB-DENIED',
    title: 'CreateKey for a missing database answers 403',
    breaks: ['KEY-CREATE-005', 'KEY-SCOPE-003'],
    area: 'auth',
    description: 'A failed top-level `create_key` naming a `database` answers 403 `permission denied` instead of its not-found error.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => (res.status === 400 || res.status === 404) && 'database' in (createKeyPayload(ctx.original) ?? {}) && ['invalid ref', 'instance not found', 'validation failed'].some((code) => hasErrorCode(bodyJson(res), code)),
        permissionDenied,
      ),
    }),
  },
  {
    id: 'KEY-DELETE-REVOKES-ROLE',
    title: 'Deleting a key revokes every key of its database and role',
    breaks: ['KEY-LIFE-002'],
    area: 'auth',
    description: 'After a successful top-level Delete of a key, every request with a key of the same database and role answers 401 `unauthorized`.',
    apply: withLedgers((ledgers) => {
      const revoked = new Set<string>();
      return {
        response: (res, ctx) => {
          const caller = keyOf(ledgers, ctx.original);
          if (caller !== undefined && revoked.has(`${caller.database}|${caller.role}`)) return unauthorized(res);
          const deleted = topLevelForm(ctx.original) === 'delete' && res.status === 200 ? ledgers.keys.byRef(topObject(ctx.original)?.delete) : undefined;
          if (deleted !== undefined) revoked.add(`${deleted.database}|${deleted.role}`);
          return undefined;
        },
      };
    }),
  },
  {
    id: 'KEY-ROLE-CASE-INSENSITIVE',
    title: 'Key roles are read case-insensitively',
    breaks: ['KEY-ROLE-002'],
    area: 'auth',
    description: 'A `create_key` role such as `Server` is sent upstream in lower case.',
    apply: () => ({
      request: editExpression((object) => {
        const payload = 'create_key' in object ? objectPayload(object.create_key) : undefined;
        const role = payload?.role;
        if (typeof role !== 'string' || role === role.toLowerCase() || !['admin', 'server', 'client'].includes(role.toLowerCase())) return 0;
        payload!.role = role.toLowerCase();
        return 1;
      }),
    }),
  },
  {
    id: 'KEY-ROLE-REFS-UNCHECKED',
    title: 'Role refs of new keys are neither checked nor honoured',
    breaks: ['KEY-ROLE-010', 'KEY-ROLE-009', 'KEY-ROLE-011', 'KEY-ROLE-012'],
    area: 'auth',
    description: 'A `create_key` whose role is not a role name is sent upstream with role `client`: any ref is accepted, and the key gets no privileges from it.',
    apply: () => ({
      request: editExpression((object) => {
        const payload = 'create_key' in object ? objectPayload(object.create_key) : undefined;
        if (payload === undefined || payload.role === undefined || typeof payload.role === 'string') return 0;
        payload.role = 'client';
        return 1;
      }),
    }),
  },
  {
    id: 'KEY-UPDATE-ROLE-UNCHECKED',
    title: 'Update and Replace of a key do not check its role refs',
    breaks: ['KEY-ROLE-013'],
    area: 'auth',
    description: 'A top-level `update` or `replace` refused only for `invalid reference` or `invalid type` failures on `role` answers 200 with the key\'s ref, as a server that checks role refs on create only would (nothing is written).',
    apply: () => acceptedModification(refusedForKeyRole),
  },
  {
    id: 'ABAC-ROLE-UPDATE-RESOURCES-UNCHECKED',
    title: 'Update and Replace of a role do not check the resources it names',
    breaks: ['ABAC-ROLE-009', 'ABAC-ROLE-011'],
    area: 'auth',
    description: 'A top-level `update` or `replace` refused only for `invalid reference` failures on privilege or membership resources answers 200 with the role\'s ref, as a server that checks them on create only would (nothing is written).',
    apply: () => acceptedModification(refusedForRoleResources),
  },
  {
    id: 'FAILURE-PATH-INDEX-NUMBERS',
    title: 'Failure paths write list indexes as numbers',
    breaks: ['PROTO-ERROR-011'],
    area: 'auth',
    description: 'In every `validation failed` failure, a `field` step made of digits is sent as a number.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 400 && v4Errors(bodyJson(res)).some((error) => Array.isArray(error.failures)),
        (res) => {
          const body = bodyJson(res) as JsonObject;
          for (const error of v4Errors(body)) {
            for (const failure of Array.isArray(error.failures) ? error.failures : []) {
              if (isJsonObject(failure) && Array.isArray(failure.field)) failure.field = failure.field.map((step) => (typeof step === 'string' && /^\d+$/.test(step) ? jsonInt(Number(step)) : step));
            }
          }
          return withJsonBody(res, body);
        },
      ),
    }),
  },
  {
    id: 'ABAC-ROLE-UPDATE-SHAPE-UNCHECKED',
    title: 'Update and Replace of a role store a name or data CreateRole refuses',
    breaks: ['ABAC-ROLE-012'],
    area: 'auth',
    description: 'A top-level `update` or `replace` of a role refused only for failures on `name` or `data` answers 200 with the role\'s ref, as a server that checks roles on creation only would (nothing is written).',
    apply: () =>
      acceptedModification((body, target) => {
        if (schemaRefOf(target)?.kind !== 'role') return false;
        const failures = v4Errors(body).flatMap((error) => (error.code === 'validation failed' && Array.isArray(error.failures) ? error.failures : [undefined]));
        return failures.length > 0 && failures.every((failure) => isJsonObject(failure) && Array.isArray(failure.field) && (failure.field[0] === 'name' || failure.field[0] === 'data'));
      }),
  },
  {
    id: 'KEY-SERVER-NO-INDEXES',
    title: 'Server keys may not create indexes',
    breaks: ['KEY-ROLE-003'],
    area: 'auth',
    description: 'A top-level `create_index` made with a server key answers 403 `permission denied` (the index is created upstream all the same).',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((_res, ctx) => topLevelForm(ctx.original) === 'create_index' && keyOf(ledgers, ctx.original)?.role === 'server', permissionDenied),
    })),
  },
  {
    id: 'KEY-ADMIN-NO-DATABASES',
    title: 'Only the root secret may create databases',
    breaks: ['KEY-ROLE-005'],
    area: 'auth',
    description: 'A top-level `create_database` made with an admin key the run created answers 403 `permission denied` (the database is created upstream all the same).',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((_res, ctx) => topLevelForm(ctx.original) === 'create_database' && keyOf(ledgers, ctx.original)?.role === 'admin', permissionDenied),
    })),
  },
  {
    id: 'KEY-ROOT-NOT-ADMIN',
    title: 'The root secret cannot read database records',
    breaks: ['KEY-ROLE-008'],
    area: 'auth',
    description: 'A top-level Get of a database made with a secret that is neither a key nor a token the run created (the root secret) answers 403 `permission denied`.',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((_res, ctx) => {
        const secret = requestSecret(ctx.original);
        return topLevelForm(ctx.original) === 'get' && schemaRefOf(topObject(ctx.original)?.get)?.kind === 'database' && secret !== undefined && keyOf(ledgers, ctx.original) === undefined && ledgers.tokens.bySecret(secret) === undefined;
      }, permissionDenied),
    })),
  },
  {
    id: 'KEY-SHARED-NAMESPACE',
    title: 'Documents are found across databases',
    breaks: ['KEY-SCOPE-001'],
    area: 'auth',
    description: 'Remembers which key created each document; a top-level Get or Delete of it with a key of another database runs with the creating key.',
    apply: withLedgers((ledgers) => {
      const creators = new Map<string, string>();
      return {
        request: (req) => {
          const form = topLevelForm(req);
          const caller = keyOf(ledgers, req);
          const ref = form === 'get' || form === 'delete' ? refKey(topObject(req)?.[form]) : undefined;
          const creator = ref === undefined ? undefined : ledgers.keys.bySecret(creators.get(ref) ?? '');
          return caller !== undefined && creator !== undefined && creator.database !== caller.database ? withSecret(req, creator.secret) : undefined;
        },
        json: (body, ctx) => {
          const ref = answersForm('create', 201, ctx) ? refKey(v4Resource(body)?.ref) : undefined;
          const secret = requestSecret(ctx.original);
          if (ref !== undefined && secret !== undefined && !creators.has(ref)) creators.set(ref, secret);
          return undefined;
        },
      };
    }),
  },
  {
    id: 'KEY-PARENT-FALLBACK',
    title: 'Schema names fall back to the parent database',
    breaks: ['KEY-SCOPE-002'],
    area: 'auth',
    description: 'A top-level Get of a collection or database made with a key the run created by another of its keys runs with the creating key when the caller never created that name itself.',
    apply: withLedgers((ledgers) => {
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
          const target = topLevelForm(req) === 'get' ? schemaRefOf(topObject(req)?.get) : undefined;
          const caller = keyOf(ledgers, req);
          const parent = caller?.creator === undefined ? undefined : ledgers.keys.bySecret(caller.creator);
          if (target === undefined || !['collection', 'database'].includes(target.kind) || parent === undefined || createdBy.get(secret)?.has(target.name)) return undefined;
          return withSecret(req, parent.secret);
        },
      };
    }),
  },
  {
    id: 'KEY-SCOPE-FROM-TOP',
    title: 'CreateKey resolves `database` in the creating key\'s parent',
    breaks: ['KEY-SCOPE-003'],
    area: 'auth',
    description: 'A top-level `create_key` naming a `database`, made with an admin key that another key of the run created, runs with that creating key.',
    apply: withLedgers((ledgers) => ({
      request: (req) => {
        const caller = keyOf(ledgers, req);
        const parent = caller?.creator === undefined ? undefined : ledgers.keys.bySecret(caller.creator);
        if (caller?.role !== 'admin' || parent === undefined || !('database' in (createKeyPayload(req) ?? {}))) return undefined;
        return withSecret(req, parent.secret);
      },
    })),
  },
  {
    id: 'KEY-DATABASE-PARAM-IGNORED',
    title: 'CreateKey ignores `database`',
    breaks: ['KEY-SECRET-001', 'KEY-CREATE-001'],
    area: 'auth',
    description: 'A top-level `create_key` made with a key the run created is sent upstream without `database`, so the key is for the caller\'s own database.',
    apply: withLedgers((ledgers) => ({
      request: (req) => {
        const expression = topObject(req);
        const payload = createKeyPayload(req);
        if (expression === undefined || payload === undefined || !('database' in payload) || keyOf(ledgers, req) === undefined) return undefined;
        delete payload.database;
        return { ...req, body: Buffer.from(stringifyJson(expression)) };
      },
    })),
  },
  {
    id: 'KEY-SECRET-PER-TRANSACTION',
    title: 'Keys created in one request share a secret',
    breaks: ['KEY-SECRET-006'],
    area: 'auth',
    description: 'When one answer holds several new key records, each gets the `secret` of the first.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => {
        const keys = records(body).filter((record) => nativeCollectionOf(record) === 'keys' && typeof record.secret === 'string');
        for (const key of keys.slice(1)) key.secret = keys[0]!.secret;
        return keys.length - 1 > 0 ? keys.length - 1 : 0;
      }),
    }),
  },
  {
    id: 'KEY-SECRET-STORED',
    title: 'A `secret` written to a key is stored',
    breaks: ['KEY-SECRET-009'],
    area: 'auth',
    description: 'Once a top-level Update or Replace of a key that wrote a string `secret` answers 200, that `secret` is added to every key record with that ref answered from then on, as from a server that stores it.',
    apply: () => ({ json: keyFieldKept('secret') }),
  },
  {
    id: 'KEY-HASH-OVERWRITTEN',
    title: 'A `hashed_secret` written to a key replaces its hash',
    breaks: ['KEY-SECRET-010'],
    area: 'auth',
    description: 'Once a top-level Update or Replace of a key that wrote a string `hashed_secret` answers 200, every key record with that ref answered from then on shows that `hashed_secret`, as from a server that stores it.',
    apply: () => ({ json: keyFieldKept('hashed_secret') }),
  },
  {
    id: 'KEY-SECRET-UNCHECKED',
    title: 'A `secret` written to a key is not checked',
    breaks: ['KEY-SECRET-011'],
    area: 'auth',
    description: 'A top-level Update or Replace of a key is sent upstream without the `secret` it writes, as to a server that ignores the field instead of refusing a secret that is not the key\'s.',
    apply: () => ({
      request: (req) => {
        const form = topLevelForm(req);
        const expression = topObject(req);
        const payload = (form === 'update' || form === 'replace') && refCollection(expression?.[form]) === 'keys' ? objectPayload(expression?.params) : undefined;
        if (expression === undefined || payload === undefined || !('secret' in payload)) return undefined;
        delete payload.secret;
        return { ...req, body: Buffer.from(stringifyJson(expression)) };
      },
    }),
  },
  {
    id: 'ABAC-CREATE-DENIED-AFTER-WRITING',
    title: 'A Create denied by the roles still creates the document',
    breaks: ['ABAC-PRIV-003'],
    area: 'auth',
    description: 'A token\'s Create in a collection none of its roles may create in runs with the rights of the key its Login was called with, and answers 403 `permission denied`.',
    apply: deniedAfterWriting(tokenWriteDenied(['create'], 'create')),
  },
  {
    id: 'ABAC-WRITE-DENIED-AFTER-WRITING',
    title: 'An Update or Replace denied by the roles still changes the document',
    breaks: ['ABAC-PRIV-004'],
    area: 'auth',
    description: 'A token\'s Update or Replace of a document none of its roles may write runs with the rights of the key its Login was called with, and answers 403 `permission denied`.',
    apply: deniedAfterWriting(tokenWriteDenied(['update', 'replace'], 'write')),
  },
  {
    id: 'ABAC-DELETE-DENIED-AFTER-WRITING',
    title: 'A Delete denied by the roles still deletes the document',
    breaks: ['ABAC-PRIV-005'],
    area: 'auth',
    description: 'A token\'s Delete of a document none of its roles may delete runs with the rights of the key its Login was called with, and answers 403 `permission denied`.',
    apply: deniedAfterWriting(tokenWriteDenied(['delete'], 'delete')),
  },
  {
    id: 'ABAC-ROLE-CLIENT-DENIED-AFTER-WRITING',
    title: 'A client key\'s CreateRole is refused after the role is created',
    breaks: ['ABAC-ROLE-003'],
    area: 'auth',
    description: 'A client key\'s `create_role` runs with an admin key of the same database and answers 403 `permission denied`.',
    apply: deniedAfterWriting(clientRequest(['create_role'], 'admin')),
  },
  {
    id: 'AUTH-CLIENT-DENIED-AFTER-WRITING',
    title: 'A client key\'s writes are refused after they are applied',
    breaks: ['AUTH-CLIENT-003'],
    area: 'auth',
    description: 'A client key\'s top-level Create, Update or Delete runs with a server key of the same database and answers 403 `permission denied`.',
    apply: deniedAfterWriting(clientRequest(['create', 'update', 'delete'])),
  },
  {
    id: 'AUTH-LOGOUT-WITH-KEY-ENDS-TOKENS',
    title: 'Logout with a key ends every token before failing',
    breaks: ['AUTH-LOGOUT-006'],
    area: 'auth',
    description: 'A top-level `{"logout": true}` made with a key the run created deletes every token of the database and answers 200 `false`.',
    apply: withLedgers((ledgers) => ({
      request: (req) => {
        const key = keyOf(ledgers, req);
        if (key === undefined || topLevelForm(req) !== 'logout' || topObject(req)?.logout !== true) return undefined;
        const server = key.role === 'client' ? ledgers.keys.sibling(key, 'server')?.secret : key.secret;
        return server === undefined ? undefined : withSecret({ ...req, body: Buffer.from(stringifyJson(deleteTokensExpr())) }, server);
      },
      response: rewriteResponse((_res, ctx) => ctx.request !== ctx.original, (res) => withStatus(withJsonBody(res, { resource: false }), 200)),
    })),
  },
  {
    id: 'AUTH-PASSWORD-INVALID-STILL-CREATES',
    title: 'A Create with a bad password stores the document anyway',
    breaks: ['AUTH-PASSWORD-005'],
    area: 'auth',
    description: 'A top-level Create whose `credentials.password` is not a string is sent upstream without `credentials` and answers 400 `validation failed`.',
    apply: () => ({
      request: (req) => {
        const expression = topObject(req);
        const params = topLevelForm(req) === 'create' ? objectPayload(expression?.params) : undefined;
        const password = objectPayload(params?.credentials)?.password;
        if (params === undefined || password === undefined || password === null || typeof password === 'string') return undefined;
        delete params.credentials;
        return { ...req, body: Buffer.from(stringifyJson(expression)) };
      },
      response: rewriteResponse((_res, ctx) => ctx.request !== ctx.original, (res) => queryError(res, 400, 'validation failed', 'document data is not valid.')),
    }),
  },
  {
    id: 'AUTH-SELF-HASHED-SECRET-SHA256',
    title: '`GET /tokens/self` shows a SHA-256 `hashed_secret`',
    breaks: ['AUTH-TOKEN-003', 'AUTH-SELF-001'],
    area: 'auth',
    description: 'In a 200 answer of `GET /tokens/self`, `hashed_secret` becomes the hex SHA-256 of the calling secret, as on a server that keeps a fast digest for lookups and shows it.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => pathname(ctx.original) === '/tokens/self' && ctx.status === 200 && typeof v4Resource(body)?.hashed_secret === 'string' && requestSecret(ctx.original) !== undefined,
        (body, ctx) => {
          v4Resource(body)!.hashed_secret = sha256Hex(requestSecret(ctx.original)!);
        },
      ),
    }),
  },
  {
    id: 'AUTH-NO-ROLE-IDENTITY-DENIED',
    title: 'A token in no role cannot call Identity',
    breaks: ['AUTH-ACCESS-002'],
    area: 'auth',
    description: 'A successful top-level `identity` of a token whose user collection is named in no role\'s membership answers 403 `permission denied` (CurrentIdentity and Logout are left alone).',
    apply: withLedgers((ledgers) => ({
      response: rewriteResponse((res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        return res.status === 200 && token !== undefined && topLevelForm(ctx.original) === 'identity' && ledgers.roles.rolesOf(userCollection(token)).length === 0;
      }, permissionDenied),
    })),
  },
];
