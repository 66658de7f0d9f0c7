/**
 * Documents of FQL v10 over the server's store. A v10 document is a v4 document seen differently: its `data` fields
 * at the top level beside `id`, `coll`, `ts` and `ttl`. Reads go through the access-checked readers of `eval/`, and
 * writes are the v4 forms (Create, Update, Replace, Delete, CreateCollection, CreateDatabase, CreateKey) evaluated
 * with literal arguments, so access rules, write limits, uniqueness, ttl and history behave as they do for v4.
 */
import type { Expr as V4Expr } from '../../codec/v4-ast.js';
import { QueryError, type ValidationFailure } from '../../errors/query-error.js';
import type { EvalContext } from '../../eval/context.js';
import { readDocument } from '../../eval/documents.js';
import { userCollectionKey, type CollectionKey, type DocumentVersion } from '../../store/store.js';
import { isCollectionRef, isObjectValue, QueryValue, Ref, SetRef, Time, type ObjectValue, type Value } from '../../values/value.js';
import { runtimeError, type ConstraintFailure, type FqlError } from '../fql-error.js';
import type { SourceSpan } from '../source-position.js';
import { compareSync } from './compare.js';
import { readSet, type IndexDefinition, type SetReader, type StoredSource } from './sets.js';
import {
  DocRef,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  Lambda,
  moduleNameOf,
  NATIVE_MODULES,
  NativeFunction,
  NullWithCause,
  typeNameOf,
  type CollectionHandle,
  type FqlObject,
  type FqlValue,
} from './values.js';
import { FqlSet } from './sets.js';

/** Fields of a v10 user document that are not data. */
const RESERVED_DOCUMENT_FIELDS = new Set(['id', 'coll', 'ts', 'ttl', 'data']);

function literal(value: Value): V4Expr {
  return { kind: 'literal', value, position: [], raw: null };
}

/** A v4 form call with literal arguments, e.g. `{delete: ref}`. */
function form(fields: Record<string, Value>): V4Expr {
  return { kind: 'object', fields: new Map(Object.entries(fields).map(([key, value]) => [key, literal(value)])), position: [], raw: null };
}

export function collectionRef(name: string): Ref {
  return new Ref(name, new Ref('collections'));
}

/** The v4 ref of a document. */
function v4RefOf(doc: DocRef): Ref {
  if (doc.collection.kind === 'user') return new Ref(doc.id, collectionRef(doc.collection.name));
  return new Ref(doc.id, new Ref(doc.collection.native));
}

function storeKeyOf(collection: CollectionHandle): CollectionKey {
  return collection.kind === 'user' ? userCollectionKey(collection.name) : collection.native;
}

/** A v4 query error as the v10 error the real service gives for the same failure. */
export function convertV4Error(
  error: QueryError,
  span: SourceSpan | undefined,
  what?: { action: 'create' | 'update' | 'replace' | 'delete'; kind: string },
): FqlError {
  switch (error.code) {
    case 'permission denied':
      return runtimeError('permission_denied', span, 'Insufficient privileges to perform the action.');
    case 'validation failed':
    case 'instance already exists': {
      const failures: ConstraintFailure[] = (
        error.failures ?? [{ field: ['name'], code: 'duplicate', description: error.description } as ValidationFailure]
      ).map((failure) => ({
        paths: [failure.field],
        message: failure.description,
      }));
      const verb = what === undefined ? 'write' : what.action;
      const message = what === undefined ? 'Failed to write the document.' : `Failed to ${verb} ${what.kind}.`;
      return runtimeError('constraint_failure', span, message, { constraintFailures: failures });
    }
    case 'instance not found':
      return runtimeError('document_not_found', span, error.description);
    case 'invalid argument':
    case 'invalid ref':
      return runtimeError('invalid_argument', span, error.description);
    case 'stack overflow':
      return runtimeError('stack_overflow', span, error.description);
    default:
      return runtimeError(error.code.replaceAll(' ', '_'), span, error.description);
  }
}

export class DocumentAccess {
  constructor(private readonly ctx: EvalContext) {}

  private get database() {
    return this.ctx.database;
  }

  /** The live version at the time reads happen (the query's, or an `at`'s). */
  private get(key: CollectionKey, id: string): DocumentVersion | undefined {
    const at = this.ctx.readTs;
    return at === undefined ? this.ctx.txn.get(this.database, key, id) : this.ctx.txn.getAt(this.database, key, id, at);
  }

  private scan(key: CollectionKey): Array<[string, DocumentVersion]> {
    const at = this.ctx.readTs;
    if (at === undefined) return this.ctx.txn.scan(this.database, key);
    return [...this.ctx.txn.store.scanCollection(this.database, key, at)];
  }

