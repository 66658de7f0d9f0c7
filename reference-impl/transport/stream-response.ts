/**
 * The transport side of a long-lived response (`/stream/1`): what `Exchange.openStream` hands to the endpoint.
 *
 * One event goes to every open stream of its source, so the write path per stream must be cheap. The producer
 * hands the same bytes to each stream; on HTTP/1.1 they are wrapped in their chunk framing once (cached per
 * buffer) and written to the socket with a single `socket.write`. Node's `res.write` would add four buffered
 * writes, a cork and a next-tick uncork per call, which was most of the per-stream cost with 1,000 streams.
 *
 * Writes are held until the current burst of event processing is over (the next tick) and then sent stream by
 * stream: the sockets are written back to back, so readers get the events in one burst rather than trickling in
 * between the processing of other streams, and a stream written several times in a burst sends one chunk.
 *
 * A client that stops reading leaves what is written in the server's memory. Past MAX_BACKLOG_BYTES waiting to be
 * sent, its stream is cut (DEC-071): one reader must not make the server hold every document written since.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { ResponseStream } from './exchange.js';

export type CompatResponse = http.ServerResponse | http2.Http2ServerResponse;

/** Bytes a stream may have waiting to be sent (in Node's buffers, past what the kernel took) before it is cut. */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

export class StreamResponse implements ResponseStream {
  private isClosed = false;
  /** Written, not yet sent (see above). */
  private pending: Uint8Array[] = [];
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
    this.pending.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  /** Sends what `write` held back. */
  flush(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    if (this.isClosed && !this.ending) return;
    const res = this.res;
    if (res instanceof http.ServerResponse && res.chunkedEncoding) {
      const socket = res.socket;
      // Only while this response owns the socket and nothing of it waits in Node's own buffer (its headers were
      // flushed), so the bytes cannot overtake anything the response wrote before.
      if (socket !== null && !socket.destroyed && res.writableLength === socket.writableLength) {
        socket.write(pending.length === 1 ? chunkFramed(pending[0]!) : Buffer.concat(pending.map(chunkFramed)));
        this.cutWhenBehind();
        return;
      }
    }
    for (const data of pending) (res as http.ServerResponse).write(data);
    this.cutWhenBehind();
  }

  /** Cuts the connection of a reader more than MAX_BACKLOG_BYTES behind; 'close' then tells the producer. */
  private cutWhenBehind(): void {
    const res = this.res;
    if (res instanceof http.ServerResponse) {
      if ((res.socket?.writableLength ?? 0) > MAX_BACKLOG_BYTES) res.socket!.destroy();
    } else if (res.stream.writableLength > MAX_BACKLOG_BYTES) {
      res.stream.close(http2.constants.NGHTTP2_CANCEL);
    }
  }

  end(): void {
    if (this.isClosed) return;
    this.markClosed(false);
    this.ending = true;
    this.flush();
    this.res.end();
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
  if (waiting.length === 0) process.nextTick(flushWaiting);
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
