// The history checker: given the changes a workload committed (what a correct source must emit) and what several
// feed and stream clients observed, lists every violation of the event guarantees — each change exactly once per
// client, ascending txn_ts, one order across feed clients, and nothing that was not a change of the source.
import type { FeedEvent } from '../../schemas/types.js';

export type ChangeType = Exclude<FeedEvent['type'], 'error'>;

/** One event a correct server emits: document `id` changed with `type` in the transaction at `ts`. */
export interface ExpectedChange {
  readonly ts: bigint;
  readonly id: string;
  readonly type: ChangeType;
}

export interface ObservedEvent {
  readonly ts: bigint;
  readonly id: string;
  readonly type: string;
}

export interface Observation {
  readonly client: string;
  readonly kind: 'feed' | 'stream';
  readonly events: readonly ObservedEvent[];
}

function key(change: { ts: bigint; id: string; type: string }): string {
  return `${change.ts}/${change.id}/${change.type}`;
}

/** Problems found, as sentences; an empty list means the history is consistent. */
export function checkHistory(expected: readonly ExpectedChange[], observations: readonly Observation[]): string[] {
  const problems: string[] = [];
  const wanted = new Map(expected.map((c) => [key(c), c]));
  for (const observation of observations) {
    const who = `${observation.kind} client ${observation.client}`;
    const seen = new Map<string, number>();
    observation.events.forEach((event, i) => {
      const k = key(event);
      seen.set(k, (seen.get(k) ?? 0) + 1);
      if (!wanted.has(k))
        problems.push(`${who}: event #${i + 1} (${event.type} of ${event.id} at ${event.ts}) is not a committed change of the source`);
      const previous = observation.events[i - 1];
      if (previous && event.ts < previous.ts)
        problems.push(`${who}: event #${i + 1} at ${event.ts} comes after an event at ${previous.ts} (txn_ts must ascend)`);
    });
    for (const [k, change] of wanted) {
      const count = seen.get(k) ?? 0;
      if (count === 0) problems.push(`${who}: missed ${change.type} of ${change.id} at ${change.ts}`);
      if (count > 1) problems.push(`${who}: saw ${change.type} of ${change.id} at ${change.ts} ${count} times`);
    }
  }
  const feeds = observations.filter((o) => o.kind === 'feed');
  const reference = feeds[0];
  for (const other of feeds.slice(1)) {
    const a = reference!.events.map(key).join(',');
    const b = other.events.map(key).join(',');
    if (a !== b) problems.push(`feed clients ${reference!.client} and ${other.client} saw different orders`);
  }
  return problems;
}

/**
 * The changes a source over the documents for which `member(fields)` holds must emit for one transaction, given
 * each written document's state before and after it (undefined = absent).
 */
export function expectedChanges<T>(
  ts: bigint,
  writes: ReadonlyMap<string, { before: T | undefined; after: T | undefined }>,
  member: (fields: T) => boolean,
): ExpectedChange[] {
  const out: ExpectedChange[] = [];
  for (const [id, { before, after }] of writes) {
    const was = before !== undefined && member(before);
    const is = after !== undefined && member(after);
    if (was && is) out.push({ ts, id, type: 'update' });
    else if (is && !was) out.push({ ts, id, type: 'add' });
    else if (was && !is) out.push({ ts, id, type: 'remove' });
  }
  return out;
}
