/**
 * Evaluation of FQL v10 as the real service runs a query without typechecking (fauna/faunadb
 * `runtime/fql2/FQLInterpreter.scala`): names are looked up when they are reached (an unknown one is the run-time
 * error `unbound_variable`), methods are found on the receiver's type when called, and run-time errors carry the
 * span the real service points at (a call's argument list, a field's name, an identifier). Documents are read and
 * written through the v4 evaluation context (`eval/`), so access rules, write limits and history are the v4 API's.
 */
import { DateValue, setField, Time } from '../../values/value.js';
import { QueryError } from '../../errors/query-error.js';
import type { EvalContext } from '../../eval/context.js';
import type { BinaryExpr, Expr, LambdaExpr, ProjectionField } from '../ast.js';
import { FqlError, runtimeError } from '../fql-error.js';
import type { SourceSpan } from '../source-position.js';
import { compareFql, compareSync, equalFql } from './compare.js';
import { convertV4Error, DocumentAccess } from './documents.js';
import type { EventSourceSpec } from './event-source-plan.js';
import { FqlSet, readSet, type ReadLimit, type SetReader, type StoredSource } from './sets.js';
import { globalValue, methodOf, moduleCall, type MethodCall } from './stdlib.js';
import { displayString } from './strings.js';
import {
  DocRef,
  Env,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  isNullish,
  Lambda,
  moduleNameOf,
  NativeFunction,
  NullWithCause,
  typeNameOf,
  type FqlCallable,
  type FqlObject,
  type FqlValue,
} from './values.js';

