// The official v4 driver's user-defined functions against the reference server (profile v4-functions, DEC-065):
// q.CreateFunction with q.Query bodies (lambdas and JS functions), q.Function, q.Functions, q.Call with its argument
// spreading, record changes, call errors as the driver reports them, and the call privilege and function roles.
import faunadb, { errors, values } from 'faunadb';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf, useDriverServer, type Doc, type Page, expectDriverError } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

type FunctionRecord = { ref: values.Ref; ts: number; name: string; body: values.Query; data?: Record<string, unknown>; role?: unknown };

beforeAll(async () => {
  await driver.client.query(q.Do(q.CreateCollection({ name: 'entries' }), q.CreateCollection({ name: 'members' })));
  await driver.client.query(
    q.Do(
      q.CreateFunction({ name: 'echo', body: q.Query(q.Lambda('x', q.Var('x'))) }),
      q.CreateFunction({ name: 'swap', body: q.Query((a: unknown, b: unknown) => [b, a]) }),
      q.CreateFunction({ name: 'negate', body: q.Query(q.Lambda('x', q.Not(q.Var('x')))) }),
      q.CreateFunction({
        name: 'add_entry',
        role: 'server',
        body: q.Query(q.Lambda('text', q.Create(q.Collection('entries'), { data: { text: q.Var('text') } }))),
      }),
      q.CreateFunction({
        name: 'add_entry_as_caller',
        body: q.Query(q.Lambda('text', q.Create(q.Collection('entries'), { data: { text: q.Var('text') } }))),
      }),
      q.CreateFunction({ name: 'secret_echo', body: q.Query(q.Lambda('x', q.Var('x'))) }),
    ),
  );
  await driver.client.query(
    q.CreateRole({
      name: 'entry_callers',
      privileges: [
        { resource: q.Function('echo'), actions: { call: true } },
        { resource: q.Function('add_entry'), actions: { call: true } },
        { resource: q.Function('add_entry_as_caller'), actions: { call: true } },
      ],
    }),
  );
});

describe('faunadb driver: user-defined functions', () => {
  it('CreateFunction answers the record: a Ref into functions, the name, the body as a driver Query, data and role', async () => {
    const record = await driver.client.query<FunctionRecord>(
      q.CreateFunction({ name: 'described', body: q.Query(q.Lambda('x', q.Var('x'))), data: { v: 1 }, role: 'server' }),
    );
    expect(record.ref).toBeInstanceOf(values.Ref);
    expect(record.ref.id).toBe('described');
    expect(record.ref.collection?.id).toBe('functions');
    expect(record.name).toBe('described');
    expect(record.body).toBeInstanceOf(values.Query);
    expect(record.data).toEqual({ v: 1 });
    expect(record.role).toBe('server');
    expect(await driver.client.query(q.Get(q.Function('described')))).toEqual(record);
  });

  it('Call spreads its arguments as the driver sends them: one value as is, several as an array, none as []', async () => {
    expect(await driver.client.query(q.Call(q.Function('echo'), 'one'))).toBe('one');
    expect(await driver.client.query(q.Call('echo', 1, 2))).toEqual([1, 2]);
    expect(await driver.client.query(q.Call('echo'))).toEqual([]);
    expect(await driver.client.query(q.Call(q.Function('swap'), 'a', 'b'))).toEqual(['b', 'a']);
  });

  it('Paginate(Functions()) lists the functions as driver Refs', async () => {
    const page = await driver.client.query<Page<values.Ref>>(q.Paginate(q.Functions()));
    const names = page.data.map((ref) => ref.id);
    for (const name of ['echo', 'swap', 'negate', 'add_entry']) expect(names).toContain(name);
    expect(page.data.every((ref) => ref.collection?.id === 'functions')).toBe(true);
  });

  it('Update changes the body later Calls run, and Delete makes the function unknown to Call', async () => {
    await driver.client.query(q.CreateFunction({ name: 'changing', body: q.Query(q.Lambda('x', 'first')) }));
    expect(await driver.client.query(q.Call('changing'))).toBe('first');
    await driver.client.query(q.Update(q.Function('changing'), { body: q.Query(q.Lambda('x', 'second')) }));
    expect(await driver.client.query(q.Call('changing'))).toBe('second');
    await driver.client.query(q.Delete(q.Function('changing')));
    const body = expectDriverError(
      await failureOf(driver.client.query(q.Call(q.Function('changing')))),
      errors.BadRequest,
      400,
      'invalid ref',
    );
    expect(body.errors[0]!.position).toEqual(['call']);
  });

  it('an error in the body is the driver BadRequest "call error" with the body error as its cause', async () => {
    const body = expectDriverError(await failureOf(driver.client.query(q.Call('negate', 'oops'))), errors.BadRequest, 400, 'call error');
    expect(body.errors[0]!.cause).toEqual([expect.objectContaining({ code: 'invalid argument', position: ['expr', 'not'] })]);
    const arity = expectDriverError(await failureOf(driver.client.query(q.Call('swap', 'only one'))), errors.BadRequest, 400, 'call error');
    expect(arity.errors[0]!.cause).toEqual([expect.objectContaining({ code: 'invalid argument', position: ['lambda'] })]);
  });

  it('a key with a role granting call may call the function; other functions are PermissionDenied', async () => {
    const { secret } = await driver.client.query<{ secret: string }>(q.CreateKey({ role: q.Role('entry_callers') }));
    const caller = driver.clientFor(secret);
    expect(await caller.query(q.Call('echo', 'hello'))).toBe('hello');
    expectDriverError(await failureOf(caller.query(q.Call('secret_echo', 'hello'))), errors.PermissionDenied, 403, 'permission denied');
    expectDriverError(await failureOf(caller.query(q.Get(q.Function('echo')))), errors.PermissionDenied, 403, 'permission denied');
  });

  it('a function with role server writes for a caller that may only call it; without a role the write is denied', async () => {
    const { secret } = await driver.client.query<{ secret: string }>(q.CreateKey({ role: q.Role('entry_callers') }));
    const caller = driver.clientFor(secret);
    const entry = await caller.query<Doc<{ text: string }>>(q.Call('add_entry', 'through the function'));
    expect(entry.data).toEqual({ text: 'through the function' });
    expect(await driver.client.query(q.Select(['data', 'text'], q.Get(entry.ref)))).toBe('through the function');
    const body = expectDriverError(
      await failureOf(caller.query(q.Call('add_entry_as_caller', 'denied'))),
      errors.BadRequest,
      400,
      'call error',
    );
    expect(body.errors[0]!.cause?.[0]?.code).toBe('permission denied');
  });
});

describe('faunadb driver: query deadlines (LIMIT-TIME-001)', () => {
  it('a query outlasting the queryTimeout option is the driver UnavailableError "time out", and the client goes on', async () => {
    const half = q.Call('fan', q.Subtract(q.Var('n'), 1));
    await driver.client.query(
      q.CreateFunction({ name: 'fan', body: q.Query(q.Lambda('n', q.If(q.Equals(q.Var('n'), 0), 0, q.Add(half, half)))) }),
    );
    const body = expectDriverError(
      await failureOf(driver.client.query(q.Call('fan', 16), { queryTimeout: 10 })),
      errors.UnavailableError,
      503,
      'time out',
    );
    expect(body.errors[0]!.description).toBe('Read timed out (Query eval has timed out.)');
    expect(await driver.client.query(q.Call('fan', 3), { queryTimeout: 10_000 })).toBe(0);
  });
});
