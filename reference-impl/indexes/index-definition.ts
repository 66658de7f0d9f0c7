/**
 * Validation of a CreateIndex parameter object into a typed index definition (SD "Index", "Source object",
 * "Binding", "Term object", "Value object"). Lambdas are never evaluated here: the evaluator passes in
 * `compileBinding`, which turns a stored one-argument lambda into a function.
 *
 * Failure codes and the `validation failed` shape follow the real service (`failures[].code` such as
 * `reserved name`, `invalid type`, `value required`, `bounds error`, `duplicate value`, `multiple wildcards`,
 * `mixed wildcards`, `invalid binding`, `unused binding`, `invalid arity`); `field` is the full path inside the
 * parameter object.
 */
import { failpoint } from '../failpoints.js';
import { IndexError, type ValidationFailure } from './index-error.js';
import { nameProblem } from '../values/schema-name.js';
import { QueryValue, type Ref, SetRef, isCollectionRef, isObjectValue, type ObjectValue, type Value } from '../values/value.js';

export const MAX_PARTITIONS = 8;
/** Partitions of an index with no terms (a "collection index", listing every instance) unless given. */
export const DEFAULT_COLLECTION_INDEX_PARTITIONS = 8;
export const DEFAULT_PARTITIONS = 1;

export type FieldPathSegment = string | number;

/** Where a term or value comes from: a path in the document, or a binding of the document's source. */
export type Extractor = { kind: 'field'; path: readonly FieldPathSegment[] } | { kind: 'binding'; name: string };

export interface TermColumn {
  extractor: Extractor;
  /**
   * `mva` (default true, as the real service): an array at a field path gives one entry per element and an object
   * gives null; false covers the value at the path whole. A binding's result is always read as with `mva`.
   */
  mva: boolean;
}

export interface ValueColumn extends TermColumn {
  reverse: boolean;
}

/** A stored document as plain values: `{ref, ts, data, …}`. */
export type IndexedDocument = ObjectValue & { ref: Ref };

/** A compiled binding: pure, one argument, returns a scalar or an array of scalars. */
export type BindingFunction = (document: IndexedDocument) => Value;

export interface IndexSource {
  /** The collections this source indexes, or `'_'` for the wildcard source. */
  collections: readonly Ref[] | '_';
  bindings: ReadonlyMap<string, BindingFunction>;
}

export interface IndexDefinition {
  name: string;
  sources: readonly IndexSource[];
  terms: readonly TermColumn[];
  values: readonly ValueColumn[];
  unique: boolean;
  serialized: boolean;
  partitions: number;
  permissions: ObjectValue | null;
  active: boolean;
  data: ObjectValue | null;
}

export interface DefinitionContext {
  /** Compiles a stored lambda into a binding; throws an IndexError (or any Error) if it cannot. */
  compileBinding: (lambda: QueryValue, at: FieldPathSegment[]) => BindingFunction;
  /** Resolves a set-of-refs source (for example all collections) to its refs. */
  resolveSourceSet?: (set: SetRef) => Ref[];
}

function typeName(v: Value | undefined): string {
  if (v === undefined || v === null) return 'Null';
  if (typeof v === 'bigint') return 'Integer';
  if (typeof v === 'number') return 'Double';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Boolean';
  if (Array.isArray(v)) return 'Array';
  if (isObjectValue(v)) return 'Object';
  return v.constructor.name;
}

class FailureCollector {
  readonly failures: ValidationFailure[] = [];

  add(field: FieldPathSegment[], code: string, description: string): void {
    this.failures.push({ field, code, description });
  }

  invalidType(field: FieldPathSegment[], expected: string, actual: Value | undefined): void {
    this.add(field, 'invalid type', `Invalid type ${typeName(actual)}, expected type ${expected}.`);
  }
}

// Implements: IDX-DEF-008
function parseName(params: ObjectValue, f: FailureCollector): string {
  const name = params.name;
  if (name === undefined || name === null) {
    f.add(['name'], 'value required', 'Required value not found.');
    return '';
  }
  if (typeof name !== 'string') {
    f.invalidType(['name'], 'String', name);
    return '';
  }
  const problem = nameProblem(name);
  if (problem !== undefined) f.add(['name'], problem.code, problem.description);
  return name;
}

function parseCollections(v: Value | undefined, at: FieldPathSegment[], f: FailureCollector, ctx: DefinitionContext): Ref[] | '_' {
  if (v === '_') return '_';
  if (isCollectionRef(v)) return [v];
  if (v instanceof SetRef && ctx.resolveSourceSet) return ctx.resolveSourceSet(v);
  if (Array.isArray(v) && v.length > 0 && v.every(isCollectionRef)) return v;
  if (v === undefined || v === null) f.add(at, 'value required', 'Required value not found.');
  else f.invalidType(at, 'Ref, Set or "_"', v);
  return [];
}

