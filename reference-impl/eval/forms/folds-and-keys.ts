/**
 * Reduce, SelectAll and KeyFromSecret (DEC-065; spec/requirements/functions-collections.md and functions-keys.md).
 * Reduce folds an array, page or set as Count and Sum do (iterables.ts); KeyFromSecret finds a record by its secret
 * as authentication does (auth/secrets.ts) and then reads it as Get would, with the caller's rights.
 */
import { tokenIdentityLive } from '../../auth/authenticate.js';
import { addressOf, isSecretOf } from '../../auth/secrets.js';
import { QueryError, errors } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { ROOT_DATABASE, type DatabaseId } from '../../store/store.js';
import { Ref, isObjectValue, type Value } from '../../values/value.js';
import { expectString } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { DATABASES_REF, locateDocument, readExisting, renderReadDocument } from '../documents.js';
import type { FormDefinition } from '../form-registry.js';
import { applyLambda } from '../lambda.js';
import { iterableArgument, pageWith, setElements } from './iterables.js';
import { pathArgument, requireLambdaForm } from './objects.js';
import { asLambda } from './set-reading.js';

// Implements: FN-AGG-011, FN-AGG-012, FN-AGG-013
/**
 * Reduce applies its lambda, written as a lambda form, to `[accumulator, element]`; an application that does not fit
 * the lambda's parameters is reported at `["reduce", "lambda"]`, as in the real service.
 */
const reduce: FormDefinition = {
  required: ['reduce', 'initial', 'collection'],
  async evaluate(ctx, args) {
    requireLambdaForm(args.expr('reduce'));
    const position = args.position('reduce');
    const lambda = asLambda(await args.value(ctx, 'reduce'), position);
    const initial = await args.value(ctx, 'initial');
    const collection = iterableArgument(await args.value(ctx, 'collection'), args.position('collection'));
    // As for the other folds, a refused set read is reported at the function's own argument, `["reduce"]`.
    const items = collection.kind === 'set' ? await setElements(ctx, collection.set, position) : collection.items;
    let acc = initial;
    const elementFirst = failpoint('FOLD-REDUCE-ELEMENT-FIRST');
    for (const element of items)
      acc = await applyLambda(ctx, lambda, elementFirst ? [element, acc] : [acc, element], [...position, 'lambda']);
    return collection.kind === 'page' && !failpoint('FOLD-REDUCE-PAGE-BARE')
      ? pageWith([acc], collection.page.before, collection.page.after)
      : acc;
  },
};

/** An array's elements with nested arrays spliced in, at any depth. */
function flatten(items: readonly Value[]): Value[] {
  return items.flatMap((item) => (Array.isArray(item) ? flatten(item) : [item]));
}

/**
 * What SelectAll finds at `path`, or undefined when nothing is there. An integer indexes an array; a field name
 * applied to an array applies to each element, keeping what each has (an array of results is spliced in); an array
 * reached at the end of the path is flattened.
 */
function selectAllAt(from: Value, path: ReadonlyArray<string | bigint>): Value | undefined {
  if (Array.isArray(from)) {
    if (path.length === 0) return flatten(from);
    const head = path[0]!;
    if (typeof head === 'bigint') {
      const element = head >= 0n && head < BigInt(from.length) ? from[Number(head)] : undefined;
      return element === undefined ? undefined : selectAllAt(element, path.slice(1));
    }
    return from.flatMap((item) => {
      const found = selectAllAt(item, path);
      return found === undefined ? [] : Array.isArray(found) ? found : [found];
    });
  }
  if (path.length === 0) return from;
  const [head, ...rest] = path as [string | bigint, ...Array<string | bigint>];
  if (from instanceof Ref) {
    if (head === 'id') return rest.length === 0 ? from.id : undefined;
    if (head === 'collection' || head === 'class') return from.collection === undefined ? undefined : selectAllAt(from.collection, rest);
    if (head === 'database') {
      const database = from.database ?? from.collection?.database;
      return database === undefined ? undefined : selectAllAt(database, rest);
    }
    return undefined;
  }
  if (isObjectValue(from) && typeof head === 'string' && Object.hasOwn(from, head)) return selectAllAt(from[head]!, rest);
  return undefined;
}

