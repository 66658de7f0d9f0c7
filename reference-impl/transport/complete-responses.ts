/**
 * Complete (non-stream) responses, written at the end of the event loop's current turn with the rest of the turn's
 * (see end-of-turn.ts) rather than each as soon as its handler answers.
 */
import http from 'node:http';
import { atEndOfTurn } from './end-of-turn.js';
import type { CompatResponse } from './stream-response.js';

interface QueuedResponse {
  res: CompatResponse;
  status: number;
  headers: Record<string, string>;
  body: string;
  traceparent: string;
}

export class CompleteResponses {
  private queued: QueuedResponse[] = [];
  private readonly flushQueued = () => this.flush();

  constructor(private readonly onFault: (error: unknown) => void) {}

  /** Queues a complete response; it is written with the rest of this turn's. */
  send(res: CompatResponse, status: number, headers: Record<string, string>, body: string, traceparent: string): void {
    if (this.queued.length === 0) atEndOfTurn('response', this.flushQueued);
    this.queued.push({ res, status, headers, body, traceparent });
  }

  /** Writes every queued response now (also called before the server closes its connections). */
  flush(): void {
    const queued = this.queued;
    if (queued.length === 0) return;
    this.queued = [];
    for (const { res, status, headers, body, traceparent } of queued) {
      // Answered otherwise meanwhile (a refusal, a closed connection): nothing more may be written.
      if (res.headersSent || res.writableEnded || res.destroyed) continue;
      try {
        writeComplete(res, status, headers, body, traceparent);
      } catch (err) {
        // One bad response must neither end the process nor keep the rest of the turn's responses from going out.
        this.onFault(err);
        res.destroy();
      }
    }
  }
}

function writeComplete(res: CompatResponse, status: number, headers: Record<string, string>, body: string, traceparent: string): void {
  const length = String(Buffer.byteLength(body, 'utf8'));
  if (res instanceof http.ServerResponse) {
    // HTTP/1.1 takes a flat name/value list: copying the object with one more key went through V8's slow
    // property-definition path on every response (~0.7 µs in a loop, more under load).
    const list: string[] = [];
    for (const name in headers) list.push(name, headers[name]!);
    list.push('traceparent', traceparent, 'content-length', length);
    res.writeHead(status, list);
  } else {
    res.writeHead(status, { ...headers, traceparent, 'content-length': length });
  }
  // A string (not a Buffer) lets node:http send the head and body in one write instead of a two-chunk writev.
  res.end(body, 'utf8');
}
