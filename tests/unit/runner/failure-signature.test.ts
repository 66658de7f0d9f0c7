// Failure signatures identify the failure, not the run: the messages below are first lines the suite produced
// against the reference server behind a paging fault (PAGE-SIZE-OFF-BY-ONE), and their variants from other runs.
import { describe, expect, it } from 'vitest';
import { failureSignature, normaliseAssertion, sameSignature, signatureMatches } from '../../runner/failure-signature.js';
import type { Exchange } from '../../harness/transcript.js';

const exchange = (status: number, body: unknown): Exchange => ({
  method: 'POST',
  url: 'http://127.0.0.1:1/',
  path: '/',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: { headers: {} },
  response: { status, headers: {}, body },
});

describe('normaliseAssertion', () => {
  it('gives two runs of the same bug one signature, whatever ids, timestamps, names and run counts they saw', () => {
    const pairs = [
      [
        "expected [ '1795881103381000014', …(5) ] to deeply equal [ '1795881103381000015', …(4) ]",
        "expected [ '1795990000000000001', …(5) ] to deeply equal [ '1795990000000000002', …(4) ]",
      ],
      [
        'expected { ts: 1795881107238000n, …(3) } to strictly equal { ts: 1795881107216000n, …(3) }',
        'expected { ts: 1795990107238000n, …(3) } to strictly equal { ts: 1795990107216000n, …(3) }',
      ],
      ['Property failed after 5 tests', 'Property failed after 2 tests'],
      ['collection items_k3j9x0qa not found at 2026-11-28T16:07:41.135Z', 'collection items_abcdefgh not found at 2027-01-01T00:00:00Z'],
      [
        'could not create the test tenant fc_mx0lswp5edkk_ordering_098a59: POST http://127.0.0.1:39065/: no response headers within 10000 ms',
        'could not create the test tenant fc_aaa1_ordering_7b7b7b: POST http://127.0.0.1:41234/: no response headers within 10000 ms',
      ],
      ['secret fnK_1_2_0123456789abcdef0123456789abcdef refused', 'secret fnAEbbbbbbbbbbbbbbbbbbbbbbbb refused'],
      // A seeded workload compares other values, but the same kind of mismatch.
      ['expected [ 24n, 31n, 38n ] to deeply equal [ 24n, 31n ]', 'expected [ 3n, 9n, 11n, 80n ] to deeply equal [ 3n, 9n, 11n ]'],
    ];
    for (const [a, b] of pairs) expect(normaliseAssertion(a!), a).toBe(normaliseAssertion(b!));
  });

  it('gives different bugs different signatures: the kind of mismatch and how the sides differ stay', () => {
    const distinct = [
      "expected [ { '@ref': { …(2) } }, …(7) ] to have a length of 7 but got 8",
      "expected [ { '@ref': { …(2) } }, …(5) ] to have a length of 7 but got 6",
      'expected [ 24n, 31n, 38n ] to deeply equal [ 24n, 31n ]',
      'expected [ 24n ] to deeply equal [ 24n, 31n ]',
      'expected [ 31n, 24n ] to deeply equal [ 24n, 31n ]',
      'expected { after: [ 4n, …(1) ], data: [ 6n ] } to deeply equal { after: [ 4n, …(1) ], data: [ 3n ] }',
      'POST / answered status 500, expected 200',
      'POST / answered status 400, expected 200',
      'expected 3 to be greater than 4',
      'expected false to be true',
    ];
    const normalised = distinct.map((line) => normaliseAssertion(line));
    expect(new Set(normalised).size).toBe(distinct.length);
    expect(normalised.slice(0, 5)).toEqual([
      'expected […] to have a length of <n> but got <n> (longer)',
      'expected […] to have a length of <n> but got <n> (shorter)',
      'expected […] to deeply equal […] (more items)',
      'expected […] to deeply equal […] (fewer items)',
      'expected […] to deeply equal […] (as many items)',
    ]);
  });

  it('keeps what the test checks: HTTP statuses, paths, schema names and their first complaint', () => {
    expect(normaliseAssertion('POST /query/1 answered status 500, expected 200 or 201')).toBe(
      'POST /query/1 answered status 500, expected 200 or 201',
    );
    expect(normaliseAssertion('create_database answered invalid_argument')).toBe('create_database answered invalid_argument');
  });
});

describe('failureSignature', () => {
  it('holds the last answered status and error code, and a schema mismatch its first complaint', () => {
    const sig = failureSignature('POST / (status 200) does not match schema v4-success:\n  - /resource must be object\nbody: {}', [
      exchange(400, { errors: [{ code: 'invalid expression' }] }),
      exchange(200, { resource: 1 }),
    ]);
    expect(sig).toEqual({ status: 200, assertion: 'POST / (status 200) does not match schema v4-success: - /resource must be object' });
    expect(
      failureSignature('POST / answered status 404, expected 200\nstatus: 404', [
        exchange(404, { errors: [{ code: 'instance not found' }] }),
      ]),
    ).toEqual({ status: 404, errorCode: 'instance not found', assertion: 'POST / answered status 404, expected 200' });
  });

  it('of a property failure, holds the assertion inside it and not the exchange of the last shrinking attempt', () => {
    const a = failureSignature(
      'Property failed after 5 tests\n{ seed: 1 }',
      [exchange(200, {})],
      'expected [ 1n, 2n ] to deeply equal [ 1n ]',
    );
    const b = failureSignature(
      'Property failed after 1 tests\n{ seed: 9 }',
      [exchange(400, { errors: [{ code: 'invalid argument' }] })],
      'expected [ 7n, 8n, 9n ] to deeply equal [ 7n, 8n ]',
    );
    // Two seeds of PAGE-SIZE-OFF-BY-ONE against the paging model: fewer pages in one counterexample, as many in the other.
    const c = failureSignature(
      'Property failed after 1 tests',
      [],
      'expected [ { after: [ { …(1) } ], …(1) }, …(1) ] to deeply equal [ { …(2) }, { …(2) } ]',
    );
    const d = failureSignature('Property failed after 1 tests', [], 'expected [ { …(2) } ] to deeply equal [ { …(2) }, { …(2) } ]');
    expect(a).toEqual({ assertion: 'expected […] to deeply equal […]' });
    expect(sameSignature(a, b)).toBe(true);
    expect(sameSignature(c, d)).toBe(true);
  });
});

describe('signatureMatches', () => {
  const actual = { status: 200, assertion: 'expected […] to have a length of <n> but got <n> (longer)' };
  it('matches every given field, the assertion as a part, raw or normalised', () => {
    expect(signatureMatches({ status: 200 }, actual)).toBe(true);
    expect(signatureMatches({ assertion: 'to have a length of' }, actual)).toBe(true);
    expect(signatureMatches({ assertion: "expected [ { '@ref': { …(2) } }, …(7) ] to have a length of 7 but got 8" }, actual)).toBe(true);
    expect(signatureMatches({ assertion: 'expected [ 1 ] to have a length of 7 but got 6' }, actual)).toBe(false);
    expect(signatureMatches({ status: 500 }, actual)).toBe(false);
    expect(signatureMatches({ errorCode: 'x' }, actual)).toBe(false);
  });
});
