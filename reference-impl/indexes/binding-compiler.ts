/**
 * Compiles a stored binding lambda (SD "Binding": a pure one-argument lambda that cannot read or write) into
 * a synchronous function of the document. Only pure forms are allowed; any other form (get, match, paginate,
 * create, …) is refused at CreateIndex, so a binding can never touch the store.
 */
import type { Expr } from '../codec/v4-ast.js';
import { toExpr } from '../codec/v4-expression-parser.js';
import { Ref, isObjectValue, type QueryValue, type Value } from '../values/value.js';
import type { BindingFunction, FieldPathSegment } from './index-definition.js';
import { IndexError } from './index-error.js';

type Vars = ReadonlyMap<string, Value>;
type Compiled = (vars: Vars) => Value | undefined;

/** A binding yields no value (its field is then missing, i.e. null) when it selects a path that is absent. */
class NoValue extends Error {}

function fail(form: string): never {
  throw new IndexError('validation failed', `Binding must be pure: '${form}' is not allowed in a binding (bindings cannot read or write).`);
}

function bool(v: Value | undefined): boolean {
  if (typeof v !== 'boolean') throw new NoValue();
  return v;
}

function text(v: Value | undefined): string {
  if (typeof v !== 'string') throw new NoValue();
  return v;
}

function step(from: Value | undefined, element: Value | undefined): Value | undefined {
  if (typeof element === 'bigint') return Array.isArray(from) ? from[Number(element)] : undefined;
  if (typeof element !== 'string') return undefined;
  if (isObjectValue(from)) return Object.hasOwn(from, element) ? from[element] : undefined;
  if (from instanceof Ref) {
    if (element === 'id') return from.id;
    if (element === 'collection' || element === 'class') return from.collection;
  }
  return undefined;
}

function plainEqual(a: Value | undefined, b: Value | undefined): boolean {
  if (a instanceof Ref && b instanceof Ref) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => plainEqual(x, b[i]));
  if (isObjectValue(a) && isObjectValue(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && plainEqual(a[k], b[k]));
  }
  return a === b;
}

function list(expr: Expr): Expr[] {
  return expr.kind === 'array' ? [...expr.items] : [expr];
}

function compile(expr: Expr): Compiled {
  if (expr.kind === 'literal') return () => expr.value;
  if (expr.kind === 'array') {
    const items = expr.items.map(compile);
    return (vars) => items.map((item) => item(vars) ?? null);
  }
  const f = expr.fields;
  const keys = [...f.keys()].sort().join(',');
  const arg = (key: string): Compiled => compile(f.get(key)!);
  switch (keys) {
    case 'var': {
      const name = f.get('var')!;
      if (name.kind !== 'literal' || typeof name.value !== 'string') fail('var');
      const n = name.value as string;
      return (vars) => {
        if (!vars.has(n)) throw new NoValue();
        return vars.get(n);
      };
    }
    case 'from,select':
    case 'default,from,select': {
      const path = arg('select');
      const from = arg('from');
      const fallback = f.has('default') ? arg('default') : undefined;
      return (vars) => {
        const p = path(vars);
        let at = from(vars);
        for (const element of Array.isArray(p) ? p : [p ?? null]) at = step(at, element);
        if (at !== undefined) return at;
        if (fallback) return fallback(vars);
        throw new NoValue();
      };
    }
    case 'object': {
      const body = f.get('object')!;
      if (body.kind !== 'object') return compile(body);
      const fields = [...body.fields].map(([k, e]) => [k, compile(e)] as const);
      return (vars) => Object.fromEntries(fields.map(([k, c]) => [k, c(vars) ?? null]));
    }
    case 'concat':
    case 'concat,separator': {
      const items = arg('concat');
      const separator = f.has('separator') ? arg('separator') : () => '';
      return (vars) => {
        const v = items(vars);
        return (Array.isArray(v) ? v : [v ?? null]).map(text).join(text(separator(vars)));
      };
    }
    case 'lowercase':
    case 'uppercase':
    case 'trim': {
      const s = arg(keys);
      if (keys === 'lowercase') return (vars) => text(s(vars)).toLowerCase();
      if (keys === 'uppercase') return (vars) => text(s(vars)).toUpperCase();
      return (vars) => text(s(vars)).trim();
    }
    case 'else,if,then': {
      const [c, t, e] = [arg('if'), arg('then'), arg('else')];
      return (vars) => (bool(c(vars)) ? t(vars) : e(vars));
    }
    case 'equals': {
      const items = list(f.get('equals')!).map(compile);
      return (vars) => {
        const vs = items.map((i) => i(vars));
        return vs.every((v) => plainEqual(v, vs[0]));
      };
    }
    case 'and':
    case 'or': {
      const items = list(f.get(keys)!).map(compile);
      return keys === 'and' ? (vars) => items.every((i) => bool(i(vars))) : (vars) => items.some((i) => bool(i(vars)));
    }
    case 'not': {
      const v = arg('not');
      return (vars) => !bool(v(vars));
    }
    case 'in,let': {
      const bindings = f.get('let')!;
      const pairs = (bindings.kind === 'array' ? bindings.items : [bindings]).flatMap((b) => {
        if (b.kind !== 'object') fail('let');
        return [...b.fields].map(([k, e]) => [k, compile(e)] as const);
      });
      const body = arg('in');
      return (vars) => {
        let scope = new Map(vars);
        for (const [k, c] of pairs) scope = new Map(scope).set(k, c(scope) ?? null);
        return body(scope);
      };
    }
    default:
      return fail([...f.keys()][0] ?? '{}');
  }
}

// Implements: IDX-SOURCE-006, IDX-SOURCE-008
/** Turns a stored one-argument lambda into a binding; throws an IndexError naming the first impure form. */
export function compileBinding(lambda: QueryValue, _at: FieldPathSegment[]): BindingFunction {
  const param = typeof lambda.lambda === 'string' ? lambda.lambda : lambda.lambda[0]!;
  const body = compile(toExpr(lambda.expr, []));
  return (document) => {
    try {
      return body(new Map([[param, document]])) ?? null;
    } catch (e) {
      if (e instanceof NoValue) return null;
      throw e;
    }
  };
}
