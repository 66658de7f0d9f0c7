/**
 * The v4 expression tree the codec builds from request JSON. Objects stay uninterpreted (`object` nodes):
 * the evaluator's form registry decides, by key set, which form an object is. Every node keeps its
 * position (the JSON path from the request root) and its raw JSON, which stored lambdas (`@query`) echo.
 */
import type { Position } from '../errors/query-error.js';
import type { Value } from '../values/value.js';

interface NodeBase {
  readonly position: Position;
  /** The node's JSON as parsed (integers as bigint, decimals as number). */
  readonly raw: unknown;
}

/** Scalars and tagged literals (`@ref`, `@ts`, `@set`, `@obj`, …), already decoded to values. */
export interface LiteralExpr extends NodeBase {
  readonly kind: 'literal';
  readonly value: Value;
}

export interface ArrayExpr extends NodeBase {
  readonly kind: 'array';
  readonly items: readonly Expr[];
}

/** A JSON object that is not a tagged literal: a form call, or the argument of `object` / `let`. */
export interface ObjectExpr extends NodeBase {
  readonly kind: 'object';
  readonly fields: ReadonlyMap<string, Expr>;
}

export type Expr = LiteralExpr | ArrayExpr | ObjectExpr;
