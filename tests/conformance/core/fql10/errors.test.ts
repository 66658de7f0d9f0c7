// The FQL v10 run-time error model (profile fql10, spec/requirements/fql10.md FQL-ERR-*): codes, messages and
// summaries of abort, unbound names, missing methods, wrong arguments, missing documents and nulls, and that a failed
// query writes nothing.
import { beforeAll, describe, expect } from 'vitest';
import { check, useTenant, uniqueName } from '../../../harness/index.js';
import { data, fails, ok, summaryPosition } from './fql10-fixtures.js';

const t = useTenant({ roles: ['admin'] });
const coll = uniqueName('Errs');

beforeAll(async () => {
  await ok(t.admin, `Collection.create({ name: "${coll}" })`);
});

describe('run-time errors', () => {
  check(
    ['FQL-ERR-001'],
    'abort(value) answers 400 abort, "Query aborted.", the value as error.abort in the request format, and a summary',
    async () => {
      const tagged = await fails(t.admin, 'abort({ n: 1, s: "oops" })', 'abort');
      expect(tagged.error).toEqual({ code: 'abort', message: 'Query aborted.', abort: { n: { '@int': '1' }, s: 'oops' } });
      expect(summaryPosition(tagged.summary)).toBe('1:6');
      const simple = await fails(t.admin, 'abort("oops")', 'abort', { format: 'simple' });
      expect(simple.error.abort).toBe('oops');
    },
  );

  check(['FQL-ERR-002'], 'an unbound name answers 400 unbound_variable at the name', async () => {
    const body = await fails(t.admin, '{ x }', 'unbound_variable');
    expect(body.error.message).toBe('Unbound variable `x`');
    expect(summaryPosition(body.summary)).toBe('1:3');
    expect((await fails(t.admin, 'notARealFn(1)', 'unbound_variable')).error.message).toBe('Unbound variable `notARealFn`');
  });

  check(['FQL-ERR-003'], 'a missing method, or a field that is not a function, answers 400 invalid_function_invocation', async () => {
    const missing = await fails(t.admin, '{\n  let x = "hi"\n  x.conct(", how are you?")\n}', 'invalid_function_invocation');
    expect(missing.error.message).toBe('The function `conct` does not exist on `String`');
    const notFunction = await fails(t.admin, '{\n  let x = "hi"\n  x.length()\n}', 'invalid_function_invocation');
    expect(notFunction.error.message).toBe('`length`: Expected a function, found `Int`');
  });

  check(['FQL-ERR-004'], 'an argument of the wrong type answers 400 invalid_argument', async () => {
    const concat = await fails(t.admin, '"a".concat(1)', 'invalid_argument');
    expect(concat.error.message).toBe('expected value for `other` of type String, received Int');
    await fails(t.admin, '2 + "2"', 'invalid_argument');
  });

  check(['FQL-ERR-005'], '! on a missing document, or a field of one, answers 400 document_not_found', async () => {
    const id = (await data(t.admin, `${coll}.create({ a: 1 }).id`)) as string;
    await ok(t.admin, `${coll}.byId("${id}")!.delete()`);
    const bang = await fails(t.admin, `${coll}.byId("${id}")!`, 'document_not_found');
    expect(bang.error.message).toBe(`Collection \`${coll}\` does not contain document with id ${id}.`);
    const field = await fails(t.admin, `let doc = ${coll}.byId("${id}")\ndoc.a`, 'document_not_found');
    expect(field.error.message).toBe(`Collection \`${coll}\` does not contain document with id ${id}.`);
  });

  check(['FQL-ERR-006'], 'a field or method of null answers 400 invalid_null_access', async () => {
    const method = await fails(t.admin, `let author = ${coll}.all().firstWhere(.id == "1")\nauthor.test()`, 'invalid_null_access');
    expect(method.error.message).toBe('Cannot access `test` on null.');
    const field = await fails(t.admin, 'let n = null\nn.a', 'invalid_null_access');
    expect(field.error.message).toBe('Cannot access `a` on null.');
    expect(await data(t.admin, 'let n = null\nn?.a')).toBeNull();
  });

  check(['FQL-ERR-007'], 'null! answers 400 null_value', async () => {
    const body = await fails(t.admin, '[1, 2].firstWhere(v => null!)', 'null_value');
    expect(body.error.message).toBe('Null literal value');
    expect(await data(t.admin, '5!')).toEqual({ '@int': '5' });
  });

  check(['FQL-ERR-008'], 'a query that fails while it runs keeps none of its writes', async () => {
    const marker = uniqueName('m');
    await fails(t.admin, `${coll}.create({ marker: "${marker}" })\nCollection.create({ name: "${coll}_x" })\nabort("stop")`, 'abort');
    expect(await data(t.admin, `${coll}.where(.marker == "${marker}").count()`)).toEqual({ '@int': '0' });
    expect(await data(t.admin, `Collection.byName("${coll}_x") == null`)).toBe(true);
    await fails(t.admin, `${coll}.create({ marker: "${marker}" })\n1 / 0`, 'divide_by_zero');
    expect(await data(t.admin, `${coll}.where(.marker == "${marker}").count()`)).toEqual({ '@int': '0' });
  });

  check(
    ['FQL-ERR-009'],
    'a run-time error summary is "error: <message>", then the position of the failing expression and the marked line',
    async () => {
      const body = await fails(
        t.admin,
        '{\n  let concat = (x, y) => {\n    x.concat(y)\n  }\n  concat("only-one-arg")\n}',
        'invalid_function_invocation',
      );
      const lines = (body.summary as string).split('\n');
      expect(lines[0]).toBe('error: callee function expects exactly 2 arguments, but 1 was provided.');
      expect(lines[1]).toBe('at *query*:5:9');
      expect(lines.slice(2, 5)).toEqual(['  |', '5 |   concat("only-one-arg")', '  |         ^^^^^^^^^^^^^^^^']);
    },
  );
});
