/**
 * Continuation for values that are ready at once or later: forms on hot paths use it so that a request that
 * waits for nothing is evaluated without a promise per step (values are never promises themselves).
 */
export function whenReady<T, R>(value: T | Promise<T>, then: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}
