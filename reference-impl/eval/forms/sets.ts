/**
 * Index and set forms: CreateIndex (and the `indexes` native-collection handler), Match, Union,
 * Intersection, Difference, Distinct, Join and Documents. Set forms only build `@set` values; reading
 * happens in Paginate (`paging.ts`) through `SetReader`. Union, Intersection, Difference and Distinct also take
 * arrays (and Distinct pages), which they compute at once (FN-SET-016 … FN-SET-020).
 */
import { errors, QueryError, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { IndexError } from '../../indexes/index-error.js';
import { compileBinding } from '../../indexes/binding-compiler.js';
import { parseIndexDefinition, type IndexDefinition } from '../../indexes/index-definition.js';
import { buildsAtOnce } from '../../indexes/index-manager.js';
import { Ref, SetRef, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { valueKey } from '../../indexes/index-store.js';
import { expectRef, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { ensureNotFound, isNativeCollection, renderDocument, resolveCollection, writeDocument } from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { nativeCreateForm, type NativeCollectionHandler } from '../native-collections.js';
import { withoutNulls } from '../record-fields.js';
import { whenReady } from '../when-ready.js';
import { expressionEffect } from '../lambda-effects.js';
import { isHistoricalSet } from './event-history-sets.js';
import { isPageValue, isSetValue, pageWith, wrongType } from './iterables.js';
import { asLambda, indexRecord, isIndexRef } from './set-reading.js';

function asQueryError(e: unknown, position: Position): never {
  if (e instanceof IndexError) throw new QueryError(e.code, e.description, position, e.failures ? { failures: e.failures } : {});
  throw e;
}

function asColumnList(v: Value | undefined): Value | undefined {
  return v === undefined || v === null || Array.isArray(v) ? v : [v];
}

// Implements: IDX-RULE-009
/** Checks that each source collection exists and was not created by this same transaction (SD §Index rule 6). */
function checkSources(ctx: EvalContext, database: string, source: Value | undefined, position: Position): void {
  const refs: Ref[] = [];
  const collect = (v: Value | undefined): void => {
    if (v instanceof Ref) refs.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (isObjectValue(v)) collect(v.collection ?? v.class);
  };
  collect(source);
  for (const ref of refs) {
    if (isNativeCollection(ref)) continue;
    const { collection } = resolveCollection(ctx, ref, position);
    const committed = ctx.txn.store.getDocument(database, 'collections', ref.id, ctx.txn.ts);
    if (!committed) {
      throw errors.invalidArgument(
        `Collection '${ref.id}' is created by this transaction; an index on it must be created in a later one (${collection}).`,
        position,
      );
    }
  }
}

// Implements: IDX-DEF-001, IDX-DEF-003, IDX-DEF-005, IDX-DEF-007, IDX-STATE-004
export function indexNativeHandler(): NativeCollectionHandler {
  return {
    async create(ctx, params, position) {
      let definition: IndexDefinition;
      try {
        definition = parseIndexDefinition(params, { compileBinding });
      } catch (e) {
        asQueryError(e, position);
      }
      const database = ctx.database;
      checkSources(ctx, database, params.source, position);
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
      const terms = asColumnList(params.terms);
      const values = asColumnList(params.values);
      if (terms) fields.terms = terms;
      if (values) fields.values = values;
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

// Implements: SET-MATCH-001, SET-MATCH-002
/**
 * Match terms as the set renders them, from the term list they stand for (SET-MATCH-001): none left out, one as that
 * value (unless it is an array, which would read back as several terms), several as the array.
 */
function renderedTerms(terms: Value): Value | undefined {
  if (!Array.isArray(terms)) return terms;
  if (terms.length === 0) return undefined;
  return terms.length === 1 && !Array.isArray(terms[0]) ? terms[0]! : terms;
}

// Implements: SET-MATCH-001, SET-REF-001, SET-REF-002
function matchStructure(index: Value, terms: Value | undefined): ObjectValue {
  const structure: ObjectValue = { match: index };
  const rendered = terms === undefined || failpoint('SET-MATCH-TERMS-AS-GIVEN') ? terms : renderedTerms(terms);
  if (rendered !== undefined) structure.terms = rendered;
  return structure;
}

// Implements: IDX-STATE-003
/**
 * A committed index whose record says `active: false` is still building: Match on it answers 404 `instance not found`,
 * as the real service does (fauna/faunadb `SetFunctions.scala` IndexInactive; DEC-033). One created in this request
 * is left to the read, which refuses it (SD §Index rule 5).
 */
function refuseInactive(ctx: EvalContext, record: ReturnType<typeof indexRecord>, position: Position): void {
  if (record.version.fields.active === true) return;
  if (ctx.txn.store.getDocument(record.database, 'indexes', record.ref.id, ctx.txn.ts) === undefined) return;
  throw new QueryError('instance not found', `Index '${record.ref.id}' is not active.`, position);
}

async function matchSet(ctx: EvalContext, args: FormArgs, indexKey: string, termsKey: string | undefined): Promise<Value> {
  const index = await args.value(ctx, indexKey);
  refuseInactive(ctx, indexRecord(ctx, index, args.position(indexKey)), args.position(indexKey));
  const terms = termsKey !== undefined && args.has(termsKey) ? await args.value(ctx, termsKey) : undefined;
  return new SetRef(matchStructure(index, terms));
}

/** `{"match": <index>, "terms": …}`. */
const match: FormDefinition = {
  required: ['match'],
  optional: ['terms'],
  evaluate: (ctx, args) => matchSet(ctx, args, 'match', 'terms'),
};

// Implements: SET-MATCH-007
/** The legacy form `{"match": <terms>, "index": <index>}` (DEC-007). */
const legacyMatch: FormDefinition = {
  required: ['index', 'match'],
  async evaluate(ctx, args) {
    const index = await args.value(ctx, 'index');
    if (!isIndexRef(index)) throw errors.invalidArgument(`Index ref expected, ${typeName(index)} provided.`, args.position('index'));
    refuseInactive(ctx, indexRecord(ctx, index, args.position('index')), args.position('index'));
    return new SetRef(matchStructure(index, await args.value(ctx, 'match')));
  },
};

function expectSet(v: Value, position: Position): Value {
  if (v instanceof SetRef || (v instanceof Ref && isNativeCollection(v))) return v;
  throw errors.invalidArgument(`Set expected, ${typeName(v)} provided.`, position);
}

/** Occurrences of each value (by `valueKey`) in `values`. */
function occurrences(values: readonly Value[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) {
    const key = valueKey(v);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

// Implements: FN-SET-016
/**
 * Union of two arrays as a multiset (FN-SET-016): each value as often as the array holding it most, every copy at the
 * value's first place, the left array's values first.
 */
function arrayUnion(left: readonly Value[], right: readonly Value[]): Value[] {
  const wanted = occurrences(left);
  for (const [key, count] of occurrences(right)) wanted.set(key, Math.max(wanted.get(key) ?? 0, count));
  const out: Value[] = [];
  for (const v of [...left, ...right]) {
    const key = valueKey(v);
    const count = wanted.get(key) ?? 0;
    for (let i = 0; i < count; i++) out.push(v);
    wanted.set(key, 0);
  }
  return out;
}

// Implements: FN-SET-017, FN-SET-018
/** The values of `left` that `right` holds (`keep`) or does not hold, each copy in `right` matching one in `left`. */
function arrayMatch(left: readonly Value[], right: readonly Value[], keep: boolean): Value[] {
  const available = occurrences(right);
  return left.filter((v) => {
    const key = valueKey(v);
    const count = available.get(key) ?? 0;
    if (count > 0 && !(keep === false && failpoint('SET-ARRAY-DIFFERENCE-REMOVES-ALL'))) available.set(key, count - 1);
    return count > 0 === keep;
  });
}

type Combination = 'union' | 'intersection' | 'difference';

const ARRAY_COMBINATIONS: Record<Combination, (left: readonly Value[], right: readonly Value[]) => Value[]> = {
  union: arrayUnion,
  intersection: (left, right) => arrayMatch(left, right, true),
  difference: (left, right) => arrayMatch(left, right, false),
};

/**
 * How a set orders its tuples, as the real service describes it: the reverse flag of each column (the ref's last,
 * never reversed) and whether it is a history. Undefined where it orders by nothing (a Join through a lambda).
 */
type SetShape = { reversed: boolean[]; historical: boolean };

const SINGLE: SetShape = { reversed: [false], historical: false };

function setShape(ctx: EvalContext, set: Value, position: Position): SetShape | undefined {
  if (!(set instanceof SetRef)) return SINGLE;
  const s = set.structure;
  const first = (v: Value | undefined): Value => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));
  if ('match' in s) return indexShape(ctx, s.match!, position);
  if ('union' in s || 'intersection' in s || 'difference' in s)
    return setShape(ctx, first(s.union ?? s.intersection ?? s.difference), position);
  if ('distinct' in s) return setShape(ctx, s.distinct!, position);
  if ('range' in s) return setShape(ctx, s.range!, position);
  if ('filter' in s) return setShape(ctx, s.collection ?? null, position);
  if ('events' in s) {
    const inner = setShape(ctx, s.events!, position);
    return inner === undefined ? undefined : { ...inner, historical: true };
  }
  if ('reverse' in s) {
    const inner = setShape(ctx, s.reverse!, position);
    if (inner === undefined) return undefined;
    // As the real service: a set of refs reversed compares as one reversed value before the ref.
    return { ...inner, reversed: inner.reversed.length === 1 ? [true, false] : [...inner.reversed.slice(0, -1).map((r) => !r), false] };
  }
  if ('join' in s) return isIndexRef(s.with) ? indexShape(ctx, s.with, position) : undefined;
  return SINGLE;
}

function indexShape(ctx: EvalContext, index: Value, position: Position): SetShape {
  const values = indexRecord(ctx, index, position).version.fields.values;
  const reversed = Array.isArray(values) ? values.map((v) => isObjectValue(v) && v.reverse === true) : [];
  return { reversed: [...reversed, false], historical: false };
}

/** Whether two neighbouring operands may be combined: both histories or neither, and the same order where both have columns. */
function compatible(a: SetShape | undefined, b: SetShape | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return a.historical === b.historical && a.reversed.every((r, i) => i >= b.reversed.length || r === b.reversed[i]);
}

// Implements: FN-SET-020, SET-REF-004
/**
 * `{"union" | "intersection" | "difference": [a, b, …]}`: of sets, the set (operands rendered as an array even when one
 * was given, SET-REF-004); of arrays, the array computed at once (FN-SET-016 … FN-SET-018). Each operand is a set or
 * an array (a page is refused), and all of one kind (FN-SET-020); sets of different orders are refused.
 */
function combination(name: Combination): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const expr = args.expr(name);
      const value = await ctx.eval(expr);
      const operands = Array.isArray(value) ? value : [value];
      if (operands.length === 0) throw errors.invalidArgument(`${name} requires at least one set.`, expr.position);
      operands.forEach((o, i) => {
        const position = Array.isArray(value) ? [...expr.position, i] : expr.position;
        if (isPageValue(o)) throw wrongType('Set or Array', o, position);
        if (!Array.isArray(o) && !isSetValue(o)) throw wrongType('Array, Set, or Page', o, position);
      });
      const arrays = operands.filter((o): o is Value[] => Array.isArray(o));
      if (arrays.length === operands.length)
        return arrays.slice(1).reduce<Value[]>((acc, next) => ARRAY_COMBINATIONS[name](acc, next), arrays[0]!);
      if (arrays.length > 0) throw errors.invalidArgument('Arguments cannot be of different types, expected Set or Array.', expr.position);
      // Implements: FN-HIST-023
      // A set of events combines only with sets of events, as in the real service (FN-HIST-023).
      const historical = operands.map(isHistoricalSet);
      if (historical.some((h) => h !== historical[0])) throw errors.invalidArgument('Sets are not compatible.', expr.position);
      // Neighbouring operands must order their tuples alike (SET-COMPAT-001).
      const shapes = operands.map((o) => setShape(ctx, o, expr.position));
      if (shapes.some((shape, i) => i > 0 && !compatible(shapes[i - 1], shape)) && !failpoint('SET-INCOMPATIBLE-COMBINED')) {
        throw errors.invalidArgument('Sets are not compatible.', expr.position);
      }
      return new SetRef({ [name]: operands });
    },
  };
}

/** Each value once, at its first place. */
function distinctValues(values: readonly Value[]): Value[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = valueKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// Implements: FN-SET-019
/** `{"distinct": s}`: of a set, the set; of an array, its values once each; of a page, the page so (FN-SET-019). */
const distinct: FormDefinition = {
  required: ['distinct'],
  async evaluate(ctx, args) {
    const source = await args.value(ctx, 'distinct');
    if (Array.isArray(source)) return distinctValues(source);
    if (isPageValue(source)) return pageWith(distinctValues(source.data), source.before, source.after);
    if (isSetValue(source)) return new SetRef({ distinct: source });
    throw wrongType('Array, Set, or Page', source, args.position('distinct'));
  },
};

// Implements: SET-JOIN-003, SET-REF-004
/**
 * `{"join": s, "with": <index ref | lambda>}`. The lambda must be pure, as the real service requires: one that reads,
 * writes or calls a user function anywhere in its body is refused at `with` (SET-JOIN-003).
 */
const join: FormDefinition = {
  required: ['join', 'with'],
  async evaluate(ctx, args) {
    const source = expectSet(await args.value(ctx, 'join'), args.position('join'));
    const target = await args.value(ctx, 'with');
    const at = args.position('with');
    if (isIndexRef(target)) indexRecord(ctx, target, at);
    else {
      if (expressionEffect(asLambda(target, at).body) !== 'pure' && !failpoint('SET-JOIN-LAMBDA-UNCHECKED'))
        throw errors.invalidArgument('Invalid lambda. Lambda in this context may not read, write, or call a user function.', at);
    }
    return new SetRef({ join: source, with: target });
  },
};

// Implements: DOC-LIFE-003, SET-DOCS-001
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
  return [
    createIndex,
    match,
    legacyMatch,
    combination('union'),
    combination('intersection'),
    combination('difference'),
    distinct,
    join,
    documents,
  ];
}
