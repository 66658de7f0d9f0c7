// Faults of FQL v10 on /query/1 (profile fql10, spec/requirements/fql10.md; DEC-150 to DEC-154): servers that get
// one piece of the language, its error model, its documents, sets, event sources or deadlines wrong in a plausible
// way each. Most rewrite a query's text on its way in or its answer on its way out; one is a failpoint.
import type { BufferedResponse, ExchangeContext, FaultHooks, ProxiedRequest } from '../fault.js';
import type { FaultCode } from './lib/table.js';
import { isJsonObject, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';

function isPath(request: ProxiedRequest, path: string): boolean {
  return request.path.split('?')[0] === path;
}

/** The text of a `/query/1` request's query (a fragment query's text pieces joined), or undefined. */
function queryText(request: ProxiedRequest): string | undefined {
  if (!isPath(request, '/query/1')) return undefined;
  const parsed = tryParseJson(request.body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const query = parsed.value.query;
  if (typeof query === 'string') return query;
  if (isJsonObject(query) && Array.isArray(query.fql))
    return query.fql.filter((piece): piece is string => typeof piece === 'string').join('');
  return undefined;
}

/** Sends a string query rewritten by `rewrite` (when it changes it); other requests pass unchanged. */
function rewriteQuery(rewrite: (text: string) => string): FaultHooks {
  return {
    request: (request) => {
      const text = queryText(request);
      if (text === undefined) return undefined;
      const parsed = tryParseJson(request.body);
      if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.query !== 'string') return undefined;
      const changed = rewrite(text);
      if (changed === text) return undefined;
      return { ...request, body: Buffer.from(stringifyJson({ ...parsed.value, query: changed })) };
    },
  };
}

/** Changes a request's headers on the given path (undefined leaves it). */
function rewriteHeaders(path: string, rewrite: (headers: Record<string, string>) => Record<string, string> | undefined): FaultHooks {
  return {
    request: (request) => {
      if (!isPath(request, path)) return undefined;
      const headers = rewrite({ ...request.headers });
      return headers === undefined ? undefined : { ...request, headers };
    },
  };
}

interface Answer {
  status: number;
  body: unknown;
}

/**
 * Answers `/query/1` requests differently: `make` sees the query's text, the server's status and parsed body, and
 * returns another answer, or undefined to leave it.
 */
function reanswer(make: (text: string, status: number, body: JsonObject) => Answer | undefined): FaultHooks {
  return {
    response: (response: BufferedResponse, context: ExchangeContext) => {
      const text = queryText(context.original);
      if (text === undefined) return undefined;
      const parsed = tryParseJson(response.body);
      if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
      const answer = make(text, response.status, parsed.value);
      if (answer === undefined) return undefined;
      return {
        ...response,
        status: answer.status,
        headers: { ...response.headers, 'content-type': 'application/json' },
        body: Buffer.from(stringifyJson(answer.body)),
      };
    },
  };
}

function errorCode(body: JsonObject): string | undefined {
  return isJsonObject(body.error) && typeof body.error.code === 'string' ? body.error.code : undefined;
}

function errorMessage(body: JsonObject): string {
  return isJsonObject(body.error) && typeof body.error.message === 'string' ? body.error.message : '';
}

/** A 200 answer with `data`, in the shape of the server's own answers. */
function success(body: JsonObject, data: unknown): Answer {
  return {
    status: 200,
    body: { data, summary: '', txn_ts: body.txn_ts ?? 0, stats: body.stats, schema_version: body.schema_version ?? 0 },
  };
}

/** A 400 query error with the code and message. */
function failure(body: JsonObject, code: string, message: string): Answer {
  return {
    status: 400,
    body: {
      error: { code, message },
      summary: `error: ${message}`,
      txn_ts: body.txn_ts ?? 0,
      stats: body.stats,
      schema_version: body.schema_version ?? 0,
    },
  };
}

/** An error answer of `code` (and, when given, a message starting `prefix`) turned into 200 with `data`. */
function errorAsSuccess(code: string, data: unknown, prefix = ''): FaultHooks {
  return reanswer((_text, status, body) =>
    status === 400 && errorCode(body) === code && errorMessage(body).startsWith(prefix) ? success(body, data) : undefined,
  );
}

/** Rewrites every tagged value `{tag: text}` of a tree with `replace`; answers how many it changed. */
function replaceTagged(value: unknown, tag: string, replace: (text: string) => unknown): { value: unknown; changed: number } {
  let changed = 0;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isJsonObject(node)) return node;
    const keys = Object.keys(node);
    if (keys.length === 1 && keys[0] === tag && typeof node[tag] === 'string') {
      changed++;
      return replace(node[tag] as string);
    }
    const out: JsonObject = {};
    for (const key of keys) out[key] = walk(node[key]);
    return out;
  };
  return { value: walk(value), changed };
}

