// The official v4 driver's regular-expression string functions and NGram (`q.ContainsStrRegex`, `q.FindStrRegex`,
// `q.ReplaceStrRegex`, `q.RegexEscape`, `q.NGram`) against the reference server: the wire form the driver builds is
// accepted and the results and errors are the real service's (spec/requirements/functions-strings.md, FN-STR-020 on).
import faunadb, { type ExprArg } from 'faunadb';
import { describe, expect, it } from 'vitest';
import { expectBadRequest, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

describe('faunadb driver: regular-expression string functions', () => {
  it.each<[string, ExprArg, unknown]>([
    ['ContainsStrRegex', q.ContainsStrRegex('One 2\n3 Four', '(?m)^3'), true],
    ['ContainsStrRegex without a match', q.ContainsStrRegex('One 2\n3 Four', '^3'), false],
    [
      'FindStrRegex',
      q.FindStrRegex('One Fish Two fish', '[fF]ish'),
      [
        { start: 4, end: 7, data: 'Fish' },
        { start: 13, end: 16, data: 'fish' },
      ],
    ],
    ['FindStrRegex with a start', q.FindStrRegex('One Fish Two fish', '[fF]ish', 9), [{ start: 13, end: 16, data: 'fish' }]],
    ['FindStrRegex with a start and num_results', q.FindStrRegex('a1b2c3', '\\d', 2, 1), [{ start: 3, end: 3, data: '2' }]],
    ['ReplaceStrRegex', q.ReplaceStrRegex('1 Cat 2 Cap 3 cam', '[cC]a.', 'FISH'), '1 FISH 2 FISH 3 FISH'],
    ['ReplaceStrRegex of the first match', q.ReplaceStrRegex('1 Cat 2 Cap 3 cam', '[cC]a.', 'FISH', true), '1 FISH 2 Cap 3 cam'],
    ['ReplaceStrRegex with groups', q.ReplaceStrRegex('John Smith', '(\\w+) (\\w+)', '$2, $1'), 'Smith, John'],
    ['RegexEscape', q.RegexEscape('a.b'), '\\Qa.b\\E'],
    ['RegexEscape as a pattern', q.ContainsStrRegex('1+1=2', q.RegexEscape('1+1')), true],
    ['NGram', q.NGram('apple'), ['a', 'ap', 'p', 'pp', 'p', 'pl', 'l', 'le', 'e']],
    ['NGram with sizes', q.NGram('apple', 2, 3), ['ap', 'app', 'pp', 'ppl', 'pl', 'ple', 'le']],
    ['NGram of an array', q.NGram(['ab', 'c']), ['a', 'ab', 'b', 'c']],
  ])('%s', async (_name, query, expected) => {
    expect(await driver.client.query(query)).toEqual(expected);
  });

  it('reports an invalid pattern at the pattern, as the real service', async () => {
    await expectBadRequest(
      driver.client.query(q.FindStrRegex('', '{')),
      'invalid argument',
      'Search pattern /{/ is not a valid regular expression.',
      ['pattern'],
    );
  });

  it('reports a wrong argument type at the argument', async () => {
    await expectBadRequest(driver.client.query(q.ReplaceStrRegex(7, '7', '8')), 'invalid argument', 'String expected, Integer provided.', [
      'replacestrregex',
    ]);
  });

  it('reports NGram sizes too far apart at the call', async () => {
    await expectBadRequest(driver.client.query(q.NGram('apple', 1, 3)), 'invalid argument', 'max ngram size must be <= min + 1', []);
  });
});
