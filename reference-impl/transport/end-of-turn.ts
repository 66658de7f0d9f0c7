/**
 * Socket writes held until the end of the event loop's current turn, once every request and event the turn brought
 * has been handled, and then made back to back.
 *
 * Why: a write on loopback delivers the bytes and wakes the reader within the write call. Made one at a time between
 * handlers, every response found its client asleep and paid for waking it; made back to back, a client reading many
 * connections is woken once per burst. With 64 connections on the 2-core VM, `writev` was 45% of the server's CPU
 * profile under Create load, and Create's throughput nearly doubled with the writes held (README, Benchmarks). A lone
 * request waits for one `setImmediate`: microseconds.
 *
 * Complete responses are written before stream events: a write's answer reaches its client before the events the
 * write caused, as the order they were made in. The fauna 2.x driver drops a stream event that arrives while its
 * consumer is still handling the previous one, and a consumer that writes on seeing an event waits for the write's
 * answer before reading on: with the event first, that event was lost.
 */
type Flush = () => void;

let responses: Flush[] = [];
let streams: Flush[] = [];
let scheduled = false;

/**
 * Runs `flush` at the end of this turn: `response` flushes first, then `stream` ones, each in the order queued. A
 * flush must not throw, which would end the process: complete responses catch and report their own faults, and a
 * stream's writes report theirs as 'error' events, as Node's writes do.
 */
export function atEndOfTurn(kind: 'response' | 'stream', flush: Flush): void {
  if (!scheduled) {
    scheduled = true;
    setImmediate(endTurn);
  }
  (kind === 'response' ? responses : streams).push(flush);
}

function endTurn(): void {
  scheduled = false;
  // What a flush queues (a stream ended by a write) goes out at the end of the next turn.
  const turnResponses = responses;
  const turnStreams = streams;
  responses = [];
  streams = [];
  for (const flush of turnResponses) flush();
  for (const flush of turnStreams) flush();
}
