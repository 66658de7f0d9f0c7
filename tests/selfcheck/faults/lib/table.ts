// The catalogue as data: each spec area's faults are rows of `faults/<area>.json` (lib/faults.schema.json). A row names
// its hooks: failpoints of the reference server; an edit, `when` an exchange matches, read here; or code, which the
// area's module gives under the row's id.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import type { Area, BufferedResponse, Fault, FaultHooks, ProxiedRequest } from '../../fault.js';
import {
  forEachObject,
  isJsonInteger,
  isJsonObject,
  jsonDecimal,
  jsonInt,
  parseJson,
  stringifyJson,
  type JsonObject,
} from '../../json-body.js';
import { topLevelCall } from './calls.js';
import { editFql, fqlText, requestObject } from './event-rewrites.js';
import {
  bodyJson,
  deleteKeys,
  expressionUses,
  isV4Query,
  nativeCollectionOf,
  pathname,
  records,
  renameKeys,
  rewriteExpression,
  topLevelForm,
  v4Errors,
  v4Expression,
  v4Resource,
  withHeader,
  withJsonBody,
  withStatus,
  withoutHeader,
} from './rewrites.js';

export type FaultCode = Readonly<Record<string, Fault['apply']>>;

/** What an exchange must show for an edit to apply; every condition given must hold. */
interface When {
  /** `v4`: a v4 query (`POST /`, `GET /?q=`); `events`: `/query/1`, `/feed/1` or `/stream/1`. */
  endpoint?: 'v4' | 'events';
  path?: string;
  method?: string[];
  status?: number[];
  /** The answer's status is at least this. */
  minStatus?: number;
  /** The query's top-level form (its expression's first key) is one of these. */
  form?: string[];
  /** The query's top-level expression is a call of one of these (has it as a key). */
  call?: string[];
  /** The argument of the top-level form is an object with this key. */
  argumentHas?: string;
  /** The query's expression uses each of these keys somewhere. */
  uses?: string[];
  /** The query's expression is this value. */
  expression?: unknown;
  header?: string;
  requestHeader?: string;
  /** The request has none of this header. */
  noRequestHeader?: string;
  /** Request headers (by name) with a value these patterns match. */
  requestHeaderMatches?: Record<string, string>;
  /** An error of the answer has this code (and, with `description`, a description this pattern matches). */
  code?: string;
  description?: string;
  /** Only errors whose position (joined by `.`) this pattern matches. */
  position?: string;
  /** The answer's `resource` is this value. */
  resource?: unknown;
  /** The answer is an object with each of these keys. */
  answerHas?: string[];
  /** Which validation failures of the errors `then.failureCode` recodes: patterns their field (joined by `.`) and code match. */
  failure?: { field?: string; code?: string };
  /** The FQL text of a `/query/1` request (the text pieces of a template joined) matches this pattern. */
  fql?: string;
  /** Keys of the request's JSON body whose JSON text these patterns match (`''` for a key it lacks). */
  requestBody?: Record<string, string>;
  /** The answer's v10 error (`{"error": {code, message}}`) has one of these codes, and a message `v10Message` matches. */
  v10Code?: string[];
  v10Message?: string;
  /** Keys of the answer whose JSON text these patterns match (`''` for a key it lacks). */
  answerMatches?: Record<string, string>;
  /** The answer is an open stream (`/stream/1`, `/stream`): `then` edits its headers. */
  stream?: true;
}

/** Where an edit of keys applies inside the answer. */
type Inside = 'answer' | 'tree' | 'resource' | 'records' | 'errors';

