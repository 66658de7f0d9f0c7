/**
 * Failpoints: named, deliberate deviations from the spec, marked in the code where they happen (as etcd's gofail
 * marks its failpoints), for the self-check's faults that a proxy between suite and server cannot express (which
 * secret's rights filter events, whether an expired key still authenticates, …).
 *
 * They are off unless the server is started with `failpoints: true`, which only the self-check does. Then a request
 * names the failpoints it wants in the `x-fauna-conformance-failpoints` header (comma-separated), and they are active
 * while that request is handled, including everything its handler awaits; the answer names those that fired in
 * `x-fauna-conformance-failpoints-fired`, so a fault that never fired is told from one nobody noticed. Work done later
 * on a request's behalf (a stream's events) reads what `activeFailpoints()` gave when the request opened it; a
 * failpoint asked while another request's write is published (a stream ending on a delete or a revocation) reads
 * that request's, which the self-check marks too, since its proxy marks every request of a fault's run. A failpoint
 * asked after a stream's headers went out is never reported as fired.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const FAILPOINTS_HEADER = 'x-fauna-conformance-failpoints';
export const FAILPOINTS_FIRED_HEADER = 'x-fauna-conformance-failpoints-fired';

/** The failpoints of one request, and those of them that fired. */
export class ActiveFailpoints {
  readonly fired = new Set<string>();

  constructor(private readonly names: ReadonlySet<string>) {}

  /** Whether the request turned `name` on, without counting it as fired. */
  wants(name: string): boolean {
    return this.names.has(name);
  }

  /** Whether `name` is on for this request; a failpoint that is on counts as fired once asked. */
  on(name: string): boolean {
    if (!this.names.has(name)) return false;
    this.fired.add(name);
    return true;
  }
}

const current = new AsyncLocalStorage<ActiveFailpoints>();

/** Whether the request being handled turned on failpoint `name`. Always false on a server started without failpoints. */
export function failpoint(name: string): boolean {
  return current.getStore()?.on(name) ?? false;
}

/**
 * Failpoint `name` where `holds()`: the condition (a store lookup, a match: work only the failpoint needs) is
 * evaluated only for a request that turned `name` on, and the failpoint counts as fired only where it holds.
 */
export function failpointWhere(name: string, holds: () => boolean): boolean {
  const active = current.getStore();
  return active?.wants(name) === true && holds() && active.on(name);
}

/** The failpoints of the request being handled, for work that outlives its handler (undefined: none). */
export function activeFailpoints(): ActiveFailpoints | undefined {
  return current.getStore();
}

/** The failpoints a request's header names (undefined when it names none). */
export function requestedFailpoints(header: string | undefined): ActiveFailpoints | undefined {
  if (header === undefined) return undefined;
  const names = header
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : new ActiveFailpoints(new Set(names));
}

const memories = new Map<string, Map<string, unknown>>();

/**
 * What the faulty server of failpoint `name` remembers between requests (the users it logged out for good, the token
 * secrets it shows again…), by keys of the failpoint's choosing. It lives here, with the failpoints, rather than as
 * state of the layers that read and write it; a server without failpoints never fills it.
 */
export function failpointMemory<V>(name: string): Map<string, V> {
  const memory = memories.get(name);
  if (memory !== undefined) return memory as Map<string, V>;
  const created = new Map<string, V>();
  memories.set(name, created as Map<string, unknown>);
  return created;
}

/** Runs `handle` with `failpoints` active for it and everything it awaits. */
export function withFailpoints<T>(failpoints: ActiveFailpoints, handle: () => T): T {
  return current.run(failpoints, handle);
}
