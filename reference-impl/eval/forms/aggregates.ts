/**
 * Functions over arrays, pages and sets (DEC-065, spec/requirements/functions-collections.md): the folds Count, Sum,
 * Mean, Any and All, IsEmpty and IsNonEmpty, and Take, Drop, Append, Prepend and Reverse. A fold over a page answers
 * a page holding the one result, with the page's cursors; over a set it reads every element as Paginate would.
 */
import { QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { SetRef, type ObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { isPageValue, iterableArgument, pageWith, setElements, setHasElements, wrongType } from './iterables.js';

/** How a fold starts, takes each element, and turns its accumulator and the element count into the result. */
interface Fold<A> {
  readonly seed: A;
  step(acc: A, element: Value, position: Position): A;
  finish(acc: A, count: number, position: Position): Value;
}

/** A set read, or `empty` when it is refused and failpoint AGG-SET-PERMISSIONS-IGNORED takes the set for an empty one. */
async function unlessDenied<T>(read: Promise<T>, empty: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof QueryError && error.code === 'permission denied' && failpoint('AGG-SET-PERMISSIONS-IGNORED')) return empty;
    throw error;
  }
}

// Implements: FN-AGG-001, FN-AGG-006, FN-AGG-007
function foldForm<A>(name: string, fold: Fold<A>): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const position = args.position(name);
      const collection = iterableArgument(await args.value(ctx, name), position);
      if (collection.kind === 'set' && failpoint('AGG-SETS-REFUSED')) throw wrongType('Array or Page', collection.set, position);
      const items = collection.kind === 'set' ? await unlessDenied(setElements(ctx, collection.set, position), []) : collection.items;
      let acc = fold.seed;
      for (const element of items) acc = fold.step(acc, element, position);
      const result = fold.finish(acc, items.length, position);
      return collection.kind === 'page' && !failpoint('AGG-PAGE-FOLD-BARE')
        ? pageWith([result], collection.page.before, collection.page.after)
        : result;
    },
  };
}

// Implements: FN-AGG-001
const count: Fold<null> = {
  seed: null,
  step: () => null,
  finish: (_acc, n) => BigInt(n),
};

// Implements: FN-AGG-002, FN-AGG-005
/** Integers add as 64-bit longs (wrapping as the service's do); once a double is met the sum is a double. */
function addNumber(acc: bigint | number, element: Value, position: Position): bigint | number {
  if (typeof element === 'bigint') return typeof acc === 'bigint' ? BigInt.asIntN(64, acc + element) : acc + Number(element);
  if (typeof element === 'number') return Number(acc) + element;
  throw wrongType('Number', element, position);
}

const sum: Fold<bigint | number> = {
  seed: 0n,
  step: addNumber,
  finish: (acc) => acc,
};

// Implements: FN-AGG-003
const mean: Fold<bigint | number> = {
  seed: 0n,
  step: addNumber,
  finish(acc, n, position) {
    if (n === 0) throw errors.invalidArgument('Non-empty array expected.', position);
    return Number(acc) / n;
  },
};

// Implements: FN-AGG-004, FN-AGG-005
/** Any and All check every element is a boolean (the first that is not fails), so they never stop early. */
function booleanFold(seed: boolean, combine: (a: boolean, b: boolean) => boolean): Fold<boolean> {
  return {
    seed,
    step(acc, element, position) {
      if (typeof element !== 'boolean') throw wrongType('Boolean', element, position);
      return combine(acc, element);
    },
    finish: (acc, n) => (n === 0 && failpoint('AGG-EMPTY-ANY-ALL-SWAPPED') ? !acc : acc),
  };
}

// Implements: FN-AGG-008, FN-AGG-010
function emptinessForm(name: 'is_empty' | 'is_nonempty'): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const collection = iterableArgument(await args.value(ctx, name), args.position(name));
      if (collection.kind === 'set' && failpoint('AGG-SETS-REFUSED')) throw wrongType('Array or Page', collection.set, args.position(name));
      // The service checks a set through its Exists, so a refused read is reported at `exists`.
      const nonEmpty =
        collection.kind === 'set'
          ? await unlessDenied(setHasElements(ctx, collection.set, [...args.node.position, 'exists']), false)
          : collection.items.length > 0;
      return name === 'is_empty' ? !nonEmpty : nonEmpty;
    },
  };
}

// Implements: FN-ARR-004
/** The service reads the count as a 32-bit int, so larger counts wrap (Take(4294967297, …) takes 1). */
async function elementCount(ctx: EvalContext, args: FormArgs, name: string): Promise<number> {
  const given = await args.value(ctx, name);
  if (typeof given !== 'bigint') throw wrongType('Integer', given, args.position(name));
  return Number(BigInt.asIntN(32, given));
}