/** What the interpreter needs from where it runs: a `/query/1` request, or an event being made. */
export interface RuntimeHost {
  /** The v4 evaluation context: transaction, database, identity, services, deadline. */
  readonly ctx: EvalContext;
  /** The transaction's time (`Time.now()`). */
  readonly now: Time;
  /** Issues a token for an event source the query creates; undefined where sources cannot be created. */
  readonly issueEventSource?: (spec: EventSourceSpec, span: SourceSpan) => Promise<string>;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export class Interpreter implements SetReader {
  readonly documents: DocumentAccess;

  constructor(readonly host: RuntimeHost) {
    this.documents = new DocumentAccess(host.ctx);
  }

  get ctx(): EvalContext {
    return this.host.ctx;
  }

  /** Evaluates a query with its arguments in scope. */
  run(expr: Expr, variables: ReadonlyMap<string, FqlValue>): Promise<FqlValue> {
    return this.evaluate(expr, Env.of(variables));
  }

  async evaluate(expr: Expr, env: Env): Promise<FqlValue> {
    this.ctx.limits.step();
    switch (expr.kind) {
      case 'literal':
        return this.documents.fromStored(expr.value);
      // Implements: FQL-EXPR-011
      case 'template': {
        let text = '';
        for (const part of expr.parts) text += typeof part === 'string' ? part : await displayString(this, await this.evaluate(part, env));
        return text;
      }
      // Implements: FQL-ERR-002
      case 'identifier': {
        const bound = env.lookup(expr.name);
        if (bound !== undefined) return bound;
        const global = globalValue(this, expr.name);
        if (global !== undefined) return global;
        throw runtimeError('unbound_variable', expr.span, `Unbound variable \`${expr.name}\``);
      }
      case 'this':
        if (env.self === undefined) throw runtimeError('invalid_query', expr.span, 'Short form lambdas are not allowed here');
        return env.self.value;
      // Implements: FQL-EXPR-010
      case 'member': {
        const target = await this.evaluate(expr.target, env);
        if (expr.optional && (await this.isNull(target))) return null;
        return this.getField(target, expr.name, expr.nameSpan);
      }
      case 'index': {
        const target = await this.evaluate(expr.target, env);
        if (expr.optional && (await this.isNull(target))) return null;
        return this.access(target, await this.evaluate(expr.index, env), expr.span);
      }
      case 'call':
        return this.evaluateCall(expr, env);
      case 'non-null': {
        const value = await this.evaluate(expr.target, env);
        await this.requireNonNull(value, expr.span);
        return value;
      }
      case 'unary':
        return this.unary(expr.operator, await this.evaluate(expr.operand, env), expr.span);
      case 'binary':
        return this.binary(expr, env);
      // Implements: FQL-EXPR-009
      case 'lambda':
        return new Lambda(expr, env);
      // Implements: FQL-EXPR-010
      case 'array': {
        const out: FqlValue[] = [];
        for (const element of expr.elements) out.push(await this.evaluate(element, env));
        return out;
      }
      case 'object': {
        const out: FqlObject = {};
        for (const entry of expr.entries) setField(out, entry.key, await this.evaluate(entry.value, env));
        return out;
      }
      // Implements: FQL-EXPR-007
      case 'block': {
        let scope = env;
        let last: FqlValue = null;
        for (const statement of expr.statements) {
          if (statement.kind === 'let') scope = scope.with(statement.name, await this.evaluate(statement.value, scope));
          else last = await this.evaluate(statement.expr, scope);
        }
        return last;
      }
      // Implements: FQL-EXPR-008
      case 'if': {
        const condition = await this.evaluate(expr.condition, env);
        if (typeof condition !== 'boolean') throw typeMismatch('Boolean', condition, expr.condition.span);
        if (condition) return this.evaluate(expr.then, env);
        return expr.otherwise === undefined ? null : this.evaluate(expr.otherwise, env);
      }
      case 'at': {
        const time = await this.evaluate(expr.time, env);
        if (!(time instanceof Time)) throw typeMismatch('Time', time, expr.time.span);
        const earlier = new Interpreter({ ...this.host, ctx: this.ctx.readingAt(time.micros) });
        return earlier.evaluate(expr.body, env);
      }
      // Implements: FQL-EXPR-010
      case 'projection':
        return this.project(await this.evaluate(expr.target, env), expr.fields, env, expr.span);
    }
  }

  /** A value is null when it is null, or a document that does not exist. */
  async isNull(value: FqlValue): Promise<boolean> {
    if (isNullish(value)) return true;
    return value instanceof DocRef && !(await this.documents.exists(value));
  }

  // Implements: FQL-ERR-005, FQL-ERR-007
  /** Throws the error `!` raises on a null: the missing document's, else `null_value`. */
  async requireNonNull(value: FqlValue, span: SourceSpan): Promise<void> {
    if (value instanceof DocRef) {
      if (!(await this.documents.exists(value))) throw this.documents.notFound(value, span);
      return;
    }
    if (value instanceof NullWithCause && value.cause.kind === 'missing-document') throw this.documents.notFound(value.cause.doc, span);
    if (isNullish(value)) throw runtimeError('null_value', span, 'Null literal value');
  }

  // Implements: FQL-ERR-005, FQL-ERR-006
  private nullAccess(value: null | NullWithCause, name: string, span: SourceSpan): FqlError {
    if (value instanceof NullWithCause && value.cause.kind === 'missing-document') return this.documents.notFound(value.cause.doc, span);
    return runtimeError('invalid_null_access', span, `Cannot access \`${name}\` on null.`);
  }

  /** `target.name`: a field of an object or a document, or a value's own (`length`, a time's `year`, …). */
  async getField(target: FqlValue, name: string, span: SourceSpan): Promise<FqlValue> {
    if (isNullish(target)) throw this.nullAccess(target, name, span);
    if (target instanceof DocRef) {
      // A reference knows its id (its name) and collection without a read: they stay readable after a delete (FQL2DocSpec).
      if (name === (target.named ? 'name' : 'id')) return target.id;
      if (name === 'coll')
        return new FqlModule(moduleNameOf(target.collection), target.collection.kind === 'user' ? target.collection.name : undefined);
      const fields = await this.documents.fields(target, span);
      return fields[name] ?? null;
    }
    if (isFqlObject(target)) return Object.hasOwn(target, name) ? (target[name] as FqlValue) : null;
    if ((typeof target === 'string' || Array.isArray(target)) && name === 'length') return BigInt(target.length);
    if (target instanceof Time || target instanceof DateValue) return timeField(target, name);
    if (target instanceof FqlModule) return moduleField(target, name);
    return null;
  }

  /** `target[index]`: an array element (a negative index is an error, as is one past the end) or an object field. */
  async access(target: FqlValue, index: FqlValue, span: SourceSpan): Promise<FqlValue> {
    if (isNullish(target)) throw this.nullAccess(target, String(index), span);
    if (Array.isArray(target)) {
      if (typeof index !== 'bigint') throw invalidArgumentType('index', 'Int', index, span);
      if (index < 0n || index >= BigInt(target.length))
        throw runtimeError('index_out_of_bounds', span, `index ${index} out of bounds for length ${target.length}`);
      return target[Number(index)] as FqlValue;
    }
    if (typeof index === 'string') return this.getField(target, index, span);
    throw invalidArgumentType('key', 'String', index, span);
  }

  private async evaluateCall(expr: Extract<Expr, { kind: 'call' }>, env: Env): Promise<FqlValue> {
    const callee = expr.callee;
    if (callee.kind === 'member') {
      const receiver = await this.evaluate(callee.target, env);
      if (callee.optional && (await this.isNull(receiver))) return null;
      const args = await this.evaluateArgs(expr.args, env);
      return this.callMethod(receiver, callee.name, args, {
        span: expr.argsSpan,
        nameSpan: callee.nameSpan,
        argSpans: expr.args.map((arg) => arg.span),
      });
    }
    const fn = await this.evaluate(callee, env);
    if (expr.optional && (await this.isNull(fn))) return null;
    const args = await this.evaluateArgs(expr.args, env);
    return this.callValue(fn, args, { span: expr.argsSpan, nameSpan: callee.span, argSpans: expr.args.map((arg) => arg.span) });
  }

  private async evaluateArgs(args: readonly Expr[], env: Env): Promise<FqlValue[]> {
    const values: FqlValue[] = [];
    for (const arg of args) values.push(await this.evaluate(arg, env));
    return values;
  }

  /** `receiver.name(args)`: the type's method, or a field holding a function. */
  // Implements: FQL-ERR-003
  async callMethod(receiver: FqlValue, name: string, args: readonly FqlValue[], call: MethodCall): Promise<FqlValue> {
    if (isNullish(receiver)) {
      // Null has `toString()` (FQL2StringSpec "concatenates null values"); anything else on it is a null access.
      if (name === 'toString' && args.length === 0 && receiver === null) return 'null';
      throw this.nullAccess(receiver, name, call.nameSpan);
    }
    const method = methodOf(this, receiver, name);
    if (method !== undefined) {
      checkArity(method.arity, args.length, call.span);
      return this.guard(() => method.call(args, call), call.span);
    }
    const field = await this.getField(receiver, name, call.nameSpan);
    if (field instanceof Lambda || field instanceof NativeFunction) return this.callValue(field, args, call);
    if (isNullish(field))
      throw runtimeError(
        'invalid_function_invocation',
        call.nameSpan,
        `The function \`${name}\` does not exist on \`${typeNameOf(receiver)}\``,
      );
    throw runtimeError('invalid_function_invocation', call.nameSpan, `\`${name}\`: Expected a function, found \`${typeNameOf(field)}\``);
  }

  /** Calls a function value (a lambda, a native function, or a callable module such as `Time` or `Product`). */
  async callValue(fn: FqlValue, args: readonly FqlValue[], call: MethodCall): Promise<FqlValue> {
    if (fn instanceof Lambda) return this.callLambda(fn, args, call.span);
    if (fn instanceof NativeFunction) return this.guard(() => fn.implementation(args, call), call.span);
    if (fn instanceof FqlModule) {
      const result = moduleCall(fn, args, call);
      if (result !== undefined) return this.guard(() => result, call.span);
    }
    throw runtimeError('invalid_function_invocation', call.nameSpan, `\`${typeNameOf(fn)}\` is not a function`);
  }

  // Implements: FQL-EXPR-009
  async callLambda(fn: Lambda, args: readonly FqlValue[], span: SourceSpan): Promise<FqlValue> {
    const expr: LambdaExpr = fn.expr;
    const arity = expr.short ? 1 : expr.params.length;
    if (args.length !== arity) {
      throw runtimeError(
        'invalid_function_invocation',
        span,
        `callee function expects ${arityText(arity)}, but ${args.length} ${args.length === 1 ? 'was' : 'were'} provided.`,
      );
    }
    if (expr.short) return this.evaluate(expr.body, fn.closure.withThis(args[0] as FqlValue));
    const bound = new Map<string, FqlValue>();
    expr.params.forEach((param, i) => {
      if (param !== null) bound.set(param, args[i] as FqlValue);
    });
    return this.evaluate(expr.body, fn.closure.withAll(bound));
  }

  /** Calls any function value with the arguments; used by set operations and methods taking functions. */
  call(fn: FqlCallable, args: readonly FqlValue[], span: SourceSpan): Promise<FqlValue> {
    return this.callValue(fn, args, { span, nameSpan: span, argSpans: [] });
  }

  /** Runs a native step, reporting a v4 error (an access refusal, a failed check) as the v10 error at `span`. */
  private async guard(step: () => FqlValue | Promise<FqlValue>, span: SourceSpan): Promise<FqlValue> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof FqlError) throw error.at(span);
      if (error instanceof QueryError) throw convertV4Error(error, span);
      throw error;
    }
  }

  // ------------------------------------------------------------------------------------------ operators

  // Implements: FQL-EXPR-006
  private unary(operator: '!' | '-' | '~', operand: FqlValue, span: SourceSpan): FqlValue {
    if (operator === '!') {
      if (typeof operand !== 'boolean') throw functionMissing('!', operand, span);
      return !operand;
    }
    if (operator === '-') {
      if (typeof operand === 'number') return -operand;
      if (typeof operand === 'bigint') return widened(-operand);
      throw functionMissing('-', operand, span);
    }
    if (typeof operand !== 'bigint') throw functionMissing('~', operand, span);
    return ~operand;
  }

  // Implements: FQL-EXPR-004, FQL-EXPR-005, FQL-EXPR-006
  private async binary(expr: BinaryExpr, env: Env): Promise<FqlValue> {
    const left = await this.evaluate(expr.left, env);
    switch (expr.operator) {
      case '??':
        return (await this.isNull(left)) ? this.evaluate(expr.right, env) : left;
      case '&&':
      case '||': {
        if (typeof left !== 'boolean') throw functionMissing(expr.operator, left, expr.operatorSpan);
        if (expr.operator === '&&' ? !left : left) return left;
        const right = await this.evaluate(expr.right, env);
        if (typeof right !== 'boolean') throw invalidArgumentType('other', 'Boolean', right, expr.right.span);
        return right;
      }
      default:
        break;
    }
    const right = await this.evaluate(expr.right, env);
    switch (expr.operator) {
      case '==':
        return this.equal(left, right);
      case '!=':
        return !(await this.equal(left, right));
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const order = compareFql(left, right, false);
        if (order === undefined) return false;
        if (expr.operator === '<') return order < 0;
        if (expr.operator === '<=') return order <= 0;
        if (expr.operator === '>') return order > 0;
        return order >= 0;
      }
      case 'isa':
        return isA(left, right, expr.right.span);
      case '+':
        if (typeof left === 'string') return left + (await displayString(this, right));
        return arithmetic('+', left, right, expr.right.span);
      default:
        return arithmetic(expr.operator, left, right, expr.right.span);
    }
  }

  // ------------------------------------------------------------------------------------------ SetReader

  step(): void {
    this.ctx.limits.step();
  }

  readSource(source: StoredSource): Promise<FqlValue[]> {
    return this.documents.readSource(this, source);
  }

  predicate(result: FqlValue, span: SourceSpan): boolean {
    if (result === null || result instanceof NullWithCause) return false;
    if (typeof result === 'boolean') return result;
    throw runtimeError('invalid_type', span, `expected type: Boolean, received ${typeNameOf(result)}`);
  }

  /** A projection: each field computed with the value as `this`; arrays and sets are projected element by element. */
  async project(value: FqlValue, fields: readonly ProjectionField[], env: Env, span: SourceSpan): Promise<FqlValue> {
    if (await this.isNull(value)) return isNullish(value) ? value : null;
    if (Array.isArray(value)) {
      const out: FqlValue[] = [];
      for (const item of value) out.push(await this.project(item, fields, env, span));
      return out;
    }
    if (value instanceof FqlSet) return value.with({ kind: 'project', fields, env, span });
    if (!isFqlObject(value) && !(value instanceof DocRef))
      throw runtimeError('invalid_type', span, `cannot project fields out of ${typeNameOf(value)}`);
    const scope = env.withThis(value);
    const out: FqlObject = {};
    for (const field of fields) setField(out, field.name, await this.evaluate(field.value, scope));
    return out;
  }

  async elementsOf(value: FqlValue, span: SourceSpan): Promise<FqlValue[]> {
    if (Array.isArray(value)) return value;
    if (value instanceof FqlSet) return readSet(value, this);
    throw invalidArgumentType('mapper', 'Array | Set', value, span);
  }

  async compare(a: FqlValue, b: FqlValue): Promise<number> {
    return compareSync(a, b);
  }

  equal(a: FqlValue, b: FqlValue): Promise<boolean> {
    return equalFql(this, a, b);
  }

  /** Reads every element of a set; past `limit`, `value_too_large`. */
  elements(set: FqlSet, limit?: ReadLimit): Promise<FqlValue[]> {
    return readSet(set, this, limit);
  }

  /** The event source made from the spec (its token issued now). */
  async eventSource(spec: EventSourceSpec, span: SourceSpan): Promise<EventSourceValue> {
    if (this.host.issueEventSource === undefined) throw runtimeError('invalid_receiver', span, 'event sources cannot be created here');
    return new EventSourceValue(await this.host.issueEventSource(spec, span), spec.collection, spec);
  }
}

