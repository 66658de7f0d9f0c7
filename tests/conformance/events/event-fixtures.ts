// Shared steps of the events area: writing documents with the v4 endpoint, creating sources on /query/1, reading
// feeds to the end, and reading streams past status events. Black-box: HTTP only. The v4 forms are the harness's
// (tests/harness/v4.ts).
import { expect } from 'vitest';
import { type Client, type Response, type StreamReader, StreamRejectedError } from '../../harness/index.js';
import { collection, createCollections, createDoc, createIndex, deleteDoc, docRef, updateDoc } from '../../harness/v4.js';

export const DATA_TYPES = ['add', 'update', 'remove'];

export interface WrittenDoc {
  readonly id: string;
  /** Commit time of the write, microseconds (the `ts` the v4 endpoint answered). */
  readonly ts: bigint;
}

/**
 * A collection `name` with an index that `Coll.<index>(…)` reaches: terms and values are document fields. The real
 * service's FQL reaches only the indexes a collection defines itself, which its `/query/1` creates with
 * `Collection.create({…, indexes})`; a server of this spec's FQL subset refuses that query (400), and gets a v4
 * index whose source is the collection instead, which the subset reaches (DEC-009).
 */
export async function createIndexedCollection(
  client: Client,
  name: string,
  index: { name: string; terms: string[]; values: string[] },
): Promise<void> {
  const fields = (paths: string[]) => paths.map((path) => `{ field: ".${path}" }`).join(', ');
  const defined = await client.fql(
    `Collection.create({ name: "${name}", indexes: { ${index.name}: { terms: [${fields(index.terms)}], values: [${fields(index.values)}] } } })`,
  );
  if (defined.status === 200) return;
  defined.expectStatus(400);
  await createCollections(client, name);
  const column = (path: string) => ({ field: ['data', path] });
  (
    await client.query(
      createIndex({
        name: index.name,
        source: collection(name),
        active: true,
        terms: index.terms.map(column),
        values: index.values.map(column),
      }),
    )
  ).expectStatus(200, 201);
}

/** What `writtenDoc` reads of a written document (integers parsed as bigint). */
interface WrittenResource {
  readonly ref: { readonly '@ref': { readonly id: string } };
  readonly ts: bigint;
}

function writtenDoc(resource: WrittenResource): WrittenDoc {
  return { id: String(resource.ref['@ref'].id), ts: BigInt(resource.ts) };
}

/** Adds the documents in one transaction (one request). */
export async function addDocs(client: Client, coll: string, docs: readonly Record<string, unknown>[]): Promise<WrittenDoc[]> {
  const res = (await client.query(docs.map((data) => createDoc(coll, data)))).expectStatus(200, 201);
  return (res.resource as WrittenResource[]).map(writtenDoc);
}

export async function addDoc(client: Client, coll: string, data: Record<string, unknown>): Promise<WrittenDoc> {
  return (await addDocs(client, coll, [data]))[0]!;
}

/** Characters of text in each document `addLargeDocs` writes: ten of them pass 16 MiB together. */
export const LARGE_DOC_CHARS = 2_500_000;

/**
 * Writes `count` documents of `LARGE_DOC_CHARS` characters each (`{n, text}`), one transaction each, well within
 * the 8 MB version limit (LIMIT-WRITE-001) and the request body limit; answers them in commit order. Each write
 * answers only the document's ref (Select), not the document back.
 */
export async function addLargeDocs(client: Client, coll: string, count: number): Promise<WrittenDoc[]> {
  const written: WrittenDoc[] = [];
  for (let n = 0; n < count; n++) {
    const text = String.fromCharCode(97 + (n % 26)).repeat(LARGE_DOC_CHARS);
    const res = (await client.query({ select: ['ref'], from: createDoc(coll, { n, text }) })).expectStatus(200, 201);
    written.push({ id: String(res.resource['@ref'].id), ts: BigInt(res.headers['x-txn-time']!) });
  }
  return written;
}

export async function changeDoc(client: Client, coll: string, id: string, data: Record<string, unknown>): Promise<WrittenDoc> {
  const res = (await client.query(updateDoc(docRef(coll, id), data))).expectStatus(200);
  return writtenDoc(res.resource);
}

export async function removeDoc(client: Client, coll: string, id: string): Promise<WrittenDoc> {
  const res = (await client.query(deleteDoc(docRef(coll, id)))).expectStatus(200);
  return { id, ts: BigInt(res.headers['x-txn-time'] ?? res.resource.ts) };
}

/** The data of `count` documents, `{i}` with i from 0. */
export function numbered(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ i }));
}

