/** The transport side of a long-lived response (`/stream/1`): what `Exchange.openStream` hands to the endpoint. */
import type http from 'node:http';
import type http2 from 'node:http2';
import type { ResponseStream } from './exchange.js';

export type CompatResponse = http.ServerResponse | http2.Http2ServerResponse;

export class StreamResponse implements ResponseStream {
  private isClosed = false;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly res: CompatResponse,
    private readonly forget: () => void,
  ) {
    res.on('close', () => this.markClosed(true));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  write(text: string): void {
    if (this.isClosed) return;
    (this.res as http.ServerResponse).write(text);
  }

  end(): void {
    if (this.isClosed) return;
    this.markClosed(false);
    this.res.end();
  }

  onClose(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Server shutdown: notify the producer, then end the response. */
  shutdown(): void {
    if (this.isClosed) return;
    this.markClosed(true);
    this.res.end();
  }

  private markClosed(notify: boolean): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.forget();
    if (!notify) return;
    for (const listener of this.listeners) listener();
  }
}
