/**
 * Syntax tree of the FQL v10 subset (grammar in spec/fql-subset.md). Every node carries the span of query
 * text it came from so that later stages (planning, evaluation) can point at the cause of an error.
 */
import type { Value } from '../values/value.js';
import type { SourceSpan } from './source-position.js';

export type Expr =
  | LiteralExpr
  | IdentifierExpr
  | ImplicitFieldExpr
  | MemberExpr
  | IndexExpr
  | CallExpr
  | UnaryExpr
  | BinaryExpr
  | LambdaExpr
  | ArrayExpr
  | ObjectExpr
  | ProjectionExpr;

/** A literal written in the text, or a value interpolated by a fragment (`interpolated: true`). */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: Value;
  readonly interpolated: boolean;
  readonly span: SourceSpan;
}

export interface IdentifierExpr {
  readonly kind: 'identifier';
  readonly name: string;
  readonly span: SourceSpan;
}

/** `.name` with no receiver: a field of the implicit argument of a short-form lambda or a projection. */
export interface ImplicitFieldExpr {
  readonly kind: 'implicit-field';
  readonly name: string;
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

/** `target[index]`. */
export interface IndexExpr {
  readonly kind: 'index';
  readonly target: Expr;
  readonly index: Expr;
  readonly span: SourceSpan;
}

/** `callee(args…)`; a method call has a `member` callee. */
export interface CallExpr {
  readonly kind: 'call';
  readonly callee: Expr;
  readonly args: readonly Expr[];
  readonly span: SourceSpan;
}

export type UnaryOperator = '!' | '-';

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly operator: UnaryOperator;
  readonly operand: Expr;
  readonly span: SourceSpan;
}

export type BinaryOperator = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly operator: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: SourceSpan;
}

/** `x => body`, `(x, y) => body` or `() => body`. */
export interface LambdaExpr {
  readonly kind: 'lambda';
  readonly params: readonly string[];
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

/**
 * One field of a projection: `name` (copy the field), `name: expr` (the expression, with the projected value
 * as implicit argument) or `name { … }` (a nested projection of the field).
 */
export type ProjectionField =
  | { readonly kind: 'copy'; readonly name: string; readonly span: SourceSpan }
  | { readonly kind: 'computed'; readonly name: string; readonly value: Expr; readonly span: SourceSpan }
  | { readonly kind: 'nested'; readonly name: string; readonly fields: readonly ProjectionField[]; readonly span: SourceSpan };

/** `target { fields… }`. */
export interface ProjectionExpr {
  readonly kind: 'projection';
  readonly target: Expr;
  readonly fields: readonly ProjectionField[];
  readonly span: SourceSpan;
}
