// The official v4 driver's `q.Format` and the deprecated `q.NextId` and `q.Classes` against the reference server: the
// wire form the driver builds is accepted and the results and errors are the real service's
// (spec/requirements/functions-format.md).
import faunadb, { values, type ExprArg } from 'faunadb';
import { describe, expect, it } from 'vitest';
import { expectBadRequest, useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
// The driver's type declarations give Format one `values` argument; the function takes the values as rest arguments.
const Format = q.Format as unknown as (format: ExprArg, ...values: Array<ExprArg | null>) => faunadb.Expr;
const driver = useDriverServer();

describe('faunadb driver: Format', () => {
  const cases: Array<[string, ExprArg, string]> = [
    ['several values', Format('%s %s %s %s', 'str', true, false, null), 'str true false null'],
    ['one value', Format('%20s', 'str'), `${' '.repeat(17)}str`],
    ['no value', Format('100%%%n'), '100%\n'],
    ['integers', Format('%d %o %x %X %+d %,d', 15, 15, 15, 255, 10, 1234567), '15 17 f FF +10 1,234,567'],
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: a double with more digits than %.2f keeps, sent on purpose
    ['doubles', Format('%e %f %g %.2f', 3.14, 3.14, 3.14, 3.14159), '3.140000e+00 3.140000 3.14000 3.14'],
    ['booleans', Format('%b %b %B', true, null, 'x'), 'true false TRUE'],
    ['argument indexes', Format('%2$s%3$s %1$s', 'rocks', 'Fauna', 'DB'), 'FaunaDB rocks'],
    ['a date', Format('%tA, %1$tB %1$te', q.Date('1970-03-01')), 'Sunday, March 1'],
    ['a time', Format('%tT %1$tp %1$tN', q.Time('1970-03-01T15:30:45.123456789Z')), '15:30:45 pm 123456789'],
    ['an object as JSON', Format('%@', { x: 10, y: 3.14, z: ['str'] }), '{"x":10,"y":3.14,"z":["str"]}'],
    [
      "a ref in the driver's API version",
      Format('%^', q.Ref(q.Collection('c'), '1')),
      '{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}',
    ],
    ['computed values', Format('%s-%d', q.Concat(['a', 'b']), q.Add(1, 2)), 'ab-3'],
  ];

  it.each(cases)('Format of %s', async (_name, query, expected) => {
    expect(await driver.client.query(query)).toBe(expected);
  });

  it('an unknown conversion is an invalid argument at the format', async () => {
    await expectBadRequest(driver.client.query(Format('%Z', '')), 'invalid argument', "Invalid conversion format '%Z'.", ['format']);
  });

  it('a conversion the Formatter refuses is an invalid argument at the format', async () => {
    await expectBadRequest(driver.client.query(Format('% s', '')), 'invalid argument', "Invalid conversion format '% s'.", ['format']);
  });

  it('a value of the wrong type is an invalid argument at the value', async () => {
    await expectBadRequest(driver.client.query(Format('%t', 10)), 'invalid argument', 'Date or Time expected, Integer provided.', [
      'values',
      0,
    ]);
    await expectBadRequest(driver.client.query(Format('%s %d', 'a', 'b')), 'invalid argument', 'Integer expected, String provided.', [
      'values',
      1,
    ]);
  });

  it('missing values are an invalid argument at the format', async () => {
    await expectBadRequest(
      driver.client.query(Format('%d %d', 10)),
      'invalid argument',
      'format specifiers count must be <= arguments size',
      ['format'],
    );
    await expectBadRequest(driver.client.query(Format('%4$d', 10)), 'invalid argument', 'index must be >= 1 and <= arguments size', [
      'format',
    ]);
  });
});

describe('faunadb driver: deprecated aliases', () => {
  it('NextId answers a new id string', async () => {
    const [first, second] = (await driver.client.query([q.NextId(), q.NextId()])) as string[];
    expect(first).toMatch(/^\d+$/);
    expect(second).toMatch(/^\d+$/);
    expect(second).not.toBe(first);
  });

  it('NextId can name a new document', async () => {
    await driver.client.query(q.CreateCollection({ name: 'next_ids' }));
    const id = (await driver.client.query(q.NextId())) as string;
    const doc = (await driver.client.query(q.Create(q.Ref(q.Collection('next_ids'), id), { data: {} }))) as { ref: values.Ref };
    expect(doc.ref.id).toBe(id);
  });

  it('Classes answers the collections ref, and Paginate of it lists the collections', async () => {
    await driver.client.query(q.CreateCollection({ name: 'listed_by_classes' }));
    const ref = (await driver.client.query(q.Classes())) as values.Ref;
    expect(ref).toBeInstanceOf(values.Ref);
    expect(ref.id).toBe('collections');
    expect(await driver.client.query(q.Equals(q.Classes(), q.Collections()))).toBe(true);
    const page = (await driver.client.query(q.Paginate(q.Classes()))) as { data: values.Ref[] };
    expect(page.data.map((r) => r.id)).toContain('listed_by_classes');
  });

  it('Classes of a child database answers the scoped collections ref', async () => {
    await driver.client.query(q.CreateDatabase({ name: 'classes_child' }));
    expect(await driver.client.query(q.Equals(q.Classes(q.Database('classes_child')), q.Collections(q.Database('classes_child'))))).toBe(
      true,
    );
  });
});
