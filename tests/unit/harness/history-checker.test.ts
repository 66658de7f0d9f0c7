import { describe, expect, it } from 'vitest';
import { checkHistory, expectedChanges, type ExpectedChange, type Observation } from '../../harness/history-checker.js';

const expected: ExpectedChange[] = [
  { ts: 10n, id: '1', type: 'add' },
  { ts: 10n, id: '2', type: 'add' },
  { ts: 20n, id: '1', type: 'update' },
];

function observe(client: string, kind: 'feed' | 'stream', events: ExpectedChange[]): Observation {
  return { client, kind, events };
}

describe('checkHistory', () => {
  it('accepts clients that saw every change once, in order', () => {
    expect(
      checkHistory(expected, [
        observe('f1', 'feed', expected),
        observe('f2', 'feed', expected),
        observe('s1', 'stream', [expected[1]!, expected[0]!, expected[2]!]),
      ]),
    ).toEqual([]);
  });

  it('reports a missed, a repeated and a foreign event', () => {
    const problems = checkHistory(expected, [
      observe('s', 'stream', [expected[0]!, expected[0]!, expected[2]!, { ts: 30n, id: '9', type: 'add' }]),
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/missed add of 2 at 10/),
        expect.stringMatching(/saw add of 1 at 10 2 times/),
        expect.stringMatching(/add of 9 at 30\) is not a committed change/),
      ]),
    );
  });

  it('reports descending txn_ts', () => {
    expect(checkHistory(expected, [observe('s', 'stream', [expected[2]!, expected[0]!, expected[1]!])])).toEqual([
      expect.stringMatching(/must ascend/),
    ]);
  });

  it('reports feed clients that disagree on the order within a transaction', () => {
    const swapped = [expected[1]!, expected[0]!, expected[2]!];
    expect(checkHistory(expected, [observe('a', 'feed', expected), observe('b', 'feed', swapped)])).toEqual([
      expect.stringMatching(/different orders/),
    ]);
  });
});

describe('expectedChanges', () => {
  it('applies the trigger table', () => {
    const member = (v: number) => v < 50;
    const writes = new Map<string, { before: number | undefined; after: number | undefined }>([
      ['a', { before: undefined, after: 1 }],
      ['b', { before: 1, after: 2 }],
      ['c', { before: 1, after: 60 }],
      ['d', { before: 60, after: 1 }],
      ['e', { before: 60, after: 70 }],
      ['f', { before: 1, after: undefined }],
    ]);
    expect(expectedChanges(5n, writes, member).map((c) => `${c.id}:${c.type}`)).toEqual([
      'a:add',
      'b:update',
      'c:remove',
      'd:add',
      'f:remove',
    ]);
  });
});
