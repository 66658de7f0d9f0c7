// Model-based properties: generated documents with mixed-type values, generated index definitions and page
// sizes. Walking the whole set forward by `after` and backward by `before` (from a cursor past every entry) must equal
// the suite's own index model (tests/harness/model/index-model.ts) page for page: same data, same cursors, no gaps, no
// repeats; and the pages of the null cursors must equal the model's pages of the cursor [null].
// The run's seed (`--seed`) drives fast-check, so a failure replays exactly.
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { check, target, uniqueName, useTenant } from '../../harness/index.js';
import { collection, createDoc, createIndex, decimals, match, paginate, walkBackward, walkForward } from '../../harness/v4.js';
import { IndexModel, type ModelOptions, type ModelColumn, type ModelDocument } from '../../harness/model/index-model.js';
import type { WireValue } from '../../harness/model/wire-order.js';

const t = useTenant({ roles: ['server'] });
const RUNS = 20;

const scalar: fc.Arbitrary<WireValue> = fc.oneof(
  fc.bigInt({ min: -5n, max: 5n }),
  fc.constantFrom<WireValue>('', 'a', 'A', 'b', 'é', 'z10', 'z9'),
  fc.constantFrom<WireValue>(-2.5, 0.5, 1.0, 3.25),
  fc.boolean(),
  fc.constant<WireValue>(null),
  fc.constantFrom<WireValue>(
    { '@ts': '2024-01-01T00:00:00Z' },
    { '@ts': '1999-12-31T23:59:59.5Z' },
    { '@date': '2024-01-01' },
    { '@date': '1970-01-02' },
  ),
);
const value: fc.Arbitrary<WireValue> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.record({ k: fc.bigInt({ min: 0n, max: 2n }) }) as fc.Arbitrary<WireValue> },
);
/** A document's data: x and y may be missing; g is a small integer group used as a term. */
const data = fc.record({ x: value, y: value, g: fc.bigInt({ min: 0n, max: 1n }) }, { requiredKeys: ['g'] });
const column: fc.Arbitrary<ModelColumn> = fc.record({
  field: fc.constantFrom<readonly string[]>(['data', 'x'], ['data', 'y'], ['ref']),
  reverse: fc.boolean(),
});
const scenario = fc.record({
  docs: fc.array(data, { minLength: 0, maxLength: 24 }),
  values: fc.array(column, { minLength: 0, maxLength: 2 }),
  termed: fc.boolean(),
  group: fc.bigInt({ min: 0n, max: 1n }),
  size: fc.integer({ min: 1, max: 7 }),
});

/**
 * Which of the accepted readings the server follows, so the model agrees with either: where decimals sort
 * (ORD-TYPE-011: among the integers, as the real service, or after booleans, as the SD lists) and whether an object at
 * a value path is covered whole (the SD's reading) or as null (the real service's; IDX-VALUE-008).
 */
async function serverReadings(): Promise<Pick<ModelOptions, 'order' | 'objectValuesWhole'>> {
  const coll = uniqueName('probe');
  const name = uniqueName('probe_v');
  (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
  (await t.server.query(createIndex({ name, source: collection(coll), values: [{ field: ['data', 'v'] }], active: true }))).expectStatus(
    201,
  );
  (await t.server.query([1.5, 's', { k: 1n }].map((v) => createDoc(coll, decimals({ v }))))).expectStatus(200);
  const data = (await paginate(t.server, match(name))).data;
  return {
    order: data.indexOf(1.5) < data.indexOf('s') ? 'core' : 'sd',
    objectValuesWhole: data.some((v) => v !== null && typeof v === 'object'),
  };
}

describe('Paging equals the index model', () => {
  check(
    [
      'PAGE-CURSOR-003',
      'PAGE-CURSOR-004',
      'PAGE-CURSOR-005',
      'PAGE-CURSOR-006',
      'PAGE-CURSOR-013',
      'PAGE-SHAPE-005',
      'ORD-CONTENT-009',
      'ORD-CONTENT-010',
      'ORD-REVERSE-001',
      'ORD-REVERSE-002',
      'ORD-REVERSE-005',
    ],
    'Walking forward and backward over generated documents and index definitions equals the model page for page',
    async () => {
      const seed = target().seed;
      const readings = await serverReadings();
      console.info(`paging model property: seed ${seed}, ${RUNS} runs (replay with --seed ${seed})`);
      await fc.assert(
        fc.asyncProperty(scenario, async ({ docs, values, termed, group, size }) => {
          const coll = uniqueName('m');
          const name = uniqueName('mi');
          (await t.server.query({ create_collection: { object: { name: coll } } })).expectStatus(201);
          const terms: ModelColumn[] = termed ? [{ field: ['data', 'g'] }] : [];
          (await t.server.query(createIndex({ name, source: collection(coll), terms, values, active: true }))).expectStatus(201);
          const created =
            docs.length === 0
              ? []
              : ((await t.server.query(docs.map((d) => createDoc(coll, decimals(d as WireValue))))).expectStatus(200)
                  .resource as ModelDocument[]);
          const model = new IndexModel(
            { terms, values },
            created.map((d) => ({ ref: d.ref, data: d.data! })),
            readings,
          );
          const termTuple = termed ? [group] : [];
          const set = termed ? match(name, group) : match(name);
          const forward = await walkForward(t.server, set, size);
          expect(forward).toEqual(model.paginateForward(termTuple, size));
          const backward = await walkBackward(t.server, set, size, model.pastEnd());
          expect(backward).toEqual(model.paginateBackward(termTuple, size));
          // A null cursor is the tuple [null], compared like any other: past an ascending first column, before a reversed one.
          expect(await paginate(t.server, set, { size: BigInt(size), before: null })).toEqual(
            model.page(termTuple, { size, before: [null] }),
          );
          expect(await paginate(t.server, set, { size: BigInt(size), after: null })).toEqual(
            model.page(termTuple, { size, after: [null] }),
          );
        }),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
    },
    { timeout: 120_000 },
  );
});
