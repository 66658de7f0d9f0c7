import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../../reference-impl/fql/ast.js';
import {
  applyProjection,
  callFunction,
  emptyScope,
  evaluate,
  functionFromArgument,
  readPath,
  testPredicate,
} from '../../../../reference-impl/fql/evaluate.js';
import { FqlError } from '../../../../reference-impl/fql/fql-error.js';
import { parseQuery } from '../../../../reference-impl/fql/parser.js';
import { Ref, Time, type ObjectValue, type Value } from '../../../../reference-impl/values/value.js';

const doc: ObjectValue = {
  id: '101',
  coll: new Ref('Product', new Ref('collections')),
  ts: Time.fromMicros(1_700_000_000_000_000n),
  name: 'hammer',
  price: 15n,
  weight: 1.5,
  stock: 0n,
  tags: ['tools', 'steel'],
  dims: { w: 10n, h: null },
  active: true,
};

/** Parses `Coll.where(<arg>)` and returns the function its argument denotes. */
function fn(arg: string) {
  const call = parseQuery(`C.where(${arg})`);
  if (call.kind !== 'call') throw new Error('expected a call');
  const f = functionFromArgument(call.args[0] as Expr);
  if (!f) throw new Error('not a function');
  return f;
}

function fault(run: () => unknown): FqlError {
  try {
    run();
  } catch (error) {
    if (error instanceof FqlError) return error;
    throw error;
  }
  throw new Error('expected an FQL error');
}

describe('evaluating predicates against a document', () => {
  it.each([
    ['.price == 15', true],
    ['.price == 15.0', true],
    ['.price != 15', false],
    ['.price > 10 && .stock == 0', true],
    ['.price < 10 || .name == "hammer"', true],
    ['!.active', false],
    ['.weight >= 1.5', true],
    ['.weight < 2', true],
    ['.dims.w <= 10', true],
    ['.dims.h == null', true],
    ['.missing == null', true],
    ['.missing > 1', false],
    ['.name > 1', false],
    ['.name < "i"', true],
    ['.tags == ["tools", "steel"]', true],
    ['.tags[0] == "tools"', true],
    ['.tags[-1] == "steel"', true],
    ['.tags.length == 2', true],
    ['.dims == { w: 10, h: null }', true],
    ['.dims["w"] == 10', true],
    ['.id == "101"', true],
    ['.ts > .ts', false],
    ['.missing?.deeper == null', true],
    ['p => p.price > 12', true],
    ['(p) => p.name == "saw"', false],
  ])('%s → %s', (predicate, expected) => {
    expect(testPredicate(fn(predicate), doc)).toBe(expected);
  });

  it('treats a null predicate result as no match and rejects other non-booleans', () => {
    expect(testPredicate(fn('.missing'), doc)).toBe(false);
    const error = fault(() => testPredicate(fn('.price'), doc));
    expect(error.code).toBe('invalid_type');
    expect(error.message).toBe('1:9: a `where()` predicate must return a boolean, this one returned Int');
  });

  it('raises invalid_null_access with a position for a field of null', () => {
    const error = fault(() => testPredicate(fn('.missing.deeper == 1'), doc));
    expect(error.code).toBe('invalid_null_access');
    expect(error.message).toBe('1:18: cannot access `deeper` on null');
  });

  it('raises invalid_type for operators on the wrong types', () => {
    expect(fault(() => testPredicate(fn('.name && true'), doc)).message).toBe('1:9: `&&` needs booleans, got String');
    expect(fault(() => testPredicate(fn('!.name'), doc)).code).toBe('invalid_type');
    expect(fault(() => testPredicate(fn('.name.first == 1'), doc)).message).toBe('1:15: String has no field `first`');
  });

  it('short-circuits && and || so the right side is not evaluated', () => {
    expect(testPredicate(fn('.active || .missing.x == 1'), doc)).toBe(true);
    expect(testPredicate(fn('!.active && .missing.x == 1'), doc)).toBe(false);
  });

  it('resolves query arguments as variables', () => {
    const vars = new Map<string, Value>([['limit', 12n]]);
    expect(testPredicate(fn('.price > limit'), doc, vars)).toBe(true);
    expect(fault(() => testPredicate(fn('.price > other'), doc, vars)).message).toBe('1:18: Unbound variable `other`');
  });

  it('negates numbers and rejects overflow', () => {
    expect(evaluate(parseQuery('-(1.5)'), emptyScope())).toBe(-1.5);
    expect(evaluate(parseQuery('-(x)'), emptyScope(new Map([['x', 3n]])))).toBe(-3n);
    expect(fault(() => evaluate(parseQuery('-(x)'), emptyScope(new Map([['x', -(2n ** 63n)]])))).message).toBe('1:1: integer overflow');
  });
});

describe('map lambdas and projections', () => {
  it('applies a map lambda to the document', () => {
    expect(callFunction(fn('x => { n: x.name, big: x.price > 10 }'), doc)).toEqual({ n: 'hammer', big: true });
    expect(callFunction(fn('.tags'), doc)).toEqual(['tools', 'steel']);
  });

  it('projects copied, computed and nested fields into a plain object', () => {
    const e = parseQuery('C.all() { name, w: .dims.w, dims { h }, missing }');
    if (e.kind !== 'projection') throw new Error('expected a projection');
    expect(applyProjection(e.fields, doc)).toEqual({ name: 'hammer', w: 10n, dims: { h: null }, missing: null });
    expect(applyProjection(e.fields, [doc, null])).toEqual([{ name: 'hammer', w: 10n, dims: { h: null }, missing: null }, null]);
    expect(fault(() => applyProjection(e.fields, 'text')).code).toBe('invalid_type');
  });

  it('reads paths, null through missing or non-object fields', () => {
    expect(readPath(doc, ['dims', 'w'])).toBe(10n);
    expect(readPath(doc, ['name', 'x'])).toBe(null);
    expect(readPath(doc, ['nope'])).toBe(null);
  });
});