/** The edit: a new status, body or headers of the answer, or changes to its errors, its `resource` or its keys. */
interface Then {
  status?: number;
  body?: unknown;
  removeHeaders?: string[];
  setHeaders?: Record<string, string>;
  /** The code, description or position of each error `when` picks (every error when it names none). */
  errorCode?: string;
  errorDescription?: string;
  /** A pattern in the description and what replaces it (`$1` for its first group). */
  errorDescriptionReplace?: [string, string];
  errorPosition?: unknown[];
  /** Elements cut from the end of each picked error's position, then elements added (`$1`: the first group of `when.description`; `$form`: the query's top-level form). */
  positionDrop?: number;
  positionAppend?: unknown[];
  /** The number the answer's resource is, given as the other kind: an integer as a decimal, a whole decimal (not -0) as an integer. */
  resourceAs?: 'decimal' | 'integer';
  /** The new code of the validation failures `when.failure` picks. */
  failureCode?: string;
  resource?: unknown;
  /** The answer becomes a v10 success, 200 with this `data` (its `txn_ts`, `stats` and `schema_version` kept). */
  data?: unknown;
  /** The answer becomes 400 with this v10 error (its `txn_ts`, `stats` and `schema_version` kept; `summary` `error: <message>` unless given). */
  v10Error?: { code: string; message: string; summary?: string };
  /**
   * Keys dropped or renamed: in the answer's object alone, every object of the answer (`tree`), the resource alone, each
   * record, or each error `when` picks and the objects inside it; a resource or records of `collection` only, if given.
   */
  in?: Inside;
  collection?: string;
  drop?: string[];
  rename?: Record<string, string>;
  /** Keys given these values (a change where the value differs). */
  set?: Record<string, unknown>;
}

/** A rewrite of the request: its headers, or keys of every object of its v4 expression (that has the key `at`). */
interface RequestEdit {
  /** The path the request is forwarded to (its query string kept). */
  path?: string;
  removeHeaders?: string[];
  /** Request headers given these values (a header the request lacks too). */
  setHeaders?: Record<string, string>;
  at?: string;
  drop?: string[];
  rename?: Record<string, string>;
  /** Keys given where the object lacks them. */
  default?: Record<string, unknown>;
  /** A key's value (first) replaced by another (second) where the object has it. */
  replace?: Record<string, [unknown, unknown]>;
  /** The key edits apply to the request's JSON body object itself (`/query/1`, `/feed/1`, `/stream/1`), not a v4 expression. */
  inBody?: true;
  /** Every match of a pattern (first) in the FQL text of a `/query/1` request replaced (second; `$1` its first group). */
  fql?: [string, string];
}

export interface FaultRow {
  id: string;
  title: string;
  breaks: string[];
  area: Area;
  description: string;
  failpoints?: string[];
  code?: true;
  when?: When;
  then?: Then;
  request?: RequestEdit;
}

/** How a row gives its hooks: an edit read here, failpoints of the reference server, or code. */
export type HooksKind = 'edit' | 'failpoints' | 'code';

export interface AreaFaults {
  /** The table's name: `faults/<name>.json`. */
  name: string;
  /** The spec file whose requirements the area's faults break first, e.g. `spec/requirements/protocol.md`. */
  spec: string;
  faults: Fault[];
  kinds: ReadonlyMap<string, HooksKind>;
}

// ajv-formats is CommonJS: under NodeNext its default import is module.exports.
const validate = formatsModule
  .default(new Ajv2020({ allErrors: true }))
  .compile<{ spec: string; faults: FaultRow[] }>(JSON.parse(readFileSync(new URL('./faults.schema.json', import.meta.url), 'utf8')));

/** Rows keep a decimal's text (`0.0` stays a decimal on the wire); other numbers are plain, for the schema. */
const parseNumber = (text: string): number | LosslessNumber =>
  /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : new LosslessNumber(text);

const EVENT_ENDPOINTS = new Set(['/query/1', '/feed/1', '/stream/1']);

function pickedErrors(when: When, body: unknown): JsonObject[] {
  const pattern = when.description === undefined ? undefined : new RegExp(when.description);
  const position = when.position === undefined ? undefined : new RegExp(when.position);
  return v4Errors(body).filter(
    (error) =>
      (when.code === undefined || error.code === when.code) &&
      (pattern === undefined || (typeof error.description === 'string' && pattern.test(error.description))) &&
      (position === undefined || (Array.isArray(error.position) && position.test(error.position.join('.')))),
  );
}

