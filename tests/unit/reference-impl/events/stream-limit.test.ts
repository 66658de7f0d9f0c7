import { describe, expect, it } from 'vitest';
import { StreamLimit } from '../../../../reference-impl/events/stream-limit.js';
import type { Identity } from '../../../../reference-impl/auth/identity.js';
import { Ref } from '../../../../reference-impl/values/value.js';

const key = (id: string, database = '1', role: Identity['role'] = 'admin'): Identity => ({
  kind: 'key',
  database,
  role,
  record: { ref: new Ref(id, new Ref('keys')), database },
});

describe('StreamLimit', () => {
  it('refuses the stream past the limit for one secret only, and takes streams again once one is given back', () => {
    const limit = new StreamLimit(2);
    const first = limit.acquire(key('7'));
    const second = limit.acquire(key('7'));
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(limit.acquire(key('7'))).toBeUndefined();
    // Another key, and the same key id in another database, are other secrets.
    expect(limit.acquire(key('8'))).toBeTypeOf('function');
    expect(limit.acquire(key('7', '2'))).toBeTypeOf('function');
    first!();
    first!();
    expect(limit.openFor(key('7'))).toBe(1);
    expect(limit.acquire(key('7'))).toBeTypeOf('function');
    expect(limit.acquire(key('7'))).toBeUndefined();
  });

  it('counts a secret scoped to another role or database with its key', () => {
    const limit = new StreamLimit(1);
    expect(limit.acquire(key('7', '1', 'admin'))).toBeTypeOf('function');
    expect(limit.acquire({ ...key('7', '1', 'server'), database: '3' })).toBeUndefined();
  });

  it('keeps the root secret and tokens apart from keys', () => {
    const limit = new StreamLimit(1);
    expect(limit.acquire({ kind: 'root', database: '0', role: 'admin' })).toBeTypeOf('function');
    expect(limit.acquire({ kind: 'root', database: '0', role: 'admin' })).toBeUndefined();
    expect(
      limit.acquire({ kind: 'token', database: '1', role: 'token', record: { ref: new Ref('7', new Ref('tokens')), database: '1' } }),
    ).toBeTypeOf('function');
    expect(limit.acquire(key('7'))).toBeTypeOf('function');
  });
});
