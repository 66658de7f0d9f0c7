/** Core forms: objects, variables, control flow, select, logic, abort, lambdas, time and ids. */
import type { Expr } from '../../codec/v4-ast.js';
import { QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { QueryValue, Ref, isObjectValue, setField, type ObjectValue, type Value } from '../../values/value.js';
import { ReadOnlyTransactionError } from '../../txn/transaction.js';
import { expectBoolean, expectString, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import { LambdaValue } from '../lambda.js';
import { compareForComparison } from '../comparison-order.js';
import { valuesEqual } from '../value-equality.js';
import { eachInOrder } from '../when-ready.js';
import { singleSetEventValue } from './event-history-sets.js';
import { selectAllValues } from './folds-and-keys.js';
import { nowOf, timeFromText } from './times.js';

/** Forms taking one argument or an array of arguments (drivers send a single argument unwrapped). */
async function varargs(ctx: EvalContext, expr: Expr): Promise<Array<{ value: Value; position: Position }>> {
  if (expr.kind === 'array') {
    const out: Array<{ value: Value; position: Position }> = [];
    for (const item of expr.items) out.push({ value: await ctx.eval(item), position: item.position });
    return out;
  }
  return [{ value: await ctx.eval(expr), position: expr.position }];
}

// Implements: PROTO-VALUE-008, PROTO-VALUE-013
const object: FormDefinition = {
  required: ['object'],
  evaluate(ctx, args) {
    const arg = args.expr('object');
    if (arg.kind === 'literal' && isObjectValue(arg.value)) return arg.value;
    if (arg.kind !== 'object') throw errors.invalidExpression('Object expected.', arg.position);
    const out: ObjectValue = {};
    const fields = arg.fields;
    // Keys and lookups rather than entries(): no generator and no pair per field.
    const done = eachInOrder(
      fields.keys(),
      (key) => ctx.evalNow(fields.get(key)!),
      (key, value) => setField(out, key, value),
    );
    return done === undefined ? out : done.then(() => out);
  },
};

// Implements: PROTO-VALUE-008, PROTO-VALUE-012
const variable: FormDefinition = {
  required: ['var'],
  async evaluate(ctx, args) {
    const name = await args.value(ctx, 'var');
    // A variable's name is part of the expression's shape: the real service's parser refuses another type (DEC-137).
    if (typeof name !== 'string') throw errors.invalidExpression(`String expected, ${typeName(name)} provided.`, args.position('var'));
    const value = ctx.scope.lookup(name);
    if (value === undefined && failpoint('VALUE-UNBOUND-VAR-NULL')) return null;
    if (value === undefined) throw errors.invalidExpression(`Variable '${name}' is not defined.`, args.node.position);
    return value;
  },
};

// Implements: PROTO-VALUE-010
const letForm: FormDefinition = {
  required: ['let', 'in'],
  async evaluate(ctx, args) {
    const bindings = args.expr('let');
    let scope = ctx;
    const bind = async (name: string, expr: Expr) => {
      scope = scope.withBindings(new Map([[name, await scope.eval(expr)]]));
    };
    if (bindings.kind === 'object') {
      for (const [name, expr] of bindings.fields) await bind(name, expr);
    } else if (bindings.kind === 'array') {
      for (const item of bindings.items) {
        if (item.kind !== 'object') throw errors.invalidExpression('Let bindings must be objects.', item.position);
        for (const [name, expr] of item.fields) await bind(name, expr);
      }
    } else {
      throw errors.invalidExpression('Let bindings must be an object or an array of objects.', bindings.position);
    }
    return scope.eval(args.expr('in'));
  },
};

// Implements: PROTO-VALUE-010
const doForm: FormDefinition = {
  required: ['do'],
  async evaluate(ctx, args) {
    const body = args.expr('do');
    if (body.kind !== 'array') return ctx.eval(body);
    if (body.items.length === 0) throw errors.invalidExpression('Expression list cannot be empty.', body.position);
    let last: Value = null;
    for (const item of body.items) last = await ctx.eval(item);
    return last;
  },
};

// Implements: PROTO-VALUE-010
const ifForm: FormDefinition = {
  required: ['if', 'then', 'else'],
  async evaluate(ctx, args) {
    const condition = expectBoolean(await args.value(ctx, 'if'), args.position('if'));
    return args.value(ctx, condition ? 'then' : 'else');
  },
};

const lambda: FormDefinition = {
  required: ['lambda', 'expr'],
  async evaluate(ctx, args) {
    const params = args.expr('lambda');
    const raw = params.raw;
    const valid = typeof raw === 'string' || (Array.isArray(raw) && raw.every((p) => typeof p === 'string'));
    if (!valid) throw errors.invalidExpression('Lambda parameters must be a string or an array of strings.', params.position);
    return new LambdaValue(raw as string | string[], args.expr('expr').raw, args.expr('expr'), ctx.scope, ctx.apiVersion);
  },
};

const query: FormDefinition = {
  required: ['query'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'query');
    if (!(value instanceof QueryValue))
      throw errors.invalidArgument(`Lambda expected, ${typeName(value)} provided.`, args.position('query'));
    return new QueryValue(value.lambda, value.expr, value.apiVersion ?? ctx.apiVersion);
  },
};

function pathElements(path: Value, position: Position): Array<string | bigint> {
  const elements = Array.isArray(path) ? path : [path];
  return elements.map((element) => {
    if (typeof element === 'string' || typeof element === 'bigint') return element;
    throw errors.invalidArgument(`Path elements must be strings or integers, ${typeName(element)} provided.`, position);
  });
}

// Implements: PAGE-MAP-004
function step(from: Value, element: string | bigint): Value | undefined {
  if (typeof element === 'bigint') {
    if (!Array.isArray(from)) return undefined;
    const i = Number(element);
    return i >= 0 && i < from.length ? from[i] : undefined;
  }
  if (isObjectValue(from)) {
    // A set event of a one-value index gives a query its value, not the array it is shown with (FN-HIST-018).
    const single = element === 'data' ? singleSetEventValue(from) : undefined;
    if (single !== undefined) return single.value;
    return Object.hasOwn(from, element) ? from[element] : undefined;
  }
  if (from instanceof Ref) {
    if (element === 'id') return from.id;
    if (element === 'collection' || element === 'class') return from.collection;
    if (element === 'database') return from.database;
  }
  return undefined;
}

// Implements: PROTO-ERROR-008, PROTO-VALUE-008, PROTO-VALUE-009
const select: FormDefinition = {
  required: ['select', 'from'],
  optional: ['default', 'all'],
  async evaluate(ctx, args) {
    const path = pathElements(await args.value(ctx, 'select'), args.position('select'));
    const from = await args.value(ctx, 'from');
    const all = args.has('all') ? expectBoolean(await args.value(ctx, 'all'), args.position('all')) : false;
    // Implements: FN-OBJ-014
    // As SelectAll, which is Select with `all` in the real service (FN-OBJ-014).
    const found = all ? selectAllValues(from, path) : undefined;
    if (found !== undefined) return found.length > 1 && failpoint('FOLD-SELECT-ALL-OPTION-WRAPS') ? [found] : found;
    let current: Value | undefined = from;
    for (const element of path) {
      current = current === undefined ? undefined : step(current, element);
      if (current === undefined) break;
    }
    if (current !== undefined) return current;
    if (args.has('default')) return args.value(ctx, 'default');
    throw errors.valueNotFound(
      path.map((p) => (typeof p === 'bigint' ? Number(p) : p)),
      args.position('from'),
    );
  },
};

// Implements: PROTO-VALUE-010
const equals: FormDefinition = {
  required: ['equals'],
  async evaluate(ctx, args) {
    const values = await varargs(ctx, args.expr('equals'));
    if (values.length === 0) throw errors.invalidArgument('Equals requires at least one argument.', args.position('equals'));
    return values.every((v) => operandsEqual(values[0]!.value, v.value));
  },
};

// Implements: FN-CMP-006
/**
 * Equals compares its operands as the real service does (BasicFunctions.scala): two numbers by value, an integer
 * and a decimal included, in the comparison order LT uses (Java's `Double.compare`: NaN equals NaN, 0.0 does not
 * equal -0.0); anything else, and numbers nested in arrays and objects, structurally (FN-CMP-006).
 */
function operandsEqual(a: Value, b: Value): boolean {
  const numeric = (v: Value) => typeof v === 'number' || typeof v === 'bigint';
  const compared = numeric(a) && numeric(b) && (typeof a === typeof b || !failpoint('CMP-EQUALS-TYPED-NUMBERS'));
  return compared ? compareForComparison(a, b) === 0 : valuesEqual(a, b);
}

function logic(name: 'and' | 'or'): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const expr = args.expr(name);
      const items = expr.kind === 'array' ? expr.items : [expr];
      if (items.length === 0)
        throw errors.invalidArgument(`${name === 'and' ? 'And' : 'Or'} requires at least one argument.`, expr.position);
      for (const item of items) {
        const value = expectBoolean(await ctx.eval(item), item.position);
        if (name === 'and' && !value) return false;
        if (name === 'or' && value) return true;
      }
      return name === 'and';
    },
  };
}

