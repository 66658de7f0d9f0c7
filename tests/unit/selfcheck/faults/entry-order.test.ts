// The ordering faults' comparator: with no mistake it orders wire values as the reference server does (the real
// service's type order, which the spec accepts beside the SD's), so a correct page is left alone; each mistake changes
// exactly the comparisons it names.
import { describe, expect, it } from 'vitest';
import { compareEntries, compareValues, entryTypeOf, resortPage, type OrderMistake } from '../../../selfcheck/faults/lib/entry-order.js';
import type { SeenIndex } from '../../../selfcheck/faults/lib/index-tracking.js';
import { parseJson } from '../../../selfcheck/json-body.js';

/** Wire values as the proxy hands them to a fault: parsed losslessly (`2` and `2.0` stay apart). */
const wire = (text: string): unknown => parseJson(text);
const ref = (collection: string, id: string) =>
  wire(`{"@ref":{"id":"${id}","collection":{"@ref":{"id":"${collection}","collection":{"@ref":{"id":"collections"}}}}}}`);
const NONE: OrderMistake = {};
const index = (reverse: boolean[]): SeenIndex => ({
  name: 'i',
  reverse,
  source: null,
  termPaths: [],
  termIsBinding: [],
  valuePaths: [],
  unique: false,
});

/** `values` sorted by `compareValues` under `mistake`. */
const sorted = (values: unknown[], mistake: OrderMistake = NONE) => [...values].sort((a, b) => compareValues(a, b, mistake));

describe('entryTypeOf', () => {
  it('names the type of each wire value', () => {
    const cases: [string, string][] = [
      ['5', 'integer'],
      ['-12', 'integer'],
      ['5.0', 'decimal'],
      ['1e3', 'decimal'],
      ['"s"', 'string'],
      ['true', 'boolean'],
      ['[1]', 'array'],
      ['{"a":1}', 'object'],
      ['{"@obj":{"@ref":1}}', 'object'],
      ['{"@ref":{"id":"1"}}', 'ref'],
      ['{"@ts":"2024-01-01T00:00:00Z"}', 'time'],
      ['{"@date":"2024-01-01"}', 'date'],
      ['{"@bytes":"AA=="}', 'bytes'],
      ['{"@query":{"lambda":"x","expr":1}}', 'other'],
      ['null', 'null'],
    ];
    expect(cases.map(([text]) => entryTypeOf(wire(text)))).toEqual(cases.map(([, type]) => type));
    expect(entryTypeOf(undefined)).toBe('null');
    expect(entryTypeOf(2.5)).toBe('decimal');
    expect(entryTypeOf(2)).toBe('integer');
  });
});

