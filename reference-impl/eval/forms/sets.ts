/**
 * Index and set forms: CreateIndex (and the `indexes` native-collection handler), Match, Union,
 * Intersection, Difference, Distinct, Join and Documents. Set forms only build `@set` values; reading
 * happens in Paginate (`paging.ts`) through `SetReader`.
 */
import { errors, QueryError, type Position } from '../../errors/query-error.js';
import { IndexError } from '../../indexes/index-error.js';
import { compileBinding } from '../../indexes/binding-compiler.js';
import { parseIndexDefinition } from '../../indexes/index-definition.js';
import { buildsAtOnce } from '../../indexes/index-manager.js';
import { Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { expectRef, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { ensureNotFound, isNativeCollection, renderDocument, resolveCollection, writeDocument } from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { nativeCreateForm, type NativeCollectionHandler } from '../native-collections.js';
import { withoutNulls } from '../record-fields.js';
import { whenReady } from '../when-ready.js';
import { asLambda, indexRecord, isIndexRef } from './set-reading.js';

function asQueryError(e: unknown, position: Position): never {
  if (e instanceof IndexError) throw new QueryError(e.code, e.description, position, e.failures ? { failures: e.failures } : {});
  throw e;
}

function asColumnList(v: Value | undefined): Value | undefined {
  return v === undefined || v === null || Array.isArray(v) ? v : [v];
}

/** Checks that each source collection exists and was not created by this same transaction (SD §Index rule 6). */
function checkSources(ctx: EvalContext, database: string, source: Value | undefined, position: Position): void {
  const refs: Ref[] = [];
  const collect = (v: Value | undefined): void => {
    if (v instanceof Ref) refs.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (isObjectValue(v)) collect(v['collection'] ?? v['class']);
  };
  collect(source);
  for (const ref of refs) {
    if (isNativeCollection(ref)) continue;
    const { collection } = resolveCollection(ctx, ref, position);
    const committed = ctx.txn.store.getDocument(database, 'collections', ref.id, ctx.txn.ts);
    if (!committed) {
      throw errors.invalidArgument(`Collection '${ref.id}' is created by this transaction; an index on it must be created in a later one (${collection}).`, position);
    }
  }
}

export function indexNativeHandler(): NativeCollectionHandler {
  return {
    async create(ctx, params, position) {
      let definition;
      try {
        definition = parseIndexDefinition(params, { compileBinding });
      } catch (e) {
        asQueryError(e, position);
      }
      const database = ctx.database;
      checkSources(ctx, database, params['source'], position);
      const ref = new Ref(definition.name, new Ref('indexes'));
      const location = { database, collection: 'indexes', id: definition.name, ref };
      await ensureNotFound(ctx, location, position);
      // A small source is built in this transaction (as the real service: `indexes/index-manager.ts`), so the index
      // is active at once; any other stays as given until its background build completes (DEC-033).
      const fields: ObjectValue = withoutNulls({
        ...params,
        name: definition.name,
        active: definition.active || buildsAtOnce(ctx.txn.store, database, definition),
        serialized: definition.serialized,
        unique: definition.unique,
        partitions: BigInt(definition.partitions),
      });
      const terms = asColumnList(params['terms']);
      const values = asColumnList(params['values']);
      if (terms) fields['terms'] = terms;
      if (values) fields['values'] = values;
      const version = await writeDocument(ctx, location, 'create', fields, { indexId: ctx.txn.newDocumentId() }, position);
      const record = renderDocument(ref, version);
      ctx.created.add(record);
      return record;
    },
    // The whole definition, as create_index parses it (DEC-047); the index manager then refuses changes to what is fixed.
    checkUpdate(_ctx, _database, fields, position) {
      try {
        parseIndexDefinition(fields, { compileBinding });
      } catch (e) {
        asQueryError(e, position);
      }
      return fields;
    },
  };
}

const createIndex = nativeCreateForm('create_index', 'indexes');

/**
 * A committed index whose record says `active: false` is still building: Match on it answers 404 `instance not found`,
 * as the real service does (fauna/faunadb `SetFunctions.scala` IndexInactive; DEC-033). One created in this request
 * is left to the read, which refuses it (SD §Index rule 5).
 */
function refuseInactive(ctx: EvalContext, record: ReturnType<typeof indexRecord>, position: Position): void {
  if (record.version.fields['active'] === true) return;
  if (ctx.txn.store.getDocument(record.database, 'indexes', record.ref.id, ctx.txn.ts) === undefined) return;
  throw new QueryError('instance not found', `Index '${record.ref.id}' is not active.`, position);
}

async function matchSet(ctx: EvalContext, args: FormArgs, indexKey: string, termsKey: string | undefined): Promise<Value> {
  const index = await args.value(ctx, indexKey);
  refuseInactive(ctx, indexRecord(ctx, index, args.position(indexKey)), args.position(indexKey));
  const structure: ObjectValue = { match: index };
  if (termsKey !== undefined && args.has(termsKey)) structure['terms'] = await args.value(ctx, termsKey);
  return new SetRef(structure);
}

/** `{"match": <index>, "terms": …}`. */
const match: FormDefinition = {
  required: ['match'],
  optional: ['terms'],
  evaluate: (ctx, args) => matchSet(ctx, args, 'match', 'terms'),
};

/** The legacy form `{"match": <terms>, "index": <index>}` (DEC-007). */
const legacyMatch: FormDefinition = {
  required: ['index', 'match'],
  async evaluate(ctx, args) {
    const index = await args.value(ctx, 'index');
    if (!isIndexRef(index)) throw errors.invalidArgument(`Index ref expected, ${typeName(index)} provided.`, args.position('index'));
    refuseInactive(ctx, indexRecord(ctx, index, args.position('index')), args.position('index'));
    return new SetRef({ match: index, terms: await args.value(ctx, 'match') });
  },
};

function expectSet(v: Value, position: Position): Value {
  if (v instanceof SetRef || (v instanceof Ref && isNativeCollection(v))) return v;
  throw errors.invalidArgument(`Set expected, ${typeName(v)} provided.`, position);
}

function combination(name: 'union' | 'intersection' | 'difference'): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const expr = args.expr(name);
      const value = await ctx.eval(expr);
      const operands = Array.isArray(value) ? value : [value];
      if (operands.length === 0) throw errors.invalidArgument(`${name} requires at least one set.`, expr.position);
      operands.forEach((o, i) => expectSet(o, Array.isArray(value) ? [...expr.position, i] : expr.position));
      return new SetRef({ [name]: Array.isArray(value) ? operands : value });
    },
  };
}

const distinct: FormDefinition = {
  required: ['distinct'],
  async evaluate(ctx, args) {
    return new SetRef({ distinct: expectSet(await args.value(ctx, 'distinct'), args.position('distinct')) });
  },
};

const join: FormDefinition = {
  required: ['join', 'with'],
  async evaluate(ctx, args) {
    const source = expectSet(await args.value(ctx, 'join'), args.position('join'));
    const target = await args.value(ctx, 'with');
    if (isIndexRef(target)) indexRecord(ctx, target, args.position('with'));
    else asLambda(target, args.position('with'));
    return new SetRef({ join: source, with: target });
  },
};

const documents: FormDefinition = {
  required: ['documents'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'documents'), (given) => {
      const collection = expectRef(given, args.position('documents'));
      resolveCollection(ctx, collection, args.position('documents'));
      return new SetRef({ documents: collection });
    });
  },
};

export function setForms(): readonly FormDefinition[] {
  return [createIndex, match, legacyMatch, combination('union'), combination('intersection'), combination('difference'), distinct, join, documents];
}
