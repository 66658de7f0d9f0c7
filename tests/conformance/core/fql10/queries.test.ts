// FQL v10 on /query/1 (profile fql10, spec/requirements/fql10.md): queries beyond event sources, answer formats,
// arguments, syntax errors, no 5xx for any text, and the client's deadline on queries and feeds.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { fqlTokenSoup } from '../../../harness/fql-token-soup.js';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, fails, ok, summaryPosition, UNTYPED } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });

describe('queries and answers', () => {
  check(['FQL-QUERY-001'], '1 + 1 answers 200 with data 2', async () => {
    expect(await data(t.admin, '1 + 1')).toEqual({ '@int': '2' });
    expect((await ok(t.admin, '1+1', { format: 'simple' })).body.data).toBe(2n);
  });

  check(['FQL-QUERY-002'], 'data is plain JSON by default and with simple, tagged with x-format: tagged', async () => {
    const plain = await t.admin.fql('[1, 2.5, "a"]', undefined, { format: null, headers: UNTYPED });
    plain.expectStatus(200).expectSchema('v10-query-response');
    expect(plain.body.data).toEqual([1n, 2.5, 'a']);
    expect((await ok(t.admin, '[1, 2.5, "a"]', { format: 'simple' })).body.data).toEqual([1n, 2.5, 'a']);
    expect((await ok(t.admin, '[1, 2.5, "a"]', { format: 'tagged' })).body.data).toEqual([{ '@int': '1' }, { '@double': '2.5' }, 'a']);
  });

  check(['FQL-QUERY-003'], 'with x-format: decorated, data is the value as FQL text', async () => {
    const decorated = async (query: string) => (await ok(t.admin, query, { format: 'decorated' })).body.data;
    expect(await decorated('1')).toBe('1');
    expect(await decorated('"a"')).toBe('"a"');
    expect(await decorated('true')).toBe('true');
    expect(await decorated('null')).toBe('null');
    expect(await decorated('Time("2024-01-02T03:04:05Z")')).toBe('Time("2024-01-02T03:04:05Z")');
    const object = await decorated('{ a: 1, b: [1, "x"] }');
    expect(typeof object).toBe('string');
    expect(object.replace(/\s+/g, ' ')).toBe('{ a: 1, b: [ 1, "x" ] }');
  });

  check(['FQL-QUERY-004'], 'arguments are variables of the query', async () => {
    const simple = await ok(t.admin, 'let n = aLong + anObject.x\n{ n: n, first: anArray[0], s: aString }', {
      format: 'simple',
      args: { aLong: 10, anObject: { x: 5 }, anArray: [7, 8], aString: 'str' },
    });
    expect(simple.body.data).toEqual({ n: 15n, first: 7n, s: 'str' });
    expect(await data(t.admin, 'x * 2', { x: { '@long': '3000000000' } })).toEqual({ '@long': '6000000000' });
  });
});

describe('syntax', () => {
  check.each([
    { text: 'Product.all(', position: undefined },
    { text: '1 +', position: undefined },
    { text: 'let x = \n(', position: undefined },
    { text: '{ a: 1, }}', position: '1:10' },
    { text: '"unterminated', position: '1:1' },
  ])(
    ['FQL-SYNTAX-001'],
    'a query that does not parse ($text) answers 400 invalid_query, the position in the summary',
    async ({ text, position }) => {
      const body = await fails(t.admin, text, 'invalid_query');
      expect(body.error.message).toBe('The query failed 1 validation check');
      expect(body.summary).toMatch(/^error: /);
      const at = summaryPosition(body.summary);
      expect(at, body.summary).toBeDefined();
      if (position !== undefined) expect(at).toBe(position);
    },
  );

  check(['FQL-SYNTAX-002'], 'a block or query whose last statement is a let answers 400 invalid_query', async () => {
    await fails(t.admin, '{ let x = 5 }', 'invalid_query');
    await fails(t.admin, 'let x = 5', 'invalid_query');
    expect(await data(t.admin, '{ let x = 5\n x }')).toEqual({ '@int': '5' });
  });

  check(['FQL-SYNTAX-003'], 'no query text answers 5xx: generated queries answer 200 or 4xx with a v10 error', async () => {
    const query = fqlTokenSoup({ minLength: 1, maxLength: 14 });
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        const res = await t.admin.fql(text, undefined, { headers: UNTYPED });
        expect(res.status, text).toBeLessThan(500);
        if (res.status !== 200) {
          expect(res.status, text).toBeGreaterThanOrEqual(400);
          res.expectSchema('v10-error');
          expect(typeof res.body.summary, text).toBe('string');
        }
      }),
      { numRuns: 80 },
    );
    expect(await data(t.admin, '1 + 1')).toEqual({ '@int': '2' });
  });
});

describe('deadlines', () => {
  check(['FQL-TIMEOUT-001'], 'a query still running at its x-query-timeout-ms answers 440 time_out and writes nothing', async () => {
    const coll = uniqueName('Timed');
    await ok(t.admin, `Collection.create({ name: "${coll}" })`);
    // Work far longer than 1 ms yet far shorter than a server's own time limit: only the client's deadline stops it.
    const res = await t.admin.fql(`${coll}.create({ a: 1 })\nSet.sequence(0, 50000).map(x => x * 2).count()`, undefined, {
      headers: { ...UNTYPED, 'x-query-timeout-ms': '1' },
    });
    res.expectStatus(440).expectSchema('v10-error').expectErrorCode('time_out');
    expect(await data(t.admin, `${coll}.all().count()`)).toEqual({ '@int': '0' });
    expect((await ok(t.admin, '1', { headers: { 'x-query-timeout-ms': '60000' } })).body.data).toEqual({ '@int': '1' });
  });

  check(['FQL-TIMEOUT-002'], 'a feed poll whose page is not ready within its x-query-timeout-ms answers 440 time_out', async () => {
    const coll = uniqueName('TimedFeed');
    await ok(t.admin, `Collection.create({ name: "${coll}" })`);
    const token = (await data(t.admin, `${coll}.all().map(d => Set.sequence(0, 15000).map(x => x + 1).toArray().length).eventSource()`))[
      '@stream'
    ];
    expect(typeof token).toBe('string');
    await ok(t.admin, `Set.sequence(0, 8).forEach(i => ${coll}.create({ i: i }))`);
    const slow = await t.admin.feed({ token }, { headers: { 'x-query-timeout-ms': '1' } });
    slow.expectStatus(440).expectSchema('v10-error').expectErrorCode('time_out');
    const page = (await t.admin.feed({ token }, { headers: { 'x-query-timeout-ms': '600000' } })).expectStatus(200);
    expect(page.body.events).toHaveLength(8);
  });
});
