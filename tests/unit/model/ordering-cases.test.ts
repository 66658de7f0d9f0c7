import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ORDERING_CASES, type OrderingCase } from '../../conformance/ordering/ordering-cases.js';
import { parseWireJson } from '../../harness/wire-json.js';
import { compareWire, compareWireColumn, type WireOrder, type WireValue } from '../../harness/model/wire-order.js';
import { IndexModel, type ModelDocument } from '../../harness/model/index-model.js';

const canonical = (v: WireValue): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));

/** Every pair of the listed values compares as their positions under `order`. */
function expectOrdered(values: readonly WireValue[], c: OrderingCase, order: WireOrder): void {
  const read: (WireValue | undefined)[] = c.missing ? [...values.slice(0, -1), undefined] : [...values];
  for (let i = 0; i < read.length; i++) {
    for (let j = 0; j < read.length; j++) {
      const got = Math.sign(compareWireColumn(read[i], read[j], c.reverse === true, order));
      expect(got, `${order}: ${i} vs ${j}`).toBe(Math.sign(i - j));
    }
  }
}

describe('ordering-cases.json agrees with the wire-order model', () => {
  it('holds enough cases to cover every pair of types', () => {
    expect(ORDERING_CASES.length).toBeGreaterThanOrEqual(55);
  });

  for (const c of ORDERING_CASES) {
    it(c.description, () => {
      expect(c.requirements.length).toBeGreaterThan(0);
      expectOrdered(c.values, c, 'core');
      // Without an SD order the case holds under both type orders; with one, that order is a permutation of the values.
      if (c.sd === undefined) expectOrdered(c.values, c, 'sd');
      else {
        expect([...c.sd].map(canonical).sort()).toEqual([...c.values].map(canonical).sort());
        expect(c.sd).not.toEqual(c.values);
        expectOrdered(c.sd, c, 'sd');
      }
    });
  }

  it("reads integers as bigint and decimals as number: 1 and 1.0 are equal in the real service's order, the integer first in the SD's", () => {
    const [a, b] = parseWireJson('[1, 1.0]') as [WireValue, WireValue];
    expect(typeof a).toBe('bigint');
    expect(typeof b).toBe('number');
    expect(compareWire(a, b, 'core')).toBe(0);
    expect(compareWire(a, b, 'sd')).toBeLessThan(0);
  });
});

const ref = (id: number): WireValue => ({
  '@ref': { id: String(id), collection: { '@ref': { id: 'things', collection: { '@ref': { id: 'collections' } } } } },
});

describe('IndexModel walks', () => {
  const field: fc.Arbitrary<WireValue> = fc.oneof(
    fc.bigInt({ min: -3n, max: 3n }),
    fc.constantFrom('a', 'B', 1.5, true, null),
    fc.constant<WireValue>([1n, 'a']),
  );
  const docs = fc
    .uniqueArray(fc.integer({ min: 1, max: 999 }), { maxLength: 25 })
    .chain((ids) => fc.tuple(...ids.map((id) => fc.record({ x: field, y: field }).map((data): ModelDocument => ({ ref: ref(id), data })))));

  it('forward and backward walks each list the whole set once, in the same order', () => {
    fc.assert(
      fc.property(docs, fc.boolean(), fc.integer({ min: 1, max: 6 }), (documents, reverse, size) => {
        const model = new IndexModel({ values: [{ field: ['data', 'x'], reverse }, { field: ['data', 'y'] }] }, documents);
        const expected = model.entries([]).map((e) => e.element);
        const forward = model.paginateForward([], size).flatMap((p) => p.data);
        const backward = model
          .paginateBackward([], size)
          .reverse()
          .flatMap((p) => p.data);
        expect(forward).toEqual(expected);
        expect(backward).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('fans array fields out into entries and drops all-null value rows', () => {
    const model = new IndexModel({ terms: [{ field: ['data', 't'] }], values: [{ field: ['data', 'v'] }] }, [
      { ref: ref(1), data: { t: ['a', 'b'], v: 2n } },
      { ref: ref(2), data: { t: 'a', v: [3n, 1n] } },
      { ref: ref(3), data: { t: 'a' } },
    ]);
    expect(model.entries(['a']).map((e) => e.cursor)).toEqual([
      [1n, ref(2)],
      [2n, ref(1)],
      [3n, ref(2)],
    ]);
    expect(model.entries(['b']).map((e) => e.element)).toEqual([2n]);
  });

  it('pages like the service: forward before echoes after, backward after echoes before', () => {
    const model = new IndexModel(
      {},
      [1, 2, 3, 4, 5].map((id) => ({ ref: ref(id) })),
    );
    expect(model.page([], { size: 2, after: [ref(2)] })).toEqual({ data: [ref(2), ref(3)], before: [ref(2)], after: [ref(4)] });
    expect(model.page([], { size: 2, before: [ref(4)] })).toEqual({ data: [ref(2), ref(3)], before: [ref(2)], after: [ref(4)] });
    expect(model.page([], { size: 3, before: [ref(3)] })).toEqual({ data: [ref(1), ref(2)], after: [ref(3)] });
  });
});
