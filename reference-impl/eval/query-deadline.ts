/**
 * How long one query may run (LIMIT-TIME-001, DEC-069). The real service stops a query's evaluation at its deadline:
 * the `x-query-timeout` header's milliseconds, within the server's own limit. Here the evaluator calls `step` before
 * every form it evaluates, so a query that recurses through user functions cannot hold the server's only thread.
 */
import { ProtocolError } from '../errors/query-error.js';
import { type TimeLimit } from './time-limit.js';

/** The longest a query may run unless the server is started with another limit (`--query-time-limit`). */
export const DEFAULT_QUERY_TIME_LIMIT_MS = 30_000;

/** Forms evaluated between two readings of the clock: a reading costs far more than a form's count. */
const STEPS_PER_CLOCK_READING = 256;

/** What the real service answers on `POST /` for a query whose evaluation passed its deadline. */
function queryTimedOut(): ProtocolError {
  return new ProtocolError(503, 'time out', 'Read timed out (Query eval has timed out.)');
}

export class QueryDeadline {
  private readonly at: number;
  private steps = 0;
  private passed = false;

  /** A deadline `limitMs` from now. */
  constructor(limitMs: number) {
    this.at = performance.now() + limitMs;
  }

  /** Throws the timeout once the deadline has passed, and at every step after it, so no form can swallow it. */
  step(): void {
    if (this.passed || (++this.steps % STEPS_PER_CLOCK_READING === 0 && performance.now() > this.at)) {
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
    return { ms: left, exceeded: () => ((this.passed = true), queryTimedOut()) };
  }
}

/**
 * The deadline of a request: `requestedMs` (its `x-query-timeout` header, already checked to be 1 to 600000) when
 * given and shorter than the server's `serverLimitMs`, else the server's limit.
 */
export function requestDeadline(requestedMs: string | undefined, serverLimitMs: number): QueryDeadline {
  const requested = requestedMs === undefined ? Infinity : Number(requestedMs);
  return new QueryDeadline(Math.min(requested, serverLimitMs));
}
