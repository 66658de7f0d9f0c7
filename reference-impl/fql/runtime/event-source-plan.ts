/**
 * Event sources (SD "Creating an event source: supported sets", "What triggers which event"). A query makes one by
 * calling `eventSource()` or `eventsOn(…)` on a set: a collection's documents, an index's, or one document, with
 * `where`, `map` and projections applied (fauna/faunadb `runtime/fql2/ValueSet.scala` `toEventSourceImpl`). The
 * source is described by an `EventSourceSpec` — the set with its functions and the variables they read — which its
 * token carries; an `EventSourcePlan` answers, for each write, whether and how it is an event.
 */
import { failpoint } from '../../failpoints.js';
import type { Json } from '../../codec/tagged.js';
import { runtimeError } from '../fql-error.js';
import { NO_SPAN, type SourceSpan } from '../source-position.js';
import { readPath } from './documents.js';
import { checkArity, type Interpreter } from './interpreter.js';
import { decodeSet, encodeSet, encodeValue, type GlobalLookup } from './serialize.js';
import { type FqlSet, streamRefusal, type IndexDefinition, type SetOp } from './sets.js';
import { DocRef, isNullish, Lambda, type FqlValue } from './values.js';

export interface EventSourceSpec {
  readonly collection: string;
  readonly kind: 'all' | 'where' | 'index' | 'single';
  /** The source set with its `where`, `map` and projection steps, those called on the event source included. */
  readonly set: FqlSet;
  /** Paths named by `eventsOn(…)`, in document form (`.a.b` → `["a", "b"]`). */
  readonly eventsOn?: readonly (readonly string[])[];
}

export type EventChange = 'add' | 'update' | 'remove' | 'none';

/** What a write is to a source: no event, or an event with its data (the source's functions run once for it). */
export type Relevance = { readonly change: 'none' } | { readonly change: Exclude<EventChange, 'none'>; readonly data: FqlValue };

const IRRELEVANT: Relevance = { change: 'none' };

/** `.a.b.c` (a short-form lambda's body) → `["a", "b", "c"]`; undefined for anything else. */
function fieldPathOf(value: FqlValue): string[] | undefined {
  if (!(value instanceof Lambda) || !value.expr.short) return undefined;
  const path: string[] = [];
  let expr = value.expr.body;
  while (expr.kind === 'member' && !expr.optional) {
    path.unshift(expr.name);
    expr = expr.target;
  }
  return expr.kind === 'this' && path.length > 0 ? path : undefined;
}

function receiverError(method: string, reason: string, span: SourceSpan) {
  return runtimeError('invalid_receiver', span, `can't call \`.${method}()\` because ${reason}`);
}

// Implements: ESRC-SET-001, ESRC-SET-002, ESRC-SET-003, ESRC-SET-004, ESRC-SET-005, ESRC-SET-006, ESRC-ON-001, ESRC-ON-002, ESRC-ON-003
// Implements: ESRC-TRANSFORM-001, ESRC-TRANSFORM-003
/**
 * The event source `set.<method>(…)` makes, or the error the real service gives: a set that is not a collection's,
 * an index's or one document's (or went through another method) is refused `invalid_receiver`; `eventsOn` takes
 * only field paths, only on the source set itself, and on an index only the index's fields.
 */
