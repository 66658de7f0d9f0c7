import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollection, createDoc, docRef, getDoc, literal } from '../../harness/v4.js';

const COLL = 'widgets';
const collectionsRef = { '@ref': { id: 'collections' } };
const widgetsRef = { '@ref': { id: COLL, collection: collectionsRef } };
const longRef = (id: string) => ({ '@ref': { id, collection: widgetsRef } });

describe('Tagged values (v4 encoding)', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query({ do: [createCollection(COLL)] })).expectStatus(201);
    (await t.server.query(createDoc(docRef(COLL, '1'), { name: 'one' }))).expectStatus(201);
  });

  check(['PROTO-VALUE-001'], 'a long-form ref literal is accepted anywhere an expression may appear', async () => {
    expect((await t.server.query(getDoc(longRef('1')))).expectStatus(200).resource.data).toEqual({ name: 'one' });
    const res = await t.server.query({
      let: [{ r: longRef('1') }],
      in: [{ var: 'r' }, { object: { member: longRef('1') } }, { select: ['data', 'name'], from: { get: { var: 'r' } } }],
    });
    expect(res.expectStatus(200).resource).toEqual([longRef('1'), { member: longRef('1') }, 'one']);
  });

  check(
    ['PROTO-VALUE-002'],
    'a short-form ref literal {"@ref":"collections/<c>/<id>"} (or classes/…) is accepted and equals the long form',
    async () => {
      const res = await t.server.query({ equals: [{ '@ref': `collections/${COLL}/1` }, { '@ref': `classes/${COLL}/1` }, longRef('1')] });
      expect(res.expectStatus(200).resource).toBe(true);
      const differs = await t.server.query({ equals: [{ '@ref': `collections/${COLL}/2` }, longRef('1')] });
      expect(differs.expectStatus(200).resource).toBe(false);
      const got = await t.server.query(getDoc({ '@ref': `classes/${COLL}/1` }));
      expect(got.expectStatus(200).resource.ref).toEqual(longRef('1'));
    },
  );

  check(['PROTO-VALUE-003'], '{"ref": <collection ref>, "id": "<id>"} evaluates to the ref of that document', async () => {
    const res = await t.server.query({ ref: { collection: COLL }, id: '12345' });
    expect(res.expectStatus(200).resource).toEqual(longRef('12345'));
  });

  check(['PROTO-VALUE-004'], 'a set is returned as {"@set": {…}} holding the set\'s structure', async () => {
    const set = {
      '@set': { match: { '@ref': { id: 'things_by_name', collection: { '@ref': { id: 'indexes' } } } }, terms: 'a@example.com' },
    };
    const res = await t.server.query(set);
    expect(res.expectStatus(200).resource).toEqual(set);
  });

  check(
    ['PROTO-VALUE-005'],
    'a query expression is returned as {"@query": {"lambda": …, "expr": …}} with the lambda unevaluated',
    async () => {
      const res = await t.server.query({ query: { lambda: ['a', 'b'], expr: { abort: 'never evaluated' } } });
      const q = res.expectStatus(200).resource['@query'];
      expect(q, res.explain('has no @query')).toBeDefined();
      expect(q.lambda).toEqual(['a', 'b']);
      expect(q.expr).toEqual({ abort: 'never evaluated' });
    },
  );

  check(
    ['PROTO-VALUE-016'],
    "a returned @query carries api_version (first) when the lambda's or the request's version is past 2.12; a literal without one is 2.12",
    async () => {
      const literal = { '@query': { lambda: 'X', expr: { var: 'X' } } };
      const keys = (q: object) => Object.keys(q);
      const v4Literal = (await t.server.query(literal)).expectStatus(200).resource['@query'];
      expect([keys(v4Literal), v4Literal]).toEqual([
        ['api_version', 'lambda', 'expr'],
        { api_version: '2.12', lambda: 'X', expr: { var: 'X' } },
      ]);
      const v4Query = (await t.server.query({ query: { lambda: 'x', expr: { var: 'x' } } })).expectStatus(200).resource['@query'];
      expect([keys(v4Query), v4Query.api_version]).toEqual([['api_version', 'lambda', 'expr'], '4']);
      const v3Query = (await t.server.query({ query: { lambda: 'x', expr: { var: 'x' } } }, { apiVersion: '3' })).expectStatus(200)
        .resource['@query'];
      expect(v3Query.api_version).toBe('3');
      const kept = (await t.server.query({ '@query': { api_version: '3', lambda: 'X', expr: { var: 'X' } } })).expectStatus(200).resource[
        '@query'
      ];
      expect(kept.api_version).toBe('3');
      for (const expr of [literal, { query: { lambda: 'x', expr: { var: 'x' } } }]) {
        const old = (await t.server.query(expr, { apiVersion: '2.1' })).expectStatus(200).resource['@query'];
        expect(keys(old), 'a lambda of 2.12 or earlier answered at 2.1').toEqual(['lambda', 'expr']);
      }
    },
  );

  check(['PROTO-VALUE-017'], 'a returned @query renders a let given as a list of bindings with one object of them', async () => {
    const body = { let: [{ x: 1n }, { y: 2n }], in: [{ var: 'x' }, { var: 'y' }] };
    const q = (await t.server.query({ query: { lambda: '_', expr: body } })).expectStatus(200).resource['@query'];
    expect(q.expr).toEqual({ let: { x: 1n, y: 2n }, in: [{ var: 'x' }, { var: 'y' }] });
    expect(Object.keys(q.expr.let)).toEqual(['x', 'y']);
    // Nested in other forms, and in a literal sent back.
    const nested = {
      if: true,
      then: { let: [{ a: { let: [{ b: 1n }], in: { var: 'b' } } }], in: { var: 'a' } },
      else: [{ let: [{ c: 3n }], in: { var: 'c' } }],
    };
    const literal = (await t.server.query({ '@query': { lambda: 'v', expr: nested } })).expectStatus(200).resource['@query'];
    expect(literal.expr).toEqual({
      if: true,
      then: { let: { a: { let: { b: 1n }, in: { var: 'b' } } }, in: { var: 'a' } },
      else: [{ let: { c: 3n }, in: { var: 'c' } }],
    });
  });

  check(['PROTO-VALUE-006'], 'timestamps round-trip as {"@ts": "<ISO 8601 with Z>"} and dates as {"@date": "YYYY-MM-DD"}', async () => {
    const ts = { '@ts': '2020-01-02T03:04:05.123456Z' };
    const date = { '@date': '2020-01-02' };
    const echoed = await t.server.query([ts, date, { now: null }, { '@ts': '1999-12-31T23:59:59Z' }]);
    const [echoTs, echoDate, now, whole] = echoed.expectStatus(200).resource;
    expect(echoTs).toEqual(ts);
    expect(echoDate).toEqual(date);
    for (const value of [now, whole]) expect(value['@ts']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(whole['@ts'])).toBe(Date.parse('1999-12-31T23:59:59Z'));
    // Years below 100 stay as written (a date library may read them as 1900 to 1999).
    const early = { ts: { '@ts': '0050-06-15T10:20:30Z' }, date: { '@date': '0099-12-31' } };
    (await t.server.query(createDoc(docRef(COLL, '6'), { ts, date, early }))).expectStatus(201);
    expect((await t.server.query(getDoc(docRef(COLL, '6')))).expectStatus(200).resource.data).toEqual({ ts, date, early });
  });

  check(
    ['PROTO-VALUE-007'],
    'an object with a key starting with @ is returned wrapped as {"@obj": …}, and @obj is accepted on input',
    async () => {
      const escaped = { '@obj': { '@name': 'at', '@ref': 'not a ref' } };
      expect((await t.server.query(escaped)).expectStatus(200).resource).toEqual(escaped);
      (
        await t.server.query({ create: docRef(COLL, '7'), params: { object: { data: { object: { inner: escaped, plain: 1 } } } } })
      ).expectStatus(201);
      expect((await t.server.query(getDoc(docRef(COLL, '7')))).expectStatus(200).resource.data).toEqual({ inner: escaped, plain: 1n });
    },
  );

  check(
    ['PROTO-VALUE-008'],
    '{"object": …} evaluates each member, {"var": name} answers the bound value, {"select": path, "from": x} answers the value at the path',
    async () => {
      const res = await t.server.query({
        let: [{ x: literal({ a: [10, { b: 'deep' }] }) }],
        in: [
          { object: { sum: { equals: [1, 1] }, v: { var: 'x' } } },
          { select: ['a', 1, 'b'], from: { var: 'x' } },
          { select: 'a', from: { var: 'x' } },
        ],
      });
      expect(res.expectStatus(200).resource).toEqual([{ sum: true, v: { a: [10n, { b: 'deep' }] } }, 'deep', [10n, { b: 'deep' }]]);
    },
  );

  check(['PROTO-VALUE-009'], '{"select": path, "from": x, "default": d} answers d when the path is missing', async () => {
    const res = await t.server.query([
      { select: ['a', 'zz'], from: literal({ a: {} }), default: 'fallback' },
      { select: ['a'], from: literal({ a: 'present' }), default: 'fallback' },
      { select: [5], from: [1], default: null },
    ]);
    expect(res.expectStatus(200).resource).toEqual(['fallback', 'present', null]);
  });

  check(['PROTO-VALUE-010'], 'let, do, if and equals evaluate as the v4 driver sends them', async () => {
    const res = await t.server.query({
      let: [{ a: 1 }, { b: { var: 'a' } }],
      in: [
        { do: ['first', 'second', { var: 'b' }] },
        { if: { equals: [{ var: 'a' }, { var: 'b' }, 1] }, then: 'same', else: 'different' },
        { if: { equals: [{ var: 'a' }, 2] }, then: 'same', else: 'different' },
        { equals: ['x', 'x'] },
        // equals holds only when every argument is equal, not just the first two.
        { equals: [{ var: 'a' }, { var: 'b' }, 2] },
      ],
    });
    expect(res.expectStatus(200).resource).toEqual([1n, 'same', 'different', true, false]);
  });

  check(['PROTO-VALUE-011'], 'integers outside the 53-bit range keep their exact value through a round trip', async () => {
    const big = [9007199254740993n, -9007199254740993n, 9223372036854775807n, -9223372036854775808n];
    expect((await t.server.query(big)).expectStatus(200).resource).toEqual(big);
    (await t.server.query(createDoc(docRef(COLL, '11'), { big }))).expectStatus(201);
    const stored = (await t.server.query(getDoc(docRef(COLL, '11')))).expectStatus(200);
    expect(stored.resource.data.big).toEqual(big);
    expect(stored.text).toContain('9007199254740993');
  });
});
