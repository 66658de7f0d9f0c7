// The HTTP exchanges of the running test, kept so a failing test can show exactly what went over the wire. Which test
// is running is test-scope.ts's to say (tests of a concurrent block run at once).
import type { Exchange, Message } from '../../schemas/types.js';
import { redactHeaders, redactString, redactValue } from './redaction.js';
import { currentTestScope } from './test-scope.js';

// An exchange as the conformance report carries it (schemas/conformance-report.schema.json): a message's body is the
// parsed JSON when it was JSON, else the text, and absent when there was none; `events` are the events read from a
// stream, in order; `error` says why no (complete) response arrived.
export type { Exchange };
export type RecordedMessage = Message;

const MAX_TEXT = 64 * 1024;

/** Exchanges made outside a test (beforeAll/afterAll hooks), kept for the file's failing hooks. */
let outsideTest: Exchange[] = [];

export function hookTranscript(): Exchange[] {
  const done = outsideTest;
  outsideTest = [];
  return done;
}

const observers = new Set<(exchange: Exchange) => void>();

/**
 * Forgets the file's hook exchanges and observers when it ends: a test process may run further files (the
 * conformance project does not isolate them), which must neither show nor feed this file's.
 */
export function endFileTranscript(): void {
  outsideTest = [];
  observers.clear();
}

/**
 * Calls `listener` with every exchange recorded from now on in this test file (hooks included), as it starts;
 * its response is filled in later. For checks over a whole file's traffic. Returns the unsubscribe function.
 */
export function observeExchanges(listener: (exchange: Exchange) => void): () => void {
  observers.add(listener);
  return () => observers.delete(listener);
}

/** Records an exchange as it starts; the caller fills in the response, events or error later. */
export function recordExchange(exchange: Exchange): Exchange {
  (currentTestScope()?.exchanges ?? outsideTest).push(exchange);
  for (const observer of observers) observer(exchange);
  return exchange;
}

/**
 * Gives `message` the `body` the transcript shows for `payload` (bodyForTranscript), worked out when first read:
 * only a failing test's exchanges are read, and parsing every body up front cost the suite's workers about as much
 * CPU time as validating every response.
 */
export function setTranscriptBody(message: { body?: unknown }, payload: string | Buffer | undefined): void {
  if (payload === undefined || payload.length === 0) return;
  const settle = (value: unknown): unknown => {
    Object.defineProperty(message, 'body', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(message, 'body', {
    enumerable: true,
    configurable: true,
    get: () => settle(bodyForTranscript(payload.toString())),
    set: settle,
  });
}

function bodyForTranscript(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  const clipped = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text;
  if (clipped !== text) return clipped;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A copy safe to publish: Authorization headers, `secret`/`password` fields and known secrets removed. */
export function redactExchanges(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.map((e) => ({
    ...e,
    url: redactString(e.url),
    path: redactString(e.path),
    request: { headers: redactHeaders(e.request.headers), ...(e.request.body === undefined ? {} : { body: redactValue(e.request.body) }) },
    ...(e.response
      ? {
          response: {
            status: e.response.status,
            headers: redactHeaders(e.response.headers),
            ...(e.response.body === undefined ? {} : { body: redactValue(e.response.body) }),
          },
        }
      : {}),
    ...(e.events ? { events: e.events.map((ev) => redactValue(ev)) } : {}),
    ...(e.error === undefined ? {} : { error: redactString(e.error) }),
  }));
}

/** Characters of a string, items of an array and events of a stream an example exchange keeps. */
const EXAMPLE_LIMITS = { chars: 400, items: 10, events: 5 } as const;

function clipped(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > EXAMPLE_LIMITS.chars ? `${value.slice(0, EXAMPLE_LIMITS.chars)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, EXAMPLE_LIMITS.items).map(clipped);
    return value.length > EXAMPLE_LIMITS.items ? [...kept, `… (${value.length} items)`] : kept;
  }
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipped(v)]));
  return value;
}

/**
 * The exchange that shows what a passing test checked, redacted and clipped for the spec site: the last one answered
 * with an error status when the test saw one (a test of a refusal usually reads on to show nothing was done), else the
 * last one answered. Undefined when no exchange was answered.
 */
export function exampleExchange(exchanges: readonly Exchange[]): Exchange | undefined {
  const answered = exchanges.filter((e) => e.response !== undefined);
  const chosen = answered.findLast((e) => e.response!.status >= 400) ?? answered.at(-1);
  if (chosen === undefined) return undefined;
  const [example] = redactExchanges([chosen]);
  const { request, response, events, ...rest } = example!;
  return {
    ...rest,
    request: { headers: request.headers, ...(request.body === undefined ? {} : { body: clipped(request.body) }) },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: response.headers,
            ...(response.body === undefined ? {} : { body: clipped(response.body) }),
          },
        }
      : {}),
    ...(events ? { events: events.slice(0, EXAMPLE_LIMITS.events).map(clipped) } : {}),
  };
}

/** A short human-readable form for failure messages and attachments. */
export function formatExchanges(exchanges: readonly Exchange[]): string {
  return exchanges
    .map((e) => {
      const lines = [`${e.method} ${e.path}  (${e.durationMs} ms)`];
      for (const [k, v] of Object.entries(e.request.headers)) lines.push(`> ${k}: ${v}`);
      if (e.request.body !== undefined) lines.push(`> ${JSON.stringify(e.request.body)}`);
      if (e.response) {
        lines.push(`< ${e.response.status}`);
        for (const [k, v] of Object.entries(e.response.headers)) lines.push(`< ${k}: ${v}`);
        if (e.response.body !== undefined) lines.push(`< ${JSON.stringify(e.response.body)}`);
      }
      for (const ev of e.events ?? []) lines.push(`<< ${JSON.stringify(ev)}`);
      if (e.error) lines.push(`!! ${e.error}`);
      return lines.join('\n');
    })
    .join('\n\n');
}
