/**
 * Index and set forms: CreateIndex (and the `indexes` native-collection handler), Match, Union,
 * Intersection, Difference, Distinct, Join and Documents. Set forms only build `@set` values; reading
 * happens in Paginate (`paging.ts`) through `SetReader`.
 */
import { errors, QueryError, type Position } from '../../errors/query-error.js';
import { IndexError } from '../../indexes/index-error.js';
import { compileBinding } from '../../indexes/binding-compiler.js';
import { parseIndexDefinition } from '../../indexes/index-definition.js';
import { Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { expectRef, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { ensureNotFound, isNativeCollection, renderDocument, resolveCollection, writeDocument } from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { nativeCreateForm, type NativeCollectionHandler } from '../native-collections.js';
import { withoutNulls } from '../record-fields.js';
import { whenReady } from '../when-ready.js';
import { isHistoricalSet } from './event-history-sets.js';
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
      const fields: ObjectValue = withoutNulls({
        ...params,
        name: definition.name,
        active: definition.active,
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

async function matchSet(ctx: EvalContext, args: FormArgs, indexKey: string, termsKey: string | undefined): Promise<Value> {
  const index = await args.value(ctx, indexKey);
  indexRecord(ctx, index, args.position(indexKey));
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
    indexRecord(ctx, index, args.position('index'));
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
      // A set of events combines only with sets of events, as in the real service (FN-HIST-023).
      const historical = operands.map(isHistoricalSet);
      if (historical.some((h) => h !== historical[0])) throw errors.invalidArgument('Sets are not compatible.', expr.position);
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