const not: FormDefinition = {
  required: ['not'],
  async evaluate(ctx, args) {
    return !expectBoolean(await args.value(ctx, 'not'), args.position('not'));
  },
};

// Implements: PROTO-ERROR-006
const abort: FormDefinition = {
  required: ['abort'],
  async evaluate(ctx, args) {
    const message = expectString(await args.value(ctx, 'abort'), args.position('abort'));
    const aborted = new QueryError('transaction aborted', message, args.node.position);
    // Servers that commit what the request wrote before the abort, or what a function body wrote.
    if (failpoint('TXN-ABORT-KEEPS-EARLIER-WRITES') || failpoint('UDF-BODY-WRITES-OWN-TRANSACTION')) ctx.txn.failAfterCommit ??= aborted;
    throw aborted;
  },
};

// Implements: FN-HIST-007, TXN-TIME-001
const now: FormDefinition = {
  required: ['now'],
  async evaluate(ctx) {
    return nowOf(ctx);
  },
};

// Implements: FN-TIME-020
const time: FormDefinition = {
  required: ['time'],
  async evaluate(ctx, args) {
    return timeFromText(ctx, expectString(await args.value(ctx, 'time'), args.position('time')), args.node.position);
  },
};

// Implements: FN-ALIAS-003
/** NewId takes an id from the store, which the real service counts as a write: a read-only request refuses it (FN-ALIAS-003). */
const newId: FormDefinition = {
  required: ['new_id'],
  async evaluate(ctx) {
    if (ctx.txn.readOnly && !failpoint('ALIAS-NEW-ID-READ-ONLY')) throw new ReadOnlyTransactionError();
    return ctx.txn.newDocumentId();
  },
};

// Implements: FN-ALIAS-001
/** NextId, the deprecated name of NewId (FN-ALIAS-001). */
const nextId: FormDefinition = {
  required: ['next_id'],
  async evaluate(ctx, args) {
    const id = await newId.evaluate(ctx, args);
    return typeof id === 'string' && failpoint('ALIAS-NEXT-ID-NUMBER') ? BigInt(id) : id;
  },
};

export const coreForms: readonly FormDefinition[] = [
  object,
  variable,
  letForm,
  doForm,
  ifForm,
  lambda,
  query,
  select,
  equals,
  logic('and'),
  logic('or'),
  not,
  abort,
  now,
  time,
  newId,
  nextId,
];
