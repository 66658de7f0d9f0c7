// Document ttl (DEC-067): a user document whose `ttl` is at or before a read's transaction time is gone for every
// read. Expired documents are made with a ttl in the past (deterministic); one test waits for a ttl a second ahead.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, type Response } from '../../../harness/index.js';
import { expectQueryError, literal, refPayload, txnTime, waitActive } from '../../../harness/v4.js';

const t = useTenant({ roles: ['admin', 'server'] });

const COLL = 'ttl_docs';
const INDEX_BY_KIND = 'ttl_docs_by_kind';
const INDEX_ALL = 'ttl_docs_all';
const PAST = { '@ts': '2001-01-01T00:00:00Z' };
const FUTURE = { '@ts': '2999-01-01T00:00:00Z' };

const coll = { collection: COLL };
const docRef = (id: string): unknown => ({ ref: coll, id });
const create = (target: unknown, data: Record<string, unknown>, ttl?: unknown): unknown => ({
  create: target,
  params: literal(ttl === undefined ? { data } : { data, ttl }),
});
const page = (set: unknown): unknown => ({ paginate: set, size: 1000 });
const byKind = (kind: string): unknown => ({ match: { index: INDEX_BY_KIND }, terms: kind });
const documentsSet = { documents: coll };

let nextId = 7_000_000;
/** A fresh document id, so every test's documents are its own. */
const freshId = (): string => {
  nextId += 1;
  return String(nextId);
};

function refIds(res: Response): string[] {
  return (res.expectStatus(200).resource.data as unknown[]).map((ref) => refPayload(ref).id);
}

beforeAll(async () => {
  // history_days is explicit so that the history of an expired document is within retention on any server.
  (await t.server.query({ create_collection: literal({ name: COLL, history_days: 30n }) })).expectStatus(201);
  const indexes = [
    { name: INDEX_BY_KIND, source: coll, terms: [{ object: { field: ['data', 'kind'] } }] },
    { name: INDEX_ALL, source: coll, values: [{ object: { field: ['data', 'n'] } }, { object: { field: ['ref'] } }] },
  ];
  for (const index of indexes) (await t.server.query({ create_index: { object: index } })).expectStatus(201);
  for (const index of indexes) await waitActive(t.server, index.name);
});

