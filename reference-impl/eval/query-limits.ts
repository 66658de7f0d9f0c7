/**
 * What one query may use (DEC-069): time and memory. The real service stops a query's evaluation at its deadline
 * (LIMIT-TIME-001): the `x-query-timeout` header's milliseconds, within the server's own limit. Here the evaluator
 * calls `step` before every form it evaluates, so a query that recurses through user functions cannot hold the
 * server's only thread. The same steps watch the heap: a query that builds value after value (a Map of a million-
 * element Append, hundreds of times) is refused before it takes the server past its heap limit, which would end
 * the process.
 */
import { ProtocolError } from '../errors/query-error.js';
import { HEAP_CEILING_BYTES, heapIsFull } from '../store/heap-room.js';
import type { TimeLimit } from './time-limit.js';

/** The longest a query may run unless the server is started with another limit (`--query-time-limit`). */
export const DEFAULT_QUERY_TIME_LIMIT_MS = 30_000;

/** Forms evaluated between two readings of the clock: a reading costs far more than a form's count. */
const STEPS_PER_CLOCK_READING = 256;
/**
 * Forms evaluated between two checks of the heap (`heapIsFull`, which reads it at most once a millisecond): a form
 * can build 8 MB (a full Append).
 */
const STEPS_PER_HEAP_READING = 16;

/** What the real service answers on `POST /` for a query whose evaluation passed its deadline. */
function queryTimedOut(): ProtocolError {
  return new ProtocolError(503, 'time out', 'Read timed out (Query eval has timed out.)');
}

/** A query refused for the memory it takes: a 400, as the real service's other per-transaction limits. */
function queryTooLarge(): ProtocolError {
  return new ProtocolError(400, 'bad request', 'Query uses too much memory: the server cannot hold the values it builds.');
}

// Implements: LIMIT-TIME-001
export class QueryLimits {
  private readonly at: number;
  private steps = 0;
  private passed = false;

  /** A deadline `limitMs` from now; the heap ceiling is the server's unless a test gives one. */
  constructor(
    /** How long the query may run, from now. */
    readonly limitMs: number,
    private readonly heapCeilingBytes = HEAP_CEILING_BYTES,
  ) {
    this.at = performance.now() + limitMs;
  }

  /**
   * Throws the timeout once the deadline has passed, and at every step after it, so no form can swallow it; throws
   * 400 when the heap has passed its ceiling.
   */
  step(): void {
    if (this.passed) throw queryTimedOut();
    const steps = ++this.steps;
    if (steps % STEPS_PER_HEAP_READING !== 0) return;
    if (heapIsFull(this.heapCeilingBytes)) throw queryTooLarge();
    if (steps % STEPS_PER_CLOCK_READING === 0 && performance.now() > this.at) {
      this.passed = true;
      throw queryTimedOut();
    }
  }

  /** `limit`, or a shorter limit that answers the query's timeout when less time than `limit.ms` is left. */
  bound(limit: TimeLimit): TimeLimit {
    const left = Math.ceil(this.at - performance.now());
    if (left >= limit.ms) return limit;
    if (left <= 0) {
      this.passed = true;
      throw queryTimedOut();
    }
    return {
      ms: left,
      exceeded: () => {
        this.passed = true;
        return queryTimedOut();
      },
    };
  }
}

// Implements: LIMIT-TIME-001
/**
 * The limits of a request. Its deadline is `requestedMs` (its `x-query-timeout` or `x-query-timeout-ms` header,
 * already checked to be 1 to 600000) when given and shorter than the server's `serverLimitMs`, else the server's limit.
 */
export function requestLimits(requestedMs: number | undefined, serverLimitMs: number): QueryLimits {
  return new QueryLimits(Math.min(requestedMs ?? Infinity, serverLimitMs));
}