// Implements: IDX-SOURCE-006, IDX-SOURCE-008, IDX-SOURCE-010
function parseBindings(
  v: Value | undefined,
  at: FieldPathSegment[],
  f: FailureCollector,
  ctx: DefinitionContext,
): Map<string, BindingFunction> {
  const bindings = new Map<string, BindingFunction>();
  if (v === undefined || v === null) return bindings;
  if (!isObjectValue(v)) {
    f.invalidType(at, 'Object', v);
    return bindings;
  }
  for (const [name, lambda] of Object.entries(v)) {
    const field = [...at, name];
    if (!(lambda instanceof QueryValue)) {
      f.invalidType(field, 'Query', lambda);
      continue;
    }
    const params = typeof lambda.lambda === 'string' ? [lambda.lambda] : lambda.lambda;
    if (params.length !== 1) {
      f.add(field, 'invalid arity', `Binding must take exactly 1 argument, got ${params.length}.`);
      continue;
    }
    try {
      bindings.set(name, ctx.compileBinding(lambda, field));
    } catch (e) {
      f.add(field, 'invalid binding', e instanceof Error ? e.message : 'Binding cannot be compiled.');
    }
  }
  return bindings;
}

// Implements: IDX-SOURCE-001, IDX-SOURCE-002, IDX-SOURCE-003, IDX-SOURCE-004
function parseSources(params: ObjectValue, f: FailureCollector, ctx: DefinitionContext): IndexSource[] {
  const raw = params.source;
  if (raw === undefined || raw === null) {
    f.add(['source'], 'value required', 'Required value not found.');
    return [];
  }
  const items: { v: Value; at: FieldPathSegment[] }[] =
    Array.isArray(raw) && !raw.every(isCollectionRef) ? raw.map((v, i) => ({ v, at: ['source', i] })) : [{ v: raw, at: ['source'] }];
  const sources: IndexSource[] = [];
  for (const { v, at } of items) {
    if (isObjectValue(v)) {
      const key = 'collection' in v ? 'collection' : 'class';
      sources.push({
        collections: parseCollections(v[key], [...at, key], f, ctx),
        bindings: parseBindings(v.fields, [...at, 'fields'], f, ctx),
      });
    } else {
      sources.push({ collections: parseCollections(v, at, f, ctx), bindings: new Map() });
    }
  }
  const wildcards = sources.filter((s) => s.collections === '_');
  if (wildcards.length > 1) f.add(['source'], 'multiple wildcards', 'Too many wildcards.');
  if (wildcards.length > 0 && sources.length > 1 && sources.every((s) => s.bindings.size === 0)) {
    f.add(['source'], 'mixed wildcards', 'Cannot mix collection refs and wildcards without providing bindings.');
  }
  const seen: Ref[] = [];
  for (const s of sources) {
    if (s.collections === '_') continue;
    for (const c of s.collections) {
      if (seen.some((r) => r.equals(c))) f.add(['source'], 'multiple bindings', 'A collection ref may only match one binding.');
      seen.push(c);
    }
  }
  return sources;
}

function parseExtractor(col: ObjectValue, at: FieldPathSegment[], f: FailureCollector, bindingNames: Set<string>): Extractor | undefined {
  const field = col.field;
  const binding = col.binding;
  if (field !== undefined && field !== null) {
    if (typeof field === 'string') return { kind: 'field', path: [field] };
    if (Array.isArray(field) && field.length > 0 && field.every((s) => typeof s === 'string' || typeof s === 'bigint')) {
      return { kind: 'field', path: field.map((s) => (typeof s === 'bigint' ? Number(s) : (s as string))) };
    }
    f.invalidType([...at, 'field'], 'Array of String', field);
    return undefined;
  }
  if (binding !== undefined && binding !== null) {
    if (typeof binding !== 'string') {
      f.invalidType([...at, 'binding'], 'String', binding);
      return undefined;
    }
    if (!bindingNames.has(binding)) {
      f.add([...at, 'binding'], 'invalid binding', `Binding ${binding} is not defined by any source.`);
      return undefined;
    }
    return { kind: 'binding', name: binding };
  }
  f.add([...at, 'field'], 'value required', 'Must provide one of the following: field, binding.');
  return undefined;
}

function parseColumns(params: ObjectValue, key: 'terms' | 'values', f: FailureCollector, bindingNames: Set<string>): ValueColumn[] {
  const raw = params[key];
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const columns: ValueColumn[] = [];
  list.forEach((col, i) => {
    const at: FieldPathSegment[] = Array.isArray(raw) ? [key, i] : [key];
    if (!isObjectValue(col)) {
      f.invalidType(at, 'Object', col);
      return;
    }
    const extractor = parseExtractor(col, at, f, bindingNames);
    const reverse = col.reverse ?? false;
    if (typeof reverse !== 'boolean') f.invalidType([...at, 'reverse'], 'Boolean', reverse);
    const mva = col.mva ?? true;
    if (typeof mva !== 'boolean') f.invalidType([...at, 'mva'], 'Boolean', mva);
    if (extractor) columns.push({ extractor, reverse: reverse === true, mva: mva !== false });
  });
  return columns;
}

