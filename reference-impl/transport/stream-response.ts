/**
 * The transport side of a long-lived response (`/stream/1`): what `Exchange.openStream` hands to the endpoint.
 *
 * One event goes to every open stream of its source, so the write path per stream must be cheap. The producer
 * hands the same bytes to each stream; on HTTP/1.1 they are wrapped in their chunk framing once (cached per
 * buffer) and written to the socket with a single `socket.write`. Node's `res.write` would add four buffered
 * writes, a cork and a next-tick uncork per call, which was most of the per-stream cost with 1,000 streams.
 *
 * Writes are held until the end of the event loop's turn (end-of-turn.ts, after the turn's complete responses) and then
 * sent stream by stream: the sockets are written back to back, so readers get the events in one burst rather than
 * trickling in between the processing of other streams, and a stream written several times in a turn sends one chunk.
 *
 * A client that stops reading leaves what is written in the server's memory. A producer with much to send (a replay,
 * a burst of large documents) waits on `whenWritable` between events, so a reader that keeps up is never far behind.
 * A stream that is still more than MAX_BACKLOG_BYTES behind when more is to be sent is cut (DEC-071): one reader must
 * not make the server hold every document written since. The bound is checked before a write, so a single large
 * batch sent to a reader that keeps up does not cut it.
 */
import http from 'node:http';
import http2 from 'node:http2';
import { atEndOfTurn } from './end-of-turn.js';
import type { ResponseStream } from './exchange.js';

export type CompatResponse = http.ServerResponse | http2.Http2ServerResponse;

/** Bytes a stream may have waiting to be sent (in Node's buffers, past what the kernel took) before it is cut. */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** Bytes waiting to be sent below which `whenWritable` lets a producer go on (DEC-072). */
export const WRITABLE_BACKLOG_BYTES = 1024 * 1024;

export class StreamResponse implements ResponseStream {
  private isClosed = false;
  /** Written, not yet sent (see above). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Closed by `end`: what is pending still goes out before the end of the response. */
  private ending = false;
  /** Closed by the client or a server shutdown (listeners are told), rather than by `end`. */
  private gone = false;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly res: CompatResponse,
    private readonly forget: () => void,
  ) {
    res.on('close', () => this.markClosed(true));
    // A client that left while its request was being handled: 'close' has already fired.
    if (connectionGone(res)) this.markClosed(true);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  write(data: string | Uint8Array): void {
    if (this.isClosed || data.length === 0) return;
    if (this.pending.length === 0) flushSoon(this);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  // Implements: STREAM-FRAME-003
  /** Sends what `write` held back, unless the reader is too far behind (see above): then its connection is cut. */
  flush(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.isClosed && !this.ending) return;
    if (this.backlog() > MAX_BACKLOG_BYTES) {
      this.cut();
      return;
    }
    const res = this.res;
    if (res instanceof http.ServerResponse && res.chunkedEncoding) {
      const socket = res.socket;
      // Only while this response owns the socket and nothing of it waits in Node's own buffer (its headers were
      // flushed), so the bytes cannot overtake anything the response wrote before.
      if (socket !== null && !socket.destroyed && res.writableLength === socket.writableLength) {
        socket.write(pending.length === 1 ? chunkFramed(pending[0]!) : Buffer.concat(pending.map(chunkFramed)));
        return;
      }
    }
    for (const data of pending) (res as http.ServerResponse).write(data);
  }

  /**
   * Undefined when the producer may write on: the stream is closed, or less than WRITABLE_BACKLOG_BYTES wait to be
   * sent. Otherwise resolves once the connection has taken all but that much (or closed).
   */
  whenWritable(): Promise<void> | undefined {
    if (this.isClosed || this.backlog() + this.pendingBytes <= WRITABLE_BACKLOG_BYTES) return undefined;
    return this.taken();
  }

  private async taken(): Promise<void> {
    // The held writes go out at the end of this turn (flushSoon queued its flush before this one).
    if (this.pending.length > 0) await new Promise<void>((resolve) => atEndOfTurn('stream', resolve));
    const res = this.res;
    const emitter = res instanceof http.ServerResponse ? res.socket : res.stream;
    // Past WRITABLE_BACKLOG_BYTES (far above the high-water mark) the last write was refused, so 'drain' will come.
    while (!this.isClosed && emitter !== null && this.backlog() > WRITABLE_BACKLOG_BYTES) {
      await new Promise<void>((resolve) => {
        const done = () => {
          emitter.off('drain', done);
          res.off('close', done);
          resolve();
        };
        emitter.once('drain', done);
        res.once('close', done);
      });
    }
  }

  /** Bytes written to this stream that the kernel has not taken yet. */
  private backlog(): number {
    const res = this.res;
    return res instanceof http.ServerResponse ? (res.socket?.writableLength ?? 0) : res.stream.writableLength;
  }

  /** Ends the connection of a reader too far behind; 'close' then tells the producer. */
  private cut(): void {
    const res = this.res;
    if (res instanceof http.ServerResponse) res.socket?.destroy();
    else res.stream.close(http2.constants.NGHTTP2_CANCEL);
  }

  /** Ends the response at the end of this turn, after what is pending (and the turn's complete responses). */
  end(): void {
    if (this.isClosed) return;
    this.markClosed(false);
    this.ending = true;
    atEndOfTurn('stream', () => {
      this.flush();
      this.res.end();
    });
  }

  onClose(listener: () => void): void {
    if (this.gone) listener();
    else this.listeners.push(listener);
  }

  /** Server shutdown: notify the producer, then end the response. */
  shutdown(): void {
    if (this.isClosed) return;
    this.markClosed(true);
    this.pending = [];
    this.pendingBytes = 0;
    this.res.end();
  }

  private markClosed(notify: boolean): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.forget();
    if (!notify) return;
    this.gone = true;
    for (const listener of this.listeners) listener();
  }
}

function connectionGone(res: CompatResponse): boolean {
  return res instanceof http.ServerResponse ? res.destroyed : res.stream.destroyed;
}

/** Streams holding writes until the end of the current burst. */
const waiting: StreamResponse[] = [];

function flushSoon(stream: StreamResponse): void {
  if (waiting.length === 0) atEndOfTurn('stream', flushWaiting);
  waiting.push(stream);
}

function flushWaiting(): void {
  for (const stream of waiting.splice(0)) stream.flush();
}

const framedChunks = new WeakMap<Uint8Array, Buffer>();
const CRLF = Buffer.from('\r\n', 'latin1');

/** `data` as one HTTP/1.1 chunk (`<hex length>\r\n<data>\r\n`), built once per buffer however many streams send it. */
function chunkFramed(data: Uint8Array): Buffer {
  let framed = framedChunks.get(data);
  if (framed === undefined) {
    framed = Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, CRLF]);
    framedChunks.set(data, framed);
  }
  return framed;
}
