import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant } from '../../harness/index.js';
import { createCollection, docRef, postRaw } from '../../harness/v4.js';

const MIB = 1024 * 1024;
const COLL = 'blobs';

/** `{"if": true, "then": …, "else": 0}` nested `depth` times around `'bottom'`. */
function nestedIfs(depth: number): string {
  return `${'{"if":true,"then":'.repeat(depth)}"bottom"${',"else":0}'.repeat(depth)}`;
}

describe('Request body and nesting limits', () => {
  const t = useTenant();

  beforeAll(async () => {
    (await t.server.query(createCollection(COLL))).expectStatus(201);
  });

  check(['LIMIT-BODY-001'], 'a request body of 1 MiB is accepted', async () => {
    const head = JSON.stringify({ create: docRef(COLL, '1'), params: { object: { data: { object: { blob: '' } } } } });
    // Pad the string so that the whole body is exactly 1 MiB.
    const [before, after] = head.split('"blob":""');
    const filler = 'x'.repeat(MIB - Buffer.byteLength(`${before}"blob":""${after}`));
    const body = `${before}"blob":"${filler}"${after}`;
    expect(Buffer.byteLength(body)).toBe(MIB);
    (await postRaw(t.server, body)).expectStatus(201);
    const length = await t.server.query({ equals: [{ select: ['data', 'blob'], from: { get: docRef(COLL, '1') } }, filler] });
    expect(length.expectStatus(200).resource).toBe(true);
  });

  check(
    ['LIMIT-BODY-002', 'PROTO-STATUS-004'],
    'an oversized body (64 MiB) answers 413 or 400 with the documented error body, never 5xx or a dropped connection',
    async () => {
      const body = Buffer.alloc(64 * MIB, 0x20);
      body.write('{"equals":["', 0);
      body.write('"]}', body.length - 3);
      const res = await t.server.request('POST', '/', { rawBody: body, headers: { 'x-faunadb-api-version': '4' }, timeoutMs: 60_000 });
      res.expectStatus(413, 400).expectSchema('v4-error');
      res.expectErrorCode(res.status === 413 ? 'request too large' : 'invalid expression');
      (await t.server.query({ equals: [1, 1] })).expectStatus(200);
    },
    { timeout: 90_000 },
  );

  check(['LIMIT-BODY-003'], 'an expression nested 64 levels deep is evaluated', async () => {
    expect((await postRaw(t.server, nestedIfs(64))).expectStatus(200).resource).toBe('bottom');
    const nestedArrays = `${'['.repeat(64)}7${']'.repeat(64)}`;
    let value = (await postRaw(t.server, nestedArrays)).expectStatus(200).resource;
    for (let level = 1; level < 64; level += 1) value = value[0];
    expect(value).toEqual([7n]);
  });

  check.each([
    { name: 'nested ifs', body: () => nestedIfs(100_000) },
    { name: 'nested arrays', body: () => '['.repeat(100_000) + ']'.repeat(100_000) },
    { name: 'nested objects', body: () => `${'{"object":{"a":'.repeat(100_000)}1${'}}'.repeat(100_000)}` },
  ])(
    ['LIMIT-BODY-004', 'PROTO-STATUS-004'],
    'an expression nested 100000 levels deep ($name) answers 400 or evaluates, never 5xx',
    async ({ body }) => {
      const res = await postRaw(t.server, body());
      res.expectStatus(400, 200);
      if (res.status === 400) res.expectSchema('v4-query-error');
      (await t.server.query({ equals: [1, 1] })).expectStatus(200);
    },
  );
});
