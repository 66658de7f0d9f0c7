// FQL v10 expressions (profile fql10, spec/requirements/fql10.md FQL-EXPR-*, FQL-TIME-*): arithmetic, comparison
// and logical operators, let and blocks, if/else, functions, objects, arrays and projections, strings, times and dates.
import { describe, expect } from 'vitest';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, expectTag, fails, numberOf, summaryPosition } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });

describe('arithmetic', () => {
  check(['FQL-EXPR-001'], 'integer arithmetic gives integers (/ truncates), a decimal operand decimals', async () => {
    expect(await data(t.admin, '[2 + 2, 987 + -382, 7 - 10, 6 * 7, 18 / 2, 987 / -382, 17 % 5]')).toEqual(
      ['4', '605', '-3', '42', '9', '-2', '2'].map((n) => ({ '@int': n })),
    );
    const mixed = await data(t.admin, '[5 + 9.8, 5.8 / 9, 1.0 / 2.0, 3 * 0.5]');
    expect(mixed.map((v: unknown) => Object.keys(v as object)[0])).toEqual(['@double', '@double', '@double', '@double']);
    expect(mixed.map(numberOf)).toEqual([14.8, 5.8 / 9, 0.5, 1.5]);
    expect(await data(t.admin, '5 + 3000000000')).toEqual({ '@long': '3000000005' });
  });

  check(['FQL-EXPR-002'], 'integer arithmetic past 64 bits gives a decimal', async () => {
    const sum = await data(t.admin, '9000000000000000000 + 9000000000000000000');
    expect(Number(expectTag(sum, '@double'))).toBe(18e18);
  });

  check(['FQL-EXPR-003'], 'integer division by zero answers divide_by_zero at the divisor; by 0.0 it is Infinity', async () => {
    const body = await fails(t.admin, '234 / 0', 'divide_by_zero');
    expect(body.error.message).toBe('Attempted integer division by zero.');
    expect(summaryPosition(body.summary)).toBe('1:7');
    expect(await data(t.admin, '234 / 0.0')).toEqual({ '@double': 'Infinity' });
    expect(await data(t.admin, '-234 / 0.0')).toEqual({ '@double': '-Infinity' });
  });
});

describe('comparison and logic', () => {
  check(['FQL-EXPR-004'], '== and != compare any two values', async () => {
    expect(
      await data(
        t.admin,
        '[1.33 == 1.33, 1.33 == 1, 1.0 == 1, 1.33 == "hi", 1.33 == true, null == null, null == 5, "a" != "b", [1, { a: 2 }] == [1, { a: 2 }]]',
      ),
    ).toEqual([true, false, true, false, false, true, false, true, true]);
  });

  check(['FQL-EXPR-005'], '<, <=, >, >= order numbers, strings and times; unrelated types compare false', async () => {
    expect(
      await data(
        t.admin,
        '[1 < 2, 2.5 >= 2, "a" < "b", "b" <= "a", Time("2024-01-02T00:00:00Z") > Time("2024-01-01T00:00:00Z"), 1 < "a", "a" > 1, null < 1, 1 >= null]',
      ),
    ).toEqual([true, true, true, false, true, false, false, false, false]);
  });

  check(['FQL-EXPR-006'], '&&, || and ! on booleans, the right side only when needed; ?? gives its right side for null', async () => {
    expect(
      await data(
        t.admin,
        '[true && false, false || true, !true, false && abort("no"), true || abort("no"), null ?? 3, 2 ?? 3, {}.missing ?? "d"]',
      ),
    ).toEqual([false, true, false, false, true, { '@int': '3' }, { '@int': '2' }, 'd']);
  });
});

describe('statements, conditionals and functions', () => {
  check(['FQL-EXPR-007'], 'let binds for the statements after it; a block or query has the value of its last statement', async () => {
    expect(await data(t.admin, 'let a = 1\nlet b = a + 1; let c = { let d = b * 10\n d + a }\n[a, b, c]')).toEqual([
      { '@int': '1' },
      { '@int': '2' },
      { '@int': '21' },
    ]);
    expect(await data(t.admin, 'let x = 1\nlet x = x + 1\nx')).toEqual({ '@int': '2' });
  });

  check(
    ['FQL-EXPR-008'],
    'if/else chooses a branch; if without else is null when false; a non-boolean condition is type_mismatch',
    async () => {
      expect(
        await data(t.admin, '[if (1 < 2) "yes" else "no", if (false) "yes" else "no", if (false) "yes", if (true) { "block" }]'),
      ).toEqual(['yes', 'no', null, 'block']);
      const body = await fails(t.admin, 'let x = (y) => {\n  if (y) {\n    "z"\n  } else {\n    "?"\n  }\n}\nx(3)', 'type_mismatch');
      expect(body.error.message).toBe('expected type: Boolean, received Int');
      expect(summaryPosition(body.summary)).toBe('2:7');
    },
  );

  check(['FQL-EXPR-009'], 'arrow functions are values calls apply; a wrong argument count is invalid_function_invocation', async () => {
    expect(
      await data(
        t.admin,
        'let add = (x, y) => x + y\nlet twice = f => (x) => f(f(x))\nlet k = _ => 7\n[add(1, 2), twice(x => x * 3)(2), k(null), (() => "n")()]',
      ),
    ).toEqual([{ '@int': '3' }, { '@int': '18' }, { '@int': '7' }, 'n']);
    const body = await fails(
      t.admin,
      '{\n  let concat = (x, y) => {\n    x.concat(y)\n  }\n  concat("only-one-arg")\n}',
      'invalid_function_invocation',
    );
    expect(body.error.message).toBe('callee function expects exactly 2 arguments, but 1 was provided.');
    expect(summaryPosition(body.summary)).toBe('5:9');
  });
});

