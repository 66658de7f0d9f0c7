// The loader's contract other parts rely on: names, error strings, and the assertValid message.
import { describe, expect, it } from 'vitest';
import { assertValid, getAjv, schemaDir, schemaNames, validate } from '../../schemas/index.js';

describe('schemas/index.ts', () => {
  it('lists every schema file by name', () => {
    const names = schemaNames();
    for (const name of ['tagged', 'document', 'token-self', 'v4-query-error', 'feed-request', 'event', 'stats']) {
      expect(names).toContain(name);
    }
    expect(schemaDir.endsWith('schemas')).toBe(true);
  });

  it('returns one shared ajv instance', () => {
    expect(getAjv()).toBe(getAjv());
  });

  it('reports errors as "<path> <message>"', () => {
    const result = validate('v4-query-error', { errors: [{ position: [], description: 'x' }] });
    expect(result.valid).toBe(false);
    expect(result.errors).toContain("/errors/0 must have required property 'code'");
  });

  it('assertValid names the schema, the paths and the body', () => {
    const body = { ref: { '@ref': 'collections/users/1' }, ts: 1, credentials: { password: 'p' } };
    expect(() => assertValid('document', body)).toThrow(/schema 'document'[\s\S]*\/credentials[\s\S]*"password":"p"/);
    expect(() => assertValid('document', { ref: { '@ref': 'collections/users/1' }, ts: 1 })).not.toThrow();
  });

  it('assertValid truncates long bodies', () => {
    const body = { resource: 'x'.repeat(10_000), extra: 1 };
    let message = '';
    try {
      assertValid('v4-success', body);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/characters in all/);
    expect(message.length).toBeLessThan(3000);
  });

  it('throws on an unknown schema name', () => {
    expect(() => assertValid('nope', {})).toThrow(/Unknown schema 'nope'/);
  });
});
