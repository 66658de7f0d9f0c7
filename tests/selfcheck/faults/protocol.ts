// The faults of spec/requirements/protocol.md that are code; their rows (ids, titles, what they break) are in protocol.json.
import type { Fault, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import { answerError, isDocumentKey, refKey } from './lib/records.js';
import {
  onAnswerObjects,
  apiVersion,
  bodyJson,
  editErrors,
  editObjects,
  hasErrorCode,
  isRefObject,
  isV4Query,
  onJson,
  onObjects,
  onResponse,
  pathname,
  refPayloads,
  renameKeys,
  topLevelForm,
  v4Errors,
  v4Expression,
  withHeader,
  withJsonBody,
  withStatus,
  replaceLeaves,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

const SUPPORTED_API_VERSIONS = new Set(['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE']);

const OWN_WORDS = new Map([
  ['Allowed methods are GET, POST.', 'Method not allowed.'],
  ['Call performs a write, which is not allowed in get requests.', 'Writes are not allowed in a read-only request.'],
  ['No query provided.', 'Request body is empty.'],
  ['Invalid time.', 'Invalid @ts value.'],
  ['Invalid date.', 'Invalid @date value.'],
  ['Expression list cannot be empty.', 'Do requires at least one expression.'],
]);

/** A fault refusing with 400 `code` every query holding an object `refused` picks (the query is run all the same). */
function refusing(refused: (object: JsonObject) => boolean, code: string, description: string, position: unknown[] = []): Fault['apply'] {
  const picks = (request: ProxiedRequest) => {
    let found = false;
    forEachObject(v4Expression(request), (object) => {
      found ||= refused(object);
    });
    return found;
  };
  return onResponse(
    (_res, ctx) => picks(ctx.original),
    (res) => answerError(res, 400, code, description, position),
  );
}

const isLongRef = (value: unknown) => isJsonObject(value) && isJsonObject(value['@ref']);

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const EVENT_ENDPOINTS = new Set(['/query/1', '/feed/1', '/stream/1']);

export const code: FaultCode = {
  'HEADER-TXN-TIME-SKEWED': onResponse(
    (res) => res.status === 201 && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
    (res) => withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) + 1n).toString()),
  ),
  'HEADER-QUERY-BYTES-OUT-CHARACTERS': onResponse(
    (res) => /^\d+$/.test(res.headers['x-query-bytes-out'] ?? '') && res.body.toString('utf8').length !== res.body.length,
    (res) => withHeader(res, 'x-query-bytes-out', String(res.body.toString('utf8').length)),
  ),
  'HEADER-TRACEPARENT-NEW-TRACE': onResponse(
    (res, ctx) => ctx.original.headers.traceparent !== undefined && /^00-[0-9a-f]{32}-/.test(res.headers.traceparent ?? ''),
    (res) => {
      const [version, traceId, ...rest] = res.headers.traceparent!.split('-');
      return withHeader(res, 'traceparent', [version, [...traceId!].reverse().join(''), ...rest].join('-'));
    },
  ),
  'HEADER-TAGS-ECHOED-AS-SENT': onResponse(
    (res, ctx) =>
      'x-fauna-tags' in res.headers &&
      ctx.original.headers['x-fauna-tags'] !== undefined &&
      ctx.original.headers['x-fauna-tags'].includes(','),
    (res, ctx) => withHeader(res, 'x-fauna-tags', ctx.original.headers['x-fauna-tags']!),
  ),
  'CONTENT-TYPE-TEXT': onResponse(
    (res) => (res.headers['content-type'] ?? '').includes('json'),
    (res) => withHeader(res, 'content-type', 'text/plain; charset=utf-8'),
  ),
  'ENDPOINT-PING-STRICT-SCOPES': onResponse(
    (res, ctx) => pathname(ctx.original) === '/ping' && res.status === 200,
    (res, ctx) => {
      if (ctx.original.method === 'HEAD')
        return withStatus(
          withJsonBody(withHeader(res, 'allow', 'GET'), { errors: [{ code: 'method not allowed', description: 'Method not allowed.' }] }),
          405,
        );
      const scope = new URL(ctx.original.path, 'http://proxy').searchParams.get('scope');
      if (scope === null) return withJsonBody(res, { resource: 'Scope node is OK' });
      if (['node', 'read', 'write', 'all'].includes(scope)) return res;
      return withStatus(withJsonBody(res, { errors: [{ code: 'invalid url parameter', description: `Invalid scope '${scope}'.` }] }), 400);
    },
  ),
  'BODY-INVALID-JSON-CODE': onJson(
    (body, ctx) =>
      isV4Query(ctx.original) &&
      ctx.original.body.length > 0 &&
      v4Expression(ctx.original) === undefined &&
      hasErrorCode(body, 'invalid expression'),
    (body) =>
      v4Errors(body).forEach((error) => {
        error.code = 'bad request';
      }),
  ),
  'BODY-EMPTY-500': onResponse(
    (_res, ctx) => ctx.original.method === 'POST' && isV4Query(ctx.original) && ctx.original.body.length === 0,
    (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Empty body.' }] }), 500),
  ),
  'BODY-UNKNOWN-FUNCTION-NULL': onResponse(
    (res, ctx) => res.status === 400 && v4Expression(ctx.original) !== undefined && hasErrorCode(bodyJson(res), 'invalid expression'),
    (res) => withStatus(withJsonBody(res, { resource: null }), 200),
  ),
  'BODY-INVALID-UTF8-500': onResponse(
    (_res, ctx) => ctx.original.body.length > 0 && !isValidUtf8(ctx.original.body),
    (res) => withStatus(withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Decoding failed.' }] }), 500),
  ),
  'BODY-INVALID-UTF8-EMPTY-ANSWER': onResponse(
    (_res, ctx) => ctx.original.body.length > 0 && !isValidUtf8(ctx.original.body),
    (res) => withStatus(withJsonBody(res, { resource: null }), 200),
  ),
  'ERROR-TOP-LEVEL-POSITION-NONEMPTY': onJson(
    (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length === 0),
    (body) =>
      v4Errors(body).forEach((error) => {
        if (Array.isArray(error.position) && error.position.length === 0) error.position = ['expr'];
      }),
  ),
  'ERROR-POSITION-TRUNCATED': onJson(
    (body) => v4Errors(body).some((error) => Array.isArray(error.position) && error.position.length > 0),
    (body) =>
      v4Errors(body).forEach((error) => {
        if (Array.isArray(error.position) && error.position.length > 0) error.position = error.position.slice(0, -1);
      }),
  ),
  'ERROR-PROTOCOL-WITH-POSITION': onJson(
    (body, ctx) => [401, 404, 405].includes(ctx.status) && v4Errors(body).some((error) => !('position' in error)),
    (body) =>
      v4Errors(body).forEach((error) => {
        if (!('position' in error)) error.position = [];
      }),
  ),
  'VERSION-4-RENDERS-CLASS': onJson(
    (_body, ctx) => apiVersion(ctx.original) === '4',
    (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'collection', 'class', (object) => object === ref), 0),
  ),
  'VERSION-DEFAULT-RENDERS-COLLECTION': onJson(
    (_body, ctx) => isV4Query(ctx.original) && apiVersion(ctx.original) === undefined,
    (body) => refPayloads(body).reduce((n, ref) => n + renameKeys(ref, 'class', 'collection', (object) => object === ref), 0),
  ),
  'VALUE-SHORT-REF-REJECTED': refusing(
    (object) => typeof object['@ref'] === 'string',
    'invalid expression',
    'Short ref form is not supported.',
  ),

  // Array elements too: big integers usually come back in lists (`[9007199254740993, …]`).
  'VALUE-BIG-INTEGER-ROUNDED': onJson(
    () => true,
    (body) => replaceLeaves(body, (value) => (isJsonInteger(value) ? jsonInt(BigInt(Number(String(value)))) : value)),
  ),
  'VALUE-EARLY-YEARS-AS-1900S': onAnswerObjects(
    (object) =>
      ['@ts', '@date'].filter((tag) => {
        const text = object[tag];
        if (typeof text !== 'string' || !/^00\d\d-/.test(text)) return false;
        object[tag] = `19${text.slice(2)}`;
        return true;
      }).length,
  ),
  'VALUE-OBJ-UNWRAPPED': onAnswerObjects(
    (object) =>
      Object.entries(object).filter(([key, value]) => {
        if (!isJsonObject(value) || Object.keys(value).length !== 1 || !isJsonObject(value['@obj'])) return false;
        object[key] = value['@obj'];
        return true;
      }).length,
  ),
  'VALUE-REF-LITERAL-NOT-BINDABLE': refusing(
    (object) =>
      ('let' in object && [object.let].flat().some((binding) => isJsonObject(binding) && Object.values(binding).some(isLongRef))) ||
      (isJsonObject(object.object) && Object.values(object.object).some(isLongRef)),
    'invalid expression',
    'Ref literals are only accepted as function arguments.',
  ),

  'VALUE-REFS-RENDERED-SHORT': onAnswerObjects((object) => {
    const key = isRefObject(object) ? refKey(object) : undefined;
    if (key === undefined || !isDocumentKey(key) || typeof object['@ref'] === 'string') return false;
    object['@ref'] = `collections/${key}`;
    return true;
  }),
  'VALUE-SELECT-STRING-PATH-REFUSED': refusing(
    (object) => 'select' in object && 'from' in object && (typeof object.select === 'string' || isLosslessNumber(object.select)),
    'invalid argument',
    'Path must be an array.',
    ['select'],
  ),

  'VALUE-DO-ANSWERS-FIRST': onObjects((object) => {
    if (!Array.isArray(object.do) || object.do.length < 2 || Object.keys(object).length !== 1) return false;
    const steps = object.do;
    delete object.do;
    object.select = [jsonInt(0)];
    object.from = steps;
    return true;
  }),
  'VALUE-EQUALS-FIRST-TWO-ONLY': onObjects((object) => {
    if (!Array.isArray(object.equals) || object.equals.length <= 2) return false;
    object.equals = object.equals.slice(0, 2);
    return true;
  }),
  'VALUE-AT-KEY-READ-AS-TAG': refusing(
    (object) => isJsonObject(object.object) && Object.keys(object.object).some((key) => key.startsWith('@')),
    'invalid expression',
    'Unknown tag in object.',
  ),

  'VERSION-21-RENDERS-COLLECTION': onJson(
    (_body, ctx) => apiVersion(ctx.original) === '2.1',
    (body) =>
      refPayloads(body).reduce((n, ref) => {
        const renamed = renameKeys(ref, 'class', 'collection', (object) => object === ref);
        if (ref.id === 'classes' && !('collection' in ref)) ref.id = 'collections';
        return n + renamed;
      }, 0),
  ),
  'VERSION-4-REFUSES-CLASS-REFS': onResponse(
    (_res, ctx) => apiVersion(ctx.original) === '4' && refPayloads(v4Expression(ctx.original)).some((ref) => 'class' in ref),
    (res) => answerError(res, 400, 'invalid ref', 'Refs must name their collection under `collection`.'),
  ),
  'VERSION-CLASS-FORM-UNKNOWN': refusing(
    (object) => typeof object.class === 'string' && !('@ref' in object),
    'invalid expression',
    'No form/function found, or invalid argument keys: { class }.',
  ),

  'VERSION-4-NATIVE-CLASSES': onJson(
    (_body, ctx) => apiVersion(ctx.original) === '4',
    (body) =>
      refPayloads(body).reduce((n, ref) => {
        if (ref.id !== 'collections' || 'collection' in ref || 'class' in ref) return n;
        ref.id = 'classes';
        return n + 1;
      }, 0),
  ),
  'EVENT-ENDPOINT-ERROR-V4-SHAPE': () => ({
    json: (body, ctx) => {
      if (
        !EVENT_ENDPOINTS.has(pathname(ctx.original)) ||
        ctx.status < 400 ||
        ctx.status === 401 ||
        !isJsonObject(body) ||
        !isJsonObject(body.error)
      )
        return undefined;
      return { errors: [{ code: body.error.code, description: body.error.message }] };
    },
  }),
  'EVENT-ENDPOINT-UNKNOWN-VERSION-500': onResponse(
    (res, ctx) => /^\/(query|feed|stream)\/(?!1$)[^/]+$/.test(pathname(ctx.original)) && res.status === 404,
    (res) => withStatus(withJsonBody(res, { error: { code: 'internal_error', message: 'Unsupported version.' } }), 500),
  ),
  'HEADER-LAST-SEEN-AHEAD-REFUSED': () => {
    let latest = 0n;
    return {
      response: (res, ctx) => {
        const seen = ctx.original.headers['x-last-seen-txn'];
        if (seen !== undefined && /^\d+$/.test(seen) && latest > 0n && BigInt(seen) > latest) {
          return withStatus(
            withJsonBody(res, {
              errors: [{ code: 'bad request', description: "Invalid header 'x-last-seen-txn': Timestamp is in the future." }],
            }),
            400,
          );
        }
        const time = res.headers['x-txn-time'];
        if (time !== undefined && /^\d+$/.test(time) && BigInt(time) > latest) latest = BigInt(time);
        return undefined;
      },
    };
  },
  'QUERY-DEFAULT-VERSION-OMITTED': onAnswerObjects((object) => {
    if (!isJsonObject(object['@query']) || object['@query'].api_version !== '2.12') return false;
    delete object['@query'].api_version;
    return true;
  }),
  'QUERY-LET-AS-SENT': onAnswerObjects((object) =>
    !isJsonObject(object['@query'])
      ? 0
      : editObjects(object['@query'].expr, (inner) => {
          if (!isJsonObject(inner.let) || !('in' in inner)) return false;
          inner.let = Object.entries(inner.let).map(([name, value]) => ({ [name]: value }));
          return true;
        }),
  ),
  'ERROR-DESCRIPTIONS-OWN-WORDS': onJson(
    () => true,
    (body) =>
      editErrors(body, (error) => {
        const own = OWN_WORDS.get(String(error.description));
        if (own !== undefined) error.description = own;
        return own !== undefined;
      }),
  ),
  'AUTH-V10-ONE-MESSAGE': onJson(
    (body, ctx) => ctx.status === 401 && pathname(ctx.original) === '/query/1' && isJsonObject(body) && isJsonObject(body.error),
    (body) => {
      const error = (body as JsonObject).error as JsonObject;
      if (error.message !== 'Access token required') return 0;
      error.message = 'Invalid token, unable to authenticate request';
      return 1;
    },
  ),
  'CREATE-ERROR-AT-TOP': onJson(
    (_body, ctx) => /^create(_|$)/.test(topLevelForm(ctx.original) ?? ''),
    (body, ctx) => {
      const form = topLevelForm(ctx.original);
      return editErrors(body, (error) => {
        if (!Array.isArray(error.position) || error.position.length !== 1 || error.position[0] !== form) return false;
        error.position = [];
        return true;
      });
    },
  ),
  'UPDATE-ERROR-AT-ARGUMENT': onJson(
    (_body, ctx) => ['update', 'replace', 'delete'].includes(topLevelForm(ctx.original) ?? ''),
    (body, ctx) =>
      editErrors(body, (error) => {
        if (!Array.isArray(error.position) || error.position.length !== 0) return false;
        error.position = [topLevelForm(ctx.original)!];
        return true;
      }),
  ),
  'UPDATE-MISSING-TARGET-AT-FORM': onJson(
    (body) => hasErrorCode(body, 'instance not found'),
    (body) =>
      editErrors(body, (error) => {
        if (
          error.code !== 'instance not found' ||
          !Array.isArray(error.position) ||
          !['update', 'replace'].includes(String(error.position.at(-1)))
        )
          return false;
        error.position = error.position.slice(0, -1);
        return true;
      }),
  ),
  'API-VERSION-AFTER-AUTH': () => ({
    request: (req) => {
      const version = apiVersion(req);
      if (version === undefined || SUPPORTED_API_VERSIONS.has(version.toUpperCase())) return undefined;
      if (req.headers.authorization !== undefined && pathname(req) !== '/ping') return undefined;
      const { 'x-faunadb-api-version': _unsupported, ...headers } = req.headers;
      return { ...req, headers };
    },
  }),
};
