// The events faults' building blocks, called directly with the requests, answers and stream events the proxy
// hands them: each edit is shown changing what it targets and leaving everything else as it was.
import { describe, expect, it } from 'vitest';
import type {
  BufferedResponse,
  ExchangeContext,
  FaultHooks,
  JsonResponseContext,
  ProxiedRequest,
  StreamWriter,
} from '../../../selfcheck/fault.js';
import {
  acceptRefusedQueries,
  addCreatedDocs,
  bigintOf,
  chainJson,
  clampStartToCreation,
  editEventRequest,
  editEvents,
  editFql,
  errorCodeOf,
  eventDoc,
  eventDocId,
  EventTraffic,
  feedPage,
  holdOpen,
  ignorePermissionLoss,
  isErrorEvent,
  isEvent,
  isFeed,
  isFeedRequest,
  isQueryV10,
  isRetentionError,
  isStreamRequest,
  nowMicros,
  requestObject,
  tagged,
  tokenOf,
  triggerRewrite,
  v10ErrorResponse,
  v4Writes,
  withDoc,
  withoutErrorEvents,
  withoutPositions,
  WriteLog,
} from '../../../selfcheck/faults/lib/event-rewrites.js';
import { parseJson, stringifyJson } from '../../../selfcheck/json-body.js';

const post = (path: string, body: unknown, headers: Record<string, string> = {}): ProxiedRequest => ({
  method: 'POST',
  path,
  headers,
  body: Buffer.from(JSON.stringify(body)),
});
const v4 = (expression: unknown) => post('/', expression);
const fql = (query: unknown, headers: Record<string, string> = {}) => post('/query/1', { query }, headers);
const feed = (body: unknown) => post('/feed/1', body);
const stream = (body: unknown) => post('/stream/1', body);
/** JSON as the proxy hands it to a hook: parsed losslessly. */
const wire = (value: unknown): unknown => parseJson(JSON.stringify(value));
/** A body as the suite would read it back. */
const plain = (value: unknown): unknown => JSON.parse(stringifyJson(value));
const ctx = (original: ProxiedRequest, status = 200, headers: Record<string, string> = {}): JsonResponseContext => ({
  original,
  request: original,
  status,
  headers,
});
const exchange = (original: ProxiedRequest): ExchangeContext => ({ original, request: original });
const response = (status: number, body: unknown): BufferedResponse => ({
  status,
  headers: { 'x-txn-time': '7' },
  body: Buffer.from(JSON.stringify(body)),
});
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
const bodyOf = (res: BufferedResponse | undefined): any => (res === undefined ? undefined : JSON.parse(res.body.toString()));

