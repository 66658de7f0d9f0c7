// FQL v10 evaluation over a bare Store for unit tests: an interpreter acting as the root, event-source specs from
// query text (the token text `/query/1` would issue), and the event runtime the event service needs.
import { randomBytes } from 'node:crypto';
import { DEFAULT_API_VERSION } from '../../../../reference-impl/codec/api-version.js';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import { EvalContext, Scope, type EvalServices } from '../../../../reference-impl/eval/context.js';
import { v4Evaluator } from '../../../../reference-impl/eval/evaluator.js';
import type { Identity } from '../../../../reference-impl/eval/identity.js';
import { QueryLimits } from '../../../../reference-impl/eval/query-limits.js';
import { encodeEventSourceSpec, type EventSourceSpec } from '../../../../reference-impl/event-source/plan.js';
import { parseQuery } from '../../../../reference-impl/fql/parser.js';
import { canonicalQueryText, stableStringify } from '../../../../reference-impl/fql/query-input.js';
import { eventRuntime } from '../../../../reference-impl/fql/runtime/event-runtime.js';
import { Interpreter } from '../../../../reference-impl/fql/runtime/interpreter.js';
import type { FqlValue } from '../../../../reference-impl/fql/runtime/values.js';
import type { Store } from '../../../../reference-impl/store/store.js';
import { Transaction } from '../../../../reference-impl/txn/transaction.js';
import { Time } from '../../../../reference-impl/values/value.js';

export const ROOT_IDENTITY: Identity = { kind: 'root', database: '0', role: 'admin' };

let services: EvalServices | undefined;

/** The evaluation services of a composed server: they hold no store, so they serve any. */
export function evalServices(): EvalServices {
  services ??= composeReferenceServer({ rootSecret: 'unit', bcryptCost: 4, serverKey: randomBytes(32) }).services.evalServices;
  return services;
}

/** The runtime an EventService opens sources with, over `store`. */
export function unitRuntime(store: Store): (identity: Identity, ts: bigint) => Interpreter {
  return (identity, ts) => eventRuntime(store, evalServices(), identity, ts);
}

/** Evaluates `query` read-only at the store's last commit; answers the value and the event sources it created. */
export async function evaluate(store: Store, query: string): Promise<{ value: FqlValue; sources: EventSourceSpec[] }> {
  const ts = store.lastCommitTs;
  const txn = new Transaction(store, ts, true);
  const ctx = new EvalContext(
    txn,
    '0',
    ROOT_IDENTITY,
    DEFAULT_API_VERSION,
    evalServices(),
    Scope.EMPTY,
    v4Evaluator,
    new QueryLimits(10_000),
  );
  const sources: EventSourceSpec[] = [];
  const rt = new Interpreter({
    ctx,
    now: Time.fromMicros(ts),
    issueEventSource: async (spec) => {
      sources.push(spec);
      return `token-${sources.length}`;
    },
  });
  return { value: await rt.run(parseQuery(query), new Map()), sources };
}

/** The spec of the event source `query` creates. */
export async function sourceSpec(store: Store, query: string): Promise<EventSourceSpec> {
  const { sources } = await evaluate(store, query);
  const spec = sources.at(-1);
  if (spec === undefined) throw new Error(`${query} created no event source`);
  return spec;
}

/** The text `/query/1` puts in the token of the source `query` creates. */
export async function sourceText(store: Store, query: string): Promise<string> {
  return stableStringify({ query: canonicalQueryText(query, {}), source: encodeEventSourceSpec(await sourceSpec(store, query)) });
}
