// The running conformance test: its full name (which seeds the names it generates, names.ts) and its HTTP exchanges
// (transcript.ts). The tests of a `describe.concurrent` block run at once in one worker, so the running test is the one
// whose body the current chain of asynchronous calls belongs to: check() runs every body inside its test's scope.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from './transcript.js';

export interface TestScope {
  /** The test's full name (suites and title). */
  readonly name: string;
  /** The exchanges the test made, in the order they started. */
  readonly exchanges: Exchange[];
}

/** Scopes of the tests between their beforeEach and afterEach, by vitest task. */
const open = new Map<object, TestScope>();
const running = new AsyncLocalStorage<TestScope>();

/** Called by the conformance setup file before each test. */
export function openTestScope(task: object, name: string): TestScope {
  const scope: TestScope = { name, exchanges: [] };
  open.set(task, scope);
  return scope;
}

export function testScopeOf(task: object): TestScope | undefined {
  return open.get(task);
}

/** Called by the conformance setup file after each test. */
export function closeTestScope(task: object): void {
  open.delete(task);
}

/** Called when a file ends, for a test whose afterEach never ran: the worker may run further files. */
export function endFileTestScopes(): void {
  open.clear();
}

/** Runs a test's body in its scope (check() does this for every conformance test). */
export function runInTestScope<T>(task: object, fn: () => T): T {
  const scope = open.get(task);
  return scope === undefined ? fn() : running.run(scope, fn);
}

/**
 * The test the caller works for: the one whose body it was called from, or, in a hook (a file's beforeEach or
 * afterEach), the only test under way. While several tests run at once a hook belongs to none of them.
 */
export function currentTestScope(): TestScope | undefined {
  const scope = running.getStore();
  if (scope !== undefined) return scope;
  if (open.size !== 1) return undefined;
  return open.values().next().value;
}
