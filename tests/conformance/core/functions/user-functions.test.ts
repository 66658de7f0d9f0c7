// User-defined functions (profile v4-functions, DEC-065): CreateFunction, the function record, Call, and who may call.
import { beforeAll, describe, expect } from 'vitest';
import { check, uniqueId, uniqueName, useTenant, type Client, type Response } from '../../../harness/index.js';
import { createCollections, expectQueryError, expectRecord, obj, lambda } from '../../../harness/v4.js';
import { createUser, login } from '../../auth/auth-fixtures.js';

/** A function body: a lambda wrapped in `query`. */
const body = (params: string | string[], expr: unknown) => ({ query: lambda(params, expr) });
const fn = (name: string) => ({ function: name });
const createFunction = (name: string, params: string | string[], expr: unknown, extra: Record<string, unknown> = {}) => ({
  create_function: obj({ name, body: body(params, expr), ...extra }),
});
const call = (target: unknown, args?: unknown) => (args === undefined ? { call: target } : { call: target, arguments: args });
const functionRef = (name: string) => ({ '@ref': { id: name, collection: { '@ref': { id: 'functions' } } } });
const noteRef = (id: string) => ({ ref: { collection: 'notes' }, id });
const createNote = (text: unknown) => ({ create: { collection: 'notes' }, params: obj({ data: obj({ text }) }) });

/** The first error of a failed query, read with plain JSON (positions as numbers). */
function firstError(res: Response): Record<string, unknown> {
  return (res.json as { errors: Array<Record<string, unknown>> }).errors[0]!;
}

/** A nested array `depth` levels deep: `[]` is 0, `[[]]` is 1. */
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const CALL_ERROR = 'Calling the function resulted in an error.';

