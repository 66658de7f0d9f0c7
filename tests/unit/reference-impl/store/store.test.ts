import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROOT_DATABASE, Store, compareIds, type DocumentVersion, type WriteAction } from '../../../../reference-impl/store/store.js';

const COLLECTION = 'collections/items';

function version(ts: bigint, action: WriteAction, n: number): DocumentVersion {
  return { ts, action, fields: action === 'delete' ? {} : { data: { n: BigInt(n) } }, hidden: {} };
}

/** A store with ids 1..count created at ts 1, every third id deleted at ts 2, every fifth updated at ts 3. */
function populated(count: number): Store {
  const store = new Store();
  const write = (id: number, ts: bigint, action: WriteAction, before: DocumentVersion | undefined) => {
    const after = version(ts, action, id);
    store.commit([{ ts, database: ROOT_DATABASE, writes: [{ collection: COLLECTION, id: String(id), action, before, after }] }]);
  };
  for (let id = 1; id <= count; id++) write(id, 1n, 'create', undefined);
  for (let id = 3; id <= count; id += 3) write(id, 2n, 'delete', store.getDocument(ROOT_DATABASE, COLLECTION, String(id), 1n));
  for (let id = 5; id <= count; id += 5)
    if (id % 3 !== 0) write(id, 3n, 'update', store.getDocument(ROOT_DATABASE, COLLECTION, String(id), 2n));
  return store;
}

function expectedIds(count: number, atTs: bigint): number[] {
  return Array.from({ length: count }, (_, i) => i + 1).filter((id) => atTs < 2n || id % 3 !== 0);
}

const ids = (walk: Iterable<[string, DocumentVersion]>) => [...walk].map(([id]) => Number(id));

describe('store: collection walks', () => {
  // 3,000 ids span several read-ahead chunks (32, 64, … 1024) in both directions.
  const count = 3_000;
  const store = populated(count);

  it.each([1n, 2n, 3n])('ascending walk at ts %s yields every live id once, in numeric order', (atTs) => {
    expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, atTs, 'ascending'))).toEqual(expectedIds(count, atTs));
  });

  it.each([1n, 2n, 3n])('descending walk at ts %s yields every live id once, in reverse order', (atTs) => {
    expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, atTs, 'descending'))).toEqual(expectedIds(count, atTs).reverse());
  });

  it.each([1, 2, 3, 31, 32, 33, 100, 1_000, 2_999, 3_000])(
    'from id %s: ascending starts at the first id ≥ it, descending at the last id < it',
    (from) => {
      const live = expectedIds(count, 3n);
      expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, 3n, 'ascending', String(from)))).toEqual(live.filter((id) => id >= from));
      expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, 3n, 'descending', String(from)))).toEqual(
        live.filter((id) => id < from).reverse(),
      );
    },
  );

  it.each([1, 65, 5_000])('the expected count (%s) sizes the read-ahead only, never what a walk yields', (expected) => {
    const live = expectedIds(count, 3n);
    expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, 3n, 'ascending', '7', expected))).toEqual(live.filter((id) => id >= 7));
    expect(ids(store.walkCollection(ROOT_DATABASE, COLLECTION, 3n, 'descending', '2900', expected))).toEqual(
      live.filter((id) => id < 2900).reverse(),
    );
  });

  it('a walk yields the version live at its timestamp', () => {
    const at = (atTs: bigint) =>
      new Map([...store.walkCollection(ROOT_DATABASE, COLLECTION, atTs, 'ascending')].map(([id, v]) => [id, v.ts]));
    expect(at(2n).get('5')).toBe(1n);
    expect(at(3n).get('5')).toBe(3n);
    expect(at(1n).get('3')).toBe(1n);
    expect(at(3n).has('3')).toBe(false);
  });

  it('ids committed while a walk is suspended do not disturb it (they are newer than its timestamp)', () => {
    const fresh = populated(100);
    const walk = fresh.walkCollection(ROOT_DATABASE, COLLECTION, 3n, 'ascending');
    const seen = [Number(walk.next().value![0])];
    for (let id = 101; id <= 200; id++) {
      fresh.commit([
        {
          ts: 4n,
          database: ROOT_DATABASE,
          writes: [{ collection: COLLECTION, id: String(id), action: 'create', before: undefined, after: version(4n, 'create', id) }],
        },
      ]);
    }
    fresh.commit([
      {
        ts: 4n,
        database: ROOT_DATABASE,
        writes: [{ collection: COLLECTION, id: '50', action: 'create', before: undefined, after: version(4n, 'create', 50) }],
      },
    ]);
    for (const [id] of walk) seen.push(Number(id));
    expect(seen).toEqual(expectedIds(100, 3n));
  });

  it('a document keeps its whole history', () => {
    expect(store.versionsAfter(ROOT_DATABASE, COLLECTION, '10', 0n).map((v) => [v.ts, v.action])).toEqual([
      [1n, 'create'],
      [3n, 'update'],
    ]);
    expect(store.getDocument(ROOT_DATABASE, COLLECTION, '9', 3n)).toBeUndefined();
    expect(store.versionAt(ROOT_DATABASE, COLLECTION, '9', 3n)?.action).toBe('delete');
  });
});

describe('store: id order', () => {
  const idArbitrary = fc.oneof(
    fc.stringMatching(/^[0-9]{1,22}$/),
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.constantFrom('0', '00', '007', '7', '10', '9', '-1', '+1', ' ', '1a', 'a1', 'é', '\u{1F600}', '\u0000', '~', '~1', '~~a'),
  );

  it('walks, seeks and lists ids in compareIds order, whatever the ids (numeric, zero-padded, other text)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(idArbitrary, { minLength: 1, maxLength: 60 }), fc.nat(), (given, pick) => {
        const store = new Store();
        for (const id of given) {
          store.commit([
            {
              ts: 1n,
              database: ROOT_DATABASE,
              writes: [{ collection: COLLECTION, id, action: 'create', before: undefined, after: version(1n, 'create', 0) }],
            },
          ]);
        }
        const sorted = [...given].sort(compareIds);
        const walked = (direction: 'ascending' | 'descending', from?: string) =>
          [...store.walkCollection(ROOT_DATABASE, COLLECTION, 1n, direction, from, 4)].map(([id]) => id);
        expect(walked('ascending')).toEqual(sorted);
        expect(walked('descending')).toEqual([...sorted].reverse());
        expect(store.documentIds(ROOT_DATABASE, COLLECTION)).toEqual(sorted);
        const from = given[pick % given.length]!;
        expect(walked('ascending', from)).toEqual(sorted.filter((id) => compareIds(id, from) >= 0));
        expect(walked('descending', from)).toEqual(sorted.filter((id) => compareIds(id, from) < 0).reverse());
      }),
      { numRuns: 200 },
    );
  });
});

describe('store: generated document ids', () => {
  it('generates increasing ids above every id reserved, and ignores ids that cannot be generated', () => {
    const store = new Store();
    const first = BigInt(store.newDocumentId());
    const ahead = (first + 5_000_000_000n).toString();
    store.reserveDocumentId(ahead);
    store.reserveDocumentId('0999999999999999999999');
    store.reserveDocumentId('item-7');
    store.reserveDocumentId((first + 10n).toString());
    const next = Array.from({ length: 3 }, () => BigInt(store.newDocumentId()));
    expect(next).toEqual([BigInt(ahead) + 1n, BigInt(ahead) + 2n, BigInt(ahead) + 3n]);
  });
});