describe('compareValues without a mistake', () => {
  it('orders types as the real service: numbers, bytes, strings, arrays, objects, refs, times, dates, booleans, nulls', () => {
    const ascending = [
      '0.5',
      '1',
      '1.5',
      '{"@bytes":"AA=="}',
      '{"@bytes":"AAE="}',
      '"a"',
      '[1]',
      '{"a":1}',
      '{"@ref":{"id":"1"}}',
      '{"@ts":"2024-01-01T00:00:00Z"}',
      '{"@date":"2024-01-01"}',
      'false',
      'null',
    ].map(wire);
    expect(sorted([...ascending].reverse())).toEqual(ascending);
  });

  it('compares an integer and a decimal by value, equal when equal', () => {
    expect(compareValues(wire('1'), wire('1.0'), NONE)).toBe(0);
    expect(compareValues(wire('2'), wire('1.5'), NONE)).toBe(1);
  });

  it('orders integers by value (beyond 2^53 too), decimals by value with -0 before 0, strings by collation', () => {
    expect(sorted(['10', '9', '-1', '9007199254740993', '9007199254740992'].map(wire)).map(String)).toEqual([
      '-1',
      '9',
      '10',
      '9007199254740992',
      '9007199254740993',
    ]);
    expect(sorted(['0.0', '-0.0', '1.5', '-2.5'].map(wire)).map(String)).toEqual(['-2.5', '-0.0', '0.0', '1.5']);
    expect(sorted(['b', 'B', 'a', 'é', 'e'])).toEqual(['a', 'B', 'b', 'e', 'é'].sort(new Intl.Collator('en').compare));
    expect(compareValues('a', 'a', NONE)).toBe(0);
  });

  it('orders false before true, arrays and objects by content, times by instant, refs by numeric id then collection', () => {
    expect(compareValues(false, true, NONE)).toBe(-1);
    expect(compareValues(wire('[1,2]'), wire('[1,10]'), NONE)).toBe(-1);
    expect(compareValues(wire('[2]'), wire('[1,5]'), NONE)).toBe(1);
    expect(compareValues(wire('[1]'), wire('[1,0]'), NONE)).toBe(-1);
    expect(compareValues(wire('{"b":1}'), wire('{"a":2,"c":0}'), NONE)).toBe(1);
    expect(compareValues(wire('{"@ts":"2024-01-01T01:00:00+02:00"}'), wire('{"@ts":"2024-01-01T00:00:00Z"}'), NONE)).toBe(-1);
    expect(compareValues(wire('{"@ts":"2024-01-01T00:00:00.5Z"}'), wire('{"@ts":"2024-01-01T00:00:00.25Z"}'), NONE)).toBe(1);
    expect(compareValues(ref('c', '9'), ref('c', '10'), NONE)).toBe(-1);
    expect(compareValues(ref('b', '10'), ref('c', '9'), NONE)).toBe(1);
    expect(compareValues(ref('b', '9'), ref('c', '9'), NONE)).toBe(-1);
    expect(compareValues(ref('b', '10'), ref('c', '9'), { refsByCollectionFirst: true })).toBe(-1);
    expect(compareValues(wire('{"@date":"2024-01-02"}'), wire('{"@date":"2024-01-10"}'), NONE)).toBe(-1);
  });
});

describe('each mistake changes only what it names', () => {
  it('typeAfter moves one type right after another, leaving the others', () => {
    const mistake: OrderMistake = { typeAfter: ['decimal', 'string'] };
    expect(compareValues(wire('1.5'), 'a', mistake)).toBe(1);
    expect(compareValues(wire('1.5'), wire('[1]'), mistake)).toBe(-1);
    expect(compareValues(wire('1'), wire('1.5'), mistake)).toBe(-1);
    expect(compareValues(wire('{"@bytes":"AA=="}'), null, { typeAfter: ['bytes', 'null'] })).toBe(1);
  });

  it('swapTypes exchanges two types in the type order, leaving the others', () => {
    const mistake: OrderMistake = { swapTypes: ['integer', 'string'] };
    expect(compareValues('a', wire('1'), mistake)).toBe(-1);
    expect(compareValues('a', wire('1'), NONE)).toBe(1);
    expect(compareValues(wire('[1]'), true, mistake)).toBe(-1);
    expect(compareValues(wire('1'), wire('2'), mistake)).toBe(-1);
  });

  it('integersAsText and decimalsAsText compare numbers as text, each for its own type', () => {
    // The text comparison answers a code-point difference, not only its sign: sorting reads the sign.
    expect(Math.sign(compareValues(wire('10'), wire('9'), { integersAsText: true }))).toBe(-1);
    expect(compareValues(wire('10.5'), wire('9.5'), { integersAsText: true })).toBe(1);
    expect(Math.sign(compareValues(wire('10.5'), wire('9.5'), { decimalsAsText: true }))).toBe(-1);
    expect(compareValues(wire('10'), wire('9'), { decimalsAsText: true })).toBe(1);
  });

  it('stringsByCodePoint puts upper case before lower case', () => {
    expect(compareValues('B', 'a', { stringsByCodePoint: true })).toBe(-1);
    expect(compareValues('B', 'a', NONE)).toBe(1);
  });

  it('arraysByLengthFirst and objectsByKeyCountFirst put the shorter one first', () => {
    expect(compareValues(wire('[2]'), wire('[1,5]'), { arraysByLengthFirst: true })).toBe(-1);
    expect(compareValues(wire('{"b":1}'), wire('{"a":2,"c":0}'), { objectsByKeyCountFirst: true })).toBe(-1);
    expect(compareValues(wire('{"b":1}'), wire('{"a":2,"c":0}'), { arraysByLengthFirst: true })).toBe(1);
  });

  it('refIdsAsText, timesAsText and trueBeforeFalse', () => {
    expect(compareValues(ref('c', '9'), ref('c', '10'), { refIdsAsText: true })).toBe(1);
    expect(compareValues(wire('{"@ts":"2024-01-01T01:00:00+02:00"}'), wire('{"@ts":"2024-01-01T00:00:00Z"}'), { timesAsText: true })).toBe(
      1,
    );
    expect(compareValues(true, false, { trueBeforeFalse: true })).toBe(-1);
    expect(compareValues(true, true, { trueBeforeFalse: true })).toBe(0);
  });
});

