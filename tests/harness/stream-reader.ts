// Reads a stream of newline-delimited JSON events (`\r\n` or `\n` after each) with a deadline on every read, so a
// server that stops sending fails the test instead of hanging it.
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { Exchange } from './transcript.js';
import { assertMatchesSchema, STREAM_EVENT_SCHEMA } from './response-schemas.js';
import { parseWireJson } from './wire-json.js';
import { registerSecretsIn } from './secret-discovery.js';

export class StreamTimeoutError extends Error {
  override name = 'StreamTimeoutError';
}

export class StreamEndedError extends Error {
  override name = 'StreamEndedError';
}

type Item = { event: unknown } | { error: Error };

export class StreamReader {
  private readonly queue: Item[] = [];
  private waiter: ((item: Item | undefined) => void) | undefined;
  private ended = false;
  private endReason: Error | undefined;
  private readonly lines: readline.Interface;
  /** Every event read so far, in order. */
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  readonly events: any[] = [];

  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    private readonly body: Readable,
    private readonly exchange: Exchange,
    private readonly defaultTimeoutMs: number,
    private readonly validateEvents: boolean,
    /** The schema each event must match: `/stream/1` events by default, v4 stream events for `POST /stream`. */
    private readonly eventSchema: string = STREAM_EVENT_SCHEMA,
  ) {
    this.lines = readline.createInterface({ input: body, crlfDelay: Infinity });
    this.lines.on('line', (line) => this.onLine(line));
    this.lines.on('close', () => this.finish(new StreamEndedError(`${this.where()} ended after ${this.events.length} event(s)`)));
    const failed = (err: Error) =>
      this.finish(new StreamEndedError(`${this.where()} failed after ${this.events.length} event(s): ${err.message}`));
    // readline re-emits the body's error on the interface first; unheard, it throws out of the body's emit and the
    // reader never learns that a server cut the stream.
    this.lines.on('error', failed);
    body.on('error', failed);
  }

  private where(): string {
    return `stream ${this.exchange.method} ${this.exchange.path}`;
  }

  private onLine(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '') return;
    let item: Item;
    try {
      const event = parseWireJson(trimmed);
      const plain = JSON.parse(trimmed);
      this.exchange.events ??= [];
      this.exchange.events.push(plain);
      registerSecretsIn(plain);
      if (this.validateEvents) assertMatchesSchema(this.eventSchema, plain, `${this.where()} event #${this.events.length + 1}`, trimmed);
      this.events.push(event);
      item = { event };
    } catch (err) {
      item = {
        error:
          err instanceof SyntaxError ? new Error(`${this.where()} sent a line that is not JSON: ${trimmed.slice(0, 500)}`) : (err as Error),
      };
    }
    this.push(item);
  }

  private push(item: Item): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(item);
    } else {
      this.queue.push(item);
    }
  }

  private finish(reason: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.endReason = reason;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(undefined);
    }
  }

  /** True once the server ended the stream (or it was closed) and every received event has been read. */
  get done(): boolean {
    return this.ended && this.queue.length === 0;
  }

  /** The next event; throws StreamTimeoutError when none arrives in time, StreamEndedError when the stream ended. */
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  async next(opts: { timeoutMs?: number } = {}): Promise<any> {
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const queued = this.queue.shift();
    if (queued) return unwrap(queued);
    if (this.ended) throw this.endReason!;
    if (this.waiter) throw new Error(`${this.where()}: next() called while another next() is waiting`);
    const item = await new Promise<Item | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve({
          error: new StreamTimeoutError(`${this.where()}: no event within ${timeoutMs} ms (after ${this.events.length} event(s))`),
        });
      }, timeoutMs);
      this.waiter = (it) => {
        clearTimeout(timer);
        resolve(it);
      };
    });
    if (item === undefined) throw this.endReason!;
    return unwrap(item);
  }

  /** Reads exactly `count` events, each within the timeout. */
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  async collect(count: number, opts: { timeoutMs?: number } = {}): Promise<any[]> {
    const out: unknown[] = [];
    while (out.length < count) out.push(await this.next(opts));
    return out;
  }

  /** Closes the connection; idempotent. */
  close(): void {
    this.lines.close();
    this.body.destroy();
    this.finish(new StreamEndedError(`${this.where()} was closed by the test`));
  }
}

function unwrap(item: Item): unknown {
  if ('error' in item) throw item.error;
  return item.event;
}
