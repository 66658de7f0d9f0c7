/**
 * Request parameter headers (DEC-063), query tags and `x-format` (DEC-066), checked as the real service checks them
 * (fauna/faunadb `RequestParams.scala`, `QueryLogTags.fromHTTPHeader`, `ValueFormat.fromString`): each endpoint family
 * reads its own headers, and a present header whose value is not valid refuses the request with 400 `Invalid header
 * '<name>': <error>` (on `/feed/1` prefixed by `Invalid headers: `), before authentication — on v4 paths after an
 * unsupported `X-FaunaDB-API-Version`, which is refused first. A valid `x-query-timeout` sets the deadline of a v4
 * query (`eval/query-limits.ts`); other valid values are accepted and otherwise unused: the reference server has no
 * retries (commits are serialised), no typechecker and no query log. A request without these headers pays one
 * property lookup per header its endpoint reads.
 */
import { parseApiVersion } from '../codec/api-version.js';
import { ProtocolError } from '../errors/query-error.js';
import { failpoint } from '../failpoints.js';
import type { HeaderMap } from '../transport/exchange.js';
import type { Endpoint } from './route-table.js';

/** What is wrong with a header's value, or undefined when the value is valid. */
type Check = (value: string) => string | undefined;

interface Family {
  /** Headers in the order the real service reads them: the first bad one is reported. */
  readonly headers: ReadonlyArray<readonly [name: string, check: Check]>;
  readonly code: string;
  readonly prefix: string;
}

const DECIMAL = /^[+-]?[0-9]+$/;
const LONG = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const INT = [-(2n ** 31n), 2n ** 31n - 1n] as const;
/** `CoreApplication.MaximumQueryTimeoutMillis`: ten minutes. */
const MAX_TIMEOUT_MS = 600_000n;

/** The value as Scala's `toLongOption` / `toIntOption` read it (optional sign, decimal digits, in range), else undefined. */
function integer(value: string, [min, max]: readonly [bigint, bigint]): bigint | undefined {
  if (!DECIMAL.test(value)) return undefined;
  const n = BigInt(value);
  return n < min || n > max ? undefined : n;
}

// Implements: PROTO-HEADER-005
const timestamp: Check = (value) => (integer(value, LONG) === undefined ? `Invalid timestamp '${value}'.` : undefined);

// Implements: PROTO-HEADER-006
const timeout: Check = (value) => {
  const ms = integer(value, LONG);
  if (ms === undefined) return `Invalid number '${value}'.`;
  if (ms <= 0n) return 'Must be greater than 0.';
  return ms > MAX_TIMEOUT_MS ? `Must be less than or equal to ${MAX_TIMEOUT_MS}.` : undefined;
};

// Implements: PROTO-HEADER-007
const retries: Check = (value) => {
  const count = integer(value, INT);
  if (count === undefined) return `Invalid number '${value}'.`;
  return count < 0n || count > 7n ? 'Must be between 0 and 7.' : undefined;
};

/** `CoreConfig`: `tags_max_bytes`, `tags_max_pairs`, `tags_key_max_bytes`, `tags_value_max_bytes`. */
const TAGS_MAX_LENGTH = 3000;
const TAGS_MAX_PAIRS = 25;
const TAG_KEY_MAX_LENGTH = 40;
const TAG_VALUE_MAX_LENGTH = 80;
const TAG_PAIR = /^([A-Za-z0-9_]+)=([A-Za-z0-9_]+)$/;

// Implements: PROTO-HEADER-014, PROTO-HEADER-015, PROTO-HEADER-016
/** `k=v,k2=v2`; limits are checked from the last pair back, as the real service folds them, so its error is reported. */
const tags: Check = (value) => {
  if (value.length > TAGS_MAX_LENGTH) return 'header is too long';
  if (value === '') return undefined;
  const pairs = value.split(',').map((pair) => TAG_PAIR.exec(pair));
  if (pairs.some((pair) => pair === null)) return 'invalid tags';
  if (pairs.length > TAGS_MAX_PAIRS) return 'too many tags';
  const keys = new Set<string>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const [, key, tagValue] = pairs[i]!;
    if (key!.length > TAG_KEY_MAX_LENGTH) return 'invalid key';
    if (tagValue!.length > TAG_VALUE_MAX_LENGTH) return 'invalid value';
    if (keys.has(key!)) return 'duplicate key';
    keys.add(key!);
  }
  return undefined;
};

