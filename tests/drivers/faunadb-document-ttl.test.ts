// The official v4 driver's documents with a ttl against the reference server (spec/requirements/document-ttl.md):
// a document whose ttl has passed is gone for Get, Exists, the sets and the writes, and its id is free again.
import faunadb, { type values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstServiceError, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

type Doc = { ref: values.Ref; ts: number; ttl?: values.FaunaTime; data: Record<string, unknown> };

const aSecondAgo = () => q.TimeAdd(q.Now(), -1, 'seconds');
const aDayAhead = () => q.TimeAdd(q.Now(), 1, 'day');
// A missing target of Update is reported at the form, of Delete at the top (PROTO-ERROR-014, PROTO-ERROR-013).
const notFoundAt = (position: string[]) => ({ status: 404, code: 'instance not found', description: 'Document not found.', position });

beforeAll(async () => {
  await driver.client.query(q.CreateCollection({ name: 'sessions' }));
  await driver.client.query(
    q.CreateIndex({ name: 'sessions_by_user', source: q.Collection('sessions'), terms: [{ field: ['data', 'user'] }] }),
  );
});

describe('document ttl', () => {
  it('q.Create with a ttl in the past answers the document with its ttl; q.Get then fails with NotFound', async () => {
    const doc = await driver.client.query<Doc>(
      q.Create(q.Ref(q.Collection('sessions'), '1'), { data: { user: 'ada' }, ttl: aSecondAgo() }),
    );
    expect(doc.ttl).toBeInstanceOf(faunadb.values.FaunaTime);
    expect(await firstServiceError(driver.client.query(q.Get(doc.ref)))).toEqual(notFoundAt([]));
    expect(await driver.client.query(q.Exists(doc.ref))).toBe(false);
  });

  it('expired documents are left out of q.Documents and q.Match pages, and q.Count', async () => {
    const alive = await driver.client.query<Doc>(q.Create(q.Collection('sessions'), { data: { user: 'bob' }, ttl: aDayAhead() }));
    await driver.client.query(q.Create(q.Collection('sessions'), { data: { user: 'bob' }, ttl: aSecondAgo() }));
    const byUser = await driver.client.query<{ data: values.Ref[] }>(q.Paginate(q.Match(q.Index('sessions_by_user'), 'bob')));
    expect(byUser.data.map((ref) => ref.id)).toEqual([alive.ref.id]);
    const all = await driver.client.query<{ data: values.Ref[] }>(q.Paginate(q.Documents(q.Collection('sessions'))));
    expect(all.data.map((ref) => ref.id)).toContain(alive.ref.id);
    expect(await driver.client.query(q.Count(q.Documents(q.Collection('sessions'))))).toBe(all.data.length);
  });

  it('q.At a time before the ttl passed does not bring the document back', async () => {
    const doc = await driver.client.query<Doc>(q.Create(q.Collection('sessions'), { data: { user: 'cy' }, ttl: aSecondAgo() }));
    expect(await firstServiceError(driver.client.query(q.At(doc.ts, q.Get(doc.ref))))).toEqual(notFoundAt(['expr']));
  });

  it('q.Update and q.Delete of an expired document fail with NotFound; q.Create with its id succeeds', async () => {
    const ref = q.Ref(q.Collection('sessions'), '2');
    await driver.client.query(q.Create(ref, { data: { user: 'dee' }, ttl: aSecondAgo() }));
    expect(await firstServiceError(driver.client.query(q.Update(ref, { data: { user: 'eve' } })))).toEqual(notFoundAt(['update']));
    expect(await firstServiceError(driver.client.query(q.Delete(ref)))).toEqual(notFoundAt([]));
    const again = await driver.client.query<Doc>(q.Create(ref, { data: { user: 'dee' } }));
    expect(again.ttl).toBeUndefined();
    expect((await driver.client.query<Doc>(q.Get(ref))).data).toEqual({ user: 'dee' });
  });

  it('q.Update with ttl null keeps the document alive for good', async () => {
    const doc = await driver.client.query<Doc>(q.Create(q.Collection('sessions'), { data: {}, ttl: aDayAhead() }));
    const cleared = await driver.client.query<Doc>(q.Update(doc.ref, { ttl: null }));
    expect(cleared.ttl).toBeUndefined();
    expect(await driver.client.query(q.Exists(doc.ref))).toBe(true);
  });
});
