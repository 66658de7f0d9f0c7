/**
 * The interpreter an event source's functions run in for one event: reading as of the event's transaction, with the
 * rights of the secret whose rights filter the events, `Time.now()` the event's time, and no event sources of its own.
 */
import { DEFAULT_API_VERSION } from '../../codec/api-version.js';
import { EvalContext, Scope, type EvalServices } from '../../eval/context.js';
import { v4Evaluator } from '../../eval/evaluator.js';
import type { Identity } from '../../auth/identity.js';
import { QueryLimits } from '../../eval/query-limits.js';
import type { Store } from '../../store/store.js';
import { Transaction } from '../../txn/transaction.js';
import { Time } from '../../values/value.js';
import { Interpreter } from './interpreter.js';

/**
 * A read-only evaluation of `identity` in its database at `ts`: where an event's functions run, and where the access
 * policy decides what the secret may read of a source and its events.
 */
export function readContextAt(store: Store, services: EvalServices, identity: Identity, ts: bigint): EvalContext {
  return new EvalContext(
    new Transaction(store, ts, true),
    identity.database,
    identity,
    DEFAULT_API_VERSION,
    services,
    Scope.EMPTY,
    v4Evaluator,
    new QueryLimits(services.queryTimeLimitMs),
  );
}

export function eventRuntime(store: Store, services: EvalServices, identity: Identity, ts: bigint): Interpreter {
  return new Interpreter({ ctx: readContextAt(store, services, identity, ts), now: Time.fromMicros(ts) });
}
