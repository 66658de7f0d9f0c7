// Failing assertions over values that hold BigInt (the harness parses wire integers as bigint) keep their diff.
// allure-vitest records every matcher as a step and JSON-serializes the failure's `actual`/`expected` for it; JSON
// has no BigInt, so the assertion error was replaced by "Do not know how to serialize a BigInt". The matchers are
// wrapped here, inside allure's wrappers, so that such operands become their printed form: vitest then diffs the two
// texts line by line, and allure stores them as they are.
import { inspect } from 'node:util';
import { chai } from 'vitest';

/** True when `value` is or holds (in an array, object, Map or Set, at any depth) a BigInt. */
export function holdsBigInt(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  const children = value instanceof Map ? [...value.keys(), ...value.values()] : value instanceof Set ? [...value] : Object.values(value);
  return children.some((child) => holdsBigInt(child, seen));
}

/** One property per line and keys sorted, like vitest's own diff of two objects. */
function printed(value: unknown): string {
  return inspect(value, { depth: null, compact: false, sorted: true, breakLength: Infinity, maxArrayLength: null, maxStringLength: null });
}

/** Replaces an assertion error's object operands that hold a BigInt by their printed form, in place. */
export function printBigIntOperands(error: unknown): void {
  if (error === null || typeof error !== 'object') return;
  const e = error as { actual?: unknown; expected?: unknown };
  const objectWithBigInt = (v: unknown) => typeof v === 'object' && v !== null && holdsBigInt(v);
  if (!objectWithBigInt(e.actual) && !objectWithBigInt(e.expected)) return;
  e.actual = printed(e.actual);
  e.expected = printed(e.expected);
}

const OWN_FILE = import.meta.filename;
let installed = false;

/**
 * Wraps every matcher of chai's Assertion prototype (vitest's included) once per worker, so that a failure's BigInt
 * operands are printed before an outer wrapper sees the error: call it from a setup file listed before
 * `allure-vitest/setup`, whose matcher steps then wrap these wrappers.
 */
export function installBigIntAssertionOperands(): void {
  if (installed) return;
  installed = true;
  chai.use((c) => {
    const proto = c.Assertion.prototype as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      const matcher = descriptor?.value;
      if (name === 'constructor' || typeof matcher !== 'function') continue;
      Object.defineProperty(proto, name, { ...descriptor, value: printingBigIntOperands(matcher as (...args: unknown[]) => unknown) });
    }
  });
}

function printingBigIntOperands(matcher: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function (this: unknown, ...args: unknown[]) {
    let result: unknown;
    try {
      result = matcher.apply(this, args);
    } catch (error) {
      passedThrough(error);
      throw error;
    }
    // `.resolves`/`.rejects` matchers fail later: fix the error in place, first among the promise's observers,
    // and hand back the same promise.
    if (result instanceof Promise) result.catch(passedThrough);
    return result;
  };
}

/** Prints BigInt operands and drops this file's frames, so vitest's code frame still shows the test's line. */
function passedThrough(error: unknown): void {
  printBigIntOperands(error);
  if (error instanceof Error && error.stack) {
    error.stack = error.stack
      .split('\n')
      .filter((line) => !line.includes(OWN_FILE))
      .join('\n');
  }
}
