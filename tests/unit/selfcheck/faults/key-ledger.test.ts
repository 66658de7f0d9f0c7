// The auth faults' memory of keys and tokens: what they learn from CreateKey, Login and token answers, and how
// they tell which credential a request uses or find another with more rights.
import { describe, expect, it } from 'vitest';
import type { ProxiedRequest } from '../../../selfcheck/fault.js';
import { KeyLedger, requestSecret, TokenLedger, withSecret } from '../../../selfcheck/faults/lib/key-ledger.js';
import { parseJson } from '../../../selfcheck/json-body.js';

const wire = (value: unknown): unknown => parseJson(JSON.stringify(value));
const nativeRef = (collection: string, id: string) => ({ '@ref': { id, collection: { '@ref': { id: collection } } } });
const userRef = (id: string) => ({
  '@ref': { id, collection: { '@ref': { id: 'users', collection: { '@ref': { id: 'collections' } } } } },
});
const dbRef = (name: string) => nativeRef('databases', name);
const key = (id: string, secret: string, role: string, database?: unknown) => ({
  ref: nativeRef('keys', id),
  ts: 1,
  role,
  secret,
  hashed_secret: 'h',
  ...(database === undefined ? {} : { database }),
});
const token = (id: string, secret: string, instance: unknown) => ({
  ref: nativeRef('tokens', id),
  ts: 1,
  instance,
  secret,
  hashed_secret: 'h',
});
const withAuth = (authorization: string): ProxiedRequest => ({
  method: 'POST',
  path: '/',
  headers: { authorization },
  body: Buffer.alloc(0),
});

describe('KeyLedger', () => {
  it('learns keys with a secret and a string role from anywhere in an answer, once each', () => {
    const keys = new KeyLedger();
    keys.learnFrom(wire({ resource: [key('1', 's1', 'server'), { nested: key('2', 's2', 'client', dbRef('d')) }] }), 'creator');
    keys.learnFrom(wire({ resource: key('1', 's1', 'admin') }));
    expect(keys.bySecret('s1')).toEqual({
      secret: 's1',
      role: 'server',
      database: 'null',
      ref: JSON.stringify(nativeRef('keys', '1')),
      creator: 'creator',
    });
    expect(keys.bySecret('s2')).toMatchObject({ role: 'client', database: JSON.stringify(dbRef('d')) });
    expect(keys.byRef(wire(nativeRef('keys', '2')))?.secret).toBe('s2');
    expect(keys.byRef(nativeRef('keys', '3'))).toBeUndefined();
  });

  it('skips key records without a secret, keys with role refs, and records of other collections', () => {
    const keys = new KeyLedger();
    const withoutSecret = { ref: nativeRef('keys', '1'), ts: 1, role: 'server' };
    const roleRefs = { ...key('2', 's2', 'x'), role: nativeRef('roles', 'r') };
    keys.learnFrom(
      wire({ resource: [withoutSecret, roleRefs, token('3', 's3', userRef('1')), { ...key('4', 's4', 'server'), ref: userRef('4') }] }),
    );
    expect([keys.bySecret('s2'), keys.bySecret('s3'), keys.bySecret('s4')]).toEqual([undefined, undefined, undefined]);
    keys.learnFrom(wire(key('5', 's5', 'client')));
    expect('creator' in keys.bySecret('s5')!).toBe(false);
  });

  it('sibling finds another key of the same database and role, not the key itself, not excepted ones', () => {
    const keys = new KeyLedger();
    keys.learnFrom(
      wire([
        key('1', 'client-d', 'client', dbRef('d')),
        key('2', 'server-e', 'server', dbRef('e')),
        key('3', 'server-d', 'server', dbRef('d')),
        key('4', 'server-d2', 'server', dbRef('d')),
      ]),
    );
    const client = keys.bySecret('client-d')!;
    expect(keys.sibling(client, 'server')?.secret).toBe('server-d');
    expect(keys.sibling(client, 'server', new Set(['server-d']))?.secret).toBe('server-d2');
    expect(keys.sibling(keys.bySecret('server-d')!, 'server')?.secret).toBe('server-d2');
    expect(keys.sibling(client, 'admin')).toBeUndefined();
  });
});

describe('request secrets', () => {
  it('requestSecret reads Bearer and Basic (trailing colon removed) and nothing else', () => {
    expect(requestSecret(withAuth('Bearer abc:db:admin'))).toBe('abc:db:admin');
    expect(requestSecret(withAuth(`Basic ${Buffer.from('abc:').toString('base64')}`))).toBe('abc');
    expect(requestSecret(withAuth(`Basic ${Buffer.from('abc').toString('base64')}`))).toBe('abc');
    expect(requestSecret(withAuth('Token abc'))).toBeUndefined();
    expect(requestSecret({ ...withAuth(''), headers: {} })).toBeUndefined();
  });

  it('withSecret replaces the credential with a Bearer secret on a copy', () => {
    const original = { ...withAuth('Basic eA=='), headers: { authorization: 'Basic eA==', 'x-other': '1' } };
    expect(withSecret(original, 'new').headers).toEqual({ authorization: 'Bearer new', 'x-other': '1' });
    expect(original.headers.authorization).toBe('Basic eA==');
  });
});

describe('TokenLedger', () => {
  it('learns tokens with a secret, once each, with their issuer', () => {
    const tokens = new TokenLedger();
    tokens.learnFrom(wire({ resource: token('1', 't1', userRef('u1')) }), 'login-key');
    tokens.learnFrom(
      wire({
        resource: [
          token('1', 't1', userRef('u2')),
          token('2', 't2', userRef('u1')),
          { ref: nativeRef('tokens', '3'), ts: 1 },
          key('4', 'k4', 'server'),
        ],
      }),
      undefined,
    );
    expect(tokens.bySecret('t1')).toEqual({ secret: 't1', issuer: 'login-key' });
    expect(tokens.bySecret('t2')).toEqual({ secret: 't2', issuer: undefined });
    expect(tokens.bySecret('k4')).toBeUndefined();
    expect(tokens.bySecret(undefined)).toBeUndefined();
  });

  it('ofRequest answers the known token a request authenticates with', () => {
    const tokens = new TokenLedger();
    tokens.learnFrom(wire(token('1', 'tok', userRef('u1'))), 'k');
    expect(tokens.ofRequest(withAuth('Bearer tok'))?.secret).toBe('tok');
    expect(tokens.ofRequest(withAuth('Bearer other'))).toBeUndefined();
  });
});
