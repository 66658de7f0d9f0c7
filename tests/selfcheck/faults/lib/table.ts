// The catalogue as data: each spec area's faults are rows of `faults/<area>.json` (lib/faults.schema.json). A row names
// its hooks: failpoints of the reference server; an edit, `when` an exchange matches, read here; or code, which the
// area's module gives under the row's id.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { LosslessNumber, parse, stringify } from 'lossless-json';
import type { Area, BufferedResponse, Fault, FaultHooks, ProxiedRequest } from '../../fault.js';
import { isJsonObject, parseJson, stringifyJson, type JsonObject } from '../../json-body.js';
import { topLevelCall } from './calls.js';
import { apiVersion, bodyJson, expressionUses, isV4Query, pathname, topLevelForm, v4Errors, withHeader, withJsonBody, withStatus, withoutHeader } from './rewrites.js';

export type FaultCode = Readonly<Record<string, Fault['apply']>>;

/** What an exchange must show for an edit to apply; every condition given must hold. */
interface When {
  /** `v4`: a v4 query (`POST /`, `GET /?q=`); `events`: `/query/1`, `/feed/1` or `/stream/1`. */
  endpoint?: 'v4' | 'events';
  path?: string;
  method?: string[];
  status?: number[];
  /** The query's top-level form (its expression's first key) is one of these. */
  form?: string[];
  /** The query's top-level expression is a call of one of these (has it as a key). */
  call?: string[];
  /** The query's expression uses each of these keys somewhere. */
  uses?: string[];
  apiVersion?: string;
  header?: string;
  requestHeader?: string;
  /** An error of the answer has this code (and, with `description`, a description this pattern matches). */
  code?: string;
  description?: string;
  /** The answer's `resource` is this value. */
  resource?: unknown;
}

/** The edit: a new status, body or headers of the answer, or changes to its errors or its `resource`. */
interface Then {
  status?: number;
  body?: unknown;
  removeHeaders?: string[];
  setHeaders?: Record<string, string>;
  /** The code, description or position of each error `when` picks (every error when it names none). */
  errorCode?: string;
  errorDescription?: string;
  errorPosition?: unknown[];
  resource?: unknown;
}

