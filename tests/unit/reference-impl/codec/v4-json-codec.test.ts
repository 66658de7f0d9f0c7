import { describe, expect, it } from 'vitest';
import { ProtocolError, QueryError } from '../../../../reference-impl/errors/query-error.js';
import { parseApiVersion } from '../../../../reference-impl/codec/api-version.js';
import { parseExpression, parseJsonText } from '../../../../reference-impl/codec/v4-expression-parser.js';
import { decodeWireValue } from '../../../../reference-impl/codec/v4-tagged-values.js';
import { renderValue } from '../../../../reference-impl/codec/v4-value-renderer.js';
import { QueryValue, Ref, SetRef, Time, readDocumentObject, type ObjectValue } from '../../../../reference-impl/values/value.js';
import { doubled } from '../shared-value.js';

const v4 = { apiVersion: '4' as const };
const v21 = { apiVersion: '2.1' as const };

describe('v4 JSON codec', () => {
  it('keeps integers and decimals apart both ways', () => {
    expect(parseJsonText('[1, 1.0, 1e3, -7, 9223372036854775807]')).toEqual([1n, 1, 1000, -7n, 9223372036854775807n]);
    expect(renderValue([1n, 1, 2.5, 1000], v4)).toBe('[1,1.0,2.5,1000.0]');
  });

  it('decodes the short and the long @ref forms to the same ref', () => {
    const short = decodeWireValue({ '@ref': 'collections/c/1' }, []);
    const legacy = decodeWireValue({ '@ref': 'classes/c/1' }, []);
    const long = decodeWireValue(
      parseJsonText('{"@ref":{"id":"1","class":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}'),
      [],
    );
    const expected = new Ref('1', new Ref('c', new Ref('collections')));
    for (const ref of [short, legacy, long]) expect((ref as Ref).equals(expected)).toBe(true);
  });

  it('renders refs with collection from API 2.7 and class before', () => {
    const ref = new Ref('1', new Ref('c', new Ref('collections')));
    expect(renderValue(ref, v4)).toBe('{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}');
    expect(renderValue(ref, v21)).toBe('{"@ref":{"id":"1","class":{"@ref":{"id":"c","class":{"@ref":{"id":"classes"}}}}}}');
    expect(renderValue(ref, { apiVersion: '2.0' })).toBe('{"@ref":"classes/c/1"}');
  });

  it('renders a ref the same in each wording whichever was rendered first (only the current wording is kept)', () => {
    const ref = new Ref('1', new Ref('c', new Ref('collections')));
    expect(renderValue(ref, v21)).toBe('{"@ref":{"id":"1","class":{"@ref":{"id":"c","class":{"@ref":{"id":"classes"}}}}}}');
    expect(renderValue(ref, v4)).toBe('{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}');
    expect(renderValue(ref, v21)).toBe('{"@ref":{"id":"1","class":{"@ref":{"id":"c","class":{"@ref":{"id":"classes"}}}}}}');
    expect(renderValue(ref, { apiVersion: '2.0' })).toBe('{"@ref":"classes/c/1"}');
  });

  it('renders an array of refs (a page) exactly as its items one by one, in every wording', () => {
    const collection = new Ref('c', new Ref('collections'));
    const refs = [new Ref('1', collection), new Ref('2', collection), new Ref('k', new Ref('keys'), new Ref('db', new Ref('databases')))];
    for (const options of [v4, v21, { apiVersion: '2.0' as const }]) {
      const oneByOne = `[${refs.map((ref) => renderValue(ref, options)).join(',')}]`;
      expect(renderValue(refs, options)).toBe(oneByOne);
      expect(renderValue([...refs, 1n], options)).toBe(`${oneByOne.slice(0, -1)},1]`);
    }
  });

  it('renders a document read back exactly as the same plain object, in every wording, on every read', () => {
    const collection = new Ref('c', new Ref('collections'));
    const fields: ObjectValue = { data: { n: 1n, owner: new Ref('9', collection), at: new Time(5_000n), tags: ['a'] }, ttl: new Time(1n) };
    const plain = (ref: Ref): ObjectValue => ({ ref, ts: 7n, ...fields });
    for (const options of [v4, v21, { apiVersion: '2.0' as const }, v4]) {
      for (const id of ['1', '2']) {
        const ref = new Ref(id, collection);
        const expected = renderValue(plain(ref), options);
        expect(expected).toMatch(new RegExp(`c/${id}"|"id":"${id}"`));
        expect(renderValue(readDocumentObject(ref, 7n, fields), options)).toBe(expected);
        expect(renderValue(readDocumentObject(ref, 7n, fields), options)).toBe(expected);
      }
    }
  });

  it('renders read-back documents whose fields would not fit a kept text as usual (@ keys, fields named ref or ts)', () => {
    const ref = new Ref('1', new Ref('c', new Ref('collections')));
    for (const fields of [{ '@x': 1n }, { ts: 9n }, { ref: new Ref('2', ref.collection), data: {} }] as ObjectValue[]) {
      const expected = renderValue({ ref, ts: 7n, ...fields }, v4);
      expect(renderValue(readDocumentObject(ref, 7n, fields), v4)).toBe(expected);
      expect(renderValue(readDocumentObject(ref, 7n, fields), v4)).toBe(expected);
    }
  });

  it('round-trips @ts, @set, @query and escapes objects with @ keys', () => {
    const time = decodeWireValue({ '@ts': '1970-01-01T00:00:00.123456789Z' }, []) as Time;
    expect(time.epochNanos).toBe(123456789n);
    expect(renderValue(time, v4)).toBe('{"@ts":"1970-01-01T00:00:00.123456789Z"}');
    expect(renderValue(new Time(1_000_000n), v4)).toBe('{"@ts":"1970-01-01T00:00:00.001Z"}');
    const set = decodeWireValue({ '@set': { match: { '@ref': 'indexes/i' }, terms: 'a' } }, []);
    expect(set).toBeInstanceOf(SetRef);
    expect(renderValue(set, v4)).toBe('{"@set":{"match":{"@ref":{"id":"i","collection":{"@ref":{"id":"indexes"}}}},"terms":"a"}}');
    const query = new QueryValue('x', parseJsonText('{"add":[{"var":"x"},1,1.0]}'), '4');
    expect(renderValue(query, v4)).toBe('{"@query":{"api_version":"4","lambda":"x","expr":{"add":[{"var":"x"},1,1.0]}}}');
    expect(renderValue({ '@a': 1n, b: 2n }, v4)).toBe('{"@obj":{"@a":1,"b":2}}');
    expect(decodeWireValue({ '@obj': { '@ref': 'x' } }, [])).toEqual({ '@ref': 'x' });
  });

  it('builds expression nodes with JSON paths as positions', () => {
    const expr = parseExpression('{"create":{"collection":"c"},"params":{"object":{"data":[1,{"var":"x"}]}}}');
    expect(expr.kind).toBe('object');
    if (expr.kind !== 'object') return;
    const params = expr.fields.get('params')!;
    if (params.kind !== 'object') throw new Error('params');
    const data = (params.fields.get('object') as Extract<typeof params, { kind: 'object' }>).fields.get('data')!;
    if (data.kind !== 'array') throw new Error('data');
    expect(data.items[1]!.position).toEqual(['params', 'object', 'data', 1]);
  });

  it('reads a single @-key that is not a wire tag as a field name (an unknown form unless inside `object`)', () => {
    const parsed = parseExpression('{"object":{"@x":1}}');
    const inner = parsed.kind === 'object' ? parsed.fields.get('object') : undefined;
    expect(inner?.kind).toBe('object');
    expect(inner?.kind === 'object' ? [...inner.fields.keys()] : []).toEqual(['@x']);
  });

  it('reports malformed JSON, unknown tags in wire values and bad ref paths as documented errors', () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof QueryError ? [e.code, e.position] : String(e);
      }
      return 'no error';
    };
    expect(codeOf(() => parseExpression('{"a":'))).toEqual(['invalid expression', []]);
    expect(codeOf(() => parseExpression(''))).toEqual(['invalid expression', []]);
    expect(codeOf(() => parseExpression('{"@set":{"match":{"@nope":1}}}'))).toEqual(['invalid expression', ['@set', 'match']]);
    expect(codeOf(() => parseExpression('{"get":{"@ref":"nowhere/1"}}'))).toEqual(['invalid expression', ['get']]);
    expect(codeOf(() => parseExpression('{"get":{"@ref":"collections/c/x1"}}'))).toEqual(['invalid expression', ['get']]);
    // DEC-132: a document id is a 64-bit integer.
    expect(
      codeOf(() =>
        parseExpression('{"get":{"@ref":{"id":"x1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}}'),
      ),
    ).toEqual(['invalid argument', ['get', 'id']]);
    expect(codeOf(() => parseExpression('{"get":{"@ref":{"id":"9223372036854775808","collection":{"@ref":{"id":"keys"}}}}}'))).toEqual([
      'invalid argument',
      ['get', 'id'],
    ]);
    expect(codeOf(() => parseExpression('['.repeat(2000) + ']'.repeat(2000)))).toEqual(['invalid expression', expect.any(Array)]);
  });

  it('accepts known API versions, defaults to 2.1 and rejects others with 400 bad request', () => {
    expect(parseApiVersion(undefined)).toBe('2.1');
    expect(parseApiVersion('4')).toBe('4');
    expect(parseApiVersion('2.7')).toBe('2.7');
    expect(() => parseApiVersion('banana')).toThrow(ProtocolError);
  });
});

describe('v4 JSON codec: results too large to answer', () => {
  function refusal(render: () => string): unknown {
    try {
      render();
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it('refuses a shared value of 2^30 leaves with invalid argument before building its text', () => {
    const error = refusal(() => renderValue(doubled([], 30), v4));
    expect(error).toBeInstanceOf(QueryError);
    expect(error).toMatchObject({ code: 'invalid argument', description: 'The result is too large to answer.' });
  });

  it('refuses long strings past 128 Mi characters, and renders them below it', () => {
    const mebi = 'x'.repeat(1024 * 1024);
    expect(renderValue(doubled(mebi, 6), v4)).toHaveLength(64 * (1024 * 1024 + 2) + 63 * 3);
    expect(refusal(() => renderValue(doubled(mebi, 8), v4))).toMatchObject({ code: 'invalid argument' });
  });
});