function arityText(count: number): string {
  return count === 0 ? 'no arguments' : count === 1 ? 'exactly 1 argument' : `exactly ${count} arguments`;
}

/** A method's arity: exactly n, or from min to max (max undefined: any number). */
export type Arity = number | readonly [number, number | undefined];

export function checkArity(arity: Arity, given: number, span: SourceSpan): void {
  const [min, max] = typeof arity === 'number' ? [arity, arity] : arity;
  if (given >= min && (max === undefined || given <= max)) return;
  let expected: string;
  if (min === max) expected = arityText(min);
  else if (max === undefined) expected = min === 1 ? 'at least 1 argument' : `at least ${min} arguments`;
  else
    expected = `${Array.from({ length: max - min + 1 }, (_, i) => min + i)
      .join(', ')
      .replace(/, (\d+)$/, ' or $1')} arguments`;
  throw runtimeError(
    'invalid_function_invocation',
    span,
    `callee function expects ${expected}, but ${given} ${given === 1 ? 'was' : 'were'} provided.`,
  );
}

function typeMismatch(expected: string, value: FqlValue, span: SourceSpan): FqlError {
  return runtimeError('type_mismatch', span, `expected type: ${expected}, received ${typeNameOf(value)}`);
}

// Implements: FQL-ERR-004
export function invalidArgumentType(name: string, expected: string, value: FqlValue, span: SourceSpan): FqlError {
  return runtimeError('invalid_argument', span, `expected value for \`${name}\` of type ${expected}, received ${typeNameOf(value)}`);
}

