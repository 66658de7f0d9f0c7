/** Argument type checks shared by forms; each failure is `invalid argument` at the argument's position. */
import { QueryError, type Position } from '../errors/query-error.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, isObjectValue, type ObjectValue, type Value } from '../values/value.js';

/** The type name the service uses in messages. */
export function typeName(value: Value): string {
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'bigint') return 'Integer';
  if (typeof value === 'number') return 'Double';
  if (Array.isArray(value)) return 'Array';
  if (value instanceof Ref) return 'Ref';
  if (value instanceof SetRef) return 'Set';
  if (value instanceof Time) return 'Time';
  if (value instanceof DateValue) return 'Date';
  if (value instanceof Bytes) return 'Bytes';
  if (value instanceof QueryValue) return 'Lambda';
  return 'Object';
}

function wrongType(expected: string, value: Value, position: Position): QueryError {
  return new QueryError('invalid argument', `${expected} expected, ${typeName(value)} provided.`, position);
}

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
