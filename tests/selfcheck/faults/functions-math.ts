// The faults of spec/requirements/functions-math.md that are code; their rows (ids, titles, what they break) are in functions-math.json.
import type { ExchangeContext, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, jsonNumber, type JsonObject } from '../json-body.js';
import {
  onExpression,
  onJson,
  rewriteJson,
  rewriteResponse,
  topLevelForm,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
  bodyJson,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';

const WHOLE_PRESERVING = new Set(['ceil', 'floor', 'round', 'trunc']);

const DECIMAL_RESULTS = new Set([
  'sqrt',
  'pow',
  'exp',
  'ln',
  'log',
  'hypot',
  'acos',
  'asin',
  'atan',
  'cos',
  'cosh',
  'degrees',
  'radians',
  'sin',
  'sinh',
  'tan',
  'tanh',
]);

const BIT_FOLDS = new Set(['bitand', 'bitor', 'bitxor']);

const MATH_FORMS = new Set([...WHOLE_PRESERVING, ...DECIMAL_RESULTS, ...BIT_FOLDS, 'sign', 'bitnot']);

const DOMAIN_ERROR = / must be (positive|greater than 0|between -1 and 1 inclusive)$/;

const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

/** The top-level form of the suite's request when it is one of `forms`. */
function topForm(context: ExchangeContext, forms: ReadonlySet<string>): string | undefined {
  const form = topLevelForm(context.original);
  return form !== undefined && forms.has(form) ? form : undefined;
}

/** The top-level expression as a JSON object with its form's argument, when the form is one of `forms`. */
function topCall(context: ExchangeContext, forms: ReadonlySet<string>): { form: string; call: JsonObject } | undefined {
  const form = topForm(context, forms);
  const call = v4Expression(context.original);
  return form !== undefined && isJsonObject(call) ? { form, call } : undefined;
}

const isJsonDecimal = (value: unknown): value is LosslessNumber => isLosslessNumber(value) && !isJsonInteger(value);

/** Replaces `resource` of a 200 answer to a top-level form of `forms` by `replace(…)`, when that answers something. */
function rewriteResource(
  forms: ReadonlySet<string>,
  replace: (resource: unknown, call: JsonObject, form: string) => unknown,
): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => context.status === 200 && isJsonObject(body) && 'resource' in body && topCall(context, forms) !== undefined,
    (body, context: JsonResponseContext) => {
      const { form, call } = topCall(context, forms)!;
      const replacement = replace((body as JsonObject).resource, call, form);
      if (replacement === undefined) return false;
      (body as JsonObject).resource = replacement;
      return true;
    },
  );
}

/** 200 `{"resource": value}` in place of a 400 whose first description `matches`, for a top-level form of `forms`. */
function acceptInstead(forms: ReadonlySet<string>, matches: (description: string) => boolean, value: unknown): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) => {
      if (res.status !== 400 || topForm(ctx, forms) === undefined) return false;
      const description = v4Errors(bodyJson(res))[0]?.description;
      return typeof description === 'string' && matches(description);
    },
    (res) => withStatus(withJsonBody(res, { resource: value }), 200),
  );
}

/** Textbook rounding of `x` to `places` decimal places: half away from zero. */
function roundHalfAwayFromZero(x: number, places: number): number {
  const scale = 10 ** places;
  return (Math.sign(x) * Math.round(Math.abs(x) * scale)) / scale;
}

/** The integer operands of a top-level bit fold, when all are integer literals. */
function integerOperands(call: JsonObject, form: string): bigint[] | undefined {
  const argument = call[form];
  const list = Array.isArray(argument) ? argument : [argument];
  if (list.length === 0 || !list.every(isJsonInteger)) return undefined;
  return list.map((n) => BigInt((n as LosslessNumber).toString()));
}

const INT32_OPERATIONS: Record<string, (a: number, b: number) => number> = {
  bitand: (a, b) => a & b,
  bitor: (a, b) => a | b,
  bitxor: (a, b) => a ^ b,
};

