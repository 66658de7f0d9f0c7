import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../../reference-impl/errors/query-error.js';
import {
  MAX_TRANSACTION_BYTES,
  MAX_VERSION_BYTES,
  checkTransactionBytes,
  checkedVersionBytes,
} from '../../../../reference-impl/txn/write-size.js';
import { QueryValue, Ref, Time, type ObjectValue } from '../../../../reference-impl/values/value.js';
import { doubled } from '../shared-value.js';

describe('write sizes', () => {
  it("counts a version as its fields' JSON text in UTF-8", () => {
    const fields: ObjectValue = { data: { name: 'é', n: 10n, list: [1n, true, null] } };
    expect(checkedVersionBytes(fields)).toBe(Buffer.byteLength(JSON.stringify({ data: { name: 'é', n: 10, list: [1, true, null] } })));
  });

  it('counts refs, times and stored lambdas, whose bodies hold bigints', () => {
    const fields: ObjectValue = {
      ref: new Ref('1', new Ref('c', new Ref('collections'))),
      at: new Time(0n),
      body: new QueryValue('x', { add: [{ var: 'x' }, 1n] }),
    };
    expect(checkedVersionBytes(fields)).toBeGreaterThan(50);
  });

  it('refuses a version past 8,388,608 bytes with 400 bad request, and accepts one just under', () => {
    expect(checkedVersionBytes({ data: { s: 'x'.repeat(MAX_VERSION_BYTES - 20) } })).toBeLessThanOrEqual(MAX_VERSION_BYTES);
    expect(() => checkedVersionBytes({ data: { s: 'x'.repeat(MAX_VERSION_BYTES) } })).toThrow(
      expect.objectContaining({ status: 400, code: 'bad request' }),
    );
  });

  it('refuses a value that shares its parts without walking it whole', () => {
    let error: unknown;
    try {
      checkedVersionBytes({ data: { value: doubled([], 60) } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).description).toMatch(/^Version bytes \(\d+\) exceeds threshold \(8388608\)$/);
  });

  it('refuses a transaction past 16 MiB', () => {
    expect(() => checkTransactionBytes(MAX_TRANSACTION_BYTES)).not.toThrow();
    expect(() => checkTransactionBytes(MAX_TRANSACTION_BYTES + 1)).toThrow(
      expect.objectContaining({ description: `Transaction exceeded limit: got ${MAX_TRANSACTION_BYTES + 1} bytes, limit 16777216 bytes` }),
    );
  });
});
