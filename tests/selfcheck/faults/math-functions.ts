// Faults against the FQL v4 rounding, power, logarithm, bitwise and trigonometric functions (FN-MATH;
// spec/requirements/functions-math.md). Each is a server that gets one thing plausibly wrong: result types normalised
// (whole decimals as integers, or the reverse), textbook rounding where the service has its own, NaN instead of a
// domain error, defaults for the optional arguments other than the service's, degrees for radians, JavaScript's
// 32-bit bitwise operators. The tests that catch them are in tests/conformance/core/functions/math.test.ts.
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import type { BufferedResponse, ExchangeContext, Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, jsonNumber, type JsonObject } from '../json-body.js';
import { rewriteExpression, rewriteJson, rewriteResponse, topLevelForm, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

const WHOLE_PRESERVING = new Set(['ceil', 'floor', 'round', 'trunc']);
const DECIMAL_RESULTS = new Set(['sqrt', 'pow', 'exp', 'ln', 'log', 'hypot', 'acos', 'asin', 'atan', 'cos', 'cosh', 'degrees', 'radians', 'sin', 'sinh', 'tan', 'tanh']);
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
function rewriteResource(forms: ReadonlySet<string>, replace: (resource: unknown, call: JsonObject, form: string) => unknown): FaultHooks['json'] {
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
      const description = v4Errors(parse(res))[0]?.description;
      return typeof description === 'string' && matches(description);
    },
    (res) => withStatus(withJsonBody(res, { resource: value }), 200),
  );
}

function parse(res: BufferedResponse): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A request hook adding `key: value` to every call of `form` that lacks it. */
function defaultArgument(form: string, key: string, value: unknown): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (form in object && !(key in object)) {
        object[key] = value;
        changed++;
      }
    });
    return changed;
  });
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

