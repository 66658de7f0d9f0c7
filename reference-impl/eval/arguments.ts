/** Argument type checks shared by forms; each failure is `invalid argument` at the argument's position. */
import { QueryError, type Position } from '../errors/query-error.js';
import { orderedTypeOf, type OrderedType } from '../indexes/value-order.js';
import { Ref, Time, isObjectValue, type ObjectValue, type Value } from '../values/value.js';

const TYPE_NAMES: Record<OrderedType, string> = {
  null: 'Null',
  boolean: 'Boolean',
  string: 'String',
  integer: 'Integer',
  decimal: 'Double',
  array: 'Array',
  ref: 'Ref',
  set: 'Set',
  time: 'Time',
  date: 'Date',
  bytes: 'Bytes',
  query: 'Lambda',
  object: 'Object',
};

/** The type name the service uses in messages. */
export function typeName(value: Value): string {
  return TYPE_NAMES[orderedTypeOf(value)];
}

const REF_TYPE_NAMES: Readonly<Record<string, string>> = {
  collections: 'Collection Ref',
  indexes: 'Index Ref',
  databases: 'Database Ref',
  keys: 'Key Ref',
  functions: 'User Function Ref',
};

// Implements: FN-NUM-007
/** The type name the real service gives a value in `invalid argument` descriptions; refs are named by what they designate. */
export function argumentTypeName(value: Value): string {
  if (!(value instanceof Ref)) return typeName(value);
  const parent = value.collection;
  // A native collection (`Collections()`, `Keys()`, …) is itself a collection.
  if (parent === undefined) return 'Collection Ref';
  if (parent.collection === undefined) return REF_TYPE_NAMES[parent.id] ?? 'Ref';
  return 'Ref';
}

function wrongType(expected: string, value: Value, position: Position): QueryError {
  return new QueryError('invalid argument', `${expected} expected, ${typeName(value)} provided.`, position);
}

// Implements: PROTO-BODY-004
export function expectString(value: Value, position: Position): string {
  if (typeof value !== 'string') throw wrongType('String', value, position);
  return value;
}

export function expectBoolean(value: Value, position: Position): boolean {
  if (typeof value !== 'boolean') throw wrongType('Boolean', value, position);
  return value;
}

export function expectInteger(value: Value, position: Position): bigint {
  if (typeof value !== 'bigint') throw wrongType('Integer', value, position);
  return value;
}

export function expectObject(value: Value, position: Position): ObjectValue {
  if (!isObjectValue(value)) throw wrongType('Object', value, position);
  return value;
}

export function expectArray(value: Value, position: Position): Value[] {
  if (!Array.isArray(value)) throw wrongType('Array', value, position);
  return value;
}

export function expectRef(value: Value, position: Position): Ref {
  if (!(value instanceof Ref)) throw wrongType('Ref', value, position);
  return value;
}

/** A timestamp argument: a Time, or an integer of microseconds. */
export function expectTimestampMicros(value: Value, position: Position): bigint {
  if (value instanceof Time) return value.micros;
  if (typeof value === 'bigint') return value;
  throw wrongType('Time or Integer', value, position);
}