/** The value formats of `/query/1` answers, spelled exactly (no other case, no spaces). */
const FORMATS: ReadonlySet<string> = new Set(['simple', 'tagged', 'decorated']);
// Implements: PROTO-HEADER-017
const format: Check = (value) => (FORMATS.has(value) ? undefined : `Invalid format ${value}`);

// Implements: PROTO-HEADER-010
const BOOLEAN = /^(?:true|false)$/i;
const boolean: Check = (value) => (BOOLEAN.test(value) ? undefined : 'Must be a boolean value.');

/** Every v4 path (`POST /`, `/ping`, legacy REST): `TMPEndpoint.getRequestInfo`. */
const V4: Family = {
  headers: [
    ['x-last-seen-txn', timestamp],
    ['x-query-timeout', timeout],
    ['x-max-retries-on-contention', retries],
    ['x-fauna-tags', tags],
  ],
  code: 'bad request',
  prefix: '',
};

/** `FQL2Endpoint.getRequestInfo` and `FeedEndpoint.getRequestInfo`. */
const V10_INFO = [
  ['x-last-txn-ts', timestamp],
  ['x-query-timeout-ms', timeout],
  ['x-max-contention-retries', retries],
] as const;

/** `/query/1` also reads its tags, then the format and three booleans (`FQL2Endpoint.getRequest`). */
const QUERY: Family = {
  headers: [
    ...V10_INFO,
    ['x-query-tags', tags],
    ['x-format', format],
    ['x-typecheck', boolean],
    ['x-linearized', boolean],
    ['x-performance-hints', boolean],
  ],
  code: 'invalid_request',
  prefix: '',
};

// Implements: PROTO-HEADER-011
const FEED: Family = { headers: V10_INFO, code: 'invalid_request', prefix: 'Invalid headers: ' };

// Implements: PROTO-HEADER-008, PROTO-HEADER-009, PROTO-HEADER-011, PROTO-HEADER-012, PROTO-VERSION-009
/**
 * Throws a 400 `ProtocolError` (rendered in the endpoint's dialect) for the first bad parameter header the endpoint
 * reads. The presence tests name each header literally: a lookup by a constant name is a few nanoseconds, one by a
 * name taken from a list several times that, and most requests carry none of these headers. `/stream/1` reads none.
 */
export function checkRequestParameters(endpoint: Endpoint, headers: HeaderMap): void {
  if (endpoint.errors === 'v4') {
    // The drivers send `4`: only another value pays for parsing.
    const version = headers['x-faunadb-api-version'];
    if (version !== undefined && version !== '4') parseApiVersion(version);
    if (
      headers['x-last-seen-txn'] !== undefined ||
      headers['x-query-timeout'] !== undefined ||
      headers['x-max-retries-on-contention'] !== undefined ||
      headers['x-fauna-tags'] !== undefined
    ) {
      refuseFirstBad(V4, headers);
    }
  } else if (endpoint.path === '/query/1') {
    if (
      hasV10Info(headers) ||
      headers['x-query-tags'] !== undefined ||
      headers['x-format'] !== undefined ||
      headers['x-typecheck'] !== undefined ||
      headers['x-linearized'] !== undefined ||
      headers['x-performance-hints'] !== undefined
    ) {
      refuseFirstBad(QUERY, headers);
    }
  } else if (endpoint.path === '/feed/1' && hasV10Info(headers)) {
    refuseFirstBad(FEED, headers);
  }
}

function hasV10Info(headers: HeaderMap): boolean {
  return (
    headers['x-last-txn-ts'] !== undefined ||
    headers['x-query-timeout-ms'] !== undefined ||
    headers['x-max-contention-retries'] !== undefined
  );
}

function refuseFirstBad(family: Family, headers: HeaderMap): void {
  for (const [name, check] of family.headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const error = check(value) ?? refusedAnyway(name);
    if (error === undefined) continue;
    throw new ProtocolError(400, family.code, `${family.prefix}Invalid header '${name}': ${error}`);
  }
}

/** A valid header refused under the self-check's failpoints: by a server that accepts no tags, or none of these headers. */
function refusedAnyway(name: string): string | undefined {
  if (name === 'x-fauna-tags' || name === 'x-query-tags') return failpoint('TAGS-REFUSED') ? 'invalid tags' : undefined;
  return failpoint('REQUEST-PARAMETERS-REFUSED') ? 'Unsupported request parameter header.' : undefined;
}
