/**
 * Event cursors and feed page cursors: opaque base64 strings naming a position in a database's history,
 * `(txn_ts, ordinal)`, where `ordinal` is the position of the document write within its transaction (the
 * store's write order). Events are delivered in ascending position; a cursor means "after this position".
 *
 * A position does not depend on the event source, so a cursor issued by one source is valid with any source
 * of the same database — in particular with another source created from an identical query (SD "Event
 * source token"). Cursors are bound to their database by a truncated HMAC (server key + database id), so a
 * forged or edited cursor, or one from another database, is rejected as `invalid event cursor provided.`.
 *
 * Layout, base64 (standard, padded): version 0x01 ‖ txn_ts (8 bytes, big-endian) ‖ ordinal (4 bytes,
 * big-endian) ‖ first 8 bytes of HMAC-SHA256(key, database ‖ 0x00 ‖ preceding bytes).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface EventPosition {
  /** Commit time of the transaction, microseconds since the epoch. */
  readonly txnTs: bigint;
  /** Position of the write within the transaction, from 0; `END_OF_TRANSACTION` means after all of them. */
  readonly ordinal: number;
}

/** Ordinal of a page cursor that has seen a whole transaction (an empty poll rolls the cursor up to a time). */
export const END_OF_TRANSACTION = 0xffff_ffff;

export const INVALID_EVENT_CURSOR_MESSAGE = 'invalid event cursor provided.';

export class InvalidEventCursorError extends Error {
  constructor() {
    super(INVALID_EVENT_CURSOR_MESSAGE);
    this.name = 'InvalidEventCursorError';
  }
}

/** Which database and server key a cursor belongs to. */
export interface CursorBinding {
  readonly database: string;
  readonly key: Uint8Array | string;
}

const VERSION = 0x01;
const BODY_BYTES = 1 + 8 + 4;
const MAC_BYTES = 8;
const MAX_TS = 2n ** 63n - 1n;

function mac(binding: CursorBinding, body: Uint8Array): Buffer {
  return createHmac('sha256', binding.key)
    .update(Buffer.from(binding.database, 'utf8'))
    .update(Buffer.from([0]))
    .update(body)
    .digest()
    .subarray(0, MAC_BYTES);
}

export function encodeEventCursor(position: EventPosition, binding: CursorBinding): string {
  if (position.txnTs < 0n || position.txnTs > MAX_TS) throw new RangeError('txn_ts out of range');
  if (!Number.isInteger(position.ordinal) || position.ordinal < 0 || position.ordinal > END_OF_TRANSACTION) {
    throw new RangeError('ordinal out of range');
  }
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  body.writeBigUInt64BE(position.txnTs, 1);
  body.writeUInt32BE(position.ordinal, 9);
  return Buffer.concat([body, mac(binding, body)]).toString('base64');
}

// Implements: FEED-REQ-005
/** Opens a cursor issued for the same database and key; throws InvalidEventCursorError otherwise. */
export function decodeEventCursor(cursor: string, binding: CursorBinding): EventPosition {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor)) throw new InvalidEventCursorError();
  const bytes = Buffer.from(cursor, 'base64');
  if (bytes.toString('base64') !== cursor || bytes.length !== BODY_BYTES + MAC_BYTES) throw new InvalidEventCursorError();
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(bytes.subarray(BODY_BYTES), mac(binding, body)) || body[0] !== VERSION) {
    throw new InvalidEventCursorError();
  }
  const txnTs = body.readBigUInt64BE(1);
  if (txnTs > MAX_TS) throw new InvalidEventCursorError();
  return { txnTs, ordinal: body.readUInt32BE(9) };
}

/** Page cursors use the same form: the position of the last event of the page, or a rolled-up time. */
export const encodePageCursor = encodeEventCursor;
export const decodePageCursor = decodeEventCursor;

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareEventPositions(a: EventPosition, b: EventPosition): number {
  if (a.txnTs !== b.txnTs) return a.txnTs < b.txnTs ? -1 : 1;
  return a.ordinal - b.ordinal;
}

/** The position just after every write of the transaction at `txnTs`: what `start_ts` means. */
export function positionAfterTransaction(txnTs: bigint): EventPosition {
  return { txnTs, ordinal: END_OF_TRANSACTION };
}
