import { describe, expect } from 'vitest';
import { check, rootClient } from '../../harness/index.js';

describe('GET /ping', () => {
  check(['PROTO-ENDPOINT-002'], 'answers 200 with {"resource": <string>}', async () => {
    const res = (await rootClient().ping()).expectStatus(200);
    expect(typeof res.resource).toBe('string');
  });

  check.each(['node', 'read', 'write', 'all'])(
    ['PROTO-ENDPOINT-009'],
    'needs no secret: scope %s answers 200 {"resource": "Scope %s is OK"}',
    async (scope) => {
      const res = (await rootClient().ping(scope, { auth: 'none' })).expectStatus(200);
      expect(res.body).toEqual({ resource: `Scope ${scope} is OK` });
    },
  );

  check(
    ['PROTO-ENDPOINT-010'],
    'without a scope answers as write; global and local are write and read; another scope answers as node; HEAD answers 200 without a body',
    async () => {
      const answered = async (scope?: string) => (await rootClient().ping(scope, { auth: 'none' })).expectStatus(200).body;
      expect(await answered()).toEqual({ resource: 'Scope write is OK' });
      expect(await answered('global')).toEqual({ resource: 'Scope write is OK' });
      expect(await answered('local')).toEqual({ resource: 'Scope read is OK' });
      expect(await answered('xyz')).toEqual({ resource: 'Scope node is OK' });
      const head = (await rootClient().request('HEAD', '/ping?scope=node', { auth: 'none', validate: false })).expectStatus(200);
      expect(head.text).toBe('');
    },
  );
});