function functionMissing(name: string, receiver: FqlValue, span: SourceSpan): FqlError {
  return runtimeError('invalid_function_invocation', span, `The function \`${name}\` does not exist on \`${typeNameOf(receiver)}\``);
}

/** An integer result past 64 bits becomes a double, as the real service's Long arithmetic overflows to Double. */
function widened(value: bigint): bigint | number {
  return value < INT64_MIN || value > INT64_MAX ? Number(value) : value;
}

/** Arithmetic and bitwise operators; their errors point at the right operand, as the real service's do. */
// Implements: FQL-EXPR-001, FQL-EXPR-003, FQL-EXPR-011, FQL-ERR-004
function arithmetic(operator: string, left: FqlValue, right: FqlValue, span: SourceSpan): FqlValue {
  if (typeof left !== 'bigint' && typeof left !== 'number') throw functionMissing(operator, left, span);
  const argName = operator === '**' ? 'exponent' : 'other';
  if (typeof right !== 'bigint' && typeof right !== 'number') throw invalidArgumentType(argName, 'Number', right, span);
  if (operator === '|' || operator === '^' || operator === '&') {
    if (typeof left !== 'bigint' || typeof right !== 'bigint') throw invalidArgumentType(argName, 'Int', right, span);
    return operator === '|' ? left | right : operator === '^' ? left ^ right : left & right;
  }
  if (typeof left === 'bigint' && typeof right === 'bigint') {
    switch (operator) {
      case '+':
        return widened(left + right);
      case '-':
        return widened(left - right);
      case '*':
        return widened(left * right);
      case '/':
        if (right === 0n) throw runtimeError('divide_by_zero', span, 'Attempted integer division by zero.');
        return widened(left / right);
      case '%':
        if (right === 0n) throw runtimeError('divide_by_zero', span, 'Attempted integer division by zero.');
        return left % right;
      case '**':
        return right < 0n || right > 64n ? Number(left) ** Number(right) : widened(left ** right);
    }
  }
  const a = Number(left);
  const b = Number(right);
  switch (operator) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    default:
      return a ** b;
  }
}

