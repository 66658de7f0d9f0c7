import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../../reference-impl/errors/query-error.js';
import { functionTimeLimit, withinTimeLimit } from '../../../../reference-impl/eval/time-limit.js';

describe('withinTimeLimit', () => {
  it('answers what the operation answers when it ends in time', () => {
    expect(withinTimeLimit('Sum', functionTimeLimit(1000), () => 1 + 2)).toBe(3);
  });

  it('stops an operation that outlasts the given limit with 440 processing time limit exceeded', () => {
    let error: unknown;
    try {
      withinTimeLimit('A loop', functionTimeLimit(50), () => {
        for (;;);
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ status: 440, code: 'processing time limit exceeded', description: 'A loop ran for over 50 ms.' });
  });
});
