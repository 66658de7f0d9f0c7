/**
 * The v4 API versions a request may name in `X-FaunaDB-API-Version`, and the wording each answers in: results and
 * errors differ by version (wire-facts §1.2), so every renderer asks here.
 */
import { ProtocolError } from '../errors/query-error.js';

/** Oldest first, so that order compares versions. */
const API_VERSIONS = ['2.0', '2.1', '2.7', '2.12', '3', '4', '5', 'UNSTABLE'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
/** Without the header the real service answers as API 2.1 (`class`/`instance` wording). */
export const DEFAULT_API_VERSION: ApiVersion = '2.1';

// Implements: PROTO-VERSION-006, PROTO-VERSION-009
/** The header's version; an unknown one is refused rather than answered in a wording the client did not ask for. */
export function parseApiVersion(header: string | undefined): ApiVersion {
  if (header === undefined) return DEFAULT_API_VERSION;
  const value = header.trim();
  const upper = value.toUpperCase();
  const found = API_VERSIONS.find((v) => v === upper);
  if (found) return found;
  throw new ProtocolError(400, 'bad request', `Invalid header 'x-faunadb-api-version': Unsupported or invalid API version '${value}'.`);
}

/** True when `version` is `minimum` or newer. */
export function apiAtLeast(version: ApiVersion, minimum: ApiVersion): boolean {
  return API_VERSIONS.indexOf(version) >= API_VERSIONS.indexOf(minimum);
}

/** The words that changed in 2.7 (class → collection, instance → document). */
export interface Wording {
  /** Key naming a ref's parent collection: `collection` (≥ 2.7) or `class`. */
  collectionKey: 'collection' | 'class';
  /** Key naming an event's document: `document` (≥ 2.7) or `instance`. */
  documentKey: 'document' | 'instance';
}

// Implements: PROTO-VERSION-001, PROTO-VERSION-003
const WORDINGS: Readonly<Record<ApiVersion, Wording>> = Object.fromEntries(
  API_VERSIONS.map((v) => [
    v,
    apiAtLeast(v, '2.7') ? { collectionKey: 'collection', documentKey: 'document' } : { collectionKey: 'class', documentKey: 'instance' },
  ]),
) as Record<ApiVersion, Wording>;

/** The words `version` answers with; made once per version, since every rendered ref asks. */
export function wording(version: ApiVersion): Wording {
  return WORDINGS[version];
}

/** The version of a lambda that does not say its own (fauna/faunadb `APIVersion.LambdaDefaultVersion`, DEC-136). */
export const LAMBDA_DEFAULT_API_VERSION = '2.12';

/** Whether an API version (one the server knows, or a stored lambda's) is later than 2.12: such lambdas show theirs. */
export function laterThanLambdaDefault(version: string): boolean {
  const known = API_VERSIONS.indexOf(version.toUpperCase() as ApiVersion);
  return known >= 0 ? known > API_VERSIONS.indexOf('2.12') : Number.parseFloat(version) >= 3;
}
