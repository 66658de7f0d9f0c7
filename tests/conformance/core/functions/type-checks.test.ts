// FQL v4 type predicates IsNumber … IsRole (profile v4-functions, DEC-065): each predicate is asked about the
// same catalogue of values, built in the tenant (documents, schema records, a key, a token), and
// must answer exactly the expected booleans.
import { beforeAll, describe, expect } from 'vitest';
import { check, decimal as d, useTenant } from '../../../harness/index.js';
import { createCollection, createDoc, createKey, docRef, expectQueryError, literal } from '../../../harness/v4.js';

const COLL = 'tc_things';
const IDX = 'tc_by_kind';
const FN = 'tc_fn';
const ROLE = 'tc_role';
const CHILD = 'tc_child';

type Predicate =
  | 'is_number'
  | 'is_double'
  | 'is_integer'
  | 'is_boolean'
  | 'is_null'
  | 'is_string'
  | 'is_array'
  | 'is_object'
  | 'is_bytes'
  | 'is_timestamp'
  | 'is_date'
  | 'is_ref'
  | 'is_set'
  | 'is_doc'
  | 'is_lambda'
  | 'is_collection'
  | 'is_database'
  | 'is_index'
  | 'is_function'
  | 'is_key'
  | 'is_token'
  | 'is_credentials'
  | 'is_role';

/** A value of the catalogue: its expression (built once the fixtures exist) and the predicates true of it. */
interface Sample {
  expr: () => unknown;
  true: readonly Predicate[];
}