/** A binding no term or value uses is refused, as the real service does (`unused binding`). */
function checkBindingsUsed(params: ObjectValue, columns: readonly TermColumn[], f: FailureCollector): void {
  const used = new Set(columns.flatMap(({ extractor }) => (extractor.kind === 'binding' ? [extractor.name] : [])));
  const raw = params.source;
  const items: { item: Value; at: FieldPathSegment[] }[] = Array.isArray(raw)
    ? raw.map((item, i) => ({ item, at: ['source', i] }))
    : [{ item: raw ?? null, at: ['source'] }];
  for (const { item, at } of items) {
    const fields = isObjectValue(item) ? item.fields : undefined;
    if (!isObjectValue(fields)) continue;
    for (const name of Object.keys(fields)) {
      if (!used.has(name)) f.add([...at, 'fields', name], 'unused binding', 'Source binding is not used as a term or value.');
    }
  }
}

function parseBoolean(params: ObjectValue, key: string, fallback: boolean, f: FailureCollector): boolean {
  const v = params[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') {
    f.invalidType([key], 'Boolean', v);
    return fallback;
  }
  return v;
}

// Implements: LIMIT-PART-001, LIMIT-PART-002
function parsePartitions(params: ObjectValue, termCount: number, f: FailureCollector): number {
  const v = params.partitions;
  const fallback = termCount === 0 ? DEFAULT_COLLECTION_INDEX_PARTITIONS : DEFAULT_PARTITIONS;
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'bigint') {
    f.invalidType(['partitions'], 'Integer', v);
    return fallback;
  }
  if (v < 1n || v > BigInt(MAX_PARTITIONS)) {
    if (failpoint('IDX-PARTITIONS-UNCHECKED')) return 1;
    f.add(['partitions'], 'bounds error', `Value ${v} is not in expected range 1 to ${MAX_PARTITIONS}.`);
    return fallback;
  }
  return Number(v);
}

function parseOptionalObject(params: ObjectValue, key: string, f: FailureCollector): ObjectValue | null {
  const v = params[key];
  if (v === undefined || v === null) return null;
  if (!isObjectValue(v)) {
    f.invalidType([key], 'Object', v);
    return null;
  }
  return v;
}

// Implements: IDX-ATTR-001, IDX-ATTR-002, IDX-ATTR-005, IDX-DEF-002, IDX-DEF-005, IDX-DEF-007
/**
 * Validates CreateIndex parameters. Throws `IndexError('invalid argument')` if `params` is not an
 * object, and `IndexError('validation failed', …, failures)` listing every failure otherwise.
 */
export function parseIndexDefinition(params: Value, ctx: DefinitionContext): IndexDefinition {
  if (!isObjectValue(params)) {
    throw new IndexError('invalid argument', `Object expected, ${typeName(params)} provided.`);
  }
  const f = new FailureCollector();
  const name = parseName(params, f);
  const sources = parseSources(params, f, ctx);
  const bindingNames = new Set(sources.flatMap((s) => [...s.bindings.keys()]));
  const terms: TermColumn[] = parseColumns(params, 'terms', f, bindingNames).map(({ extractor, mva }) => ({ extractor, mva }));
  const values = parseColumns(params, 'values', f, bindingNames);
  checkBindingsUsed(params, [...terms, ...values], f);
  const definition: IndexDefinition = {
    name,
    sources,
    terms,
    values,
    unique: parseBoolean(params, 'unique', false, f),
    serialized: parseBoolean(params, 'serialized', true, f),
    partitions: parsePartitions(params, terms.length, f),
    permissions: parseOptionalObject(params, 'permissions', f),
    active: parseBoolean(params, 'active', false, f),
    data: parseOptionalObject(params, 'data', f),
  };
  if (f.failures.length > 0) {
    throw new IndexError('validation failed', 'document data is not valid.', f.failures);
  }
  return definition;
}

// Implements: IDX-SOURCE-004, IDX-SOURCE-005
/**
 * The source that indexes a document of `collection`: the one naming it, else the wildcard source (which
 * applies only to instances no other source matches), else none.
 */
export function sourceFor(definition: IndexDefinition, collection: Ref): IndexSource | undefined {
  let wildcard: IndexSource | undefined;
  for (const s of definition.sources) {
    if (s.collections === '_') wildcard = s;
    else if (s.collections.some((c) => c.equals(collection))) return s;
  }
  return wildcard;
}
