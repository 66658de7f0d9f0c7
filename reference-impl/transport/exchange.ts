/**
 * The protocol-neutral request/response abstraction. Endpoints see an `Exchange` and never know whether
 * the request came over HTTP/1.1 or HTTP/2.
 */
export type HeaderMap = Readonly<Record<string, string | undefined>>;

export interface IncomingRequest {
  readonly method: string;
  /** Path without the query string, percent-decoding left to the route. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-case header names; repeated headers joined with `, `. */
  readonly headers: HeaderMap;
  readonly body: Buffer;
  readonly protocol: 'http/1.1' | 'h2c';
}

/**
 * A long-lived response: what is written goes out at the end of the event loop's turn (a chunk on HTTP/1.1, a DATA frame on HTTP/2). Bytes
 * written to many streams should be the same buffer object: its framing is then built once.
 */
export interface ResponseStream {
  write(data: string | Uint8Array): void;
  end(): void;
  /** True once the client went away or `end` was called. */
  readonly closed: boolean;
  /** Called once when the client disconnects or the server shuts down (not after `end`). */
  onClose(listener: () => void): void;
  /**
   * Undefined when more may be written now; else a promise that resolves once the client has taken most of what
   * waits for it (or the stream closed). Producers with much to send wait on it between writes.
   */
  whenWritable(): Promise<void> | undefined;
}

export interface Exchange {
  readonly request: IncomingRequest;
  /** Sends a complete response, at the end of the event loop's turn; the body is sent as-is with `content-length`. */
  respond(status: number, headers: Record<string, string>, body: string): void;
  /** Sends the status and headers now and keeps the response open. */
  openStream(status: number, headers: Record<string, string>): ResponseStream;
  readonly responded: boolean;
}

/** Handles one exchange; a promise only while the handling has to wait. */
export type ExchangeHandler = (exchange: Exchange) => Promise<void> | undefined;
