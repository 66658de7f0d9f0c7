// FQL v10 evaluation over a bare Store for unit tests: an interpreter acting as the root, event-source specs from
// query text, and the event runtime the event service needs.
import { randomBytes } from 'node:crypto';
import { composeReferenceServer } from '../../../../reference-impl/composition.js';
import type { EvalServices } from '../../../../reference-impl/eval/context.js';
import type { Identity } from '../../../../reference-impl/auth/identity.js';
import type { EventSourceSpec } from '../../../../reference-impl/fql/runtime/event-source-plan.js';
import { parseQuery } from '../../../../reference-impl/fql/parser.js';
import { eventRuntime, readContextAt } from '../../../../reference-impl/fql/runtime/event-runtime.js';
import { Interpreter } from '../../../../reference-impl/fql/runtime/interpreter.js';
import type { FqlValue } from '../../../../reference-impl/fql/runtime/values.js';
import type { Store } from '../../../../reference-impl/store/store.js';
import { Time } from '../../../../reference-impl/values/value.js';

export const ROOT_IDENTITY: Identity = { kind: 'root', database: '0', role: 'admin' };

let services: EvalServices | undefined;

/** The evaluation services of a composed server: they hold no store, so they serve any. */
function evalServices(): EvalServices {
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
  const sources: EventSourceSpec[] = [];
  const rt = new Interpreter({
    ctx: readContextAt(store, evalServices(), ROOT_IDENTITY, ts),
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
