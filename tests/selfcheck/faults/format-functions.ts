// Faults against Format and the deprecated aliases NextId and Classes (FN-FMT, FN-ALIAS;
// spec/requirements/functions-format.md): each is a server that gets one rule wrong the way a hand-written
// implementation plausibly would, by rewriting the expression it is sent or the answer to a call at the top level.
import { isLosslessNumber } from 'lossless-json';
import type { Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import { bodyJson, rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

/** The top-level expression when it is a call of `form`, e.g. `{"format": "%s", "values": []}` for `format`. */
function topLevelCall(context: JsonResponseContext, form: string): JsonObject | undefined {
  const expression = v4Expression(context.original);
  return isJsonObject(expression) && form in expression ? expression : undefined;
}

/** A JSON hook rewriting the string answered by a successful top-level Format call; undefined leaves it alone. */
function rewriteFormatResult(rewrite: (result: string, call: JsonObject) => string | undefined): FaultHooks['json'] {
  return (body, context) => {
    const call = topLevelCall(context, 'format');
    if (context.status !== 200 || call === undefined || !isJsonObject(body) || typeof body.resource !== 'string') return undefined;
    const replacement = rewrite(body.resource, call);
    if (replacement === undefined || replacement === body.resource) return undefined;
    body.resource = replacement;
    return body;
  };
}

/** A request hook rewriting every literal format string of a Format call in the expression. */
function rewriteFormatStrings(rewrite: (format: string) => string): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (!('format' in object) || !('values' in object) || typeof object.format !== 'string') return;
      const rewritten = rewrite(object.format);
      if (rewritten === object.format) return;
      object.format = rewritten;
      changed++;
    });
    return changed;
  });
}

