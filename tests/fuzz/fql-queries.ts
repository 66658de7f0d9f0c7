/**
 * Generated FQL v10 query text for `/query/1` (profile fql10): expressions of the whole language — literals,
 * operators, `let`, blocks, `if`/`else`, arrow functions, objects, arrays, projections, method calls on sets,
 * documents, strings and times, `abort()`, `Set.sequence()` with huge bounds — most of them well formed, a share
 * cut or spliced so that they do not parse at every possible place.
 *
 * `judgeFqlAnswer` is the property such a query's answer must have (FQL-SYNTAX-001, -003): a success in the
 * v10 answer shape, or a v10 error whose summary points at the query text (`at *query*:<line>:<column>`).
 */
import fc from 'fast-check';
import { validate } from '../../schemas/index.js';

/** Error codes about the request or the deadline rather than the query text: their summary names no position. */
const UNPOSITIONED_CODES = new Set(['time_out', 'invalid_request', 'unauthorized', 'limit_exceeded', 'forbidden']);

const METHODS = [
  'length',
  'toString',
  'map',
  'where',
  'concat',
  'includes',
  'first',
  'last',
  'count',
  'toArray',
  'toSet',
  'take',
  'drop',
  'paginate',
  'exists',
  'update',
  'replace',
  'at',
  'order',
  'reverse',
  'distinct',
  'flatMap',
  'forEach',
  'fold',
  'reduce',
  'firstWhere',
  'every',
  'any',
  'isEmpty',
  'slice',
  'split',
  'toUpperCase',
  'add',
  'difference',
  'year',
  'nope',
];

const NAMES = ['x', 'y', 'doc', 'nope'];

function literal(collection: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -5, max: 20 }).map(String),
    fc.constantFrom('0', '-1', '9223372036854775807', '9223372036854775808', '1.5', '1e400', '0x1F', '0b101', '1_000', '.5', '5.'),
    fc.constantFrom('true', 'false', 'null'),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
    fc.constantFrom('"a\\nb"', '"\\u{1F600}"', '"\\u{D800}"', '"#{1 + 1}"', '"#{"', "'single'", '"\\q"'),
    fc.constantFrom(...NAMES),
    fc.constantFrom(
      collection,
      `${collection}.all()`,
      `${collection}.byId("1")`,
      `${collection}.byId("999")`,
      `${collection}.where(.n > 1)`,
      'Time.now()',
      'Date.today()',
      'Time("2024-01-01T00:00:00Z")',
      'Time("nope")',
      'Date("2024-02-30")',
      'now()',
      'Collection.all()',
      `Collection.byName("${collection}")`,
      'Collection.byName("nope")',
      'Database.all()',
      'Database.byName("nope")',
      'Key.all()',
      'Math.abs(-1)',
      'Set.sequence(0, 5)',
      'Set.sequence(0, 100000000)',
      'Set.sequence(9, 1)',
      '[]',
      '{}',
      '.n',
    ),
  );
}

/** Well-formed (or nearly) FQL v10 expressions over the fuzz collection. */
export function fqlExpression(collection: string): fc.Arbitrary<string> {
  return fc.letrec<{ expr: string }>((tie) => {
    const e = tie('expr');
    return {
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal(collection),
        fc
          .tuple(e, fc.constantFrom('+', '-', '*', '/', '%', '**', '<', '<=', '>', '>=', '==', '!=', '&&', '||', '??', 'isa'), e)
          .map(([a, op, b]) => `${a} ${op} ${b}`),
        fc.tuple(fc.constantFrom('-', '!'), e).map(([op, a]) => `${op}${a}`),
        e.map((a) => `(${a})`),
        e.map((a) => `${a}!`),
        fc.array(e, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
        fc
          .array(fc.tuple(fc.constantFrom('a', 'n', '"s p"', 'data', 'id'), e), { maxLength: 3 })
          .map((fields) => `{ ${fields.map(([k, v]) => `${k}: ${v}`).join(', ')} }`),
        fc
          .tuple(e, e, fc.option(e, { nil: undefined }))
          .map(([c, t, f]) => (f === undefined ? `if (${c}) ${t}` : `if (${c}) ${t} else ${f}`)),
        fc
          .tuple(fc.constantFrom(...NAMES), e, e, fc.constantFrom('\n', '; '))
          .map(([name, value, body, sep]) => `{ let ${name} = ${value}${sep}${body} }`),
        fc.tuple(fc.constantFrom(...NAMES), e, e).map(([name, body, arg]) => `((${name}) => ${body})(${arg})`),
        fc
          .tuple(e, fc.constantFrom('.', '?.'), fc.constantFrom('a', 'n', 'id', 'ts', 'data', 'coll', 'nope'))
          .map(([a, dot, f]) => `${a}${dot}${f}`),
        fc.tuple(e, e).map(([a, i]) => `${a}[${i}]`),
        fc.tuple(e, fc.constantFrom(...METHODS), fc.array(e, { maxLength: 2 })).map(([a, m, args]) => `${a}.${m}(${args.join(', ')})`),
        fc.tuple(e, fc.constantFrom('map', 'where', 'flatMap', 'forEach', 'order', 'firstWhere')).map(([a, m]) => `${a}.${m}(x => x)`),
        fc.tuple(e, fc.constantFrom('a', 'n', 'id')).map(([a, f]) => `${a} { ${f} }`),
        e.map((a) => `abort(${a})`),
        e.map((a) => `${collection}.create({ n: ${a} })`),
        fc.tuple(e, e).map(([from, until]) => `Set.sequence(${from}, ${until})`),
        e.map((a) => `"#{${a}}"`),
      ),
    };
  }).expr;
}

/** A query text: mostly a generated expression, some of them cut short, spliced with a stray token, or doubled. */
export function fqlQueryText(collection: string): fc.Arbitrary<string> {
  const expr = fqlExpression(collection);
  return fc.oneof(
    { weight: 5, arbitrary: expr },
    fc.tuple(expr, fc.double({ min: 0, max: 1, noNaN: true })).map(([text, cut]) => text.slice(0, Math.floor(text.length * cut))),
    fc
      .tuple(
        expr,
        fc.nat(),
        fc.constantFrom('(', ')', '{', '}', '[', ']', ',', '.', '=>', '"', 'let', 'else', '#{', '`', '\n', ';', '?.', '!'),
      )
      .map(([text, at, token]) => `${text.slice(0, at % (text.length + 1))}${token}${text.slice(at % (text.length + 1))}`),
    fc.tuple(expr, expr).map(([a, b]) => `${a}\n${b}`),
  );
}

/** Undefined when the answer to a well-formed request carrying FQL text is acceptable; else what is wrong with it. */
export function judgeFqlAnswer(status: number, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} body is not JSON`;
  }
  if (status === 200) {
    const result = validate('v10-query-response', body);
    return result.valid ? undefined : `200 body is not a v10-query-response: ${result.errors.slice(0, 3).join('; ')}`;
  }
  if (status < 400 || status >= 500) return `answered ${status}`;
  const result = validate('v10-error', body);
  if (!result.valid) return `${status} body is not a v10-error: ${result.errors.slice(0, 3).join('; ')}`;
  const { error, summary } = body as { error: { code: string }; summary?: string };
  if (UNPOSITIONED_CODES.has(error.code)) return undefined;
  if (typeof summary !== 'string' || !/^at \*query\*:\d+:\d+$/m.test(summary))
    return `${status} ${error.code} without a position in its summary`;
  return undefined;
}