const SOURCE_CALL = /\.(eventSource|toStream|eventsOn|changesOn)\(/;

export const code: FaultCode = {
  'FQL-ONLY-EVENT-SOURCES': () =>
    reanswer((text, status, body) =>
      status === 200 && !SOURCE_CALL.test(text) ? failure(body, 'invalid_query', 'The query failed 1 validation check') : undefined,
    ),
  'FQL-FORMAT-ALWAYS-TAGGED': () =>
    rewriteHeaders('/query/1', (headers) =>
      headers['x-format'] === 'tagged' || headers['x-format'] === 'decorated' ? undefined : { ...headers, 'x-format': 'tagged' },
    ),
  'FQL-DECORATED-AS-SIMPLE': () =>
    rewriteHeaders('/query/1', (headers) => (headers['x-format'] === 'decorated' ? { ...headers, 'x-format': 'simple' } : undefined)),
  'FQL-ARGUMENTS-IGNORED': () => ({
    request: (request) => {
      if (!isPath(request, '/query/1')) return undefined;
      const parsed = tryParseJson(request.body);
      if (!parsed.ok || !isJsonObject(parsed.value) || !('arguments' in parsed.value)) return undefined;
      const { arguments: _dropped, ...rest } = parsed.value;
      return { ...request, body: Buffer.from(stringifyJson(rest)) };
    },
  }),
  'FQL-SYNTAX-ERROR-500': () =>
    reanswer((_text, status, body) =>
      status === 400 && errorCode(body) === 'invalid_query'
        ? { status: 500, body: { error: { code: 'internal_error', message: 'An internal error occurred.' } } }
        : undefined,
    ),
  'FQL-SYNTAX-POSITION-IN-MESSAGE': () =>
    reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) !== 'invalid_query' || typeof body.summary !== 'string') return undefined;
      const at = /at \*query\*:(\d+:\d+)/.exec(body.summary);
      const detail = body.summary.split('\n')[0]?.replace(/^error: /, '') ?? '';
      return { status: 400, body: { ...body, error: { code: 'invalid_query', message: `${at?.[1] ?? '1:1'}: ${detail}` }, summary: '' } };
    }),
  'FQL-LET-LAST-ACCEPTED': () =>
    reanswer((text, status, body) =>
      status === 400 && errorCode(body) === 'invalid_query' && /let \w+ = [^\n]*\}?\s*$/.test(text) ? success(body, null) : undefined,
    ),
  'FQL-INTEGER-DIVISION-DECIMAL': () => rewriteQuery((text) => text.replace(/\b(\d+) \/ (-?\d+)\b/g, '$1.0 / $2')),
  'FQL-LONG-OVERFLOW-WRAPS': () =>
    reanswer((text, status, body) => {
      const m = /^(\d{19}) \+ (\d{19})$/.exec(text.trim());
      if (status !== 200 || m === null) return undefined;
      const wrapped = BigInt.asIntN(64, BigInt(m[1]!) + BigInt(m[2]!));
      return success(body, { '@long': wrapped.toString() });
    }),
  'FQL-DIVIDE-BY-ZERO-INFINITY': () => rewriteQuery((text) => text.replace(/\b(\d+) \/ 0(?![.\d])/g, '$1 / 0.0')),
  'FQL-EQUALITY-STRICT-NUMBERS': () => rewriteQuery((text) => text.replace(/\b(\d+)\.0 == (\d+)\b/g, '$1.0 == "$2"')),
  'FQL-COMPARE-UNRELATED-ERRORS': () =>
    reanswer((text, status, body) =>
      status === 200 && /\d < "|" > \d/.test(text)
        ? failure(body, 'invalid_argument', 'expected value for `other` of type Number, received String')
        : undefined,
    ),
  'FQL-AND-NOT-SHORT-CIRCUIT': () => rewriteQuery((text) => text.replace(/false && abort\(/g, 'false == abort(')),
  'FQL-SEMICOLON-NOT-SEPARATOR': () => rewriteQuery((text) => (text.includes('let') ? text.replace(/; /g, ' ') : text)),
  'FQL-IF-WITHOUT-ELSE-REFUSED': () =>
    reanswer((text, status, body) =>
      status === 200 && /if \(false\) "[^"]*"\s*[,\]]/.test(text)
        ? failure(body, 'invalid_query', 'The query failed 1 validation check')
        : undefined,
    ),
  'FQL-ARITY-UNCHECKED': () => errorAsSuccess('invalid_function_invocation', null, 'callee function expects'),
  'FQL-PROJECTION-DROPS-MISSING': () =>
    reanswer((text, status, body) => {
      if (status !== 200 || !/\w \{ \w/.test(text)) return undefined;
      let dropped = 0;
      const walk = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(walk);
        if (!isJsonObject(node)) return node;
        const out: JsonObject = {};
        for (const [key, value] of Object.entries(node)) {
          if (value === null) dropped++;
          else out[key] = walk(value);
        }
        return out;
      };
      const data = walk(body.data);
      return dropped === 0 ? undefined : success(body, data);
    }),
  'FQL-CONCAT-NUMBERS-REFUSED': () =>
    reanswer((text, status, body) =>
      status === 200 && /' \+ \d/.test(text)
        ? failure(body, 'invalid_argument', 'expected value for `other` of type String, received Int')
        : undefined,
    ),
  'FQL-ABORT-VALUE-DROPPED': () =>
    reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) !== 'abort' || !isJsonObject(body.error)) return undefined;
      const { abort: _value, ...error } = body.error;
      return { status, body: { ...body, error } };
    }),
  'FQL-UNBOUND-AS-INVALID-QUERY': () =>
    reanswer((_text, status, body) =>
      status === 400 && errorCode(body) === 'unbound_variable'
        ? { status, body: { ...body, error: { code: 'invalid_query', message: 'The query failed 1 validation check' } } }
        : undefined,
    ),
  'FQL-MISSING-METHOD-NULL': () =>
    reanswer((_text, status, body) =>
      status === 400 && errorCode(body) === 'invalid_function_invocation' && !errorMessage(body).startsWith('callee')
        ? success(body, null)
        : undefined,
    ),
  'FQL-WRONG-TYPE-COERCED': () => errorAsSuccess('invalid_argument', 'a1', 'expected value for'),
  'FQL-MISSING-DOCUMENT-NULL': () => errorAsSuccess('document_not_found', null),
  'FQL-NULL-ACCESS-NULL': () => errorAsSuccess('invalid_null_access', null),
  'FQL-NULL-BANG-PASSES': () => errorAsSuccess('null_value', null),
  'FQL-RUNTIME-SUMMARY-WITHOUT-POSITION': () =>
    reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) === 'invalid_query' || typeof body.summary !== 'string' || !body.summary.includes('\n'))
        return undefined;
      return { status, body: { ...body, summary: body.summary.split('\n')[0] } };
    }),
  'FQL-TIME-PARSE-LENIENT': () => errorAsSuccess('invalid_time', { '@time': '1970-01-01T00:00:00Z' }),
  'FQL-DATE-UNTAGGED': () =>
    reanswer((_text, status, body) => {
      if (status !== 200) return undefined;
      const rewritten = replaceTagged(body.data, '@date', (text) => text);
      return rewritten.changed === 0 ? undefined : success(body, rewritten.value);
    }),
  'FQL-TIME-UNIT-IGNORED': () =>
    rewriteQuery((text) => text.replace(/\.(add|subtract)\((-?\d+), "(?!seconds")\w+"\)/g, '.$1($2, "seconds")')),
  'FQL-COLLECTION-CREATE-ANSWERS-NULL': () =>
    reanswer((text, status, body) =>
      status === 200 && /^Collection\.create\(\{[^\n]*\}\)$/.test(text.trim()) && body.data !== null ? success(body, null) : undefined,
    ),
  'FQL-COLLECTION-CONFLICT-ACCEPTED': () => errorAsSuccess('constraint_failure', null, 'Failed to create Collection.'),
  'FQL-COLLECTION-DELETE-IGNORED': () =>
    rewriteQuery((text) =>
      text.replace(/(Collection\.byName\("[^"]*"\)!)\.delete\(\)/g, '$1').replace(/\.definition\.delete\(\)/g, '.definition'),
    ),
  'FQL-INDEX-ORDER-IGNORED': () =>
    rewriteQuery((text) => (text.startsWith('Collection.create') ? text.replace(/, order: "desc"/g, '') : text)),
  'FQL-DATABASE-BYNAME-EAGER': () => rewriteQuery((text) => text.replace(/(Database\.byName\("[^"]*"\)) == null/g, '$1! == null')),
  'FQL-DATABASE-CONFLICT-ACCEPTED': () => errorAsSuccess('constraint_failure', null, 'Failed to create Database.'),
  'FQL-KEY-DATABASE-IGNORED': () => rewriteQuery((text) => text.replace(/(Key\.create\(\{[^}]*?), database: "[^"]*"/g, '$1')),
  'FQL-DOCUMENT-FIELDS-IN-DATA': () =>
    reanswer((text, status, body) => {
      if (status !== 200 || !text.includes('.create(') || !isJsonObject(body.data) || !isJsonObject(body.data['@doc'])) return undefined;
      const { id, coll, ts, ...fields } = body.data['@doc'];
      if (Object.keys(fields).length === 0) return undefined;
      return success(body, { '@doc': { id, coll, ts, data: fields } });
    }),
  'FQL-BYID-MISSING-ERRORS': () =>
    reanswer((text, status, body) =>
      status === 200 && body.data === null && /^\w+\.byId\([^)]*\)$/.test(text.trim())
        ? failure(body, 'document_not_found', 'Document not found.')
        : undefined,
    ),
  'FQL-UPDATE-REPLACES': () => rewriteQuery((text) => text.replace(/\.update\(/g, '.replace(')),
  'FQL-DELETE-IGNORED': () =>
    rewriteQuery((text) => (text.includes('Collection.byName') ? text : text.replace(/(\w)\.delete\(\)/g, '$1.exists()'))),
  'FQL-CREATE-ID-IGNORED': () => rewriteQuery((text) => text.replace(/\.create\(\{ id: [^,]+, /g, '.create({ ')),
  'FQL-TAKE-OFF-BY-ONE': () => rewriteQuery((text) => text.replace(/\.take\((\d+)\)/g, (_m, n: string) => `.take(${Number(n) + 1})`)),
  'FQL-SET-WITHOUT-CURSOR': () =>
    reanswer((_text, status, body) => {
      if (status !== 200 || !isJsonObject(body.data) || !isJsonObject(body.data['@set']) || !('after' in body.data['@set']))
        return undefined;
      const { after: _after, ...page } = body.data['@set'];
      return success(body, { '@set': page });
    }),
  'FQL-PAGINATE-UNBOUNDED': () => errorAsSuccess('invalid_bounds', { data: [] }),
  'FQL-SEQUENCE-INCLUSIVE': () =>
    rewriteQuery((text) =>
      text.replace(/Set\.sequence\((-?\d+), (-?\d+)\)/g, (_m, a: string, b: string) => `Set.sequence(${a}, ${Number(b) + 1})`),
    ),
  'FQL-SOURCE-FUNCTIONS-CHECKED-AT-CREATION': () =>
    reanswer((text, status, body) =>
      status === 200 && SOURCE_CALL.test(text) && /abort\(|notARealFn/.test(text)
        ? failure(body, 'invalid_query', 'The query failed 1 validation check')
        : undefined,
    ),
  'FQL-EVENT-TIMES-UNTAGGED': () => ({
    response: (response, context) => {
      if (!isPath(context.original, '/feed/1') || response.status !== 200) return undefined;
      const parsed = tryParseJson(response.body);
      if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
      const rewritten = replaceTagged(parsed.value.events, '@time', (text) => text);
      if (rewritten.changed === 0) return undefined;
      return { ...response, body: Buffer.from(stringifyJson({ ...parsed.value, events: rewritten.value })) };
    },
  }),
  'FQL-INDEX-SOURCE-REFUSED': () =>
    reanswer((text, status, body) =>
      status === 200 && /\.by[A-Z]\w*\([^)]*\)\.eventSource\(\)/.test(text)
        ? failure(body, 'invalid_query', 'The query failed 1 validation check')
        : undefined,
    ),
  'FQL-QUERY-DEADLINE-IGNORED': () =>
    rewriteHeaders('/query/1', (headers) => {
      if (headers['x-query-timeout-ms'] === undefined) return undefined;
      const { 'x-query-timeout-ms': _deadline, ...rest } = headers;
      return rest;
    }),
  'FQL-FEED-DEADLINE-IGNORED': () =>
    rewriteHeaders('/feed/1', (headers) => {
      if (headers['x-query-timeout-ms'] === undefined) return undefined;
      const { 'x-query-timeout-ms': _deadline, ...rest } = headers;
      return rest;
    }),
};
