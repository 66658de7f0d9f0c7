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
  bigintOf,
  chainJson,
  editEvents,
  editFql,
  errorCodeOf,
  eventDoc,
  eventDocId,
  feedPage,
  holdOpen,
  isErrorEvent,
  isEvent,
  isFeedRequest,
  isQueryV10,
  isRetentionError,
  isStreamRequest,
  observeV4Forms,
  requestObject,
  resultDocument,
  tagged,
  tokenOf,
  v10ErrorResponse,
  withDoc,
  withoutErrorEvents,
  withoutPositions,
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

const errorEvent = (code: string) => ({ type: 'error', error: { code, message: 'm' } });
const docRef = (collection: string, id: string) => ({
  '@ref': { id, collection: { '@ref': { id: collection, collection: { '@ref': { id: 'collections' } } } } },
});

describe('recognising requests, events and answers', () => {
  it('tells event requests and /query/1 apart by path, query string ignored', () => {
    expect([isFeedRequest(feed({})), isStreamRequest(feed({})), isQueryV10(feed({}))]).toEqual([true, false, false]);
    expect([isFeedRequest(stream({})), isStreamRequest(stream({})), isQueryV10(fql('1'))]).toEqual([false, true, true]);
    expect(isFeedRequest({ ...feed({}), path: '/feed/1?x=1' })).toBe(true);
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

  it('holdOpen returns once the suite has left', async () => {
    const writer = recordingWriter();
    await holdOpen(writer);
    expect(writer.closed).toBe(true);
    expect(writer.emitted).toEqual([]);
  });
});

describe('what the proxy learns from traffic', () => {
  it('observeV4Forms visits each top-level form of a successful v4 answer with its result and transaction time', () => {
    const seen: unknown[] = [];
    const observe = observeV4Forms((form, result, ts) => seen.push([Object.keys(form)[0], resultDocument(result), ts]));
    const expression = [{ create: { collection: 'c' }, params: {} }, { delete: docRef('c', '2') }, 5];
    const answer = wire({ resource: [{ ref: docRef('c', '1'), ts: 9 }, { ref: docRef('c', '2'), ts: 9 }, 5] });
    expect(observe(answer, ctx(v4(expression), 200, { 'x-txn-time': '9' }))).toBeUndefined();
    expect(seen).toEqual([
      ['create', { id: '1', coll: 'c' }, 9n],
      ['delete', { id: '2', coll: 'c' }, 9n],
    ]);
    observe(answer, ctx(v4(expression), 400, { 'x-txn-time': '9' }));
    observe(answer, ctx(v4(expression), 200));
    observe(answer, ctx(feed({}), 200, { 'x-txn-time': '9' }));
    expect(seen).toHaveLength(2);
    expect(resultDocument(wire({ ref: { '@ref': 'c/1' } }) as never)).toBeUndefined();
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
