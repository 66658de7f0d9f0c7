import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from '../../../../reference-impl/durability/value-codec.js';
import { replayCommitLog } from '../../../../reference-impl/durability/recovery.js';
import { encodeTransaction } from '../../../../reference-impl/durability/transaction-codec.js';
import { Store, type CommitRecord } from '../../../../reference-impl/store/store.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type Value } from '../../../../reference-impl/values/value.js';

const refArb: fc.Arbitrary<Ref> = fc.letrec<{ ref: Ref }>((tie) => ({
  ref: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map((id) => new Ref(id)),
    fc.tuple(fc.string(), tie('ref'), fc.option(tie('ref'), { nil: undefined })).map(([id, c, d]) => new Ref(id, c, d)),
  ),
})).ref;

const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.string({ unit: 'grapheme' }),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.double(),
    refArb,
    fc.bigInt({ min: 0n, max: 2n ** 70n }).map((n) => new Time(n)),
    fc.integer({ min: -1e6, max: 1e6 }).map((d) => new DateValue(d)),
    fc.uint8Array().map((b) => new Bytes(b)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'o', 'i', '@ref')), tie('value'), {
      maxKeys: 4,
      noNullPrototype: true,
    }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 3, noNullPrototype: true }).map((s) => new SetRef(s)),
    fc.tuple(fc.oneof(fc.string(), fc.array(fc.string())), tie('value')).map(([l, e]) => new QueryValue(l, e, '4')),
  ),
})).value;

describe('commit-log value codec', () => {
  it('round-trips every value through JSON text, keeping integers, decimals and odd field names apart', () => {
    fc.assert(
      fc.property(valueArb, (value) => {
        const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(value))));
        expect(back).toStrictEqual(value);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps 1 and 1.0 and non-finite decimals distinct', () => {
    for (const v of [1n, 1, Number.NaN, Infinity, -Infinity, -0])
      expect(decodeValue(JSON.parse(JSON.stringify(encodeValue(v))))).toStrictEqual(v);
  });
});

describe('replay', () => {
  it('recreates databases named by database records, with their documents, and rebuilds before-versions', () => {
    const version = (ts: bigint, fields: Record<string, Value>, hidden = {}) => ({ ts, action: 'create' as const, fields, hidden });
    const txns: CommitRecord[][] = [
      [
        {
          ts: 10n,
          database: '0',
          writes: [
            {
              collection: 'databases',
              id: 'child',
              action: 'create',
              before: undefined,
              after: version(10n, { name: 'child' }, { databaseId: '7' }),
            },
          ],
        },
      ],
      [
        {
          ts: 20n,
          database: '7',
          writes: [
            { collection: 'collections/things', id: '123', action: 'create', before: undefined, after: version(20n, { data: { n: 1n } }) },
          ],
        },
        {
          ts: 20n,
          database: '0',
          writes: [
            {
              collection: 'keys',
              id: '5',
              action: 'create',
              before: undefined,
              after: version(20n, { role: 'admin' }, { secretDigest: 'ab' }),
            },
          ],
        },
      ],
      [
        {
          ts: 30n,
          database: '7',
          writes: [
            {
              collection: 'collections/things',
              id: '123',
              action: 'update',
              before: undefined,
              after: { ...version(30n, { data: { n: 2n } }), action: 'update' },
            },
          ],
        },
      ],
    ];
    const payloads = txns.map((records) => JSON.parse(JSON.stringify(encodeTransaction(records))));
    const store = new Store();
    const seen: CommitRecord[] = [];
    store.onCommit((record) => seen.push(record));
    expect(replayCommitLog(store, payloads)).toEqual({ transactions: 3, lastTs: 30n });
    expect(store.database('7')?.parent).toBe('0');
    expect(store.getDocument('7', 'collections/things', '123', 25n)?.fields).toEqual({ data: { n: 1n } });
    expect(store.getDocument('7', 'collections/things', '123', 30n)?.fields).toEqual({ data: { n: 2n } });
    expect(store.getDocument('0', 'keys', '5', 30n)?.hidden).toEqual({ secretDigest: 'ab' });
    expect(seen[3]!.writes[0]!.before?.fields).toEqual({ data: { n: 1n } });
    expect(store.allocateDatabase('0')).toBe('8');
    expect(BigInt(store.newDocumentId())).toBeGreaterThan(123n);
  });
});
