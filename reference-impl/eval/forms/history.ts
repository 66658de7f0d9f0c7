/**
 * History reads (DEC-065): At evaluates an expression against the snapshot of an earlier time; Events turns a
 * document or a set into the set of its history (read in event-history-sets.ts).
 */
import { errors, type Position } from '../../errors/query-error.js';
import { Time, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import type { FormDefinition } from '../form-registry.js';
import { eventsSetOf } from './event-history-sets.js';

// Implements: FN-HIST-008
/** The time `At` reads at, in microseconds: a Time, or an Integer of microseconds since the epoch. */
function atTime(value: Value, position: Position): bigint {
  if (value instanceof Time) return value.micros;
  if (typeof value === 'bigint') return value;
  throw errors.invalidArgument(`Time expected, ${typeName(value)} provided.`, position);
}

// Implements: FN-HIST-001, FN-HIST-004, FN-HIST-006
/**
 * `At(ts, expr)`. The transaction's own time (e.g. `Now()`, `Time("now")`) reads the present again, so writes are
 * allowed there even inside an outer `At`. A later time changes nothing: like the real service, it is neither
 * refused nor read as the present (DEC-065, Decisions in functions-history.md).
 */
const at: FormDefinition = {
  required: ['at', 'expr'],
  async evaluate(ctx, args) {
    const ts = atTime(await args.value(ctx, 'at'), args.position('at'));
    const inner = ts > ctx.txn.ts ? ctx : ctx.readingAt(ts === ctx.txn.ts ? undefined : ts);
    return inner.eval(args.expr('expr'));
  },
};

// Implements: FN-HIST-010
/** `{"events": <ref or set>}`: the set of the history of a document or of a set. */
const events: FormDefinition = {
  required: ['events'],
  async evaluate(ctx, args) {
    return eventsSetOf(await args.value(ctx, 'events'), args.position('events'), args.node.position);
  },
};

export const historyForms: readonly FormDefinition[] = [at, events];
