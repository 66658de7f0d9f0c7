// The faults of spec/requirements/functions-numbers.md that are code; their rows (ids, titles, what they break) are in functions-numbers.json.
import type { FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import {
  hasErrorCode,
  onExpression,
  onJson,
  onResponse,
  rewriteExpression,
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

const ARITHMETIC = new Set(['add', 'subtract', 'multiply', 'divide', 'modulo', 'abs']);

const COMPARISONS = new Set(['lt', 'lte', 'gt', 'gte']);

const INT64_MIN = -(2n ** 63n);

const INT64_MAX = 2n ** 63n - 1n;

/** The form of the suite's top-level expression when it is one of `forms`. */
function topForm(context: { original: Parameters<typeof topLevelForm>[0] }, forms: ReadonlySet<string>): string | undefined {
  const form = topLevelForm(context.original);
  return form !== undefined && forms.has(form) ? form : undefined;
}

/** The operand list of the top-level `form` as the suite sent it: the array, or the lone value. */
function operands(expression: unknown, form: string): unknown[] | undefined {
  if (!isJsonObject(expression) || !(form in expression)) return undefined;
  const argument = expression[form];
  return Array.isArray(argument) ? argument : [argument];
}

/** The operands as integers when every one is an integer literal. */
function integerOperands(expression: unknown, form: string): bigint[] | undefined {
  const list = operands(expression, form);
  if (list === undefined || list.length === 0 || !list.every(isJsonInteger)) return undefined;
  return list.map((n) => BigInt((n as LosslessNumber).toString()));
}

/** Replaces `resource` of a 200 answer to a top-level form of `forms` by `replace(resource, expression, form)`, when that answers something. */
function rewriteResource(
  forms: ReadonlySet<string>,
  replace: (resource: unknown, expression: unknown, form: string) => unknown,
): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => context.status === 200 && isJsonObject(body) && 'resource' in body && topForm(context, forms) !== undefined,
    (body, context) => {
      const form = topForm(context, forms)!;
      const replacement = replace((body as JsonObject).resource, v4Expression(context.original), form);
      if (replacement === undefined) return false;
      (body as JsonObject).resource = replacement;
      return true;
    },
  );
}

/** 200 `{"resource": value}` in place of a v4 error answer whose first description `matches`, for a top-level form of `forms`. */
function acceptInstead(
  forms: ReadonlySet<string>,
  matches: (description: string) => boolean,
  value: (expression: unknown, form: string) => unknown,
): FaultHooks['response'] {
  let answer: unknown;
  return rewriteResponse(
    (res, ctx) => {
      const form = topForm(ctx, forms);
      if (res.status !== 400 || form === undefined) return false;
      const description = v4Errors(bodyJson(res))[0]?.description;
      if (typeof description !== 'string' || !matches(description)) return false;
      answer = value(v4Expression(ctx.original), form);
      return answer !== undefined;
    },
    (res) => withStatus(withJsonBody(res, { resource: answer }), 200),
  );
}

/** A request hook replacing every `{"<predicate>": x}` by `build(x)` (collected first, so the new objects are not revisited). */
function redefinePredicate(predicate: string, build: (argument: unknown) => JsonObject): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    const found: JsonObject[] = [];
    forEachObject(expression, (object) => {
      if (predicate in object && Object.keys(object).length === 1) found.push(object);
    });
    for (const object of found) {
      const argument = object[predicate];
      delete object[predicate];
      Object.assign(object, build(argument));
    }
    return found.length;
  });
}

/** Rank of a JSON literal's type in the SD's index order (integers … booleans, decimals, null); undefined for other values. */
function indexRank(value: unknown): number | undefined {
  if (value === null) return 12;
  if (typeof value === 'boolean') return 7;
  if (typeof value === 'string') return 1;
  if (isLosslessNumber(value)) return isJsonInteger(value) ? 0 : 8;
  if (Array.isArray(value)) return 2;
  return undefined;
}

const collator = new Intl.Collator('en');

