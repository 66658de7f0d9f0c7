// Faults of FQL v10 on /query/1 (profile fql10, spec/requirements/fql10.md; DEC-150 to DEC-154): servers that get
// one piece of the language, its error model, its documents, sets, event sources or deadlines wrong in a plausible
// way each. Most rewrite a query's text on its way in or its answer on its way out; one is a failpoint.
import type { BufferedResponse, ExchangeContext, Fault, FaultHooks, ProxiedRequest } from '../fault.js';
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
  if (isJsonObject(query) && Array.isArray(query.fql)) return query.fql.filter((piece): piece is string => typeof piece === 'string').join('');
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
  return { request: (request) => {
    if (!isPath(request, path)) return undefined;
    const headers = rewrite({ ...request.headers });
    return headers === undefined ? undefined : { ...request, headers };
  } };
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
      return { ...response, status: answer.status, headers: { ...response.headers, 'content-type': 'application/json' }, body: Buffer.from(stringifyJson(answer.body)) };
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
  return { status: 200, body: { data, summary: '', txn_ts: body.txn_ts ?? 0, stats: body.stats, schema_version: body.schema_version ?? 0 } };
}

/** A 400 query error with the code and message. */
function failure(body: JsonObject, code: string, message: string): Answer {
  return { status: 400, body: { error: { code, message }, summary: `error: ${message}`, txn_ts: body.txn_ts ?? 0, stats: body.stats, schema_version: body.schema_version ?? 0 } };
}

