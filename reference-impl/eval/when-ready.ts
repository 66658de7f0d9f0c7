/**
 * Continuation for values that are ready at once or later: forms on hot paths use it so that a request that
 * waits for nothing is evaluated without a promise per step (values are never promises themselves).
 */
export function whenReady<T, R>(value: T | Promise<T>, then: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/**
 * Evaluates `items` one after another, in order, handing each value to `take`: at once while no item waits, and
 * from the first item that waits on, as one promise (the later items are still evaluated one at a time).
 */
export function eachInOrder<T, V>(
  items: Iterator<T>,
  evaluate: (item: T) => V | Promise<V>,
  take: (item: T, value: V) => void,
): void | Promise<void> {
  for (let next = items.next(); !next.done; next = items.next()) {
    const value = evaluate(next.value);
    if (value instanceof Promise) return finishInOrder(items, next.value, value, evaluate, take);
    take(next.value, value);
  }
  return undefined;
}

async function finishInOrder<T, V>(
  items: Iterator<T>,
  item: T,
  pending: Promise<V>,
  evaluate: (item: T) => V | Promise<V>,
  take: (item: T, value: V) => void,
): Promise<void> {
  take(item, await pending);
  for (let next = items.next(); !next.done; next = items.next()) {
    const value = evaluate(next.value);
    take(next.value, value instanceof Promise ? await value : value);
  }
}
