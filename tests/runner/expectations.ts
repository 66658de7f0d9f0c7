// Expectation files: a server's known failures, each with the signature it is expected to fail with. A listed test
// failing the same way is an expected failure (the gate passes), failing differently fails, passing fails too: the
// entry is stale and must go.
import { writeFileSync } from 'node:fs';
import { assertValid } from '../../schemas/index.js';
import { signatureMatches } from './failure-signature.js';
import type { FailureSignature, JudgedTest, TestResult, TestStatus } from './reporters/report-model.js';
import { readSchemaFile } from './json-file.js';

export const EXPECTATIONS_SCHEMA = 'expectations';

export interface Expectation {
  /** Stable test ID: `<file> > <suite> > <test>`, as in conformance.json. */
  test: string;
  signature: FailureSignature;
  reason: string;
  issue?: string;
}

export interface ExpectationsFile {
  expectations: Expectation[];
}

export class ExpectationsError extends Error {
  override name = 'ExpectationsError';
}

export function readExpectations(path: string): Expectation[] {
  const data = readSchemaFile(path, EXPECTATIONS_SCHEMA, {
    unreadable: (message) => new ExpectationsError(`cannot read the expectations file ${path}: ${message}`),
    invalid: (errors) => new ExpectationsError(`expectations file ${path} is invalid: ${errors.join('; ')}`),
  });
  const entries = (data as ExpectationsFile).expectations;
  const dupes = entries.map((e) => e.test).filter((id, i, all) => all.indexOf(id) !== i);
  if (dupes.length > 0) throw new ExpectationsError(`expectations file ${path} lists ${dupes[0]} twice`);
  return entries;
}

function describeSignature(s: FailureSignature | undefined): string {
  const parts = [
    s?.status === undefined ? undefined : `status ${s.status}`,
    s?.errorCode === undefined ? undefined : `error code ${s.errorCode}`,
    s?.assertion === undefined ? undefined : `assertion "${s.assertion}"`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'any failure';
}

export const UNEXPECTED_PASS_NOTE = 'unexpected pass: remove it from the expectations';

export function judgeAgainstExpectations(
  entry: Expectation,
  result: TestResult,
  actual: FailureSignature | undefined,
): { status: TestStatus; note: string } {
  if (result === 'passed') return { status: 'unexpected-pass', note: UNEXPECTED_PASS_NOTE };
  if (result === 'skipped' || result === 'not-run')
    return { status: result, note: `listed in the expectations but ${result === 'skipped' ? 'skipped' : 'not run'}` };
  if (signatureMatches(entry.signature, actual)) return { status: 'expected-failure', note: `expected failure: ${entry.reason}` };
  return {
    status: 'failed',
    note: `failed differently than expected: expected ${describeSignature(entry.signature)}, got ${describeSignature(actual)}`,
  };
}

const RECORDED_REASON = 'recorded by --update-expectations; replace with why this server fails it';

/**
 * The expectation entries after a run: every failing test of a claimed profile with its current signature (keeping an
 * existing entry's reason and issue), entries of tests that passed removed, entries of tests the run did not include
 * kept as they were.
 */
export function updatedExpectations(existing: readonly Expectation[], tests: readonly JudgedTest[]): Expectation[] {
  const byTest = new Map(existing.map((e) => [e.test, e]));
  const ran = new Set(tests.map((t) => t.id));
  const kept = existing.filter((e) => !ran.has(e.test));
  const recorded = tests
    .filter((t) => t.result === 'failed' && t.status !== 'not-claimed')
    .map((t): Expectation => {
      const old = byTest.get(t.id);
      return {
        test: t.id,
        signature: t.signature ?? {},
        reason: old?.reason ?? RECORDED_REASON,
        ...(old?.issue === undefined ? {} : { issue: old.issue }),
      };
    });
  return [...kept, ...recorded].sort((a, b) => a.test.localeCompare(b.test));
}

export function writeExpectations(path: string, entries: readonly Expectation[]): void {
  const file: ExpectationsFile = { expectations: [...entries] };
  assertValid(EXPECTATIONS_SCHEMA, file);
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}
