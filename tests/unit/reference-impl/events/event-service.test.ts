import { describe, expect, it } from 'vitest';
import { EventRequestError, EventService, EVENTS_PER_RUN_LIMIT } from '../../../../reference-impl/events/event-service.js';
import { MAX_TRANSFORMED_DATA_CHARS } from '../../../../reference-impl/events/source-consumer.js';
import { StreamSession, type StreamGuards } from '../../../../reference-impl/events/stream-session.js';
import type { ResponseStream } from '../../../../reference-impl/transport/exchange.js';
import { sourceSpec, unitRuntime } from '../fql/fql-fixture.js';
import { StoreFixture } from './store-fixture.js';

const ROOT_CREATOR = { identity: { kind: 'root', database: '0', role: 'admin' }, scoped: false } as const;
const OTHER_DATABASE = { identity: { kind: 'root', database: '1', role: 'admin' }, scoped: false } as const;
const allowAll = async () => true;

async function setup(options: ConstructorParameters<typeof EventService>[1] = {}, query = 'Items.all().eventSource()') {
  const fixture = new StoreFixture();
  const service = new EventService(fixture.store, { serverKey: new Uint8Array(32), runtime: unitRuntime(fixture.store), ...options });
  const createdAt = fixture.commit([{ collection: 'Items' }]);
  const token = service.issueToken(ROOT_CREATOR, await sourceSpec(fixture.store, query), createdAt);
  return { fixture, service, token, source: service.open(token, ROOT_CREATOR, 'feed') };
}

const puts = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ put: 'Items', id: String(from + i), data: {} }));

class MemorySink implements ResponseStream {
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  readonly events: any[] = [];
  /** What each `write` got: a live transaction's events arrive as one buffer. */
  readonly writes: (string | Uint8Array)[] = [];
  closed = false;
  private waiter: (() => void) | undefined;
  write(data: string | Uint8Array): void {
    this.writes.push(data);
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    for (const line of text.split('\r\n')) if (line !== '') this.events.push(JSON.parse(line));
    this.waiter?.();
  }
  /** Resolves once `count` events were written (the session writes from microtasks after a commit). */
  async until(count: number): Promise<void> {
    while (this.events.length < count) await new Promise<void>((resolve) => (this.waiter = resolve));
  }
  end(): void {
    this.closed = true;
  }
  onClose(): void {}
  whenWritable(): Promise<void> | undefined {
    return undefined;
  }
}

const guards: StreamGuards = { authorizationLost: () => false, databaseLive: () => true };

