// The official v4 driver's string and conversion functions (`q.Concat`, `q.Casefold`, `q.FindStr`, `q.SubString`,
// `q.ToString`, `q.ToNumber`, …) against the reference server: the wire form the driver builds is accepted and the
// results and errors are the real service's (spec/requirements/functions-strings.md).
import faunadb, { errors, type ExprArg } from 'faunadb';
import { describe, expect, it } from 'vitest';
import { useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

interface DriverErrorBody {
  errors: Array<{ code: string; description: string; position: unknown[] }>;
}

/** The first error of a query the driver rejects with a FaunaHTTPError. */
async function firstError(query: ExprArg): Promise<DriverErrorBody['errors'][number]> {
  const failure = await driver.client.query(query).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(errors.BadRequest);
  return ((failure as errors.FaunaHTTPError).requestResult.responseContent as unknown as DriverErrorBody).errors[0]!;
}

describe('faunadb driver: string functions', () => {
  it.each<[string, ExprArg, unknown]>([
    ['Concat', q.Concat(['Hello', 'World']), 'HelloWorld'],
    ['Concat with a separator', q.Concat(['Hello', 'World'], ' '), 'Hello World'],
    ['Casefold', q.Casefold('Hen Wen'), 'hen wen'],
    ['Casefold with a normalizer', q.Casefold('Ae\u0301', 'NFC'), 'A\u00e9'],
    ['StartsWith', q.StartsWith('faunadb', 'fauna'), true],
    ['EndsWith', q.EndsWith('faunadb', 'fauna'), false],
    ['ContainsStr', q.ContainsStr('faunadb', 'una'), true],
    ['FindStr', q.FindStr('heLLo world', 'world'), 6],
    ['FindStr with a start', q.FindStr('a big apple', 'a', 2), 6],
    ['Length', q.Length('\uD801\uDC00 ABC'), 5],
    ['LowerCase', q.LowerCase('HeLLo'), 'hello'],
    ['UpperCase', q.UpperCase('straße'), 'STRASSE'],
    ['TitleCase', q.TitleCase('hello WORLD'), 'Hello World'],
    ['Trim', q.Trim('  \tx \n'), 'x'],
    ['LTrim', q.LTrim('  x '), 'x '],
    ['RTrim', q.RTrim('  x '), '  x'],
    ['Repeat without a number', q.Repeat('ab'), 'abab'],
    ['Repeat', q.Repeat('ab', 3), 'ababab'],
    ['Space', q.Space(3), '   '],
    ['ReplaceStr', q.ReplaceStr('One Fish Two Fish', 'Fish', 'Cat'), 'One Cat Two Cat'],
    ['SubString with a start', q.SubString('DEABC', 2), 'ABC'],
    ['SubString with a start and length', q.SubString('DEFABCHIJ', -6, 3), 'ABC'],
  ])('%s', async (_name, query, expected) => {
    expect(await driver.client.query(query)).toEqual(expected);
  });

  it('reports a wrong argument type at the argument, as the real service', async () => {
    expect(await firstError(q.Concat(['a', 1]))).toEqual({
      position: ['concat', 1],
      code: 'invalid argument',
      description: 'String expected, Integer provided.',
    });
    expect(await firstError(q.FindStr('abc', 'b', 'x'))).toEqual({
      position: ['start'],
      code: 'invalid argument',
      description: 'Integer expected, String provided.',
    });
  });

  it('reports a SubString start beyond the string at the call', async () => {
    expect(await firstError(q.SubString('ABCDE', 6, 2))).toEqual({
      position: [],
      code: 'invalid argument',
      description: 'start must be less than or equal to the string length',
    });
  });
});

describe('faunadb driver: conversions', () => {
  it.each<[string, ExprArg, unknown]>([
    ['ToString of an integer', q.ToString(42), '42'],
    ['ToString of a double', q.ToString(0.0001), '1.0E-4'],
    ['ToString of a boolean', q.ToString(true), 'true'],
    ['ToString of null', q.ToString(null), 'null'],
    ['ToString of a time', q.ToString(q.Time('2020-01-02T03:04:05Z')), '2020-01-02T03:04:05Z'],
    ['ToNumber of a string', q.ToNumber('1,234'), 1234],
    ['ToNumber of a decimal string', q.ToNumber('2.5'), 2.5],
    ['ToDouble of an integer', q.ToDouble(3), 3],
    ['ToInteger of a double', q.ToInteger(3.99), 3],
    ['ToInteger of a string', q.ToInteger('-12.5'), -12],
  ])('%s', async (_name, query, expected) => {
    expect(await driver.client.query(query)).toEqual(expected);
  });

  it('reports conversions that cannot be made', async () => {
    expect(await firstError(q.ToNumber('abc'))).toEqual({
      position: [],
      code: 'invalid argument',
      description: 'Cannot cast String to Number.',
    });
    expect(await firstError(q.ToDouble(true))).toEqual({
      position: ['to_double'],
      code: 'invalid argument',
      description: 'Cannot cast Boolean to Double.',
    });
    expect(await firstError(q.ToInteger(false))).toEqual({
      position: ['to_integer'],
      code: 'invalid argument',
      description: 'Cannot cast Boolean to Integer.',
    });
    expect(await firstError(q.ToString([1]))).toEqual({
      position: [],
      code: 'invalid argument',
      description: 'Cannot cast Array to String.',
    });
  });
});
