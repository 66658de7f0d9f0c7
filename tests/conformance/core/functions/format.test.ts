// Format and the deprecated aliases NextId and Classes of FQL v4 (profile v4-functions):
// spec/requirements/functions-format.md.
import { describe, expect } from 'vitest';
import { check, decimal, useTenant } from '../../../harness/index.js';
import { expectQueryError } from '../../../harness/v4.js';
import {
  expectInvalidArgument,
  expectRefusedOrBuilt,
  expectRepeated,
  expectResult,
  resultOf,
  type ErrorCase,
  type ResultCase,
} from './function-cases.js';

const DATE = { '@date': '1970-03-01' };
const TIME = { '@ts': '1970-03-01T15:30:45.123456789Z' };
const DOC_REF = { ref: { collection: 'c' }, id: '1' };

const fmt = (format: unknown, values: unknown): { format: unknown; values: unknown } => ({ format, values });

const FORMAT_RESULTS: readonly ResultCase[] = [
  { name: 'Format copies text and prints %%', ids: ['FN-FMT-001'], expr: fmt('100%% of %s', ['it']), expected: '100% of it' },
  { name: 'Format of %n prints a line feed', ids: ['FN-FMT-001'], expr: fmt('a%nb', []), expected: 'a\nb' },
  { name: 'Format of text alone', ids: ['FN-FMT-001'], expr: fmt('plain', []), expected: 'plain' },
  { name: 'Format of a single value sent without an array', ids: ['FN-FMT-001'], expr: fmt('[%s]', 'one'), expected: '[one]' },
  { name: 'Format of an empty string', ids: ['FN-FMT-001'], expr: fmt('', []), expected: '' },

  {
    name: 'Format with explicit indexes',
    ids: ['FN-FMT-002'],
    expr: fmt('%2$s%3$s %1$s', ['rocks', 'Fauna', 'DB']),
    expected: 'FaunaDB rocks',
  },
  {
    name: 'Format: an indexed conversion does not advance the next value',
    ids: ['FN-FMT-002'],
    expr: fmt('%2$s %s %s', ['a', 'b']),
    expected: 'b a b',
  },
  { name: 'Format: an index may repeat a value', ids: ['FN-FMT-002'], expr: fmt('%1$s%1$s', ['x']), expected: 'xx' },

  {
    name: 'Format %s of scalars',
    ids: ['FN-FMT-003'],
    expr: fmt('%s %s %s %s %s', ['str', true, false, null, 42]),
    expected: 'str true false null 42',
  },
  {
    name: 'Format %s of doubles',
    ids: ['FN-FMT-003'],
    expr: fmt('%s %s %s', [decimal('3.14'), decimal('1e21'), decimal('2.0')]),
    expected: '3.14 1.0E21 2.0',
  },
  {
    name: 'Format %s of a date and a time',
    ids: ['FN-FMT-003'],
    expr: fmt('%s %s', [DATE, TIME]),
    expected: '1970-03-01 1970-03-01T15:30:45.123456789Z',
  },
  {
    name: 'Format %S upper-cases',
    ids: ['FN-FMT-003'],
    expr: fmt('%S %S %S %S', ['str', true, false, null]),
    expected: 'STR TRUE FALSE NULL',
  },

  { name: 'Format %d %o %x', ids: ['FN-FMT-004'], expr: fmt('%d %o %x', [15, 15, 15]), expected: '15 17 f' },
  { name: 'Format %X', ids: ['FN-FMT-004'], expr: fmt('%X', [255]), expected: 'FF' },
  { name: 'Format %d of a negative integer', ids: ['FN-FMT-004'], expr: fmt('%d', [-1234567890123]), expected: '-1234567890123' },
  {
    name: "Format %x and %o of -1 are two's complement",
    ids: ['FN-FMT-004'],
    expr: fmt('%x %o', [-1, -1]),
    expected: 'ffffffffffffffff 1777777777777777777777',
  },

  {
    name: 'Format %e %f %g',
    ids: ['FN-FMT-005'],
    expr: fmt('%e %f %g', [decimal('3.14'), decimal('3.14'), decimal('3.14')]),
    expected: '3.140000e+00 3.140000 3.14000',
  },
  {
    name: 'Format %E %G',
    ids: ['FN-FMT-005'],
    expr: fmt('%E %G', [decimal('3.14'), decimal('31400000.0')]),
    expected: '3.140000E+00 3.14000E+07',
  },
  {
    name: 'Format %.Nf rounds',
    ids: ['FN-FMT-005'],
    expr: fmt('%.2f %.3f %.5f', [decimal('3.14159'), decimal('3.14159'), decimal('3.14159')]),
    expected: '3.14 3.142 3.14159',
  },
  {
    name: 'Format %.2f rounds half up on the decimal digits',
    ids: ['FN-FMT-005'],
    expr: fmt('%.2f %.2f %.0f %.0f', [decimal('0.125'), decimal('1.005'), decimal('0.5'), decimal('2.5')]),
    expected: '0.13 1.01 1 3',
  },
  { name: 'Format %.Nf pads with zeros', ids: ['FN-FMT-005'], expr: fmt('%.20f', [decimal('0.1')]), expected: '0.10000000000000000000' },
  {
    name: 'Format %g chooses notation by magnitude',
    ids: ['FN-FMT-005'],
    expr: fmt('%g|%g|%g|%.3g', [decimal('0.0001'), decimal('0.00001'), decimal('0.0'), decimal('1234.5')]),
    expected: '0.000100000|1.00000e-05|0.00000|1.23e+03',
  },
  {
    name: 'Format %e of zero and a carry',
    ids: ['FN-FMT-005'],
    expr: fmt('%e|%.1e|%.0e', [decimal('0.0'), decimal('9.99'), decimal('12345.0')]),
    expected: '0.000000e+00|1.0e+01|1e+04',
  },
  { name: 'Format %f of a negative zero', ids: ['FN-FMT-005'], expr: fmt('%f', [decimal('-0.0')]), expected: '-0.000000' },

  {
    name: 'Format %b',
    ids: ['FN-FMT-006'],
    expr: fmt('%b %b %b %b %b %b', [true, 'str', 10, decimal('3.14'), false, null]),
    expected: 'true true true true false false',
  },
  { name: 'Format %B', ids: ['FN-FMT-006'], expr: fmt('%B %B %B', [true, [1], null]), expected: 'TRUE TRUE FALSE' },

  {
    name: 'Format with width',
    ids: ['FN-FMT-007'],
    expr: fmt('[%20s][%20d][%20f][%20b]', ['str', 10, decimal('3.14'), false]),
    expected: `[${' '.repeat(17)}str][${' '.repeat(18)}10][${' '.repeat(12)}3.140000][${' '.repeat(15)}false]`,
  },
  {
    name: 'Format with width, left-justified',
    ids: ['FN-FMT-007'],
    expr: fmt('[%-8s][%-8d][%-8b]', ['str', 10, true]),
    expected: '[str     ][10      ][true    ]',
  },
  {
    name: 'Format with number flags',
    ids: ['FN-FMT-007'],
    expr: fmt('%+d|% d|%(d|%05d|%,d|%#x|%#o|%08X', [10, 10, -10, -42, 1234567, 255, 8, 255]),
    expected: '+10| 10|(10)|-0042|1,234,567|0xff|010|000000FF',
  },
  {
    name: 'Format with double flags',
    ids: ['FN-FMT-007'],
    expr: fmt('%+f|% f|%(f|%(f|%,015.3f', [
      decimal('3.14159'),
      decimal('3.14159'),
      decimal('3.14159'),
      decimal('-3.14159'),
      decimal('1234567.891'),
    ]),
    expected: '+3.141590| 3.141590|3.141590|(3.141590)|001,234,567.891',
  },
  { name: 'Format with a precision on text', ids: ['FN-FMT-007'], expr: fmt('%.2s|%5.1B', ['xyz', true]), expected: 'xy|    T' },

  {
    name: 'Format %t of a date',
    ids: ['FN-FMT-010'],
    expr: fmt('%t|%tB|%tb|%th|%TB|%tA|%ta|%TA|%tC|%ty|%tY|%td|%te|%tm|%tj|%tD|%tF', Array(17).fill(DATE)),
    expected: '1970-03-01|March|Mar|Mar|MARCH|Sunday|Sun|SUNDAY|19|70|1970|01|1|03|060|03/01/70|1970-03-01',
  },
  {
    name: 'Format %t of a time',
    ids: ['FN-FMT-010'],
    expr: fmt('%t|%tH|%tI|%tk|%tl|%tM|%tS|%tL|%tN|%tp|%Tp|%ts|%tQ|%tz|%tZ', Array(15).fill(TIME)),
    expected: '1970-03-01T15:30:45.123456789Z|15|03|15|3|30|45|123|123456789|pm|PM|5153445|5153445123|+0000|Z',
  },
  {
    name: 'Format composite %t conversions of a time',
    ids: ['FN-FMT-010'],
    expr: fmt('%tR|%tT|%tr|%tD|%tF|%tc|%tB', Array(7).fill(TIME)),
    expected: '15:30|15:30:45|03:30:45 PM|03/01/70|1970-03-01|Sun Mar 01 15:30:45 Z 1970|March',
  },
  { name: 'Format %t with a width', ids: ['FN-FMT-010'], expr: fmt('[%-8tB][%8Ta]', [DATE, DATE]), expected: '[March   ][     SUN]' },

  {
    name: 'Format %@ prints wire JSON of API 2.1',
    ids: ['FN-FMT-011'],
    expr: fmt('%@', { object: { x: 10, y: decimal('3.14'), z: ['str'] } }),
    expected: '{"x":10,"y":3.14,"z":["str"]}',
  },
  {
    name: 'Format %@ of a ref uses the 2.1 wording',
    ids: ['FN-FMT-011'],
    expr: fmt('%@', [DOC_REF]),
    expected: '{"@ref":{"id":"1","class":{"@ref":{"id":"c","class":{"@ref":{"id":"classes"}}}}}}',
  },
  {
    name: "Format %^ of a ref uses the request's version",
    ids: ['FN-FMT-011'],
    expr: fmt('%^', [DOC_REF]),
    expected: '{"@ref":{"id":"1","collection":{"@ref":{"id":"c","collection":{"@ref":{"id":"collections"}}}}}}',
  },
  {
    name: 'Format %@ ignores width and flags, and prints scalars',
    ids: ['FN-FMT-011'],
    expr: fmt('%-9@|%@|%@|%@', ['s', 1, null, DATE]),
    expected: '"s"|1|null|{"@date":"1970-03-01"}',
  },
];

