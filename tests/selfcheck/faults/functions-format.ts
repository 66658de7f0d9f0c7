// The faults of spec/requirements/functions-format.md that are code; their rows (ids, titles, what they break) are in functions-format.json.
import type { FaultHooks } from '../fault.js';
import { isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  bodyJson,
  editObjects,
  onJson,
  onObjects,
  onResponse,
  rewriteExpression,
  rewriteJson,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import { topLevelCall } from './lib/calls.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

/** A JSON hook rewriting the string answered by a successful top-level Format call; undefined leaves it alone. */
function rewriteFormatResult(rewrite: (result: string, call: JsonObject) => string | undefined): FaultHooks['json'] {
  return (body, context) => {
    const call = topLevelCall(context.original, 'format')?.call;
    if (context.status !== 200 || call === undefined || !isJsonObject(body) || typeof body.resource !== 'string') return undefined;
    const replacement = rewrite(body.resource, call);
    if (replacement === undefined || replacement === body.resource) return undefined;
    body.resource = replacement;
    return body;
  };
}

/** A request hook rewriting every literal format string of a Format call in the expression. */
function rewriteFormatStrings(rewrite: (format: string) => string): FaultHooks['request'] {
  return rewriteExpression((expression) =>
    editObjects(expression, (object) => {
      if (!('format' in object) || !('values' in object) || typeof object.format !== 'string') return false;
      const rewritten = rewrite(object.format);
      if (rewritten === object.format) return false;
      object.format = rewritten;
      return true;
    }),
  );
}

/** A JSON hook rewriting each `invalid argument` error of a request that uses Format. */
function rewriteFormatErrors(rewrite: (error: JsonObject) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status === 400 && topLevelCall(context.original, 'format')?.call !== undefined,
    (body) => v4Errors(body).filter((error) => error.code === 'invalid argument' && rewrite(error)).length,
  );
}

/** `%.Nf` of a double as JavaScript's `toFixed` prints it: rounding the binary value, not its decimal digits. */
function toFixedFormat(call: JsonObject): string | undefined {
  const { format, values } = call;
  if (typeof format !== 'string' || !/^(%\.\d+f|[^%])*$/.test(format)) return undefined;
  const list = Array.isArray(values) ? values : [values];
  let next = 0;
  let failed = false;
  const out = format.replace(/%\.(\d+)f/g, (_whole, digits: string) => {
    const value = list[next++];
    if (!isLosslessNumber(value)) failed = true;
    return failed ? '' : Number(value!.toString()).toFixed(Number(digits));
  });
  return failed ? undefined : out;
}

export const code: FaultCode = {
  'FMT-DEBUG-IN-REQUEST-VERSION': () => ({ request: rewriteFormatStrings((format) => format.replace(/%@/g, '%^')) }),
  'FMT-DEBUG-PRETTY-JSON': () => ({
    json: rewriteFormatResult((result, call) =>
      typeof call.format === 'string' && call.format.includes('%@') ? result.replace(/":/g, '": ').replace(/,"/g, ', "') : undefined,
    ),
  }),
  'FMT-FIXED-ROUNDS-BINARY-VALUE': () => ({ json: rewriteFormatResult((_result, call) => toFixedFormat(call)) }),
  'FMT-UPPERCASE-IGNORED': () => ({ request: rewriteFormatStrings((format) => format.replace(/(^|[^%])%S/g, '$1%s')) }),
  'FMT-WIDTH-IGNORED': () => ({
    request: rewriteFormatStrings((format) => format.replace(/%(\d+\$)?-?([#+ 0,(]*)[1-9]\d*(?=[.a-zA-Z])/g, '%$1$2')),
  }),
  'FMT-HEX-SIGNED': () => ({
    json: rewriteFormatResult((result) => result.replace(/ffffffffffffffff/g, '-1').replace(/1777777777777777777777/g, '-1')),
  }),
  'FMT-VALUE-ERROR-AT-FORMAT': () => ({
    json: rewriteFormatErrors((error) => {
      if (!Array.isArray(error.position) || error.position[0] !== 'values') return false;
      error.position = ['format'];
      return true;
    }),
  }),
  'FMT-NEWLINE-CRLF': () => ({
    json: rewriteFormatResult((result, call) =>
      typeof call.format === 'string' && call.format.includes('%n') ? result.replace(/\n/g, '\r\n') : undefined,
    ),
  }),
  'FMT-BAD-CONVERSION-PRINTED-AS-TEXT': onResponse(
    (response, context) => {
      const expression = v4Expression(context.request);
      if (response.status !== 400 || !isJsonObject(expression) || typeof expression.format !== 'string') return false;
      return v4Errors(bodyJson(response)).some(
        (error) => typeof error.description === 'string' && error.description.startsWith('Invalid conversion format'),
      );
    },
    (response, context) => withJsonBody(withStatus(response, 200), { resource: (v4Expression(context.request) as JsonObject).format }),
  ),
  'FMT-BOOLEAN-PRINTS-VALUE': () => ({
    request: rewriteFormatStrings((format) => format.replace(/(^|[^%])%b/g, '$1%s').replace(/(^|[^%])%B/g, '$1%S')),
  }),
  'FMT-FORMAT-NUMBER-AS-TEXT': onObjects((object) => {
    if (!('format' in object) || !('values' in object) || !isLosslessNumber(object.format)) return false;
    object.format = object.format.toString();
    return true;
  }),
  'ALIAS-NEXT-ID-NUMBER': onJson(
    (_body, context) => {
      const expression = v4Expression(context.original);
      const calls = Array.isArray(expression) ? expression : [expression];
      return context.status === 200 && calls.length > 0 && calls.every((call) => isJsonObject(call) && 'next_id' in call);
    },
    (body) => {
      if (!isJsonObject(body)) return false;
      const toNumber = (id: unknown): unknown => (typeof id === 'string' && /^\d+$/.test(id) ? jsonInt(BigInt(id)) : id);
      body.resource = Array.isArray(body.resource) ? body.resource.map(toNumber) : toNumber(body.resource);
      return true;
    },
  ),
  'ALIAS-NEW-ID-READ-ONLY': onResponse(
    (res, ctx) => ctx.original.method === 'GET' && res.status === 400 && /(next_id|new_id)/.test(decodeURIComponent(ctx.original.path)),
    (res) => withStatus(withJsonBody(res, { resource: '364819920847028736' }), 200),
  ),
  'ALIAS-CLASSES-EMPTY-PAGE': onJson(
    (_body, context) => {
      const expression = v4Expression(context.original);
      return context.status === 200 && isJsonObject(expression) && isJsonObject(expression.paginate) && 'classes' in expression.paginate;
    },
    (body) => {
      if (!isJsonObject(body) || !isJsonObject(body.resource) || !Array.isArray(body.resource.data)) return false;
      body.resource.data = [];
      return true;
    },
  ),
};