  collectionExists(name: string): boolean {
    return this.get('collections', name) !== undefined;
  }

  /** The document's version when it exists and may be read; a refused read is `permission_denied`. */
  async version(doc: DocRef): Promise<DocumentVersion | undefined> {
    if (doc.pinned !== undefined) return doc.pinned.action === 'delete' ? undefined : doc.pinned;
    if (doc.collection.kind === 'user' && !this.collectionExists(doc.collection.name)) return undefined;
    const location = { database: this.database, collection: storeKeyOf(doc.collection), id: doc.id, ref: v4RefOf(doc) };
    if (this.get(location.collection, doc.id) === undefined) return undefined;
    return readDocument(this.ctx, location, [], this.ctx.readTs);
  }

  async exists(doc: DocRef): Promise<boolean> {
    return (await this.version(doc)) !== undefined;
  }

  /** The error for a document that is not there, in the real service's words. */
  notFound(doc: DocRef, span: SourceSpan): FqlError {
    const collection = moduleNameOf(doc.collection);
    if (doc.named) return runtimeError('document_not_found', span, `${collection} \`${doc.id}\` not found.`);
    return runtimeError('document_not_found', span, `Collection \`${collection}\` does not contain document with id ${doc.id}.`);
  }

  /** The document's fields as v10 shows them, or `document_not_found`. */
  async fields(doc: DocRef, span: SourceSpan): Promise<FqlObject> {
    const version = await this.version(doc);
    if (version === undefined) throw this.notFound(doc, span);
    return this.fieldsOf(doc, version);
  }

  // Implements: EVT-FIELD-008, FQL-DOC-001
  fieldsOf(doc: DocRef, version: DocumentVersion): FqlObject {
    const ts = new Time(version.ts * 1000n);
    const coll = new FqlModule(moduleNameOf(doc.collection), doc.collection.kind === 'user' ? doc.collection.name : undefined);
    if (doc.collection.kind === 'user') {
      const out: FqlObject = { id: doc.id, coll, ts };
      const data = version.fields.data;
      if (isObjectValue(data))
        for (const [key, value] of Object.entries(data)) if (!Object.hasOwn(out, key)) out[key] = this.fromStored(value);
      const ttl = version.fields.ttl;
      if (ttl !== undefined && ttl !== null) out.ttl = this.fromStored(ttl);
      return out;
    }
    const out: FqlObject = doc.named ? { name: doc.id, coll, ts } : { id: doc.id, coll, ts };
    for (const [key, value] of Object.entries(version.fields)) {
      if (key === 'name' || key === 'hashed_secret' || Object.hasOwn(out, key)) continue;
      out[key] = key === 'database' && value instanceof Ref ? value.id : this.fromStored(value);
    }
    return out;
  }

  /** A stored (v4) value as an FQL value: refs become documents and modules. */
  fromStored(value: Value): FqlValue {
    if (value instanceof Ref) {
      const ref: Ref = value;
      if (isCollectionRef(value)) {
        if (value.collection === undefined) return new FqlModule(NATIVE_MODULES[value.id] ?? value.id);
        return new FqlModule(value.id, value.id);
      }
      const parent = ref.collection as Ref;
      if (parent.collection === undefined) return new DocRef({ kind: 'native', native: parent.id }, ref.id);
      return new DocRef({ kind: 'user', name: parent.id }, ref.id);
    }
    if (value instanceof QueryValue) return '[function <lambda>]';
    if (value instanceof SetRef) return null;
    if (Array.isArray(value)) return value.map((item) => this.fromStored(item));
    if (isObjectValue(value)) {
      const out: FqlObject = {};
      for (const [key, field] of Object.entries(value)) out[key] = this.fromStored(field);
      return out;
    }
    return value;
  }

  /** An FQL value as it is stored; functions, sets and event sources cannot be. */
  toStored(value: FqlValue, path: string, span: SourceSpan): Value {
    if (value instanceof NullWithCause) return null;
    if (value instanceof DocRef) return v4RefOf(value);
    if (value instanceof FqlModule) {
      if (value.collection !== undefined) return collectionRef(value.collection);
      const native = Object.entries(NATIVE_MODULES).find(([, module]) => module === value.name)?.[0];
      if (native !== undefined) return new Ref(native);
    }
    if (
      value instanceof FqlModule ||
      value instanceof Lambda ||
      value instanceof NativeFunction ||
      value instanceof FqlSet ||
      value instanceof EventSourceValue
    ) {
      throw runtimeError('invalid_type', span, `Value at \`${path}\` has type ${typeNameOf(value)}, which cannot be persisted.`);
    }
    if (Array.isArray(value)) return value.map((item, i) => this.toStored(item, `${path}.${i}`, span));
    if (isFqlObject(value)) {
      const out: ObjectValue = {};
      for (const [key, field] of Object.entries(value)) out[key] = this.toStored(field, path === '' ? key : `${path}.${key}`, span);
      return out;
    }
    return value;
  }

