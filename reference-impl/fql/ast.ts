/**
 * Syntax tree of FQL v10 as the reference server reads it (spec/fql-subset.md). Every node carries the span of
 * query text it came from so that later stages (evaluation, event sources) can point at the cause of an error.
 */
import type { Value } from '../values/value.js';
import type { SourceSpan } from './source-position.js';

export type Expr =
  | LiteralExpr
  | TemplateExpr
  | IdentifierExpr
  | ThisExpr
  | MemberExpr
  | IndexExpr
  | CallExpr
  | NonNullExpr
  | UnaryExpr
  | BinaryExpr
  | LambdaExpr
  | ArrayExpr
  | ObjectExpr
  | BlockExpr
  | IfExpr
  | AtExpr
  | ProjectionExpr;

/** A literal written in the text, or a value interpolated by a fragment (`interpolated: true`). */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: Value;
  readonly interpolated: boolean;
  readonly span: SourceSpan;
}

/** `"a #{x} b"`: text and expressions, concatenated as strings. */
export interface TemplateExpr {
  readonly kind: 'template';
  readonly parts: readonly (string | Expr)[];
  readonly span: SourceSpan;
}

export interface IdentifierExpr {
  readonly kind: 'identifier';
  readonly name: string;
  readonly span: SourceSpan;
}

/** The implicit argument of a short-form lambda (`.price > 10`, `.delete()`) or of a projection's fields. */
export interface ThisExpr {
  readonly kind: 'this';
  readonly span: SourceSpan;
}

/** `target.name`, or `target?.name` (`optional`: null when the target is null). */
export interface MemberExpr {
  readonly kind: 'member';
  readonly target: Expr;
  readonly name: string;
  readonly optional: boolean;
  readonly nameSpan: SourceSpan;
  readonly span: SourceSpan;
}

/** `target[index]` or `target?.[index]`. */
export interface IndexExpr {
  readonly kind: 'index';
  readonly target: Expr;
  readonly index: Expr;
  readonly optional: boolean;
  readonly span: SourceSpan;
}

/** `callee(args…)` or `callee?.(args…)`; a method call has a `member` callee. `argsSpan` runs from `(` to `)`. */
export interface CallExpr {
  readonly kind: 'call';
  readonly callee: Expr;
  readonly args: readonly Expr[];
  readonly optional: boolean;
  readonly argsSpan: SourceSpan;
  readonly span: SourceSpan;
}

/** `target!`: the value, or an error when it is null. */
export interface NonNullExpr {
  readonly kind: 'non-null';
  readonly target: Expr;
  readonly span: SourceSpan;
}

export type UnaryOperator = '!' | '-' | '~';

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly operator: UnaryOperator;
  readonly operand: Expr;
  readonly span: SourceSpan;
}

export type BinaryOperator =
  | '??'
  | '||'
  | '&&'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'isa'
  | '|'
  | '^'
  | '&'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '**';

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly operator: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
  /** The operator's own text, where an operator error points. */
  readonly operatorSpan: SourceSpan;
  readonly span: SourceSpan;
}

/**
 * `x => body`, `(x, y) => body`, `() => body` (`params`; `null` for `_`), or a short-form lambda (`short`: no
 * parameters, the argument is `this`).
 */
export interface LambdaExpr {
  readonly kind: 'lambda';
  readonly params: readonly (string | null)[];
  readonly short: boolean;
  readonly body: Expr;
  readonly span: SourceSpan;
}

export interface ArrayExpr {
  readonly kind: 'array';
  readonly elements: readonly Expr[];
  readonly span: SourceSpan;
}

export interface ObjectEntry {
  readonly key: string;
  readonly value: Expr;
  readonly span: SourceSpan;
}

export interface ObjectExpr {
  readonly kind: 'object';
  readonly entries: readonly ObjectEntry[];
  readonly span: SourceSpan;
}

export type Statement =
  | { readonly kind: 'let'; readonly name: string; readonly value: Expr; readonly span: SourceSpan }
  | { readonly kind: 'expr'; readonly expr: Expr; readonly span: SourceSpan };

/** `{ let a = 1; a + 1 }` and a whole query: statements whose last is an expression, its value the block's. */
export interface BlockExpr {
  readonly kind: 'block';
  readonly statements: readonly Statement[];
  readonly span: SourceSpan;
}

/** `if (cond) a` (null when false) or `if (cond) a else b`. */
export interface IfExpr {
  readonly kind: 'if';
  readonly condition: Expr;
  readonly then: Expr;
  readonly otherwise?: Expr;
  readonly span: SourceSpan;
}

/** `at (time) body`: the body reads as of an earlier time. */
export interface AtExpr {
  readonly kind: 'at';
  readonly time: Expr;
  readonly body: Expr;
  readonly span: SourceSpan;
}

/** One field of a projection: its name and the expression computing it, with the projected value as `this`. */
export interface ProjectionField {
  readonly name: string;
  readonly value: Expr;
  readonly span: SourceSpan;
}

/** `target { fields… }`; on an array or a set each element is projected. */
export interface ProjectionExpr {
  readonly kind: 'projection';
  readonly target: Expr;
  readonly fields: readonly ProjectionField[];
  readonly span: SourceSpan;
}

/** The direct subexpressions of a node, in source order. */
export function childrenOf(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case 'literal':
    case 'identifier':
    case 'this':
      return [];
    case 'template':
      return expr.parts.filter((part): part is Expr => typeof part !== 'string');
    case 'member':
    case 'non-null':
      return [expr.target];
    case 'index':
      return [expr.target, expr.index];
    case 'call':
      return [expr.callee, ...expr.args];
    case 'unary':
      return [expr.operand];
    case 'binary':
      return [expr.left, expr.right];
    case 'lambda':
      return [expr.body];
    case 'array':
      return expr.elements;
    case 'object':
      return expr.entries.map((entry) => entry.value);
    case 'block':
      return expr.statements.map((statement) => (statement.kind === 'let' ? statement.value : statement.expr));
    case 'if':
      return expr.otherwise === undefined ? [expr.condition, expr.then] : [expr.condition, expr.then, expr.otherwise];
    case 'at':
      return [expr.time, expr.body];
    case 'projection':
      return [expr.target, ...expr.fields.map((field) => field.value)];
  }
}

/** True when the expression reads `this` outside any nested lambda: it is the body of a short-form lambda. */
export function usesThis(expr: Expr): boolean {
  // Walked with a stack of its own, so that a tree deeper than the engine's stack reaches the parser's depth check.
  const pending: Expr[] = [expr];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.kind === 'this') return true;
    if (next.kind === 'lambda') continue;
    // A projection's fields read the projected value as `this`, not the enclosing one.
    if (next.kind === 'projection') pending.push(next.target);
    else pending.push(...childrenOf(next));
  }
  return false;
}
