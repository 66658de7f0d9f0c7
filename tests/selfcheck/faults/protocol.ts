// The faults of spec/requirements/protocol.md that are code; their rows (ids, titles, what they break) are in protocol.json.
import type { ProxiedRequest } from '../fault.js';
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
  rewriteJson,
  topLevelForm,
  v4Errors,
  v4Expression,
  withHeader,
  withJsonBody,
  withoutHeader,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

const SUPPORTED_API_VERSIONS = new Set(['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE']);

const TWO_POW_53 = 2n ** 53n;

/** The headers DEC-063 has servers check: v4 ones, then those of `/query/1` and `/feed/1`. */
const REQUEST_PARAMETER_HEADERS = [
  'x-last-seen-txn',
  'x-query-timeout',
  'x-max-retries-on-contention',
  'x-last-txn-ts',
  'x-query-timeout-ms',
  'x-max-contention-retries',
  'x-linearized',
  'x-typecheck',
  'x-performance-hints',
] as const;

const TAGS_HEADERS = ['x-fauna-tags', 'x-query-tags'];

/** The request without the headers `drop` picks, or undefined when it has none of them. */
function withoutHeaders(req: ProxiedRequest, drop: (name: string, value: string) => boolean): ProxiedRequest | undefined {
  const dropped = Object.keys(req.headers).filter((name) => drop(name, req.headers[name]!));
  if (dropped.length === 0) return undefined;
  const headers = { ...req.headers };
  for (const name of dropped) delete headers[name];
  return { ...req, headers };
}

/** Calls `visit` for every element of an array or value of an object (not deeper: `visit` recurses if it wants). */
function forEachContained(value: unknown, visit: (container: unknown[] | JsonObject, key: number | string, item: unknown) => void): void {
  if (Array.isArray(value))
    value.forEach((item, index) => {
      visit(value, index, item);
    });
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) visit(value, key, item);
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

const EVENT_ENDPOINTS = new Set(['/query/1', '/feed/1', '/stream/1']);

function isEventEndpoint(request: ProxiedRequest): boolean {
  return EVENT_ENDPOINTS.has(pathname(request));
}