// Implements: FN-ARR-004
/** The array or page argument of Take and Drop; sets are not accepted (API v4). */
async function arrayOrPage(ctx: EvalContext, args: FormArgs): Promise<Value[] | (ObjectValue & { data: Value[] })> {
  const collection = await args.value(ctx, 'collection');
  if (Array.isArray(collection) || isPageValue(collection)) return collection;
  throw wrongType('Array or Page', collection, args.position('collection'));
}

/**
 * The cursor that designates a page element. Pages do not carry their elements' index tuples here, so the element's
 * covered values stand for it: the element itself when it is an array, else a one-value tuple (Decisions).
 */
function elementCursor(element: Value): Value[] {
  return Array.isArray(element) ? element : [element];
}

// Implements: FN-ARR-002, FN-ARR-003
/** The cursor between a page's first `n` elements and the rest: what Take's page ends at and Drop's starts at. */
function splitCursor(page: ObjectValue, items: readonly Value[], n: number): Value | undefined {
  return n < 0 ? page.before : n < items.length ? elementCursor(items[n]!) : page.after;
}

// Implements: FN-ARR-001, FN-ARR-002
/**
 * Take (the first `n` elements) or Drop (the rest) of an array or a page; of a page, the part kept keeps the cursor on
 * its outer side and gets the cursor between the two parts on the other.
 */
function splitForm(name: 'take' | 'drop'): FormDefinition {
  return {
    required: [name, 'collection'],
    async evaluate(ctx, args) {
      const n = await elementCount(ctx, args, name);
      const collection = await arrayOrPage(ctx, args);
      const items = Array.isArray(collection) ? collection : collection.data;
      // Failpoint ARR-NEGATIVE-COUNT-FROM-END counts a negative n from the end, as JavaScript's slice does.
      const at = n < 0 && failpoint('ARR-NEGATIVE-COUNT-FROM-END') ? n : Math.max(0, n);
      const data = name === 'take' ? items.slice(0, at) : items.slice(at);
      if (Array.isArray(collection)) return data;
      if (failpoint('ARR-SLICED-PAGE-CURSORS-KEPT')) return pageWith(data, collection.before, collection.after);
      const split = splitCursor(collection, items, n);
      return name === 'take' ? pageWith(data, collection.before, split) : pageWith(data, split, collection.after);
    },
  };
}

const take = splitForm('take');
const drop = splitForm('drop');

/** The longest array Append and Prepend build (FN-ARR-010): a reference-server limit, as FN-STR-019 is for strings. */
export const MAX_ARRAY_LENGTH = 1_048_576;

// Implements: FN-ARR-005, FN-ARR-006
/** Append and Prepend: the elements (one value or an array of them) joined to an array. */
function joinForm(name: 'append' | 'prepend'): FormDefinition {
  return {
    required: [name, 'collection'],
    async evaluate(ctx, args) {
      const given = await args.value(ctx, name);
      const collection = await args.value(ctx, 'collection');
      if (!Array.isArray(collection)) throw wrongType('Array', collection, args.position('collection'));
      const elements = Array.isArray(given) ? given : [given];
      // Appending an array to itself doubles it: a few dozen nested calls would exhaust the server's memory.
      if (collection.length + elements.length > MAX_ARRAY_LENGTH)
        throw errors.invalidArgument(`array length must be <= ${MAX_ARRAY_LENGTH}`, args.node.position);
      return name === 'append' && !failpoint('ARR-APPEND-PREPENDS') ? [...collection, ...elements] : [...elements, ...collection];
    },
  };
}

// Implements: FN-ARR-007, FN-ARR-008
const reverse: FormDefinition = {
  required: ['reverse'],
  async evaluate(ctx, args) {
    const collection = iterableArgument(await args.value(ctx, 'reverse'), args.position('reverse'));
    if (collection.kind === 'array') return [...collection.items].reverse();
    if (collection.kind === 'page') {
      const { before, after } = collection.page;
      const swapped = failpoint('ARR-REVERSE-PAGE-CURSORS-SWAPPED');
      return pageWith([...collection.items].reverse(), swapped ? after : before, swapped ? before : after);
    }
    return failpoint('ARR-REVERSE-SET-IGNORED') ? collection.set : new SetRef({ reverse: collection.set });
  },
};

export const aggregateForms: readonly FormDefinition[] = [
  foldForm('count', count),
  foldForm('sum', sum),
  foldForm('mean', mean),
  foldForm(
    'any',
    booleanFold(false, (a, b) => a || b),
  ),
  foldForm(
    'all',
    booleanFold(true, (a, b) => a && b),
  ),
  emptinessForm('is_empty'),
  emptinessForm('is_nonempty'),
  take,
  drop,
  joinForm('append'),
  joinForm('prepend'),
  reverse,
];
