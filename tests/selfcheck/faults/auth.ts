// Faults of the `auth` area: credentials, and keys acting beyond their role.
import type { Fault, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { KeyLedger, requestSecret, withSecret } from './key-ledger.js';
import {
  deleteKeys,
  hasErrorCode,
  nativeCollectionOf,
  pathname,
  records,
  rewriteJson,
  rewriteResponse,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
} from './rewrites.js';

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
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'validation failed', description: 'Document data is not valid.', failures: [{ field: ['credentials'], code: 'invalid field', description: 'Unknown field.' }] }] }), 400),
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
];
