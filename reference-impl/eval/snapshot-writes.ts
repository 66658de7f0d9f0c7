/** Writes inside `At` (DEC-065): an evaluation reading an earlier snapshot may not write. */
import { QueryError, type Position } from '../errors/query-error.js';
import type { EvalContext } from './context.js';

// Implements: FN-HIST-005
/**
 * A write inside `At` of an earlier time is refused at the write's position, as the real service refuses writing
 * outside the snapshot time (FN-HIST-005).
 */
export function refuseWriteAtEarlierTime(ctx: EvalContext, position: Position): void {
  if (ctx.readTs !== undefined) throw new QueryError('invalid write time', 'Cannot write outside of snapshot time.', position);
}