/** Whether `body` is an object whose keys' JSON text (`''` for a key it lacks) the patterns match. */
function bodyMatches(body: JsonObject | undefined, patterns: Record<string, string>): boolean {
  return (
    body !== undefined &&
    Object.entries(patterns).every(([key, pattern]) => new RegExp(pattern).test(key in body ? stringifyJson(body[key]) : ''))
  );
}

/** Whether the request shows what `when` asks of a request. */
function requestHolds(when: When, request: ProxiedRequest): boolean {
  if (when.fql !== undefined && fqlText(request) === undefined) return false;
  const form = topLevelForm(request);
  const expression = v4Expression(request);
  const argument = form !== undefined && isJsonObject(expression) ? expression[form] : undefined;
  const headerMatches = Object.entries(when.requestHeaderMatches ?? {});
  return (
    (when.endpoint !== 'v4' || isV4Query(request)) &&
    (when.endpoint !== 'events' || EVENT_ENDPOINTS.has(pathname(request))) &&
    (when.path === undefined || pathname(request) === when.path) &&
    (when.method === undefined || when.method.includes(request.method)) &&
    (when.form === undefined || when.form.includes(form ?? '')) &&
    (when.call === undefined || topLevelCall(request, when.call) !== undefined) &&
    (when.argumentHas === undefined || (isJsonObject(argument) && when.argumentHas in argument)) &&
    (when.uses === undefined || when.uses.every((key) => expressionUses(request, key))) &&
    (!('expression' in when) || stringifyJson(expression ?? null) === stringifyJson(when.expression)) &&
    (when.requestHeader === undefined || request.headers[when.requestHeader] !== undefined) &&
    (when.noRequestHeader === undefined || request.headers[when.noRequestHeader] === undefined) &&
    headerMatches.every(([name, pattern]) => new RegExp(pattern).test(request.headers[name] ?? '')) &&
    (when.fql === undefined || new RegExp(when.fql).test(fqlText(request) ?? '')) &&
    (when.requestBody === undefined || bodyMatches(requestObject(request), when.requestBody))
  );
}

function holds(when: When, request: ProxiedRequest, status: number, headers: Record<string, string>, body: () => unknown): boolean {
  if (!requestHolds(when, request)) return false;
  if (when.status !== undefined && !when.status.includes(status)) return false;
  if (status < (when.minStatus ?? 0)) return false;
  if (when.header !== undefined && !(when.header in headers)) return false;
  if ((when.code !== undefined || when.description !== undefined || when.position !== undefined) && pickedErrors(when, body()).length === 0)
    return false;
  if (when.answerMatches !== undefined) {
    const answer = body();
    if (!isJsonObject(answer) || !bodyMatches(answer, when.answerMatches)) return false;
  }
  if (when.answerHas !== undefined) {
    const answer = body();
    if (!isJsonObject(answer) || !when.answerHas.every((key) => key in answer)) return false;
  }
  if (when.v10Code !== undefined || when.v10Message !== undefined) {
    const answer = body();
    const error = isJsonObject(answer) && isJsonObject(answer.error) ? answer.error : undefined;
    if (error === undefined || (when.v10Code !== undefined && !when.v10Code.includes(String(error.code)))) return false;
    if (when.v10Message !== undefined && !new RegExp(when.v10Message).test(String(error.message))) return false;
  }
  if ('resource' in when) {
    const answer = body();
    if (!isJsonObject(answer) || !('resource' in answer) || stringifyJson(answer.resource) !== stringifyJson(when.resource)) return false;
  }
  return true;
}

