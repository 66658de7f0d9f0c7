/** Evaluates expression trees: literals, arrays, and objects dispatched through the form registry. */
import type { ArrayExpr, Expr } from '../codec/v4-ast.js';
import { QueryError } from '../errors/query-error.js';
import type { Value } from '../values/value.js';
import type { EvalContext, Evaluator } from './context.js';
import { FormArgs } from './form-registry.js';
import { eachInOrder } from './when-ready.js';

/**
 * The value of `expr` at once when no part of it has to wait (an access decision that runs a role predicate,
 * a password hash, an index build), else its promise. Failures are thrown at once or rejected. Answering at
 * once lets a request that waits for nothing run without a promise per expression node.
 */
export function evaluateNow(ctx: EvalContext, expr: Expr): Value | Promise<Value> {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'array':
      return evaluateArray(ctx, expr);
    case 'object': {
      // `{}` names no form; the service reads it as the empty object.
      if (expr.fields.size === 0) return {};
      // Implements: PROTO-BODY-003
      const form = ctx.services.forms.match(expr.fields);
      if (!form) {
        throw new QueryError(
          'invalid expression',
          `No form/function found, or invalid argument keys: { ${[...expr.fields.keys()].join(', ')} }.`,
          expr.position,
        );
      }
      ctx.limits.step();
      return form.evaluate(ctx, new FormArgs(expr));
    }
  }
}

/** The same as a promise, never a synchronous throw: what forms that await their arguments use. */
export function evaluate(ctx: EvalContext, expr: Expr): Promise<Value> {
  try {
    const value = evaluateNow(ctx, expr);
    return value instanceof Promise ? value : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

function evaluateArray(ctx: EvalContext, expr: ArrayExpr): Value[] | Promise<Value[]> {
  const out: Value[] = [];
  const done = eachInOrder(
    expr.items.values(),
    (item) => evaluateNow(ctx, item),
    (_, value) => out.push(value),
  );
  return done === undefined ? out : done.then(() => out);
}

/** Both entry points, as an `EvalContext` takes them. */
export const v4Evaluator: Evaluator = { evaluate, evaluateNow };
