import type { SourceSpan } from './source-position.js';

/**
 * Error codes of `/query/1`, as they appear in `{"error": {"code": …}}` (the real service's, fauna/faunadb
 * `runtime/fql2/QueryFailure.scala`). Request shape: `invalid_request`. Compile time: `invalid_query` (the query
 * does not parse). Run time: everything else — `abort`, `invalid_argument`, `document_not_found`,
 * `invalid_function_invocation`, `unbound_variable`, `invalid_null_access`, `null_value`, `type_mismatch`,
 * `invalid_receiver`, `constraint_failure`, `permission_denied`, `value_too_large`, ….
 */
export type FqlErrorCode = string;

/** One failed rule of a write (`constraint_failures` of the error): the field paths and why. */
export interface ConstraintFailure {
  readonly paths: readonly (readonly (string | number)[])[];
  readonly message: string;
}

export interface FqlErrorDetails {
  /** The line `error: …` of the summary, when it differs from the wire message (compile-time errors). */
  readonly detail?: string;
  /** What `abort(value)` returned: sent as the error's `abort` field (opaque to this layer). */
  readonly abort?: unknown;
  readonly constraintFailures?: readonly ConstraintFailure[];
}

/** An FQL error with a code for the wire and, when the cause has one, the span of query text at fault. */
export class FqlError extends Error {
  constructor(
    readonly code: FqlErrorCode,
    message: string,
    readonly span?: SourceSpan,
    readonly details: FqlErrorDetails = {},
  ) {
    super(message);
    this.name = 'FqlError';
  }

  /** What the summary says the error is. */
  get detail(): string {
    return this.details.detail ?? this.message;
  }

  /** The same error pointing at `span` when it has no position yet. */
  at(span: SourceSpan): FqlError {
    return this.span === undefined ? new FqlError(this.code, this.message, span, this.details) : this;
  }
}

/** The real service's `message` of a query that fails its checks: the detail is in the summary. */
const VALIDATION_FAILED_MESSAGE = 'The query failed 1 validation check';

/** A compile-time error: `invalid_query`, the detail and position in the summary. */
// Implements: FQL-SYNTAX-001
export function fqlErrorAt(code: 'invalid_query', span: SourceSpan, detail: string): FqlError {
  return new FqlError(code, VALIDATION_FAILED_MESSAGE, span, { detail });
}

/** A run-time error at `span`, its message as the wire carries it. */
export function runtimeError(code: FqlErrorCode, span: SourceSpan | undefined, message: string, details: FqlErrorDetails = {}): FqlError {
  return new FqlError(code, message, span, details);
}
