/** Field validation and merging for document and schema-record writes. */
import { createHash } from 'node:crypto';
import { failpoint } from '../failpoints.js';
import { errors, type Position, type ValidationFailure } from '../errors/query-error.js';
import { NO_HIDDEN_FIELDS, type DocumentVersion, type HiddenFields } from '../store/store.js';
import { nameProblem } from '../values/schema-name.js';
import { Time, isObjectValue, setField, type ObjectValue, type Value } from '../values/value.js';
import { typeName } from './arguments.js';
import type { EvalContext } from './context.js';

export function typeFailure(field: string, expected: string, value: Value): ValidationFailure {
  return { field: [field], code: 'invalid type', description: `Invalid type ${typeName(value)}, expected type ${expected}.` };
}

// Implements: UDF-CREATE-005
/** `name` of a schema record: required, a valid name (DEC-049). */
export function nameFailures(params: ObjectValue): ValidationFailure[] {
  const name = params.name;
  if (name === undefined || name === null) return [{ field: ['name'], code: 'value required', description: 'Required value not found.' }];
  if (typeof name !== 'string') return [typeFailure('name', 'String', name)];
  const problem = nameProblem(name);
  return problem === undefined ? [] : [{ field: ['name'], ...problem }];
}

export function throwIfFailures(failures: ValidationFailure[], position: Position): void {
  if (failures.length > 0) throw errors.validationFailed(failures, position);
}

// Implements: DOC-UPDATE-001, DOC-UPDATE-002, DOC-UPDATE-003, DOC-UPDATE-006
/**
 * Deep merge as Update does it: objects merge recursively, `null` removes a field, anything else replaces (with the
 * nulls inside it dropped, as `withoutNulls`).
 */
export function mergeObjects(base: ObjectValue, patch: ObjectValue): ObjectValue {
  const out: ObjectValue = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const before = out[key];
    if (value === null) {
      if (!failpoint('DOC-UPDATE-NULL-IGNORED')) delete out[key];
    } else if (isObjectValue(value) && isObjectValue(before) && !failpoint('DOC-UPDATE-SHALLOW-MERGE'))
      setField(out, key, mergeObjects(before, value));
    else if (Array.isArray(value) && Array.isArray(before) && value.length < before.length && failpoint('DOC-UPDATE-ARRAYS-MERGED'))
      setField(out, key, [...(withoutNullsIn(value) as Value[]), ...before.slice(value.length)]);
    else setField(out, key, withoutNullsIn(value));
  }
  return out;
}

/**
 * Drops nulls at any depth, as the real service patches what it stores (fauna/faunadb `doc/Data.scala` `patch`;
 * DEC-006): a null field is not stored (a Create/Replace with `x: null` stores no `x`), and neither is a null element
 * of an array (`[1, null, 2]` is stored as `[1, 2]`). Anything without nulls is returned itself rather than copied
 * (values are never mutated once built), so a stored document holds no second copy.
 */
export function withoutNulls(object: ObjectValue): ObjectValue {
  return holdsNull(object) ? copyWithoutNulls(object) : object;
}

function withoutNullsIn(value: Value): Value {
  if (Array.isArray(value)) return holdsNull(value) && !failpoint('NULLS-KEPT-IN-ARRAYS') ? copyArrayWithoutNulls(value) : value;
  return isObjectValue(value) ? withoutNulls(value) : value;
}

function holdsNull(container: ObjectValue | readonly Value[]): boolean {
  if (Array.isArray(container)) {
    for (const value of container) if (value === null || ((Array.isArray(value) || isObjectValue(value)) && holdsNull(value))) return true;
    return false;
  }
  for (const key in container) {
    const value = (container as ObjectValue)[key] as Value;
    if (value === null || ((Array.isArray(value) || isObjectValue(value)) && holdsNull(value))) return true;
  }
  return false;
}

function copyWithoutNulls(object: ObjectValue): ObjectValue {
  const out: ObjectValue = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === null) continue;
    setField(out, key, withoutNullsIn(value));
  }
  return out;
}

function copyArrayWithoutNulls(array: readonly Value[]): Value[] {
  const out: Value[] = [];
  for (const value of array) if (value !== null) out.push(withoutNullsIn(value));
  return out;
}

export type WriteMode = 'create' | 'update' | 'replace';

// Implements: DOC-TTL-010, DOC-TTL-011, DOC-CREATE-006, DOC-CREATE-008, DOC-CREATE-009, DOC-CRED-001, DOC-CRED-002
// Implements: DOC-CRED-003, DOC-REPLACE-001, DOC-UPDATE-001, AUTH-PASSWORD-001, AUTH-PASSWORD-002, AUTH-PASSWORD-003
// Implements: AUTH-PASSWORD-004, AUTH-PASSWORD-005, AUTH-PASSWORD-006
/**
 * The stored fields of a user document from Create/Update/Replace params: `data` (object), `ttl` (time),
 * and `credentials.password`, which goes only to the hidden BCrypt hash. Other keys are ignored.
 */
