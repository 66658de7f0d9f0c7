// The history checker in the suite: a generated workload (fast-check, seeded by the run) writes through the v4
// endpoint while two feed clients and two stream clients (one of them dropping and resuming by cursor) record
// what they see; the checker then requires every committed change of the source exactly once per client, in
// txn_ts order, one order across feed clients, and nothing from outside the source.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { check, target, useTenant, type StreamReader } from '../../harness/index.js';
import { createCollections, createDoc, deleteDoc, docRef, updateDoc } from '../../harness/v4.js';
import { checkHistory, expectedChanges, type ExpectedChange, type Observation, type ObservedEvent } from '../../harness/history-checker.js';
import { createSource, docId, type EventData, feedAll, nextData, showEvent } from './event-fixtures.js';

const SLOTS = 6;
const IN_SET_BELOW = 50;

type Step = { slot: number; kind: 'write'; v: number } | { slot: number; kind: 'delete' } | { kind: 'elsewhere'; v: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ slot: fc.nat(SLOTS - 1), kind: fc.constant('write' as const), v: fc.nat(99) }),
  fc.record({ slot: fc.nat(SLOTS - 1), kind: fc.constant('delete' as const) }),
  fc.record({ kind: fc.constant('elsewhere' as const), v: fc.nat(99) }),
);
const workloadArb = fc.array(fc.array(stepArb, { minLength: 1, maxLength: 5 }), { minLength: 12, maxLength: 20 });

/** What the checker reads of a stream event. */
type StreamedEvent = EventData & { readonly type: string; readonly txn_ts: bigint; readonly cursor: string };

function observed(event: StreamedEvent): ObservedEvent {
  return { ts: event.txn_ts, id: docId(event), type: String(event.type) };
}

describe('History checker', () => {
  const t = useTenant({ roles: ['server'] });

  check(
    ['EVT-ORDER-001', 'EVT-ORDER-002', 'EVT-ORDER-003', 'FEED-ORDER-001', 'FEED-PAGE-006', 'STREAM-REPLAY-004', 'EVT-TRIGGER-006'],
    'every committed change reaches every feed and stream client exactly once, in txn_ts order, in one order across feeds, and nothing else does',
    async () => {
      const [workload] = fc.sample(workloadArb, { seed: target().seed, numRuns: 1 });
      await createCollections(t.server, 'Tracked');
      await createCollections(t.server, 'Elsewhere');
      const { token } = await createSource(t.server, `Tracked.where(.v < ${IN_SET_BELOW}).eventSource()`);
      const steady = await t.server.stream({ token });
      let dropping: StreamReader = await t.server.stream({ token });
      expect((await steady.next()).type).toBe('status');
      expect((await dropping.next()).type).toBe('status');

      const slots: ({ id: string; v: number } | undefined)[] = Array.from({ length: SLOTS }, () => undefined);
      const expected: ExpectedChange[] = [];
      const droppingSeen: StreamedEvent[] = [];
      for (const [index, steps] of workload!.entries()) {
        // One planned write per expression sent, in the same order, so results map back by position.
        const planned: ({ slot: number; op: 'create' | 'update' | 'delete'; v?: number } | undefined)[] = [];
        const exprs: unknown[] = [];
        const touched = new Set<number>();
        for (const step of steps) {
          if (step.kind === 'elsewhere') {
            planned.push(undefined);
            exprs.push(createDoc('Elsewhere', { v: step.v }));
            continue;
          }
          if (touched.has(step.slot)) continue;
          const current = slots[step.slot];
          if (step.kind === 'delete') {
            if (!current) continue;
            touched.add(step.slot);
            planned.push({ slot: step.slot, op: 'delete' });
            exprs.push(deleteDoc(docRef('Tracked', current.id)));
          } else {
            touched.add(step.slot);
            planned.push({ slot: step.slot, op: current ? 'update' : 'create', v: step.v });
            exprs.push(current ? updateDoc(docRef('Tracked', current.id), { v: step.v }) : createDoc('Tracked', { v: step.v }));
          }
        }
        if (exprs.length === 0) continue;
        const res = (await t.server.query(exprs)).expectStatus(200, 201);
        const ts = BigInt(res.headers['x-txn-time']!);
        const results = res.resource as { ref: { '@ref': { id: string } } }[];
        const writes = new Map<string, { before: { v: number } | undefined; after: { v: number } | undefined }>();
        for (const [r, write] of planned.entries()) {
          if (!write) continue;
          const id = String(results[r].ref['@ref'].id);
          const before = slots[write.slot];
          const after = write.op === 'delete' ? undefined : { id, v: write.v! };
          writes.set(id, { before, after });
          slots[write.slot] = after;
        }
        expected.push(...expectedChanges(ts, writes, (doc) => doc.v < IN_SET_BELOW));
        // Halfway, the second stream client drops its connection and resumes from its last cursor.
        if (index === Math.floor(workload!.length / 2)) {
          while (droppingSeen.length < expected.length) droppingSeen.push(await nextData(dropping));
          dropping.close();
          const last = droppingSeen.at(-1);
          dropping = await t.server.stream(last ? { token, cursor: last.cursor } : { token });
          expect((await dropping.next()).type).toBe('status');
        }
      }

      const steadySeen: StreamedEvent[] = [];
      try {
        while (steadySeen.length < expected.length) steadySeen.push(await nextData(steady));
        while (droppingSeen.length < expected.length) droppingSeen.push(await nextData(dropping));
      } finally {
        steady.close();
        dropping.close();
      }
      const feedA = await feedAll(t.server, { token, page_size: 3 });
      const feedB = await feedAll(t.server, { token, page_size: 7 });
      const observations: Observation[] = [
        { client: 'feed-3', kind: 'feed', events: feedA.events.map(observed) },
        { client: 'feed-7', kind: 'feed', events: feedB.events.map(observed) },
        { client: 'stream', kind: 'stream', events: steadySeen.map(observed) },
        { client: 'stream-resumed', kind: 'stream', events: droppingSeen.map(observed) },
      ];
      const problems = checkHistory(expected, observations);
      expect(problems, `workload ${showEvent(workload)}`).toEqual([]);
    },
    { timeout: 60_000 },
  );
});
