// Faults of the `core` area: protocol, errors, versions, values, databases, keys, collections, documents
// and transaction timestamps. Each is one deliberate deviation a correct suite must notice.
import { isLosslessNumber } from 'lossless-json';
import type { Fault } from '../fault.js';
import { KeyLedger, requestSecret, withSecret } from './key-ledger.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import {
  apiVersion,
  bodyJson,
  deleteKeys,
  expressionUses,
  hasErrorCode,
  isV4Query,
  nativeCollectionOf,
  pathname,
  records,
  refPayloads,
  renameKeys,
  rewriteJson,
  rewriteResponse,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withHeader,
  withJsonBody,
  withStatus,
  withoutHeader,
} from './rewrites.js';

const SUPPORTED_API_VERSIONS = new Set(['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE']);
const TWO_POW_53 = 2n ** 53n;

/** Calls `visit` for every element of an array or value of an object (not deeper: `visit` recurses if it wants). */
function forEachContained(value: unknown, visit: (container: unknown[] | JsonObject, key: number | string, item: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((item, index) => visit(value, index, item));
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) visit(value, key, item);
}

function isV4Error(status: number, body: unknown): boolean {
  return status >= 400 && v4Errors(body).length > 0;
}

function isShortRefIn(value: unknown): boolean {
  let found = false;
  forEachObject(value, (object) => {
    if (typeof object['@ref'] === 'string') found = true;
  });
  return found;
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export const CORE_FAULTS: readonly Fault[] = [
  {
    id: 'STATUS-CREATE-200',
    title: 'Create answers 200 instead of 201',
    breaks: ['PROTO-STATUS-002', 'DOC-CREATE-001'],
    area: 'core',
    description: 'Every 201 answer of `POST /` becomes 200 with the same body.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 201, (res) => withStatus(res, 200)),
    }),
  },
  {
    id: 'STATUS-READ-201',
    title: 'A plain read answers 201',
    breaks: ['PROTO-STATUS-001'],
    area: 'core',
    description: 'Every 200 answer of `POST /` becomes 201, as if each result were newly created.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 200, (res) => withStatus(res, 201)),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-MISSING',
    title: 'No x-txn-time header',
    breaks: ['PROTO-HEADER-001'],
    area: 'core',
    description: 'The `x-txn-time` header is removed from every answer.',
    apply: () => ({
      response: rewriteResponse((res) => 'x-txn-time' in res.headers, (res) => withoutHeader(res, 'x-txn-time')),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-SKEWED',
    title: 'x-txn-time differs from the ts of the written documents',
    breaks: ['PROTO-HEADER-002', 'DOC-CREATE-007', 'DB-CREATE-005'],
    area: 'core',
    description: 'On every 201 answer, `x-txn-time` is one microsecond later than the transaction time.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 201 && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
        (res) => withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) + 1n).toString()),
      ),
    }),
  },
  {
    id: 'HEADER-TXN-TIME-MISSING-ON-READS',
    title: 'Read-only requests carry no x-txn-time',
    breaks: ['TXN-TIME-002'],
    area: 'core',
    description: 'The `x-txn-time` header is removed from 200 answers (writes keep it).',
    apply: () => ({
      response: rewriteResponse((res, ctx) => isV4Query(ctx.original) && res.status === 200 && 'x-txn-time' in res.headers, (res) => withoutHeader(res, 'x-txn-time')),
    }),
  },
  {
    id: 'HEADER-METRICS-MISSING',
    title: 'No compute and byte-ops headers',
    breaks: ['PROTO-HEADER-003'],
    area: 'core',
    description: 'The `x-compute-ops`, `x-byte-read-ops`, `x-byte-write-ops` and `x-query-time` headers are removed.',
    apply: () => ({
      response: rewriteResponse(
        (res) => 'x-compute-ops' in res.headers || 'x-query-time' in res.headers,
        (res) => ['x-compute-ops', 'x-byte-read-ops', 'x-byte-write-ops', 'x-query-time'].reduce(withoutHeader, res),
      ),
    }),
  },
  {
    id: 'CONTENT-TYPE-TEXT',
    title: 'JSON answers labelled text/plain',
    breaks: ['PROTO-CTYPE-003'],
    area: 'core',
    description: 'Every `application/json` answer is labelled `text/plain; charset=utf-8`.',
    apply: () => ({
      response: rewriteResponse((res) => (res.headers['content-type'] ?? '').includes('json'), (res) => withHeader(res, 'content-type', 'text/plain; charset=utf-8')),
    }),
  },
  {
    id: 'CONTENT-TYPE-TEXT-PLAIN-REJECTED',
    title: 'A query sent as text/plain or without Content-Type is refused',
    breaks: ['PROTO-CTYPE-002'],
    area: 'core',
    description: 'A `POST /` whose Content-Type is missing or `text/plain` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && !(ctx.original.headers['content-type'] ?? '').includes('application/json'),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'invalid expression', description: 'Unsupported content type.' }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-BASIC-REJECTED',
    title: 'Basic authentication is not accepted',
    breaks: ['PROTO-AUTH-001'],
    area: 'core',
    description: 'A request with `Authorization: Basic …` is forwarded with an unknown Bearer secret instead.',
    apply: () => ({
      request: (req) =>
        (req.headers.authorization ?? '').startsWith('Basic ')
          ? { ...req, headers: { ...req.headers, authorization: 'Bearer fault-unknown-secret' } }
          : undefined,
    }),
  },
  {
    id: 'AUTH-BEARER-REJECTED-ON-V4',
    title: 'Bearer authentication is refused on POST /',
    breaks: ['PROTO-AUTH-002'],
    area: 'core',
    description: 'A `POST /` with `Authorization: Bearer …` answers 401 `unauthorized` (other endpoints keep working).',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => isV4Query(ctx.original) && (ctx.original.headers.authorization ?? '').startsWith('Bearer '),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'AUTH-401-AS-403',
    title: 'An unknown secret answers 403 instead of 401',
    breaks: ['PROTO-AUTH-004', 'PROTO-AUTH-003'],
    area: 'core',
    description: 'Every 401 answer becomes 403 `permission denied`.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 401,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'www-authenticate'), { errors: [{ code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }), 403),
      ),
    }),
  },
  {
    id: 'AUTH-401-CODE-RENAMED',
    title: 'The unauthorized error code is renamed',
    breaks: ['PROTO-AUTH-003'],
    area: 'core',
    description: 'In 401 answers the error code `unauthorized` becomes `unauthenticated`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 401 && hasErrorCode(body, 'unauthorized'),
        (body) => v4Errors(body).forEach((error) => (error.code = 'unauthenticated')),
      ),
    }),
  },
  {
    id: 'AUTH-MALFORMED-HEADER-400',
    title: 'A malformed Authorization header answers 400',
    breaks: ['PROTO-AUTH-005'],
    area: 'core',
    description: 'A request whose Authorization header is neither `Basic` nor `Bearer`, or whose secret is empty, answers 400 `bad request`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const auth = ctx.original.headers.authorization;
          return res.status === 401 && auth !== undefined && !/^(Basic|Bearer) \S+/.test(auth);
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'bad request', description: 'Malformed Authorization header.' }] }), 400),
      ),
    }),
  },
  {
    id: 'AUTH-WWW-AUTHENTICATE-MISSING',
    title: '401 answers lack WWW-Authenticate',
    breaks: ['PROTO-AUTH-006'],
    area: 'core',
    description: 'The `WWW-Authenticate` header is removed from every 401 answer.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 401 && 'www-authenticate' in res.headers, (res) => withoutHeader(res, 'www-authenticate')),
    }),
  },
  {
    id: 'ENDPOINT-405-AS-404',
    title: 'A wrong method on / answers 404',
    breaks: ['PROTO-ENDPOINT-003'],
    area: 'core',
    description: 'A request to `/` with a method other than GET or POST answers 404 `not found` instead of 405.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => pathname(ctx.original) === '/' && !['GET', 'POST'].includes(ctx.original.method) && res.status === 405,
        (res) => withStatus(withJsonBody(withoutHeader(res, 'allow'), { errors: [{ code: 'not found', description: 'Not Found' }] }), 404),
      ),
    }),
  },
  {
    id: 'ENDPOINT-UNKNOWN-PATH-500',
    title: 'An unknown path answers 500',
    breaks: ['PROTO-ENDPOINT-005', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A 404 `not found` protocol error (an unserved path) becomes 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 404 && hasErrorCode(bodyJson(res), 'not found'),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unexpected path.' }] }), 500),
      ),
    }),
  },
  {
    id: 'ENDPOINT-PING-UNWRAPPED',
    title: '/ping answers a bare status object',
    breaks: ['PROTO-ENDPOINT-002'],
    area: 'core',
    description: '`GET /ping` answers `{"status":"ok"}` instead of `{"resource": <string>}`.',
    apply: () => ({
      response: rewriteResponse((res, ctx) => pathname(ctx.original) === '/ping' && res.status === 200, (res) => withJsonBody(res, { status: 'ok' })),
    }),
  },
  {
    id: 'BODY-INVALID-JSON-CODE',
    title: 'Invalid JSON answers `bad request` instead of `invalid expression`',
    breaks: ['PROTO-BODY-001'],
    area: 'core',
    description: 'When the request body is not valid JSON, the `invalid expression` error code becomes `bad request`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => isV4Query(ctx.original) && ctx.original.body.length > 0 && v4Expression(ctx.original) === undefined && hasErrorCode(body, 'invalid expression'),
        (body) => v4Errors(body).forEach((error) => (error.code = 'bad request')),
      ),
    }),
  },
  {
    id: 'BODY-EMPTY-500',
    title: 'An empty query body answers 500',
    breaks: ['PROTO-BODY-002', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A `POST /` with an empty body answers 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && ctx.original.body.length === 0,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Empty body.' }] }), 500),
      ),
    }),
  },
  {
    id: 'BODY-UNKNOWN-FUNCTION-NULL',
    title: 'An unknown function evaluates to null',
    breaks: ['PROTO-BODY-003'],
    area: 'core',
    description: 'A well-formed JSON query that fails with `invalid expression` answers 200 `{"resource": null}` instead.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 400 && v4Expression(ctx.original) !== undefined && hasErrorCode(bodyJson(res), 'invalid expression'),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'BODY-WRONG-TYPE-500',
    title: 'Bad input answers 500',
    breaks: ['PROTO-STATUS-004', 'PROTO-BODY-004'],
    area: 'core',
    description: 'Every 400 answer of `POST /` becomes 500 `internal server error`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => isV4Query(ctx.original) && res.status === 400,
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unhandled input.' }] }), 500),
      ),
    }),
  },
  {
    id: 'BODY-INVALID-UTF8-500',
    title: 'A body that is not UTF-8 answers 500',
    breaks: ['PROTO-BODY-005', 'PROTO-STATUS-004'],
    area: 'core',
    description: 'A request body with invalid UTF-8 bytes answers 500.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => ctx.original.body.length > 0 && !isValidUtf8(ctx.original.body),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Decoding failed.' }] }), 500),
      ),
    }),
  },
  {
    id: 'ERROR-POSITION-DROPPED',
    title: 'Query errors lose their position',
    breaks: ['PROTO-ERROR-001'],
    area: 'core',
    description: '`position` is removed from every v4 query error.',
    apply: () => ({
      json: rewriteJson((body, ctx) => isV4Error(ctx.status, body), (body) => v4Errors(body).reduce((n, error) => n + deleteKeys(error, 'position'), 0)),
    }),
  },
  {
    id: 'ERROR-TOP-LEVEL-POSITION-NONEMPTY',
    title: 'Top-level errors name a position',
    breaks: ['PROTO-ERROR-002'],
    area: 'core',
    description: 'An error whose `position` is `[]` gets `["expr"]` instead.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length === 0),
        (body) => v4Errors(body).forEach((error) => {
          if (Array.isArray(error.position) && error.position.length === 0) error.position = ['expr'];
        }),
      ),
    }),
  },
  {
    id: 'ERROR-POSITION-TRUNCATED',
    title: 'Nested errors point at their parent',
    breaks: ['PROTO-ERROR-003'],
    area: 'core',
    description: 'The last element of every non-empty error `position` is dropped.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length > 0),
        (body) => v4Errors(body).forEach((error) => {
          if (Array.isArray(error.position) && error.position.length > 0) error.position = error.position.slice(0, -1);
        }),
      ),
    }),
  },
  {
    id: 'ERROR-PROTOCOL-WITH-POSITION',
    title: 'Protocol errors carry a position',
    breaks: ['PROTO-ERROR-004'],
    area: 'core',
    description: 'Every error without `position` (401, 404 path, 405) gets `"position": []`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => [401, 404, 405].includes(ctx.status) && v4Errors(body).some((error) => !('position' in error)),
        (body) => v4Errors(body).forEach((error) => {
          if (!('position' in error)) error.position = [];
        }),
      ),
    }),
  },
  {
    id: 'ERROR-VALIDATION-FAILURES-DROPPED',
    title: '`validation failed` without failures',
    breaks: ['PROTO-ERROR-005'],
    area: 'core',
    description: '`failures` is removed from `validation failed` errors.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'validation failed'), (body) => v4Errors(body).reduce((n, error) => n + deleteKeys(error, 'failures'), 0)),
    }),
  },
  {
    id: 'ERROR-ABORT-CODE-RENAMED',
    title: 'Abort answers code `aborted`',
    breaks: ['PROTO-ERROR-006'],
    area: 'core',
    description: 'The error code `transaction aborted` becomes `aborted`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'transaction aborted'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'transaction aborted') error.code = 'aborted';
      })),
    }),
  },
  {
    id: 'ERROR-INSTANCE-NOT-FOUND-RENAMED',
    title: 'Missing documents answer `document not found`',
    breaks: ['PROTO-ERROR-007', 'DOC-GET-002', 'DOC-DELETE-002'],
    area: 'core',
    description: 'The error code `instance not found` becomes `document not found` (status unchanged).',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'instance not found'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'instance not found') error.code = 'document not found';
      })),
    }),
  },
  {
    id: 'ERROR-VALUE-NOT-FOUND-400',
    title: '`value not found` answers 400',
    breaks: ['PROTO-ERROR-008'],
    area: 'core',
    description: 'A 404 `value not found` answer becomes 400 with the same body.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 404 && hasErrorCode(bodyJson(res), 'value not found'), (res) => withStatus(res, 400)),
    }),
  },
  {
    id: 'ERROR-PERMISSION-DENIED-401',
    title: '`permission denied` answers 401',
    breaks: ['PROTO-ERROR-009', 'KEY-ROLE-004'],
    area: 'core',
    description: 'A 403 `permission denied` answer becomes 401 with the same body.',
    apply: () => ({
      response: rewriteResponse((res) => res.status === 403 && hasErrorCode(bodyJson(res), 'permission denied'), (res) => withStatus(res, 401)),
    }),
  },
  {
    id: 'ERROR-INSTANCE-EXISTS-RENAMED',
    title: 'Duplicate creates answer `instance not unique`',
    breaks: ['DOC-CREATE-005', 'DB-CREATE-004', 'COLL-CREATE-004'],
    area: 'core',
    description: 'The error code `instance already exists` becomes `instance not unique`.',
    apply: () => ({
      json: rewriteJson((body) => hasErrorCode(body, 'instance already exists'), (body) => v4Errors(body).forEach((error) => {
        if (error.code === 'instance already exists') error.code = 'instance not unique';
      })),
    }),
  },
  {
    id: 'VERSION-4-RENDERS-CLASS',
    title: 'API version 4 renders refs with `class`',
    breaks: ['PROTO-VERSION-001'],
    area: 'core',
    description: 'With `X-FaunaDB-API-Version: 4`, every `collection` key inside an `@ref` becomes `class`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => apiVersion(ctx.original) === '4',
        (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'collection', 'class', (object) => object === ref), 0),
      ),
    }),
  },
  {
    id: 'VERSION-DEFAULT-RENDERS-COLLECTION',
    title: 'Without an API version, refs render with `collection`',
    breaks: ['PROTO-VERSION-002'],
    area: 'core',
    description: 'Without `X-FaunaDB-API-Version`, every `class` key inside an `@ref` becomes `collection`.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => isV4Query(ctx.original) && apiVersion(ctx.original) === undefined,
        (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'class', 'collection', (object) => object === ref), 0),
      ),
    }),
  },
  {
    id: 'VERSION-UNSUPPORTED-ACCEPTED',
    title: 'An unsupported API version is accepted',
    breaks: ['PROTO-VERSION-006'],
    area: 'core',
    description: 'An unsupported `X-FaunaDB-API-Version` header is dropped before it reaches the server, so the query runs.',
    apply: () => ({
      request: (req) => {
        const version = apiVersion(req);
        if (version === undefined || SUPPORTED_API_VERSIONS.has(version)) return undefined;
        const headers = { ...req.headers };
        delete headers['x-faunadb-api-version'];
        return { ...req, headers };
      },
    }),
  },
  {
    id: 'VALUE-SHORT-REF-REJECTED',
    title: 'Short-form `@ref` strings are refused',
    breaks: ['PROTO-VALUE-002'],
    area: 'core',
    description: 'A query containing `{"@ref": "<collection>/<id>"}` answers 400 `invalid expression`.',
    apply: () => ({
      response: rewriteResponse(
        (_res, ctx) => isShortRefIn(v4Expression(ctx.original)),
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [{ position: [], code: 'invalid expression', description: 'Short ref form is not supported.' }] }), 400),
      ),
    }),
  },
  {
    id: 'VALUE-BIG-INTEGER-ROUNDED',
    title: 'Integers beyond 2^53 lose precision',
    breaks: ['PROTO-VALUE-011'],
    area: 'core',
    description: 'Every integer whose magnitude exceeds 2^53 in an answer is rounded to the nearest double.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let rounded = 0;
          // Array elements too: big integers usually come back in lists (`[9007199254740993, …]`).
          const round = (container: unknown[] | JsonObject, key: number | string, value: unknown): void => {
            if (!isJsonInteger(value)) return forEachContained(value, round);
            const exact = BigInt(String(value));
            if (exact <= TWO_POW_53 && exact >= -TWO_POW_53) return;
            const approx = jsonInt(BigInt(Number(exact)));
            if (String(approx) === String(value)) return;
            (container as Record<string | number, unknown>)[key] = approx;
            rounded += 1;
          };
          forEachContained(body, round);
          return rounded;
        },
      ),
    }),
  },
  {
    id: 'VALUE-SET-TAG-RENAMED',
    title: 'Sets come back as `@setref`',
    breaks: ['PROTO-VALUE-004'],
    area: 'core',
    description: 'Every `@set` key in an answer becomes `@setref`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@set', '@setref')) }),
  },
  {
    id: 'VALUE-QUERY-TAG-RENAMED',
    title: 'Stored lambdas come back as `@lambda`',
    breaks: ['PROTO-VALUE-005'],
    area: 'core',
    description: 'Every `@query` key in an answer becomes `@lambda`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@query', '@lambda')) }),
  },
  {
    id: 'VALUE-TS-TAG-RENAMED',
    title: 'Timestamps come back as `@time`',
    breaks: ['PROTO-VALUE-006'],
    area: 'core',
    description: 'Every `@ts` key in an answer becomes `@time`.',
    apply: () => ({ json: rewriteJson(() => true, (body) => renameKeys(body, '@ts', '@time')) }),
  },
  {
    id: 'VALUE-OBJ-UNWRAPPED',
    title: '`@obj` escapes are dropped',
    breaks: ['PROTO-VALUE-007'],
    area: 'core',
    description: 'Every `{"@obj": {…}}` in an answer is replaced by its content, so user keys starting with `@` look like tags.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let unwrapped = 0;
          forEachObject(body, (object) => {
            for (const [key, value] of Object.entries(object)) {
              if (isJsonObject(value) && Object.keys(value).length === 1 && isJsonObject(value['@obj'])) {
                object[key] = value['@obj'];
                unwrapped += 1;
              }
            }
          });
          return unwrapped;
        },
      ),
    }),
  },
  {
    id: 'VALUE-SELECT-DEFAULT-IGNORED',
    title: '`select` ignores `default`',
    breaks: ['PROTO-VALUE-009'],
    area: 'core',
    description: 'The `default` of every `select` form is removed from the query before it reaches the server.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const removed = deleteKeys(expression, 'default', (object) => 'select' in object);
        return removed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'DOC-DATA-INTEGERS-AS-DECIMALS',
    title: 'Integers in `data` come back as decimals',
    breaks: ['DOC-CREATE-006'],
    area: 'core',
    description: 'Every integer inside a `data` object of an answer is written as a decimal (`1` → `1.0`).',
    apply: () => ({
      json: rewriteJson(
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
    }),
  },
  {
    id: 'DOC-TS-AS-DECIMAL',
    title: 'Document `ts` is a decimal',
    breaks: ['DOC-CREATE-007'],
    area: 'core',
    description: 'The `ts` of every record in an answer is written with a fraction (`1718340750415639.0`).',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => records(body).reduce((n, record) => {
          if (!isJsonInteger(record.ts)) return n;
          record.ts = jsonDecimal(Number(String(record.ts)));
          return n + 1;
        }, 0),
      ),
    }),
  },
  {
    id: 'DOC-UPDATE-REPLACES',
    title: 'Update replaces instead of merging',
    breaks: ['DOC-UPDATE-001'],
    area: 'core',
    description: 'Every `update` form in a query is sent to the server as `replace`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const renamed = renameKeys(expression, 'update', 'replace', (object) => 'params' in object);
        return renamed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'DOC-REPLACE-MERGES',
    title: 'Replace merges instead of replacing',
    breaks: ['DOC-REPLACE-001'],
    area: 'core',
    description: 'Every `replace` form in a query is sent to the server as `update`.',
    apply: () => ({
      request: (req) => {
        const expression = v4Expression(req);
        const renamed = renameKeys(expression, 'replace', 'update', (object) => 'params' in object);
        return renamed > 0 ? { ...req, body: Buffer.from(stringifyJson(expression)) } : undefined;
      },
    }),
  },
  {
    id: 'DOC-DELETE-ANSWERS-TRUE',
    title: 'Delete answers `true` instead of the deleted document',
    breaks: ['DOC-DELETE-001'],
    area: 'core',
    description: 'A successful top-level `delete` answers `{"resource": true}`.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 200 && topLevelForm(ctx.original) === 'delete' && v4Resource(body) !== undefined,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'DOC-EXISTS-ALWAYS-TRUE',
    title: 'Exists answers true for missing things',
    breaks: ['DOC-LIFE-001', 'DB-LIFE-006'],
    area: 'core',
    description: 'A top-level `exists` that answers false answers true.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topLevelForm(ctx.original) === 'exists' && isJsonObject(body) && body.resource === false,
        (body) => {
          (body as JsonObject).resource = true;
        },
      ),
    }),
  },
  {
    id: 'DOC-GET-MISSING-NULL',
    title: 'Get of a missing document answers null',
    breaks: ['DOC-GET-002'],
    area: 'core',
    description: 'A top-level `get` that fails with 404 `instance not found` answers 200 `{"resource": null}`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => topLevelForm(ctx.original) === 'get' && res.status === 404 && hasErrorCode(bodyJson(res), 'instance not found'),
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'DOC-LIST-DROPS-LAST',
    title: 'Listing documents loses the last one',
    breaks: ['DOC-LIFE-003'],
    area: 'core',
    description: 'A page answering a query over `documents` drops its last entry.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'documents') && Array.isArray(v4Resource(body)?.data) && (v4Resource(body)!.data as unknown[]).length > 0,
        (body) => {
          (v4Resource(body)!.data as unknown[]).pop();
        },
      ),
    }),
  },
  {
    id: 'COLL-LIST-EMPTY',
    title: 'Listing collections answers nothing',
    breaks: ['COLL-GET-002'],
    area: 'core',
    description: 'A page answering a query over `collections` is empty.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => expressionUses(ctx.original, 'collections') && !expressionUses(ctx.original, 'create_collection') && Array.isArray(v4Resource(body)?.data),
        (body) => {
          const resource = v4Resource(body)!;
          const had = (resource.data as unknown[]).length;
          resource.data = [];
          return had;
        },
      ),
    }),
  },
  {
    id: 'COLL-HISTORY-DAYS-DROPPED',
    title: 'Collection records lack `history_days`',
    breaks: ['COLL-CREATE-001', 'COLL-CREATE-005', 'COLL-CREATE-006'],
    area: 'core',
    description: '`history_days` is removed from every collection record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'collections' ? deleteKeys(record, 'history_days', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'DB-REF-WRONG-NATIVE-COLLECTION',
    title: 'Database refs point at `database`',
    breaks: ['DB-CREATE-002'],
    area: 'core',
    description: 'In every ref, the native collection id `databases` becomes `database`.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => refPayloads(body).reduce((n, ref) => {
        if (ref.id !== 'databases' || 'collection' in ref || 'class' in ref) return n;
        ref.id = 'database';
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'DB-DATA-DROPPED',
    title: 'Database records lose `data`',
    breaks: ['DB-CREATE-007'],
    area: 'core',
    description: '`data` is removed from every database record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'databases' ? deleteKeys(record, 'data', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'KEY-NAME-DROPPED',
    title: 'Key records lose their `name`',
    breaks: ['KEY-CREATE-002'],
    area: 'core',
    description: '`name` is removed from every key record.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => n + (nativeCollectionOf(record) === 'keys' ? deleteKeys(record, 'name', (o) => o === record) : 0), 0)),
    }),
  },
  {
    id: 'KEY-ROLE-NOT-ECHOED',
    title: 'Key records always say `server`',
    breaks: ['KEY-ROLE-001'],
    area: 'core',
    description: 'The `role` of every key record reads `server`, whatever role was given.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
        if (nativeCollectionOf(record) !== 'keys' || record.role === 'server' || typeof record.role !== 'string') return n;
        record.role = 'server';
        return n + 1;
      }, 0)),
    }),
  },
  {
    id: 'KEY-HASH-NOT-BCRYPT',
    title: '`hashed_secret` is not a BCrypt hash',
    breaks: ['KEY-SECRET-004'],
    area: 'core',
    description: 'Every `hashed_secret` is replaced by a 64-character hex string.',
    apply: () => ({
      json: rewriteJson(() => true, (body) => {
        let changed = 0;
        forEachObject(body, (object) => {
          if (typeof object.hashed_secret === 'string') {
            object.hashed_secret = Buffer.from(object.hashed_secret).toString('hex').padEnd(64, '0').slice(0, 64);
            changed += 1;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'KEY-SECRET-ON-READ',
    title: '`secret` re-added to key reads',
    breaks: ['KEY-SECRET-002', 'KEY-SECRET-003', 'KEY-SECRET-005', 'KEY-LIFE-003'],
    area: 'core',
    description: 'Remembers each secret a CreateKey answer carried and adds it back to every later key record with the same ref.',
    apply: () => {
      const secrets = new Map<string, string>();
      const refKey = (record: JsonObject) => stringifyJson(record.ref);
      return {
        json: rewriteJson(() => true, (body) => records(body).reduce((n, record) => {
          if (nativeCollectionOf(record) !== 'keys') return n;
          if (typeof record.secret === 'string') {
            secrets.set(refKey(record), record.secret);
            return n;
          }
          const secret = secrets.get(refKey(record));
          if (secret === undefined) return n;
          record.secret = secret;
          return n + 1;
        }, 0)),
      };
    },
  },
  {
    id: 'KEY-DELETED-STILL-WORKS',
    title: 'A deleted key keeps working',
    breaks: ['KEY-LIFE-001'],
    area: 'core',
    description: 'Learns the keys the run creates; once a key is deleted, requests made with its secret are forwarded with another live key of the same database and role.',
    apply: () => {
      const ledger = new KeyLedger();
      const deleted = new Set<string>();
      return {
        request: (req) => {
          const secret = requestSecret(req);
          if (secret === undefined || !deleted.has(secret)) return undefined;
          const key = ledger.bySecret(secret)!;
          const standIn = ledger.sibling(key, key.role, deleted);
          return standIn === undefined ? undefined : withSecret(req, standIn.secret);
        },
        json: (body, ctx) => {
          ledger.learnFrom(body);
          const resource = v4Resource(body);
          if (topLevelForm(ctx.original) === 'delete' && ctx.status === 200 && resource !== undefined) {
            const key = ledger.byRef(resource.ref);
            if (key !== undefined) deleted.add(key.secret);
          }
          return undefined;
        },
      };
    },
  },
  {
    id: 'KEY-SECRET-LEAKED-IN-ERRORS',
    title: 'Key secrets leak into error descriptions',
    breaks: ['KEY-SECRET-005'],
    area: 'core',
    description: 'Remembers the latest key secret a CreateKey answer carried and appends it to the description of every later error.',
    apply: () => {
      let latest: string | undefined;
      return {
        json: rewriteJson(() => true, (body) => {
          for (const record of records(body)) if (typeof record.secret === 'string') latest = record.secret;
          if (latest === undefined) return 0;
          const secret = latest;
          return v4Errors(body).reduce((n, error) => {
            error.description = `${String(error.description)} (key ${secret})`;
            return n + 1;
          }, 0);
        }),
      };
    },
  },
  {
    id: 'TXN-TS-GOES-BACKWARDS',
    title: 'Later writes get earlier timestamps',
    breaks: ['TXN-ORDER-001'],
    area: 'core',
    description: 'Each answer shifts every `ts` and `x-txn-time` one second further into the past than the answer before, so time runs backwards across requests.',
    apply: () => {
      let shift = 0n;
      return {
        response: rewriteResponse(
          (res, ctx) => isV4Query(ctx.original) && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
          (res) => {
            shift += 1_000_000n;
            const body = bodyJson(res);
            for (const record of records(body)) {
              if (isLosslessNumber(record.ts) && isJsonInteger(record.ts)) record.ts = jsonInt(BigInt(String(record.ts)) - shift);
            }
            const shifted = withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) - shift).toString());
            return body === undefined ? shifted : { ...shifted, body: Buffer.from(stringifyJson(body)) };
          },
        ),
      };
    },
  },
];