describe('reads of an expired document', () => {
  check(
    ['DOC-TTL-001'],
    'Create with a ttl in the past answers 201 with the document and its ttl; Get then answers 404 instance not found',
    async () => {
      const id = freshId();
      const created = (await t.server.query(create(docRef(id), { v: 1n }, PAST))).expectStatus(201).resource;
      expect(created.ttl).toEqual(PAST);
      expect(created.data).toEqual({ v: 1n });
      const error = expectQueryError(await t.server.query({ get: docRef(id) }), [404, 'instance not found']);
      expect(error.description).toBe('Document not found.');
      expect(error.position).toEqual([]);
    },
  );

  check(['DOC-TTL-002'], 'Exists of an expired document answers false; of one whose ttl is ahead, true', async () => {
    const expired = freshId();
    const alive = freshId();
    (await t.server.query([create(docRef(expired), {}, PAST), create(docRef(alive), {}, FUTURE)])).expectStatus(200, 201);
    expect((await t.server.query([{ exists: docRef(expired) }, { exists: docRef(alive) }])).expectStatus(200).resource).toEqual([
      false,
      true,
    ]);
  });

  check(
    ['DOC-TTL-003'],
    'A document whose ttl is ahead is read with its ttl; once the ttl passes, Get answers instance not found',
    async () => {
      const id = freshId();
      const created = (
        await t.server.query({
          create: docRef(id),
          params: { object: { data: literal({ v: 'soon' }), ttl: { time_add: { now: null }, offset: 1, unit: 'second' } } },
        })
      ).expectStatus(201);
      const ttl = created.resource.ttl as { '@ts': string };
      const got = await t.server.query({ get: docRef(id) });
      // The Get may only miss the document if it ran after the ttl.
      if (got.status === 200) expect(got.resource.ttl).toEqual(ttl);
      else expectQueryError(got, [404, 'instance not found']);
      const deadline = Date.now() + 15_000;
      for (;;) {
        const res = await t.server.query({ get: docRef(id) });
        if (res.status === 404) {
          expectQueryError(res, [404, 'instance not found']);
          // The miss comes only once the transaction's time has reached the ttl.
          expect(txnTime(res) * 1000n >= BigInt(Date.parse(ttl['@ts'])) * 1_000_000n).toBe(true);
          break;
        }
        expect(res.status, res.explain('a document is readable until its ttl')).toBe(200);
        expect(Date.now(), 'the document is gone within 15 s of its ttl').toBeLessThan(deadline);
      }
    },
  );

  check(['DOC-TTL-004'], 'Paginate of Documents(collection) and Count leave out expired documents', async () => {
    const expired = freshId();
    const alive = freshId();
    (await t.server.query([create(docRef(expired), {}, PAST), create(docRef(alive), {})])).expectStatus(200, 201);
    const ids = refIds(await t.server.query(page(documentsSet)));
    expect(ids).toContain(alive);
    expect(ids).not.toContain(expired);
    const counted = (await t.server.query({ count: documentsSet })).expectStatus(200).resource;
    expect(counted).toBe(BigInt(ids.length));
  });

  check(['DOC-TTL-005'], 'Index Match sets leave out the entries of expired documents (terms and values indexes)', async () => {
    const kind = `k${freshId()}`;
    const expired = freshId();
    const alive = freshId();
    (await t.server.query([create(docRef(expired), { kind, n: -2n }, PAST), create(docRef(alive), { kind, n: -1n })])).expectStatus(
      200,
      201,
    );
    expect(refIds(await t.server.query(page(byKind(kind))))).toEqual([alive]);
    const all = (await t.server.query(page({ match: { index: INDEX_ALL } }))).expectStatus(200).resource.data as Array<[bigint, unknown]>;
    const ids = all.map(([, ref]) => refPayload(ref).id);
    expect(ids).toContain(alive);
    expect(ids).not.toContain(expired);
  });

  check(['DOC-TTL-005'], 'An index entry leaves the set when an Update gives its document a ttl in the past', async () => {
    const kind = `k${freshId()}`;
    const id = freshId();
    (await t.server.query(create(docRef(id), { kind }))).expectStatus(201);
    expect(refIds(await t.server.query(page(byKind(kind))))).toEqual([id]);
    (await t.server.query({ update: docRef(id), params: literal({ ttl: PAST }) })).expectStatus(200);
    expect(refIds(await t.server.query(page(byKind(kind))))).toEqual([]);
    expect(refIds(await t.server.query(page(documentsSet)))).not.toContain(id);
  });

  check(['DOC-TTL-006'], 'At a time before the ttl passed, Get, Exists and the sets still see no expired document', async () => {
    const kind = `k${freshId()}`;
    const id = freshId();
    const created = (await t.server.query(create(docRef(id), { kind }, PAST))).expectStatus(201).resource;
    const at = (expr: unknown): unknown => ({ at: created.ts, expr });
    expectQueryError(await t.server.query(at({ get: docRef(id) })), [404, 'instance not found']);
    expectQueryError(await t.server.query({ get: docRef(id), ts: created.ts }), [404, 'instance not found']);
    expect((await t.server.query(at({ exists: docRef(id) }))).expectStatus(200).resource).toBe(false);
    expect(refIds(await t.server.query(at(page(byKind(kind)))))).toEqual([]);
    expect(refIds(await t.server.query(at(page(documentsSet))))).not.toContain(id);
  });

  check(['DOC-TTL-006'], 'At a time before an Update set a past ttl, the earlier version (without a ttl) is read', async () => {
    const id = freshId();
    const created = (await t.server.query(create(docRef(id), { v: 'before' }))).expectStatus(201).resource;
    (await t.server.query({ update: docRef(id), params: literal({ ttl: PAST }) })).expectStatus(200);
    expectQueryError(await t.server.query({ get: docRef(id) }), [404, 'instance not found']);
    const old = (await t.server.query({ at: created.ts, expr: { get: docRef(id) } })).expectStatus(200).resource;
    expect(old.data).toEqual({ v: 'before' });
    expect(old).not.toHaveProperty('ttl');
  });
});

