/**
 * How Create behaves on each native collection (`Create(Ref("collections"), …)`, `CreateKey(…)`, …).
 * Each area registers the handler of the native collections it owns; the core registers collections,
 * databases and keys.
 */
import type { Position } from '../errors/query-error.js';
import type { ObjectValue, Ref, Value } from '../values/value.js';
import type { EvalContext } from './context.js';

export interface NativeCollectionHandler {
  /**
   * Creates a record from params in `ctx.database` (or the database `scope` designates) and returns the
   * record as rendered for the create response (it may include a once-only secret).
   */
  create(ctx: EvalContext, params: ObjectValue, position: Position, scope?: Ref): Promise<Value>;
}

export class NativeCollectionHandlers {
  private readonly handlers = new Map<string, NativeCollectionHandler>();

  register(nativeCollection: string, handler: NativeCollectionHandler): this {
    this.handlers.set(nativeCollection, handler);
    return this;
  }

  get(nativeCollection: string): NativeCollectionHandler | undefined {
    return this.handlers.get(nativeCollection);
  }
}