/** Drops, renames and sets the keys `edit` names in `object` (and the objects inside it, when `deep`); answers how many. */
function editKeys(
  object: unknown,
  edit: { drop?: string[]; rename?: Record<string, string>; set?: Record<string, unknown> },
  deep: boolean,
): number {
  const where = (inner: JsonObject) => deep || inner === object;
  const dropped = (edit.drop ?? []).reduce((n, key) => n + deleteKeys(object, key, where), 0);
  let changed = Object.entries(edit.rename ?? {}).reduce((n, [from, to]) => n + renameKeys(object, from, to, where), dropped);
  const values = Object.entries(edit.set ?? {});
  if (values.length > 0)
    forEachObject(object, (inner) => {
      if (!where(inner)) return;
      for (const [key, value] of values) {
        if (key in inner && stringifyJson(inner[key]) === stringifyJson(value)) continue;
        inner[key] = parseJson(stringifyJson(value));
        changed += 1;
      }
    });
  return changed;
}

/** The objects of the answer `then.in` names, and whether the objects inside them count too. */
function insideObjects(when: When, then: Then, body: unknown): { objects: unknown[]; deep: boolean } {
  const ofCollection = (record: JsonObject | undefined) =>
    record !== undefined && (then.collection === undefined || nativeCollectionOf(record) === then.collection);
  switch (then.in) {
    case 'resource':
      return { objects: [v4Resource(body)].filter(ofCollection), deep: false };
    case 'records':
      return { objects: records(body).filter(ofCollection), deep: false };
    case 'errors':
      return { objects: pickedErrors(when, body), deep: true };
    default:
      return { objects: [body], deep: then.in === 'tree' };
  }
}

/** Gives the failures of `errors` that `failure` picks the code `code`; answers how many. */
function recodeFailures(errors: JsonObject[], failure: NonNullable<When['failure']>, code: string): number {
  const [field, was] = [new RegExp(failure.field ?? ''), new RegExp(failure.code ?? '')];
  const failures = errors.flatMap((error) => (Array.isArray(error.failures) ? error.failures.filter(isJsonObject) : []));
  const picked = failures.filter((f) => Array.isArray(f.field) && field.test(f.field.join('.')) && was.test(String(f.code)));
  for (const f of picked) f.code = code;
  return picked.length;
}

/** Gives the number that is the answer's resource as the other kind (`then.resourceAs`); answers whether it did. */
function numberAs(body: unknown, kind: 'decimal' | 'integer'): boolean {
  const n = isJsonObject(body) && isLosslessNumber(body.resource) ? body.resource : undefined;
  if (n === undefined || isJsonInteger(n) === (kind === 'integer')) return false;
  const value = Number(n.toString());
  if (kind === 'integer' && (!Number.isInteger(value) || Object.is(value, -0))) return false;
  (body as JsonObject).resource = kind === 'decimal' ? jsonDecimal(value) : jsonInt(value);
  return true;
}

/** The JSON hook of a row that changes the inside of the answer. */
function insideHook(when: When, then: Then): FaultHooks['json'] {
  return (body, context) => {
    if (!holds(when, context.original, context.status, context.headers, () => body)) return undefined;
    if (then.in !== undefined) {
      const { objects, deep } = insideObjects(when, then, body);
      return objects.reduce<number>((n, object) => n + editKeys(object, then, deep), 0) > 0 ? body : undefined;
    }
    if (then.resourceAs !== undefined) return numberAs(body, then.resourceAs) ? body : undefined;
    if (then.failureCode !== undefined)
      return recodeFailures(pickedErrors(when, body), when.failure ?? {}, then.failureCode) > 0 ? body : undefined;
    // An edit that leaves the answer as it was has not fired: the proxy counts every answer a hook gives back as one.
    const before = stringifyJson(body);
    if ('resource' in then) {
      if (!isJsonObject(body)) return undefined;
      body.resource = parseJson(stringifyJson(then.resource));
    }
    const errors = pickedErrors(when, body);
    for (const error of errors) {
      if (then.errorCode !== undefined) error.code = then.errorCode;
      if (then.errorDescription !== undefined) error.description = then.errorDescription;
      if (then.errorDescriptionReplace !== undefined)
        error.description = String(error.description).replace(new RegExp(then.errorDescriptionReplace[0]), then.errorDescriptionReplace[1]);
      if (then.errorPosition !== undefined) error.position = [...then.errorPosition];
      if (Array.isArray(error.position) && (then.positionDrop !== undefined || then.positionAppend !== undefined)) {
        const group = new RegExp(when.description ?? '').exec(String(error.description))?.[1];
        const added = (then.positionAppend ?? []).map((e) => (e === '$1' ? group : e === '$form' ? topLevelForm(context.original) : e));
        error.position = [...error.position.slice(0, error.position.length - (then.positionDrop ?? 0)), ...added];
      }
    }
    return stringifyJson(body) === before ? undefined : body;
  };
}

