// Event sources made with FQL v10 (spec/requirements/fql10.md FQL-SRC-*, DEC-151): functions of a source use the
// whole language, a run-time error while an event is made is an error event like the query's error, any value a map
// builds is sent tagged, and collection-defined indexes are sources.
import { describe, expect } from 'vitest';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, expectTag, fails, ok } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });

/** The events a feed of `token` answers from its start, first page. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
async function events(token: string): Promise<any[]> {
  const res = (await t.admin.feed({ token })).expectStatus(200);
  return res.body.events;
}

async function source(query: string): Promise<string> {
  const token = (await data(t.admin, query))['@stream'];
  expect(typeof token).toBe('string');
  return token;
}

describe('event sources of FQL v10', () => {
  check(
    ['FQL-SRC-001'],
    'an error while a source makes an event is an error event like the query error; creating the source succeeds',
    async () => {
      const coll = uniqueName('Aborting');
      await ok(t.admin, `Collection.create({ name: "${coll}" })`);
      const aborting = await source(`${coll}.all().map(doc => abort("test abort")).eventSource()`);
      const unknown = await source(`${coll}.all().map((doc) => notARealFn(doc)).toStream()`);
      await ok(t.admin, `${coll}.create({ value: 0 })`);
      const queryError = (await fails(t.admin, 'abort("test abort")', 'abort')).error;
      const [abortEvent] = await events(aborting);
      expect(abortEvent.type).toBe('error');
      expect(abortEvent.error).toEqual(queryError);
      expect(abortEvent.error).toEqual({ code: 'abort', message: 'Query aborted.', abort: 'test abort' });
      const [unknownEvent] = await events(unknown);
      expect(unknownEvent.type).toBe('error');
      expect(unknownEvent.error).toEqual((await fails(t.admin, 'notARealFn(1)', 'unbound_variable')).error);
    },
  );

  check(['FQL-SRC-002'], 'a map may build times, dates, documents and 64-bit integers, sent tagged', async () => {
    const coll = uniqueName('Mapped');
    await ok(t.admin, `Collection.create({ name: "${coll}" })`);
    const token = await source(
      `${coll}.all().map((doc) => {\n  time: Time.now(),\n  date: Date.today(),\n  doc: doc,\n  bigInt: 922337036854775808,\n}).toStream()`,
    );
    const created = await data(t.admin, `${coll}.create({ value: 0 })`);
    const [event] = await events(token);
    expect(event.type).toBe('add');
    expectTag(event.data.time, '@time');
    expectTag(event.data.date, '@date');
    expect(event.data.doc['@doc']).toMatchObject({ id: created['@doc'].id, coll: { '@mod': coll }, value: { '@int': '0' } });
    expect(event.data.bigInt).toEqual({ '@long': '922337036854775808' });
  });

  check(['FQL-SRC-003'], 'Coll.<index>(terms) of a collection-defined index is a source of the documents in it', async () => {
    const coll = uniqueName('Indexed');
    await ok(t.admin, `Collection.create({ name: "${coll}", indexes: { byN: { terms: [{ field: ".n" }], values: [{ field: ".m" }] } } })`);
    const token = await source(`${coll}.byN(42).eventSource()`);
    const id = (await data(t.admin, `${coll}.create({ n: 42, m: 0 }).id`)) as string;
    for (const fields of ['{ n: 42, m: 1 }', '{ n: 44, m: 1 }', '{ n: 44, m: 2 }', '{ n: 42, m: 2 }', '{ n: 42, x: 0 }']) {
      await ok(t.admin, `${coll}.byId("${id}")!.update(${fields})`);
    }
    await ok(t.admin, `${coll}.byId("${id}")!.delete()`);
    expect((await events(token)).map((e) => e.type)).toEqual(['add', 'update', 'remove', 'add', 'remove']);
  });
});
