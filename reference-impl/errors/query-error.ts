/**
 * The two error families of the v4 API (wire-facts §1.4): query errors carry a `position` into the
 * expression and map to 400/403/404; protocol errors (auth, routing, limits) have no position.
 */
export type Position = Array<string | number>;

export interface ValidationFailure {
  field: Position;
  code: string;
  description: string;
}

const NOT_FOUND_CODES = new Set(['schema not found', 'value not found', 'instance not found']);

/** HTTP status of a query error code, exactly as the real service maps them. */
export function statusForQueryCode(code: string): number {
  if (NOT_FOUND_CODES.has(code)) return 404;
  if (code === 'permission denied') return 403;
  return 400;
}

export class QueryError extends Error {
  readonly failures: ValidationFailure[] | undefined;
  readonly cause: QueryError[] | undefined;

  constructor(
    readonly code: string,
    readonly description: string,
    readonly position: Position = [],
    extra: { failures?: ValidationFailure[]; cause?: QueryError[] } = {},
  ) {
    super(`${code}: ${description}`);
    this.failures = extra.failures;
    this.cause = extra.cause;
  }

  get status(): number {
    return statusForQueryCode(this.code);
  }

  /** The same error reported at another position (errors raised below a form take the form's position). */
  at(position: Position): QueryError {
    return new QueryError(this.code, this.description, position, { failures: this.failures, cause: this.cause });
  }
}

export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code}: ${description}`);
  }
}

/** Error constructors for the common cases, so descriptions stay consistent. */
export const errors = {
  invalidExpression: (description: string, position: Position) => new QueryError('invalid expression', description, position),
  invalidArgument: (description: string, position: Position) => new QueryError('invalid argument', description, position),
  invalidRef: (description: string, position: Position) => new QueryError('invalid ref', description, position),
  notFound: (position: Position, description = 'Document not found.') => new QueryError('instance not found', description, position),
  alreadyExists: (position: Position, description = 'Document already exists.') =>
    new QueryError('instance already exists', description, position),
  validationFailed: (failures: ValidationFailure[], position: Position) =>
    new QueryError('validation failed', 'document data is not valid.', position, { failures }),
  permissionDenied: (position: Position) => new QueryError('permission denied', 'Insufficient privileges to perform the action.', position),
  valueNotFound: (path: Position, position: Position) =>
    new QueryError('value not found', `Value not found at path [${path.join(',')}].`, position),
};
