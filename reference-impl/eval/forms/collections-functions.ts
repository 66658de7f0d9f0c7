/**
 * Map, Foreach and Filter over arrays and pages (SD "Page": pages can be processed further). On a page the
 * lambda applies to `data` and the cursors are kept. Filter of a set answers a set that Paginate reads
 * (set-reading.ts, DEC-065); Map and Foreach refuse sets, as the real service does.
 */
import type { Expr } from '../../codec/v4-ast.js';
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import { applyLambda } from '../lambda.js';
import { isSetValue, wrongType } from './iterables.js';
import { requireLambdaForm } from './objects.js';
import { asLambda } from './set-reading.js';

type Kind = 'map' | 'foreach' | 'filter';

// Implements: FN-ARR-009, PAGE-MAP-001, PAGE-MAP-005
/** The elements to process and how to put the results back (a page keeps its cursors). */
function elementsOf(collection: Value, position: Position, kind: Kind): { items: Value[]; rebuild: (data: Value[]) => Value } {
  if (Array.isArray(collection)) return { items: collection, rebuild: (data) => data };
  if (isObjectValue(collection) && Array.isArray(collection.data)) {
    const page: ObjectValue = collection;
    return { items: page.data as Value[], rebuild: (data) => ({ ...page, data }) };
  }
  // Implements: FN-SET-015
  // Every one of them first checks for an array, page or set; Map and Foreach then refuse a set with what they take.
  if (kind !== 'filter' && isSetValue(collection)) throw errors.invalidArgument('Array or Page expected, Set provided.', position);
  throw wrongType('Array, Set, or Page', collection, position);
}

// Implements: FN-SET-012, FN-SET-014, PAGE-MAP-001, PAGE-MAP-003, PAGE-MAP-005, PAGE-MAP-006
function collectionForm(kind: Kind): FormDefinition {
  return {
    required: [kind, 'collection'],
    async evaluate(ctx: EvalContext, args) {
      const lambdaExpr: Expr = args.expr(kind);
      requireLambdaForm(lambdaExpr);
      const lambda = asLambda(await ctx.eval(lambdaExpr), lambdaExpr.position);
      // A server that checks a token's Map over a Paginate only as a whole: it acts with a server key's rights.
      const source = args.expr('collection');
      const paged = kind === 'map' && ctx.identity.kind === 'token' && source.kind === 'object' && source.fields.has('paginate');
      const actor = paged && failpoint('ABAC-MAPPED-GET-UNCHECKED') ? ctx.withIdentity({ ...ctx.identity, role: 'server' }) : ctx;
      const collection = await args.value(actor, 'collection');
      if (kind === 'filter' && isSetValue(collection)) return new SetRef({ filter: lambda, collection });
      const { items, rebuild } = elementsOf(collection, args.position('collection'), kind);
      const out: Value[] = [];
      for (const item of items) {
        // An element that does not fit the lambda's parameters is reported at the lambda, `[<form>, "lambda"]`.
        const result = await applyLambda(actor, lambda, [item], [...lambdaExpr.position, 'lambda']);
        if (kind === 'map') out.push(result);
        else if (kind === 'filter') {
          if (typeof result !== 'boolean')
            throw errors.invalidArgument(`Boolean expected, ${typeName(result)} provided.`, lambdaExpr.position);
          if (result) out.push(item);
        }
      }
      return kind === 'foreach' ? collection : rebuild(out);
    },
  };
}

export const collectionFunctionForms: readonly FormDefinition[] = [
  collectionForm('map'),
  collectionForm('foreach'),
  collectionForm('filter'),
];
