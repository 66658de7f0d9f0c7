import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseWireJson } from '../../harness/wire-json.js';
import { compareWire, compareWireColumn, type WireValue } from '../../harness/model/wire-order.js';
import { IndexModel, type ModelDocument } from '../../harness/model/index-model.js';

interface OrderingCase {
  description: string;
  values: WireValue[];
  reverse?: boolean;
  missing?: boolean;
  decision?: string;
  source: string;
}

const file = parseWireJson(readFileSync(new URL('../../conformance/ordering/ordering-cases.json', import.meta.url), 'utf8')) as { cases: OrderingCase[] };

describe('ordering-cases.json agrees with the wire-order model', () => {
  it('holds enough cases to cover every pair of types', () => {
    expect(file.cases.length).toBeGreaterThanOrEqual(46);
  });

  for (const c of file.cases) {
    it(c.description, () => {
      const values: (WireValue | undefined)[] = c.missing ? [...c.values.slice(0, -1), undefined] : c.values;
      for (let i = 0; i < values.length; i++) {
        for (let j = 0; j < values.length; j++) {
          const got = Math.sign(compareWireColumn(values[i], values[j], c.reverse === true));
          expect(got, `${i} vs ${j}`).toBe(Math.sign(i - j));
        }
      }
    });
  }

  it('reads integers as bigint and decimals as number, so 1 and 1.0 stay distinct', () => {
    const [a, b] = parseWireJson('[1, 1.0]') as [WireValue, WireValue];
    expect(typeof a).toBe('bigint');
    expect(typeof b).toBe('number');
    expect(compareWire(a, b)).toBeLessThan(0);
  });
});

const ref = (id: number): WireValue => ({ '@ref': { id: String(id), collection: { '@ref': { id: 'things', collection: { '@ref': { id: 'collections' } } } } } });

describe('IndexModel walks', () => {
  const field: fc.Arbitrary<WireValue> = fc.oneof(fc.bigInt({ min: -3n, max: 3n }), fc.constantFrom('a', 'B', 1.5, true, null), fc.constant<WireValue>([1n, 'a']));
  const docs = fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { maxLength: 25 }).chain((ids) =>
    fc.tuple(...ids.map((id) => fc.record({ x: field, y: field }).map((data): ModelDocument => ({ ref: ref(id), data })))),
  );

  it('forward and backward walks each list the whole set once, in the same order', () => {
    fc.assert(
      fc.property(docs, fc.boolean(), fc.integer({ min: 1, max: 6 }), (documents, reverse, size) => {
        const model = new IndexModel({ values: [{ field: ['data', 'x'], reverse }, { field: ['data', 'y'] }] }, documents);
        const expected = model.entries([]).map((e) => e.element);
        const forward = model.paginateForward([], size).flatMap((p) => p.data);
        const backward = model.paginateBackward([], size).reverse().flatMap((p) => p.data);
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
    expect(model.entries(['a']).map((e) => e.cursor)).toEqual([[1n, ref(2)], [2n, ref(1)], [3n, ref(2)]]);
    expect(model.entries(['b']).map((e) => e.element)).toEqual([2n]);
  });

  it('pages like the service: forward before echoes after, backward after echoes before', () => {
    const model = new IndexModel({}, [1, 2, 3, 4, 5].map((id) => ({ ref: ref(id) })));
    expect(model.page([], { size: 2, after: [ref(2)] })).toEqual({ data: [ref(2), ref(3)], before: [ref(2)], after: [ref(4)] });
    expect(model.page([], { size: 2, before: [ref(4)] })).toEqual({ data: [ref(2), ref(3)], before: [ref(2)], after: [ref(4)] });
    expect(model.page([], { size: 3, before: [ref(3)] })).toEqual({ data: [ref(1), ref(2)], after: [ref(3)] });
  });
});