export function eventSourceOf(
  set: FqlSet,
  method: string,
  args: readonly FqlValue[],
  span: SourceSpan,
  argSpans: readonly SourceSpan[],
): EventSourceSpec {
  const refusal = streamRefusal(set);
  if (refusal !== undefined) throw receiverError(method, refusal, span);
  const source = set.source;
  let collection: string;
  let kind: EventSourceSpec['kind'];
  if (source.kind === 'documents' && source.collection.kind === 'user') {
    collection = source.collection.name;
    kind = set.ops.some((op) => op.kind === 'where') ? 'where' : 'all';
  } else if (source.kind === 'index') {
    collection = source.collection;
    kind = 'index';
  } else if (source.kind === 'single' && source.value instanceof DocRef && source.value.collection.kind === 'user') {
    collection = source.value.collection.name;
    kind = 'single';
  } else {
    throw receiverError(method, 'only collections and user defined indexes are streamable.', span);
  }
  const watching = method === 'eventsOn' || method === 'changesOn';
  if (!watching) {
    checkArity(0, args.length, span);
    return { collection, kind, set };
  }
  if (set.ops.length > 0) throw receiverError(method, 'it was not called on the source set.', span);
  checkArity([1, undefined], args.length, span);
  const paths = args.map((arg, i) => {
    const path = fieldPathOf(arg);
    if (path === undefined)
      throw runtimeError(
        'invalid_argument',
        argSpans[i] ?? span,
        `invalid argument \`fields\`: \`${method}()\` takes field accessors such as \`.price\` or \`.address.city\``,
      );
    return path;
  });
  if (source.kind === 'index') {
    const allowed = [...source.index.terms, ...source.index.values.map((value) => value.path)];
    for (const [i, path] of paths.entries()) {
      if (path.length === 1 && path[0] === 'id') continue;
      if (!allowed.some((field) => samePath(field, path))) {
        const names = allowed.map((field) => `\`.${field.join('.')}\``).join(', ') || 'none';
        throw runtimeError(
          'invalid_argument',
          argSpans[i] ?? span,
          `invalid argument \`fields\`: \`${method}()\` on index \`${source.index.name}\` accepts only the index's terms and values fields (${names}); \`.${path.join('.')}\` is not covered by the \`${source.index.name}\` index.`,
        );
      }
    }
  }
  return { collection, kind, set, eventsOn: paths };
}

// Implements: ESRC-TRANSFORM-002
/** The source after `where(f)` or `map(f)` called on the event source itself (ESRC-TRANSFORM-002, -005). */
export function withStep(spec: EventSourceSpec, op: SetOp): EventSourceSpec {
  const kind = spec.kind === 'all' && op.kind === 'where' ? 'where' : spec.kind;
  return { ...spec, kind, set: spec.set.with(op) };
}

export function encodeEventSourceSpec(spec: EventSourceSpec): Json {
  return {
    c: spec.collection,
    k: spec.kind,
    s: encodeSet(spec.set),
    ...(spec.eventsOn === undefined ? {} : { on: spec.eventsOn.map((p) => [...p]) }),
  };
}

