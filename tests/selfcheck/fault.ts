// What a fault is: a named, deliberate deviation from one requirement, applied by the proxy.
// `apply()` is called once per proxy, so a fault can keep state for the run it belongs to.

/** A request as the proxy handles it. Header names are lower case. */
export interface ProxiedRequest {
  method: string;
  /** Path and query string, e.g. `/stream/1` or `/?q=…`. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A whole (non-streaming) response as the proxy handles it. Header names are lower case. */
export interface BufferedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ExchangeContext {
  /** The request as the suite sent it. */
  original: ProxiedRequest;
  /** The request as it went upstream (after the fault's request hook). */
  request: ProxiedRequest;
}

export interface JsonResponseContext extends ExchangeContext {
  status: number;
  headers: Record<string, string>;
}

/** How a streaming hook writes to the suite. */
export interface StreamWriter {
  /** Sends one event: lossless JSON followed by `\r\n`. */
  emit(event: unknown): void;
  /** Sends bytes as they are, resolving once they are flushed to the socket. */
  writeRaw(chunk: string | Buffer): Promise<void>;
  /** Cuts the connection to the suite. */
  destroy(): void;
  /** Resolves after `ms`, or at once when the suite has gone away. */
  pause(ms: number): Promise<void>;
  /** True once the suite closed the connection or the writer was destroyed. */
  readonly closed: boolean;
}

/** Event-level transform of one open `/stream/1` or `/stream` response; events are handled one at a time, in order. */
export interface StreamEventHook {
  /** Called for each upstream event (already parsed); `index` counts from 0. Emit nothing to drop it. */
  onEvent(event: unknown, writer: StreamWriter, index: number): void | Promise<void>;
}

/**
 * Hooks return `undefined` to leave a message unchanged; anything else replaces it and counts as an
 * application of the fault (so a run can tell a fault that never fired from one nobody noticed).
 */
export interface FaultHooks {
  request?(request: ProxiedRequest): ProxiedRequest | undefined | Promise<ProxiedRequest | undefined>;
  /** Rewrites a buffered JSON response body (parsed with lossless-json). Runs before `response`. */
  json?(body: unknown, context: JsonResponseContext): unknown;
  /** Rewrites status, headers or raw body of a buffered response. */
  response?(response: BufferedResponse, context: ExchangeContext): BufferedResponse | undefined;
  /** Returns a hook for an open `/stream/1` or `/stream` response, or undefined to pass the stream through. */
  stream?(context: ExchangeContext): StreamEventHook | undefined;
  /** Rewrites the headers of an open `/stream/1` or `/stream` response (undefined leaves them alone). */
  streamHeaders?(headers: Record<string, string>, context: ExchangeContext): Record<string, string> | undefined;
  /**
   * Failpoints of the reference server (reference-impl/failpoints.ts) to turn on for every request, for a deviation
   * a proxy cannot make: the server deviates itself, at the place the failpoint marks.
   */
  failpoints?: readonly string[];
}

export type Area = 'core' | 'auth' | 'indexes' | 'ordering' | 'paging' | 'events';

export const AREAS: readonly Area[] = ['core', 'auth', 'indexes', 'ordering', 'paging', 'events'];

export interface Fault {
  /** Upper-case, hyphenated, unique across the catalogue, e.g. `PAGE-AFTER-EXCLUSIVE`. */
  id: string;
  title: string;
  /** Requirement IDs (spec/requirements.json) this fault violates. */
  breaks: readonly string[];
  /** The suite area whose tests must catch it (`--area`). */
  area: Area;
  description: string;
  apply: () => FaultHooks;
}
