// The official v4 driver (default h2c transport) logging users in and out of the reference server.
import faunadb from 'faunadb';
import { describe, expect, it } from 'vitest';
import { useDriverServer } from './faunadb-client.js';

const q = faunadb.query;
const driver = useDriverServer();

describe('faunadb 4.x driver: users, Login, Identity, Logout', () => {
  it('logs a user in through a public unique index with a client key, and out of every session', async () => {
    const root = driver.clientFor(driver.server.rootSecret);
    await root.query(q.CreateDatabase({ name: 'authdb' }));
    const serverKey = await root.query<{ secret: string }>(q.CreateKey({ database: q.Database('authdb'), role: 'server' }));
    const clientKey = await root.query<{ secret: string }>(q.CreateKey({ database: q.Database('authdb'), role: 'client' }));
    const admin = driver.clientFor(serverKey.secret);
    await admin.query(q.CreateCollection({ name: 'users' }));
    await admin.query(
      q.CreateIndex({
        name: 'users_by_email',
        source: q.Collection('users'),
        terms: [{ field: ['data', 'email'] }],
        unique: true,
        permissions: { read: 'public' },
      }),
    );
    const user = await admin.query<{ ref: faunadb.values.Ref; credentials?: unknown }>(
      q.Create(q.Collection('users'), { data: { email: 'ada@example.com' }, credentials: { password: 'correct horse' } }),
    );
    expect(user.credentials).toBeUndefined();

    const browser = driver.clientFor(clientKey.secret);
    const first = await browser.query<{ secret: string; instance: faunadb.values.Ref; data: { name: string } }>(
      q.Login(q.Match(q.Index('users_by_email'), 'ada@example.com'), { password: 'correct horse', data: { name: 'laptop' } }),
    );
    expect(first.instance.id).toBe(user.ref.id);
    expect(first.data).toEqual({ name: 'laptop' });
    const second = await browser.query<{ secret: string }>(q.Login(user.ref, { password: 'correct horse' }));

    const session = driver.clientFor(first.secret);
    const identity = await session.query<faunadb.values.Ref>(q.CurrentIdentity());
    expect(identity.id).toBe(user.ref.id);
    expect(identity.collection?.id).toBe('users');
    expect(await session.query(q.HasCurrentIdentity())).toBe(true);
    expect(await admin.query(q.Identify(user.ref, 'correct horse'))).toBe(true);

    expect(await session.query(q.Logout(true))).toBe(true);
    await expect(session.query(q.CurrentIdentity())).rejects.toBeInstanceOf(faunadb.errors.Unauthorized);
    await expect(driver.clientFor(second.secret).query(q.CurrentIdentity())).rejects.toBeInstanceOf(faunadb.errors.Unauthorized);
  });

  it('reports a wrong password as BadRequest "authentication failed" and a bad secret as Unauthorized', async () => {
    const root = driver.clientFor(driver.server.rootSecret);
    await root.query(q.CreateCollection({ name: 'people' }));
    const person = await root.query<{ ref: faunadb.values.Ref }>(q.Create(q.Collection('people'), { credentials: { password: 'right' } }));
    const failure = await root.query(q.Login(person.ref, { password: 'wrong' })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(faunadb.errors.BadRequest);
    expect((failure as faunadb.errors.FaunaHTTPError).requestResult?.responseContent).toMatchObject({
      errors: [{ code: 'authentication failed' }],
    });
    await expect(driver.clientFor('fnT_0_1_00000000000000000000000000000000').query(q.CurrentIdentity())).rejects.toBeInstanceOf(
      faunadb.errors.Unauthorized,
    );
  });
});
