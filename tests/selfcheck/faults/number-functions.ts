// Faults against the FQL v4 number, comparison and type-check functions (FN-NUM, FN-CMP, FN-TYPE;
// spec/requirements/functions-numbers.md). Each is a server that gets one thing plausibly wrong: doubles for integer
// arithmetic, unbounded integers, floor division, comparisons in the index order, and type predicates that are too
// narrow or too wide. The tests that catch them are in tests/conformance/core/functions/.
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import type { BufferedResponse, Fault, FaultHooks } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import { hasErrorCode, rewriteExpression, rewriteJson, rewriteResponse, topLevelForm, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

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
function rewriteResource(forms: ReadonlySet<string>, replace: (resource: unknown, expression: unknown, form: string) => unknown): FaultHooks['json'] {
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
function acceptInstead(forms: ReadonlySet<string>, matches: (description: string) => boolean, value: (expression: unknown, form: string) => unknown): FaultHooks['response'] {
  let answer: unknown;
  return rewriteResponse(
    (res, ctx) => {
      const form = topForm(ctx, forms);
      if (res.status !== 400 || form === undefined) return false;
      const description = v4Errors(parse(res))[0]?.description;
      if (typeof description !== 'string' || !matches(description)) return false;
      answer = value(v4Expression(ctx.original), form);
      return answer !== undefined;
    },
    (res) => withStatus(withJsonBody(res, { resource: answer }), 200),
  );
}

function parse(res: BufferedResponse): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
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

export const NUMBER_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'CMP-EQUALS-TYPED-NUMBERS',
    title: 'Equals finds an integer and a decimal of the same value different',
    breaks: ['FN-CMP-006'],
    area: 'core',
    description: 'A top-level `Equals` of number literals of both kinds (`Equals(1, 1.0)`) answers false, as by a server that compares every operand structurally.',
    apply: () => ({
      json: rewriteResource(new Set(['equals']), (resource, expression) => {
        const list = operands(expression, 'equals');
        const mixed = list !== undefined && list.some(isJsonInteger) && list.some((n) => isLosslessNumber(n) && !isJsonInteger(n));
        return mixed && resource === true ? false : undefined;
      }),
    }),
  },
  {
    id: 'NUM-INTEGER-AS-DECIMAL',
    title: 'Arithmetic on integers answers a decimal',
    breaks: ['FN-NUM-001', 'FN-NUM-002', 'FN-NUM-003', 'FN-NUM-009'],
    area: 'core',
    description: 'Add, Subtract, Multiply, Divide, Modulo and Abs answer 6.0 where the real service answers the integer 6, as a server computing with doubles would.',
    apply: () => ({ json: rewriteResource(ARITHMETIC, (resource) => (isJsonInteger(resource) ? jsonDecimal(Number((resource as LosslessNumber).toString())) : undefined)) }),
  },
  {
    id: 'NUM-NO-OVERFLOW-WRAP',
    title: 'Integer arithmetic does not wrap around at 64 bits',
    breaks: ['FN-NUM-004'],
    area: 'core',
    description: 'An integer result beyond 64 bits answers the exact value as a decimal instead of wrapping around, as a server with unbounded integers would.',
    apply: () => ({
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
  },
  {
    id: 'NUM-FLOOR-DIVISION',
    title: 'Integer Divide and Modulo round toward negative infinity',
    breaks: ['FN-NUM-005'],
    area: 'core',
    description: 'Divide(-7, 2) answers -4 and Modulo(-7, 2) answers 1 (floor division, the remainder taking the divisor\'s sign) where the real service truncates toward zero.',
    apply: () => ({
      json: rewriteResource(new Set(['divide', 'modulo']), (resource, expression, form) => {
        const list = integerOperands(expression, form);
        if (list === undefined || list.slice(1).includes(0n)) return undefined;
        const floored = list.slice(1).reduce((acc, n) => {
          const q = acc / n - ((acc % n !== 0n) && (acc < 0n) !== (n < 0n) ? 1n : 0n);
          return form === 'divide' ? q : acc - q * n;
        }, list[0]!);
        return isJsonInteger(resource) && BigInt((resource as LosslessNumber).toString()) === floored ? undefined : jsonInt(floored);
      }),
    }),
  },
  {
    id: 'NUM-DIVIDE-BY-ZERO-NULL',
    title: 'Division by zero answers null',
    breaks: ['FN-NUM-006'],
    area: 'core',
    description: 'Divide and Modulo by zero answer 200 with null instead of 400 invalid argument "Illegal division by zero.".',
    apply: () => ({ response: acceptInstead(new Set(['divide', 'modulo']), (d) => d === 'Illegal division by zero.', () => null) }),
  },
  {
    id: 'NUM-OPERAND-ERROR-AT-CALL',
    title: 'A non-number operand is reported at the argument, not at the operand',
    breaks: ['FN-NUM-007'],
    area: 'core',
    description: 'Add(1, "a") fails at ["add"] instead of ["add", 1].',
    apply: () => ({
      json: rewriteJson(
        (body, ctx) => topForm(ctx, ARITHMETIC) !== undefined && hasErrorCode(body, 'invalid argument'),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (typeof error.description === 'string' && error.description.startsWith('Number expected') && Array.isArray(error.position) && error.position.length > 1) {
              error.position = error.position.slice(0, -1);
              changed++;
            }
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'NUM-EMPTY-IS-IDENTITY',
    title: 'An empty operand list answers the identity instead of an error',
    breaks: ['FN-NUM-008'],
    area: 'core',
    description: 'Add([]) answers 0, Multiply([]) 1 and LT([]) true, as a fold from the identity would, where the real service answers "Non-empty array expected.".',
    apply: () => ({
      response: acceptInstead(new Set([...ARITHMETIC, ...COMPARISONS]), (d) => d === 'Non-empty array expected.', (_expression, form) =>
        COMPARISONS.has(form) ? true : jsonInt(form === 'multiply' || form === 'divide' ? 1 : 0),
      ),
    }),
  },
  {
    id: 'NUM-MAX-KEEPS-FIRST-TIE',
    title: 'Max and Min keep the first of equal values',
    breaks: ['FN-NUM-010'],
    area: 'core',
    description: 'Max(1, 1.0) answers 1 where the real service answers the later value, 1.0 (the operand list is reversed, which changes only ties).',
    apply: () => ({
      request: rewriteExpression((expression) => {
        const form = isJsonObject(expression) ? ['max', 'min'].find((f) => f in expression) : undefined;
        const list = form === undefined ? undefined : (expression as JsonObject)[form];
        if (!Array.isArray(list) || list.length < 2) return 0;
        list.reverse();
        return 1;
      }),
    }),
  },
  {
    id: 'NUM-MAX-NO-SETS',
    title: 'Max and Min refuse sets and pages',
    breaks: ['FN-NUM-011'],
    area: 'core',
    description: 'Max(Documents(c)) and Max(Paginate(…)) fail with "Array expected, Set provided." as a server that reduces arrays only would.',
    apply: () => ({
      response: rewriteResponse(
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
          return withStatus(withJsonBody(res, { errors: [{ position: [form], code: 'invalid argument', description: 'Array expected, Set provided.' }] }), 400);
        },
      ),
    }),
  },
  {
    id: 'NUM-MAX-OF-PAGE-BARE',
    title: 'Max and Min of a page answer the bare element',
    breaks: ['FN-NUM-011'],
    area: 'core',
    description: 'Max(Paginate(…)) answers the greatest element itself where the real service answers a page holding it, with the page\'s cursors, as every fold of a page does.',
    apply: () => ({
      json: rewriteResource(new Set(['max', 'min']), (resource) =>
        isJsonObject(resource) && Array.isArray(resource['data']) && resource['data'].length === 1 ? resource['data'][0] : undefined,
      ),
    }),
  },
  {
    id: 'NUM-MAX-OF-LONE-VALUE',
    title: 'Max and Min of a lone value answer that value',
    breaks: ['FN-NUM-012'],
    area: 'core',
    description: 'Max(5) answers 5 where the real service refuses a value that is not an array, set or page.',
    apply: () => ({
      response: acceptInstead(new Set(['max', 'min']), (d) => d.startsWith('Array, Set, or Page expected'), (expression, form) =>
        isJsonObject(expression) ? expression[form] : undefined,
      ),
    }),
  },
  {
    id: 'CMP-SINGLE-OPERAND-FALSE',
    title: 'A comparison of one operand answers false',
    breaks: ['FN-CMP-001'],
    area: 'core',
    description: 'LT(5) answers false (no pair is in order) where the real service answers true.',
    apply: () => ({ json: rewriteResource(COMPARISONS, (resource, expression, form) => (operands(expression, form)?.length === 1 && resource === true ? false : undefined)) }),
  },
  {
    id: 'CMP-INDEX-TYPE-ORDER',
    title: 'Comparisons use the index order, where decimals sort after booleans',
    breaks: ['FN-CMP-002', 'FN-CMP-003'],
    area: 'core',
    description: 'LT(1, 1.5, 2) answers false because integers and decimals are compared as different types in the SD\'s index order, where the real service compares them as numbers.',
    apply: () => ({ json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const answer = compareAll(expression, form, compareInIndexOrder);
      return answer === undefined || answer === resource ? undefined : answer;
    }) }),
  },
  {
    id: 'CMP-IEEE-SIGNED-ZERO',
    title: 'Comparisons of numbers use IEEE operators, so -0.0 equals 0',
    breaks: ['FN-CMP-002'],
    area: 'core',
    description: 'LT(-0.0, 0) answers false and LTE(0, -0.0) true, as comparisons with IEEE < and == would, where the real service orders numbers as Java\'s Double.compare does (-0.0 before 0).',
    apply: () => ({ json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const ieee = (a: unknown, b: unknown): number | undefined => {
        if (!isLosslessNumber(a) || !isLosslessNumber(b)) return undefined;
        const x = Number(a.toString());
        const y = Number(b.toString());
        return x < y ? -1 : x > y ? 1 : 0;
      };
      const answer = compareAll(expression, form, ieee);
      return answer === undefined || answer === resource ? undefined : answer;
    }) }),
  },
  {
    id: 'CMP-STRINGS-BY-CODE-UNIT',
    title: 'Comparisons order strings by UTF-16 code units',
    breaks: ['FN-CMP-004'],
    area: 'core',
    description: 'LT("a", "B") answers false (code unit order puts upper case first) where the real service collates, answering true.',
    apply: () => ({ json: rewriteResource(COMPARISONS, (resource, expression, form) => {
      const answer = compareAll(expression, form, (a, b) => (typeof a === 'string' && typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : undefined));
      return answer === undefined || answer === resource ? undefined : answer;
    }) }),
  },
  {
    id: 'CMP-UNRESOLVED-REF-ACCEPTED',
    title: 'Comparisons, Max and Min accept refs to missing collections',
    breaks: ['FN-CMP-005'],
    area: 'core',
    description: 'LT(Collection("missing")) answers true where the real service answers invalid ref "Ref refers to undefined collection \'missing\'".',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 400 && topForm(ctx, new Set([...COMPARISONS, 'max', 'min'])) !== undefined && hasErrorCode(parse(res), 'invalid ref'),
        (res) => withStatus(withJsonBody(res, { resource: true }), 200),
      ),
    }),
  },
  {
    id: 'TYPE-IS-NUMBER-INTEGERS-ONLY',
    title: 'IsNumber is false for decimals',
    breaks: ['FN-TYPE-001'],
    area: 'core',
    description: 'IsNumber(3.14) answers false, as a server that takes IsNumber for IsInteger would.',
    apply: () => ({ request: redefinePredicate('is_number', (x) => ({ is_integer: x })) }),
  },
  {
    id: 'TYPE-IS-TIMESTAMP-DATES',
    title: 'IsTimestamp is true for dates too',
    breaks: ['FN-TYPE-002'],
    area: 'core',
    description: 'IsTimestamp(Date("1970-01-01")) answers true, as a server with one temporal type would.',
    apply: () => ({ request: redefinePredicate('is_timestamp', (x) => ({ or: [{ is_timestamp: x }, { is_date: x }] })) }),
  },
  {
    id: 'TYPE-IS-OBJECT-NOT-DOCUMENTS',
    title: 'IsObject is false for documents',
    breaks: ['FN-TYPE-003'],
    area: 'core',
    description: 'IsObject(Get(ref)) answers false, as a server that keeps documents apart from objects would.',
    apply: () => ({ request: redefinePredicate('is_object', (x) => ({ and: [{ is_object: x }, { not: { is_doc: x } }] })) }),
  },
  {
    id: 'TYPE-IS-REF-RESOLVED-ONLY',
    title: 'IsRef is false for refs to missing collections',
    breaks: ['FN-TYPE-004'],
    area: 'core',
    description: 'IsRef(Collection("missing")) answers false where the real service answers true for every ref.',
    apply: () => ({ request: redefinePredicate('is_ref', (x) => ({ and: [{ is_ref: x }, { is_doc: x }] })) }),
  },
  {
    id: 'TYPE-IS-SET-NO-NATIVE',
    title: 'IsSet is false for native collection refs',
    breaks: ['FN-TYPE-005'],
    area: 'core',
    description: 'IsSet(Collections()) answers false where the real service takes a native collection for the set of its records.',
    apply: () => ({ request: redefinePredicate('is_set', (x) => ({ and: [{ is_set: x }, { not: { is_ref: x } }] })) }),
  },
  {
    id: 'TYPE-IS-DOC-REFS-ONLY',
    title: 'IsDoc is true for refs only',
    breaks: ['FN-TYPE-006'],
    area: 'core',
    description: 'IsDoc(Get(ref)) answers false and IsDoc(Collection("missing")) true, as a server that takes IsDoc for IsRef would.',
    apply: () => ({ request: redefinePredicate('is_doc', (x) => ({ is_ref: x })) }),
  },
  {
    id: 'TYPE-IS-LAMBDA-NEVER',
    title: 'IsLambda is false for stored queries',
    breaks: ['FN-TYPE-007'],
    area: 'core',
    description: 'IsLambda(Query(Lambda("x", Var("x")))) answers false, as a server that has no lambda values would.',
    apply: () => ({ request: redefinePredicate('is_lambda', (x) => ({ and: [{ is_lambda: x }, false] })) }),
  },
  {
    id: 'TYPE-IS-INTEGER-FAILS-ON-NON-NUMBERS',
    title: 'IsInteger fails for a value that is not a number',
    breaks: ['FN-TYPE-009'],
    area: 'core',
    description: 'IsInteger("a") fails instead of answering false, as a server that casts the argument first would.',
    apply: () => ({ request: redefinePredicate('is_integer', (x) => ({ if: { is_number: x }, then: { is_integer: x }, else: { abort: 'Number expected.' } })) }),
  },
  {
    id: 'TYPE-IS-COLLECTION-REFS-ONLY',
    title: 'IsCollection and IsIndex are false for the records Get answers',
    breaks: ['FN-TYPE-008'],
    area: 'core',
    description: 'IsCollection(Get(Collection("c"))) answers false where the real service recognises the record as well as its ref.',
    apply: () => ({
      request: (req) =>
        redefinePredicate('is_collection', (x) => ({ and: [{ is_collection: x }, { is_ref: x }] }))!(req) ??
        redefinePredicate('is_index', (x) => ({ and: [{ is_index: x }, { is_ref: x }] }))!(req),
    }),
  },
  {
    id: 'TYPE-OWN-CREDENTIALS-DENIED',
    title: 'A token may not read its own credentials',
    breaks: ['FN-TYPE-010'],
    area: 'core',
    description: 'Get(Ref("credentials/self")) with a token answers 403 permission denied, as a server that keeps credentials records but does not give an identity its baseline right to read its own would.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status !== 403 && JSON.stringify(v4Expression(ctx.original) ?? null) === '{"get":{"@ref":"credentials/self"}}',
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }), 403),
      ),
    }),
  },
];
