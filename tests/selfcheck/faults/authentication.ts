// The faults of spec/requirements/authentication.md that are code; their rows (ids, titles, what they break) are in authentication.json.
import type { BufferedResponse, Fault } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, parseJson, stringifyJson, type JsonObject } from '../json-body.js';
import {
  answersForm,
  clientAsServer,
  clientRequest,
  deniedAfterWriting,
  documentRefKey,
  errorAnswer,
  isUserDocument,
  keyOf,
  objectPayload,
  passwordsIn,
  permissionDenied,
  refCollection,
  tokenAsServer,
  topObject,
  unauthorized,
  userCollection,
  withLedgers,
} from './lib/access.js';
import { requestSecret, serverSecretFor, withSecret } from './lib/key-ledger.js';
import {
  bodyJson,
  isV4Query,
  nativeCollectionOf,
  onJson,
  pathname,
  records,
  renameKeys,
  rewriteJson,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
  emptyPage,
  onObjects,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { createHash } from 'node:crypto';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const IDENTITY_FORMS = new Set(['identity', 'current_identity', 'has_identity', 'has_current_identity', 'current_token', 'logout']);

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
  const expr =
    onlyOf === undefined
      ? del
      : { if: { equals: [{ select: ['instance'], from: { get: { var: 'token' } } }, onlyOf] }, then: del, else: null };
  return { foreach: { lambda: 'token', expr }, collection: { paginate: { tokens: null }, size: jsonInt(100000) } };
}

/** An Update or Replace (`form`) of a user document without credentials sent as removing its password. */
const dropsPassword = (form: 'update' | 'replace'): Fault['apply'] =>
  onObjects((object) => {
    const collection = form in object ? refCollection(object[form]) : undefined;
    const params = objectPayload(object.params);
    if (collection === undefined || NATIVE_COLLECTIONS.has(collection) || params === undefined || 'credentials' in params) return 0;
    params.credentials = null;
    return 1;
  });

