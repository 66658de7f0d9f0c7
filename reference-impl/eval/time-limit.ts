/**
 * A time limit for the few functions whose cost grows faster than their input (a regular expression that backtracks
 * catastrophically, word segmentation of a long text, Unicode case folding that expands): without one, a small
 * request could hold the reference server's only thread for minutes.
 */
import { createContext, runInContext } from 'node:vm';
import { ProtocolError } from '../errors/query-error.js';

/** How long one such function may run unless the server is started with another limit (`--function-time-limit`). */
export const DEFAULT_FUNCTION_TIME_LIMIT_MS = 1000;

/** How long an operation may run, and the error that answers one that runs longer. */
export interface TimeLimit {
  readonly ms: number;
  exceeded(what: string): Error;
}

/**
 * The function time limit of `ms`: past it the request is answered as the real service answers a query that
 * outlasts its time limit, 440 `processing time limit exceeded` (FN-STR-033); `what` names the work in the message.
 */
export function functionTimeLimit(ms: number): TimeLimit {
  return { ms, exceeded: (what) => new ProtocolError(440, 'processing time limit exceeded', `${what} ran for over ${ms} ms.`) };
}

/** Where the work runs: vm's timeout stops any JavaScript, the regex engine's backtracking included. */
const timed = createContext({ operation: undefined as (() => unknown) | undefined });

/** Runs `operation`, stopped with `limit`'s error once it has run `limit.ms`. */
export function withinTimeLimit<T>(what: string, limit: TimeLimit, operation: () => T): T {
  timed.operation = operation;
  try {
    return runInContext('operation()', timed, { timeout: limit.ms }) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw limit.exceeded(what);
    throw error;
  } finally {
    timed.operation = undefined;
  }
}
