import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeSimple,
  decodeTagged,
  encodeTagged,
  stringifySimple,
  TaggedDecodeError,
  TaggedDocument,
  TaggedEventSource,
  TaggedSetPage,
  type TaggedValue,
} from '../../../../reference-impl/codec/tagged.js';
import { Bytes, DateValue, Ref, SetRef, Time } from '../../../../reference-impl/values/value.js';

const product = new Ref('Product', new Ref('collections'));

describe('tagged format', () => {
  it.each<[string, TaggedValue, unknown]>([
    ['32-bit int', 3n, { '@int': '3' }],
    ['int32 bounds', [2147483647n, -2147483648n], [{ '@int': '2147483647' }, { '@int': '-2147483648' }]],
    ['long beyond int32', 2147483648n, { '@long': '2147483648' }],
    ['long bounds', -(2n ** 63n), { '@long': '-9223372036854775808' }],
    ['double', 22.2, { '@double': '22.2' }],
    ['integral double keeps its type', 1, { '@double': '1.0' }],
    ['NaN', NaN, { '@double': 'NaN' }],
    ['Infinity', Infinity, { '@double': 'Infinity' }],
    ['-Infinity', -Infinity, { '@double': '-Infinity' }],
    ['time, whole seconds', Time.fromMicros(1704067200000000n), { '@time': '2024-01-01T00:00:00Z' }],
    ['time, nanoseconds', new Time(1704067200123456789n), { '@time': '2024-01-01T00:00:00.123456789Z' }],
    ['time before the epoch', new Time(-1n), { '@time': '1969-12-31T23:59:59.999999999Z' }],
    ['date', new DateValue(19723), { '@date': '2024-01-01' }],
    ['bytes', new Bytes(new Uint8Array([1, 2, 3])), { '@bytes': 'AQID' }],
    ['collection', product, { '@mod': 'Product' }],
    ['system collection', new Ref('keys'), { '@mod': 'Key' }],
    ['document ref', new Ref('123', product), { '@ref': { id: '123', coll: { '@mod': 'Product' } } }],
    ['named system document', new Ref('by_email', new Ref('indexes')), { '@ref': { name: 'by_email', coll: { '@mod': 'Index' } } }],
    ['key ref', new Ref('9', new Ref('keys')), { '@ref': { id: '9', coll: { '@mod': 'Key' } } }],
    ['object with @ key is escaped', { '@foo': 'one', bar: 'two' }, { '@object': { '@foo': 'one', bar: 'two' } }],
    ['plain values', ['s', true, null, { a: [] }], ['s', true, null, { a: [] }]],
    ['event source', new TaggedEventSource('g9WD'), { '@stream': 'g9WD' }],
    ['set page', new TaggedSetPage([1n], 'next'), { '@set': { data: [{ '@int': '1' }], after: 'next' } }],
    ['set cursor only', new TaggedSetPage(undefined, 'next'), { '@set': 'next' }],
    [
      'document',
      new TaggedDocument({ price: 5n, id: '1', ts: Time.fromMicros(1704067200000001n), coll: product, '@weird': true }),
      {
        '@doc': {
          id: '1',
          coll: { '@mod': 'Product' },
          ts: { '@time': '2024-01-01T00:00:00.000001Z' },
          price: { '@int': '5' },
          '@weird': true,
        },
      },
    ],
  ])('%s', (_name, value, wire) => {
    const encoded = encodeTagged(value);
    expect(encoded).toEqual(wire);
    expect(JSON.stringify(encoded)).toBe(JSON.stringify(wire));
    const decoded = decodeTagged(JSON.parse(JSON.stringify(encoded)));
    if (typeof value === 'number' && Number.isNaN(value)) expect(Number.isNaN(decoded)).toBe(true);
    else expect(decoded).toEqual(value);
  });

  it('decodes times with offsets and dates strictly', () => {
    expect(decodeTagged({ '@time': '2024-01-01T02:00:00+02:00' })).toEqual(Time.fromMicros(1704067200000000n));
    expect(decodeTagged({ '@time': '2024-01-01T00:00:00.5Z' })).toEqual(new Time(1704067200500000000n));
  });

  it.each([
    [{ '@int': '2147483648' }, '$.@int: 2147483648 does not fit in a 32-bit integer'],
    [{ '@int': '1.5' }, '$.@int: "1.5" is not an integer'],
    [{ '@int': 3 }, '$.@int: expected a string'],
    [{ '@long': '9223372036854775808' }, '$.@long: 9223372036854775808 does not fit in a 64-bit integer'],
    [{ '@double': 'abc' }, '$.@double: "abc" is not a number'],
    [{ '@time': '2024-02-30T00:00:00Z' }, '$.@time: "2024-02-30T00:00:00Z" is not a valid calendar time'],
    [{ '@time': '2024-01-01T00:00:00' }, '$.@time: "2024-01-01T00:00:00" is not an ISO 8601 time such as 2024-01-01T00:00:00Z'],
    [{ '@date': '2024-13-01' }, '$.@date: "2024-13-01" is not a valid calendar date'],
    [{ '@bytes': 'AQI' }, '$.@bytes: not standard base64'],
    [{ '@uuid': 'nope' }, '$.@uuid: "nope" is not a UUID'],
    [{ '@ref': { id: '1' } }, '$.@ref.coll: expected {"@mod": "<collection>"}'],
    [{ '@doc': { id: '1', coll: { '@mod': 'P' } } }, '$.@doc: a document needs an @time "ts"'],
    [{ '@what': 1 }, '$.@what: unknown tag @what'],
    [[{ a: { '@mod': '' } }], '$[0].a.@mod: expected a non-empty string'],
  ])('rejects %j', (json, message) => {
    expect(() => decodeTagged(json)).toThrow(new TaggedDecodeError(message));
  });

  it('decodes @uuid to its lower-case text and untagged JSON numbers by integrality', () => {
    expect(decodeTagged({ '@uuid': 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' })).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
    expect(decodeTagged([1, 1.5])).toEqual([1n, 1.5]);
  });

  it('refuses v4-only values', () => {
    expect(() => encodeTagged(new SetRef({ match: 'x' }))).toThrow('v4 set references have no FQL v10 encoding');
  });

  it('keeps a field named __proto__ as an ordinary field', () => {
    const value = JSON.parse('{"outer":{"__proto__":"x","n":{"__proto__":{"deep":true}}}}') as TaggedValue;
    const decoded = decodeTagged(JSON.parse(JSON.stringify(encodeTagged(value))));
    expect(Object.keys((decoded as { outer: object }).outer)).toEqual(['__proto__', 'n']);
    expect(decoded).toEqual(value);
  });

  it('round-trips arbitrary values (property)', () => {
    const leaf = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.double({ noNaN: true }).filter((d) => !Object.is(d, -0)),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }).map((n) => new Time(n)),
      fc.integer({ min: -100000, max: 100000 }).map((d) => new DateValue(d)),
      fc.uint8Array().map((b) => new Bytes(b)),
    );
    const value = fc.letrec<{ v: TaggedValue }>((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v')), fc.dictionary(fc.string(), tie('v'))),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        expect(decodeTagged(JSON.parse(JSON.stringify(encodeTagged(v))))).toEqual(v);
      }),
    );
  });
});

