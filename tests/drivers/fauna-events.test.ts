// The official v10 driver `fauna` 2.x (its fetch transport, fauna-client.ts) consumes event sources of the reference server:
// a feed, a stream, a stream resumed by cursor, and an error event surfacing as the driver's error.
import { type Client, type Document, fql, type QueryValue, type StreamEventData, type StreamToken } from 'fauna';
import { beforeAll, describe, expect, it } from 'vitest';
import { faunaClient, readStream, type StreamEvent, useFaunaServer, v4Query } from './fauna-client.js';

const fauna = useFaunaServer();

/** What these tests read of v4 answers: the documents a create wrote, a key. */
interface WrittenDocument {
  ref: { '@ref': { id: string } };
}
interface CreatedKey {
  ref: unknown;
  secret: string;
}

function v4(expr: unknown, secret = fauna.server.rootSecret): Promise<unknown> {
  return v4Query(fauna.server.url, secret, expr);
}

async function createWidgets(count: number, collection = 'Widget'): Promise<string[]> {
  const created = await v4(
    Array.from({ length: count }, (_, i) => ({ create: { collection }, params: { object: { data: { object: { n: i } } } } })),
  );
  return (created as WrittenDocument[]).map((doc) => String(doc.ref['@ref'].id));
}

async function source(query = fql`Widget.all().eventSource()`, on: Client = fauna.client): Promise<StreamToken> {
  const res = await on.query<StreamToken>(query);
  return res.data;
}

/** The ids of a stream's data events, status events left out. */
function dataIds(events: StreamEvent<Document>[]): string[] {
  return events.filter((event): event is StreamEventData<Document> => event.type !== 'status').map((event) => String(event.data.id));
}

beforeAll(async () => {
  await v4({ create_collection: { object: { name: 'Widget' } } });
});

describe('fauna 2.x driver: event feeds and streams', () => {
  it('reads a feed page by page', async () => {
    const token = await source();
    const ids = await createWidgets(5);
    const seen: string[] = [];
    for await (const page of fauna.client.feed<Document>(token, { page_size: 2 })) {
      for (const event of page.events) seen.push(String(event.data.id));
    }
    expect(seen).toEqual(ids);
  });

  it('streams replayed and live events, then resumes from a cursor', async () => {
    const token = await source();
    const replayed = await createWidgets(2);
    let live: string[] = [];
    const seen = await readStream(
      fauna.client.stream<Document>(token),
      (events) => dataIds(events).length === 3,
      async (event, events) => {
        if (event.type !== 'status' && dataIds(events).length === 2) live = await createWidgets(1);
      },
    );
    expect(dataIds(seen)).toEqual([...replayed, ...live]);
    const first = seen.find((event) => event.type !== 'status')!;

    const later = await createWidgets(1);
    const resumed = await readStream(
      fauna.client.stream<Document>(token, { cursor: first.cursor }),
      (events) => dataIds(events).length === 3,
    );
    expect(dataIds(resumed)).toEqual([replayed[1], ...live, ...later]);
  });

  it('surfaces an error event (permission_loss when the creating key is deleted) as the driver error', async () => {
    const key = (await v4({ create_key: { object: { role: 'server' } } })) as CreatedKey;
    const keyClient = faunaClient(fauna.server.url, key.secret);
    try {
      const token = await source(fql`Widget.all().eventSource()`, keyClient);
      const stream = keyClient.stream(token, { status_events: true });
      const deleteKeyOnStatus = async (event: StreamEvent<QueryValue>) => {
        if (event.type === 'status') await v4({ delete: key.ref });
      };
      const error = (await readStream(stream, () => false, deleteKeyOnStatus).then(
        () => undefined,
        (failure: unknown) => failure,
      )) as { code?: string } | undefined;
      expect(error).toBeInstanceOf(Error);
      expect(error?.code).toBe('permission_loss');
    } finally {
      keyClient.close();
    }
  });
});