  // ---------------------------------------------------------------------------------------------- sets

  async readSource(reader: SetReader, source: StoredSource): Promise<FqlValue[]> {
    switch (source.kind) {
      case 'documents':
        return this.documentsOf(source.collection);
      case 'index':
        return this.indexed(source.collection, source.index, source.terms, reader);
      case 'single':
        return [source.value];
      case 'array':
        return [...source.items];
      case 'concat': {
        const out: FqlValue[] = [];
        for (const part of source.parts) out.push(...(await readSet(part, reader)));
        return out;
      }
    }
  }

  /** The documents of a collection the caller may read, in id order; a native collection needs rights to list it. */
  private async documentsOf(collection: CollectionHandle): Promise<FqlValue[]> {
    const key = storeKeyOf(collection);
    if (collection.kind === 'user' && !this.collectionExists(collection.name)) return [];
    if (collection.kind === 'native') {
      const allowed = await this.ctx.services.access.allows(this.ctx, { action: 'read', database: this.database, collection: key });
      if (!allowed) throw new QueryError('permission denied', 'Insufficient privileges to perform the action.');
    }
    const out: FqlValue[] = [];
    for (const [id, version] of this.scan(key)) {
      const doc = new DocRef(collection, id);
      const allowed = await this.ctx.services.access.allows(this.ctx, {
        action: 'read',
        database: this.database,
        collection: key,
        ref: v4RefOf(doc),
        before: version,
      });
      if (allowed) out.push(doc);
    }
    return out;
  }

  /**
   * The documents an index holds for the terms, ordered by its values and then by id. A term field holding an
   * array matches any element; a document lacking every term field is not in the index.
   */
  private async indexed(collection: string, index: IndexDefinition, terms: readonly FqlValue[], reader: SetReader): Promise<FqlValue[]> {
    const documents = (await this.documentsOf({ kind: 'user', name: collection })) as DocRef[];
    const rows: { doc: DocRef; values: FqlValue[] }[] = [];
    for (const doc of documents) {
      const fields = await this.fields(doc, { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } });
      const termValues = index.terms.map((path) => readPath(fields, path));
      if (index.terms.length > 0 && termValues.every((v) => v === null)) continue;
      let matches = true;
      for (const [i, value] of termValues.entries()) {
        const term = terms[i] as FqlValue;
        const candidates = Array.isArray(value) ? value : [value];
        let any = false;
        for (const candidate of candidates) if (await exactlyEqual(reader, candidate, term)) any = true;
        if (!any) matches = false;
      }
      if (matches) rows.push({ doc, values: index.values.map((value) => readPath(fields, value.path)) });
    }
    rows.sort((a, b) => compareRows(a, b, index));
    return rows.map((row) => row.doc);
  }

  // ---------------------------------------------------------------------------------------------- writes

  /** Evaluates a v4 form with literal arguments in this context. */
  async v4(fields: Record<string, Value>): Promise<Value> {
    return this.ctx.eval(form(fields));
  }

  /** `Coll.create({…})`: the document's fields (an `id` of its own, `ttl`, data fields). */
  // Implements: FQL-DOC-001, FQL-DOC-005
  async createDocument(collection: string, fields: FqlObject, span: SourceSpan): Promise<DocRef> {
    const { data, ttl, id } = this.splitFields(fields, span, true);
    const params: ObjectValue = { data };
    if (ttl !== undefined) params.ttl = ttl;
    const target = id === undefined ? collectionRef(collection) : new Ref(id, collectionRef(collection));
    if (id !== undefined && this.get(userCollectionKey(collection), id) !== undefined) {
      throw runtimeError('document_id_exists', span, `Collection \`${collection}\` already contains document with id ${id}.`);
    }
    const created = await this.v4({ create: target, params });
    const ref = isObjectValue(created) ? created.ref : undefined;
    if (!(ref instanceof Ref)) throw new Error('Create answered no ref');
    return new DocRef({ kind: 'user', name: collection }, ref.id);
  }

  /** `doc.update({…})` (merged) or `doc.replace({…})` (data replaced). */
  // Implements: FQL-DOC-003
  async writeDocument(doc: DocRef, fields: FqlObject, replace: boolean, span: SourceSpan): Promise<DocRef> {
    if (!(await this.exists(doc))) throw this.notFound(doc, span);
    const params: ObjectValue = {};
    if (doc.collection.kind === 'user') {
      const { data, ttl } = this.splitFields(fields, span, false);
      params.data = data;
      if (ttl !== undefined) params.ttl = ttl;
      else if (replace) params.ttl = null;
    } else {
      for (const [key, value] of Object.entries(fields)) {
        if (key === 'coll' || key === 'ts') continue;
        params[key] = this.toStored(value, key, span);
      }
    }
    try {
      await this.v4(replace ? { replace: v4RefOf(doc), params } : { update: v4RefOf(doc), params });
    } catch (error) {
      if (error instanceof QueryError)
        throw convertV4Error(error, span, {
          action: replace ? 'replace' : 'update',
          kind: moduleNameOf(doc.collection) === doc.id ? 'document' : kindName(doc),
        });
      throw error;
    }
    const renamed = doc.named && typeof fields.name === 'string' ? fields.name : undefined;
    return renamed === undefined ? doc : new DocRef(doc.collection, renamed);
  }

  // Implements: FQL-DOC-004
  async deleteDocument(doc: DocRef, span: SourceSpan): Promise<NullWithCause> {
    if (!(await this.exists(doc))) throw this.notFound(doc, span);
    await this.v4({ delete: v4RefOf(doc) });
    return new NullWithCause({ kind: 'missing-document', doc });
  }

  /** A write's fields as v4 params: reserved fields apart, everything else in `data`. */
  private splitFields(fields: FqlObject, span: SourceSpan, creating: boolean): { data: ObjectValue; ttl?: Value; id?: string } {
    const data: ObjectValue = {};
    let ttl: Value | undefined;
    let id: string | undefined;
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'id' && creating) {
        id = documentId(value, span);
      } else if (key === 'ttl') {
        if (value !== null && !(value instanceof Time) && !(value instanceof NullWithCause)) {
          throw constraintFailure(
            span,
            creating ? 'create' : 'update',
            'document',
            [['ttl']],
            `Expected Time | Null, provided ${typeNameOf(value)}`,
          );
        }
        ttl = value instanceof NullWithCause ? null : value;
      } else if (RESERVED_DOCUMENT_FIELDS.has(key)) {
        if (key === 'coll' || key === 'ts' || key === 'id') continue;
        throw constraintFailure(span, creating ? 'create' : 'update', 'document', [[key]], `The field \`${key}\` is reserved.`);
      } else {
        data[key] = this.toStored(value, key, span);
      }
    }
    return { data, ...(ttl === undefined ? {} : { ttl }), ...(id === undefined ? {} : { id }) };
  }
}