/** `value isa Type`: the types named by modules (`String`, `Number`, a collection's name, …). */
function isA(value: FqlValue, type: FqlValue, span: SourceSpan): boolean {
  if (!(type instanceof FqlModule)) throw invalidArgumentType('type', 'Module', type, span);
  if (type.collection !== undefined)
    return value instanceof DocRef && value.collection.kind === 'user' && value.collection.name === type.collection;
  const name = typeNameOf(value);
  switch (type.name) {
    case 'Number':
      return typeof value === 'bigint' || typeof value === 'number';
    case 'Int':
    case 'Long':
      return typeof value === 'bigint';
    case 'Object':
    case 'Struct':
      return isFqlObject(value);
    case 'Function':
      return value instanceof Lambda || value instanceof NativeFunction;
    case 'Set':
      return value instanceof FqlSet;
    default:
      return name === type.name;
  }
}

/** Fields of a time or date (`year`, `month`, `day`, `hour`, …), as the real service names them. */
function timeField(value: Time | DateValue, name: string): FqlValue {
  const millis = value instanceof Time ? Number(value.epochNanos / 1_000_000n) : value.epochDays * 86_400_000;
  const date = new Date(millis);
  switch (name) {
    case 'year':
      return BigInt(date.getUTCFullYear());
    case 'month':
      return BigInt(date.getUTCMonth() + 1);
    case 'day':
    case 'dayOfMonth':
      return BigInt(date.getUTCDate());
    case 'dayOfWeek':
      return BigInt(date.getUTCDay() === 0 ? 7 : date.getUTCDay());
    case 'dayOfYear':
      return BigInt(
        Math.floor(
          (Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000,
        ) + 1,
      );
    default:
      break;
  }
  if (!(value instanceof Time)) return null;
  switch (name) {
    case 'hour':
      return BigInt(date.getUTCHours());
    case 'minute':
      return BigInt(date.getUTCMinutes());
    case 'second':
      return BigInt(date.getUTCSeconds());
    default:
      return null;
  }
}

function moduleField(module: FqlModule, name: string): FqlValue {
  if (module.collection !== undefined && name === 'definition')
    return new DocRef({ kind: 'native', native: 'collections' }, module.collection);
  if (module.name === 'Math') {
    if (name === 'PI') return Math.PI;
    if (name === 'E') return Math.E;
    if (name === 'Infinity') return Infinity;
    if (name === 'NaN') return NaN;
  }
  return null;
}
