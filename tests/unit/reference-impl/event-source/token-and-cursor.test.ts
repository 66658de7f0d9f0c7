import { describe, expect, it } from 'vitest';
import {
  compareEventPositions,
  decodeEventCursor,
  decodePageCursor,
  encodeEventCursor,
  END_OF_TRANSACTION,
  InvalidEventCursorError,
  positionAfterTransaction,
} from '../../../../reference-impl/event-source/cursor.js';
import { InvalidEventSourceError, issueEventSourceToken, readEventSourceToken } from '../../../../reference-impl/event-source/token.js';

const key = 'server-key-1';
const contents = { database: 'db-42', source: '{"c":"Product","k":"all"}', createdAtMicros: 1_704_067_200_000_123n };

/** Flips one bit of the decoded bytes at `index` and re-encodes. */
function flipBit(token: string, index: number): string {
  const bytes = Buffer.from(token, 'base64');
  bytes[index] = (bytes[index] as number) ^ 0x01;
  return bytes.toString('base64');
}

describe('event source tokens', () => {
  it("round-trips database, the source's description and creation time", () => {
    const token = issueEventSourceToken(contents, key);
    expect(token).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const read = readEventSourceToken(token, key);
    expect({ database: read.database, source: read.source, createdAtMicros: read.createdAtMicros }).toEqual(contents);
  });

  it('gives different tokens for two runs of the same query', () => {
    const a = issueEventSourceToken(contents, key);
    const b = issueEventSourceToken(contents, key);
    expect(a).not.toBe(b);
    expect(readEventSourceToken(a, key).nonce).not.toBe(readEventSourceToken(b, key).nonce);
    const fixed = new Uint8Array(12);
    expect(issueEventSourceToken(contents, key, fixed)).toBe(issueEventSourceToken(contents, key, fixed));
  });

  it('rejects every single-bit corruption, a wrong key, truncation and junk', () => {
    const token = issueEventSourceToken(contents, key);
    const length = Buffer.from(token, 'base64').length;
    for (let i = 0; i < length; i++) {
      expect(() => readEventSourceToken(flipBit(token, i), key)).toThrow(InvalidEventSourceError);
    }
    for (const bad of [token.slice(0, -4), `${token}AAAA`, '', 'not a token!', 'AAAA', `A${token}`]) {
      expect(() => readEventSourceToken(bad, key)).toThrow('invalid event source provided.');
    }
    expect(() => readEventSourceToken(token, 'other-key')).toThrow(InvalidEventSourceError);
  });
});

describe('event cursors', () => {
  const binding = { database: 'db-42', key };

  it('round-trip a position and order positions', () => {
    const position = { txnTs: 1_704_067_200_000_123n, ordinal: 3 };
    expect(decodeEventCursor(encodeEventCursor(position, binding), binding)).toEqual(position);
    expect(decodePageCursor(encodeEventCursor(positionAfterTransaction(5n), binding), binding)).toEqual({
      txnTs: 5n,
      ordinal: END_OF_TRANSACTION,
    });
    expect(compareEventPositions({ txnTs: 1n, ordinal: 9 }, { txnTs: 2n, ordinal: 0 })).toBeLessThan(0);
    expect(compareEventPositions({ txnTs: 2n, ordinal: 1 }, { txnTs: 2n, ordinal: 0 })).toBeGreaterThan(0);
    expect(compareEventPositions(positionAfterTransaction(2n), { txnTs: 2n, ordinal: 7 })).toBeGreaterThan(0);
  });

  it('are reusable by any source of the same database, but not in another database', () => {
    const cursor = encodeEventCursor({ txnTs: 10n, ordinal: 0 }, binding);
    expect(decodeEventCursor(cursor, { database: 'db-42', key })).toEqual({ txnTs: 10n, ordinal: 0 });
    expect(() => decodeEventCursor(cursor, { database: 'db-43', key })).toThrow(InvalidEventCursorError);
  });

  it('reject every single-bit corruption and malformed text', () => {
    const cursor = encodeEventCursor({ txnTs: 10n, ordinal: 2 }, binding);
    for (let i = 0; i < Buffer.from(cursor, 'base64').length; i++) {
      expect(() => decodeEventCursor(flipBit(cursor, i), binding)).toThrow(InvalidEventCursorError);
    }
    for (const bad of ['', 'gsGCGmcGl+0aJPRzAAA=', `${cursor}AAAA`, 'x y', cursor.slice(1)]) {
      expect(() => decodeEventCursor(bad, binding)).toThrow('invalid event cursor provided.');
    }
  });

  it('refuse to encode positions outside their ranges', () => {
    expect(() => encodeEventCursor({ txnTs: -1n, ordinal: 0 }, binding)).toThrow(RangeError);
    expect(() => encodeEventCursor({ txnTs: 1n, ordinal: 1.5 }, binding)).toThrow(RangeError);
  });
});
