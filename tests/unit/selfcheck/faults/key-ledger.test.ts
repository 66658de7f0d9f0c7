// The auth faults' memory of keys and tokens: what they learn from CreateKey, Login and token answers, and how
// they tell which credential a request uses or find another with more rights.
import { describe, expect, it } from 'vitest';
import type { ProxiedRequest } from '../../../selfcheck/fault.js';
import {
  isKeyRecord,
  KeyLedger,
  requestSecret,
  serverSecretFor,
  TokenLedger,
  withSecret,
} from '../../../selfcheck/faults/lib/key-ledger.js';
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

  it('isKeyRecord holds for records of the keys collection only', () => {
    expect(isKeyRecord(key('1', 's', 'server'))).toBe(true);
    expect(isKeyRecord(token('1', 's', userRef('1')))).toBe(false);
    expect(isKeyRecord('key')).toBe(false);
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
  it('learns tokens with a secret, once each, in creation order with their issuer', () => {
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
    expect(tokens.bySecret('t1')).toEqual({
      secret: 't1',
      ref: JSON.stringify(nativeRef('tokens', '1')),
      refValue: wire(nativeRef('tokens', '1')),
      instance: wire(userRef('u1')),
      issuer: 'login-key',
      order: 0,
    });
    expect(tokens.bySecret('t2')).toMatchObject({ order: 1, issuer: undefined });
    expect(tokens.bySecret('k4')).toBeUndefined();
    expect(tokens.bySecret(undefined)).toBeUndefined();
    expect(tokens.byRef(nativeRef('tokens', '2'))?.secret).toBe('t2');
    expect(tokens.byRef(nativeRef('tokens', '3'))).toBeUndefined();
  });

  it('ofSameUser lists the tokens of the same instance, the token itself included', () => {
    const tokens = new TokenLedger();
    tokens.learnFrom(wire([token('1', 'a', userRef('u1')), token('2', 'b', userRef('u2')), token('3', 'c', userRef('u1'))]), 'k');
    expect(tokens.ofSameUser(tokens.bySecret('a')!).map((t) => t.secret)).toEqual(['a', 'c']);
    expect(tokens.ofSameUser(tokens.bySecret('b')!).map((t) => t.secret)).toEqual(['b']);
  });

  it('ofRequest answers the known token a request authenticates with', () => {
    const tokens = new TokenLedger();
    tokens.learnFrom(wire(token('1', 'tok', userRef('u1'))), 'k');
    expect(tokens.ofRequest(withAuth('Bearer tok'))?.ref).toBe(JSON.stringify(nativeRef('tokens', '1')));
    expect(tokens.ofRequest(withAuth('Bearer other'))).toBeUndefined();
  });
});

describe('serverSecretFor', () => {
  const ledgers = () => {
    const keys = new KeyLedger();
    keys.learnFrom(
      wire([
        key('1', 'server-key', 'server'),
        key('2', 'client-key', 'client'),
        key('3', 'admin-key', 'admin'),
        key('4', 'lonely-client', 'client', dbRef('d')),
      ]),
    );
    const tokens = new TokenLedger();
    tokens.learnFrom(wire(token('10', 'by-server', userRef('u'))), 'server-key');
    tokens.learnFrom(wire(token('11', 'by-admin', userRef('u'))), 'admin-key');
    tokens.learnFrom(wire(token('12', 'by-client', userRef('u'))), 'client-key');
    tokens.learnFrom(wire(token('13', 'by-lonely', userRef('u'))), 'lonely-client');
    tokens.learnFrom(wire(token('14', 'by-unknown', userRef('u'))), 'root-secret');
    tokens.learnFrom(wire(token('15', 'no-issuer', userRef('u'))), undefined);
    return { keys, tokens };
  };

  it("answers the issuer when it had server rights, a server key of the client key's database, or nothing", () => {
    const { keys, tokens } = ledgers();
    const of = (secret: string) => serverSecretFor(tokens.bySecret(secret)!, keys);
    expect(of('by-server')).toBe('server-key');
    expect(of('by-admin')).toBe('admin-key');
    expect(of('by-client')).toBe('server-key');
    expect(of('by-lonely')).toBeUndefined();
    expect(of('by-unknown')).toBe('root-secret');
    expect(of('no-issuer')).toBeUndefined();
  });
});