// Implements: FN-OBJ-012
/**
 * Every value at `path`, as SelectAll and Select with `all: true` answer them: what was found (one value wrapped in an
 * array), or `[]`.
 */
export function selectAllValues(from: Value, path: ReadonlyArray<string | bigint>): Value[] {
  const found = selectAllAt(from, path);
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

// Implements: FN-OBJ-012, FN-OBJ-013
/** SelectAll answers an array always: what it found (one value wrapped), or `[]` (it has no default). */
const selectAll: FormDefinition = {
  required: ['select_all', 'from'],
  async evaluate(ctx, args) {
    const path = pathArgument(await args.value(ctx, 'select_all'), args.position('select_all'));
    const found = selectAllValues(await args.value(ctx, 'from'), path);
    return found.length === 1 && failpoint('FOLD-SELECT-ALL-ONE-UNWRAPPED') ? found[0]! : found;
  },
};

/** The name of the database record that holds `database` in its parent, or undefined when it is gone. */
function databaseName(ctx: EvalContext, database: DatabaseId, parent: DatabaseId): string | undefined {
  const hinted = ctx.txn.store.databaseRecordId(database);
  if (hinted !== undefined && ctx.txn.get(parent, 'databases', hinted)?.hidden.databaseId === database) return hinted;
  return ctx.txn.scan(parent, 'databases').find(([, record]) => record.hidden.databaseId === database)?.[0];
}

// Implements: FN-KEY-001, FN-KEY-004
/**
 * How the caller's database names `database`: no ref for itself, a (nested) database ref for a descendant, and null
 * when `database` is neither, or is gone.
 */
function databaseRefFromCaller(ctx: EvalContext, database: DatabaseId): Ref | undefined | null {
  const names: string[] = [];
  for (let current = database; current !== ctx.database; ) {
    const parent = current === ROOT_DATABASE ? undefined : ctx.txn.store.database(current)?.parent;
    if (parent === undefined) return null;
    const name = databaseName(ctx, current, parent);
    if (name === undefined) return null;
    names.unshift(name);
    current = parent;
  }
  let ref: Ref | undefined;
  for (const name of names) ref = new Ref(name, DATABASES_REF, ref);
  return ref;
}

// Implements: FN-KEY-001, FN-KEY-002, FN-KEY-003, FN-KEY-004, FN-KEY-005
/**
 * The key or token record a secret belongs to, read as Get of its ref reads it. Whatever keeps the caller from it — an
 * unknown secret, a record outside the caller's database and its descendants, no right to read it — is the same
 * `instance not found`, so the answer never tells a secret's record exists (functions-keys.md).
 */
const keyFromSecret: FormDefinition = {
  required: ['key_from_secret'],
  async evaluate(ctx, args) {
    const secret = expectString(await args.value(ctx, 'key_from_secret'), args.position('key_from_secret'));
    const notFound = () => errors.notFound(args.node.position, `No key found for secret ${secret}.`);
    const address = addressOf(secret);
    if (address === undefined) throw notFound();
    const collection = address.kind === 'key' ? 'keys' : 'tokens';
    const record = ctx.txn.isDatabaseLive(address.database) ? ctx.txn.get(address.database, collection, address.id) : undefined;
    if (!record || !isSecretOf(secret, address, record.hidden.secretDigest)) throw notFound();
    // As authentication: a token whose identity document is gone is no live secret (an expired record `get` hid already).
    if (
      address.kind === 'token' &&
      !tokenIdentityLive(ctx.txn, address.database, record.fields.instance) &&
      !failpoint('KEY-FROM-SECRET-ORPHAN-TOKEN')
    )
      throw notFound();
    const databaseRef = databaseRefFromCaller(ctx, address.database);
    if (databaseRef === null) throw notFound();
    const ref = new Ref(address.id, new Ref(collection, undefined, databaseRef));
    try {
      const location = locateDocument(ctx, ref, args.node.position);
      return renderReadDocument(ref, await readExisting(ctx, location, args.node.position));
    } catch (error) {
      if (error instanceof QueryError) throw notFound();
      throw error;
    }
  },
};

export const foldAndKeyForms: readonly FormDefinition[] = [reduce, selectAll, keyFromSecret];
