/**
 * The v4 error bodies (`{"errors": [...]}`), worded as the request's API version words them.
 */
import type { QueryError } from '../errors/query-error.js';
import type { V4ProtocolError, V4QueryError, V4QueryErrorItem } from '../../schemas/types.js';
import { failpoint } from '../failpoints.js';
import { apiAtLeast, type ApiVersion } from './api-version.js';

/** The errors' body, worded for `apiVersion` (the 2.7+ wording when none is given). */
export function renderQueryErrors(errors: readonly [QueryError, ...QueryError[]], apiVersion?: ApiVersion): string {
  const [first, ...rest] = errors;
  const newer = apiVersion === undefined || apiAtLeast(apiVersion, '2.7') || failpoint('ERROR-WORDING-IGNORES-VERSION');
  const worded = newer ? (description: string) => description : classWording;
  const item = (error: QueryError) => errorObject(error, worded);
  const body: V4QueryError = { errors: [item(first), ...rest.map(item)] };
  return JSON.stringify(body);
}

// Implements: PROTO-ERROR-001, PROTO-ERROR-005
function errorObject(error: QueryError, worded: (description: string) => string): V4QueryErrorItem {
  const out: V4QueryErrorItem = { position: error.position, code: error.code, description: worded(error.description) };
  // Failure paths go out as strings, list indexes too, as the real service writes them (DEC-046); `position` keeps numbers.
  const step = failpoint('FAILURE-PATH-INDEX-NUMBERS') ? (s: string | number) => (/^\d+$/.test(String(s)) ? Number(s) : s) : String;
  if (error.failures) out.failures = error.failures.map((failure) => ({ ...failure, field: failure.field.map(step) }));
  if (error.cause) out.cause = error.cause.map((cause) => errorObject(cause, worded));
  return out;
}

/** 2.7+ descriptions that the real service words with class and instance below 2.7 (`RenderError.encodeErrors`, DEC-019). */
const CLASS_WORDING: Readonly<Record<string, string>> = {
  'Document not found.': 'Instance not found.',
  'Collection not found.': 'Class not found.',
  'Document already exists.': 'Instance already exists.',
  'Collection already exists.': 'Class already exists.',
  'document data is not valid.': 'instance data is not valid.',
  'The document was not found or provided password was incorrect.': 'The instance was not found or provided password was incorrect.',
};
const UNDEFINED_COLLECTION = /^Ref refers to undefined collection '(.*)'$/s;

function classWording(description: string): string {
  const older = CLASS_WORDING[description];
  if (older !== undefined) return older;
  const undefinedCollection = UNDEFINED_COLLECTION.exec(description);
  return undefinedCollection === null ? description : `Ref refers to undefined class '${undefinedCollection[1]}'`;
}

// Implements: PROTO-ERROR-004
/** A protocol error body: no position. */
export function renderProtocolError(code: string, description: string): string {
  const body: V4ProtocolError = { errors: [{ code, description }] };
  return JSON.stringify(body);
}