/** A JSON hook rewriting each `invalid argument` error of a request that uses Format. */
function rewriteFormatErrors(rewrite: (error: JsonObject) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status === 400 && topLevelCall(context, 'format') !== undefined,
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

export const FORMAT_FUNCTION_FAULTS: Fault[] = [
  {
    id: 'FMT-DEBUG-IN-REQUEST-VERSION',
    title: 'Format %@ renders in the request\'s API version',
    breaks: ['FN-FMT-011'],
    area: 'core',
    description: '`%@` prints the value in the wire JSON of the request\'s API version (as `%^` does) instead of version 2.1.',
    apply: () => ({ request: rewriteFormatStrings((format) => format.replace(/%@/g, '%^')) }),
  },
  {
    id: 'FMT-DEBUG-PRETTY-JSON',
    title: 'Format %@ prints JSON with spaces',
    breaks: ['FN-FMT-011'],
    area: 'core',
    description: '`%@` prints the value as JSON with a space after each colon and comma, as a generic pretty printer would.',
    apply: () => ({
      json: rewriteFormatResult((result, call) =>
        typeof call.format === 'string' && call.format.includes('%@') ? result.replace(/":/g, '": ').replace(/,"/g, ', "') : undefined,
      ),
    }),
  },
  {
    id: 'FMT-FIXED-ROUNDS-BINARY-VALUE',
    title: 'Format %.Nf rounds the binary value',
    breaks: ['FN-FMT-005'],
    area: 'core',
    description: '`%.2f` prints as JavaScript\'s `toFixed`, rounding the exact binary value, so 1.005 prints `1.00` instead of `1.01`.',
    apply: () => ({ json: rewriteFormatResult((_result, call) => toFixedFormat(call)) }),
  },
  {
    id: 'FMT-UPPERCASE-IGNORED',
    title: 'Format %S prints like %s',
    breaks: ['FN-FMT-003'],
    area: 'core',
    description: 'The upper-case conversion `%S` is treated as `%s`: the text is not upper-cased.',
    apply: () => ({ request: rewriteFormatStrings((format) => format.replace(/(^|[^%])%S/g, '$1%s')) }),
  },
  {
    id: 'FMT-WIDTH-IGNORED',
    title: 'Format ignores widths',
    breaks: ['FN-FMT-007', 'FN-FMT-010'],
    area: 'core',
    description: 'A conversion\'s width (and the `-` flag that goes with it) is dropped, so nothing is padded.',
    apply: () => ({ request: rewriteFormatStrings((format) => format.replace(/%(\d+\$)?-?([#+ 0,(]*)[1-9]\d*(?=[.a-zA-Z])/g, '%$1$2')) }),
  },
  {
    id: 'FMT-HEX-SIGNED',
    title: 'Format %x of a negative integer prints a minus sign',
    breaks: ['FN-FMT-004'],
    area: 'core',
    description: '`%x` and `%o` print the signed value (`-1`) instead of the 64-bit two\'s complement.',
    apply: () => ({
      json: rewriteFormatResult((result) => result.replace(/ffffffffffffffff/g, '-1').replace(/1777777777777777777777/g, '-1')),
    }),
  },
  {
    id: 'FMT-VALUE-ERROR-AT-FORMAT',
    title: 'A Format value of the wrong type is reported at the format',
    breaks: ['FN-FMT-003', 'FN-FMT-004', 'FN-FMT-005', 'FN-FMT-010'],
    area: 'core',
    description: 'A value of the wrong type for its conversion is reported at `["format"]` instead of `["values", i]`.',
    apply: () => ({
      json: rewriteFormatErrors((error) => {
        if (!Array.isArray(error.position) || error.position[0] !== 'values') return false;
        error.position = ['format'];
        return true;
      }),
    }),
  },
  {
    id: 'FMT-MISSING-VALUE-AS-INDEX-ERROR',
    title: 'Format reports too few values as a bad index',
    breaks: ['FN-FMT-002'],
    area: 'core',
    description: 'More conversions than values answers `index must be >= 1 and <= arguments size` instead of the count error.',
    apply: () => ({
      json: rewriteFormatErrors((error) => {
        if (error.description !== 'format specifiers count must be <= arguments size') return false;
        error.description = 'index must be >= 1 and <= arguments size';
        return true;
      }),
    }),
  },
  {
    id: 'FMT-DATE-SUFFIX-AS-CONVERSION-ERROR',
    title: 'Format reports a date/time suffix a value lacks as a bad conversion',
    breaks: ['FN-FMT-010'],
    area: 'core',
    description: 'A `%t` letter the value does not have answers `Invalid conversion format` at `["format"]` instead of `Invalid date/time suffix` at the value.',
    apply: () => ({
      json: rewriteFormatErrors((error) => {
        const match = typeof error.description === 'string' ? /^Invalid date\/time suffix '(.*)'\.$/.exec(error.description) : null;
        if (match === null) return false;
        error.description = `Invalid conversion format '${match[1]}'.`;
        error.position = ['format'];
        return true;
      }),
    }),
  },
  {
    id: 'FMT-NEWLINE-CRLF',
    title: 'Format %n prints a carriage return and a line feed',
    breaks: ['FN-FMT-001'],
    area: 'core',
    description: '`%n` prints the Windows line separator `\\r\\n` instead of a line feed.',
    apply: () => ({
      json: rewriteFormatResult((result, call) => (typeof call.format === 'string' && call.format.includes('%n') ? result.replace(/\n/g, '\r\n') : undefined)),
    }),
  },
  {
    id: 'FMT-BAD-CONVERSION-PRINTED-AS-TEXT',
    title: 'Format prints a conversion it cannot apply as text',
    breaks: ['FN-FMT-008', 'FN-FMT-009'],
    area: 'core',
    description: 'An unknown or refused conversion is left in the result as written instead of answering `Invalid conversion format`.',
    apply: () => ({
      response: rewriteResponse(
        (response, context) => {
          const expression = v4Expression(context.request);
          if (response.status !== 400 || !isJsonObject(expression) || typeof expression.format !== 'string') return false;
          return v4Errors(bodyJson(response)).some((error) => typeof error.description === 'string' && error.description.startsWith('Invalid conversion format'));
        },
        (response, context) => withJsonBody(withStatus(response, 200), { resource: (v4Expression(context.request) as JsonObject).format }),
      ),
    }),
  },
  {
    id: 'FMT-BOOLEAN-PRINTS-VALUE',
    title: 'Format %b prints the value',
    breaks: ['FN-FMT-006'],
    area: 'core',
    description: '`%b` and `%B` print the value as `%s` and `%S` do (`str`, `10`, `null`) instead of `true` for anything but false and null.',
    apply: () => ({ request: rewriteFormatStrings((format) => format.replace(/(^|[^%])%b/g, '$1%s').replace(/(^|[^%])%B/g, '$1%S')) }),
  },
  {
    id: 'FMT-FORMAT-NUMBER-AS-TEXT',
    title: 'Format takes a number as its format string',
    breaks: ['FN-FMT-012'],
    area: 'core',
    description: 'A format that is a number is printed as text (`Format(5)` answers `"5"`) instead of answering `String expected, Integer provided.`',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('format' in object) || !('values' in object) || !isLosslessNumber(object.format)) return;
          object.format = object.format.toString();
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'ALIAS-NEXT-ID-NUMBER',
    title: 'NextId answers a number',
    breaks: ['FN-ALIAS-001'],
    area: 'core',
    description: 'NextId answers the new id as an integer instead of a string.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => {
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
    }),
  },
  {
    id: 'ALIAS-NEW-ID-READ-ONLY',
    title: 'NewId and NextId are answered in a read-only request',
    breaks: ['FN-ALIAS-003'],
    area: 'core',
    description: 'GET /?q={"next_id":null} answers a new id, as a server that takes NewId for a pure function would, where the real service counts it as a write and refuses it there.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => ctx.original.method === 'GET' && res.status === 400 && /(next_id|new_id)/.test(decodeURIComponent(ctx.original.path)),
        (res) => withStatus(withJsonBody(res, { resource: '364819920847028736' }), 200),
      ),
    }),
  },
  {
    id: 'ALIAS-CLASSES-EMPTY-PAGE',
    title: 'Paginate of Classes answers an empty page',
    breaks: ['FN-ALIAS-002'],
    area: 'core',
    description: 'Classes names a collection with nothing in it, so Paginate of it lists no collections.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => {
          const expression = v4Expression(context.original);
          return context.status === 200 && isJsonObject(expression) && isJsonObject(expression.paginate) && 'classes' in expression.paginate;
        },
        (body) => {
          if (!isJsonObject(body) || !isJsonObject(body.resource) || !Array.isArray(body.resource.data)) return false;
          body.resource.data = [];
          return true;
        },
      ),
    }),
  },
];