/** An error answer of `code` (and, when given, a message starting `prefix`) turned into 200 with `data`. */
function errorAsSuccess(code: string, data: unknown, prefix = ''): FaultHooks {
  return reanswer((_text, status, body) => (status === 400 && errorCode(body) === code && errorMessage(body).startsWith(prefix) ? success(body, data) : undefined));
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

export const FQL10_FAULTS: Fault[] = [
  // ---------------------------------------------------------------------------------------------- queries
  {
    id: 'FQL-ONLY-EVENT-SOURCES',
    title: '/query/1 evaluates only queries that create event sources',
    breaks: ['FQL-QUERY-001'],
    area: 'core',
    description: 'A query that answers anything but an event source is refused 400 `invalid_query`, as a server of the event-source subset alone refuses it.',
    apply: () => reanswer((text, status, body) => (status === 200 && !SOURCE_CALL.test(text) ? failure(body, 'invalid_query', 'The query failed 1 validation check') : undefined)),
  },
  {
    id: 'FQL-FORMAT-ALWAYS-TAGGED',
    title: '/query/1 answers tagged whatever the format asked',
    breaks: ['FQL-QUERY-002'],
    area: 'core',
    description: 'A `/query/1` request without `x-format`, or with `simple`, is sent upstream with `x-format: tagged`.',
    apply: () => rewriteHeaders('/query/1', (headers) => (headers['x-format'] === 'tagged' || headers['x-format'] === 'decorated' ? undefined : { ...headers, 'x-format': 'tagged' })),
  },
  {
    id: 'FQL-DECORATED-AS-SIMPLE',
    title: '`x-format: decorated` answers simple JSON',
    breaks: ['FQL-QUERY-003'],
    area: 'core',
    description: 'A `/query/1` request with `x-format: decorated` is answered in the simple format, as this server once did (DEC-066).',
    apply: () => rewriteHeaders('/query/1', (headers) => (headers['x-format'] === 'decorated' ? { ...headers, 'x-format': 'simple' } : undefined)),
  },
  {
    id: 'FQL-ARGUMENTS-IGNORED',
    title: "A query's arguments are not in scope",
    breaks: ['FQL-QUERY-004'],
    area: 'core',
    description: 'The `arguments` of a `/query/1` request are dropped on the way upstream.',
    apply: () => ({
      request: (request) => {
        if (!isPath(request, '/query/1')) return undefined;
        const parsed = tryParseJson(request.body);
        if (!parsed.ok || !isJsonObject(parsed.value) || !('arguments' in parsed.value)) return undefined;
        const { arguments: _dropped, ...rest } = parsed.value;
        return { ...request, body: Buffer.from(stringifyJson(rest)) };
      },
    }),
  },
  // ---------------------------------------------------------------------------------------------- syntax
  {
    id: 'FQL-SYNTAX-ERROR-500',
    title: 'A query that does not parse answers 500',
    breaks: ['FQL-SYNTAX-003', 'FQL-SYNTAX-001'],
    area: 'core',
    description: 'Every 400 `invalid_query` answer becomes 500 `internal_error`, as a server whose parser throws.',
    apply: () => reanswer((_text, status, body) => (status === 400 && errorCode(body) === 'invalid_query' ? { status: 500, body: { error: { code: 'internal_error', message: 'An internal error occurred.' } } } : undefined)),
  },
  {
    id: 'FQL-SYNTAX-POSITION-IN-MESSAGE',
    title: 'A syntax error names its position in the message and not in the summary',
    breaks: ['FQL-SYNTAX-001'],
    area: 'core',
    description: 'An `invalid_query` answer says `<line>:<column>: <detail>` as its message and has an empty summary, as this server once answered.',
    apply: () => reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) !== 'invalid_query' || typeof body.summary !== 'string') return undefined;
      const at = /at \*query\*:(\d+:\d+)/.exec(body.summary);
      const detail = body.summary.split('\n')[0]?.replace(/^error: /, '') ?? '';
      return { status: 400, body: { ...body, error: { code: 'invalid_query', message: `${at?.[1] ?? '1:1'}: ${detail}` }, summary: '' } };
    }),
  },
  {
    id: 'FQL-LET-LAST-ACCEPTED',
    title: 'A block ending with a let answers null',
    breaks: ['FQL-SYNTAX-002'],
    area: 'core',
    description: 'A query or block whose last statement is a `let` answers 200 null instead of `invalid_query`.',
    apply: () => reanswer((text, status, body) => (status === 400 && errorCode(body) === 'invalid_query' && /let \w+ = [^\n]*\}?\s*$/.test(text) ? success(body, null) : undefined)),
  },
  // ---------------------------------------------------------------------------------------------- expressions
  {
    id: 'FQL-INTEGER-DIVISION-DECIMAL',
    title: 'Integer division gives a decimal',
    breaks: ['FQL-EXPR-001'],
    area: 'core',
    description: 'The left operand of `/` between integer literals is sent as a decimal (`18 / 2` as `18.0 / 2`).',
    apply: () => rewriteQuery((text) => text.replace(/\b(\d+) \/ (-?\d+)\b/g, '$1.0 / $2')),
  },
  {
    id: 'FQL-LONG-OVERFLOW-WRAPS',
    title: 'Integer arithmetic wraps around at 64 bits',
    breaks: ['FQL-EXPR-002'],
    area: 'core',
    description: 'A sum of two integers of 19 digits answers the 64-bit wrapped sum instead of a decimal.',
    apply: () => reanswer((text, status, body) => {
      const m = /^(\d{19}) \+ (\d{19})$/.exec(text.trim());
      if (status !== 200 || m === null) return undefined;
      const wrapped = BigInt.asIntN(64, BigInt(m[1]!) + BigInt(m[2]!));
      return success(body, { '@long': wrapped.toString() });
    }),
  },
  {
    id: 'FQL-DIVIDE-BY-ZERO-INFINITY',
    title: 'Integer division by zero is Infinity',
    breaks: ['FQL-EXPR-003'],
    area: 'core',
    description: 'A division of an integer literal by the literal `0` is sent as a division by `0.0`, which answers Infinity.',
    apply: () => rewriteQuery((text) => text.replace(/\b(\d+) \/ 0(?![.\d])/g, '$1 / 0.0')),
  },
  {
    id: 'FQL-EQUALITY-STRICT-NUMBERS',
    title: '`==` never equates an integer and a decimal',
    breaks: ['FQL-EXPR-004'],
    area: 'core',
    description: 'In `<n>.0 == <n>`, the integer is sent as a string, so the comparison is false as a server comparing types first answers.',
    apply: () => rewriteQuery((text) => text.replace(/\b(\d+)\.0 == (\d+)\b/g, '$1.0 == "$2"')),
  },
  {
    id: 'FQL-COMPARE-UNRELATED-ERRORS',
    title: 'Ordering values of unrelated types is an error',
    breaks: ['FQL-EXPR-005'],
    area: 'core',
    description: 'A query comparing a number and a string with `<` or `>` answers 400 `invalid_argument` instead of false.',
    apply: () => reanswer((text, status, body) => (status === 200 && /\d < "|" > \d/.test(text) ? failure(body, 'invalid_argument', 'expected value for `other` of type Number, received String') : undefined)),
  },
  {
    id: 'FQL-AND-NOT-SHORT-CIRCUIT',
    title: '`&&` evaluates its right side after false',
    breaks: ['FQL-EXPR-006'],
    area: 'core',
    description: 'A right operand of `&&` that aborts is evaluated even after `false` (the operator is sent as `==`).',
    apply: () => rewriteQuery((text) => text.replace(/false && abort\(/g, 'false == abort(')),
  },
  {
    id: 'FQL-SEMICOLON-NOT-SEPARATOR',
    title: '`;` does not separate statements',
    breaks: ['FQL-EXPR-007'],
    area: 'core',
    description: 'Statements separated by `;` are sent joined by a space, as a server that knows only line breaks reads them.',
    apply: () => rewriteQuery((text) => (text.includes('let') ? text.replace(/; /g, ' ') : text)),
  },
  {
    id: 'FQL-IF-WITHOUT-ELSE-REFUSED',
    title: '`if` without `else` is refused',
    breaks: ['FQL-EXPR-008'],
    area: 'core',
    description: 'A query with an `if (false) "…"` that has no `else` answers 400 `invalid_query`, as the event-source subset refused `if`.',
    apply: () => reanswer((text, status, body) => (status === 200 && /if \(false\) "[^"]*"\s*[,\]]/.test(text) ? failure(body, 'invalid_query', 'The query failed 1 validation check') : undefined)),
  },
  {
    id: 'FQL-ARITY-UNCHECKED',
    title: 'A function called with too few arguments runs with nulls',
    breaks: ['FQL-EXPR-009', 'FQL-ERR-009'],
    area: 'core',
    description: 'An `invalid_function_invocation` for a wrong argument count answers 200 null.',
    apply: () => errorAsSuccess('invalid_function_invocation', null, 'callee function expects'),
  },
  {
    id: 'FQL-PROJECTION-DROPS-MISSING',
    title: 'A projection leaves out fields the value lacks',
    breaks: ['FQL-EXPR-010'],
    area: 'core',
    description: 'Null fields of objects in the answer of a query with a projection are dropped, instead of answered as null.',
    apply: () => reanswer((text, status, body) => {
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
  },
  {
    id: 'FQL-CONCAT-NUMBERS-REFUSED',
    title: 'A string + a number is an error',
    breaks: ['FQL-EXPR-011'],
    area: 'core',
    description: 'A query adding a number to a string (`… + 10 + …`) answers 400 `invalid_argument`.',
    apply: () => reanswer((text, status, body) => (status === 200 && /' \+ \d/.test(text) ? failure(body, 'invalid_argument', 'expected value for `other` of type String, received Int') : undefined)),
  },
  // ---------------------------------------------------------------------------------------------- run-time errors
  {
    id: 'FQL-ABORT-VALUE-DROPPED',
    title: "An abort error does not carry the aborted value",
    breaks: ['FQL-ERR-001'],
    area: 'core',
    description: '`error.abort` is removed from `/query/1` abort answers, so a driver sees a plain run-time error.',
    apply: () => reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) !== 'abort' || !isJsonObject(body.error)) return undefined;
      const { abort: _value, ...error } = body.error;
      return { status, body: { ...body, error } };
    }),
  },
  {
    id: 'FQL-UNBOUND-AS-INVALID-QUERY',
    title: 'An unbound name is a validation error even without typechecking',
    breaks: ['FQL-ERR-002'],
    area: 'core',
    description: '`unbound_variable` answers become `invalid_query` "The query failed 1 validation check".',
    apply: () => reanswer((_text, status, body) => (status === 400 && errorCode(body) === 'unbound_variable' ? { status, body: { ...body, error: { code: 'invalid_query', message: 'The query failed 1 validation check' } } } : undefined)),
  },
  {
    id: 'FQL-MISSING-METHOD-NULL',
    title: 'A method a value lacks answers null',
    breaks: ['FQL-ERR-003'],
    area: 'core',
    description: 'An `invalid_function_invocation` for a missing method or a field that is not a function answers 200 null.',
    apply: () => reanswer((_text, status, body) => (status === 400 && errorCode(body) === 'invalid_function_invocation' && !errorMessage(body).startsWith('callee') ? success(body, null) : undefined)),
  },
  {
    id: 'FQL-WRONG-TYPE-COERCED',
    title: 'An argument of the wrong type is converted',
    breaks: ['FQL-ERR-004'],
    area: 'core',
    description: 'An `invalid_argument` answer becomes 200 with the string "a1", as a server converting arguments to the type asked.',
    apply: () => errorAsSuccess('invalid_argument', 'a1', 'expected value for'),
  },
  {
    id: 'FQL-MISSING-DOCUMENT-NULL',
    title: 'A missing document read with ! or a field answers null',
    breaks: ['FQL-ERR-005'],
    area: 'core',
    description: '`document_not_found` answers become 200 null.',
    apply: () => errorAsSuccess('document_not_found', null),
  },
  {
    id: 'FQL-NULL-ACCESS-NULL',
    title: 'A field or method of null answers null',
    breaks: ['FQL-ERR-006'],
    area: 'core',
    description: '`invalid_null_access` answers become 200 null, as if every access were `?.`.',
    apply: () => errorAsSuccess('invalid_null_access', null),
  },
  {
    id: 'FQL-NULL-BANG-PASSES',
    title: '`null!` answers null',
    breaks: ['FQL-ERR-007'],
    area: 'core',
    description: '`null_value` answers become 200 null.',
    apply: () => errorAsSuccess('null_value', null),
  },
  {
    id: 'FQL-FAILED-WRITES-KEPT',
    title: 'A query failing at run time keeps what it wrote before',
    breaks: ['FQL-ERR-008'],
    area: 'core',
    description: 'The reference server commits the writes of a query that fails while it runs, then answers its error (failpoint FQL-FAILED-WRITES-KEPT).',
    apply: () => ({ failpoints: ['FQL-FAILED-WRITES-KEPT'] }),
  },
  {
    id: 'FQL-RUNTIME-SUMMARY-WITHOUT-POSITION',
    title: "A run-time error's summary does not say where",
    breaks: ['FQL-ERR-009'],
    area: 'core',
    description: 'The summary of every run-time error is cut to its first line, `error: <message>`.',
    apply: () => reanswer((_text, status, body) => {
      if (status !== 400 || errorCode(body) === 'invalid_query' || typeof body.summary !== 'string' || !body.summary.includes('\n')) return undefined;
      return { status, body: { ...body, summary: body.summary.split('\n')[0] } };
    }),
  },
  // ---------------------------------------------------------------------------------------------- times
  {
    id: 'FQL-TIME-PARSE-LENIENT',
    title: 'Time() takes text that is not an ISO time',
    breaks: ['FQL-TIME-001'],
    area: 'core',
    description: 'An `invalid_time` answer becomes 200 with the epoch.',
    apply: () => errorAsSuccess('invalid_time', { '@time': '1970-01-01T00:00:00Z' }),
  },
  {
    id: 'FQL-DATE-UNTAGGED',
    title: 'Dates answer as plain strings',
    breaks: ['FQL-TIME-002'],
    area: 'core',
    description: 'Every `{"@date": …}` of a `/query/1` answer is sent as its bare string.',
    apply: () => reanswer((_text, status, body) => {
      if (status !== 200) return undefined;
      const rewritten = replaceTagged(body.data, '@date', (text) => text);
      return rewritten.changed === 0 ? undefined : success(body, rewritten.value);
    }),
  },
  {
    id: 'FQL-TIME-UNIT-IGNORED',
    title: 'Time arithmetic takes any unit as seconds',
    breaks: ['FQL-TIME-003'],
    area: 'core',
    description: 'The unit of `add` and `subtract` is sent as "seconds", whatever it was.',
    apply: () => rewriteQuery((text) => text.replace(/\.(add|subtract)\((-?\d+), "(?!seconds")\w+"\)/g, '.$1($2, "seconds")')),
  },
  // ---------------------------------------------------------------------------------------------- collections and databases
  {
    id: 'FQL-COLLECTION-CREATE-ANSWERS-NULL',
    title: 'Collection.create answers null',
    breaks: ['FQL-SCHEMA-001'],
    area: 'core',
    description: 'A query that is one `Collection.create(…)` answers 200 null instead of the collection document.',
    apply: () => reanswer((text, status, body) => (status === 200 && /^Collection\.create\(\{[^\n]*\}\)$/.test(text.trim()) && body.data !== null ? success(body, null) : undefined)),
  },
  {
    id: 'FQL-COLLECTION-CONFLICT-ACCEPTED',
    title: 'Collection.create with a taken, reserved or invalid name succeeds',
    breaks: ['FQL-SCHEMA-002'],
    area: 'core',
    description: 'A `constraint_failure` "Failed to create Collection." answers 200 null.',
    apply: () => errorAsSuccess('constraint_failure', null, 'Failed to create Collection.'),
  },
  {
    id: 'FQL-COLLECTION-DELETE-IGNORED',
    title: 'Deleting a collection does nothing',
    breaks: ['FQL-SCHEMA-003'],
    area: 'core',
    description: 'In `Collection.byName(…)!.delete()` and `Coll.definition.delete()`, the delete is not sent.',
    apply: () => rewriteQuery((text) => text.replace(/(Collection\.byName\("[^"]*"\)!)\.delete\(\)/g, '$1').replace(/\.definition\.delete\(\)/g, '.definition')),
  },
  {
    id: 'FQL-INDEX-ORDER-IGNORED',
    title: "A collection index ignores its values' order",
    breaks: ['FQL-SCHEMA-004'],
    area: 'core',
    description: '`order: "desc"` is dropped from index definitions of `Collection.create`, so values sort ascending.',
    apply: () => rewriteQuery((text) => (text.startsWith('Collection.create') ? text.replace(/, order: "desc"/g, '') : text)),
  },
  {
    id: 'FQL-DATABASE-BYNAME-EAGER',
    title: 'Database.byName of a missing database is an error',
    breaks: ['FQL-SCHEMA-005'],
    area: 'core',
    description: 'Comparisons `Database.byName(…) == null` are sent as `Database.byName(…)! == null`, which fails for a missing database.',
    apply: () => rewriteQuery((text) => text.replace(/(Database\.byName\("[^"]*"\)) == null/g, '$1! == null')),
  },
  {
    id: 'FQL-DATABASE-CONFLICT-ACCEPTED',
    title: 'Database.create with an existing name succeeds',
    breaks: ['FQL-SCHEMA-006'],
    area: 'core',
    description: 'A `constraint_failure` "Failed to create Database." answers 200 null.',
    apply: () => errorAsSuccess('constraint_failure', null, 'Failed to create Database.'),
  },
  {
    id: 'FQL-KEY-DATABASE-IGNORED',
    title: "Key.create ignores the key's database",
    breaks: ['FQL-SCHEMA-007'],
    area: 'core',
    description: '`database` is dropped from `Key.create({…})`, so the key opens the database it was created in.',
    apply: () => rewriteQuery((text) => text.replace(/(Key\.create\(\{[^}]*?), database: "[^"]*"/g, '$1')),
  },
  // ---------------------------------------------------------------------------------------------- documents
  {
    id: 'FQL-DOCUMENT-FIELDS-IN-DATA',
    title: "A created document answers its fields under `data`",
    breaks: ['FQL-DOC-001'],
    area: 'core',
    description: "The fields of a `@doc` answered by a `.create(…)` query are moved under `data`, as a v4 document shows them.",
    apply: () => reanswer((text, status, body) => {
      if (status !== 200 || !text.includes('.create(') || !isJsonObject(body.data) || !isJsonObject(body.data['@doc'])) return undefined;
      const { id, coll, ts, ...fields } = body.data['@doc'];
      if (Object.keys(fields).length === 0) return undefined;
      return success(body, { '@doc': { id, coll, ts, data: fields } });
    }),
  },
  {
    id: 'FQL-BYID-MISSING-ERRORS',
    title: 'Coll.byId of a missing document is an error',
    breaks: ['FQL-DOC-002'],
    area: 'core',
    description: 'A query that is one `Coll.byId(…)` and answers null answers 400 `document_not_found` instead.',
    apply: () => reanswer((text, status, body) => (status === 200 && body.data === null && /^\w+\.byId\([^)]*\)$/.test(text.trim()) ? failure(body, 'document_not_found', 'Document not found.') : undefined)),
  },
  {
    id: 'FQL-UPDATE-REPLACES',
    title: 'update replaces the document',
    breaks: ['FQL-DOC-003'],
    area: 'core',
    description: '`.update(` is sent as `.replace(`.',
    apply: () => rewriteQuery((text) => text.replace(/\.update\(/g, '.replace(')),
  },
  {
    id: 'FQL-DELETE-IGNORED',
    title: 'Deleting a document does nothing',
    breaks: ['FQL-DOC-004'],
    area: 'core',
    description: "A document's `.delete()` is sent as `.exists()`.",
    apply: () => rewriteQuery((text) => (text.includes('Collection.byName') ? text : text.replace(/(\w)\.delete\(\)/g, '$1.exists()'))),
  },
  {
    id: 'FQL-CREATE-ID-IGNORED',
    title: 'create ignores a given id',
    breaks: ['FQL-DOC-005'],
    area: 'core',
    description: 'An `id` in the object given to `.create(…)` is dropped, so the document gets a new id.',
    apply: () => rewriteQuery((text) => text.replace(/\.create\(\{ id: [^,]+, /g, '.create({ ')),
  },
  // ---------------------------------------------------------------------------------------------- sets
  {
    id: 'FQL-TAKE-OFF-BY-ONE',
    title: 'take(n) answers n + 1 elements',
    breaks: ['FQL-SET-001'],
    area: 'core',
    description: '`.take(n)` is sent as `.take(n + 1)`.',
    apply: () => rewriteQuery((text) => text.replace(/\.take\((\d+)\)/g, (_m, n: string) => `.take(${Number(n) + 1})`)),
  },
  {
    id: 'FQL-SET-WITHOUT-CURSOR',
    title: 'A set in an answer has no cursor',
    breaks: ['FQL-SET-002'],
    area: 'core',
    description: '`after` is removed from every `@set` of a `/query/1` answer.',
    apply: () => reanswer((_text, status, body) => {
      if (status !== 200 || !isJsonObject(body.data) || !isJsonObject(body.data['@set']) || !('after' in body.data['@set'])) return undefined;
      const { after: _after, ...page } = body.data['@set'];
      return success(body, { '@set': page });
    }),
  },
  {
    id: 'FQL-PAGINATE-UNBOUNDED',
    title: 'paginate takes any size',
    breaks: ['FQL-SET-003'],
    area: 'core',
    description: 'An `invalid_bounds` answer becomes 200 with an empty page.',
    apply: () => errorAsSuccess('invalid_bounds', { data: [] }),
  },
  {
    id: 'FQL-SEQUENCE-INCLUSIVE',
    title: 'Set.sequence includes its end',
    breaks: ['FQL-SET-004'],
    area: 'core',
    description: '`Set.sequence(a, b)` is sent as `Set.sequence(a, b + 1)`.',
    apply: () => rewriteQuery((text) => text.replace(/Set\.sequence\((-?\d+), (-?\d+)\)/g, (_m, a: string, b: string) => `Set.sequence(${a}, ${Number(b) + 1})`)),
  },
  {
    id: 'FQL-SET-READ-WHOLE',
    title: 'A set is read whole before take, first, a page or the toArray limit apply',
    breaks: ['FQL-SET-005'],
    area: 'core',
    description: 'The reference server reads every element of a set before it stops at a `take`, a first element, a page or 16,000 elements (failpoint FQL-SET-READ-WHOLE).',
    apply: () => ({ failpoints: ['FQL-SET-READ-WHOLE'] }),
  },
  // ---------------------------------------------------------------------------------------------- event sources
  {
    id: 'FQL-SOURCE-FUNCTIONS-CHECKED-AT-CREATION',
    title: 'A source whose map can fail is refused when created',
    breaks: ['FQL-SRC-001'],
    area: 'core',
    description: 'Creating a source whose functions call `abort` or an unknown function answers 400 `invalid_query`, as a static check of the subset refused calls.',
    apply: () => reanswer((text, status, body) => (status === 200 && SOURCE_CALL.test(text) && /abort\(|notARealFn/.test(text) ? failure(body, 'invalid_query', 'The query failed 1 validation check') : undefined)),
  },
  {
    id: 'FQL-EVENT-TIMES-UNTAGGED',
    title: 'Times in mapped events are plain strings',
    breaks: ['FQL-SRC-002'],
    area: 'core',
    description: 'Every `{"@time": …}` in the events of a feed page is sent as its bare string.',
    apply: () => ({
      response: (response, context) => {
        if (!isPath(context.original, '/feed/1') || response.status !== 200) return undefined;
        const parsed = tryParseJson(response.body);
        if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
        const rewritten = replaceTagged(parsed.value.events, '@time', (text) => text);
        if (rewritten.changed === 0) return undefined;
        return { ...response, body: Buffer.from(stringifyJson({ ...parsed.value, events: rewritten.value })) };
      },
    }),
  },
  {
    id: 'FQL-INDEX-SOURCE-REFUSED',
    title: 'A collection-defined index is not an event source',
    breaks: ['FQL-SRC-003'],
    area: 'core',
    description: 'Creating a source from `Coll.<index>(…)` answers 400 `invalid_query`, as a server that reaches only v4 indexes answers for a collection-defined one.',
    apply: () => reanswer((text, status, body) => (status === 200 && /\.by[A-Z]\w*\([^)]*\)\.eventSource\(\)/.test(text) ? failure(body, 'invalid_query', 'The query failed 1 validation check') : undefined)),
  },
  // ---------------------------------------------------------------------------------------------- deadlines
  {
    id: 'FQL-QUERY-DEADLINE-IGNORED',
    title: '`x-query-timeout-ms` does not stop a query',
    breaks: ['FQL-TIMEOUT-001'],
    area: 'core',
    description: 'The `x-query-timeout-ms` header of `/query/1` requests is dropped, so a long query runs to the end.',
    apply: () => rewriteHeaders('/query/1', (headers) => {
      if (headers['x-query-timeout-ms'] === undefined) return undefined;
      const { 'x-query-timeout-ms': _deadline, ...rest } = headers;
      return rest;
    }),
  },
  {
    id: 'FQL-FEED-DEADLINE-IGNORED',
    title: '`x-query-timeout-ms` does not stop a feed poll',
    breaks: ['FQL-TIMEOUT-002'],
    area: 'core',
    description: 'The `x-query-timeout-ms` header of `/feed/1` requests is dropped, so a slow page is answered whole.',
    apply: () => rewriteHeaders('/feed/1', (headers) => {
      if (headers['x-query-timeout-ms'] === undefined) return undefined;
      const { 'x-query-timeout-ms': _deadline, ...rest } = headers;
      return rest;
    }),
  },
];