function kindName(doc: DocRef): string {
  return moduleNameOf(doc.collection);
}

function constraintFailure(span: SourceSpan, action: string, kind: string, paths: (string | number)[][], message: string): FqlError {
  return runtimeError('constraint_failure', span, `Failed to ${action} ${kind}.`, { constraintFailures: [{ paths, message }] });
}

/** A document id given to `create` or `byId`: digits, as a string or a non-negative integer. */
export function documentId(value: FqlValue, span: SourceSpan): string {
  if (typeof value === 'bigint' && value >= 0n) return value.toString();
  if (typeof value === 'string' && /^\d+$/.test(value) && BigInt(value) < 2n ** 63n) return BigInt(value).toString();
  if (typeof value === 'string' && /^-\d+$/.test(value))
    throw constraintFailure(span, 'create', 'document', [['id']], 'Invalid document ID: id must be nonnegative');
  if (typeof value === 'bigint')
    throw constraintFailure(span, 'create', 'document', [['id']], 'Invalid document ID: id must be nonnegative');
  throw constraintFailure(span, 'create', 'document', [['id']], `Expected ID | String | Long, provided ${typeNameOf(value)}`);
}

/** The value at a document path, null where a field is missing. */
export function readPath(value: FqlValue, path: readonly string[]): FqlValue {
  let current: FqlValue = value;
  for (const name of path) {
    if (!isFqlObject(current)) return null;
    current = Object.hasOwn(current, name) ? (current[name] as FqlValue) : null;
  }
  return current;
}

/** Index terms compare exactly: `1` does not equal `1.0` (v4 index semantics, DEC-009). */
async function exactlyEqual(reader: SetReader, a: FqlValue, b: FqlValue): Promise<boolean> {
  if ((typeof a === 'bigint' && typeof b === 'number') || (typeof a === 'number' && typeof b === 'bigint')) return false;
  return reader.equal(a, b);
}

/** Index order: by the values (each ascending or descending), then by document id. */
function compareRows(a: { doc: DocRef; values: FqlValue[] }, b: { doc: DocRef; values: FqlValue[] }, index: IndexDefinition): number {
  for (const [i, value] of index.values.entries()) {
    const order = compareSync(a.values[i] as FqlValue, b.values[i] as FqlValue);
    if (order !== 0) return value.desc ? -order : order;
  }
  return compareSync(a.doc, b.doc);
}
