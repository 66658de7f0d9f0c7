import { formatPosition, type SourceSpan } from './source-position.js';

/**
 * Error codes the FQL subset produces, as they appear in `{"error": {"code": …}}`.
 * Request shape: `invalid_request` (a malformed `{"fql": [...]}` fragment or interpolated value).
 * Compile-time (creating the event source): `invalid_query` (syntax, unknown names, unsupported constructs),
 * `invalid_receiver` (a set that cannot become an event source), `invalid_argument` (bad method arguments),
 * `permission_denied` (the secret may not read the source's set).
 * Run-time (evaluating a predicate or transform against a document): `invalid_null_access`, `invalid_type`,
 * `value_too_large` (a transformed event too large to send, DEC-074).
 */
export type FqlErrorCode =
  | 'invalid_request'
  | 'invalid_query'
  | 'invalid_receiver'
  | 'invalid_argument'
  | 'permission_denied'
  | 'invalid_null_access'
  | 'invalid_type'
  | 'value_too_large';

/** An FQL error with a code for the wire and, when the cause has one, the span of query text at fault. */
export class FqlError extends Error {
  constructor(
    readonly code: FqlErrorCode,
    message: string,
    readonly span?: SourceSpan,
  ) {
    super(message);
    this.name = 'FqlError';
  }
}

/** Builds an error whose message starts with the position, e.g. `1:14: expected ")"`. */
export function fqlErrorAt(code: FqlErrorCode, span: SourceSpan, message: string): FqlError {
  return new FqlError(code, `${formatPosition(span.start)}: ${message}`, span);
}