export function userDocumentFields(
  ctx: EvalContext,
  params: ObjectValue,
  mode: WriteMode,
  existing: DocumentVersion | undefined,
  position: Position,
): StoredFields | Promise<StoredFields> {
  const failures: ValidationFailure[] = [];
  const data = params.data;
  const ttl = mode === 'update' && failpoint('AUTH-TOKEN-TTL-IGNORED') ? undefined : params.ttl;
  const ignored = mode === 'create' ? failpoint('AUTH-PASSWORD-IGNORED-ON-CREATE') : failpoint('AUTH-PASSWORD-CHANGE-IGNORED');
  let credentials = ignored ? undefined : params.credentials;
  const dropped =
    mode === 'update' ? failpoint('AUTH-UPDATE-DROPS-PASSWORD') : mode === 'replace' && failpoint('AUTH-REPLACE-DROPS-PASSWORD');
  if (credentials === undefined && dropped) credentials = null;
  if (data !== undefined && data !== null && !isObjectValue(data) && !failpoint('DOC-NON-OBJECT-DATA-DROPPED'))
    failures.push(typeFailure('data', 'Object', data));
  if (ttl !== undefined && ttl !== null && !(ttl instanceof Time) && !failpoint('DOC-TTL-TYPE-UNCHECKED'))
    failures.push(typeFailure('ttl', 'Time', ttl));
  let password: string | null | undefined;
  if (credentials !== undefined && credentials !== null) {
    if (!isObjectValue(credentials)) failures.push(typeFailure('credentials', 'Object', credentials));
    else {
      const pw = credentials.password;
      if (pw !== undefined && pw !== null && typeof pw !== 'string') {
        const failure = {
          field: ['credentials', 'password'],
          code: 'invalid type',
          description: `Invalid type ${typeName(pw)}, expected type String.`,
        };
        if (failpoint('AUTH-PASSWORD-COERCED')) password = String(pw);
        // A server that stores the document before it finds the password invalid, and answers the failure anyway.
        else if (mode === 'create' && failpoint('AUTH-PASSWORD-INVALID-STILL-CREATES'))
          ctx.txn.failAfterCommit ??= errors.validationFailed([failure], position);
        else failures.push(failure);
      } else password = pw;
    }
  } else if (credentials === null) password = null;
  throwIfFailures(failures, position);

  let fields: ObjectValue;
  if (mode === 'update') {
    const previous = existing?.fields ?? {};
    fields = { ...previous };
    if (isObjectValue(data)) fields.data = mergeObjects(isObjectValue(previous.data) ? (previous.data as ObjectValue) : {}, data);
    else if (data === null) delete fields.data;
    if (ttl instanceof Time) fields.ttl = ttl;
    else if (ttl === null && !failpoint('DOC-TTL-NULL-IGNORED')) delete fields.ttl;
  } else {
    // Literals sized to their fields: an empty literal filled in reserves four slots (24 bytes more per document).
    const stored = isObjectValue(data) ? (mode === 'create' && failpoint('DOC-CREATE-KEEPS-NULLS') ? data : withoutNulls(data)) : {};
    fields = ttl instanceof Time ? { data: stored, ttl } : { data: stored };
  }
  const previous = existing?.hidden ?? NO_HIDDEN_FIELDS;
  // Only a password makes this wait (for its hash): the fields are ready at once otherwise.
  if (typeof password === 'string' && failpoint('AUTH-PASSWORD-SHA256'))
    fields.hashed_password = createHash('sha256').update(password).digest('hex');
  if (typeof password === 'string')
    return ctx.services.hashPassword(password).then((hash) => ({ fields, hidden: withCredentialsHash(previous, hash) }));
  return { fields, hidden: withCredentialsHash(previous, password === null ? undefined : previous.credentialsHash) };
}

/** A document's stored fields and hidden fields, as a write takes them. */
export interface StoredFields {
  fields: ObjectValue;
  hidden: HiddenFields;
}

/** `hidden` with its credentials hash set or removed; unchanged fields are shared, not copied (most have none). */
function withCredentialsHash(hidden: HiddenFields, credentialsHash: string | undefined): HiddenFields {
  if (hidden.credentialsHash === credentialsHash) return hidden;
  const { credentialsHash: _previous, ...rest } = hidden;
  if (credentialsHash !== undefined) return { ...rest, credentialsHash };
  return Object.keys(rest).length === 0 ? NO_HIDDEN_FIELDS : rest;
}

/** Stored fields of a schema record after Update (merge) or Replace (the new params, nulls dropped). */
/** Fields a Replace of a schema record keeps from the record it replaces, unless given (DEC-060). */
const KEPT_BY_REPLACE: Readonly<Record<string, readonly string[]>> = {
  collections: ['name', 'history_days'],
  databases: ['name'],
  indexes: ['name', 'unique'],
  roles: ['name'],
  functions: ['name'],
  access_providers: ['name'],
  keys: ['hashed_secret'],
};

// Implements: UDF-RECORD-005, DB-LIFE-009, COLL-LIFE-005, COLL-LIFE-007
export function schemaRecordFields(
  params: ObjectValue,
  mode: 'update' | 'replace',
  existing: DocumentVersion,
  collection: string,
): ObjectValue {
  if (mode === 'update') return mergeObjects(existing.fields, params);
  const kept: ObjectValue = {};
  for (const field of KEPT_BY_REPLACE[collection] ?? []) if (existing.fields[field] !== undefined) kept[field] = existing.fields[field]!;
  return withoutNulls({ ...kept, ...params });
}
