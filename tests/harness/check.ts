// `check(ids, title, fn)`: a conformance test that names the requirements it checks.
import { test, type TestContext } from 'vitest';
import { requirementIdProblems } from './requirement-ids.js';
import { runInTestScope } from './test-scope.js';

declare module 'vitest' {
  interface TaskMeta {
    /** Requirement IDs the test checks (set by `check`). */
    requirements?: string[];
    /** Redacted HTTP exchanges of a failing test (set by the conformance setup file). */
    exchanges?: unknown[];
    /** One redacted, clipped exchange of a passing test, the spec site's example (set by the conformance setup file). */
    example?: unknown;
  }
}

export interface CheckOptions {
  /** Test timeout in ms; default: the conformance project's timeout, derived from the request timeout. */
  timeout?: number;
  /** `false` runs the test alone, not with its neighbours in a `describe.concurrent` block (heavy answers). */
  concurrent?: false;
}

export type CheckBody = (context: TestContext) => unknown | Promise<unknown>;

/**
 * Registers a conformance test for the given requirement IDs, which are also its vitest tags (declared from
 * spec/requirements.json by `requirementTagDefinitions`), so the runner's --requirement is vitest's tags filter. An
 * empty list or an ID that is unknown or withdrawn in spec/requirements.json makes the test fail with a message saying
 * so, without running its body (and without tags, which vitest would refuse at collection).
 */
export function check(ids: readonly string[], title: string, fn: CheckBody, opts: CheckOptions = {}): void {
  const requirements = [...ids];
  const problems = requirementIdProblems(requirements);
  const body: CheckBody =
    problems.length === 0
      ? fn
      : () => {
          throw new Error(`invalid requirement tags on "${title}": ${problems.join('; ')}`);
        };
  const tags = problems.length === 0 ? requirements : [];
  // The body runs in its test's scope, so its exchanges and generated names stay its own when tests run at once.
  const options = {
    meta: { requirements },
    tags,
    ...(opts.timeout === undefined ? {} : { timeout: opts.timeout }),
    ...(opts.concurrent === undefined ? {} : { concurrent: opts.concurrent }),
  };
  test(title, options, (context) => runInTestScope(context.task, () => body(context)));
}

/**
 * One check per case: `check.each(cases)(ids, title, fn)`, where `title` may use `%s`-style or `$field`
 * placeholders like vitest's `test.each`, and `ids`/`fn` receive the case.
 */
check.each =
  <T>(cases: readonly T[]) =>
  (
    ids: readonly string[] | ((c: T) => readonly string[]),
    title: string,
    fn: (c: T, context: TestContext) => unknown,
    opts: CheckOptions = {},
  ): void => {
    cases.forEach((c, i) => {
      const caseIds = typeof ids === 'function' ? ids(c) : ids;
      check(caseIds, formatTitle(title, c, i), (context) => fn(c, context), opts);
    });
  };

function formatTitle(title: string, c: unknown, index: number): string {
  let out = title.replace(/\$(\w+)/g, (m, key: string) =>
    c && typeof c === 'object' && key in c ? String((c as Record<string, unknown>)[key]) : m,
  );
  out = out.replace(/%#/g, String(index));
  return out.replace(/%[sdj]/, () => (typeof c === 'object' ? JSON.stringify(c) : String(c)));
}
