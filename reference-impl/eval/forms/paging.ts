/**
 * Paginate (SD "Page"): `{"paginate": <set>, "size"?, "after"?, "before"?, "ts"?, "cursor"?}`. Pages are
 * `{before?, after?, data}`; cursors are the boundary tuple `[...coveredValues, ref]` (DEC-035), `after`
 * inclusive, `before` exclusive, `before: null` walks back from the end. Size defaults to 64 and is bounded
 * by 1..100000 (DEC-018).
 */
import { errors, type Position } from '../../errors/query-error.js';
import type { IndexManager } from '../../indexes/index-manager.js';
import { paginateSet } from '../../indexes/ordered-set.js';
import { isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { expectBoolean, expectInteger, expectTimestampMicros, typeName } from '../arguments.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import type { EvalContext } from '../context.js';
import { listingPage } from './listing-page.js';
import { SetReader } from './set-reading.js';

export const DEFAULT_PAGE_SIZE = 64;
export const MAX_PAGE_SIZE = 100_000;

function cursorTuple(v: Value): Value[] {
  return Array.isArray(v) ? v : [v];
}

async function pageSize(ctx: EvalContext, args: FormArgs): Promise<number> {
  if (!args.has('size')) return DEFAULT_PAGE_SIZE;
  const size = expectInteger(await args.value(ctx, 'size'), args.position('size'));
  if (size < 1n || size > BigInt(MAX_PAGE_SIZE)) {
    throw errors.invalidArgument(`Page size must be between 1 and ${MAX_PAGE_SIZE}, got ${size}.`, args.position('size'));
  }
  return Number(size);
}

/** The cursor of the request: `after`/`before` given directly or inside `cursor: {after | before}`. */
async function requestedCursor(ctx: EvalContext, args: FormArgs): Promise<{ after?: Value[]; before?: Value[]; fromEnd?: boolean }> {
  let after: Value | undefined = await args.optional(ctx, 'after');
  let before: Value | undefined = await args.optional(ctx, 'before');
  let beforeGiven = args.has('before');
  if (args.has('cursor')) {
    const cursor = await args.value(ctx, 'cursor');
    if (!isObjectValue(cursor) || (('after' in cursor) === ('before' in cursor))) {
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

export function pagingForms(reader: SetReader): readonly FormDefinition[] {
  const paginate: FormDefinition = {
    required: ['paginate'],
    optional: ['size', 'after', 'before', 'ts', 'cursor', 'events', 'sources'],
    async evaluate(ctx, args) {
      const position: Position = args.position('paginate');
      const set = await args.value(ctx, 'paginate');
      const size = await pageSize(ctx, args);
      const cursor = await requestedCursor(ctx, args);
      const atTs = args.has('ts') ? expectTimestampMicros(await args.value(ctx, 'ts'), args.position('ts')) : undefined;
      for (const flag of ['events', 'sources'] as const) {
        if (args.has(flag) && expectBoolean(await args.value(ctx, flag), args.position(flag))) {
          throw errors.invalidArgument(`Paginate with ${flag}: true is not supported.`, args.position(flag));
        }
      }
      const out: ObjectValue = {};
      const walked = await listingPage(ctx, set, position, atTs, { size, ...cursor });
      if (walked) {
        if (walked.before !== undefined) out['before'] = walked.before;
        if (walked.after !== undefined) out['after'] = walked.after;
        out['data'] = walked.data.map((tuple) => tuple[0]!);
        return out;
      }
      const ordered = await reader.read(ctx, set, position, atTs);
      const page = paginateSet(ordered, { size, ...cursor });
      if (page.before !== undefined) out['before'] = page.before;
      if (page.after !== undefined) out['after'] = page.after;
      out['data'] = page.data.map((tuple) => ordered.element(tuple));
      return out;
    },
  };
  return [paginate];
}

export function setReaderFor(indexes: IndexManager): SetReader {
  return new SetReader(indexes);
}
