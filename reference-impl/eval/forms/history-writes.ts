/**
 * FQL v4 history writes (DEC-068, spec/requirements/functions-history-writes.md): `Insert` puts an event into a
 * document's past, `Remove` takes one out. They are store history edits (`Transaction.editHistory`), applied at
 * commit after the transaction's ordinary writes; indexes follow when the document's newest version changes.
 */
import { QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { NO_HIDDEN_FIELDS, userCollectionName, type WriteAction } from '../../store/store.js';
import { Ref, Time, hasDatabaseScope, type ObjectValue, type Value } from '../../values/value.js';
import { expectObject, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { locateDocument, requireAccess, type DocumentLocation } from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { throwIfFailures, userDocumentFields } from '../record-fields.js';
import { refuseWriteAtEarlierTime } from '../snapshot-writes.js';
import { unresolvedRefFailures } from '../written-refs.js';
import { renderedEvent } from './event-history-sets.js';

/** The event's time: a Time, or an Integer of microseconds since the epoch. */
function eventTime(value: Value, position: Position): bigint {
  if (value instanceof Time) return value.micros;
  if (typeof value === 'bigint') return value;
  throw errors.invalidArgument(`Time expected, ${typeName(value)} provided.`, position);
}

function eventAction(value: Value, position: Position): WriteAction {
  if (value === 'create' || value === 'update' || value === 'delete') return value;
  throw errors.invalidArgument(`String 'create', 'update', or 'delete' expected, ${typeName(value)} provided.`, position);
}

function expectRefArgument(value: Value, position: Position): Ref {
  if (!(value instanceof Ref)) throw errors.invalidArgument(`Ref expected, ${typeName(value)} provided.`, position);
  // As for every write, a ref into another database is refused (DEC-050).
  if (hasDatabaseScope(value)) throw errors.invalidArgument('Cannot write a scoped ref.', position);
  return value;
}

// Implements: FN-HISTW-013
/** The arguments both forms share, checked in the real service's order: ref, ts, action. */
async function eventArguments(
  ctx: EvalContext,
  args: FormArgs,
  refKey: 'insert' | 'remove',
): Promise<{ ref: Ref; ts: bigint; action: WriteAction }> {
  const ref = expectRefArgument(await args.value(ctx, refKey), args.position(refKey));
  const ts = eventTime(await args.value(ctx, 'ts'), args.position('ts'));
  const action = eventAction(await args.value(ctx, 'action'), args.position('action'));
  return { ref, ts, action };
}

// Implements: FN-HISTW-014
/**
 * A document of a user collection (only those have a history that can be written here); `invalid ref` at the ref
 * for a collection that does not exist, `invalid argument` at the form for any other ref.
 */
function userDocument(ctx: EvalContext, ref: Ref, refPosition: Position, formPosition: Position, refused: string): DocumentLocation {
  const parent = ref.collection;
  if (
    parent === undefined ||
    parent.collection === undefined ||
    parent.collection.id !== 'collections' ||
    parent.collection.collection !== undefined
  ) {
    throw errors.invalidArgument(refused, formPosition);
  }
  let location: DocumentLocation;
  try {
    location = locateDocument(ctx, ref, refPosition);
  } catch (error) {
    const missingCollection = error instanceof QueryError && error.code === 'invalid ref';
    if (missingCollection && failpoint('HISTW-MISSING-COLLECTION-ARGUMENT'))
      throw errors.invalidArgument(error.description, error.position);
    throw error;
  }
  if (userCollectionName(location.collection) === undefined) throw errors.invalidArgument(refused, formPosition);
  return location;
}

// Implements: FN-HISTW-001, FN-HISTW-002, FN-HISTW-003, FN-HISTW-007, FN-HISTW-008, FN-HISTW-009
/**
 * `{"insert": ref, "ts": ts, "action": action, "params": {...}}`. A `create` or an `update` stores the document as
 * `params` gives it (nothing is merged from earlier versions) and is returned as a `create` event; a `delete`
 * stores a delete. A version already at `ts` is replaced. A time later than the transaction's is refused.
 */
const insert: FormDefinition = {
  required: ['insert', 'ts', 'action'],
  optional: ['params'],
  async evaluate(ctx, args) {
    const formPosition = args.node.position;
    const { ref, ts: asked, action } = await eventArguments(ctx, args, 'insert');
    const withParams = args.has('params') && !failpoint('HISTW-PARAMS-IGNORED');
    const given = withParams ? await args.value(ctx, 'params') : null;
    const params = given === null ? {} : expectObject(given, args.position('params'));
    refuseWriteAtEarlierTime(ctx, formPosition);
    let ts = failpoint('HISTW-TS-OFF-BY-ONE') ? asked - 1n : asked;
    if (ts > ctx.txn.ts && failpoint('HISTW-FUTURE-ACCEPTED')) ts = ctx.txn.ts;
    if (ts > ctx.txn.ts) throw new QueryError('invalid write time', 'Cannot write outside of snapshot time.', formPosition);
    const location = userDocument(ctx, ref, args.position('insert'), formPosition, 'Cannot insert event for specified ref.');
    const deleted = action === 'delete';
    // Only the fields a client writes: credentials are never set through history.
    const writable: ObjectValue = {};
    if (params.data !== undefined) writable.data = params.data;
    if (params.ttl !== undefined) writable.ttl = params.ttl;
    throwIfFailures(unresolvedRefFailures(ctx, writable), formPosition);
    const { fields, hidden } = deleted
      ? { fields: {}, hidden: NO_HIDDEN_FIELDS }
      : await userDocumentFields(ctx, writable, 'create', undefined, formPosition);
    // Implements: FN-HISTW-015
    // A history_write predicate gets the edit: its time, the action as given and the fields written.
    await requireAccess(ctx, 'history_write', location, formPosition, undefined, deleted ? undefined : fields, undefined, {
      ts,
      action,
      fields: writable,
    });
    const version = { ts, action: deleted ? ('delete' as const) : ('create' as const), fields, hidden };
    ctx.txn.editHistory(location.database, { kind: 'insert', collection: location.collection, id: location.id, version });
    const answered = action === 'update' && failpoint('HISTW-UPDATE-ANSWERED-AS-UPDATE') ? 'update' : 'create';
    const omitted = !args.has('params') && failpoint('HISTW-NO-PARAMS-DATA-OMITTED');
    return renderedEvent(
      ctx,
      {
        ts,
        action: deleted ? 'delete' : answered,
        ref: location.ref,
        data: deleted ? (failpoint('HISTW-DELETE-EMPTY-DATA') ? {} : null) : omitted ? undefined : (fields.data ?? null),
      },
      true,
    );
  },
};

// Implements: FN-HISTW-010, FN-HISTW-011
/**
 * `{"remove": ref, "ts": ts, "action": action}`: takes out the version at `ts` when it is of that kind (`create` and
 * `update` both name a live version, `delete` a delete); anything else changes nothing. Always null.
 */
const remove: FormDefinition = {
  required: ['remove', 'ts', 'action'],
  async evaluate(ctx, args) {
    const formPosition = args.node.position;
    const { ref, ts, action: asked } = await eventArguments(ctx, args, 'remove');
    const action = asked === 'delete' && failpoint('HISTW-REMOVE-IGNORES-KIND') ? 'create' : asked;
    refuseWriteAtEarlierTime(ctx, formPosition);
    const location = userDocument(ctx, ref, args.position('remove'), formPosition, 'Cannot remove event for specified ref.');
    const there = ctx.txn.store.versionAt(location.database, location.collection, location.id, ts);
    const before = there?.ts === ts && there.action !== 'delete' ? there : undefined;
    await requireAccess(ctx, 'history_write', location, formPosition, before, undefined, undefined, {
      ts,
      action,
      fields: before?.fields ?? {},
    });
    ctx.txn.editHistory(location.database, {
      kind: 'remove',
      collection: location.collection,
      id: location.id,
      ts,
      deleted: action === 'delete',
    });
    return null;
  },
};

export const historyWriteForms: FormDefinition[] = [insert, remove];
