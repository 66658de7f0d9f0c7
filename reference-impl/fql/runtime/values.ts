/**
 * Values of FQL v10 evaluation. Plain data (null, booleans, strings, 64-bit integers as `bigint`, doubles as
 * `number`, times, dates, bytes, arrays, objects) is the shared value model's; the v10 kinds that have no v4 form
 * are the classes below: documents (references, read when used), nulls that remember why they are null, sets,
 * functions, modules (`Collection`, `Time`, a user collection `Product`, …) and event sources.
 */
import { MODULE_OF_NATIVE_COLLECTION, NAMED_NATIVE_COLLECTIONS } from '../../codec/tagged.js';
import type { DocumentVersion } from '../../store/store.js';
import { Bytes, DateValue, isObjectValue, Time } from '../../values/value.js';
import type { LambdaExpr } from '../ast.js';
import type { SourceSpan } from '../source-position.js';
import type { EventSourceSpec } from './event-source-plan.js';
import type { FqlSet } from './sets.js';

/** The shared value model's plain data, which every value encoding writes as it is. */
export type PlainData = null | boolean | string | bigint | number | Time | DateValue | Bytes;

export type FqlValue = PlainData | FqlValue[] | FqlObject | DocRef | NullWithCause | FqlSet | FqlCallable | FqlModule | EventSourceValue;

export interface FqlObject {
  [field: string]: FqlValue;
}

/** A user collection by name, or a native one (`collections`, `databases`, `keys`, …) by its store name. */
export type CollectionHandle = { readonly kind: 'user'; readonly name: string } | { readonly kind: 'native'; readonly native: string };

/** v10 module names of the native collections a document can belong to (the codec's table, by any store name). */
export const NATIVE_MODULES: Readonly<Record<string, string>> = MODULE_OF_NATIVE_COLLECTION;

export function moduleNameOf(collection: CollectionHandle): string {
  return collection.kind === 'user' ? collection.name : (NATIVE_MODULES[collection.native] ?? collection.native);
}

/** A document: its collection and id (its name, for named native collections). Read when a field is asked for. */
export class DocRef {
  constructor(
    readonly collection: CollectionHandle,
    readonly id: string,
    /** A version fixed in advance (an event's document before or after its write), read instead of the store. */
    readonly pinned?: DocumentVersion,
  ) {}

  get named(): boolean {
    return this.collection.kind === 'native' && NAMED_NATIVE_COLLECTIONS.has(this.collection.native);
  }

  equals(other: DocRef): boolean {
    return (
      this.id === other.id &&
      moduleNameOf(this.collection) === moduleNameOf(other.collection) &&
      this.collection.kind === other.collection.kind
    );
  }
}

/** Why a value is null: a document that does not exist, or a null that came from somewhere named. */
export type NullCause =
  | { readonly kind: 'missing-document'; readonly doc: DocRef }
  | { readonly kind: 'no-value'; readonly span?: SourceSpan };

/** A null that remembers its cause, so that `!`, field access and rendering say what is missing. */
export class NullWithCause {
  constructor(readonly cause: NullCause) {}
}

/** A function value: a lambda with its closure, or one of the server's own. */
export type FqlCallable = Lambda | NativeFunction;

/** Lexical variables (query arguments, `let`, lambda parameters) and the implicit argument `this`; immutable. */
export class Env {
  static readonly EMPTY = new Env(new Map());

  private constructor(
    private readonly vars: ReadonlyMap<string, FqlValue>,
    private readonly parent?: Env,
    readonly self?: { readonly value: FqlValue },
  ) {}

  static of(vars: ReadonlyMap<string, FqlValue>): Env {
    return new Env(vars);
  }

  lookup(name: string): FqlValue | undefined {
    for (let env: Env | undefined = this; env; env = env.parent) {
      if (env.vars.has(name)) return env.vars.get(name);
    }
    return undefined;
  }

  with(name: string, value: FqlValue): Env {
    return new Env(new Map([[name, value]]), this, this.self);
  }

  withAll(vars: ReadonlyMap<string, FqlValue>): Env {
    return new Env(vars, this, this.self);
  }

  withThis(value: FqlValue): Env {
    return new Env(new Map(), this, { value });
  }
}

export class Lambda {
  constructor(
    readonly expr: LambdaExpr,
    /** Where it was written: the variables its body reads. */
    readonly closure: Env,
  ) {}

  get arity(): number | undefined {
    return this.expr.short ? 1 : this.expr.params.length;
  }
}

export type NativeImplementation = (args: readonly FqlValue[], call: NativeCall) => FqlValue | Promise<FqlValue>;

/** Where a native function is called from, for its errors. */
export interface NativeCall {
  readonly span: SourceSpan;
  readonly argSpans: readonly SourceSpan[];
}

export class NativeFunction {
  constructor(
    /** How it is named in messages, e.g. `concat` or `Time`. */
    readonly name: string,
    readonly implementation: NativeImplementation,
  ) {}
}

/**
 * A module: a named object of functions (`Time`, `Math`, `Set`, `Collection`, `Database`, …) or a user collection
 * (`Product`), which is also the collection's definition document.
 */
export class FqlModule {
  constructor(
    readonly name: string,
    /** Set for a user collection's module. */
    readonly collection?: string,
  ) {}
}

/** An event source created by `eventSource()`/`eventsOn()`: its token is made when the answer is rendered. */
export class EventSourceValue {
  constructor(
    readonly token: string,
    readonly collection: string,
    /** What the source is, for `where()`/`map()` called on it (a new source, a new token). */
    readonly spec: EventSourceSpec,
  ) {}
}

export function isNullish(value: FqlValue): value is null | NullWithCause {
  return value === null || value instanceof NullWithCause;
}

export function isFqlObject(value: FqlValue | undefined): value is FqlObject {
  return isObjectValue(value as never);
}

/** The type name the real service uses in messages (`Int`, `String`, `Array`, `{ *: Any }`…). */
export function typeNameOf(value: FqlValue): string {
  if (value === null || value instanceof NullWithCause) return 'Null';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'bigint') return value >= -(2n ** 31n) && value < 2n ** 31n ? 'Int' : 'Long';
  if (typeof value === 'number') return 'Double';
  if (value instanceof Time) return 'Time';
  if (value instanceof DateValue) return 'Date';
  if (value instanceof Bytes) return 'Bytes';
  if (Array.isArray(value)) return 'Array';
  if (value instanceof DocRef) return value.collection.kind === 'user' ? value.collection.name : moduleNameOf(value.collection);
  if (value instanceof Lambda || value instanceof NativeFunction) return 'Function';
  if (value instanceof FqlModule) return value.collection !== undefined ? `${value.name}Collection` : value.name;
  if (value instanceof EventSourceValue) return `EventSource<${value.collection}>`;
  if (isFqlObject(value)) return '{ *: Any }';
  return 'Set';
}
