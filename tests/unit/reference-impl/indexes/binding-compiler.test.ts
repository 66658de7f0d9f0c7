import { describe, expect, it } from 'vitest';
import { compileBinding } from '../../../../reference-impl/indexes/binding-compiler.js';
import { IndexError } from '../../../../reference-impl/indexes/index-error.js';
import { QueryValue, Ref, type ObjectValue, type Value } from '../../../../reference-impl/values/value.js';

const users = new Ref('users', new Ref('collections'));
const doc: ObjectValue = {
  ref: new Ref('7', users),
  ts: 1n,
  data: { first: 'Ada', last: ' Lovelace ', tags: ['a', 'b'], n: 3n, flag: true },
};
const v = { var: 'doc' };
const at = (...path: Value[]) => ({ select: path, from: v });

function binding(expr: Value, param: string | string[] = 'doc'): (d: ObjectValue) => Value {
  const fn = compileBinding(new QueryValue(param, expr), ['fields']);
  return (d) => fn(d as never);
}

describe('binding compiler: pure forms', () => {
  it.each<[string, Value, Value]>([
    ['select', at('data', 'first'), 'Ada'],
    ['select of an array element', at('data', 'tags', 1n), 'b'],
    ['select of a ref id', at('ref', 'id'), '7'],
    ['concat with separator', { concat: [at('data', 'first'), { trim: at('data', 'last') }], separator: ' ' }, 'Ada Lovelace'],
    ['lowercase', { lowercase: at('data', 'first') }, 'ada'],
    ['uppercase', { uppercase: at('data', 'first') }, 'ADA'],
    ['if/then/else', { if: at('data', 'flag'), then: 'yes', else: 'no' }, 'yes'],
    ['equals', { equals: [at('data', 'n'), 3n] }, true],
    ['and/or/not', { and: [{ or: [false, at('data', 'flag')] }, { not: false }] }, true],
    ['let/in', { let: [{ x: at('data', 'first') }, { y: { concat: [{ var: 'x' }, '!'] } }], in: { var: 'y' } }, 'Ada!'],
    ['array of results', [at('data', 'n'), 'k'], [3n, 'k']],
    ['object literal', { object: { f: at('data', 'first') } }, { f: 'Ada' }],
    ['an array result as is', at('data', 'tags'), ['a', 'b']],
  ])('%s', (_name, expr, expected) => {
    expect(binding(expr)(doc)).toEqual(expected);
  });

  it('a missing path yields null, or the default when one is given', () => {
    expect(binding(at('data', 'missing'))(doc)).toBeNull();
    expect(binding({ select: ['data', 'missing'], from: v, default: 'd' })(doc)).toBe('d');
  });

  it('a type mismatch inside a pure form yields null rather than failing', () => {
    expect(binding({ lowercase: at('data', 'n') })(doc)).toBeNull();
  });

  it('takes the first parameter of a parameter list', () => {
    expect(binding({ select: ['data', 'first'], from: { var: 'd' } }, ['d'])(doc)).toBe('Ada');
  });
});

describe('binding compiler: reads and writes are refused at compile time', () => {
  it.each<[string, Value]>([
    ['get', { get: at('ref') }],
    ['exists', { exists: at('ref') }],
    ['match', { match: { index: 'i' }, terms: 'x' }],
    ['paginate', { paginate: { documents: { collection: 'c' } } }],
    ['create', { create: { collection: 'c' }, params: { object: {} } }],
    ['update', { update: at('ref'), params: { object: {} } }],
    ['delete', { delete: at('ref') }],
    ['now', { now: null }],
    ['nested inside a pure form', { concat: [{ get: at('ref') }, 'x'] }],
    ['inside a let binding', { let: [{ x: { get: at('ref') } }], in: { var: 'x' } }],
  ])('%s', (_name, expr) => {
    expect(() => binding(expr)).toThrow(IndexError);
    try {
      binding(expr);
    } catch (e) {
      expect((e as IndexError).code).toBe('validation failed');
    }
  });
});