interface FaultRow {
  id: string;
  title: string;
  breaks: string[];
  area: Area;
  description: string;
  failpoints?: string[];
  code?: true;
  when?: When;
  then?: Then;
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
const validate = formatsModule.default(new Ajv2020({ allErrors: true })).compile<{ spec: string; faults: FaultRow[] }>(
  JSON.parse(readFileSync(new URL('./faults.schema.json', import.meta.url), 'utf8')),
);

/** Rows keep a decimal's text (`0.0` stays a decimal on the wire); other numbers are plain, for the schema. */
const parseNumber = (text: string): number | LosslessNumber => (/^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : new LosslessNumber(text));

const EVENT_ENDPOINTS = new Set(['/query/1', '/feed/1', '/stream/1']);

function pickedErrors(when: When, body: unknown): JsonObject[] {
  const pattern = when.description === undefined ? undefined : new RegExp(when.description);
  return v4Errors(body).filter((error) => (when.code === undefined || error.code === when.code) && (pattern === undefined || (typeof error.description === 'string' && pattern.test(error.description))));
}

function holds(when: When, request: ProxiedRequest, status: number, headers: Record<string, string>, body: () => unknown): boolean {
  if (when.endpoint === 'v4' && !isV4Query(request)) return false;
  if (when.endpoint === 'events' && !EVENT_ENDPOINTS.has(pathname(request))) return false;
  if (when.path !== undefined && pathname(request) !== when.path) return false;
  if (when.method !== undefined && !when.method.includes(request.method)) return false;
  if (when.status !== undefined && !when.status.includes(status)) return false;
  if (when.form !== undefined && !when.form.includes(topLevelForm(request) ?? '')) return false;
  if (when.call !== undefined && topLevelCall(request, when.call) === undefined) return false;
  if (when.uses !== undefined && !when.uses.every((key) => expressionUses(request, key))) return false;
  if (when.apiVersion !== undefined && apiVersion(request) !== when.apiVersion) return false;
  if (when.header !== undefined && !(when.header in headers)) return false;
  if (when.requestHeader !== undefined && request.headers[when.requestHeader] === undefined) return false;
  if ((when.code !== undefined || when.description !== undefined) && pickedErrors(when, body()).length === 0) return false;
  if ('resource' in when) {
    const answer = body();
    if (!isJsonObject(answer) || !('resource' in answer) || stringifyJson(answer.resource) !== stringifyJson(when.resource)) return false;
  }
  return true;
}

/** The hooks of an edit row: a JSON hook for changes inside the answer, a response hook for the rest. */
function editHooks(when: When, then: Then): FaultHooks {
  const inside = ['errorCode', 'errorDescription', 'errorPosition', 'resource'].some((key) => key in then);
  if (inside) {
    return {
      json: (body, context) => {
        if (!holds(when, context.original, context.status, context.headers, () => body)) return undefined;
        if ('resource' in then) {
          if (!isJsonObject(body)) return undefined;
          body.resource = parseJson(stringifyJson(then.resource));
        }
        const errors = pickedErrors(when, body);
        if (!('resource' in then) && errors.length === 0) return undefined;
        for (const error of errors) {
          if (then.errorCode !== undefined) error.code = then.errorCode;
          if (then.errorDescription !== undefined) error.description = then.errorDescription;
          if (then.errorPosition !== undefined) error.position = [...then.errorPosition];
        }
        return body;
      },
    };
  }
  return {
    response: (response, context) => {
      if (!holds(when, context.original, response.status, response.headers, () => bodyJson(response))) return undefined;
      let edited: BufferedResponse = (then.removeHeaders ?? []).reduce(withoutHeader, response);
      for (const [name, value] of Object.entries(then.setHeaders ?? {})) edited = withHeader(edited, name, value);
      if ('body' in then) edited = withJsonBody(edited, then.body);
      return then.status === undefined ? edited : withStatus(edited, then.status);
    },
  };
}

export const tableFile = (area: string): URL => new URL(`../${area}.json`, import.meta.url);

function readTable(file: URL): { spec: string; faults: FaultRow[] } {
  const table = parse(readFileSync(file, 'utf8'), undefined, parseNumber);
  if (!validate(table)) throw new Error(`${file.pathname}: ${JSON.stringify(validate.errors)}`);
  return table;
}

/** The text a table is kept in: one row a line, so the table reads (and diffs) as a table. */
export function tableText(area: string): string {
  const { spec, faults } = readTable(tableFile(area));
  const row = (fault: FaultRow) => `{ ${Object.entries(fault).map(([key, value]) => `"${key}": ${stringify(value)}`).join(', ')} }`;
  return `{\n  "$schema": "./lib/faults.schema.json",\n  "spec": "${spec}",\n  "faults": [\n    ${faults.map(row).join(',\n    ')}\n  ]\n}\n`;
}

/** The faults of `faults/<area>.json`, their code from `code`; throws on a row without hooks or code without a row. */
export function loadArea(area: string, code: FaultCode = {}): AreaFaults {
  const file = tableFile(area);
  const table = readTable(file);
  const unused = new Set(Object.keys(code));
  const kinds = new Map<string, HooksKind>();
  const faults = table.faults.map(({ failpoints, code: isCode, when, then, ...fault }): Fault => {
    unused.delete(fault.id);
    if (failpoints !== undefined) {
      kinds.set(fault.id, 'failpoints');
      return { ...fault, apply: () => ({ failpoints }) };
    }
    if (then !== undefined) {
      kinds.set(fault.id, 'edit');
      return { ...fault, apply: () => editHooks(when ?? {}, then) };
    }
    const apply = code[fault.id];
    if (apply === undefined || isCode !== true) throw new Error(`${file.pathname}: ${fault.id} has no code`);
    kinds.set(fault.id, 'code');
    return { ...fault, apply };
  });
  if (unused.size > 0) throw new Error(`${file.pathname}: code for faults it has no row for: ${[...unused].join(', ')}`);
  return { name: area, spec: table.spec, faults, kinds };
}
