/**
 * The nodes the expression parser builds (the `Expr` shapes of `v4-ast.ts`), made to be cheap to build because every
 * request builds a tree of them.
 */
import type { Position } from '../errors/query-error.js';
import type { Value } from '../values/value.js';
import type { ArrayExpr, Expr, LiteralExpr, ObjectExpr } from './v4-ast.js';

// Implements: PROTO-ERROR-002, PROTO-ERROR-003
/**
 * Expression nodes know their parent and the step from it, and build their position (JSON path) only when first
 * asked, since most nodes of a request that succeeds are never asked.
 */
export abstract class ParsedNode {
  private path: Position | undefined;

  constructor(
    private readonly base: Position,
    private readonly parent: ParsedNode | undefined,
    private readonly step: string | number | undefined,
  ) {}

  get position(): Position {
    if (this.path === undefined) this.path = this.parent === undefined ? this.base : [...this.parent.position, this.step!];
    return this.path;
  }
}

/** A scalar or tagged value; its parser sets `value` once decoded. */
export class LiteralNode extends ParsedNode implements LiteralExpr {
  readonly kind = 'literal';
  value: Value = null;

  constructor(
    readonly raw: unknown,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }
}

/**
 * Array and object nodes read from text have no raw JSON until it is asked for (stored lambdas keep it): it is then
 * built from their items' or fields'.
 */
export class ArrayNode extends ParsedNode implements ArrayExpr {
  readonly kind = 'array';
  items: readonly Expr[] = [];

  constructor(
    private source: unknown[] | undefined,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }

  get raw(): unknown[] {
    this.source ??= this.items.map((item) => item.raw);
    return this.source;
  }
}

/** An object that is not a tagged value: a form call, or the fields of `object` or `let`. */
export class ObjectNode extends ParsedNode implements ObjectExpr {
  readonly kind = 'object';
  fields: ExprFields = EMPTY_FIELDS;

  constructor(
    private source: Record<string, unknown> | undefined,
    base: Position,
    parent: ParsedNode | undefined,
    step: string | number | undefined,
  ) {
    super(base, parent, step);
  }

  get raw(): Record<string, unknown> {
    if (this.source === undefined) {
      const raw: Record<string, unknown> = {};
      // Defined, not assigned: a `__proto__` key is a field, as `JSON.parse` makes it.
      for (const [name, expr] of this.fields)
        Object.defineProperty(raw, name, { value: expr.raw, writable: true, enumerable: true, configurable: true });
      this.source = raw;
    }
    return this.source;
  }
}

/** Above this many keys, lookups go through a Map (built on first lookup) instead of a scan of the keys. */
export const SCANNED_KEYS = 8;

/**
 * An object node's fields: its keys and their expressions side by side, rather than a `Map` per object node, since
 * forms have a handful of keys, which a scan finds without one.
 */
export class ExprFields implements ReadonlyMap<string, Expr> {
  private index: Map<string, Expr> | undefined;

  constructor(
    private readonly names: readonly string[],
    private readonly exprs: readonly Expr[],
  ) {}

  get size(): number {
    return this.names.length;
  }

  get(key: string): Expr | undefined {
    if (this.names.length <= SCANNED_KEYS) {
      const i = this.names.indexOf(key);
      return i < 0 ? undefined : this.exprs[i];
    }
    this.index ??= new Map(this.entries());
    return this.index.get(key);
  }

  has(key: string): boolean {
    if (this.names.length <= SCANNED_KEYS) return this.names.includes(key);
    this.index ??= new Map(this.entries());
    return this.index.has(key);
  }

  keys(): MapIterator<string> {
    return this.names.values();
  }

  values(): MapIterator<Expr> {
    return this.exprs.values();
  }

  *entries(): MapIterator<[string, Expr]> {
    for (let i = 0; i < this.names.length; i++) yield [this.names[i]!, this.exprs[i]!];
  }

  [Symbol.iterator](): MapIterator<[string, Expr]> {
    return this.entries();
  }

  forEach(callback: (value: Expr, key: string, map: ReadonlyMap<string, Expr>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.names.length; i++) callback.call(thisArg, this.exprs[i]!, this.names[i]!, this);
  }
}

export const EMPTY_FIELDS = new ExprFields([], []);

/** `node` with its fields set, once they are parsed (they come after the node, which is their parent). */
export function withFields(node: ObjectNode, fields: ExprFields): ObjectNode {
  node.fields = fields;
  return node;
}

/** The position nodes read from a request body start from; shared by every request's tree, so frozen. */
export const ROOT: Position = Object.freeze([]) as unknown as Position;