describe('simple format', () => {
  it('writes plain JSON, keeping large integers and decimal fractions', () => {
    const doc = new TaggedDocument({ id: '1', coll: product, ts: Time.fromMicros(1704067200000000n), n: 2n ** 62n, d: 2, nan: NaN });
    expect(stringifySimple([doc, new Ref('7', product), new DateValue(0), new TaggedEventSource('tok'), new TaggedSetPage([1n])])).toBe(
      '[{"id":"1","coll":"Product","ts":"2024-01-01T00:00:00Z","n":4611686018427387904,"d":2.0,"nan":"NaN"},' +
        '{"id":"7","coll":"Product"},"1970-01-01","tok",{"data":[1]}]',
    );
  });

  it('reads integral numbers as integers', () => {
    expect(decodeSimple({ a: [1, 2.5, 'x', null] })).toEqual({ a: [1n, 2.5, 'x', null] });
  });
});

describe('integers read with every digit (request bodies)', () => {
  it('are longs when they fit in 64 bits and doubles past that, in both formats, so that they can be written back', () => {
    for (const decode of [decodeSimple, decodeTagged]) {
      expect(decode({ n: 5n, max: 2n ** 63n - 1n, min: -(2n ** 63n) })).toEqual({ n: 5n, max: 2n ** 63n - 1n, min: -(2n ** 63n) });
      const past = decode({ n: 45653373954823365000n, m: -(2n ** 63n) - 1n }) as { n: TaggedValue; m: TaggedValue };
      expect(past).toEqual({ n: 45653373954823365000, m: -(2 ** 63) });
      expect(() => encodeTagged(past)).not.toThrow();
    }
  });
});
