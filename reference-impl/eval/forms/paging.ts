/**
 * Paginate (SD "Page"): `{"paginate": <set>, "size"?, "after"?, "before"?, "ts"?, "cursor"?, "events"?, "sources"?}`.
 * Pages are `{before?, after?, data}`; cursors are the boundary tuple `[...coveredValues, ref]` (DEC-035), `after`
 * inclusive, `before` exclusive, a null cursor `[null]` (so `before: null` walks back from the end). Size defaults to
 * 64 and is served up to 100000 (DEC-018). `events: true` pages the set's history, as Paginate of `Events(set)` does
 * (DEC-065); `sources: true` answers each element with the sets it comes from. A document ref pages as the set of
 * that one ref.
 */
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { sourcesOf } from '../../indexes/composite-sets.js';
import type { IndexManager } from '../../indexes/index-manager.js';
import { paginateSet, type SetPageOptions } from '../../indexes/ordered-set.js';
import { Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { expectBoolean, expectInteger, expectTimestampMicros, typeName } from '../arguments.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import type { EvalContext } from '../context.js';
import { listingPage } from './listing-page.js';
import { SetReader } from './set-reading.js';
import { eventCursor, eventPageOptions, eventsSetOf, isEventSet } from './event-history-sets.js';
import { whenReady } from '../when-ready.js';

// Implements: PAGE-SIZE-002
export const DEFAULT_PAGE_SIZE = 64;
export const MAX_PAGE_SIZE = 100_000;

function cursorTuple(v: Value): Value[] {
  return Array.isArray(v) ? v : [v];
}

// Implements: LIMIT-PAGE-001, PAGE-SIZE-003, PAGE-SIZE-004, PAGE-SIZE-005
/**
 * The page size asked for, as the real service serves it (DEC-018): at most `MAX_PAGE_SIZE`; 0, and -1 for any
 * negative size (both give an empty page, which carries the cursor differently).
 */
function pageSize(ctx: EvalContext, args: FormArgs): number | Promise<number> {
  if (!args.has('size')) return DEFAULT_PAGE_SIZE;
  return whenReady(args.valueOrPending(ctx, 'size'), (given) => {
    const size = expectInteger(given, args.position('size'));
    if (size < 0n) return -1;
    if (size > BigInt(MAX_PAGE_SIZE) && failpoint('LIMIT-PAGE-SIZE-REFUSED'))
      throw errors.invalidArgument(`Page size must be at most ${MAX_PAGE_SIZE}.`, args.position('size'));
    return size > BigInt(MAX_PAGE_SIZE) ? MAX_PAGE_SIZE : Number(size);
  });
}

// Implements: PAGE-SIZE-005
/**
 * The cursors of an empty page asked for with size 0 or less (DEC-018): nothing was read past the cursor given, so
 * size 0 carries it on both sides, and a negative size, which has no next entry either, on its own side only.
 */
function emptyPageCursors(cursor: SetPageOptions, size: number): { before?: Value[]; after?: Value[] } {
  const { after, before } = cursor;
  if (size === 0) {
    const given = after ?? before;
    return given === undefined ? {} : { before: given, after: given };
  }
  return after !== undefined ? { before: after } : before !== undefined ? { after: before } : {};
}

/** The cursor values given (`after`/`before` directly or inside `cursor: {after | before}`); `null` is a value. */
type GivenCursor = { after?: Value; before?: Value };

function requestedCursor(ctx: EvalContext, args: FormArgs): GivenCursor | Promise<GivenCursor> {
  if (!args.has('after') && !args.has('before') && !args.has('cursor')) return {};
  return givenCursor(ctx, args);
}

// Implements: PAGE-CURSOR-008, PAGE-CURSOR-010, PAGE-CURSOR-011
async function givenCursor(ctx: EvalContext, args: FormArgs): Promise<GivenCursor> {
  let after: Value | undefined = args.has('after') ? await args.value(ctx, 'after') : undefined;
  let before: Value | undefined = args.has('before') ? await args.value(ctx, 'before') : undefined;
  const cursor = args.has('cursor') ? await args.value(ctx, 'cursor') : null;
  // `cursor: null` is no cursor; an object names exactly one side and nothing else (DEC-062).
  if (cursor !== null) {
    const sides = isObjectValue(cursor) ? Object.keys(cursor) : [];
    if (!isObjectValue(cursor) || sides.length !== 1 || (sides[0] !== 'after' && sides[0] !== 'before')) {
      throw errors.invalidArgument(
        "Invalid cursor object. Expected an object with either 'before' or 'after' key in it.",
        args.position('cursor'),
      );
    }
    after = cursor.after;
    before = cursor.before;
  }
  if (after !== undefined && after !== null && before !== undefined)
    throw errors.invalidArgument('Only one of after and before may be given.', args.node.position);
  return before !== undefined ? { before } : after !== undefined ? { after } : {};
}

// Implements: PAGE-CURSOR-009, PAGE-CURSOR-012, PAGE-CURSOR-013
/**
 * The paging options of a set's cursor. A cursor is a tuple (a bare value stands for a tuple of one), compared with
 * the set's tuples in its order: `null` is `[null]`, which sorts after every value of an ascending column, so
 * `before: null` pages back from the end and `after: null` is past it (DEC-035).
 */
function setCursor(given: GivenCursor): SetPageOptions & { size: number } {
  if (given.before !== undefined) return { size: 1, before: cursorTuple(given.before) };
  if (given.after !== undefined) return { size: 1, after: cursorTuple(given.after) };
  return { size: 1 };
}

/**
 * The paging options of an events set's cursor: an event or a time (DEC-065). `before: null` pages back from the
 * latest event and `after: null` is no cursor, as the history pages have always read them (functions-history.md).
 */
function eventCursorOptions(given: GivenCursor, position: Position): SetPageOptions {
  if (given.before === null) return { size: 1, fromEnd: true };
  if (given.after === null) return { size: 1 };
  return eventPageOptions(setCursor(given), position);
}

type Snapshot = { atTs: bigint | undefined; events: boolean; sources: boolean };

/**
 * The `ts` to read the set at (else an enclosing `At`'s; undefined: the transaction's), whether `events: true` asks
 * for the set's history (DEC-065), and whether `sources: true` asks for each element's sources (PAGE-SOURCES-001).
 */
function snapshot(ctx: EvalContext, args: FormArgs): Snapshot | Promise<Snapshot> {
  if (!args.has('ts') && !args.has('events') && !args.has('sources')) return { atTs: ctx.readTs, events: false, sources: false };
  return givenSnapshot(ctx, args);
}

// Implements: FN-HIST-004, FN-HIST-016
async function givenSnapshot(ctx: EvalContext, args: FormArgs): Promise<Snapshot> {
  const atTs = args.has('ts') ? expectTimestampMicros(await args.value(ctx, 'ts'), args.position('ts')) : ctx.readTs;
  const events = args.has('events') && expectBoolean(await args.value(ctx, 'events'), args.position('events'));
  const sources = args.has('sources') && expectBoolean(await args.value(ctx, 'sources'), args.position('sources'));
  return { atTs, events, sources };
}

/** Where a malformed cursor is reported: the argument that gave it. */
function cursorPosition(args: FormArgs): Position {
  return args.position(args.has('cursor') ? 'cursor' : args.has('before') ? 'before' : 'after');
}

// Implements: PAGE-SHAPE-001, PAGE-SHAPE-002, PAGE-SHAPE-003, PAGE-SHAPE-004
/**
 * The Page value: `before` and `after` cursors when there are pages on that side, then `data`. An events set's
 * cursors are shown as events (`eventCursor`), not as the tuples they are walked by.
 */
function pageObject(cursors: { before?: Value[]; after?: Value[] }, data: Value[], events?: EvalContext): ObjectValue {
  const out: ObjectValue = {};
  const shown = (tuple: Value[]): Value => (events === undefined ? tuple : eventCursor(events, tuple));
  if (cursors.before !== undefined) out.before = shown(cursors.before);
  if (cursors.after !== undefined) out.after = shown(cursors.after);
  out.data = data;
  return out;
}

// Implements: PAGE-SOURCES-001
/** A page element with the set values it comes from (`sources: true`): `{"value": …, "sources": […]}`. */
function sourcedElement(value: Value, sources: readonly Value[]): ObjectValue {
  return { value, sources: [...sources] };
}

/** A page asked of a set: read at `atTs` (undefined: the transaction's snapshot), with its elements' sources or not. */
type PageRequest = [ctx: EvalContext, set: Value, position: Position, atTs: bigint | undefined, options: SetPageOptions, sources: boolean];

export function pagingForms(reader: SetReader): readonly FormDefinition[] {
  /** The page once every argument is known: at once when it is a listing walked without waiting. */
  const page = (...[ctx, set, position, atTs, options, sources]: PageRequest): Value | Promise<Value> => {
    if (sources) return materialisedPage(ctx, set, position, atTs, options, true);
    return whenReady(listingPage(ctx, set, position, atTs, options), (walked) => {
      if (!walked) return materialisedPage(ctx, set, position, atTs, options, false);
      return pageObject(walked, walked.data);
    });
  };

  const materialisedPage = async (...[ctx, set, position, atTs, options, sources]: PageRequest): Promise<Value> => {
    const ordered = await reader.readPaged(ctx, set, position, atTs, { sources });
    const page = paginateSet(ordered, options);
    if (options.after !== undefined && page.data.length > 0 && failpoint('PAGE-BEFORE-IS-FIRST-ENTRY')) page.before = page.data[0];
    const data = page.data.map((tuple) =>
      sources ? sourcedElement(ordered.element(tuple), sourcesOf(ordered, tuple)) : ordered.element(tuple),
    );
    return pageObject(page, data, isEventSet(set) ? ctx : undefined);
  };

  const paginate: FormDefinition = {
    required: ['paginate'],
    optional: ['size', 'after', 'before', 'ts', 'cursor', 'events', 'sources'],
    evaluate(ctx, args) {
      // Each argument is evaluated and checked in turn: set, size, cursor, then ts and the flags.
      return whenReady(args.valueOrPending(ctx, 'paginate'), (set) =>
        whenReady(pageSize(ctx, args), (size) =>
          whenReady(requestedCursor(ctx, args), (given) =>
            whenReady(snapshot(ctx, args), ({ atTs, events, sources }) => {
              // An events set is already a history: `events: true` leaves it as it is, as in the real service.
              const target =
                events && !isEventSet(set)
                  ? eventsSetOf(set, args.position('paginate'), args.position('paginate'))
                  : pagedSet(set, args.position('paginate'));
              // An events set's cursors are events or times, read as the tuples its history is ordered by.
              const cursor = isEventSet(target) ? eventCursorOptions(given, cursorPosition(args)) : setCursor(given);
              const shownAs = isEventSet(target) ? ctx : undefined;
              return size < 1
                ? // The set is still read (and refused when it is not one); the page holds nothing.
                  whenReady(page(ctx, target, args.position('paginate'), atTs, { ...cursor, size: 1 }, false), () =>
                    pageObject(emptyPageCursors(cursor, size), [], shownAs),
                  )
                : page(ctx, target, args.position('paginate'), atTs, { ...cursor, size }, sources);
            }),
          ),
        ),
      );
    },
  };
  return [paginate];
}

// Implements: PAGE-DOC-001
/** What Paginate takes: a set, or a ref (a document's, paged as the set of that one ref). */
function pagedSet(set: Value, position: Position): Value {
  if (set instanceof Ref && set.collection !== undefined && failpoint('PAGE-DOC-REF-REFUSED'))
    throw errors.invalidArgument('Set expected, Ref provided.', position);
  if (set instanceof Ref || set instanceof SetRef) return set;
  throw errors.invalidArgument(`Ref or Set expected, ${typeName(set)} provided.`, position);
}

/**
 * The ref of the document the first entry of `set` belongs to, in the set's order, or undefined when the set is
 * empty (Get and Exists of a set, DEC-055). The set is read as Paginate reads it, with the same access checks; a
 * collection listing is walked only to its first readable document. Like Paginate's, the ref is the entry's own:
 * a Match on an index read through a database scope answers refs without it.
 */
export async function firstEntryRef(
  ctx: EvalContext,
  set: Value,
  position: Position,
  givenTs: bigint | undefined,
): Promise<Ref | undefined> {
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