export const code: FaultCode = {
  'MATH-WHOLE-INTEGER-AS-DECIMAL': () => ({
    json: rewriteResource(WHOLE_PRESERVING, (resource) =>
      isJsonInteger(resource) ? jsonDecimal(Number((resource as LosslessNumber).toString())) : undefined,
    ),
  }),
  'MATH-ROUND-HALF-AWAY-FROM-ZERO': () => ({
    json: rewriteResource(new Set(['round']), (resource, call) => {
      const x = isJsonDecimal(call.round) ? jsonNumber(call.round)! : undefined;
      const places = call.precision === undefined ? 2 : isJsonInteger(call.precision) ? jsonNumber(call.precision)! : undefined;
      if (x === undefined || x >= 0 || places === undefined || places > 15) return undefined;
      const textbook = roundHalfAwayFromZero(x, places);
      return jsonNumber(resource) === textbook ? undefined : jsonDecimal(textbook);
    }),
  }),
  'MATH-ROUND-DEFAULT-WHOLE': onExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      for (const form of ['round', 'trunc']) {
        if (form in object && !('precision' in object) && Object.keys(object).length === 1) {
          object.precision = jsonInt(0);
          changed++;
        }
      }
    });
    return changed;
  }),
  'MATH-TRUNC-FLOORS': () => ({
    json: rewriteResource(new Set(['trunc']), (_resource, call) => {
      const x = isJsonDecimal(call.trunc) ? jsonNumber(call.trunc)! : undefined;
      const places = call.precision === undefined ? 2 : isJsonInteger(call.precision) ? jsonNumber(call.precision)! : undefined;
      if (x === undefined || x >= 0 || places === undefined || places > 15) return undefined;
      const scale = 10 ** places;
      const floored = Math.floor(x * scale) / scale;
      return floored === Math.trunc(x * scale) / scale ? undefined : jsonDecimal(floored);
    }),
  }),
  'MATH-SIGN-AS-DECIMAL': () => ({
    json: rewriteResource(new Set(['sign']), (_resource, call) =>
      isJsonDecimal(call.sign) ? jsonDecimal(Math.sign(jsonNumber(call.sign)!)) : undefined,
    ),
  }),
  'MATH-DOMAIN-NAN': () => ({ response: acceptInstead(MATH_FORMS, (d) => DOMAIN_ERROR.test(d) && !d.startsWith('NaN '), 'NaN') }),
  'MATH-DOMAIN-ERROR-AT-ARGUMENT': onJson(
    (_body, ctx) => ctx.status === 400 && topForm(ctx, MATH_FORMS) !== undefined,
    (body, ctx) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        if (
          typeof error.description === 'string' &&
          DOMAIN_ERROR.test(error.description) &&
          Array.isArray(error.position) &&
          error.position.length === 0
        ) {
          error.position = [topForm(ctx, MATH_FORMS)!];
          changed++;
        }
      }
      return changed;
    },
  ),
  'MATH-WHOLE-DECIMAL-AS-INTEGER': () => ({
    json: rewriteResource(DECIMAL_RESULTS, (resource) => {
      const n = isJsonDecimal(resource) ? jsonNumber(resource)! : undefined;
      return n !== undefined && Number.isInteger(n) && !Object.is(n, -0) ? jsonInt(n) : undefined;
    }),
  }),
  'MATH-BIT-INT32': () => ({
    json: rewriteResource(BIT_FOLDS, (resource, call, form) => {
      const operands = integerOperands(call, form);
      if (operands === undefined) return undefined;
      const in32 = operands.map((n) => Number(BigInt.asIntN(32, n))).reduce(INT32_OPERATIONS[form]!);
      return jsonNumber(resource) === in32 ? undefined : jsonInt(in32);
    }),
  }),
  'MATH-BIT-DECIMAL-AS-INTEGER': () => ({
    json: rewriteResource(BIT_FOLDS, (resource, call, form) => {
      const n = isJsonDecimal(resource) ? jsonNumber(resource)! : undefined;
      return n !== undefined && Number.isInteger(n) && Array.isArray(call[form]) ? jsonInt(n) : undefined;
    }),
  }),
  'MATH-BITNOT-DECIMAL': () => ({
    json: rewriteResource(new Set(['bitnot']), (resource, call) =>
      isJsonDecimal(call.bitnot) && isJsonInteger(resource) ? jsonDecimal(jsonNumber(resource)!) : undefined,
    ),
  }),
  'MATH-BIT-EMPTY-ZERO': () => ({ response: acceptInstead(BIT_FOLDS, (d) => d === 'Non-empty array expected.', jsonInt(0)) }),
  'MATH-TRIG-IN-DEGREES': onExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      for (const form of ['sin', 'cos', 'tan']) {
        if (form in object && Object.keys(object).length === 1) {
          object[form] = { radians: object[form] };
          changed++;
        }
      }
    });
    return changed;
  }),
  'MATH-DEGREES-RADIANS-SWAPPED': onExpression((expression) => {
    const calls: Array<{ object: JsonObject; form: string }> = [];
    forEachObject(expression, (object) => {
      const form = ['degrees', 'radians'].find((f) => f in object && Object.keys(object).length === 1);
      if (form !== undefined) calls.push({ object, form });
    });
    for (const { object, form } of calls) {
      const other = form === 'degrees' ? 'radians' : 'degrees';
      object[other] = object[form];
      delete object[form];
    }
    return calls.length;
  }),
  'MATH-TYPE-ERROR-AT-CALL': onJson(
    (_body, ctx) => ctx.status === 400 && topForm(ctx, MATH_FORMS) !== undefined,
    (body) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        if (
          typeof error.description === 'string' &&
          error.description.startsWith('Number expected') &&
          Array.isArray(error.position) &&
          error.position.length === 1
        ) {
          error.position = [];
          changed++;
        }
      }
      return changed;
    },
  ),
  'MATH-PRECISION-CUT-TO-INTEGER': onExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (!('round' in object || 'trunc' in object) || !('precision' in object)) return;
      if (object.precision === null) {
        delete object.precision;
        changed++;
      } else if (isJsonDecimal(object.precision)) {
        object.precision = jsonInt(Math.trunc(jsonNumber(object.precision)!));
        changed++;
      }
    });
    return changed;
  }),
  'MATH-NONFINITE-AS-NULL': () => ({
    json: rewriteResource(MATH_FORMS, (resource) => (typeof resource === 'string' && NON_FINITE.has(resource) ? null : undefined)),
  }),
  'MATH-NAN-PASSES-DOMAIN': () => ({ response: acceptInstead(MATH_FORMS, (d) => d.startsWith('NaN must be'), 'NaN') }),
};