export const MATH_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'MATH-WHOLE-INTEGER-AS-DECIMAL',
    title: 'Ceil, Floor, Round and Trunc of an integer answer a decimal',
    breaks: ['FN-MATH-001', 'FN-MATH-002'],
    area: 'core',
    description: 'Ceil(7) answers 7.0 and Round(555, -2) 600.0 where the real service keeps the integer, as a server rounding in doubles would.',
    apply: () => ({ json: rewriteResource(WHOLE_PRESERVING, (resource) => (isJsonInteger(resource) ? jsonDecimal(Number((resource as LosslessNumber).toString())) : undefined)) }),
  },
  {
    id: 'MATH-ROUND-HALF-AWAY-FROM-ZERO',
    title: 'Round of a negative decimal rounds half away from zero',
    breaks: ['FN-MATH-004'],
    area: 'core',
    description: 'Round(-1.234, 2) answers -1.23 (textbook rounding) where the real service answers -1.22.',
    apply: () => ({
      json: rewriteResource(new Set(['round']), (resource, call) => {
        const x = isJsonDecimal(call.round) ? jsonNumber(call.round)! : undefined;
        const places = call.precision === undefined ? 2 : isJsonInteger(call.precision) ? jsonNumber(call.precision)! : undefined;
        if (x === undefined || x >= 0 || places === undefined || places > 15) return undefined;
        const textbook = roundHalfAwayFromZero(x, places);
        return jsonNumber(resource) === textbook ? undefined : jsonDecimal(textbook);
      }),
    }),
  },
  {
    id: 'MATH-ROUND-DEFAULT-WHOLE',
    title: 'Round and Trunc without a precision round to a whole number',
    breaks: ['FN-MATH-003', 'FN-MATH-005'],
    area: 'core',
    description: 'Round(5.123) answers 5.0 and Trunc(1234.5678) 1234.0, as if the precision defaulted to 0, where the real service keeps two places.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'MATH-TRUNC-FLOORS',
    title: 'Trunc of a negative decimal rounds down',
    breaks: ['FN-MATH-005'],
    area: 'core',
    description: 'Trunc(-1.789, 1) answers -1.8 (toward negative infinity) where the real service cuts toward zero, -1.7.',
    apply: () => ({
      json: rewriteResource(new Set(['trunc']), (_resource, call) => {
        const x = isJsonDecimal(call.trunc) ? jsonNumber(call.trunc)! : undefined;
        const places = call.precision === undefined ? 2 : isJsonInteger(call.precision) ? jsonNumber(call.precision)! : undefined;
        if (x === undefined || x >= 0 || places === undefined || places > 15) return undefined;
        const scale = 10 ** places;
        const floored = Math.floor(x * scale) / scale;
        return floored === Math.trunc(x * scale) / scale ? undefined : jsonDecimal(floored);
      }),
    }),
  },
  {
    id: 'MATH-SIGN-AS-DECIMAL',
    title: 'Sign of a decimal answers a decimal, 0.0 for zero',
    breaks: ['FN-MATH-006'],
    area: 'core',
    description: 'Sign(5.9) answers 1.0 and Sign(0.0) answers 0.0, as JavaScript\'s Math.sign would, where the real service answers the integer 1 for both.',
    apply: () => ({
      json: rewriteResource(new Set(['sign']), (_resource, call) => (isJsonDecimal(call.sign) ? jsonDecimal(Math.sign(jsonNumber(call.sign)!)) : undefined)),
    }),
  },
  {
    id: 'MATH-DOMAIN-NAN',
    title: 'A number outside the domain answers NaN instead of an error',
    breaks: ['FN-MATH-008', 'FN-MATH-010', 'FN-MATH-018'],
    area: 'core',
    description: 'Sqrt(-4), Ln(0) and Acos(2) answer 200 "NaN", as the IEEE functions do, where the real service answers 400 invalid argument.',
    apply: () => ({ response: acceptInstead(MATH_FORMS, (d) => DOMAIN_ERROR.test(d) && !d.startsWith('NaN '), 'NaN') }),
  },
  {
    id: 'MATH-DOMAIN-ERROR-AT-ARGUMENT',
    title: 'A domain error is reported at the argument instead of the call',
    breaks: ['FN-MATH-008', 'FN-MATH-010', 'FN-MATH-018'],
    area: 'core',
    description: 'Sqrt(-4) fails at ["sqrt"] instead of [], as a server that checks the domain with the argument\'s type would.',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && topForm(ctx, MATH_FORMS) !== undefined,
        (body, ctx) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (typeof error.description === 'string' && DOMAIN_ERROR.test(error.description) && Array.isArray(error.position) && error.position.length === 0) {
              error.position = [topForm(ctx, MATH_FORMS)!];
              changed++;
            }
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'MATH-WHOLE-DECIMAL-AS-INTEGER',
    title: 'A whole decimal result of Sqrt, Pow, Log, Cos, … answers an integer',
    breaks: ['FN-MATH-007', 'FN-MATH-009', 'FN-MATH-011', 'FN-MATH-012', 'FN-MATH-017', 'FN-MATH-018', 'FN-MATH-019'],
    area: 'core',
    description: 'Sqrt(9) answers 3, Pow(2, 3) 8 and Cos(0) 1 where the real service answers the decimals 3.0, 8.0 and 1.0.',
    apply: () => ({
      json: rewriteResource(DECIMAL_RESULTS, (resource) => {
        const n = isJsonDecimal(resource) ? jsonNumber(resource)! : undefined;
        return n !== undefined && Number.isInteger(n) && !Object.is(n, -0) ? jsonInt(n) : undefined;
      }),
    }),
  },
  {
    id: 'MATH-POW-DEFAULT-EXP-1',
    title: 'Pow without an exponent answers its number',
    breaks: ['FN-MATH-011'],
    area: 'core',
    description: 'Pow(2) answers 2.0, as if the exponent defaulted to 1, where the real service squares: 4.0.',
    apply: () => ({ request: defaultArgument('pow', 'exp', jsonInt(1)) }),
  },
  {
    id: 'MATH-HYPOT-DEFAULT-B-0',
    title: 'Hypot without b answers the absolute value of its number',
    breaks: ['FN-MATH-012'],
    area: 'core',
    description: 'Hypot(2) answers 2.0, as if b defaulted to 0, where the real service takes b equal to the number: 2.828….',
    apply: () => ({ request: defaultArgument('hypot', 'b', jsonInt(0)) }),
  },
  {
    id: 'MATH-BIT-INT32',
    title: 'Bitwise folds work on 32-bit integers',
    breaks: ['FN-MATH-013'],
    area: 'core',
    description: 'BitXor(-1, 9223372036854775807) answers -1, as JavaScript\'s 32-bit operators would, where the real service works on 64 bits.',
    apply: () => ({
      json: rewriteResource(BIT_FOLDS, (resource, call, form) => {
        const operands = integerOperands(call, form);
        if (operands === undefined) return undefined;
        const in32 = operands.map((n) => Number(BigInt.asIntN(32, n))).reduce(INT32_OPERATIONS[form]!);
        return jsonNumber(resource) === in32 ? undefined : jsonInt(in32);
      }),
    }),
  },
  {
    id: 'MATH-BIT-DECIMAL-AS-INTEGER',
    title: 'Bitwise folds with a decimal operand answer an integer',
    breaks: ['FN-MATH-014'],
    area: 'core',
    description: 'BitAnd(5.5, 3) answers 1 where the real service answers the decimal 1.0.',
    apply: () => ({
      json: rewriteResource(BIT_FOLDS, (resource, call, form) => {
        const n = isJsonDecimal(resource) ? jsonNumber(resource)! : undefined;
        return n !== undefined && Number.isInteger(n) && Array.isArray(call[form]) ? jsonInt(n) : undefined;
      }),
    }),
  },
  {
    id: 'MATH-BITNOT-DECIMAL',
    title: 'BitNot of a decimal answers a decimal',
    breaks: ['FN-MATH-015'],
    area: 'core',
    description: 'BitNot(1.5) answers -2.0 where the real service answers the integer -2.',
    apply: () => ({
      json: rewriteResource(new Set(['bitnot']), (resource, call) => (isJsonDecimal(call.bitnot) && isJsonInteger(resource) ? jsonDecimal(jsonNumber(resource)!) : undefined)),
    }),
  },
  {
    id: 'MATH-BIT-EMPTY-ZERO',
    title: 'A bitwise fold of an empty array answers 0',
    breaks: ['FN-MATH-016'],
    area: 'core',
    description: 'BitAnd([]) answers 0 where the real service answers "Non-empty array expected.".',
    apply: () => ({ response: acceptInstead(BIT_FOLDS, (d) => d === 'Non-empty array expected.', jsonInt(0)) }),
  },
  {
    id: 'MATH-TRIG-IN-DEGREES',
    title: 'Sin, Cos and Tan take degrees',
    breaks: ['FN-MATH-017'],
    area: 'core',
    description: 'Sin(1) answers the sine of one degree where the real service takes radians.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'MATH-DEGREES-RADIANS-SWAPPED',
    title: 'Degrees and Radians are swapped',
    breaks: ['FN-MATH-019'],
    area: 'core',
    description: 'Degrees(2) answers 0.0349… (2° in radians) and Radians(180) answers 10313.2…, the two conversions exchanged.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'MATH-TYPE-ERROR-AT-CALL',
    title: 'A non-number argument is reported at the call',
    breaks: ['FN-MATH-020'],
    area: 'core',
    description: 'Sqrt("a") and Pow(2, "a") fail at [] instead of ["sqrt"] and ["exp"].',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => ctx.status === 400 && topForm(ctx, MATH_FORMS) !== undefined,
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (typeof error.description === 'string' && error.description.startsWith('Number expected') && Array.isArray(error.position) && error.position.length === 1) {
              error.position = [];
              changed++;
            }
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'MATH-PRECISION-CUT-TO-INTEGER',
    title: 'A decimal or null precision is accepted',
    breaks: ['FN-MATH-021'],
    area: 'core',
    description: 'Round(1.5, 1.0) answers 1.5 (the precision cut to an integer) and a null precision is taken as absent, where the real service answers "Integer expected, … provided.".',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'MATH-NONFINITE-AS-NULL',
    title: 'An infinite or NaN result answers null',
    breaks: ['FN-MATH-022'],
    area: 'core',
    description: 'Pow(0, -1) and Exp(1000) answer null where the real service answers the decimal written "Infinity".',
    apply: () => ({ json: rewriteResource(MATH_FORMS, (resource) => (typeof resource === 'string' && NON_FINITE.has(resource) ? null : undefined)) }),
  },
  {
    id: 'MATH-NAN-PASSES-DOMAIN',
    title: 'NaN passes the domain checks',
    breaks: ['FN-MATH-023'],
    area: 'core',
    description: 'Sqrt(NaN) answers NaN, as a check written `x < 0` lets it through, where the real service answers "NaN must be positive".',
    apply: () => ({ response: acceptInstead(MATH_FORMS, (d) => d.startsWith('NaN must be'), 'NaN') }),
  },
];