describe('writes to an expired document', () => {
  check(['DOC-TTL-013'], 'A unique index does not count an expired document: another document may take its value', async () => {
    const name = `ttl_unique_${freshId()}`;
    (
      await t.server.query({
        create_index: { object: { name, source: coll, unique: true, terms: [{ object: { field: ['data', 'email'] } }] } },
      })
    ).expectStatus(201);
    await waitActive(t.server, name);
    const email = `${name}@example.com`;
    (await t.server.query(create(docRef(freshId()), { email }, PAST))).expectStatus(201);
    const alive = freshId();
    (await t.server.query(create(docRef(alive), { email }))).expectStatus(201);
    expect(refIds(await t.server.query(page({ match: { index: name }, terms: email })))).toEqual([alive]);
    expectQueryError(await t.server.query(create(coll, { email })), [400, 'instance not unique']);
  });

  check(['DOC-TTL-007'], 'Update, Replace and Delete of an expired document answer 404 instance not found', async () => {
    const id = freshId();
    (await t.server.query(create(docRef(id), {}, PAST))).expectStatus(201);
    for (const write of [
      { update: docRef(id), params: literal({ data: { v: 2n } }) },
      { replace: docRef(id), params: literal({ data: { v: 3n } }) },
      { delete: docRef(id) },
    ]) {
      const error = expectQueryError(await t.server.query(write), [404, 'instance not found']);
      expect(error.description).toBe('Document not found.');
    }
  });

  check(['DOC-TTL-008'], 'Create with the id of an expired document creates a new document, readable and in the sets', async () => {
    const kind = `k${freshId()}`;
    const id = freshId();
    (await t.server.query(create(docRef(id), { kind, v: 'old' }, PAST))).expectStatus(201);
    const created = (await t.server.query(create(docRef(id), { kind, v: 'new' }))).expectStatus(201).resource;
    expect(created).not.toHaveProperty('ttl');
    const got = (await t.server.query({ get: docRef(id) })).expectStatus(200).resource;
    expect(got.data).toEqual({ kind, v: 'new' });
    expect(refIds(await t.server.query(page(byKind(kind))))).toEqual([id]);
  });

  check(['DOC-TTL-009'], 'In the transaction that creates a document with a past ttl, a later Get already misses it', async () => {
    const id = freshId();
    const res = await t.server.query({ do: [create(docRef(id), {}, PAST), { exists: docRef(id) }] });
    expect(res.expectStatus(200, 201).resource).toBe(false);
    const other = freshId();
    expectQueryError(await t.server.query({ do: [create(docRef(other), {}, PAST), { get: docRef(other) }] }), [404, 'instance not found']);
  });

  check(['DOC-TTL-010'], 'Update with ttl null removes the ttl; Update and Replace with a ttl store it', async () => {
    const id = freshId();
    (await t.server.query(create(docRef(id), { v: 1n }, FUTURE))).expectStatus(201);
    const cleared = (await t.server.query({ update: docRef(id), params: literal({ ttl: null }) })).expectStatus(200).resource;
    expect(cleared).not.toHaveProperty('ttl');
    expect(cleared.data).toEqual({ v: 1n });
    expect((await t.server.query({ get: docRef(id) })).expectStatus(200).resource).not.toHaveProperty('ttl');
    const replaced = (await t.server.query({ replace: docRef(id), params: literal({ data: { v: 2n }, ttl: FUTURE }) })).expectStatus(
      200,
    ).resource;
    expect(replaced.ttl).toEqual(FUTURE);
    expect((await t.server.query({ get: docRef(id) })).expectStatus(200).resource.ttl).toEqual(FUTURE);
  });

  check(['DOC-TTL-011'], 'A ttl that is not a Time answers 400 validation failed (invalid type at ttl)', async () => {
    const error = expectQueryError(await t.server.query(create(coll, {}, 'tomorrow')), [400, 'validation failed']);
    expect(error.failures).toEqual([{ field: ['ttl'], code: 'invalid type', description: 'Invalid type String, expected type Time.' }]);
  });

  check(['DOC-TTL-012'], 'Expiry writes nothing: the history of an expired document holds its create event and no delete', async () => {
    const id = freshId();
    const created = (await t.server.query(create(docRef(id), { v: 1n }, PAST))).expectStatus(201).resource;
    const events = (await t.server.query({ paginate: { events: docRef(id) } })).expectStatus(200).resource.data as Array<{
      action: string;
      ts: bigint;
    }>;
    expect(events.map((e) => [e.action, e.ts])).toEqual([['create', created.ts]]);
  });
});
