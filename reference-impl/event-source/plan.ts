/**
 * Turns a parsed event-source query into a plan: which collection, which documents belong to the set, how an
 * event's data is built, and which changes are relevant (SD "Creating an event source: supported sets" and
 * "What triggers which event"). Pure: names are resolved through the resolver passed in.
 */
import { MODULE_OF_NATIVE_COLLECTION, TaggedDocument, type TaggedValue } from '../codec/tagged.js';
import type { Expr, ProjectionField } from '../fql/ast.js';
import { FqlError, fqlErrorAt } from '../fql/fql-error.js';
import {
  applyProjection,
  callFunction,
  emptyScope,
  evaluate,
  functionFromArgument,
  readPath,
  testPredicate,
  type FqlFunction,
} from '../fql/evaluate.js';
import type { SourceSpan } from '../fql/source-position.js';
import { valuesIdentical } from '../fql/value-comparison.js';
import { Ref, type ObjectValue, type Value } from '../values/value.js';

/** What the resolver knows about a collection name used in the query. */
export interface CollectionInfo {
  readonly exists: boolean;
  readonly system: boolean;
}

/**
 * An index usable as `Coll.<name>(terms…)`. Paths are as written in the index definition (v4 form, e.g.
 * `["data", "email"]`, `["ref"]`); the plan maps them onto v10 document fields with `documentPathOfIndexField`.
 */
export interface IndexInfo {
  readonly sourceCollection: string;
  readonly terms: readonly (readonly string[])[];
  readonly values: readonly (readonly string[])[];
}

export interface EventSourceResolver {
  collection(name: string): CollectionInfo;
  index(name: string): IndexInfo | undefined;
}

/** A document version as the event layer sees it: `{id, coll, ts, …data fields}`; `coll` a collection Ref or name. */
export type EventDocument = ObjectValue;

export type EventChange = 'add' | 'update' | 'remove' | 'none';

export type PlanStep =
  | { readonly kind: 'where'; readonly fn: FqlFunction; readonly span: SourceSpan }
  | { readonly kind: 'map'; readonly fn: FqlFunction; readonly span: SourceSpan }
  | { readonly kind: 'project'; readonly fields: readonly ProjectionField[]; readonly span: SourceSpan };

export interface PlanIndex {
  readonly name: string;
  /** Term values given in the query, one per index term. */
  readonly terms: readonly Value[];
  /** Document paths of the index's terms and values (v10 form, without the leading `data`). */
  readonly termFields: readonly (readonly string[])[];
  readonly valueFields: readonly (readonly string[])[];
}

export interface PlanOptions {
  /** Query arguments (`{"arguments": …}` of `/query/1`), visible as variables in the query. */
  readonly variables?: ReadonlyMap<string, Value>;
}

/** v10 names of the system collections; event sources over them (or their indexes) are rejected. */
export const SYSTEM_COLLECTION_NAMES: readonly string[] = [
  ...new Set([
    'Collection', 'Key', 'Token', 'Credential', 'Database', 'Role', 'Function', 'AccessProvider',
    ...Object.values(MODULE_OF_NATIVE_COLLECTION),
  ]),
];

const EVENT_SOURCE_METHODS: Readonly<Record<string, 'eventSource' | 'eventsOn'>> = {
  eventSource: 'eventSource',
  eventsOn: 'eventsOn',
  toStream: 'eventSource',
  changesOn: 'eventsOn',
};

/** Maps a v4 index field path onto a v10 document path: `["data", …p]` → `p`, `["ref"]` → `["id"]`. */
export function documentPathOfIndexField(field: readonly string[]): string[] {
  if (field[0] === 'data') return field.slice(1);
  if (field.length === 1 && field[0] === 'ref') return ['id'];
  return [...field];
}