/** The refusal a stream that must not open got: its opening `opening` must fail with the server's answer. */
export async function streamRefusal(opening: Promise<StreamReader>): Promise<Response> {
  const error = await opening.then(
    (reader) => {
      reader.close();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(error, 'the stream was opened instead of refused').toBeInstanceOf(StreamRejectedError);
  return (error as StreamRejectedError).response;
}

/** Runs several v4 expressions as one transaction and answers its commit time. */
export async function transaction(client: Client, exprs: unknown[]): Promise<bigint> {
  const res = (await client.query(exprs)).expectStatus(200, 201);
  return BigInt(res.headers['x-txn-time']!);
}

export interface CreatedSource {
  readonly token: string;
  readonly txnTs: bigint;
}

/** Creates an event source on `/query/1` (tagged format) and answers its token and creation time. */
export async function createSource(
  client: Client,
  query: string | { fql: unknown[] },
  args?: Record<string, unknown>,
): Promise<CreatedSource> {
  const res = (await client.fql(query, args, { format: 'tagged' })).expectStatus(200);
  const token = res.body?.data?.['@stream'];
  if (typeof token !== 'string') throw new Error(res.explain('did not answer {"data": {"@stream": <token>}}'));
  return { token, txnTs: BigInt(res.body.txn_ts) };
}

export interface FeedPage {
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  readonly events: any[];
  readonly cursor: string;
  readonly has_next: boolean;
  readonly stats: Record<string, unknown>;
}

export async function feedPage(client: Client, body: Record<string, unknown>): Promise<FeedPage> {
  const res = (await client.feed(body)).expectStatus(200);
  return res.body as FeedPage;
}

/** Polls page after page until `has_next` is false; answers every event and the last cursor. */
export async function feedAll(
  client: Client,
  body: Record<string, unknown>,
  maxPages = 200,
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
): Promise<{ events: any[]; cursor: string; pages: FeedPage[] }> {
  const pages: FeedPage[] = [];
  let request = body;
  for (let i = 0; i < maxPages; i++) {
    const page = await feedPage(client, request);
    pages.push(page);
    if (!page.has_next) return { events: pages.flatMap((p) => p.events), cursor: page.cursor, pages };
    const { start_ts: _ignored, ...rest } = request;
    request = { ...rest, cursor: page.cursor };
  }
  throw new Error(`feed still had has_next after ${maxPages} pages`);
}

/** The next event that is not `status`. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function nextData(reader: StreamReader, timeoutMs?: number): Promise<any> {
  for (;;) {
    const event = await reader.next(timeoutMs === undefined ? {} : { timeoutMs });
    if (event.type !== 'status') return event;
  }
}

/** Reads `count` non-status events. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function collectData(reader: StreamReader, count: number, timeoutMs?: number): Promise<any[]> {
  const out: unknown[] = [];
  while (out.length < count) out.push(await nextData(reader, timeoutMs));
  return out;
}

/**
 * How long a test waits for a revoked secret's stream to end. The real service re-checks the secret that opened a
 * stream only when it next processes a change to the tracked set or an idle notice (at most a minute apart; DEC-036),
 * so the test keeps writing tracked documents meanwhile; the bound leaves room for its caches.
 */
export const REVOCATION_DEADLINE_MS = 70_000;
/** The timeout of a test that waits for a revocation: its deadline and the requests around it. */
export const REVOCATION_TEST_TIMEOUT_MS = REVOCATION_DEADLINE_MS + 30_000;

/**
 * The first event that is not `status`, read while `write` writes a tracked document with a secret that is still
 * valid every half second (what makes a server re-check the secret that opened the stream), within
 * REVOCATION_DEADLINE_MS.
 */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function nextEventWhileWriting(reader: StreamReader, write: () => Promise<unknown>): Promise<any> {
  const deadline = Date.now() + REVOCATION_DEADLINE_MS;
  while (Date.now() < deadline) {
    await write();
    try {
      const event = await reader.next({ timeoutMs: 500 });
      if (event.type !== 'status') return event;
    } catch (err) {
      if ((err as Error).name !== 'StreamTimeoutError') throw err;
    }
  }
  throw new Error(`no event but status within ${REVOCATION_DEADLINE_MS} ms of writing tracked documents every half second`);
}

/** Asserts that the server ended the stream: no further event within 3 s, then the end. */
export async function expectEnded(reader: StreamReader): Promise<void> {
  const err = await reader.next({ timeoutMs: 3_000 }).then(
    (e) => new Error(`another event followed: ${showEvent(e)}`),
    (e: Error) => e,
  );
  expect(err.name, err.message).toBe('StreamEndedError');
}

/**
 * Asserts that no data event arrives within `windowMs`; status events may. Answers true when the stream is still
 * open at the end of the window.
 */
export async function expectQuiet(reader: StreamReader, windowMs: number): Promise<boolean> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return !reader.done;
    try {
      const event = await reader.next({ timeoutMs: left });
      expect(event.type, `no data event expected, got ${showEvent(event)}`).toBe('status');
    } catch (err) {
      if ((err as Error).name === 'StreamTimeoutError') return !reader.done;
      // Ended (or cut) by the server within the window: not open at its end.
      if ((err as Error).name === 'StreamEndedError') return false;
      throw err;
    }
  }
}

/** JSON text of a parsed event (its integers are bigints). */
export function showEvent(event: unknown): string {
  return JSON.stringify(event, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

/** What `docId` reads of an event: its document, tagged (`@doc`) or plain. */
export interface EventData {
  readonly data?: { readonly '@doc'?: { readonly id: unknown }; readonly id?: unknown };
}

export function docId(event: EventData): string {
  return String(event.data?.['@doc']?.id ?? event.data?.id);
}
