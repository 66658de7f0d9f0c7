/**
 * The write limits of the real service (DEC-070): a document version whose encoding passes 8,388,608 bytes
 * (fauna/faunadb `Write.VersionBytesThreshold`) and a transaction whose writes pass 16 MiB
 * (`CoreConfig.transaction_max_size_bytes`) are refused with 400 `bad request`. Here a version's size is its fields'
 * JSON text in UTF-8, counted only until it passes the limit: a value that shares its parts (Reduce nesting
 * `[acc, acc]`) is small in memory but exponential as text, and is refused without being walked whole.
 */
import { ProtocolError } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import { Bytes, DateValue, QueryValue, Ref, SetRef, Time, type ObjectValue, type Value } from '../values/value.js';

export const MAX_VERSION_BYTES = 8_388_608;
export const MAX_TRANSACTION_BYTES = 16 * 1024 * 1024;

/** Bytes of a ref's text: its id, its collection's and database's, and the tags around them. */
function refBytes(ref: Ref): number {
  let bytes = 0;
  for (let at: Ref | undefined = ref; at !== undefined; at = at.collection)
    bytes += at.id.length + 24 + (at.database === undefined ? 0 : refBytes(at.database));
  return bytes;
}

/** Counts `value`'s bytes onto `counted`, stopping once the total passes `limit`; answers the total reached. */
function addValueBytes(value: Value, counted: number, limit: number): number {
  if (counted > limit) return counted;
  if (typeof value === 'string') return counted + Buffer.byteLength(value, 'utf8') + 2;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' || value === null)
    return counted + String(value).length;
  if (Array.isArray(value)) {
    let total = counted + 2 + Math.max(0, value.length - 1);
    for (const item of value) {
      total = addValueBytes(item, total, limit);
      if (total > limit) return total;
    }
    return total;
  }
  if (value instanceof Ref) return counted + refBytes(value);
  if (value instanceof SetRef) return addValueBytes(value.structure, counted + 9, limit);
  if (value instanceof Time || value instanceof DateValue) return counted + 40;
  if (value instanceof Bytes) return counted + Math.ceil(value.bytes.length / 3) * 4 + 12;
  if (value instanceof QueryValue) return addRawBytes(value.expr, addRawBytes(value.lambda, counted + 24, limit), limit);
  return addFieldsBytes(value, counted, limit);
}

/** The same for a lambda's body, kept as the wire JSON it was sent as (integers as bigints). */
function addRawBytes(raw: unknown, counted: number, limit: number): number {
  if (counted > limit) return counted;
  if (typeof raw === 'string') return counted + Buffer.byteLength(raw, 'utf8') + 2;
  if (raw === null || typeof raw !== 'object') return counted + String(raw).length;
  let total = counted + 1;
  for (const [key, item] of Object.entries(raw)) {
    // One punctuation mark per item (its comma, or the closing bracket after the last), and an object's `"key":`.
    total = addRawBytes(item, total + 1 + (Array.isArray(raw) ? 0 : Buffer.byteLength(key, 'utf8') + 3), limit);
    if (total > limit) return total;
  }
  return total;
}

function addFieldsBytes(fields: ObjectValue, counted: number, limit: number): number {
  let total = counted + 2;
  let separators = 0;
  for (const key in fields) {
    total = addValueBytes(fields[key]!, total + separators + Buffer.byteLength(key, 'utf8') + 3, limit);
    separators = 1;
    if (total > limit) return total;
  }
  return total;
}

// Implements: LIMIT-WRITE-001
/**
 * The bytes of a version with `fields`, refused with 400 `bad request` past MAX_VERSION_BYTES. The count past the
 * limit is where counting stopped, so the message gives at least how large the version is.
 */
export function checkedVersionBytes(fields: ObjectValue): number {
  const bytes = addFieldsBytes(fields, 0, MAX_VERSION_BYTES);
  if (bytes > MAX_VERSION_BYTES || (bytes > MAX_VERSION_BYTES / 2 && failpoint('WRITE-VERSION-LIMIT-TOO-LOW')))
    throw versionTooLarge(bytes);
  versionSizes.set(fields, bytes);
  return bytes;
}

/**
 * The size of a stored version's fields by the same measure, the basis of `x-storage-bytes-read` (DEC-131). A
 * version's fields never change once written, so the size is counted once per fields object: when it was written
 * here, else (a version loaded from disk) when first read.
 */
export function storedVersionBytes(fields: ObjectValue): number {
  let bytes = versionSizes.get(fields);
  if (bytes === undefined) {
    bytes = addFieldsBytes(fields, 0, MAX_VERSION_BYTES);
    versionSizes.set(fields, bytes);
  }
  return bytes;
}

const versionSizes = new WeakMap<ObjectValue, number>();

/** The refusal of a version of (at least) `bytes` bytes. */
export function versionTooLarge(bytes: number): ProtocolError {
  return new ProtocolError(400, 'bad request', `Version bytes (${bytes}) exceeds threshold (${MAX_VERSION_BYTES})`);
}

// Implements: LIMIT-WRITE-002
/** Refuses a transaction whose writes come to `bytes`, past MAX_TRANSACTION_BYTES. */
export function checkTransactionBytes(bytes: number): void {
  if (bytes > MAX_TRANSACTION_BYTES && !failpoint('WRITE-TRANSACTION-LIMIT-UNCHECKED'))
    throw new ProtocolError(400, 'bad request', `Transaction exceeded limit: got ${bytes} bytes, limit ${MAX_TRANSACTION_BYTES} bytes`);
}