describe('EventService', () => {
  it('opens its own tokens only in their database, and with the same server key after a restart', async () => {
    const { fixture, service, token } = await setup();
    expect(() => service.open(token, OTHER_DATABASE, 'feed')).toThrow(EventRequestError);
    expect(() => service.open(`${token.slice(0, -4)}AAA=`, ROOT_CREATOR, 'feed')).toThrow(EventRequestError);
    expect(
      new EventService(fixture.store, { serverKey: new Uint8Array(32), runtime: unitRuntime(fixture.store) }).open(
        token,
        ROOT_CREATOR,
        'feed',
      ).creator.identity.kind,
    ).toBe('root');
    expect(() =>
      new EventService(fixture.store, { serverKey: new Uint8Array(32).fill(1), runtime: unitRuntime(fixture.store) }).open(
        token,
        ROOT_CREATOR,
        'feed',
      ),
    ).toThrow(EventRequestError);
  });

  it(`a feed delivers a transaction of more than ${EVENTS_PER_RUN_LIMIT} events whole, across pages`, async () => {
    const { fixture, service, source } = await setup();
    fixture.commit(puts(1_000, EVENTS_PER_RUN_LIMIT + 1));
    const first = await service.feedPage(source, service.resolveStart(source, {}), 100, allowAll);
    expect([first.events.length, first.hasNext]).toEqual([100, true]);
    const rest = await service.feedPage(source, service.resolveStart(source, { cursor: first.cursor }), 100, allowAll);
    expect([rest.events.length, rest.hasNext]).toEqual([EVENTS_PER_RUN_LIMIT + 1 - 100, false]);
    expect([...first.events, ...rest.events].every((e) => JSON.parse(e).type === 'add')).toBe(true);
  });

  it('pages by page size with has_next', async () => {
    const { fixture, service, source } = await setup();
    fixture.commit(puts(1, 5));
    const first = await service.feedPage(source, service.resolveStart(source, {}), 3, allowAll);
    expect([first.events.length, first.hasNext]).toEqual([3, true]);
    const second = await service.feedPage(source, service.resolveStart(source, { cursor: first.cursor }), 3, allowAll);
    expect([second.events.length, second.hasNext]).toEqual([2, false]);
  });

  it(`a stream replays up to ${EVENTS_PER_RUN_LIMIT} events, and ends with stream_replay_volume_exceeded beyond`, async () => {
    const ok = await setup();
    ok.fixture.commit(puts(1, EVENTS_PER_RUN_LIMIT));
    const sink = new MemorySink();
    const session = new StreamSession(ok.service, ok.source, ok.service.resolveStart(ok.source, {}), allowAll, sink, guards);
    await session.run();
    expect(sink.events[0].type).toBe('status');
    expect(sink.events.slice(1).filter((e) => e.type === 'add')).toHaveLength(EVENTS_PER_RUN_LIMIT);
    expect(sink.closed).toBe(false);
    sink.closed = true;

    const over = await setup();
    over.fixture.commit(puts(1, 100));
    over.fixture.commit(puts(200, EVENTS_PER_RUN_LIMIT - 99));
    const overSink = new MemorySink();
    await new StreamSession(over.service, over.source, over.service.resolveStart(over.source, {}), allowAll, overSink, guards).run();
    expect(overSink.events.map((e) => e.error?.code ?? e.type)).toEqual(['status', 'stream_replay_volume_exceeded']);
    expect(overSink.closed).toBe(true);
  });

  it('a replay makes each event as it sends it: a client that stops reading holds one event of the replay (DEC-077)', async () => {
    const { fixture, service, source } = await setup();
    fixture.commit(puts(1, 10));
    for (let n = 11; n <= 20; n++) fixture.commit(puts(n, 1));
    let made = 0;
    const counting = async () => {
      made += 1;
      return true;
    };
    // A client that reads the status event and the first replayed event, then nothing more.
    class StalledSink extends MemorySink {
      override whenWritable(): Promise<void> | undefined {
        return this.events.length >= 2 ? new Promise<void>(() => {}) : undefined;
      }
    }
    const sink = new StalledSink();
    void new StreamSession(service, source, service.resolveStart(source, {}), counting, sink, guards).run();
    await sink.until(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sink.events.map((e) => e.type)).toEqual(['status', 'add']);
    // Twenty events counted (each checked once and dropped), then only the first made again to be sent; before, all
    // twenty were made once and held until the client read them.
    expect(made).toBe(21);
    sink.closed = true;
  });

  it('a transformed event too large to send is an error event value_too_large; the document alone is sent', async () => {
    const copies = 40;
    const text = 'x'.repeat(Math.ceil(MAX_TRANSFORMED_DATA_CHARS / copies) + 1);
    const repeated = await setup({}, `Items.all().map(d => [${Array(copies).fill('d.s').join(', ')}]).eventSource()`);
    repeated.fixture.commit([{ put: 'Items', id: '1', data: { s: text } }]);
    const page = await repeated.service.feedPage(repeated.source, repeated.service.resolveStart(repeated.source, {}), 16, allowAll);
    expect(page.events.map((e) => JSON.parse(e).error?.code)).toEqual(['value_too_large']);

    const plain = await setup();
    plain.fixture.commit([{ put: 'Items', id: '1', data: { s: text } }]);
    const whole = await plain.service.feedPage(plain.source, plain.service.resolveStart(plain.source, {}), 16, allowAll);
    expect(JSON.parse(whole.events[0]!).data['@doc'].s).toBe(text);
  });

  it('a fault while replaying ends the stream with internal_error and gives back its place', async () => {
    const { fixture, service, source } = await setup();
    fixture.commit(puts(1, 2));
    service.history.transactionsAfter = () => {
      throw new Error('a fault');
    };
    const sink = new MemorySink();
    let released = 0;
    await new StreamSession(service, source, service.resolveStart(source, {}), allowAll, sink, guards, () => released++).run();
    expect(sink.events.map((e) => e.error?.code ?? e.type)).toEqual(['status', 'internal_error']);
    expect([sink.closed, released]).toEqual([true, 1]);
  });

  it('streams of one source and creator share the role check and the encoded event of a live transaction', async () => {
    const { fixture, service, token } = await setup();
    let checks = 0;
    const counting = async () => {
      checks += 1;
      return true;
    };
    const sinks = [new MemorySink(), new MemorySink(), new MemorySink()];
    for (const sink of sinks) {
      const source = service.open(token, ROOT_CREATOR, 'feed');
      await new StreamSession(service, source, service.resolveStart(source, {}), counting, sink, guards).run();
    }
    fixture.commit(puts(1, 2));
    await Promise.all(sinks.map((sink) => sink.until(3)));
    expect(checks).toBe(2);
    // One buffer for the whole transaction, the same object for every stream (the transport frames it once).
    expect(sinks.map((sink) => sink.writes.length)).toEqual([2, 2, 2]);
    expect(sinks[1]!.writes[1]).toBe(sinks[0]!.writes[1]);
    expect(sinks[2]!.events.slice(1).map((e) => e.type)).toEqual(['add', 'add']);
    for (const sink of sinks) sink.closed = true;
  });
});