describe('compareEntries', () => {
  it('compares a single covered value directly, reversed when its index says so', () => {
    expect(compareEntries(wire('1'), wire('2'), index([]), NONE)).toBe(-1);
    expect(compareEntries(wire('1'), wire('2'), index([true]), NONE)).toBe(1);
  });

  it('reverse flips the type order too, unless reverseKeepsTypeOrder', () => {
    expect(compareEntries(wire('1'), 'a', index([true]), NONE)).toBe(1);
    expect(compareEntries(wire('1'), 'a', index([true]), { reverseKeepsTypeOrder: true })).toBe(-1);
    expect(compareEntries(wire('1'), wire('2'), index([true]), { reverseKeepsTypeOrder: true })).toBe(1);
  });

  it('compares tuples column by column with each column its own direction; columnsFromLast starts at the last', () => {
    const a = wire('[1,"z"]');
    const b = wire('[2,"a"]');
    expect(compareEntries(a, b, index([false, false]), NONE)).toBe(-1);
    expect(compareEntries(a, b, index([true, false]), NONE)).toBe(1);
    expect(compareEntries(a, b, index([false, false]), { columnsFromLast: true })).toBe(1);
    expect(compareEntries(wire('[1,"a"]'), wire('[1,"b"]'), index([false, true]), NONE)).toBe(1);
    expect(compareEntries(a, a, index([false, false]), NONE)).toBe(0);
    expect(compareEntries(wire('1'), b, index([false, false]), NONE)).toBe(0);
  });
});

describe('resortPage', () => {
  it('leaves a correctly ordered page as it is and says nothing moved', () => {
    const data = ['1', '2', '10'].map(wire);
    const before = [...data];
    expect(resortPage(data, index([false]), NONE)).toBe(false);
    expect(data).toEqual(before);
  });

  it('re-sorts the page in place, stably, as the mistaken comparator orders it', () => {
    const [one, two, ten] = ['1', '2', '10'].map(wire);
    const data = [one, two, ten];
    expect(resortPage(data, index([false]), { integersAsText: true })).toBe(true);
    expect(data).toEqual([one, ten, two]);
    // Values of a type the comparator has no order for compare equal: they keep their places relative to each other.
    const [second, first] = [wire('{"@query":{"lambda":"x","expr":2}}'), wire('{"@query":{"lambda":"x","expr":1}}')];
    const unordered = [second, first, one];
    expect(resortPage(unordered, index([false]), NONE)).toBe(true);
    expect(unordered).toEqual([one, second, first]);
    const tuples = [wire('[1,"x"]'), wire('[0,"y"]')];
    const [x, y] = tuples;
    expect(resortPage(tuples, index([false, false]), { columnsFromLast: true })).toBe(false);
    expect(resortPage(tuples, index([false, false]), NONE)).toBe(true);
    expect(tuples).toEqual([y, x]);
  });
});
