/**
 * Event source tokens (SD "Event source token"): opaque strings that carry what is needed to rebuild the
 * source — the database it belongs to, the source's description (its set, the functions of its steps and the values
 * they read: `encodeEventSourceSpec`), the creation (snapshot) time in microseconds, and a random nonce so that
 * running the same query twice gives different tokens. An HMAC-SHA256 with a server key makes tokens tamper-evident: a forged, truncated or edited token is
 * rejected with `invalid event source provided.` (wire-facts §4.1).
 *
 * Layout, base64 (standard alphabet, padded): version byte 0x01 ‖ UTF-8 JSON payload ‖ 32-byte HMAC of both.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface EventSourceTokenContents {
  /** Identifies the database the source belongs to (a token is not valid in another database). */
  readonly database: string;
  /** The source's description as JSON text (`encodeEventSourceSpec`). */
  readonly source: string;
  /** Snapshot time of the creating query, microseconds since the epoch: the default start of feeds and streams. */
  readonly createdAtMicros: bigint;
  /** Who created the source, as the issuer encoded it (opaque here); the source acts with its rights. */
  readonly creator?: string;
}

export interface DecodedEventSourceToken extends EventSourceTokenContents {
  /** Base64 of the nonce; distinguishes two sources created from the same query. */
  readonly nonce: string;
}

/** The one message for every unreadable token, so that a forger learns nothing about why. */
export const INVALID_EVENT_SOURCE_MESSAGE = 'invalid event source provided.';

export class InvalidEventSourceError extends Error {
  constructor() {
    super(INVALID_EVENT_SOURCE_MESSAGE);
    this.name = 'InvalidEventSourceError';
  }
}

const VERSION = 0x01;
const MAC_BYTES = 32;
const NONCE_BYTES = 12;

function mac(key: Uint8Array | string, body: Uint8Array): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

// Implements: ESRC-TOKEN-002
/** Issues a new token; `nonce` is for tests that need determinism, otherwise 12 random bytes. */
export function issueEventSourceToken(
  contents: EventSourceTokenContents,
  key: Uint8Array | string,
  nonce: Uint8Array = randomBytes(NONCE_BYTES),
): string {
  const payload = JSON.stringify({
    db: contents.database,
    s: contents.source,
    ts: contents.createdAtMicros.toString(),
    n: Buffer.from(nonce).toString('base64'),
    ...(contents.creator === undefined ? {} : { c: contents.creator }),
  });
  const body = Buffer.concat([Buffer.from([VERSION]), Buffer.from(payload, 'utf8')]);
  return Buffer.concat([body, mac(key, body)]).toString('base64');
}

// Implements: ESRC-TOKEN-006
/** Verifies and opens a token; throws InvalidEventSourceError for anything not issued with this key. */
export function readEventSourceToken(token: string, key: Uint8Array | string): DecodedEventSourceToken {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) throw new InvalidEventSourceError();
  const bytes = Buffer.from(token, 'base64');
  if (bytes.toString('base64') !== token || bytes.length <= 1 + MAC_BYTES) throw new InvalidEventSourceError();
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(given, mac(key, body)) || body[0] !== VERSION) throw new InvalidEventSourceError();
  let payload: unknown;
  try {
    payload = JSON.parse(body.subarray(1).toString('utf8'));
  } catch {
    throw new InvalidEventSourceError();
  }
  if (typeof payload !== 'object' || payload === null) throw new InvalidEventSourceError();
  const { db, s, ts, n, c } = payload as Record<string, unknown>;
  if (typeof db !== 'string' || typeof s !== 'string' || typeof n !== 'string' || typeof ts !== 'string' || !/^\d+$/.test(ts)) {
    throw new InvalidEventSourceError();
  }
  if (c !== undefined && typeof c !== 'string') throw new InvalidEventSourceError();
  return { database: db, source: s, createdAtMicros: BigInt(ts), nonce: n, ...(c === undefined ? {} : { creator: c }) };
}