describe('User-defined functions', { shuffle: false }, () => {
  const t = useTenant();
  let asCaller: Client;

  beforeAll(async () => {
    await createCollections(t.server, 'notes', 'users');
    // A role used as a function's role: it may create notes, and nothing else.
    (
      await t.admin.query({
        create_role: obj({ name: 'note_writer', privileges: [obj({ resource: { collection: 'notes' }, actions: obj({ create: true }) })] }),
      })
    ).expectStatus(201);
    (
      await t.admin.query([
        createFunction('echo', 'x', { var: 'x' }),
        createFunction('swap', ['a', 'b'], [{ var: 'b' }, { var: 'a' }]),
        createFunction('single', ['x'], { var: 'x' }),
        createFunction('negate', 'x', { not: { var: 'x' } }),
        createFunction('nest', 'x', {
          if: { equals: [{ var: 'x' }, []] },
          then: 'bottom',
          else: call('nest', { select: [0n], from: { var: 'x' } }),
        }),
        createFunction('make_note', 'text', createNote({ var: 'text' })),
        createFunction('make_note_with_id', ['id', 'text'], {
          create: { ref: { collection: 'notes' }, id: { var: 'id' } },
          params: obj({ data: obj({ text: { var: 'text' } }) }),
        }),
        createFunction('make_note_server', 'text', createNote({ var: 'text' }), { role: 'server' }),
        createFunction('make_note_admin', 'text', createNote({ var: 'text' }), { role: 'admin' }),
        createFunction('make_note_role', 'text', createNote({ var: 'text' }), { role: { role: 'note_writer' } }),
        createFunction('read_note_role', 'ref', { get: { var: 'ref' } }, { role: { role: 'note_writer' } }),
        createFunction('guarded', ['word', 'n'], { var: 'n' }),
        createFunction('uncallable', 'x', { var: 'x' }),
      ])
    ).expectStatus(200, 201);
    // Callers may read notes and call some functions; they may not create notes nor read function records.
    const callable = ['echo', 'make_note', 'make_note_server', 'make_note_admin', 'make_note_role', 'read_note_role'];
    (
      await t.admin.query({
        create_role: obj({
          name: 'callers',
          membership: [obj({ resource: { collection: 'users' } })],
          privileges: [
            obj({ resource: { collection: 'notes' }, actions: obj({ read: true }) }),
            ...callable.map((name) => obj({ resource: fn(name), actions: obj({ call: true }) })),
            obj({ resource: fn('guarded'), actions: obj({ call: body(['word', 'n'], { equals: [{ var: 'word' }, 'open'] }) }) }),
          ],
        }),
      })
    ).expectStatus(201);
    asCaller = t.as((await login(t.server, await createUser(t.server, 'users'))).secret);
  });

  describe('Creating functions', () => {
    check(['UDF-CREATE-001'], 'CreateFunction answers 201 with ref, ts, name, body as @query, and data and role when given', async () => {
      const res = (
        await t.server.query(createFunction('shaped', ['a', 'b'], [{ var: 'a' }], { data: obj({ owner: 'me' }), role: 'server' }))
      ).expectStatus(201);
      const record = res.resource;
      expectRecord('function', record);
      expect(record.ref).toEqual(functionRef('shaped'));
      expect(typeof record.ts).toBe('bigint');
      expect(record.name).toBe('shaped');
      expect(record.body['@query'].lambda).toEqual(['a', 'b']);
      expect(record.body['@query'].expr).toEqual([{ var: 'a' }]);
      expect(record.data).toEqual({ owner: 'me' });
      expect(record.role).toBe('server');
      const plain = (await t.server.query(createFunction('plain', 'x', { var: 'x' }))).expectStatus(201).resource;
      expectRecord('function', plain);
      expect(Object.keys(plain).sort()).toEqual(['body', 'name', 'ref', 'ts']);
    });

    check(['UDF-CREATE-002'], 'Create(Ref("functions"), params) creates a function as CreateFunction does', async () => {
      const res = (
        await t.server.query({ create: { functions: null }, params: obj({ name: 'via_create', body: body('x', { var: 'x' }) }) })
      ).expectStatus(201);
      expect(res.resource.ref).toEqual(functionRef('via_create'));
      expect((await t.server.query(call('via_create', 'same'))).expectStatus(200).resource).toBe('same');
    });

    check(
      ['UDF-CREATE-003'],
      'CreateFunction with a taken name answers 400 instance already exists at ["create_function"] and keeps the function',
      async () => {
        const before = (await t.server.query({ get: fn('echo') })).expectStatus(200).resource;
        const res = await t.server.query(createFunction('echo', 'x', 'replaced'));
        expectQueryError(res, [400, 'instance already exists']);
        expect(firstError(res)).toEqual({
          position: ['create_function'],
          code: 'instance already exists',
          description: 'Function already exists.',
        });
        expect((await t.server.query({ get: fn('echo') })).expectStatus(200).resource).toEqual(before);
      },
    );

    check.each([
      { name: 'no body', params: { name: 'no_body' }, code: 'value required' },
      { name: 'an integer body', params: { name: 'int_body', body: 5n }, code: 'invalid type' },
      { name: 'an object body', params: { name: 'object_body', body: obj({ lambda: 'x' }) }, code: 'invalid type' },
    ])(
      ['UDF-CREATE-004'],
      'CreateFunction with $name answers 400 validation failed for ["body"] and creates nothing',
      async ({ params, code }) => {
        const res = await t.server.query({ create_function: obj(params) });
        expectQueryError(res, [400, 'validation failed']);
        expect(firstError(res).failures).toContainEqual(expect.objectContaining({ field: ['body'], code }));
        expect((await t.server.query({ exists: fn(params.name) })).expectStatus(200).resource).toBe(false);
      },
    );

    check(
      ['UDF-CREATE-004'],
      'CreateFunction with a string body answers 400 (schema validation failed at the form, or invalid type for ["body"]) and creates nothing',
      async () => {
        const res = await t.server.query({ create_function: obj({ name: 'string_body', body: 'x => x' }) });
        const error = firstError(res);
        if (error.code === 'schema validation failed') {
          // The real service: an FQL v10 source is refused in v4, at the write.
          expectQueryError(res, [400, 'schema validation failed']);
          expect(error).toEqual({
            position: ['create_function'],
            code: 'schema validation failed',
            description: 'Invalid type provided for field `body`.',
          });
        } else {
          expectQueryError(res, [400, 'validation failed']);
          expect(error.failures).toContainEqual(expect.objectContaining({ field: ['body'], code: 'invalid type' }));
        }
        expect((await t.server.query({ exists: fn('string_body') })).expectStatus(200).resource).toBe(false);
      },
    );

    check.each([
      { name: 'no name', params: { body: body('x', { var: 'x' }) }, field: 'name' },
      { name: 'an integer name', params: { name: 5n, body: body('x', { var: 'x' }) }, field: 'name' },
      { name: 'data that is not an object', params: { name: 'bad_data', body: body('x', { var: 'x' }), data: 'text' }, field: 'data' },
    ])(['UDF-CREATE-005'], 'CreateFunction with $name answers 400 validation failed naming that field', async ({ params, field }) => {
      const res = await t.server.query({ create_function: obj(params) });
      expectQueryError(res, [400, 'validation failed']);
      expect(firstError(res).failures).toContainEqual(expect.objectContaining({ field: [field] }));
    });

    check.each([
      // The real service's code is `validation failure` ("Role name `owner` does not exist."); a server may say `invalid value`.
      { name: 'a string naming no role', role: 'owner', codes: ['validation failure', 'invalid value'] },
      { name: 'an integer', role: 5n, codes: ['invalid type'] },
    ])(
      ['UDF-CREATE-006'],
      'a function role that is $name answers 400 validation failed for ["role"] and creates nothing',
      async ({ role, codes }) => {
        const name = `role_${codes[0]!.replace(' ', '_')}`;
        const res = await t.server.query(createFunction(name, 'x', { var: 'x' }, { role }));
        expectQueryError(res, [400, 'validation failed']);
        const failures = (firstError(res).failures as Array<Record<string, unknown>>).filter((f) => JSON.stringify(f.field) === '["role"]');
        expect(failures.length, res.explain('has no failure for ["role"]')).toBeGreaterThan(0);
        expect(codes).toContain(failures[0]!.code);
        expect((await t.server.query({ exists: fn(name) })).expectStatus(200).resource).toBe(false);
      },
    );

    check(
      ['UDF-CREATE-006'],
      "a function role may name a role of the database, alone or in a list: the body runs with that role's privileges",
      async () => {
        (
          await t.server.query([
            createFunction('make_note_named_role', 'text', createNote({ var: 'text' }), { role: 'note_writer' }),
            createFunction('read_note_named_roles', 'ref', { get: { var: 'ref' } }, { role: ['note_writer'] }),
          ])
        ).expectStatus(200, 201);
        const note = (await t.server.query(call('make_note_named_role', 'via a role name'))).expectStatus(200, 201).resource;
        expect(note.data).toEqual({ text: 'via a role name' });
        // The role may create notes but not read them: the server key's own rights do not reach into the body.
        const res = await t.server.query(call('read_note_named_roles', note.ref));
        expectQueryError(res, [400, 'call error']);
        expect((firstError(res).cause as Array<Record<string, unknown>>)[0]!.code).toBe('permission denied');
      },
    );

    check(
      ['UDF-CREATE-006'],
      'a function role naming a role that does not exist answers 400 validation failed with invalid reference',
      async () => {
        const res = await t.server.query(createFunction('missing_role', 'x', { var: 'x' }, { role: { role: 'no_such_role' } }));
        expectQueryError(res, [400, 'validation failed']);
        expect(firstError(res).failures).toContainEqual(expect.objectContaining({ field: ['role'], code: 'invalid reference' }));
        expect((await t.server.query({ exists: fn('missing_role') })).expectStatus(200).resource).toBe(false);
      },
    );

    check(
      ['UDF-CREATE-007'],
      'CreateFunction with a client key answers 403 permission denied; a server key may create functions',
      async () => {
        const name = uniqueName('by_client');
        expectQueryError(await t.client.query(createFunction(name, 'x', { var: 'x' })), [403, 'permission denied']);
        expect((await t.server.query({ exists: fn(name) })).expectStatus(200).resource).toBe(false);
        (await t.server.query(createFunction(name, 'x', { var: 'x' }))).expectStatus(201);
      },
    );
  });

  describe('Function records', () => {
    check(
      ['UDF-RECORD-001'],
      'Get(Function(name)) answers the record CreateFunction answered; Function(name) is Ref(name, Ref("functions"))',
      async () => {
        const created = (await t.server.query(createFunction('readable', 'x', { var: 'x' }, { data: obj({ n: 1n }) }))).expectStatus(
          201,
        ).resource;
        expect((await t.server.query({ get: fn('readable') })).expectStatus(200).resource).toEqual(created);
        expect((await t.server.query(fn('readable'))).expectStatus(200).resource).toEqual(functionRef('readable'));
      },
    );

    check(['UDF-RECORD-002'], 'Paginate(Functions()) lists the refs of the functions of the database', async () => {
      const page = (await t.server.query({ paginate: { functions: null }, size: 1000n })).expectStatus(200).resource;
      const ids = (page.data as Array<{ '@ref': { id: string; collection: unknown } }>).map((ref) => {
        expect(ref['@ref'].collection).toEqual({ '@ref': { id: 'functions' } });
        return ref['@ref'].id;
      });
      for (const name of ['echo', 'swap', 'nest', 'make_note_role', 'uncallable']) expect(ids).toContain(name);
      expect(ids).not.toContain('note_writer');
      expect(ids).not.toContain('notes');
    });

    check(
      ['UDF-RECORD-003'],
      'Update of a function changes its body and merges its data; a bad body or role is refused and changes nothing',
      async () => {
        (await t.server.query(createFunction('versioned', 'x', 'v1', { data: obj({ a: 1n }) }))).expectStatus(201);
        expect((await t.server.query(call('versioned'))).expectStatus(200).resource).toBe('v1');
        const updated = (
          await t.server.query({ update: fn('versioned'), params: obj({ body: body('x', 'v2'), data: obj({ b: 2n }) }) })
        ).expectStatus(200).resource;
        expect(updated.data).toEqual({ a: 1n, b: 2n });
        expect((await t.server.query(call('versioned'))).expectStatus(200).resource).toBe('v2');
        const stored = (await t.server.query({ get: fn('versioned') })).expectStatus(200).resource;
        expectQueryError(await t.server.query({ update: fn('versioned'), params: obj({ body: 5n }) }), [400, 'validation failed']);
        expectQueryError(await t.server.query({ update: fn('versioned'), params: obj({ role: 'owner' }) }), [400, 'validation failed']);
        expect((await t.server.query({ get: fn('versioned') })).expectStatus(200).resource).toEqual(stored);
      },
    );

    check(['UDF-RECORD-004'], 'Update with a new name renames the function: the new name calls it, the old one names nothing', async () => {
      (await t.server.query(createFunction('old_name', 'x', 'renamed'))).expectStatus(201);
      const res = (await t.server.query({ update: fn('old_name'), params: obj({ name: 'new_name' }) })).expectStatus(200);
      expect(res.resource.ref).toEqual(functionRef('new_name'));
      expect((await t.server.query(call('new_name'))).expectStatus(200).resource).toBe('renamed');
      expectQueryError(await t.server.query(call('old_name')), [400, 'invalid ref']);
    });

    check(['UDF-RECORD-005'], 'Replace of a function stores the new body and drops the fields not given, keeping the name', async () => {
      (await t.server.query(createFunction('replaced', 'x', 'before', { data: obj({ a: 1n }) }))).expectStatus(201);
      const res = (await t.server.query({ replace: fn('replaced'), params: obj({ body: body('x', 'after') }) })).expectStatus(200).resource;
      expect(res.name).toBe('replaced');
      expect(res).not.toHaveProperty('data');
      expect((await t.server.query(call('replaced'))).expectStatus(200).resource).toBe('after');
    });

    check(
      ['UDF-RECORD-006'],
      'after Delete, Call of the function ref answers 400 invalid ref at ["call"], and Get of it 400 invalid ref',
      async () => {
        (await t.server.query(createFunction('doomed', 'x', { var: 'x' }))).expectStatus(201);
        (await t.server.query({ delete: fn('doomed') })).expectStatus(200);
        const res = await t.server.query(call(fn('doomed'), 1n));
        expectQueryError(res, [400, 'invalid ref']);
        expect(firstError(res)).toEqual({
          position: ['call'],
          code: 'invalid ref',
          description: "Ref refers to undefined function 'doomed'",
        });
        expectQueryError(await t.server.query({ get: fn('doomed') }), [400, 'invalid ref']);
      },
    );
  });

  describe('Call', () => {
    check(['UDF-CALL-001'], 'Call of a function ref or of its name applies the lambda and answers its result', async () => {
      expect((await t.server.query(call(fn('echo'), 'by ref'))).expectStatus(200).resource).toBe('by ref');
      expect((await t.server.query(call('echo', 'by name'))).expectStatus(200).resource).toBe('by name');
      expect((await t.server.query(call({ select: ['ref'], from: { get: fn('echo') } }, 7n))).expectStatus(200).resource).toBe(7n);
    });

    check.each([
      { name: 'one parameter, a scalar', target: 'echo', args: 5n, expected: 5n },
      { name: 'one parameter, several arguments', target: 'echo', args: [1n, 2n], expected: [1n, 2n] },
      { name: 'one parameter, no arguments', target: 'echo', args: undefined, expected: [] },
      { name: 'two parameters, two arguments', target: 'swap', args: [1n, 2n], expected: [2n, 1n] },
      { name: 'a list of one parameter, a scalar', target: 'single', args: 'x', expected: 'x' },
      { name: 'a list of one parameter, one argument in an array', target: 'single', args: ['y'], expected: 'y' },
    ])(['UDF-CALL-002'], 'arguments bind to the lambda parameters as one value ($name)', async ({ target, args, expected }) => {
      expect((await t.server.query(call(target, args))).expectStatus(200).resource).toEqual(expected);
    });

    check.each([
      { name: 'a name of no function', target: 'nope', expr: (c: unknown) => c, position: ['call'] },
      { name: 'a ref to a missing function', target: fn('nope'), expr: (c: unknown) => c, position: ['call'] },
      { name: 'a name of no function, nested', target: 'nope', expr: (c: unknown) => [1n, c], position: [1, 'call'] },
    ])(['UDF-CALL-003'], 'Call of $name answers 400 invalid ref at the call argument', async ({ target, expr, position }) => {
      const res = await t.server.query(expr(call(target, 1n)));
      expectQueryError(res, [400, 'invalid ref']);
      expect(firstError(res)).toEqual({ position, code: 'invalid ref', description: "Ref refers to undefined function 'nope'" });
    });

    check.each([
      { name: 'an integer', target: 5n, type: 'Integer' },
      { name: 'a boolean', target: true, type: 'Boolean' },
      { name: 'null', target: null, type: 'Null' },
      { name: 'a collection ref', target: { collection: 'notes' }, type: 'Ref' },
      { name: 'an array', target: ['echo'], type: 'Array' },
    ])(['UDF-CALL-004'], 'Call of $name answers 400 invalid argument "Identifier expected"', async ({ target, type }) => {
      const res = await t.server.query(call(target, 1n));
      expectQueryError(res, [400, 'invalid argument']);
      expect(firstError(res)).toEqual({
        position: ['call'],
        code: 'invalid argument',
        description: `Identifier expected, ${type} provided.`,
      });
    });

    check.each([
      { name: 'at the top level', expr: (c: unknown) => c, position: [] },
      { name: 'inside an array', expr: (c: unknown) => ['first', c], position: [1] },
    ])(
      ['UDF-CALL-005'],
      'an error in the body answers 400 call error at the Call with the body error as cause ($name)',
      async ({ expr, position }) => {
        const res = await t.server.query(expr(call('negate', 'oops')));
        expectQueryError(res, [400, 'call error']);
        expect(firstError(res)).toEqual({
          position,
          code: 'call error',
          description: CALL_ERROR,
          cause: [{ position: ['expr', 'not'], code: 'invalid argument', description: 'Boolean expected, String provided.' }],
        });
      },
    );

    check(['UDF-CALL-005'], 'an Abort in the body is the cause of a call error', async () => {
      (await t.server.query(createFunction('aborter', 'x', { abort: 'stop here' }))).expectStatus(201);
      const res = await t.server.query(call('aborter', 1n));
      expect(firstError(res)).toEqual({
        position: [],
        code: 'call error',
        description: CALL_ERROR,
        cause: [{ position: ['expr'], code: 'transaction aborted', description: 'stop here' }],
      });
    });

    check.each([
      { name: 'too few elements', args: [1n] as unknown, expr: (c: unknown) => c, count: 1, position: ['lambda'] },
      { name: 'too many elements', args: [1n, 2n, 3n], expr: (c: unknown) => c, count: 3, position: ['lambda'] },
      { name: 'a value that is not an array', args: 5n, expr: (c: unknown) => c, count: 1, position: ['lambda'] },
      { name: 'too few elements, nested', args: [1n], expr: (c: unknown) => [c], count: 1, position: [0, 'lambda'] },
    ])(
      ['UDF-CALL-006'],
      'arguments that do not fit the parameters ($name) answer 400 call error with an arity cause',
      async ({ args, expr, count, position }) => {
        const res = await t.server.query(expr(call('swap', args)));
        expectQueryError(res, [400, 'call error']);
        const error = firstError(res);
        expect(error.position).toEqual(position.slice(0, -1));
        expect(error.cause).toEqual([
          { position, code: 'invalid argument', description: `Lambda expects an array with 2 elements. Array contains ${count}.` },
        ]);
      },
    );

    check(['UDF-CALL-007'], 'Calls nest 200 deep; the 201st nested Call answers 400 stack overflow, not wrapped', async () => {
      expect((await t.server.query(call('nest', nested(199)))).expectStatus(200).resource).toBe('bottom');
      const res = await t.server.query(call('nest', nested(200)));
      expectQueryError(res, [400, 'stack overflow']);
      expect(firstError(res)).toEqual({
        position: ['expr', 'else'],
        code: 'stack overflow',
        description: 'Call stack reached the maximum limit of 200.',
      });
    });

    check(
      ['UDF-CALL-008'],
      "a body's writes belong to the request: the created document is answered and kept; a failed request keeps nothing",
      async () => {
        const note = (await t.server.query(call('make_note', 'kept'))).expectStatus(200, 201).resource;
        expect(note.data).toEqual({ text: 'kept' });
        expect((await t.server.query({ get: note.ref })).expectStatus(200).resource.data).toEqual({ text: 'kept' });
        const id = uniqueId();
        expectQueryError(await t.server.query([call('make_note_with_id', [id, 'lost']), { abort: 'undo' }]), [400, 'transaction aborted']);
        expect((await t.server.query({ exists: noteRef(id) })).expectStatus(200).resource).toBe(false);
        expect((await t.server.query(call('make_note_with_id', [id, 'made']))).expectStatus(200, 201).resource.data).toEqual({
          text: 'made',
        });
      },
    );
  });

  describe('Who may call', () => {
    check(
      ['UDF-ACCESS-001'],
      'admin and server keys may call any function; a client key answers 403 permission denied at the Call',
      async () => {
        expect((await t.admin.query(call('uncallable', 1n))).expectStatus(200).resource).toBe(1n);
        expect((await t.server.query(call('uncallable', 2n))).expectStatus(200).resource).toBe(2n);
        const res = await t.client.query(['x', call('echo', 3n)]);
        expectQueryError(res, [403, 'permission denied']);
        expect(firstError(res)).toEqual({
          position: [1],
          code: 'permission denied',
          description: 'Insufficient privileges to perform the action.',
        });
      },
    );

    check(
      ['UDF-ACCESS-002'],
      'a token whose role grants call may call without reading the function; without call it answers 403',
      async () => {
        expect((await asCaller.query(call('echo', 'allowed'))).expectStatus(200).resource).toBe('allowed');
        expectQueryError(await asCaller.query({ get: fn('echo') }), [403, 'permission denied']);
        const res = await asCaller.query(call('uncallable', 1n));
        expectQueryError(res, [403, 'permission denied']);
        expect(firstError(res).position).toEqual([]);
      },
    );

    check(
      ['UDF-ACCESS-003'],
      'a call predicate gets the arguments as the function does: true allows the Call, false answers 403',
      async () => {
        expect((await asCaller.query(call('guarded', ['open', 42n]))).expectStatus(200).resource).toBe(42n);
        expectQueryError(await asCaller.query(call('guarded', ['closed', 42n])), [403, 'permission denied']);
      },
    );

    check(
      ['UDF-ACCESS-004'],
      "a function without a role runs with the caller's rights: a write the caller may not make is a call error with cause permission denied",
      async () => {
        const res = await asCaller.query(call('make_note', 'not mine to write'));
        expectQueryError(res, [400, 'call error']);
        const cause = (firstError(res).cause as Array<Record<string, unknown>>)[0]!;
        expect(cause.code).toBe('permission denied');
        expect(cause.position).toEqual(['expr', 'create']);
      },
    );

    check.each([{ name: 'make_note_server' }, { name: 'make_note_admin' }])(
      ['UDF-ACCESS-005'],
      "a function with a built-in role ($name) runs with that role's rights",
      async ({ name }) => {
        const note = (await asCaller.query(call(name, `via ${name}`))).expectStatus(200, 201).resource;
        expect(note.data).toEqual({ text: `via ${name}` });
      },
    );

    check(['UDF-ACCESS-006'], "a function with a role ref runs with exactly that role's privileges, not the caller's", async () => {
      const note = (await asCaller.query(call('make_note_role', 'via role'))).expectStatus(200, 201).resource;
      expect(note.data).toEqual({ text: 'via role' });
      // The caller may read notes, but the function's role may not: its Get fails, for a token and a server key alike.
      expect((await asCaller.query({ get: note.ref })).expectStatus(200).resource.data).toEqual({ text: 'via role' });
      for (const caller of [asCaller, t.server]) {
        const res = await caller.query(call('read_note_role', note.ref));
        expectQueryError(res, [400, 'call error']);
        expect((firstError(res).cause as Array<Record<string, unknown>>)[0]!.code).toBe('permission denied');
      }
    });
  });
});
