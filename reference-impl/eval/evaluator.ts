/** Evaluates expression trees: literals, arrays, and objects dispatched through the form registry. */
import type { Expr } from '../codec/v4-ast.js';
import { QueryError } from '../errors/query-error.js';
import type { Value } from '../values/value.js';
import type { EvalContext } from './context.js';
import { FormArgs } from './form-registry.js';

export async function evaluate(ctx: EvalContext, expr: Expr): Promise<Value> {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'array': {
      const out: Value[] = [];
      for (const item of expr.items) out.push(await ctx.eval(item));
      return out;
    }
    case 'object': {
      // `{}` names no form; the service reads it as the empty object.
      if (expr.fields.size === 0) return {};
      const form = ctx.services.forms.match(expr.fields);
      if (!form) {
        throw new QueryError('invalid expression', `No form/function found, or invalid argument keys: { ${[...expr.fields.keys()].join(', ')} }.`, expr.position);
      }
      return form.evaluate(ctx, new FormArgs(expr));
    }
  }
}