const FORMAT_ERRORS: readonly ErrorCase[] = [
  {
    name: 'Format with more conversions than values',
    ids: ['FN-FMT-002'],
    expr: fmt('%d %d', 10),
    position: ['format'],
    description: 'format specifiers count must be <= arguments size',
  },
  {
    name: 'Format with an index above the values',
    ids: ['FN-FMT-002'],
    expr: fmt('%4$d', 10),
    position: ['format'],
    description: 'index must be >= 1 and <= arguments size',
  },
  {
    name: 'Format %s of an array',
    ids: ['FN-FMT-003'],
    expr: fmt('%s %s', ['a', [1]]),
    position: ['values', 1],
    description: 'Cannot cast Array to String.',
  },
  {
    name: 'Format %s of an object',
    ids: ['FN-FMT-003'],
    expr: fmt('%s', { object: { a: 1 } }),
    position: ['values', 0],
    description: 'Cannot cast Object to String.',
  },
  {
    name: 'Format %d of a double',
    ids: ['FN-FMT-004'],
    expr: fmt('%d', decimal('1.5')),
    position: ['values', 0],
    description: 'Integer expected, Double provided.',
  },
  {
    name: 'Format %x of a string',
    ids: ['FN-FMT-004'],
    expr: fmt('%s%x', ['a', 'b']),
    position: ['values', 1],
    description: 'Integer expected, String provided.',
  },
  {
    name: 'Format %f of an integer',
    ids: ['FN-FMT-005'],
    expr: fmt('%f', 3),
    position: ['values', 0],
    description: 'Number expected, Integer provided.',
  },
  {
    name: 'Format %e of null',
    ids: ['FN-FMT-005'],
    expr: fmt('%e', [null]),
    position: ['values', 0],
    description: 'Number expected, Null provided.',
  },
  { name: 'Format % s', ids: ['FN-FMT-008'], expr: fmt('% s', ''), position: ['format'], description: "Invalid conversion format '% s'." },
  { name: 'Format %+s', ids: ['FN-FMT-008'], expr: fmt('%+s', ''), position: ['format'], description: "Invalid conversion format '%+s'." },
  { name: 'Format %#d', ids: ['FN-FMT-008'], expr: fmt('%#d', 1), position: ['format'], description: "Invalid conversion format '%#d'." },
  {
    name: 'Format %.2d',
    ids: ['FN-FMT-008'],
    expr: fmt('%.2d', 1),
    position: ['format'],
    description: "Invalid conversion format '%.2d'.",
  },
  {
    name: 'Format %-d without a width',
    ids: ['FN-FMT-008'],
    expr: fmt('%-d', 1),
    position: ['format'],
    description: "Invalid conversion format '%-d'.",
  },
  { name: 'Format %+x', ids: ['FN-FMT-008'], expr: fmt('%+x', 1), position: ['format'], description: "Invalid conversion format '%+x'." },
  {
    name: 'Format %,e',
    ids: ['FN-FMT-008'],
    expr: fmt('%,e', decimal('1.0')),
    position: ['format'],
    description: "Invalid conversion format '%,e'.",
  },
  {
    name: 'Format %+ d',
    ids: ['FN-FMT-008'],
    expr: fmt('%+ d', 1),
    position: ['format'],
    description: "Invalid conversion format '%+ d'.",
  },
  {
    name: 'Format with a repeated flag',
    ids: ['FN-FMT-008'],
    expr: fmt('%--5d', 1),
    position: ['format'],
    description: "Invalid conversion format '%--5d'.",
  },
  { name: 'Format %<s', ids: ['FN-FMT-008'], expr: fmt('%<s', 'a'), position: ['format'], description: "Invalid conversion format '%<s'." },
  {
    name: 'Format quotes a refused conversion without its index',
    ids: ['FN-FMT-008'],
    expr: fmt('%1$.1d', 1),
    position: ['format'],
    description: "Invalid conversion format '%.1d'.",
  },
  {
    name: 'Format checks the value before the flags',
    ids: ['FN-FMT-008', 'FN-FMT-004'],
    expr: fmt('%.2d', 'x'),
    position: ['values', 0],
    description: 'Integer expected, String provided.',
  },
  {
    name: 'Format %.1tB',
    ids: ['FN-FMT-008'],
    expr: fmt('%.1tB', DATE),
    position: ['format'],
    description: "Invalid conversion format '%.1tB'.",
  },
  { name: 'Format %Z', ids: ['FN-FMT-009'], expr: fmt('%Z', ''), position: ['format'], description: "Invalid conversion format '%Z'." },
  { name: 'Format %c', ids: ['FN-FMT-009'], expr: fmt('%c', 'a'), position: ['format'], description: "Invalid conversion format '%c'." },
  {
    name: 'Format ending in a lone %',
    ids: ['FN-FMT-009'],
    expr: fmt('100%', []),
    position: ['format'],
    description: "Invalid conversion format '%'.",
  },
  {
    name: 'Format quotes an unknown specifier whole',
    ids: ['FN-FMT-009'],
    expr: fmt('%1$-5h', 'a'),
    position: ['format'],
    description: "Invalid conversion format '%1$-5h'.",
  },
  {
    name: 'Format reads the whole string before printing',
    ids: ['FN-FMT-009'],
    expr: fmt('%d %q', ['x']),
    position: ['format'],
    description: "Invalid conversion format '%q'.",
  },
  {
    name: 'Format %t of an integer',
    ids: ['FN-FMT-010'],
    expr: fmt('%t', 10),
    position: ['values', 0],
    description: 'Date or Time expected, Integer provided.',
  },
  {
    name: 'Format %tH of a date',
    ids: ['FN-FMT-010'],
    expr: fmt('%s %tH', ['a', DATE]),
    position: ['values', 1],
    description: "Invalid date/time suffix '%tH'.",
  },
  {
    name: 'Format %tq of a time',
    ids: ['FN-FMT-010'],
    expr: fmt('%tq', TIME),
    position: ['values', 0],
    description: "Invalid date/time suffix '%tq'.",
  },
  {
    name: 'Format of a format that is not a string',
    ids: ['FN-FMT-012'],
    expr: fmt(5, []),
    position: ['format'],
    description: 'String expected, Integer provided.',
  },
];

