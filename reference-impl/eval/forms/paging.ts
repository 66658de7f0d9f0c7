/**
 * Paginate (SD "Page"): `{"paginate": <set>, "size"?, "after"?, "before"?, "ts"?, "cursor"?}`. Pages are
 * `{before?, after?, data}`; cursors are the boundary tuple `[...coveredValues, ref]` (DEC-035), `after`
 * inclusive, `before` exclusive, `before: null` walks back from the end. Size defaults to 64 and is bounded
 * by 1..100000 (DEC-018). `events: true` pages the set's history, as Paginate of `Events(set)` does (DEC-065).
 */
import { errors, type Position } from '../../errors/query-error.js';
import type { IndexManager } from '../../indexes/index-manager.js';
import { paginateSet, type SetPageOptions } from '../../indexes/ordered-set.js';
import { Ref, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { expectBoolean, expectInteger, expectTimestampMicros, typeName } from '../arguments.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import type { EvalContext } from '../context.js';
import { listingPage } from './listing-page.js';
import { SetReader } from './set-reading.js';
import { eventCursor, eventPageOptions, eventsSetOf, isEventSet } from './event-history-sets.js';
import { whenReady } from '../when-ready.js';

export const DEFAULT_PAGE_SIZE = 64;
export const MAX_PAGE_SIZE = 100_000;

function cursorTuple(v: Value): Value[] {
  return Array.isArray(v) ? v : [v];
}

/** The page size asked for, as the real service serves it (DEC-018): 0 for none or fewer, at most `MAX_PAGE_SIZE`. */
function pageSize(ctx: EvalContext, args: FormArgs): number | Promise<number> {
  if (!args.has('size')) return DEFAULT_PAGE_SIZE;
  return whenReady(args.valueOrPending(ctx, 'size'), (given) => {
    const size = expectInteger(given, args.position('size'));
    if (size < 1n) return 0;
    return size > BigInt(MAX_PAGE_SIZE) ? MAX_PAGE_SIZE : Number(size);
  });
}

/** The cursors of a page of size 0: the cursor given, on both sides (nothing was read past it). */
function emptyPageCursors(cursor: RequestedCursor): { before?: Value[]; after?: Value[] } {
  const given = cursor.after ?? cursor.before;
  return given === undefined ? {} : { before: given, after: given };
}

type RequestedCursor = { after?: Value[]; before?: Value[]; fromEnd?: boolean };

/** The cursor of the request: `after`/`before` given directly or inside `cursor: {after | before}`. */
function requestedCursor(ctx: EvalContext, args: FormArgs): RequestedCursor | Promise<RequestedCursor> {
  if (!args.has('after') && !args.has('before') && !args.has('cursor')) return {};
  return givenCursor(ctx, args);
}

async function givenCursor(ctx: EvalContext, args: FormArgs): Promise<RequestedCursor> {
  let after: Value | undefined = await args.optional(ctx, 'after');
  let before: Value | undefined = await args.optional(ctx, 'before');
  let beforeGiven = args.has('before');
  const cursor = args.has('cursor') ? await args.value(ctx, 'cursor') : null;
  // `cursor: null` is no cursor; an object names exactly one side and nothing else (DEC-062).
  if (cursor !== null) {
    const sides = isObjectValue(cursor) ? Object.keys(cursor) : [];
    if (!isObjectValue(cursor) || sides.length !== 1 || (sides[0] !== 'after' && sides[0] !== 'before')) {
      throw errors.invalidArgument(`Cursor must be an object with either after or before, ${typeName(cursor)} provided.`, args.position('cursor'));
    }
    after = cursor['after'];
    before = cursor['before'];
    beforeGiven = 'before' in cursor;
  }
  if (after !== undefined && after !== null && beforeGiven) throw errors.invalidArgument('Only one of after and before may be given.', args.node.position);
  if (beforeGiven) return before === null || before === undefined ? { fromEnd: true } : { before: cursorTuple(before) };
  return after === null || after === undefined ? {} : { after: cursorTuple(after) };
}

type Snapshot = { atTs: bigint | undefined; events: boolean };

/**
 * The `ts` to read the set at (else an enclosing `At`'s; undefined: the transaction's) and whether `events: true`
 * asks for the set's history (DEC-065); `sources: true` is refused.
 */
function snapshot(ctx: EvalContext, args: FormArgs): Snapshot | Promise<Snapshot> {
  if (!args.has('ts') && !args.has('events') && !args.has('sources')) return { atTs: ctx.readTs, events: false };
  return givenSnapshot(ctx, args);
}

async function givenSnapshot(ctx: EvalContext, args: FormArgs): Promise<Snapshot> {
  const atTs = args.has('ts') ? expectTimestampMicros(await args.value(ctx, 'ts'), args.position('ts')) : ctx.readTs;
  const events = args.has('events') && expectBoolean(await args.value(ctx, 'events'), args.position('events'));
  if (args.has('sources') && expectBoolean(await args.value(ctx, 'sources'), args.position('sources'))) {
    throw errors.invalidArgument('Paginate with sources: true is not supported.', args.position('sources'));
  }
  return { atTs, events };
}

/** Where a malformed cursor is reported: the argument that gave it. */
function cursorPosition(args: FormArgs): Position {
  return args.position(args.has('cursor') ? 'cursor' : args.has('before') ? 'before' : 'after');
}

/**
 * The Page value: `before` and `after` cursors when there are pages on that side, then `data`. An events set's
 * cursors are shown as events (`eventCursor`), not as the tuples they are walked by.
 */
function pageObject(cursors: { before?: Value[]; after?: Value[] }, data: Value[], events?: EvalContext): ObjectValue {
  const out: ObjectValue = {};
  const shown = (tuple: Value[]): Value => (events === undefined ? tuple : eventCursor(events, tuple));
  if (cursors.before !== undefined) out['before'] = shown(cursors.before);
  if (cursors.after !== undefined) out['after'] = shown(cursors.after);
  out['data'] = data;
  return out;
}

export function pagingForms(reader: SetReader): readonly FormDefinition[] {
  /** The page once every argument is known: at once when it is a listing walked without waiting. */
  const page = (ctx: EvalContext, set: Value, position: Position, atTs: bigint | undefined, options: SetPageOptions): Value | Promise<Value> =>
    whenReady(listingPage(ctx, set, position, atTs, options), (walked) => {
      if (!walked) return materialisedPage(ctx, set, position, atTs, options);
      return pageObject(walked, walked.data);
    });

  const materialisedPage = async (ctx: EvalContext, set: Value, position: Position, atTs: bigint | undefined, options: SetPageOptions): Promise<Value> => {
    const ordered = await reader.read(ctx, set, position, atTs);
    const page = paginateSet(ordered, options);
    return pageObject(page, page.data.map((tuple) => ordered.element(tuple)), isEventSet(set) ? ctx : undefined);
  };

  const paginate: FormDefinition = {
    required: ['paginate'],
    optional: ['size', 'after', 'before', 'ts', 'cursor', 'events', 'sources'],
    evaluate(ctx, args) {
      // Each argument is evaluated and checked in turn: set, size, cursor, then ts and the flags.
      return whenReady(args.valueOrPending(ctx, 'paginate'), (set) =>
        whenReady(pageSize(ctx, args), (size) =>
          whenReady(requestedCursor(ctx, args), (given) =>
            whenReady(snapshot(ctx, args), ({ atTs, events }) => {
              // An events set is already a history: `events: true` leaves it as it is, as in the real service.
              const target = events && !isEventSet(set) ? eventsSetOf(set, args.position('paginate'), args.position('paginate')) : set;
              // An events set's cursors are events or times, read as the tuples its history is ordered by.
              const cursor = isEventSet(target) ? eventPageOptions({ size: 1, ...given }, cursorPosition(args)) : given;
              const shownAs = isEventSet(target) ? ctx : undefined;
              return size === 0
                ? // The set is still read (and refused when it is not one); the page holds nothing.
                  whenReady(page(ctx, target, args.position('paginate'), atTs, { ...cursor, size: 1 }), () => pageObject(emptyPageCursors(cursor), [], shownAs))
                : page(ctx, target, args.position('paginate'), atTs, { ...cursor, size });
            }),
          ),
        ),
      );
    },
  };
  return [paginate];
}

/**
 * The ref of the document the first entry of `set` belongs to, in the set's order, or undefined when the set is
 * empty (Get and Exists of a set, DEC-055). The set is read as Paginate reads it, with the same access checks; a
 * collection listing is walked only to its first readable document. Like Paginate's, the ref is the entry's own:
 * a Match on an index read through a database scope answers refs without it.
 */
export async function firstEntryRef(ctx: EvalContext, set: Value, position: Position, givenTs: bigint | undefined): Promise<Ref | undefined> {
  const atTs = givenTs ?? ctx.readTs;
  const walked = await listingPage(ctx, set, position, atTs, { size: 1 });
  if (walked) return walked.data[0];
  const head = (await ctx.services.sets.read(ctx, set, position, atTs)).ascending().next();
  if (head.done) return undefined;
  // Every set's tuples end with the ref of the document the entry belongs to (`indexes/composite-sets.ts`).
  const ref = head.value[head.value.length - 1];
  return ref instanceof Ref ? ref : undefined;
}

export function setReaderFor(indexes: IndexManager): SetReader {
  return new SetReader(indexes);
}