export const code: FaultCode = {
  'AUTH-SELF-RETURNS-SECRET': onJson(
    (body, ctx) =>
      pathname(ctx.original) === '/tokens/self' &&
      ctx.status === 200 &&
      v4Resource(body) !== undefined &&
      requestSecret(ctx.original) !== undefined,
    (body, ctx) => {
      v4Resource(body)!.secret = requestSecret(ctx.original)!;
    },
  ),
  'AUTH-LOGOUT-ALL-AS-ONE': () => ({
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
  'AUTH-IDENTIFY-CREATES-TOKEN': () => ({
    request: (req) => {
      const expression = v4Expression(req);
      if (!isJsonObject(expression) || !('identify' in expression) || !('password' in expression)) return undefined;
      const login = { login: expression.identify, params: { object: { password: expression.password } } };
      return { ...req, body: Buffer.from(stringifyJson({ do: [login, true] })) };
    },
  }),
  'AUTH-PASSWORD-CHANGE-IGNORED': onObjects((object) => {
    if (!('update' in object) && !('replace' in object)) return 0;
    const params = objectPayload(object.params);
    if (params === undefined || !('credentials' in params)) return 0;
    delete params.credentials;
    return 1;
  }),
  'AUTH-TOKEN-TTL-IGNORED': onObjects((object) => {
    if (!('login' in object) && !('update' in object)) return 0;
    const params = objectPayload(object.params);
    if (params === undefined || !('ttl' in params)) return 0;
    delete params.ttl;
    return 1;
  }),
  'AUTH-TOKEN-SIBLING-DENIED': withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const token = ledgers.tokens.ofRequest(ctx.original);
      const target = topObject(ctx.original)?.get;
      if (res.status !== 200 || token === undefined || target === undefined) return false;
      const record = v4Resource(bodyJson(res));
      return (
        isJsonObject(record) &&
        'instance' in record &&
        'hashed_secret' in record &&
        stringifyJson(record.ref) !== stringifyJson(token.refValue)
      );
    }, permissionDenied),
  })),
  'AUTH-LOGIN-NO-CREDENTIALS-CODE': () => {
    const withoutCredentials = new Set<string>();
    return {
      json: (body, ctx) => {
        if (answersForm('create', 201, ctx) && passwordsIn(v4Expression(ctx.original)).length === 0) {
          const ref = documentRefKey(v4Resource(body)?.ref);
          if (ref !== undefined) withoutCredentials.add(ref);
        }
        return undefined;
      },
      response: rewriteResponse(
        (res, ctx) =>
          res.status === 400 &&
          topLevelForm(ctx.original) === 'login' &&
          withoutCredentials.has(documentRefKey(topObject(ctx.original)?.login) ?? ''),
        (res) => errorAnswer(res, 400, 'invalid argument', 'The document has no credentials.'),
      ),
    };
  },
  'AUTH-LOGIN-REUSES-TOKEN': () => {
    const first = new Map<string, JsonObject>();
    return {
      json: rewriteJson(
        (body, ctx) => answersForm('login', 201, ctx) && v4Resource(body) !== undefined,
        (body) => {
          const resource = v4Resource(body)!;
          const user = stringifyJson(resource.instance ?? null);
          const earlier = first.get(user);
          if (earlier === undefined) {
            first.set(user, copyJson(resource));
            return 0;
          }
          (body as JsonObject).resource = copyJson(earlier);
          return 1;
        },
      ),
    };
  },
  'AUTH-LOGIN-TOKEN-BEFORE-CHECK': () => {
    const FAILED = 'fault:login-failed';
    return {
      request: (req) => {
        const expression = topObject(req);
        if (expression === undefined || topLevelForm(req) !== 'login' || documentRefKey(expression.login) === undefined) return undefined;
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
        (res) => errorAnswer(res, 400, 'authentication failed', 'The document was not found or provided password was incorrect.'),
      ),
    };
  },
  'AUTH-LOGIN-CLIENT-DENIED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) =>
        res.status === 201 &&
        topLevelForm(ctx.original) === 'login' &&
        ledgers.keys.bySecret(requestSecret(ctx.original) ?? '')?.role === 'client',
      permissionDenied,
    ),
  })),
  'AUTH-IDENTIFY-CLIENT-DENIED': withLedgers((ledgers) => ({
    response: rewriteResponse(
      (res, ctx) => res.status === 200 && topLevelForm(ctx.original) === 'identify' && keyOf(ledgers, ctx.original)?.role === 'client',
      permissionDenied,
    ),
  })),
  'AUTH-IDENTITY-IS-TOKEN': withLedgers((ledgers) => ({
    json: rewriteJson(
      (_body, ctx) => answersForm('identity', 200, ctx) && ledgers.tokens.ofRequest(ctx.original) !== undefined,
      (body, ctx) => {
        (body as JsonObject).resource = copyJson(ledgers.tokens.ofRequest(ctx.original)!.refValue);
      },
    ),
  })),
  'AUTH-CURRENT-IDENTITY-LEGACY-REF': onJson(
    (_body, ctx) => answersForm('current_identity', 200, ctx),
    (body) => legacyRefs((body as JsonObject).resource),
  ),
  'AUTH-CURRENT-TOKEN-IS-INSTANCE': withLedgers((ledgers) => ({
    json: rewriteJson(
      (_body, ctx) => answersForm('current_token', 200, ctx) && ledgers.tokens.ofRequest(ctx.original)?.instance !== undefined,
      (body, ctx) => {
        (body as JsonObject).resource = copyJson(ledgers.tokens.ofRequest(ctx.original)!.instance);
      },
    ),
  })),
  'AUTH-OWN-DOCUMENT-READABLE': tokenAsServer(
    (token, form, req) =>
      form === 'get' &&
      documentRefKey(topObject(req)?.get) !== undefined &&
      documentRefKey(topObject(req)?.get) === documentRefKey(token.instance),
  ),
  'AUTH-LOGOUT-KEEPS-TOKEN': () => ({
    request: (req) =>
      topLevelForm(req) === 'logout' && typeof topObject(req)?.logout === 'boolean' ? { ...req, body: Buffer.from('true') } : undefined,
  }),
  'AUTH-LOGOUT-ALL-USERS': withLedgers((ledgers) => ({
    request: (req) => {
      const token = ledgers.tokens.ofRequest(req);
      if (token === undefined || topLevelForm(req) !== 'logout' || topObject(req)?.logout !== true) return undefined;
      const server = serverSecretFor(token, ledgers.keys);
      if (server === undefined) return undefined;
      return withSecret({ ...req, body: Buffer.from(stringifyJson({ do: [deleteTokensExpr(), true] })) }, server);
    },
  })),
  'AUTH-LOGOUT-BLOCKS-USER': withLedgers((ledgers) => {
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
  'AUTH-LOGOUT-ARG-COERCED': () => ({
    request: (req) => {
      const arg = topObject(req)?.logout;
      if (topLevelForm(req) !== 'logout' || typeof arg === 'boolean') return undefined;
      const truthy = !(arg === null || arg === '' || (arg !== undefined && stringifyJson(arg) === '0'));
      return { ...req, body: Buffer.from(stringifyJson({ logout: truthy })) };
    },
  }),
  'AUTH-PASSWORD-IGNORED-ON-CREATE': onObjects((object) => {
    if (!('create' in object)) return 0;
    const params = objectPayload(object.params);
    if (params === undefined || !('credentials' in params)) return 0;
    delete params.credentials;
    return 1;
  }),
  'AUTH-PASSWORD-SHA256': () => {
    const passwords = new Map<string, string>();
    return {
      json: rewriteJson(
        () => true,
        (body, ctx) => {
          const set = passwordsIn(v4Expression(ctx.original));
          const created = answersForm('create', 201, ctx) ? documentRefKey(v4Resource(body)?.ref) : undefined;
          if (created !== undefined && set.length > 0) passwords.set(created, set[0]!);
          return records(body).reduce((n, record) => {
            const password = passwords.get(documentRefKey(record.ref) ?? '');
            if (password === undefined || !isUserDocument(record)) return n;
            record.hashed_password = sha256Hex(password);
            return n + 1;
          }, 0);
        },
      ),
    };
  },
  'AUTH-PASSWORD-COERCED': onObjects((object) => {
    const credentials = objectPayload(object.credentials);
    if (
      credentials === undefined ||
      !('password' in credentials) ||
      typeof credentials.password === 'string' ||
      credentials.password === null
    )
      return 0;
    credentials.password = stringifyJson(credentials.password);
    return 1;
  }),
  'AUTH-UPDATE-DROPS-PASSWORD': dropsPassword('update'),
  'AUTH-PASSWORD-CHANGE-ENDS-TOKENS': () => ({
    request: (req) => {
      const expression = topObject(req);
      const form = topLevelForm(req);
      if (expression === undefined || (form !== 'update' && form !== 'replace')) return undefined;
      if (!('credentials' in (objectPayload(expression.params) ?? {}))) return undefined;
      return { ...req, body: Buffer.from(stringifyJson({ do: [deleteTokensExpr(expression[form]), expression] })) };
    },
  }),
  'AUTH-SELF-UNWRAPPED': () => ({
    json: (body, ctx) => (pathname(ctx.original) === '/tokens/self' && ctx.status === 200 ? v4Resource(body) : undefined),
  }),
  'AUTH-SELF-LEGACY-REFS': onJson(
    (_body, ctx) => pathname(ctx.original) === '/tokens/self' && ctx.status === 200,
    (body) => legacyRefs(body),
  ),
  'AUTH-SELF-CACHED': () => {
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
  'AUTH-TOKEN-GET-SHOWS-SECRET': withLedgers((ledgers) => ({
    json: rewriteJson(
      (_body, ctx) => isV4Query(ctx.original),
      (body) =>
        records(body).reduce((n, record) => {
          const token = nativeCollectionOf(record) === 'tokens' && !('secret' in record) ? ledgers.tokens.byRef(record.ref) : undefined;
          if (token === undefined) return n;
          record.secret = token.secret;
          return n + 1;
        }, 0),
    ),
  })),
  'AUTH-TOKEN-SECRET-SHA256': withLedgers((ledgers) => ({
    json: rewriteJson(
      () => true,
      (body) =>
        records(body).reduce((n, record) => {
          const token = nativeCollectionOf(record) === 'tokens' && 'hashed_secret' in record ? ledgers.tokens.byRef(record.ref) : undefined;
          if (token === undefined) return n;
          record.hashed_secret = sha256Hex(token.secret);
          return n + 1;
        }, 0),
    ),
  })),
  'AUTH-LOGIN-ENDS-OLDER-TOKENS': withLedgers((ledgers) => ({
    response: rewriteResponse((_res, ctx) => {
      const token = ledgers.tokens.ofRequest(ctx.original);
      return token !== undefined && ledgers.tokens.ofSameUser(token).some((other) => other.order > token.order);
    }, unauthorized),
  })),
  'AUTH-DELETED-USER-TOKENS-VALID': withLedgers((ledgers) => {
    const deleted = new Set<string>();
    return {
      response: (res, ctx) => {
        const form = topLevelForm(ctx.original);
        if (form === 'delete' && res.status === 200) {
          const ref = documentRefKey(topObject(ctx.original)?.delete);
          if (ref !== undefined) deleted.add(ref);
        }
        const token = ledgers.tokens.ofRequest(ctx.original);
        if (res.status !== 401 || token === undefined || !deleted.has(documentRefKey(token.instance) ?? '')) return undefined;
        const answers: Record<string, unknown> = {
          has_identity: true,
          has_current_identity: true,
          identity: token.instance,
          current_identity: token.instance,
          current_token: token.refValue,
        };
        return form !== undefined && form in answers
          ? withStatus(withJsonBody(res, { resource: copyJson(answers[form]) }), 200)
          : undefined;
      },
    };
  }),
  'AUTH-TOKEN-DELETE-SOFT': () => ({
    request: (req) => {
      const expression = topObject(req);
      if (topLevelForm(req) !== 'delete' || expression === undefined || refCollection(expression.delete) !== 'tokens') return undefined;
      return { ...req, body: Buffer.from(stringifyJson({ get: expression.delete })) };
    },
  }),
  'AUTH-TOKENS-UNLISTED': onJson((body, ctx) => {
    let overTokens = false;
    forEachObject(v4Expression(ctx.original), (object) => {
      if (isJsonObject(object.paginate) && 'tokens' in object.paginate) overTokens = true;
    });
    return overTokens && ctx.status === 200 && Array.isArray(v4Resource(body)?.data);
  }, emptyPage),
  'AUTH-TOKEN-INDEX-EMPTY': () => {
    const overTokens = new Set<string>();
    return {
      request: (req) => {
        forEachObject(v4Expression(req), (object) => {
          const payload = 'create_index' in object ? objectPayload(object.create_index) : undefined;
          if (payload !== undefined && isJsonObject(payload.source) && 'tokens' in payload.source && typeof payload.name === 'string')
            overTokens.add(payload.name);
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
      }, emptyPage),
    };
  },
  'AUTH-TOKEN-INDEX-WITHOUT-ROLE': tokenAsServer(
    (token, form, _req, ledgers) => form === 'paginate' && ledgers.roles.rolesOf(userCollection(token)).length === 0,
  ),
  'AUTH-REPLACE-DROPS-PASSWORD': dropsPassword('replace'),
  'AUTH-NO-ROLE-NO-IDENTITY': withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const token = ledgers.tokens.ofRequest(ctx.original);
      return (
        res.status === 200 &&
        token !== undefined &&
        IDENTITY_FORMS.has(topLevelForm(ctx.original) ?? '') &&
        ledgers.roles.rolesOf(userCollection(token)).length === 0
      );
    }, permissionDenied),
  })),
  'AUTH-CLIENT-PUBLIC-EMPTY': withLedgers((ledgers) => ({
    json: rewriteJson(
      (_body, ctx) => answersForm('paginate', 200, ctx) && keyOf(ledgers, ctx.original)?.role === 'client',
      (body) => {
        const page = v4Resource(body);
        if (page === undefined || !Array.isArray(page.data) || page.data.length === 0) return false;
        page.data = [];
        return true;
      },
    ),
  })),
  'AUTH-CLIENT-INDEX-UNCHECKED': clientAsServer((form) => form === 'paginate'),
  'AUTH-CLIENT-WRITES-UNCHECKED': clientAsServer((form) => ['create', 'update', 'replace', 'delete'].includes(form ?? '')),
  'AUTH-CLIENT-CREATES-TOKENS': clientAsServer(
    (form, req) => form === 'create' && isJsonObject(topObject(req)?.create) && 'tokens' in (topObject(req)!.create as JsonObject),
  ),
  'AUTH-CLIENT-DENIED-AFTER-WRITING': deniedAfterWriting(clientRequest(['create', 'update', 'delete'])),
  'AUTH-LOGOUT-WITH-KEY-ENDS-TOKENS': withLedgers((ledgers) => ({
    request: (req) => {
      const key = keyOf(ledgers, req);
      if (key === undefined || topLevelForm(req) !== 'logout' || topObject(req)?.logout !== true) return undefined;
      const server = key.role === 'client' ? ledgers.keys.sibling(key, 'server')?.secret : key.secret;
      return server === undefined ? undefined : withSecret({ ...req, body: Buffer.from(stringifyJson(deleteTokensExpr())) }, server);
    },
    response: rewriteResponse(
      (_res, ctx) => ctx.request !== ctx.original,
      (res) => withStatus(withJsonBody(res, { resource: false }), 200),
    ),
  })),
  'AUTH-PASSWORD-INVALID-STILL-CREATES': () => ({
    request: (req) => {
      const expression = topObject(req);
      const params = topLevelForm(req) === 'create' ? objectPayload(expression?.params) : undefined;
      const password = objectPayload(params?.credentials)?.password;
      if (params === undefined || password === undefined || password === null || typeof password === 'string') return undefined;
      delete params.credentials;
      return { ...req, body: Buffer.from(stringifyJson(expression)) };
    },
    response: rewriteResponse(
      (_res, ctx) => ctx.request !== ctx.original,
      (res) => errorAnswer(res, 400, 'validation failed', 'document data is not valid.'),
    ),
  }),
  'AUTH-SELF-HASHED-SECRET-SHA256': onJson(
    (body, ctx) =>
      pathname(ctx.original) === '/tokens/self' &&
      ctx.status === 200 &&
      typeof v4Resource(body)?.hashed_secret === 'string' &&
      requestSecret(ctx.original) !== undefined,
    (body, ctx) => {
      v4Resource(body)!.hashed_secret = sha256Hex(requestSecret(ctx.original)!);
    },
  ),
  'AUTH-NO-ROLE-IDENTITY-DENIED': withLedgers((ledgers) => ({
    response: rewriteResponse((res, ctx) => {
      const token = ledgers.tokens.ofRequest(ctx.original);
      return (
        res.status === 200 &&
        token !== undefined &&
        topLevelForm(ctx.original) === 'identity' &&
        ledgers.roles.rolesOf(userCollection(token)).length === 0
      );
    }, permissionDenied),
  })),
};