/** Applies a request row's key edits to one object; answers how many changes it made. */
function editRequestObject(object: JsonObject, keys: Pick<RequestEdit, 'drop' | 'rename' | 'default' | 'replace'>): number {
  let changed = editKeys(object, keys, false);
  for (const [key, value] of Object.entries(keys.default ?? {})) {
    if (key in object) continue;
    object[key] = parseJson(stringifyJson(value));
    changed += 1;
  }
  for (const [key, [from, to]] of Object.entries(keys.replace ?? {})) {
    if (!(key in object) || stringifyJson(object[key]) !== stringifyJson(from)) continue;
    object[key] = parseJson(stringifyJson(to));
    changed += 1;
  }
  return changed;
}

/** The request hook of a request row. */
function requestHook(when: When, edit: RequestEdit): FaultHooks['request'] {
  const { path, removeHeaders, setHeaders, fql, inBody, at, ...keys } = edit;
  const withinExpression = rewriteExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (at === undefined || at in object) changed += editRequestObject(object, keys);
    });
    return changed;
  });
  const withinBody = (request: ProxiedRequest): ProxiedRequest | undefined => {
    const body = requestObject(request);
    if (body === undefined || (at !== undefined && !(at in body)) || editRequestObject(body, keys) === 0) return undefined;
    return { ...request, body: Buffer.from(stringifyJson(body)) };
  };
  const withinFql = fql === undefined ? undefined : editFql((text) => text.replace(new RegExp(fql[0], 'g'), fql[1]));
  return (request) => {
    if (!requestHolds(when, request)) return undefined;
    if (path !== undefined) return { ...request, path: request.path.replace(pathname(request), path) };
    if (withinFql !== undefined) return withinFql(request);
    if (setHeaders !== undefined) {
      const headers = { ...request.headers, ...setHeaders };
      return Object.entries(setHeaders).every(([name, value]) => request.headers[name] === value) ? undefined : { ...request, headers };
    }
    if (removeHeaders === undefined) return inBody === true ? withinBody(request) : withinExpression!(request);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !removeHeaders.includes(name)));
    return Object.keys(headers).length === Object.keys(request.headers).length ? undefined : { ...request, headers };
  };
}

/** The hook of a row that edits the headers of an open stream. */
function streamHeadersHook(when: When, then: Then): FaultHooks['streamHeaders'] {
  return (headers, context) => {
    if (!requestHolds(when, context.original)) return undefined;
    const edited = Object.fromEntries(Object.entries(headers).filter(([name]) => !(then.removeHeaders ?? []).includes(name)));
    Object.assign(edited, then.setHeaders);
    return stringifyJson(edited) === stringifyJson(headers) ? undefined : edited;
  };
}

/** The v10 success or error `then` makes of an answer, with the answer's `txn_ts`, `stats` and `schema_version`. */
function v10Answer(response: BufferedResponse, then: Then): BufferedResponse {
  const answer = bodyJson(response);
  const { txn_ts = 0, stats, schema_version = 0 } = isJsonObject(answer) ? answer : {};
  const kept = { txn_ts, stats, schema_version };
  if (then.v10Error === undefined) return withStatus(withJsonBody(response, { data: then.data, summary: '', ...kept }), 200);
  const { code, message, summary = `error: ${message}` } = then.v10Error;
  return withStatus(withJsonBody(response, { error: { code, message }, summary, ...kept }), 400);
}

