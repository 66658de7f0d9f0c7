/**
 * How Create behaves on each native collection (`Create(Ref("collections"), …)`, `CreateKey(…)`, …).
 * Each area registers the handler of the native collections it owns; the core registers collections,
 * databases and keys.
 */
import { errors, type Position } from '../errors/query-error.js';
import type { DatabaseId } from '../store/store.js';
import type { ObjectValue, Value } from '../values/value.js';
import { expectObject } from './arguments.js';
import type { EvalContext } from './context.js';
import type { FormDefinition } from './form-registry.js';
import { throwIfFailures } from './record-fields.js';
import { refuseWriteAtEarlierTime } from './snapshot-writes.js';
import { unresolvedRefFailures } from './written-refs.js';

export interface NativeCollectionHandler {
  /**
   * Creates a record from params in `ctx.database` and returns the
   * record as rendered for the create response (it may include a once-only secret).
   */
  create(ctx: EvalContext, params: ObjectValue, position: Position): Promise<Value>;
  /**
   * Checks a record of this collection that Update or Replace is about to store in `database` (the whole record, as
   * it would be stored) as `create` checks a new one (DEC-047), and answers the fields to store; throws
   * `validation failed`. `id` is the record's id before the write (a rename changes it).
   */
  checkUpdate?(ctx: EvalContext, database: DatabaseId, fields: ObjectValue, position: Position, id: string): ObjectValue;
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

// Implements: PROTO-ERROR-012
/** A `create_<thing>: {params}` form (CreateRole, CreateIndex, …): Create on the native collection `native`. */
export function nativeCreateForm(key: string, native: string): FormDefinition {
  return {
    required: [key],
    async evaluate(ctx, args) {
      const params = expectObject(await args.value(ctx, key), args.position(key));
      const handler = ctx.services.natives.get(native);
      if (!handler) throw errors.invalidExpression(`${key} is not supported.`, args.node.position);
      refuseWriteAtEarlierTime(ctx, args.node.position);
      throwIfFailures(unresolvedRefFailures(ctx, params), args.node.position);
      // What the record's own checks refuse is reported at the function's argument, as the real service does (DEC-051).
      return handler.create(ctx, params, args.position(key));
    },
  };
}