/** Literal comparison in the index order; undefined when an operand is not a plain literal. */
function compareInIndexOrder(a: unknown, b: unknown): number | undefined {
  const ra = indexRank(a);
  const rb = indexRank(b);
  if (ra === undefined || rb === undefined) return undefined;
  if (ra !== rb) return ra - rb;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareInIndexOrder(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (isLosslessNumber(a) && isLosslessNumber(b)) return Math.sign(Number(a.toString()) - Number(b.toString()));
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return 0;
}

const HOLDS: Record<string, (order: number) => boolean> = {
  lt: (o) => o < 0,
  lte: (o) => o <= 0,
  gt: (o) => o > 0,
  gte: (o) => o >= 0,
};

/** The answer of a comparison of literal operands under `compare`, or undefined when it cannot be computed. */
function compareAll(expression: unknown, form: string, compare: (a: unknown, b: unknown) => number | undefined): boolean | undefined {
  const list = operands(expression, form);
  if (list === undefined || list.length < 2) return undefined;
  let answer = true;
  for (let i = 1; i < list.length; i++) {
    const order = compare(list[i - 1], list[i]);
    if (order === undefined) return undefined;
    answer &&= HOLDS[form]!(order);
  }
  return answer;
}

export const code: FaultCode = {
  'CMP-EQUALS-TYPED-NUMBERS': () => ({
    json: rewriteResource(new Set(['equals']), (resource, expression) => {
      const list = operands(expression, 'equals');
      const mixed = list?.some(isJsonInteger) && list.some((n) => isLosslessNumber(n) && !isJsonInteger(n));
      return mixed && resource === true ? false : undefined;
    }),
  }),
  'NUM-INTEGER-AS-DECIMAL': () => ({
    json: rewriteResource(ARITHMETIC, (resource) =>
      isJsonInteger(resource) ? jsonDecimal(Number((resource as LosslessNumber).toString())) : undefined,
    ),
  }),
  'NUM-NO-OVERFLOW-WRAP': () => ({
    json: rewriteResource(new Set(['add', 'subtract', 'multiply', 'divide']), (_resource, expression, form) => {
      const list = integerOperands(expression, form);
      if (list === undefined) return undefined;
      const exact = list.slice(1).reduce((acc, n) => {
        if (form === 'add') return acc + n;
        if (form === 'subtract') return acc - n;
        if (form === 'multiply') return acc * n;
        return n === 0n ? acc : acc / n;
      }, list[0]!);
      return exact < INT64_MIN || exact > INT64_MAX ? jsonDecimal(Number(exact)) : undefined;
    }),
  }),
  'NUM-FLOOR-DIVISION': () => ({
    json: rewriteResource(new Set(['divide', 'modulo']), (resource, expression, form) => {
      const list = integerOperands(expression, form);
      if (list === undefined || list.slice(1).includes(0n)) return undefined;
      const floored = list.slice(1).reduce((acc, n) => {
        const q = acc / n - (acc % n !== 0n && acc < 0n !== n < 0n ? 1n : 0n);
        return form === 'divide' ? q : acc - q * n;
      }, list[0]!);
      return isJsonInteger(resource) && BigInt((resource as LosslessNumber).toString()) === floored ? undefined : jsonInt(floored);
    }),
  }),
  'NUM-DIVIDE-BY-ZERO-NULL': () => ({
    response: acceptInstead(
      new Set(['divide', 'modulo']),
      (d) => d === 'Illegal division by zero.',
      () => null,
    ),
  }),
  'NUM-OPERAND-ERROR-AT-CALL': onJson(
    (body, ctx) => topForm(ctx, ARITHMETIC) !== undefined && hasErrorCode(body, 'invalid argument'),
    (body) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        if (
          typeof error.description === 'string' &&
          error.description.startsWith('Number expected') &&
          Array.isArray(error.position) &&
          error.position.length > 1
        ) {
          error.position = error.position.slice(0, -1);
          changed++;
        }
      }
      return changed;
    },
  ),
  'NUM-EMPTY-IS-IDENTITY': () => ({
    response: acceptInstead(
      new Set([...ARITHMETIC, ...COMPARISONS]),
      (d) => d === 'Non-empty array expected.',
      (_expression, form) => (COMPARISONS.has(form) ? true : jsonInt(form === 'multiply' || form === 'divide' ? 1 : 0)),
    ),
  }),
  'NUM-MAX-KEEPS-FIRST-TIE': onExpression((expression) => {
    const form = isJsonObject(expression) ? ['max', 'min'].find((f) => f in expression) : undefined;
    const list = form === undefined ? undefined : (expression as JsonObject)[form];
    if (!Array.isArray(list) || list.length < 2) return 0;
    list.reverse();
    return 1;
  }),
  'NUM-MAX-NO-SETS': onResponse(
    (res, ctx) => {
      const form = topForm(ctx, new Set(['max', 'min']));
      if (form === undefined || res.status !== 200) return false;
      let usesSet = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        if ('documents' in object || 'paginate' in object || 'match' in object) usesSet = true;
      });
      return usesSet;
    },
    (res, ctx) => {
      const form = topLevelForm(ctx.original)!;
      return withStatus(
        withJsonBody(res, { errors: [{ position: [form], code: 'invalid argument', description: 'Array expected, Set provided.' }] }),
        400,
      );
    },
  ),
  'NUM-MAX-OF-PAGE-BARE': () => ({
    json: rewriteResource(new Set(['max', 'min']), (resource) =>
      isJsonObject(resource) && Array.isArray(resource.data) && resource.data.length === 1 ? resource.data[0] : undefined,
    ),
  }),
  'NUM-MAX-OF-LONE-VALUE': () => ({
    response: acceptInstead(
      new Set(['max', 'min']),
      (d) => d.startsWith('Array, Set, or Page expected'),
      (expression, form) => (isJsonObject(expression) ? expression[form] : undefined),
    ),
  }),
  'CMP-SINGLE-OPERAND-FALSE': () => ({
    json: rewriteResource(COMPARISONS, (resource, expression, form) =>
      operands(expression, form)?.length === 1 && resource === true ? false : undefined,
    ),
  }),
  'CMP-INDEX-TYPE-ORDER': () => ({
    json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const answer = compareAll(expression, form, compareInIndexOrder);
      return answer === undefined || answer === resource ? undefined : answer;
    }),
  }),
  'CMP-IEEE-SIGNED-ZERO': () => ({
    json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const ieee = (a: unknown, b: unknown): number | undefined => {
        if (!isLosslessNumber(a) || !isLosslessNumber(b)) return undefined;
        const x = Number(a.toString());
        const y = Number(b.toString());
        return x < y ? -1 : x > y ? 1 : 0;
      };
      const answer = compareAll(expression, form, ieee);
      return answer === undefined || answer === resource ? undefined : answer;
    }),
  }),
  'CMP-STRINGS-BY-CODE-UNIT': () => ({
    json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const answer = compareAll(expression, form, (a, b) =>
        typeof a === 'string' && typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : undefined,
      );
      return answer === undefined || answer === resource ? undefined : answer;
    }),
  }),
  'CMP-UNRESOLVED-REF-ACCEPTED': onResponse(
    (res, ctx) =>
      res.status === 400 &&
      topForm(ctx, new Set([...COMPARISONS, 'max', 'min'])) !== undefined &&
      hasErrorCode(bodyJson(res), 'invalid ref'),
    (res) => withStatus(withJsonBody(res, { resource: true }), 200),
  ),
  'TYPE-IS-NUMBER-INTEGERS-ONLY': () => ({ request: redefinePredicate('is_number', (x) => ({ is_integer: x })) }),
  'TYPE-IS-TIMESTAMP-DATES': () => ({ request: redefinePredicate('is_timestamp', (x) => ({ or: [{ is_timestamp: x }, { is_date: x }] })) }),
  'TYPE-IS-OBJECT-NOT-DOCUMENTS': () => ({
    request: redefinePredicate('is_object', (x) => ({ and: [{ is_object: x }, { not: { is_doc: x } }] })),
  }),
  'TYPE-IS-REF-RESOLVED-ONLY': () => ({ request: redefinePredicate('is_ref', (x) => ({ and: [{ is_ref: x }, { is_doc: x }] })) }),
  'TYPE-IS-SET-NO-NATIVE': () => ({ request: redefinePredicate('is_set', (x) => ({ and: [{ is_set: x }, { not: { is_ref: x } }] })) }),
  'TYPE-IS-DOC-REFS-ONLY': () => ({ request: redefinePredicate('is_doc', (x) => ({ is_ref: x })) }),
  'TYPE-IS-LAMBDA-NEVER': () => ({ request: redefinePredicate('is_lambda', (x) => ({ and: [{ is_lambda: x }, false] })) }),
  'TYPE-IS-INTEGER-FAILS-ON-NON-NUMBERS': () => ({
    request: redefinePredicate('is_integer', (x) => ({
      if: { is_number: x },
      then: { is_integer: x },
      else: { abort: 'Number expected.' },
    })),
  }),
  'TYPE-IS-COLLECTION-REFS-ONLY': () => ({
    request: (req) =>
      redefinePredicate('is_collection', (x) => ({ and: [{ is_collection: x }, { is_ref: x }] }))!(req) ??
      redefinePredicate('is_index', (x) => ({ and: [{ is_index: x }, { is_ref: x }] }))!(req),
  }),
};
