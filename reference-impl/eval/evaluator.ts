/** Evaluates expression trees: literals, arrays, and objects dispatched through the form registry. */
import type { ArrayExpr, Expr } from '../codec/v4-ast.js';
import { QueryError } from '../errors/query-error.js';
import type { Value } from '../values/value.js';
import type { EvalContext } from './context.js';
import { FormArgs } from './form-registry.js';

/**
 * Not an async function: a literal or a form call needs no frame of its own (the form's promise is returned as
 * is), and this runs for every node of every request. Failures are still rejections, never synchronous throws.
 */
export function evaluate(ctx: EvalContext, expr: Expr): Promise<Value> {
  try {
    switch (expr.kind) {
      case 'literal':
        return Promise.resolve(expr.value);
      case 'array':
        return evaluateArray(ctx, expr);
      case 'object': {
        // `{}` names no form; the service reads it as the empty object.
        if (expr.fields.size === 0) return Promise.resolve({});
        const form = ctx.services.forms.match(expr.fields);
        if (!form) {
          throw new QueryError('invalid expression', `No form/function found, or invalid argument keys: { ${[...expr.fields.keys()].join(', ')} }.`, expr.position);
        }
        return form.evaluate(ctx, new FormArgs(expr));
      }
    }
  } catch (error) {
    return Promise.reject(error);
  }
}

async function evaluateArray(ctx: EvalContext, expr: ArrayExpr): Promise<Value[]> {
  const out: Value[] = [];
  // A literal item is taken as is: awaiting its resolved promise would cost a suspension per item.
  for (const item of expr.items) out.push(item.kind === 'literal' ? item.value : await ctx.eval(item));
  return out;
}
