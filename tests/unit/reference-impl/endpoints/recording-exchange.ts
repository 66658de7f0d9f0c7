// An Exchange without a socket for dispatcher-level unit tests: it records the one complete answer it gets.
import type { Exchange } from '../../../../reference-impl/transport/exchange.js';

export interface RecordedAnswer {
  status: number;
  body: string;
}

export function recordingExchange(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): { exchange: Exchange; answer: RecordedAnswer } {
  const answer: RecordedAnswer = { status: 0, body: '' };
  const exchange: Exchange = {
    request: { method, path, query: new URLSearchParams(), headers, body: Buffer.from(JSON.stringify(body)), protocol: 'http/1.1' },
    responded: false,
    respond(status, _headers, text) {
      (this as { responded: boolean }).responded = true;
      answer.status = status;
      answer.body = text;
    },
    openStream() {
      throw new Error('not a stream');
    },
  };
  return { exchange, answer };
}
