/**
 * Pure evaluation of FQL subset expressions against values — predicates of `where()`, `map()` lambdas and
 * projections, applied to one document at a time. A document is a plain record `{id, coll, ts, …fields}`.
 * Nothing here reads or writes a store; run-time faults are FqlErrors with `invalid_null_access` or
 * `invalid_type`, which the event layer reports as error events.
 */
import { isObjectValue, type ObjectValue, type Value } from '../values/value.js';
import type { Expr, LambdaExpr, ProjectionField } from './ast.js';
import { FqlError, fqlErrorAt } from './fql-error.js';
import { compareValues, valuesEqual } from './value-comparison.js';

/** A one-argument function from a `where()`/`map()` argument: an explicit lambda or the short form `.a == 1`. */
export interface FqlFunction {
  /** Parameter names; empty for the short form, whose argument is implicit (`.field`). */
  readonly params: readonly string[];
  readonly body: Expr;
  readonly span: Expr['span'];
}

/** Variables in scope (query arguments, lambda parameters) and the implicit argument of `.field`. */
export interface EvaluationScope {
  readonly variables: ReadonlyMap<string, Value>;
  readonly implicit?: { readonly value: Value };
}

const NO_VARIABLES: ReadonlyMap<string, Value> = new Map();

export function emptyScope(variables: ReadonlyMap<string, Value> = NO_VARIABLES): EvaluationScope {
  return { variables };
}

/** True when the expression reads the implicit argument outside any nested lambda, i.e. is a short-form lambda body. */
export function usesImplicitArgument(expr: Expr): boolean {
  switch (expr.kind) {
    case 'implicit-field':
      return true;
    case 'literal':
    case 'identifier':
    case 'lambda':
      return false;
    case 'member':
      return usesImplicitArgument(expr.target);
    case 'index':
      return usesImplicitArgument(expr.target) || usesImplicitArgument(expr.index);
    case 'call':
      return usesImplicitArgument(expr.callee) || expr.args.some(usesImplicitArgument);
    case 'unary':
      return usesImplicitArgument(expr.operand);
    case 'binary':
      return usesImplicitArgument(expr.left) || usesImplicitArgument(expr.right);
    case 'array':
      return expr.elements.some(usesImplicitArgument);
    case 'object':
      return expr.entries.some((e) => usesImplicitArgument(e.value));
    case 'projection':
      return usesImplicitArgument(expr.target);
  }
}

/** The function an argument denotes: a lambda as written, or the short form when it uses `.field`. */
export function functionFromArgument(expr: Expr): FqlFunction | undefined {
  if (expr.kind === 'lambda') return lambdaFunction(expr);
  if (usesImplicitArgument(expr)) return { params: [], body: expr, span: expr.span };
  return undefined;
}

function lambdaFunction(expr: LambdaExpr): FqlFunction {
  return { params: expr.params, body: expr.body, span: expr.span };
}

/** Calls a one-argument function; the argument binds the parameter, or the implicit `.field` receiver. */
export function callFunction(fn: FqlFunction, arg: Value, variables: ReadonlyMap<string, Value> = NO_VARIABLES): Value {
  if (fn.params.length === 0) return evaluate(fn.body, { variables, implicit: { value: arg } });
  if (fn.params.length !== 1) {
    throw fqlErrorAt('invalid_argument', fn.span, `expected a function of one argument, this one takes ${fn.params.length}`);
  }
  const bound = new Map(variables);
  bound.set(fn.params[0] as string, arg);
  return evaluate(fn.body, { variables: bound });
}

/** Runs a `where()` predicate: true keeps the value; false and null drop it; anything else is an error. */
export function testPredicate(fn: FqlFunction, arg: Value, variables?: ReadonlyMap<string, Value>): boolean {
  const result = callFunction(fn, arg, variables);
  if (result === null || typeof result === 'boolean') return result === true;
  throw fqlErrorAt('invalid_type', fn.span, `a \`where()\` predicate must return a boolean, this one returned ${typeName(result)}`);
}

/** Applies a projection `{ a, b: .x, c { d } }` to a value; arrays are projected element by element. */
export function applyProjection(
  fields: readonly ProjectionField[],
  value: Value,
  variables: ReadonlyMap<string, Value> = NO_VARIABLES,
  span?: Expr['span'],
): Value {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => applyProjection(fields, item, variables, span));
  if (!isObjectValue(value)) {
    const message = `cannot project fields out of ${typeName(value)}`;
    throw span ? fqlErrorAt('invalid_type', span, message) : new FqlError('invalid_type', message);
  }
  const out: ObjectValue = {};
  for (const field of fields) {
    if (field.kind === 'copy') out[field.name] = value[field.name] ?? null;
    else if (field.kind === 'computed') out[field.name] = evaluate(field.value, { variables, implicit: { value } });
    else out[field.name] = applyProjection(field.fields, value[field.name] ?? null, variables, field.span);
  }
  return out;
}

/** The value at a field path, null where a field is missing or the path runs through a non-object. */
export function readPath(value: Value, path: readonly string[]): Value {
  let current: Value = value;
  for (const name of path) {
    if (!isObjectValue(current)) return null;
    current = current[name] ?? null;
  }
  return current;
}