/** The collection name of a document's `coll` field (a collection Ref or a plain name). */
export function documentCollectionName(doc: EventDocument): string | undefined {
  const coll = doc['coll'];
  if (typeof coll === 'string') return coll;
  if (coll instanceof Ref) {
    if (coll.collection === undefined) return MODULE_OF_NATIVE_COLLECTION[coll.id as keyof typeof MODULE_OF_NATIVE_COLLECTION];
    return coll.id;
  }
  return undefined;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class EventSourcePlan {
  constructor(
    readonly collection: string,
    readonly kind: 'all' | 'where' | 'index' | 'single',
    /** Filters and transforms in query order; `where` after `map`/projection sees the transformed value. */
    readonly steps: readonly PlanStep[],
    readonly variables: ReadonlyMap<string, Value>,
    readonly index?: PlanIndex,
    readonly docId?: string,
    /** Paths named by `eventsOn(…)`, in document form (`.a.b` → `["a", "b"]`). */
    readonly eventsOn?: readonly (readonly string[])[],
  ) {}

  /** The `where()` predicates, in order. */
  get predicates(): FqlFunction[] {
    return this.steps.flatMap((step) => (step.kind === 'where' ? [step.fn] : []));
  }

  /** True when events carry a transformed value (map or projection) rather than the document. */
  get transformed(): boolean {
    return this.steps.some((step) => step.kind !== 'where');
  }

  /**
   * Fields whose changes the source reacts to: the `eventsOn` paths, else an index source's terms and values,
   * else undefined (every change counts).
   */
  get watchedFields(): readonly (readonly string[])[] | undefined {
    if (this.eventsOn) return this.eventsOn;
    if (this.index) return [...this.index.termFields, ...this.index.valueFields];
    return undefined;
  }

  /** Whether the document version belongs to the set (collection, id or index terms, then every `where`). */
  contains(doc: EventDocument): boolean {
    return this.run(doc).member;
  }

  // Implements: ESRC-ON-001, EVT-TRIGGER-001, EVT-TRIGGER-002, EVT-TRIGGER-003, EVT-TRIGGER-004, EVT-TRIGGER-005
  // Implements: EVT-TRIGGER-006, EVT-TRIGGER-009, EVT-TRIGGER-010
  /**
   * The event a write causes, by the SD trigger table: `before`/`after` are the versions before and after
   * the write (null for a create / a delete). A write that changes none of the watched fields causes no event.
   */
  relevant(before: EventDocument | null, after: EventDocument | null): EventChange {
    const watched = this.watchedFields;
    if (before !== null && after !== null && watched !== undefined) {
      const changed = watched.some((path) => !valuesIdentical(readPath(before, path), readPath(after, path)));
      if (!changed) return 'none';
    }
    const wasMember = before !== null && this.contains(before);
    const isMember = after !== null && this.contains(after);
    if (wasMember && isMember) return 'update';
    if (isMember) return 'add';
    if (wasMember) return 'remove';
    return 'none';
  }

  // Implements: EVT-FIELD-003, EVT-FIELD-004, EVT-FIELD-010, EVT-REMOVE-003
  /** An event's `data`: the tagged document, or the transformed value when the query maps or projects. */
  eventData(doc: EventDocument): TaggedValue {
    const result = this.run(doc);
    return this.transformed ? result.value : new TaggedDocument(doc);
  }

  // Implements: EVT-TRIGGER-006, EVT-TRIGGER-011
  private run(doc: EventDocument): { member: boolean; value: Value } {
    if (documentCollectionName(doc) !== this.collection) return { member: false, value: doc };
    if (this.docId !== undefined && doc['id'] !== this.docId) return { member: false, value: doc };
    if (this.index && !this.indexMatches(doc, this.index)) return { member: false, value: doc };
    let value: Value = doc;
    for (const step of this.steps) {
      if (step.kind === 'where') {
        if (!testPredicate(step.fn, value, this.variables)) return { member: false, value };
      } else if (step.kind === 'map') {
        value = callFunction(step.fn, value, this.variables);
      } else {
        value = applyProjection(step.fields, value, this.variables, step.span);
      }
    }
    return { member: true, value };
  }

  /**
   * v4 index semantics: an array field matches any of its elements; a missing field is a null term, except
   * that a document lacking every term field is not in the index at all.
   */
  private indexMatches(doc: EventDocument, index: PlanIndex): boolean {
    if (index.termFields.length === 0) return true;
    const present = index.termFields.map((path) => readPath(doc, path));
    if (present.every((v) => v === null)) return false;
    return present.every((value, i) => {
      const term = index.terms[i] as Value;
      if (Array.isArray(value)) return value.some((element) => valuesIdentical(element, term));
      return valuesIdentical(value, term);
    });
  }
}

// ---------------------------------------------------------------------------------------------- planning

type ChainLink =
  | { readonly kind: 'call'; readonly name: string; readonly nameSpan: SourceSpan; readonly args: readonly Expr[]; readonly span: SourceSpan }
  | { readonly kind: 'project'; readonly fields: readonly ProjectionField[]; readonly span: SourceSpan };

/**
 * `A.b(…).c(…) { … }` as its root `A` and the method calls / projections applied to it, innermost first. A
 * call's span runs from the method name to the closing parenthesis, so errors point at the method.
 */
function flattenChain(expr: Expr): { root: Expr; links: ChainLink[] } {
  const links: ChainLink[] = [];
  let current = expr;
  for (;;) {
    if (current.kind === 'call' && current.callee.kind === 'member' && !current.callee.optional) {
      const nameSpan = current.callee.nameSpan;
      const span = { start: nameSpan.start, end: current.span.end };
      links.unshift({ kind: 'call', name: current.callee.name, nameSpan, args: current.args, span });
      current = current.callee.target;
    } else if (current.kind === 'projection') {
      links.unshift({ kind: 'project', fields: current.fields, span: current.span });
      current = current.target;
    } else {
      return { root: current, links };
    }
  }
}

function describeLink(link: ChainLink): string {
  return link.kind === 'call' ? `\`${link.name}()\`` : 'a projection';
}

const SUPPORTED_SETS =
  'event sources are created from `<Collection>.all()`, `<Collection>.where(…)`, `<Collection>.<index>(…)` or `Set.single(<Collection>.byId(…))`';

// Implements: ESRC-TRANSFORM-001, ESRC-TRANSFORM-002
/** Plans the event source a query creates, or throws a positioned FqlError saying why it cannot. */
export function planEventSource(query: Expr, resolver: EventSourceResolver, options: PlanOptions = {}): EventSourcePlan {
  const variables = options.variables ?? new Map<string, Value>();
  const { root, links } = flattenChain(query);
  const start = planSetRoot(root, links, resolver, variables);
  const steps: PlanStep[] = [...start.steps];
  let eventsOn: string[][] | undefined;
  let sourceCall: ChainLink | undefined;

  for (let i = start.consumed; i < links.length; i++) {
    const link = links[i] as ChainLink;
    if (sourceCall !== undefined) {
      // An event source has `where()` and `map()`, as the real service's (fauna/faunadb `stdlib/EventSources.scala`).
      if (link.kind === 'call' && link.name === 'where') {
        steps.push(whereStep(link, variables));
        continue;
      }
      if (link.kind === 'call' && link.name === 'map') {
        steps.push({ kind: 'map', fn: functionArgument(link, variables), span: link.span });
        continue;
      }
      throw fqlErrorAt('invalid_query', link.kind === 'call' ? link.nameSpan : link.span,
        `${describeLink(link)} cannot be applied to an event source; only \`where()\` and \`map()\` can`);
    }
    if (link.kind === 'project') {
      checkProjection(link.fields, variables);
      steps.push({ kind: 'project', fields: link.fields, span: link.span });
      continue;
    }
    const sourceMethod = EVENT_SOURCE_METHODS[link.name];
    if (sourceMethod === 'eventSource') {
      if (link.args.length !== 0) throw fqlErrorAt('invalid_argument', link.span, `\`${link.name}()\` takes no arguments`);
      sourceCall = link;
    } else if (sourceMethod === 'eventsOn') {
      // Watched fields belong to the source set itself, not to a filtered or transformed one (ESRC-ON-004).
      if (steps.length > 0) throw new FqlError('invalid_receiver', `can't call \`.${link.name}()\` because it was not called on the source set.`, link.nameSpan);
      eventsOn = eventsOnPaths(link, start.index);
      sourceCall = link;
    } else if (link.name === 'where') {
      steps.push(whereStep(link, variables));
    } else if (link.name === 'map') {
      steps.push({ kind: 'map', fn: functionArgument(link, variables), span: link.span });
    } else {
      throw unsupportedSetMethod(link, links.slice(i + 1), query.span);
    }
  }
  if (sourceCall === undefined) throw notAnEventSource(query.span);

  const hasWhere = steps.some((s) => s.kind === 'where');
  const kind = start.kind === 'all' && hasWhere ? 'where' : start.kind;
  return new EventSourcePlan(start.collection, kind, steps, variables, start.index, start.docId, eventsOn);
}

function notAnEventSource(span: SourceSpan) {
  return fqlErrorAt('invalid_query', { start: span.end, end: span.end },
    'the query does not create an event source; call `.eventSource()` or `.eventsOn(…)` on a supported set (this FQL subset only creates event sources)');
}

// Implements: ESRC-SET-006, ESRC-TRANSFORM-003, ESRC-TRANSFORM-004
function unsupportedSetMethod(link: Extract<ChainLink, { kind: 'call' }>, rest: readonly ChainLink[], querySpan: SourceSpan) {
  const sourceCall = rest.find((l): l is Extract<ChainLink, { kind: 'call' }> => l.kind === 'call' && l.name in EVENT_SOURCE_METHODS);
  if (sourceCall === undefined) throw notAnEventSource(querySpan);
  // Worded as the real service words them (fauna/faunadb FQL2StreamsSpec); the position is in the summary.
  const why = UNSUPPORTED_SET_WORDING[link.name] ?? `sets returned from \`.${link.name}()\``;
  return new FqlError('invalid_receiver', `can't call \`.${sourceCall.name}()\` because streaming is not supported on ${why}.`, sourceCall.nameSpan);
}

/** How the real service names the sets some methods return, when it refuses to stream them. */
const UNSUPPORTED_SET_WORDING: Readonly<Record<string, string>> = {
  concat: 'concatenated sets',
  reverse: 'sets that have been reversed',
  distinct: 'distinct sets',
  flatMap: '`.flatMap()` sets',
};

interface SetStart {
  readonly collection: string;
  readonly kind: 'all' | 'where' | 'index' | 'single';
  readonly steps: readonly PlanStep[];
  readonly consumed: number;
  readonly index?: PlanIndex;
  readonly docId?: string;
}

// Implements: ESRC-SET-001, ESRC-SET-002
function planSetRoot(root: Expr, links: readonly ChainLink[], resolver: EventSourceResolver, variables: ReadonlyMap<string, Value>): SetStart {
  if (root.kind !== 'identifier') throw fqlErrorAt('invalid_query', root.span, `this FQL subset cannot evaluate this expression; ${SUPPORTED_SETS}`);
  const first = links[0];
  if (root.name === 'Set') {
    if (first?.kind !== 'call' || first.name !== 'single') {
      const what = first?.kind === 'call' ? `\`Set.${first.name}()\`` : '`Set`';
      throw fqlErrorAt('invalid_receiver', first?.kind === 'call' ? first.nameSpan : root.span,
        `streaming is not supported on ${what}; ${SUPPORTED_SETS}`);
    }
    return planSingle(first, resolver, variables);
  }
  const collection = checkCollection(root.name, root.span, resolver);
  if (first?.kind !== 'call' || first.name in EVENT_SOURCE_METHODS) throw fqlErrorAt('invalid_query', root.span, `\`${root.name}\` is a collection, not a set; ${SUPPORTED_SETS}`);
  if (first.name === 'all') {
    if (first.args.length !== 0) throw fqlErrorAt('invalid_argument', first.span, '`all()` takes no arguments');
    return { collection, kind: 'all', steps: [], consumed: 1 };
  }
  if (first.name === 'where') return { collection, kind: 'where', steps: [whereStep(first, variables)], consumed: 1 };
  if (first.name === 'byId') {
    throw fqlErrorAt('invalid_receiver', first.nameSpan, '`byId()` returns a document, not a set; use `Set.single(' + collection + '.byId(…))`');
  }
  return planIndexSet(collection, first, resolver, variables);
}

// Implements: ESRC-SET-005
function checkCollection(name: string, span: SourceSpan, resolver: EventSourceResolver): string {
  const info = resolver.collection(name);
  if (SYSTEM_COLLECTION_NAMES.includes(name) || (info.exists && info.system)) {
    throw fqlErrorAt('invalid_receiver', span, `\`${name}\` is a system collection; event sources are not supported on system collections`);
  }
  if (!info.exists) throw fqlErrorAt('invalid_query', span, `Unbound variable \`${name}\``);
  return name;
}

// Implements: ESRC-SET-003
function planIndexSet(collection: string, link: Extract<ChainLink, { kind: 'call' }>, resolver: EventSourceResolver, variables: ReadonlyMap<string, Value>): SetStart {
  const info = resolver.index(link.name);
  if (info === undefined) {
    throw fqlErrorAt('invalid_query', link.nameSpan, `the method \`${link.name}\` does not exist on collection \`${collection}\` (no index named \`${link.name}\`)`);
  }
  const source = resolver.collection(info.sourceCollection);
  if (SYSTEM_COLLECTION_NAMES.includes(info.sourceCollection) || source.system) {
    throw fqlErrorAt('invalid_receiver', link.nameSpan, `index \`${link.name}\` is over the system collection \`${info.sourceCollection}\`; event sources are not supported on system-collection indexes`);
  }
  if (info.sourceCollection !== collection) {
    throw fqlErrorAt('invalid_query', link.nameSpan, `index \`${link.name}\` does not index collection \`${collection}\` (its source is \`${info.sourceCollection}\`)`);
  }
  if (link.args.length !== info.terms.length) {
    throw fqlErrorAt('invalid_argument', link.span, `index \`${link.name}\` has ${info.terms.length} term(s), but ${link.args.length} were given`);
  }
  const terms = link.args.map((arg) => staticValue(arg, variables));
  return {
    collection,
    kind: 'index',
    steps: [],
    consumed: 1,
    index: {
      name: link.name,
      terms,
      termFields: info.terms.map(documentPathOfIndexField),
      valueFields: info.values.map(documentPathOfIndexField),
    },
  };
}

// Implements: ESRC-SET-004
function planSingle(link: Extract<ChainLink, { kind: 'call' }>, resolver: EventSourceResolver, variables: ReadonlyMap<string, Value>): SetStart {
  if (link.args.length !== 1) throw fqlErrorAt('invalid_argument', link.span, '`Set.single()` takes one document');
  const arg = link.args[0] as Expr;
  const docSpec = singleDocument(arg, resolver, variables);
  return { collection: docSpec.collection, kind: 'single', steps: [], consumed: 1, docId: docSpec.id };
}

/** The document of `Set.single(…)`: `Coll.byId(<id>)`, or a document ref passed as a value. */
function singleDocument(arg: Expr, resolver: EventSourceResolver, variables: ReadonlyMap<string, Value>): { collection: string; id: string } {
  if (arg.kind === 'call' && arg.callee.kind === 'member' && arg.callee.name === 'byId' && arg.callee.target.kind === 'identifier') {
    const collection = checkCollection(arg.callee.target.name, arg.callee.target.span, resolver);
    if (arg.args.length !== 1) throw fqlErrorAt('invalid_argument', arg.span, '`byId()` takes one id');
    const id = staticValue(arg.args[0] as Expr, variables);
    if (typeof id === 'string' && /^\d+$/.test(id)) return { collection, id };
    if (typeof id === 'bigint' && id >= 0n) return { collection, id: id.toString() };
    throw fqlErrorAt('invalid_argument', (arg.args[0] as Expr).span, 'a document id is a string of digits or a non-negative integer');
  }
  const value = arg.kind === 'literal' || arg.kind === 'identifier' ? staticValue(arg, variables) : undefined;
  if (value instanceof Ref && value.collection !== undefined) {
    const coll = value.collection;
    const name = coll.collection === undefined
      ? (MODULE_OF_NATIVE_COLLECTION[coll.id as keyof typeof MODULE_OF_NATIVE_COLLECTION] ?? coll.id)
      : coll.id;
    return { collection: checkCollection(name, arg.span, resolver), id: value.id };
  }
  throw fqlErrorAt('invalid_argument', arg.span, '`Set.single()` takes a document, such as `Product.byId("123")`');
}

/** A value known when the source is created: literals, query arguments, arrays and objects of them. */
function staticValue(expr: Expr, variables: ReadonlyMap<string, Value>): Value {
  checkExpression(expr, variables, new Set(), false);
  return evaluate(expr, emptyScope(variables));
}

function whereStep(link: Extract<ChainLink, { kind: 'call' }>, variables: ReadonlyMap<string, Value>): PlanStep {
  return { kind: 'where', fn: functionArgument(link, variables), span: link.span };
}

function functionArgument(link: Extract<ChainLink, { kind: 'call' }>, variables: ReadonlyMap<string, Value>): FqlFunction {
  if (link.args.length !== 1) throw fqlErrorAt('invalid_argument', link.span, `\`${link.name}()\` takes one function`);
  const arg = link.args[0] as Expr;
  const fn = functionFromArgument(arg);
  if (fn === undefined) {
    throw fqlErrorAt('invalid_argument', arg.span, `\`${link.name}()\` takes a function, such as \`x => x.price > 10\` or \`.price > 10\``);
  }
  if (fn.params.length > 1 || (arg.kind === 'lambda' && fn.params.length === 0)) {
    throw fqlErrorAt('invalid_argument', arg.span, `the function passed to \`${link.name}()\` must take exactly one argument`);
  }
  checkExpression(fn.body, variables, new Set(fn.params), fn.params.length === 0);
  return fn;
}

function checkProjection(fields: readonly ProjectionField[], variables: ReadonlyMap<string, Value>): void {
  for (const field of fields) {
    if (field.kind === 'computed') checkExpression(field.value, variables, new Set(), true);
    if (field.kind === 'nested') checkProjection(field.fields, variables);
  }
}

/**
 * Rejects, when the source is created, what evaluation could not do later: unknown names, function calls,
 * nested functions and `.field` without an implicit argument.
 */
function checkExpression(expr: Expr, variables: ReadonlyMap<string, Value>, params: ReadonlySet<string>, implicit: boolean): void {
  const check = (e: Expr): void => checkExpression(e, variables, params, implicit);
  switch (expr.kind) {
    case 'literal':
      return;
    case 'identifier':
      if (!params.has(expr.name) && !variables.has(expr.name)) {
        throw fqlErrorAt('invalid_query', expr.span, `Unbound variable \`${expr.name}\``);
      }
      return;
    case 'implicit-field':
      if (!implicit) {
        throw fqlErrorAt('invalid_query', expr.span, `\`.${expr.name}\` has no implicit argument here; name the lambda parameter instead`);
      }
      return;
    case 'member':
      return check(expr.target);
    case 'index':
      check(expr.target);
      return check(expr.index);
    case 'call': {
      const name = expr.callee.kind === 'member' ? `${expr.callee.name}()` : 'function calls';
      throw fqlErrorAt('invalid_query', expr.span, `\`${name}\` is not supported inside predicates, lambdas and projections by this FQL subset`);
    }
    case 'lambda':
      throw fqlErrorAt('invalid_query', expr.span, 'a function is not allowed here');
    case 'unary':
      return check(expr.operand);
    case 'binary':
      check(expr.left);
      return check(expr.right);
    case 'array':
      return expr.elements.forEach(check);
    case 'object':
      return expr.entries.forEach((entry) => check(entry.value));
    case 'projection':
      check(expr.target);
      for (const field of expr.fields) {
        if (field.kind === 'computed') checkExpression(field.value, variables, params, true);
      }
      return;
  }
}

// Implements: ESRC-ON-001, ESRC-ON-002, ESRC-ON-003
/** The field paths of `eventsOn(.a, .b.c)`; on an index set only the index's terms and values are accepted. */
function eventsOnPaths(link: Extract<ChainLink, { kind: 'call' }>, index: PlanIndex | undefined): string[][] {
  if (link.args.length === 0) throw fqlErrorAt('invalid_argument', link.span, `\`${link.name}()\` needs at least one field, such as \`.price\``);
  const paths = link.args.map((arg) => {
    const path = fieldAccessorPath(arg);
    if (path === undefined) {
      throw fqlErrorAt('invalid_argument', arg.span, `\`${link.name}()\` takes field accessors such as \`.price\` or \`.address.city\``);
    }
    return { path, span: arg.span };
  });
  if (index) {
    const allowed = [...index.termFields, ...index.valueFields];
    for (const { path, span } of paths) {
      if (!allowed.some((field) => samePath(field, path))) {
        const names = allowed.map((f) => `\`.${f.join('.')}\``).join(', ') || 'none';
        throw fqlErrorAt('invalid_argument', span,
          `\`${link.name}()\` on index \`${index.name}\` accepts only the index's terms and values fields (${names}); \`.${path.join('.')}\` is not one of them`);
      }
    }
  }
  return paths.map((p) => p.path);
}

/** `.a.b.c` → `["a", "b", "c"]`; undefined for anything else. */
export function fieldAccessorPath(expr: Expr): string[] | undefined {
  if (expr.kind === 'implicit-field') return [expr.name];
  if (expr.kind === 'member' && !expr.optional) {
    const inner = fieldAccessorPath(expr.target);
    return inner ? [...inner, expr.name] : undefined;
  }
  return undefined;
}
