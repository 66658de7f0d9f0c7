/**
 * The reference server's in-memory value model, shared by every layer.
 *
 * Integers and decimals are distinct types on the wire (`1` vs `1.0`) and in index order, so integers are
 * `bigint` (64-bit longs) and decimals are `number`. Objects are plain records; every other special value is
 * a class instance so that a plain object can never be mistaken for one.
 */
export type Value =
  | null
  | boolean
  | string
  | bigint
  | number
  | Value[]
  | ObjectValue
  | Ref
  | SetRef
  | Time
  | DateValue
  | Bytes
  | QueryValue;

export interface ObjectValue {
  [field: string]: Value;
}

/** Names of the native (system) collections; a ref whose `collection` is absent is one of these or a schema ref's parent. */
export const NATIVE_COLLECTIONS = [
  'collections',
  'indexes',
  'databases',
  'keys',
  'tokens',
  'credentials',
  'roles',
  'functions',
  'access_providers',
] as const;
export type NativeCollectionName = (typeof NATIVE_COLLECTIONS)[number];

/**
 * A reference. A document ref is `Ref(id, Ref(collectionName, Ref('collections')))`; a native collection is
 * `Ref('collections')` (no parent). `database` scopes the ref to a child database of the current one.
 */
export class Ref {
  /** The wire text the codec last built for this ref (private, so structural comparisons never see it). */
  #wireText: string | undefined;

  constructor(
    readonly id: string,
    readonly collection?: Ref,
    readonly database?: Ref,
  ) {}

  /**
   * The ref's text in the codec's current wording, built once: a Ref is immutable, and stored refs (a listed
   * document's, a collection's) are rendered on every request that returns them.
   */
  wireText(build: (ref: Ref) => string): string {
    this.#wireText ??= build(this);
    return this.#wireText;
  }

  equals(other: Ref): boolean {
    if (this.id !== other.id) return false;
    if (!sameOptionalRef(this.collection, other.collection)) return false;
    return sameOptionalRef(this.database, other.database);
  }

  /** The path form used by the short `@ref` string, e.g. `collections/users/123`. */
  toPath(): string {
    return this.collection ? `${this.collection.toPath()}/${this.id}` : this.id;
  }
}

/**
 * Whether `v` names a collection: a user collection, `Ref(name, Ref('collections'))`, or a native one such as
 * `Ref('keys')` (no parent).
 */
export function isCollectionRef(v: Value | undefined): v is Ref {
  if (!(v instanceof Ref)) return false;
  if (v.collection === undefined) return true;
  return v.collection.id === 'collections' && v.collection.collection === undefined;
}

/** Whether a ref, or the collection it is in, carries a database scope (names something of another database). */
export function hasDatabaseScope(ref: Ref): boolean {
  for (let r: Ref | undefined = ref; r !== undefined; r = r.collection) if (r.database !== undefined) return true;
  return false;
}

function sameOptionalRef(a: Ref | undefined, b: Ref | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.equals(b);
}

/** A set reference: its structure (for example `{match: Ref, terms: …}`) is its identity. */
export class SetRef {
  constructor(readonly structure: ObjectValue) {}
}

/** A timestamp with nanosecond precision, counted from the Unix epoch. */
export class Time {
  constructor(readonly epochNanos: bigint) {}

  static fromMicros(micros: bigint): Time {
    return new Time(micros * 1000n);
  }

  get micros(): bigint {
    return this.epochNanos / 1000n;
  }
}

/** A calendar date, counted in days from 1970-01-01. */
export class DateValue {
  constructor(readonly epochDays: number) {}
}

export class Bytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** A stored lambda (`@query`): the lambda's parameter(s) and body, kept in wire form. */
export class QueryValue {
  constructor(
    readonly lambda: string | string[],
    readonly expr: unknown,
    readonly apiVersion?: string,
  ) {}
}

/** Sets an own field, also one named `__proto__` (plain assignment would change the object's prototype instead). */
export function setField<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Documents read back from the store (`{ref, ts, ...fields}` as Get returns them), each mapped to the stored
 * fields object it was spread from. Values are never mutated and stored fields never change, so a codec may
 * render a stored fields object once and reuse its text for every later read of that version. (Only reads
 * register: a document rendered once, as a Create's result, would only add a cache entry per document.)
 */
const storedFieldsOf = new WeakMap<ObjectValue, ObjectValue>();

/** `{ref, ts, ...fields}` of a stored version read back, remembered as built from `fields`. */
export function readDocumentObject(ref: Ref, ts: bigint, fields: ObjectValue): ObjectValue {
  const document: ObjectValue = { ref, ts, ...fields };
  storedFieldsOf.set(document, fields);
  return document;
}

/** The stored fields object `document` was built from by `readDocumentObject`, if it was. */
export function storedFields(document: ObjectValue): ObjectValue | undefined {
  return storedFieldsOf.get(document);
}

export function isObjectValue(v: Value | undefined): v is ObjectValue {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