describe('Type predicates', () => {
  const t = useTenant();
  let keyRef: unknown;
  let tokenRef: unknown;

  beforeAll(async () => {
    const admin = t.admin;
    (await admin.query(createCollection(COLL))).expectStatus(201);
    (
      await admin.query({
        do: [
          { create_index: { object: { name: IDX, source: { collection: COLL }, terms: [literal({ field: ['data', 'kind'] })] } } },
          { create_function: { object: { name: FN, body: { query: { lambda: 'x', expr: { var: 'x' } } } } } },
          { create_role: literal({ name: ROLE, privileges: [] }) },
          { create_database: literal({ name: CHILD }) },
          createDoc(docRef(COLL, '1'), { kind: 'a' }),
          { create: docRef(COLL, '2'), params: literal({ credentials: { password: 'sekret-tc' } }) },
        ],
      })
    ).expectStatus(200, 201);
    keyRef = (await admin.query(createKey(CHILD, 'server'))).expectStatus(201).resource.ref;
    tokenRef = (await admin.query({ login: docRef(COLL, '2'), params: literal({ password: 'sekret-tc' }) })).expectStatus(200, 201).resource
      .ref;
  });

  const samples: Record<string, Sample> = {
    'an integer': { expr: () => 10n, true: ['is_number', 'is_integer'] },
    'a decimal': { expr: () => d('3.14'), true: ['is_number', 'is_double'] },
    'a whole decimal': { expr: () => d('2.0'), true: ['is_number', 'is_double'] },
    'a numeric string': { expr: () => '10', true: ['is_string'] },
    true: { expr: () => true, true: ['is_boolean'] },
    false: { expr: () => false, true: ['is_boolean'] },
    null: { expr: () => null, true: ['is_null'] },
    'an empty array': { expr: () => [], true: ['is_array'] },
    'an array': { expr: () => [1n, 2n, 3n], true: ['is_array'] },
    'an object': { expr: () => literal({ foo: 'bar' }), true: ['is_object'] },
    'an empty object': { expr: () => literal({}), true: ['is_object'] },
    bytes: { expr: () => ({ '@bytes': 'AQIDBA==' }), true: ['is_bytes'] },
    'a time': { expr: () => ({ time: '1970-01-01T00:00:00Z' }), true: ['is_timestamp'] },
    'Now()': { expr: () => ({ now: null }), true: ['is_timestamp'] },
    'a date': { expr: () => ({ '@date': '1970-01-01' }), true: ['is_date'] },
    'a stored query': { expr: () => ({ query: { lambda: 'x', expr: { var: 'x' } } }), true: ['is_lambda'] },
    'a document ref': { expr: () => docRef(COLL, '1'), true: ['is_ref', 'is_doc'] },
    'a ref to a document that does not exist': { expr: () => docRef(COLL, '999'), true: ['is_ref', 'is_doc'] },
    'a document': { expr: () => ({ get: docRef(COLL, '1') }), true: ['is_object', 'is_doc'] },
    'a created document': {
      expr: () => ({ create: { collection: COLL }, params: literal({ data: { kind: 'b' } }) }),
      true: ['is_object', 'is_doc'],
    },
    'a page': { expr: () => ({ paginate: { documents: { collection: COLL } } }), true: ['is_object'] },
    'a ref to a collection that does not exist': { expr: () => ({ collection: 'tc_missing' }), true: ['is_ref'] },
    'a document ref of a collection that does not exist': { expr: () => docRef('tc_missing', '1'), true: ['is_ref'] },
    'a Match set': { expr: () => ({ match: { index: IDX }, terms: 'a' }), true: ['is_set'] },
    'a Documents set': { expr: () => ({ documents: { collection: COLL } }), true: ['is_set'] },
    'Collections()': { expr: () => ({ collections: null }), true: ['is_ref', 'is_set', 'is_doc', 'is_collection'] },
    'Keys()': { expr: () => ({ keys: null }), true: ['is_ref', 'is_set', 'is_doc', 'is_collection'] },
    'a collection ref': { expr: () => ({ collection: COLL }), true: ['is_ref', 'is_doc', 'is_collection'] },
    'a collection': { expr: () => ({ get: { collection: COLL } }), true: ['is_object', 'is_doc', 'is_collection'] },
    'an index ref': { expr: () => ({ index: IDX }), true: ['is_ref', 'is_doc', 'is_index'] },
    'an index': { expr: () => ({ get: { index: IDX } }), true: ['is_object', 'is_doc', 'is_index'] },
    'a function ref': { expr: () => ({ function: FN }), true: ['is_ref', 'is_doc', 'is_function'] },
    'a function': { expr: () => ({ get: { function: FN } }), true: ['is_object', 'is_doc', 'is_function'] },
    'a role ref': { expr: () => ({ role: ROLE }), true: ['is_ref', 'is_doc', 'is_role'] },
    'a role': { expr: () => ({ get: { role: ROLE } }), true: ['is_object', 'is_doc', 'is_role'] },
    'a database ref': { expr: () => ({ database: CHILD }), true: ['is_ref', 'is_doc', 'is_database'] },
    'a database': { expr: () => ({ get: { database: CHILD } }), true: ['is_object', 'is_doc', 'is_database'] },
    'a key ref': { expr: () => keyRef, true: ['is_ref', 'is_doc', 'is_key'] },
    'a key': { expr: () => ({ get: keyRef }), true: ['is_object', 'is_doc', 'is_key'] },
    'a token ref': { expr: () => tokenRef, true: ['is_ref', 'is_doc', 'is_token'] },
    'a token': { expr: () => ({ get: tokenRef }), true: ['is_object', 'is_doc', 'is_token'] },
    // A ref in a native collection without named records resolves whether or not the record exists.
    'a credentials ref': { expr: () => ({ ref: { credentials: null }, id: '123' }), true: ['is_ref', 'is_doc', 'is_credentials'] },
  };

  /** Asks `predicate` about every sample in one request and compares the answers with the catalogue. */
  const expectAnswers = async (predicate: Predicate) => {
    const names = Object.keys(samples);
    const res = await t.admin.query(names.map((name) => ({ [predicate]: samples[name]!.expr() })));
    const answers = res.expectStatus(200, 201).resource as unknown[];
    const got = Object.fromEntries(names.map((name, i) => [name, answers[i]]));
    const expected = Object.fromEntries(names.map((name) => [name, samples[name]!.true.includes(predicate)]));
    expect(got, res.explain(`${predicate} answered wrongly`)).toEqual(expected);
  };

  const GROUPS: ReadonlyArray<readonly [string, readonly Predicate[]]> = [
    ['FN-TYPE-001', ['is_number', 'is_integer', 'is_double']],
    ['FN-TYPE-002', ['is_boolean', 'is_null', 'is_string', 'is_array', 'is_bytes', 'is_timestamp', 'is_date']],
    ['FN-TYPE-003', ['is_object']],
    ['FN-TYPE-004', ['is_ref']],
    ['FN-TYPE-005', ['is_set']],
    ['FN-TYPE-006', ['is_doc']],
    ['FN-TYPE-007', ['is_lambda']],
    ['FN-TYPE-008', ['is_collection', 'is_database', 'is_index', 'is_function', 'is_key', 'is_token', 'is_credentials', 'is_role']],
  ];

  check.each(GROUPS.flatMap(([id, predicates]) => predicates.map((predicate) => ({ id, predicate }))))(
    (c) => [c.id, 'FN-TYPE-009'],
    '$predicate answers the expected boolean for each kind of value',
    ({ predicate }) => expectAnswers(predicate),
  );

  check(
    ['FN-TYPE-010'],
    'Get(Ref("credentials/self")) with a token answers its credentials record, which IsCredentials recognises, or 404',
    async () => {
      const login = (await t.admin.query({ login: docRef(COLL, '2'), params: literal({ password: 'sekret-tc' }) })).expectStatus(200, 201);
      const asToken = t.as(login.resource.secret as string);
      const res = await asToken.query({ get: { '@ref': 'credentials/self' } });
      if (res.status === 404) {
        expectQueryError(res, [404, 'instance not found']);
        return;
      }
      const ref = res.expectStatus(200).resource.ref as { '@ref': { collection: unknown } };
      expect(ref['@ref'].collection, res.explain('answered a record of another collection')).toEqual({ '@ref': { id: 'credentials' } });
      expect((await t.admin.query([{ is_credentials: ref }, { is_credentials: { get: ref } }])).expectStatus(200).resource).toEqual([
        true,
        true,
      ]);
    },
  );

  check(['FN-TYPE-007'], 'a lambda value is a lambda and no number', async () => {
    const res = await t.server.query({
      let: { f: { lambda: 'x', expr: { var: 'x' } } },
      in: [{ is_lambda: { var: 'f' } }, { is_number: { var: 'f' } }],
    });
    expect(res.expectStatus(200).resource).toEqual([true, false]);
  });
});