/** A writer that records what a stream hook emits; `pause` ends the stream (the suite left). */
function recordingWriter(): StreamWriter & { emitted: unknown[] } {
  let closed = false;
  const emitted: unknown[] = [];
  return {
    emitted,
    emit: (event) => emitted.push(event),
    writeRaw: async () => {},
    destroy: () => {
      closed = true;
    },
    pause: async () => {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}

/** Runs `events` through a fault's stream hook for a request, answering what it emitted. */
async function throughStream(hooks: FaultHooks, events: unknown[], original = stream({ token: 't' })): Promise<unknown[]> {
  const hook = hooks.stream!(exchange(original))!;
  const writer = recordingWriter();
  for (const [i, event] of events.entries()) await hook.onEvent(event, writer, i);
  return writer.emitted;
}

const docEvent = (id: string, txnTs: number, extra: Record<string, unknown> = {}) => ({
  type: 'update',
  data: { '@doc': { id, n: { '@int': '1' } } },
  txn_ts: txnTs,
  cursor: `c-${id}-${txnTs}`,
  ...extra,
});
const errorEvent = (code: string) => ({ type: 'error', error: { code, message: 'm' } });
const docRef = (collection: string, id: string) => ({
  '@ref': { id, collection: { '@ref': { id: collection, collection: { '@ref': { id: 'collections' } } } } },
});

describe('recognising requests, events and answers', () => {
  it('tells event requests and /query/1 apart by path, query string ignored', () => {
    expect([isFeedRequest(feed({})), isStreamRequest(feed({})), isQueryV10(feed({}))]).toEqual([true, false, false]);
    expect([isFeedRequest(stream({})), isStreamRequest(stream({})), isQueryV10(fql('1'))]).toEqual([false, true, true]);
    expect(isFeedRequest({ ...feed({}), path: '/feed/1?x=1' })).toBe(true);
    expect(isFeed('/feed/1?a')).toBe(true);
    expect(isFeed('/feed/2')).toBe(false);
  });

  it('isEvent checks a string type, optionally among given types; isErrorEvent checks the error code', () => {
    expect(isEvent({ type: 'add' })).toBe(true);
    expect(isEvent({ type: 'add' }, 'update', 'remove')).toBe(false);
    expect(isEvent({ type: 1 })).toBe(false);
    expect(isErrorEvent(errorEvent('permission_loss'), 'permission_loss')).toBe(true);
    expect(isErrorEvent(errorEvent('permission_loss'), 'limit_exceeded')).toBe(false);
    expect(isErrorEvent({ type: 'update', error: { code: 'permission_loss' } }, 'permission_loss')).toBe(false);
    expect(isRetentionError(errorEvent('invalid_stream_start_time'))).toBe(true);
    expect(isRetentionError(errorEvent('invalid_start_time'))).toBe(true);
    expect(isRetentionError(errorEvent('invalid_cursor'))).toBe(false);
  });

  it('feedPage needs an events array; requestObject reads a JSON object body only', () => {
    const page = { events: [], cursor: 'c' };
    expect(feedPage(page)).toBe(page);
    expect(feedPage({ events: {} })).toBeUndefined();
    expect(requestObject(feed({ token: 't' }))).toEqual({ token: 't' });
    expect(requestObject({ ...feed({}), body: Buffer.alloc(0) })).toBeUndefined();
    expect(requestObject({ ...feed({}), body: Buffer.from('[1]') })).toBeUndefined();
    expect(requestObject({ ...feed({}), body: Buffer.from('{') })).toBeUndefined();
  });

  it('bigintOf reads JSON integers exactly and nothing else', () => {
    expect(bigintOf(wire(1718340750415639))).toBe(1718340750415639n);
    expect(bigintOf(parseJson('12345678901234567890'))).toBe(12345678901234567890n);
    expect(bigintOf(parseJson('1.5'))).toBeUndefined();
    expect(bigintOf('5')).toBeUndefined();
  });

  it('eventDoc, eventDocId and withDoc work on the @doc of a data event, withDoc on a copy', () => {
    const event = { type: 'add', data: { '@doc': { id: '5', a: 1 } }, txn_ts: 1 };
    expect(eventDoc(event)).toEqual({ id: '5', a: 1 });
    expect(eventDocId(event)).toBe('5');
    expect(eventDocId({ type: 'add', data: { '@doc': { id: 5 } } })).toBeUndefined();
    expect(eventDoc({ type: 'add', data: { id: '5' } })).toBeUndefined();
    const replaced = withDoc(event, { id: '6' });
    expect(replaced).toEqual({ type: 'add', data: { '@doc': { id: '6' } }, txn_ts: 1 });
    expect(event.data['@doc']).toEqual({ id: '5', a: 1 });
  });

  it('tokenOf reads a tagged {"@stream"} token only', () => {
    expect(tokenOf({ data: { '@stream': 'tok' }, static_type: 'EventSource' })).toBe('tok');
    expect(tokenOf({ data: 'tok', static_type: 'EventSource' })).toBeUndefined();
    expect(tokenOf({ data: { '@int': '1' } })).toBeUndefined();
  });

  it('v10ErrorResponse answers a v10 error body with the status; errorCodeOf reads its code back', () => {
    const error = v10ErrorResponse(response(200, { data: 1 }), 400, 'invalid_request', 'bad');
    expect(error.status).toBe(400);
    expect(error.headers).toMatchObject({ 'x-txn-time': '7', 'content-type': 'application/json' });
    expect(bodyOf(error)).toEqual({ error: { code: 'invalid_request', message: 'bad' } });
    expect(errorCodeOf(error)).toBe('invalid_request');
    expect(errorCodeOf(response(200, { data: 1 }))).toBeUndefined();
    expect(errorCodeOf({ status: 500, headers: {}, body: Buffer.from('oops') })).toBeUndefined();
  });

  it('v4Writes finds a form key at the top level or in a top-level array only', () => {
    expect(v4Writes(v4({ create: { collection: 'c' } }), 'create')).toBe(true);
    expect(v4Writes(v4([{ get: 1 }, { update: 1, params: {} }]), 'update')).toBe(true);
    expect(v4Writes(v4({ do: [{ create: 1 }] }), 'create')).toBe(false);
    expect(v4Writes(v4({ create: { collection: 'c' } }), 'create', (target) => (target as { collection: string }).collection === 'd')).toBe(
      false,
    );
    expect(v4Writes(fql('x'), 'create')).toBe(false);
  });

  it('tagged writes v4 plain values in the tagged event form: ints, longs, doubles, nested', () => {
    const value = parseJson('{"a":5,"b":[2147483648,-2147483648,1.5],"c":{"d":"s","e":true,"f":null}}');
    expect(tagged(value)).toEqual({
      a: { '@int': '5' },
      b: [{ '@long': '2147483648' }, { '@int': '-2147483648' }, { '@double': '1.5' }],
      c: { d: 's', e: true, f: null },
    });
  });
});

describe('editing requests', () => {
  it('editEventRequest edits the bodies of the endpoints it names and only when the edit says it changed something', () => {
    const hook = editEventRequest({ feed: true }, (body) => {
      if (body.page_size === undefined) return false;
      body.page_size = 1;
      return true;
    })!;
    expect(JSON.parse((hook(feed({ token: 't', page_size: 9 })) as ProxiedRequest).body.toString())).toEqual({ token: 't', page_size: 1 });
    expect(hook(feed({ token: 't' }))).toBeUndefined();
    expect(hook(stream({ token: 't', page_size: 9 }))).toBeUndefined();
  });

  it('editFql rewrites a string query or the text pieces of a template, leaving values alone', () => {
    const hook = editFql((text) => text.replace('eventSource', 'eventsOn'))!;
    expect(JSON.parse((hook(fql('Product.all().eventSource()')) as ProxiedRequest).body.toString())).toEqual({
      query: 'Product.all().eventsOn()',
    });
    const template = { fql: ['Product.where(.n > ', { value: 'eventSource' }, ').eventSource()'] };
    expect(JSON.parse((hook(fql(template)) as ProxiedRequest).body.toString())).toEqual({
      query: { fql: ['Product.where(.n > ', { value: 'eventSource' }, ').eventsOn()'] },
    });
    expect(hook(fql('Product.all()'))).toBeUndefined();
    expect(hook(v4({ query: 'eventSource' }))).toBeUndefined();
  });
});

describe('editing events', () => {
  const dropUpdates = editEvents((event) => (event.type === 'update' ? [] : undefined));
  const splitAdds = editEvents((event) => (event.type === 'add' ? [event, { ...event, type: 'copy' }] : undefined), {
    feed: true,
    stream: false,
  });

  it('edits every event of a feed page: dropping, keeping, splitting; unchanged pages are not counted', () => {
    const page = wire({ events: [{ type: 'add' }, { type: 'update' }, 7], cursor: 'c' });
    expect(plain(dropUpdates.json!(page, ctx(feed({}))))).toEqual({ events: [{ type: 'add' }, 7], cursor: 'c' });
    expect(plain(splitAdds.json!(wire({ events: [{ type: 'add' }] }), ctx(feed({}))))).toEqual({
      events: [{ type: 'add' }, { type: 'copy' }],
    });
    expect(dropUpdates.json!(wire({ events: [{ type: 'add' }] }), ctx(feed({})))).toBeUndefined();
    expect(dropUpdates.json!(wire({ events: [{ type: 'update' }] }), ctx(fql('x')))).toBeUndefined();
  });

  it('edits stream events one by one, and only on the endpoints it names', async () => {
    expect(await throughStream(dropUpdates, [{ type: 'add' }, { type: 'update' }, { type: 'remove' }])).toEqual([
      { type: 'add' },
      { type: 'remove' },
    ]);
    expect(splitAdds.stream).toBeUndefined();
  });

  it('withoutErrorEvents removes the error events of one code from streams and feed pages', async () => {
    const hooks = withoutErrorEvents('limit_exceeded');
    expect(await throughStream(hooks, [{ type: 'start' }, errorEvent('limit_exceeded'), errorEvent('permission_loss')])).toEqual([
      { type: 'start' },
      errorEvent('permission_loss'),
    ]);
    expect(plain(hooks.json!(wire({ events: [errorEvent('limit_exceeded'), { type: 'add' }] }), ctx(feed({}))))).toEqual({
      events: [{ type: 'add' }],
    });
    expect(hooks.json!(wire({ events: [errorEvent('permission_loss')] }), ctx(feed({})))).toBeUndefined();
  });

  it('ignorePermissionLoss holds streams open instead of a permission_loss soon after a watched request, and only then', async () => {
    const build = ignorePermissionLoss((req) => v4Writes(req, 'delete'));
    const idle = build();
    expect(await throughStream(idle, [errorEvent('permission_loss')])).toEqual([errorEvent('permission_loss')]);
    const watched = build();
    expect(await watched.request!(v4({ get: 1 }))).toBeUndefined();
    expect(await throughStream(watched, [errorEvent('permission_loss')])).toEqual([errorEvent('permission_loss')]);
    expect(await watched.request!(v4({ delete: 1 }))).toBeUndefined();
    expect(await throughStream(watched, [{ type: 'add' }, errorEvent('permission_loss')])).toEqual([{ type: 'add' }]);
  });

  it('holdOpen returns once the suite has left', async () => {
    const writer = recordingWriter();
    await holdOpen(writer);
    expect(writer.closed).toBe(true);
    expect(writer.emitted).toEqual([]);
  });
});

describe('what the proxy learns from traffic', () => {
  it('EventTraffic remembers tokens (creation time, collection), cursors, and the data event of each cursor', () => {
    const traffic = new EventTraffic();
    const { json, streamEvent } = traffic.observer();
    expect(json(wire({ data: { '@stream': 'tok' }, txn_ts: 100 }), ctx(fql('Product.where(.n > 1).eventSource()')))).toBeUndefined();
    json(wire({ data: { '@stream': 'single' }, txn_ts: 200 }), ctx(fql({ fql: ['Set.single(Order.byId("1")).eventSource()'] })));
    json(wire({ data: { '@stream': 'ignored' }, txn_ts: 300 }), ctx(v4({ x: 1 })));
    expect(traffic.createdAt).toEqual(
      new Map([
        ['tok', 100n],
        ['single', 200n],
      ]),
    );
    expect(traffic.collectionOf).toEqual(
      new Map([
        ['tok', 'Product'],
        ['single', 'Order'],
      ]),
    );
    expect(traffic.lastToken).toBe('single');

    const add = { type: 'add', cursor: 'c1', data: { '@doc': { id: '1' } } };
    json(wire({ events: [add, { type: 'status', cursor: 'c2' }], cursor: 'c3' }), ctx(feed({ token: 'tok' })));
    streamEvent({ type: 'update', cursor: 'c4' });
    streamEvent({ type: 'start' });
    expect([...traffic.cursors].sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(plain(traffic.eventAt.get('c1'))).toEqual(add);
    expect(traffic.eventAt.has('c2')).toBe(false);
    expect(traffic.eventAt.has('c4')).toBe(true);
  });

  it('WriteLog records the creates, updates and deletes of a successful v4 answer by document and transaction time', () => {
    const log = new WriteLog();
    const expression = [
      { create: { collection: 'c' }, params: { object: { data: { object: { n: 1 } }, credentials: { object: { password: 'p' } } } } },
      { update: docRef('c', '1'), params: { object: { data: { object: { n: 2 } } } } },
      { delete: docRef('c', '2') },
      { get: docRef('c', '3') },
    ];
    const answer = wire({
      resource: [
        { ref: docRef('c', '1'), ts: 9, data: { n: 1 } },
        { ref: docRef('c', '1'), ts: 9, data: { n: 2 } },
        { ref: docRef('c', '2'), ts: 9, data: { n: 3 } },
        { ref: docRef('c', '3'), ts: 9, data: { n: 4 } },
      ],
    });
    expect(log.observe(answer, ctx(v4(expression), 200, { 'x-txn-time': '9' }))).toBeUndefined();
    expect(plain(log.at('1', wire(9)))).toEqual([
      { kind: 'create', data: { n: 1 } },
      { kind: 'update', data: { n: 2 } },
    ]);
    expect(log.at('2', wire(9))).toEqual([{ kind: 'delete' }]);
    expect(log.at('3', wire(9))).toEqual([]);
    expect(log.at('1', wire(8))).toEqual([]);
    expect(plain(log.updatesAt(wire(9)))).toEqual([{ n: 2 }]);
    expect([...log.withCredentials]).toEqual(['1']);
  });

  it('WriteLog ignores failed answers and answers without a transaction time', () => {
    const log = new WriteLog();
    const answer = wire({ resource: { ref: docRef('c', '1'), ts: 9, data: {} } });
    log.observe(answer, ctx(v4({ create: { collection: 'c' } }), 400, { 'x-txn-time': '9' }));
    log.observe(answer, ctx(v4({ create: { collection: 'c' } }), 201));
    expect(log.at('1', wire(9))).toEqual([]);
  });

  it('chainJson passes each hook the result of the one before and counts a change when any hook made one', () => {
    const seen: unknown[] = [];
    const watch: FaultHooks['json'] = (body) => {
      seen.push(body);
      return undefined;
    };
    const wrap: FaultHooks['json'] = (body) => ({ wrapped: body });
    expect(chainJson(watch, wrap, watch, undefined)('b', ctx(feed({})))).toEqual({ wrapped: 'b' });
    expect(seen).toEqual(['b', { wrapped: 'b' }]);
    expect(chainJson(watch, watch)('b', ctx(feed({})))).toBeUndefined();
  });
});

describe('query faults', () => {
  it('acceptRefusedQueries answers 200 with the last token seen to a matching query refused with 400', () => {
    const hooks = acceptRefusedQueries(/Order/)();
    const refusal = response(400, { error: { code: 'invalid_receiver', message: 'm' }, txn_ts: 5, summary: 'error' });
    const fallback = bodyOf(hooks.response!(refusal, exchange(fql('Order.all().eventSource()'))));
    expect(fallback.data['@stream']).toEqual(expect.any(String));
    hooks.json!(wire({ data: { '@stream': 'seen' }, txn_ts: 4 }), ctx(fql('Product.all().eventSource()')));
    const accepted = hooks.response!(refusal, exchange(fql('Order.all().eventSource()')));
    expect(accepted!.status).toBe(200);
    expect(bodyOf(accepted)).toEqual({ data: { '@stream': 'seen' }, static_type: 'EventSource', txn_ts: 5, summary: '' });
    expect(bodyOf(hooks.response!(refusal, exchange(fql('Order.all().eventSource()', { 'x-format': 'simple' })))).data).toBe('seen');
    expect(hooks.response!(refusal, exchange(fql('Product.all().eventSource()')))).toBeUndefined();
    expect(hooks.response!(response(200, {}), exchange(fql('Order.all().eventSource()')))).toBeUndefined();
  });

  it('withoutPositions strips line:column positions from the message and summary of the named error codes only', () => {
    const hooks = withoutPositions(['invalid_query']);
    const body = wire({
      error: { code: 'invalid_query', message: 'bad token at 1:5' },
      summary: 'error: bad\nat *query*:1:5, line 1 column 5',
    });
    expect(plain(hooks.json!(body, ctx(fql('x'))))).toEqual({
      error: { code: 'invalid_query', message: 'bad token at ' },
      summary: 'error: bad\nat *query*:,  ',
    });
    expect(hooks.json!(wire({ error: { code: 'abort', message: 'at 1:5' } }), ctx(fql('x')))).toBeUndefined();
    expect(hooks.json!(wire({ error: { code: 'invalid_query', message: 'at 1:5' } }), ctx(v4({})))).toBeUndefined();
  });
});

describe('faults that imitate a server with a different memory', () => {
  it('triggerRewrite edits data events with the writes the proxy saw for their document in their transaction', () => {
    const calls: unknown[] = [];
    const hooks = triggerRewrite((_event, writes) => {
      calls.push(writes.map((w) => w.kind));
      return writes.some((w) => w.kind === 'update') ? [] : undefined;
    });
    hooks.json!(
      wire({ resource: { ref: docRef('c', '1'), ts: 50, data: { n: 2 } } }),
      ctx(v4({ update: docRef('c', '1'), params: {} }), 200, { 'x-txn-time': '50' }),
    );
    const page = wire({ events: [docEvent('1', 50), docEvent('1', 60), docEvent('2', 50)] });
    expect(plain(hooks.json!(page, ctx(feed({}))))).toEqual({ events: [docEvent('1', 60), docEvent('2', 50)] });
    expect(calls).toEqual([['update']]);
  });

  it('clampStartToCreation moves a start_ts before the source was created, inside retention, up to the creation time', async () => {
    const created = nowMicros() - 60_000_000n;
    const hooks = clampStartToCreation({ feed: true });
    hooks.json!(parseJson(`{"data":{"@stream":"tok"},"txn_ts":${created}}`), ctx(fql('Product.all().eventSource()')));
    const startAt = async (start: bigint, token = 'tok') => {
      const out = await hooks.request!({ ...feed({}), body: Buffer.from(`{"token":"${token}","start_ts":${start}}`) });
      return out === undefined ? undefined : String((parseJson(out.body) as { start_ts: unknown }).start_ts);
    };
    expect(await startAt(created - 1_000_000n)).toBe(String(created));
    expect(await startAt(created)).toBeUndefined();
    expect(await startAt(created - 30n * 60n * 1_000_000n)).toBeUndefined();
    expect(await startAt(created - 1_000_000n, 'unknown')).toBeUndefined();
    expect(
      await hooks.request!({ ...stream({}), body: Buffer.from(`{"token":"tok","start_ts":${created - 1_000_000n}}`) }),
    ).toBeUndefined();
  });

  it('addCreatedDocs adds, in txn_ts order, add events for documents created since the source that the last page lacks', () => {
    const sourceTs = 1718340750000000n;
    const hooks = addCreatedDocs((create, source) => create.coll === source.collection);
    const json = hooks.json!;
    json(parseJson(`{"data":{"@stream":"tok"},"txn_ts":${sourceTs}}`), ctx(fql('Product.all().eventSource()')));
    const create = (id: string, collection: string, at: bigint, n: number) =>
      json(
        wire({ resource: { ref: docRef(collection, id), ts: 1, data: { n } } }),
        ctx(v4({ create: { collection }, params: {} }), 201, { 'x-txn-time': String(at) }),
      );
    create('7', 'Product', sourceTs + 2_000_000n, 7);
    create('8', 'Order', sourceTs + 3_000_000n, 8);
    create('9', 'Product', sourceTs + 4_000_000n, 9);
    create('6', 'Product', sourceTs - 1n, 6);
    const present = {
      type: 'add',
      data: { '@doc': { id: '9' } },
      txn_ts: Number(sourceTs + 4_000_000n),
      cursor: 'last',
      stats: { read_ops: 1 },
    };
    const early = { type: 'add', data: { '@doc': { id: '5' } }, txn_ts: Number(sourceTs + 1_000_000n), cursor: 'c5', stats: {} };
    const page = parseJson(stringifyJson({ events: [early, present], cursor: 'last', has_next: false }));
    const out = plain(json(page, ctx(feed({ token: 'tok' })))) as {
      events: { data: { '@doc': Record<string, unknown> }; txn_ts: number; cursor: string; stats: unknown }[];
    };
    expect(out.events.map((e) => e.data['@doc'].id)).toEqual(['5', '7', '9']);
    const added = out.events[1]!;
    expect(added).toEqual({
      type: 'add',
      data: {
        '@doc': {
          id: '7',
          coll: { '@mod': 'Product' },
          ts: { '@time': new Date(Number((sourceTs + 2_000_000n) / 1000n)).toISOString() },
          n: { '@int': '7' },
        },
      },
      txn_ts: Number(sourceTs + 2_000_000n),
      cursor: 'last',
      stats: { read_ops: 1 },
    });
    expect(json(parseJson(stringifyJson({ events: [early, present], has_next: true })), ctx(feed({ token: 'tok' })))).toBeUndefined();
    expect(
      json(parseJson(stringifyJson({ events: [early, present], has_next: false })), ctx(feed({ token: 'tok', start_ts: 1 }))),
    ).toBeUndefined();
    expect(json(parseJson(stringifyJson({ events: [early, present], has_next: false })), ctx(feed({ token: 'other' })))).toBeUndefined();
  });
});
