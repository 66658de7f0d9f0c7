/** Lambdas as values: a `QueryValue` that also keeps its parsed body and the scope it was created in. */
import { QueryError, type Position } from '../errors/query-error.js';
import { QueryValue, type Value } from '../values/value.js';
import type { Expr } from '../codec/v4-ast.js';
import type { EvalContext, Scope } from './context.js';

export class LambdaValue extends QueryValue {
  constructor(
    lambda: string | string[],
    rawExpr: unknown,
    readonly body: Expr,
    readonly closure: Scope,
    apiVersion?: string,
  ) {
    super(lambda, rawExpr, apiVersion);
  }
}

// Implements: PAGE-MAP-002
/**
 * Applies a lambda to arguments. One parameter takes the argument as-is; several parameters destructure
 * an array argument. `_` parameters are ignored.
 */
export async function applyLambda(ctx: EvalContext, lambda: LambdaValue, args: readonly Value[], position: Position): Promise<Value> {
  const bindings = new Map<string, Value>();
  if (typeof lambda.lambda === 'string') {
    const arg = args.length === 1 ? args[0]! : [...args];
    if (lambda.lambda !== '_') bindings.set(lambda.lambda, arg);
  } else {
    const params = lambda.lambda;
    const values = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    if (values.length !== params.length) {
      // Implements: UDF-CALL-006
      throw new QueryError(
        'invalid argument',
        `Lambda expects an array with ${params.length} elements. Array contains ${values.length}.`,
        position,
      );
    }
    params.forEach((param, i) => {
      if (param !== '_') bindings.set(param, values[i]!);
    });
  }
  return ctx.withScope(lambda.closure.extend(bindings)).eval(lambda.body);
}
