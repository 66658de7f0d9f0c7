/**
 * What a lambda's body may do, judged from its expression before it runs, as the real service judges it (each of its
 * functions declares an effect; an expression has the greatest effect of any call in it, in every branch, nested
 * lambdas included): `pure`, `read` (Get, Exists, Paginate, the aggregates, …) or `write` (every write, and Call,
 * whose user function may do anything). Join takes only a pure lambda (SET-JOIN-003).
 */
import type { Expr } from '../codec/v4-ast.js';

export type Effect = 'pure' | 'read' | 'write';

/** Form keys of the functions the real service declares as reads (fauna/faunadb `ast/functions`). */
const READ_FORMS = new Set([
  'get',
  'exists',
  'paginate',
  'first',
  'last',
  'key_from_secret',
  'identity',
  'current_identity',
  'has_identity',
  'has_current_identity',
  'identify',
  'current_token',
  'contains_value',
  'reduce',
  'count',
  'sum',
  'mean',
  'any',
  'all',
  'max',
  'min',
]);

/** Form keys of the functions the real service declares as writes, and Call. */
const WRITE_FORMS = new Set([
  'create',
  'create_class',
  'create_collection',
  'create_database',
  'create_index',
  'create_function',
  'create_key',
  'create_role',
  'create_access_provider',
  'update',
  'replace',
  'delete',
  'insert',
  'remove',
  'move_database',
  'login',
  'logout',
  'issue_access_jwt',
  'new_id',
  'next_id',
  'call',
]);

const RANK: Record<Effect, number> = { pure: 0, read: 1, write: 2 };

function max(a: Effect, b: Effect): Effect {
  return RANK[a] >= RANK[b] ? a : b;
}

// Implements: SET-JOIN-003
/** The greatest effect of any call in `expr`. */
export function expressionEffect(expr: Expr): Effect {
  if (expr.kind === 'literal') return 'pure';
  if (expr.kind === 'array') return expr.items.reduce<Effect>((e, item) => max(e, expressionEffect(item)), 'pure');
  const { fields } = expr;
  // A quoted expression is data; the fields of an object literal and the bindings of a let are names, not calls.
  if (fields.has('quote')) return 'pure';
  let effect: Effect = 'pure';
  for (const key of fields.keys()) {
    if (WRITE_FORMS.has(key)) effect = 'write';
    else if (READ_FORMS.has(key)) effect = max(effect, 'read');
  }
  for (const [key, value] of fields) {
    const named = (key === 'object' && fields.size === 1) || key === 'let';
    effect = max(effect, named ? namedValuesEffect(value) : expressionEffect(value));
    if (effect === 'write') return effect;
  }
  return effect;
}

/** The effect of the values of an object literal's fields or of let bindings (an object, or an array of objects). */
function namedValuesEffect(expr: Expr): Effect {
  if (expr.kind === 'object') return [...expr.fields.values()].reduce<Effect>((e, value) => max(e, expressionEffect(value)), 'pure');
  if (expr.kind === 'array') return expr.items.reduce<Effect>((e, item) => max(e, namedValuesEffect(item)), 'pure');
  return 'pure';
}