/** Whether two answers have the same status, headers and body (an edit that changed nothing has not fired). */
const sameAnswer = (a: BufferedResponse, b: BufferedResponse): boolean =>
  a.status === b.status && a.body.equals(b.body) && stringifyJson(a.headers) === stringifyJson(b.headers);

/** The hooks of an edit row: a JSON hook for changes inside the answer, a response hook for the rest. */
function editHooks(when: When, then: Then): FaultHooks {
  if (when.stream === true) return { streamHeaders: streamHeadersHook(when, then) };
  if (
    [
      'errorCode',
      'errorDescription',
      'errorDescriptionReplace',
      'errorPosition',
      'positionDrop',
      'positionAppend',
      'resourceAs',
      'failureCode',
      'resource',
      'in',
    ].some((key) => key in then)
  )
    return { json: insideHook(when, then) };
  return {
    response: (response, context) => {
      if (!holds(when, context.original, response.status, response.headers, () => bodyJson(response))) return undefined;
      let edited: BufferedResponse = (then.removeHeaders ?? []).reduce(withoutHeader, response);
      for (const [name, value] of Object.entries(then.setHeaders ?? {})) edited = withHeader(edited, name, value);
      if ('body' in then) edited = withJsonBody(edited, then.body);
      if ('data' in then || then.v10Error !== undefined) edited = v10Answer(edited, then);
      else if (then.status !== undefined) edited = withStatus(edited, then.status);
      return sameAnswer(edited, response) ? undefined : edited;
    },
  };
}

/** The hooks of an edit row (one with `then` or `request`). */
export function editRowHooks({ when = {}, then, request }: Pick<FaultRow, 'when' | 'then' | 'request'>): FaultHooks {
  return then !== undefined ? editHooks(when, then) : { request: requestHook(when, request ?? {}) };
}

/** Whether a table is valid against faults.schema.json (`validTable.errors` says why not). */
export const validTable = validate;

export const tableFile = (area: string): URL => new URL(`../${area}.json`, import.meta.url);

function readTable(file: URL): { spec: string; faults: FaultRow[] } {
  const table = parse(readFileSync(file, 'utf8'), undefined, parseNumber);
  if (!validate(table)) throw new Error(`${file.pathname}: ${JSON.stringify(validate.errors)}`);
  return table;
}

/** The text a table is kept in: one row a line, so the table reads (and diffs) as a table. */
export function tableText(area: string): string {
  const { spec, faults } = readTable(tableFile(area));
  const row = (fault: FaultRow) =>
    `{ ${Object.entries(fault)
      .map(([key, value]) => `"${key}": ${stringify(value)}`)
      .join(', ')} }`;
  const head = ['{', '  "$schema": "./lib/faults.schema.json",', `  "spec": "${spec}",`, '  "faults": ['];
  return [...head, `    ${faults.map(row).join(',\n    ')}`, '  ]', '}', ''].join('\n');
}

/** The faults of `faults/<area>.json`, their code from `code`; throws on a row without hooks or code no `code: true` row uses. */
export function loadArea(area: string, code: FaultCode = {}): AreaFaults {
  const file = tableFile(area);
  const table = readTable(file);
  const unused = new Set(Object.keys(code));
  const kinds = new Map<string, HooksKind>();
  const faults = table.faults.map(({ failpoints, code: isCode, when, then, request, ...fault }): Fault => {
    if (failpoints !== undefined) {
      kinds.set(fault.id, 'failpoints');
      return { ...fault, apply: () => ({ failpoints }) };
    }
    if (then !== undefined || request !== undefined) {
      kinds.set(fault.id, 'edit');
      return { ...fault, apply: () => editRowHooks({ when, then, request }) };
    }
    const apply = code[fault.id];
    if (apply === undefined || isCode !== true) throw new Error(`${file.pathname}: ${fault.id} has no code`);
    unused.delete(fault.id);
    kinds.set(fault.id, 'code');
    return { ...fault, apply };
  });
  if (unused.size > 0) throw new Error(`${file.pathname}: code for faults it has no code row for: ${[...unused].join(', ')}`);
  return { name: area, spec: table.spec, faults, kinds };
}
