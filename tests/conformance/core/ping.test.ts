import { describe, expect } from 'vitest';
import { check, rootClient } from '../../harness/index.js';

describe('GET /ping', () => {
  check(['PROTO-ENDPOINT-002'], 'answers 200 with {"resource": <string>}', async () => {
    const res = (await rootClient().ping()).expectStatus(200);
    expect(typeof res.resource).toBe('string');
  });
});