describe('Format', () => {
  const t = useTenant();

  // One check per case, titled as written: check.each's titles would read the `%s` of a case name as a placeholder.
  for (const { ids, name, expr, expected } of FORMAT_RESULTS) {
    check(ids, name, async () => expectResult(await t.server.query(expr), expected));
  }

  for (const { ids, name, expr, position, description } of FORMAT_ERRORS) {
    check(ids, `${name} answers invalid argument`, async () => expectInvalidArgument(await t.server.query(expr), position, description));
  }

  check(['FN-FMT-001', 'FN-FMT-003'], 'Format prints computed values', async () => {
    const expr = { let: [{ n: { add: [40, 2] } }], in: fmt('%s=%d', [{ concat: ['a', 'b'] }, { var: 'n' }]) };
    expectResult(await t.server.query(expr), 'ab=42');
  });

  // The limit is this project's (a MAY): the real service prints these, so either answer is accepted. The sizes are
  // just past the limit, so that the printed text stays small enough to check.
  const LIMIT = 8388608;

  check(['FN-FMT-013'], 'Format with a width past the limit is refused as too long, or printed', async () => {
    expectRefusedOrBuilt(await t.server.query(fmt(`%${LIMIT + 1}s`, 'x')), [], (built) => {
      expect(built === `${' '.repeat(LIMIT)}x`, 'answered another text').toBe(true);
    });
  });

  check(['FN-FMT-013'], 'Format with a precision past the limit is refused as too long, or printed', async () => {
    const res = await t.server.query({ let: [{ x: 1 }], in: fmt(`%.${LIMIT + 1}f`, decimal('1.5')) });
    expectRefusedOrBuilt(res, ['in'], (built) => expect(built === `1.5${'0'.repeat(LIMIT)}`, 'answered another text').toBe(true));
  });

  check(['FN-FMT-013'], 'Format of a long result is refused as too long, or printed', async () => {
    const mebibyte = { repeat: { repeat: 'x', number: 1024 }, number: 1024 };
    const res = await t.server.query({
      let: [{ s: mebibyte }],
      in: fmt(
        '%s'.repeat(9),
        Array.from({ length: 9 }, () => ({ var: 's' })),
      ),
    });
    expectRefusedOrBuilt(res, ['in'], (built) => expectRepeated(built, 'x', 9 * 1024 * 1024));
  });
});