describe('objects, arrays and projections', () => {
  check(['FQL-EXPR-010'], 'objects and arrays, field and element access, and projections of objects, arrays and documents', async () => {
    const query = `let x = { foo: "bar", gone: 1, gentleman: { locke: "lamora", other: { calo: "galdo", bug: "chains" } }, list: [10, 20] }
[x.foo, x["gone"], x.list[1], x.missing, x { foo, gentleman { other { calo } }, nope }, [{ a: 1, b: 2 }, { a: 3 }] { a }]`;
    expect(await data(t.admin, query)).toEqual([
      'bar',
      { '@int': '1' },
      { '@int': '20' },
      null,
      { foo: 'bar', gentleman: { other: { calo: 'galdo' } }, nope: null },
      [{ a: { '@int': '1' } }, { a: { '@int': '3' } }],
    ]);
    const coll = uniqueName('Proj');
    await data(t.admin, `Collection.create({ name: "${coll}" })`);
    expect(await data(t.admin, `let d = ${coll}.create({ name: "n", age: 3, secret: "s" })\nd { name, age }`)).toEqual({
      name: 'n',
      age: { '@int': '3' },
    });
  });

  check(['FQL-EXPR-011'], 'string + appends any value as text, and "#{…}" interpolates', async () => {
    expect(
      await data(
        t.admin,
        `['foo ' + 10 + ' bar ' + 3.14159, 'a' + null, 'b' + true, 'c' + [1, 2, 3] + {x: 10}, "n=#{1 + 2}!", 'foo'.concat('bar')]`,
      ),
    ).toEqual(['foo 10 bar 3.14159', 'anull', 'btrue', 'c[1, 2, 3]{ x: 10 }', 'n=3!', 'foobar']);
  });
});

describe('times and dates', () => {
  check(['FQL-TIME-001'], 'Time(text) parses, Time.now() is the query time, a bad text is invalid_time', async () => {
    expect(await data(t.admin, 'Time("1970-01-01T00:00:00.123Z")')).toEqual({ '@time': '1970-01-01T00:00:00.123Z' });
    const res = await data(t.admin, '[Time.now(), Time.now() == Time.now(), Time.now() > Time("2020-01-01T00:00:00Z")]');
    expectTag(res[0], '@time');
    expect(res.slice(1)).toEqual([true, true]);
    const body = await fails(t.admin, 'Time("2020-01-01 01:01:01")', 'invalid_time');
    expect(body.error.message).toBe('`2020-01-01 01:01:01` is not a valid time.');
  });

  check(['FQL-TIME-002'], 'Date(text) and Date.today() are dates, sent as @date', async () => {
    expect(await data(t.admin, 'Date("1970-01-01")')).toEqual({ '@date': '1970-01-01' });
    const today = expectTag(await data(t.admin, 'Date.today()'), '@date');
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  check(['FQL-TIME-003'], 'add and subtract shift a time by units; another unit is invalid_unit', async () => {
    expect(
      await data(
        t.admin,
        'let ts = Time("1970-01-01T00:00:00Z")\n[ts.add(1, "days"), ts.add(2, "hours"), ts.subtract(30, "seconds"), ts.add(5, "milliseconds")]',
      ),
    ).toEqual([
      { '@time': '1970-01-02T00:00:00Z' },
      { '@time': '1970-01-01T02:00:00Z' },
      { '@time': '1969-12-31T23:59:30Z' },
      { '@time': '1970-01-01T00:00:00.005Z' },
    ]);
    const body = await fails(t.admin, 'Time("2020-01-01T01:01:01Z").add(1, "invalid")', 'invalid_unit');
    expect(body.error.message).toBe('`invalid` is not a valid time unit.');
  });
});
