/**
 * The error the index layer raises; the evaluator renders it as a v4 error (`code`, `description`, and
 * `failures` for `validation failed`).
 */
export interface ValidationFailure {
  field: (string | number)[];
  code: string;
  description: string;
}

export class IndexError extends Error {
  constructor(
    readonly code: 'validation failed' | 'invalid argument',
    readonly description: string,
    readonly failures?: ValidationFailure[],
  ) {
    super(description);
    this.name = 'IndexError';
  }
}