describe('Deprecated aliases', () => {
  const t = useTenant();

  check(['FN-ALIAS-001'], 'NextId answers a new id string, as NewId', async () => {
    const [first, second] = (await resultOf(t.server, [{ next_id: null }, { next_id: null }])) as unknown[];
    const shape = typeof (await resultOf(t.server, { new_id: null }));
    expect(shape).toBe('string');
    expect(typeof first).toBe('string');
    expect(first).toMatch(/^\d+$/);
    expect(second).toMatch(/^\d+$/);
    expect(second).not.toBe(first);
  });

  check.each(['next_id', 'new_id'])(
    ['FN-ALIAS-003'],
    '%s in a read-only request (GET /?q=) answers 400 invalid expression, as a write',
    async (form) => {
      const res = await t.server.request('GET', `/?q=${encodeURIComponent(JSON.stringify({ [form]: null }))}`, {
        headers: { 'x-faunadb-api-version': '4' },
      });
      const error = expectQueryError(res, [400, 'invalid expression']);
      expect(error.position, res.explain('reports another position')).toEqual([]);
    },
  );

  check(['FN-ALIAS-001'], 'an id from NextId can create a document', async () => {
    (await t.admin.query({ create_collection: { object: { name: 'next_id_docs' } } })).expectStatus(201);
    const id = (await resultOf(t.server, { next_id: null })) as string;
    const doc = (
      await t.server.query({ create: { ref: { collection: 'next_id_docs' }, id }, params: { object: { data: { object: { a: 1 } } } } })
    ).expectStatus(201).resource;
    expect(doc.ref['@ref'].id).toBe(id);
  });

  check(['FN-ALIAS-002'], 'Classes answers the same ref as Collections', async () => {
    expect(await resultOf(t.server, { classes: null })).toEqual(await resultOf(t.server, { collections: null }));
    expectResult(await t.server.query({ equals: [{ classes: null }, { collections: null }] }), true);
  });

  check(['FN-ALIAS-002'], 'Classes of a child database answers the ref Collections of it answers, scoped to that database', async () => {
    (await t.admin.query({ create_database: { object: { name: 'classes_child' } } })).expectStatus(201);
    const scoped = await resultOf(t.admin, { classes: { database: 'classes_child' } });
    expect(scoped).toEqual(await resultOf(t.admin, { collections: { database: 'classes_child' } }));
    expect(scoped).not.toEqual(await resultOf(t.admin, { classes: null }));
  });

  check(['FN-ALIAS-002'], 'Paginate of Classes lists the collections', async () => {
    (await t.admin.query({ create_collection: { object: { name: 'classes_listed' } } })).expectStatus(201);
    const page = await resultOf(t.admin, { paginate: { classes: null } });
    const ids = (page.data as Array<{ '@ref': { id: string } }>).map((ref) => ref['@ref'].id);
    expect(ids).toContain('classes_listed');
    expect(page).toEqual(await resultOf(t.admin, { paginate: { collections: null } }));
  });
});