export function evaluate(expr: Expr, scope: EvaluationScope): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'identifier': {
      const value = scope.variables.get(expr.name);
      if (value === undefined) throw fqlErrorAt('invalid_query', expr.span, `Unbound variable \`${expr.name}\``);
      return value;
    }
    case 'implicit-field':
      if (!scope.implicit) {
        throw fqlErrorAt('invalid_query', expr.span, `\`.${expr.name}\` needs an implicit argument; use it inside \`where()\`, \`map()\` or a projection`);
      }
      return readField(scope.implicit.value, expr.name, false, expr.span);
    case 'member':
      return readField(evaluate(expr.target, scope), expr.name, expr.optional, expr.nameSpan);
    case 'index':
      return readIndex(evaluate(expr.target, scope), evaluate(expr.index, scope), expr.span);
    case 'call':
      throw fqlErrorAt('invalid_query', expr.span, 'function calls are not supported inside predicates, lambdas and projections by this FQL subset');
    case 'lambda':
      throw fqlErrorAt('invalid_type', expr.span, 'a function cannot be used as a value here');
    case 'unary':
      return evaluateUnary(expr.operator, evaluate(expr.operand, scope), expr.span);
    case 'binary':
      return evaluateBinary(expr, scope);
    case 'array':
      return expr.elements.map((element) => evaluate(element, scope));
    case 'object': {
      const out: ObjectValue = {};
      for (const entry of expr.entries) out[entry.key] = evaluate(entry.value, scope);
      return out;
    }
    case 'projection':
      return applyProjection(expr.fields, evaluate(expr.target, scope), scope.variables, expr.span);
  }
}

function readField(target: Value, name: string, optional: boolean, span: Expr['span']): Value {
  if (target === null) {
    if (optional) return null;
    throw fqlErrorAt('invalid_null_access', span, `cannot access \`${name}\` on null`);
  }
  if (isObjectValue(target)) return target[name] ?? null;
  if (name === 'length' && Array.isArray(target)) return BigInt(target.length);
  if (name === 'length' && typeof target === 'string') return BigInt(target.length);
  throw fqlErrorAt('invalid_type', span, `${typeName(target)} has no field \`${name}\``);
}

function readIndex(target: Value, index: Value, span: Expr['span']): Value {
  if (target === null) throw fqlErrorAt('invalid_null_access', span, 'cannot index into null');
  if (Array.isArray(target) && typeof index === 'bigint') {
    const i = index < 0n ? BigInt(target.length) + index : index;
    return i >= 0n && i < BigInt(target.length) ? (target[Number(i)] as Value) : null;
  }
  if (isObjectValue(target) && typeof index === 'string') return target[index] ?? null;
  throw fqlErrorAt('invalid_type', span, `cannot index ${typeName(target)} with ${typeName(index)}`);
}

const INT64_MIN = -(2n ** 63n);

function evaluateUnary(operator: '!' | '-', operand: Value, span: Expr['span']): Value {
  if (operator === '!') {
    if (typeof operand !== 'boolean') throw fqlErrorAt('invalid_type', span, `\`!\` needs a boolean, got ${typeName(operand)}`);
    return !operand;
  }
  if (typeof operand === 'number') return -operand;
  if (typeof operand === 'bigint') {
    if (operand === INT64_MIN) throw fqlErrorAt('invalid_type', span, 'integer overflow');
    return -operand;
  }
  throw fqlErrorAt('invalid_type', span, `\`-\` needs a number, got ${typeName(operand)}`);
}

function evaluateBinary(expr: Extract<Expr, { kind: 'binary' }>, scope: EvaluationScope): Value {
  const left = evaluate(expr.left, scope);
  if (expr.operator === '&&' || expr.operator === '||') {
    const l = expectBoolean(left, expr.operator, expr.left.span);
    if (expr.operator === '&&' ? !l : l) return l;
    return expectBoolean(evaluate(expr.right, scope), expr.operator, expr.right.span);
  }
  const right = evaluate(expr.right, scope);
  switch (expr.operator) {
    case '==':
      return valuesEqual(left, right);
    case '!=':
      return !valuesEqual(left, right);
    default: {
      const order = compareValues(left, right);
      if (order === undefined || Number.isNaN(order)) return false;
      if (expr.operator === '<') return order < 0;
      if (expr.operator === '<=') return order <= 0;
      if (expr.operator === '>') return order > 0;
      return order >= 0;
    }
  }
}

function expectBoolean(value: Value, operator: string, span: Expr['span']): boolean {
  if (typeof value === 'boolean') return value;
  throw fqlErrorAt('invalid_type', span, `\`${operator}\` needs booleans, got ${typeName(value)}`);
}

/** The FQL type name of a value, for error messages. */
export function typeName(value: Value): string {
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'bigint') return 'Int';
  if (typeof value === 'number') return 'Double';
  if (Array.isArray(value)) return 'Array';
  if (isObjectValue(value)) return 'Object';
  return value.constructor.name === 'DateValue' ? 'Date' : value.constructor.name;
}