export const code: FaultCode = {
  'FAILURE-PATH-INDEX-NUMBERS': onResponse(
    (res) => res.status === 400 && v4Errors(bodyJson(res)).some((error) => Array.isArray(error.failures)),
    (res) => {
      const body = bodyJson(res) as JsonObject;
      for (const error of v4Errors(body)) {
        for (const failure of Array.isArray(error.failures) ? error.failures : []) {
          if (isJsonObject(failure) && Array.isArray(failure.field))
            failure.field = failure.field.map((step) => (typeof step === 'string' && /^\d+$/.test(step) ? jsonInt(Number(step)) : step));
        }
      }
      return withJsonBody(res, body);
    },
  ),
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
  'AUTH-BASIC-REJECTED': () => ({
    request: (req) =>
      (req.headers.authorization ?? '').startsWith('Basic ')
        ? { ...req, headers: { ...req.headers, authorization: 'Bearer fault-unknown-secret' } }
        : undefined,
  }),
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
  'VERSION-UNSUPPORTED-ACCEPTED': () => ({
    request: (req) => {
      const version = apiVersion(req);
      if (version === undefined || SUPPORTED_API_VERSIONS.has(version)) return undefined;
      const headers = { ...req.headers };
      delete headers['x-faunadb-api-version'];
      return { ...req, headers };
    },
  }),
  'VALUE-SHORT-REF-REJECTED': onResponse(
    (_res, ctx) => isShortRefIn(v4Expression(ctx.original)),
    (res) =>
      withStatus(
        withJsonBody(withoutHeader(res, 'x-txn-time'), {
          errors: [{ position: [], code: 'invalid expression', description: 'Short ref form is not supported.' }],
        }),
        400,
      ),
  ),
  'VALUE-BIG-INTEGER-ROUNDED': onJson(
    () => true,
    (body) => {
      let rounded = 0;
      // Array elements too: big integers usually come back in lists (`[9007199254740993, …]`).
      const round = (container: unknown[] | JsonObject, key: number | string, value: unknown): void => {
        if (!isJsonInteger(value)) {
          forEachContained(value, round);
          return;
        }
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
  'ENDPOINT-RESULT-KEY': onJson(
    (body, ctx) => isV4Query(ctx.original) && ctx.status < 300 && isJsonObject(body) && 'resource' in body,
    (body) => renameKeys(body, 'resource', 'result', (object) => object === body),
  ),
  'CONTENT-TYPE-JSON-NEEDS-CHARSET': onResponse(
    (_res, ctx) =>
      ctx.original.method === 'POST' &&
      isV4Query(ctx.original) &&
      (ctx.original.headers['content-type'] ?? '').trim().toLowerCase() === 'application/json',
    (res) =>
      withStatus(
        withJsonBody(withoutHeader(res, 'x-txn-time'), {
          errors: [{ code: 'bad request', description: 'Content-Type must declare charset=utf-8.' }],
        }),
        400,
      ),
  ),
  'VALUE-REF-LITERAL-NOT-BINDABLE': onResponse(
    (_res, ctx) => {
      let found = false;
      const isLongRef = (value: unknown) => isJsonObject(value) && isJsonObject(value['@ref']);
      forEachObject(v4Expression(ctx.original), (object) => {
        const bindings = Array.isArray(object.let) ? object.let : [object.let];
        if ('let' in object && bindings.some((binding) => isJsonObject(binding) && Object.values(binding).some(isLongRef))) found = true;
        if (isJsonObject(object.object) && Object.values(object.object).some(isLongRef)) found = true;
      });
      return found;
    },
    (res) => answerError(res, 400, 'invalid expression', 'Ref literals are only accepted as function arguments.'),
  ),
  'VALUE-REFS-RENDERED-SHORT': onAnswerObjects((object) => {
    const key = isRefObject(object) ? refKey(object) : undefined;
    if (key === undefined || !isDocumentKey(key) || typeof object['@ref'] === 'string') return false;
    object['@ref'] = `collections/${key}`;
    return true;
  }),
  'VALUE-SELECT-STRING-PATH-REFUSED': onResponse(
    (_res, ctx) => {
      let found = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        if ('select' in object && 'from' in object && (typeof object.select === 'string' || isLosslessNumber(object.select))) found = true;
      });
      return found;
    },
    (res) => answerError(res, 400, 'invalid argument', 'Path must be an array.', ['select']),
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
  'VALUE-UNBOUND-VAR-NULL': onResponse(
    (res, ctx) => {
      const bound = new Set<string>();
      const used: string[] = [];
      forEachObject(v4Expression(ctx.original), (object) => {
        if (typeof object.var === 'string') used.push(object.var);
        for (const binding of Array.isArray(object.let) ? object.let : [object.let])
          if (isJsonObject(binding))
            Object.keys(binding).forEach((name) => {
              bound.add(name);
            });
        if ('lambda' in object)
          [object.lambda].flat().forEach((name) => {
            if (typeof name === 'string') bound.add(name);
          });
      });
      return res.status === 400 && used.some((name) => !bound.has(name));
    },
    (res) => withStatus(withJsonBody(res, { resource: null }), 200),
  ),
  'VALUE-AT-KEY-READ-AS-TAG': onResponse(
    (_res, ctx) => {
      let found = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        if (isJsonObject(object.object) && Object.keys(object.object).some((key) => key.startsWith('@'))) found = true;
      });
      return found;
    },
    (res) => answerError(res, 400, 'invalid expression', 'Unknown tag in object.'),
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
  'VERSION-CLASS-FORM-UNKNOWN': onResponse(
    (_res, ctx) => {
      let found = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        if (typeof object.class === 'string' && !('@ref' in object)) found = true;
      });
      return found;
    },
    (res) => answerError(res, 400, 'invalid expression', 'No form/function found, or invalid argument keys: { class }.'),
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
      if (!isEventEndpoint(ctx.original) || ctx.status < 400 || ctx.status === 401 || !isJsonObject(body) || !isJsonObject(body.error))
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
  'VALUE-SHORT-REF-INVALID-REF': onJson(
    (body) => hasErrorCode(body, 'invalid expression'),
    (body) =>
      v4Errors(body).filter((error) => {
        if (error.description !== 'Invalid ref.') return false;
        error.code = 'invalid ref';
        error.description = 'Ref is not a valid ref path.';
        return true;
      }).length,
  ),
  'VALUE-VAR-TYPE-INVALID-ARGUMENT': onJson(
    (body) => hasErrorCode(body, 'invalid expression'),
    (body) =>
      v4Errors(body).filter((error) => {
        if (!Array.isArray(error.position) || error.position.at(-1) !== 'var' || !/^String expected/.test(String(error.description)))
          return false;
        error.code = 'invalid argument';
        return true;
      }).length,
  ),
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
  'ERROR-DESCRIPTIONS-OWN-WORDS': () => {
    const OWN_WORDS: Record<string, string> = {
      'Allowed methods are GET, POST.': 'Method not allowed.',
      'Call performs a write, which is not allowed in get requests.': 'Writes are not allowed in a read-only request.',
      'No query provided.': 'Request body is empty.',
      'Invalid time.': 'Invalid @ts value.',
      'Invalid date.': 'Invalid @date value.',
      'Expression list cannot be empty.': 'Do requires at least one expression.',
    };
    return {
      json: rewriteJson(
        () => true,
        (body) =>
          v4Errors(body).filter((error) => {
            const own = typeof error.description === 'string' ? OWN_WORDS[error.description] : undefined;
            if (own === undefined) return false;
            error.description = own;
            return true;
          }).length,
      ),
    };
  },
  'AUTH-V10-ONE-MESSAGE': onJson(
    (body, ctx) => ctx.status === 401 && pathname(ctx.original) === '/query/1' && isJsonObject(body) && isJsonObject(body.error),
    (body) => {
      const error = (body as JsonObject).error as JsonObject;
      if (error.message !== 'Access token required') return 0;
      error.message = 'Invalid token, unable to authenticate request';
      return 1;
    },
  ),
  'ERROR-WORDING-IGNORES-VERSION': () => {
    const NEWER: Record<string, string> = {
      'Instance not found.': 'Document not found.',
      'Instance already exists.': 'Document already exists.',
      'Class already exists.': 'Collection already exists.',
      'instance data is not valid.': 'document data is not valid.',
    };
    return {
      json: rewriteJson(
        (_body, ctx) => ['2.0', '2.1', undefined].includes(apiVersion(ctx.original)),
        (body) =>
          v4Errors(body).filter((error) => {
            const description = String(error.description);
            const newer =
              NEWER[description] ?? description.replace(/^Ref refers to undefined class /, 'Ref refers to undefined collection ');
            if (newer === description) return false;
            error.description = newer;
            return true;
          }).length,
      ),
    };
  },
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
  'CORS-HEADERS-MISSING': onResponse(
    (res, ctx) =>
      ctx.original.headers.origin !== undefined &&
      ctx.original.method !== 'OPTIONS' &&
      res.headers['access-control-allow-origin'] !== undefined,
    (res) =>
      ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'].reduce(
        (r, name) => withoutHeader(r, name),
        res,
      ),
  ),
  'TAGS-REFUSED': onResponse(
    (res, ctx) => res.status < 300 && TAGS_HEADERS.some((name) => ctx.original.headers[name] !== undefined),
    (res, ctx) => {
      const name = isEventEndpoint(ctx.original) ? 'x-query-tags' : 'x-fauna-tags';
      const message = `Invalid header '${name}': invalid tags`;
      const body = isEventEndpoint(ctx.original)
        ? { error: { code: 'invalid_request', message } }
        : { errors: [{ code: 'bad request', description: message }] };
      return withStatus(withJsonBody(res, body), 400);
    },
  ),
  'FORMAT-UNCHECKED': () => ({
    request: (req) => {
      const value = req.headers['x-format'];
      if (value === undefined || ['simple', 'tagged', 'decorated'].includes(value)) return undefined;
      return { ...req, headers: { ...req.headers, 'x-format': 'simple' } };
    },
  }),
  'API-VERSION-AFTER-AUTH': () => ({
    request: (req) =>
      req.headers.authorization !== undefined && pathname(req) !== '/ping'
        ? undefined
        : withoutHeaders(req, (name, value) => name === 'x-faunadb-api-version' && !SUPPORTED_API_VERSIONS.has(value.toUpperCase())),
  }),
  'REQUEST-PARAMETERS-REFUSED': onResponse(
    (res, ctx) => res.status < 300 && REQUEST_PARAMETER_HEADERS.some((name) => ctx.original.headers[name] !== undefined),
    (res, ctx) => {
      const message = 'Unsupported request parameter header.';
      const body = isEventEndpoint(ctx.original)
        ? { error: { code: 'invalid_request', message } }
        : { errors: [{ code: 'bad request', description: message }] };
      return withStatus(withJsonBody(res, body), 400);
    },
  ),
};