export function decodeEventSourceSpec(json: unknown, globals: GlobalLookup): EventSourceSpec {
  const record = json as Record<string, unknown>;
  const kind = record.k as EventSourceSpec['kind'];
  const on = record.on as string[][] | undefined;
  return { collection: String(record.c), kind, set: decodeSet(record.s, globals), ...(on === undefined ? {} : { eventsOn: on }) };
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class EventSourcePlan {
  constructor(readonly spec: EventSourceSpec) {}

  get collection(): string {
    return this.spec.collection;
  }

  get kind(): EventSourceSpec['kind'] {
    return this.spec.kind;
  }

  get index(): IndexDefinition | undefined {
    return this.spec.set.source.kind === 'index' ? this.spec.set.source.index : undefined;
  }

  /** The document of a single-document source. */
  get docId(): string | undefined {
    const source = this.spec.set.source;
    return source.kind === 'single' && source.value instanceof DocRef ? source.value.id : undefined;
  }

  /** True when events carry a transformed value (map or projection) rather than the document. */
  get transformed(): boolean {
    return this.spec.set.ops.some((op) => op.kind !== 'where');
  }

  /** Fields whose changes the source reacts to: `eventsOn`'s, else an index's terms and values, else all. */
  get watchedFields(): readonly (readonly string[])[] | undefined {
    if (this.spec.eventsOn) return this.spec.eventsOn;
    const index = this.index;
    if (index) return [...index.terms, ...index.values.map((value) => value.path)];
    return undefined;
  }

  // Implements: EVT-TRIGGER-001, EVT-TRIGGER-002, EVT-TRIGGER-003, EVT-TRIGGER-004, EVT-TRIGGER-005, EVT-TRIGGER-006, EVT-TRIGGER-009
  // Implements: EVT-TRIGGER-010, ESRC-ON-001, EVT-FIELD-004
  /**
   * The event a write causes, by the SD trigger table: `before`/`after` are the document before and after the
   * write (null for a create / a delete). A write that changes none of the watched fields causes no event. The
   * event's data is the document it shows (`after`, or `before` for a remove), or the value the source maps or
   * projects it to, from the one run of the source's functions over that document (DEC-151).
   */
  async relevant(rt: Interpreter, before: DocRef | null, after: DocRef | null): Promise<Relevance> {
    // The self-check's fault EVT-INDEX-SOURCE-AS-FILTER runs an index source as a filter: any field change counts.
    const watched = this.spec.set.source.kind === 'index' && failpoint('EVT-INDEX-SOURCE-AS-FILTER') ? undefined : this.watchedFields;
    if (before !== null && after !== null && watched !== undefined) {
      const was = await rt.documents.fields(before, NO_SPAN);
      const is = await rt.documents.fields(after, NO_SPAN);
      const changed = watched.some(
        (path) => JSON.stringify(encodeValue(readPath(was, path))) !== JSON.stringify(encodeValue(readPath(is, path))),
      );
      if (!changed) return IRRELEVANT;
    }
    const was = before === null ? undefined : await this.run(rt, before);
    const is = after === null ? undefined : await this.run(rt, after);
    if (is?.member) return { change: was?.member ? 'update' : 'add', data: is.value };
    if (was?.member) return { change: 'remove', data: was.value };
    return IRRELEVANT;
  }

  // Implements: EVT-TRIGGER-006, EVT-TRIGGER-011
  private async run(rt: Interpreter, doc: DocRef): Promise<{ member: boolean; value: FqlValue }> {
    const source = this.spec.set.source;
    const otherCollection = doc.collection.kind !== 'user' || doc.collection.name !== this.collection;
    if (otherCollection && !failpoint('EVT-OTHER-COLLECTION-LEAKS')) return { member: false, value: doc };
    if (this.docId !== undefined && doc.id !== this.docId) return { member: false, value: doc };
    if (source.kind === 'index' && !(await indexMatches(rt, doc, source.index, source.terms))) return { member: false, value: doc };
    let value: FqlValue = doc;
    for (const op of this.spec.set.ops) {
      if (op.kind === 'where') {
        if (!rt.predicate(await rt.call(op.fn, [value], op.span), op.span)) return { member: false, value };
      } else if (op.kind === 'map') {
        value = await rt.call(op.fn, [value], op.span);
      } else if (op.kind === 'project') {
        value = await rt.project(value, op.fields, op.env, op.span);
      }
    }
    return { member: true, value };
  }
}

/**
 * v4 index semantics: an array field matches any of its elements; a missing field is a null term, except that a
 * document lacking every term field is not in the index at all; `1` does not match `1.0`.
 */
async function indexMatches(rt: Interpreter, doc: DocRef, index: IndexDefinition, terms: readonly FqlValue[]): Promise<boolean> {
  if (index.terms.length === 0) return true;
  const fields = await rt.documents.fields(doc, NO_SPAN);
  const present = index.terms.map((path) => readPath(fields, path));
  if (present.every((v) => isNullish(v))) return false;
  for (const [i, value] of present.entries()) {
    const term = terms[i] as FqlValue;
    const candidates = Array.isArray(value) ? value : [value];
    let any = false;
    for (const candidate of candidates) if (JSON.stringify(encodeValue(candidate)) === JSON.stringify(encodeValue(term))) any = true;
    if (!any) return false;
  }
  return true;
}
