/**
 * Map, Foreach and Filter over arrays and pages (SD "Page": pages can be processed further). On a page the
 * lambda applies to `data` and the cursors are kept.
 */
import type { Expr } from '../../codec/v4-ast.js';
import { errors, type Position } from '../../errors/query-error.js';
import { isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import { applyLambda } from '../lambda.js';
import { asLambda } from './set-reading.js';

type Kind = 'map' | 'foreach' | 'filter';

/** The elements to process and how to put the results back (a page keeps its cursors). */
function elementsOf(collection: Value, position: Position): { items: Value[]; rebuild: (data: Value[]) => Value } {
  if (Array.isArray(collection)) return { items: collection, rebuild: (data) => data };
  if (isObjectValue(collection) && Array.isArray(collection['data'])) {
    const page: ObjectValue = collection;
    return { items: page['data'] as Value[], rebuild: (data) => ({ ...page, data }) };
  }
  throw errors.invalidArgument(`Array or Page expected, ${typeName(collection)} provided.`, position);
}

function collectionForm(kind: Kind): FormDefinition {
  return {
    required: [kind, 'collection'],
    async evaluate(ctx: EvalContext, args) {
      const lambdaExpr: Expr = args.expr(kind);
      const lambda = asLambda(await ctx.eval(lambdaExpr), lambdaExpr.position);
      const collection = await args.value(ctx, 'collection');
      const { items, rebuild } = elementsOf(collection, args.position('collection'));
      const out: Value[] = [];
      for (const item of items) {
        const result = await applyLambda(ctx, lambda, [item], lambdaExpr.position);
        if (kind === 'map') out.push(result);
        else if (kind === 'filter') {
          if (typeof result !== 'boolean') throw errors.invalidArgument(`Boolean expected, ${typeName(result)} provided.`, lambdaExpr.position);
          if (result) out.push(item);
        }
      }
      return kind === 'foreach' ? collection : rebuild(out);
    },
  };
}

export const collectionFunctionForms: readonly FormDefinition[] = [collectionForm('map'), collectionForm('foreach'), collectionForm('filter')];
