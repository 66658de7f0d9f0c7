// Steps the auth tests share: users with passwords, Login, token counts, and refs compared by value. The v4 forms
// are the harness's (tests/harness/v4.ts).
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Client, Response } from '../../harness/index.js';
import { collection, createIndex, obj } from '../../harness/v4.js';

/**
 * Create of a unique index of `users` by `data.email`, the index a login page reads to find a user; `publicRead` lets
 * anyone read it, as a page that logs users in with a client key needs.
 */
export function emailIndex(name: string, publicRead: boolean): unknown {
  return createIndex({
    name,
    source: collection('users'),
    terms: [{ field: ['data', 'email'] }],
    unique: true,
    ...(publicRead ? { permissions: obj({ read: 'public' }) } : {}),
  });
}

/** A BCrypt hash as Fauna shows it (`$2a$`/`$2b$`/`$2y$`, cost, 53 characters of salt and digest). */
export const BCRYPT_HASH = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/** A password no response could contain by chance. */
export function newPassword(): string {
  return `pw-${randomUUID()}`;
}

/** A ref as a comparable string (wire JSON of the `@ref`). */
export function refKey(ref: unknown): string {
  return JSON.stringify(ref);
}

export interface User {
  /** The document's ref as the wire renders it (`{"@ref": {id, collection}}`). */
  ref: { '@ref': { id: string; collection: unknown } };
  password: string;
}

/** Creates a document with `credentials.password` (and `data`) in `collection`. */
export async function createUser(
  server: Client,
  collection: string,
  data: Record<string, unknown> = {},
  password = newPassword(),
): Promise<User> {
  const res = (
    await server.query({ create: { collection }, params: obj({ data: obj(data), credentials: obj({ password }) }) })
  ).expectStatus(201);
  return { ref: res.resource.ref, password };
}

export function loginExpr(target: unknown, password: unknown, data?: Record<string, unknown>): unknown {
  return { login: target, params: obj({ password, ...(data === undefined ? {} : { data: obj(data) }) }) };
}

/** Logs in and returns the token secret; fails the test when Login does not answer 201 with a `secret`. */
export async function login(caller: Client, user: User, data?: Record<string, unknown>): Promise<{ secret: string; response: Response }> {
  const response = (await caller.query(loginExpr(user.ref, user.password, data))).expectStatus(201);
  const secret = response.resource.secret;
  expect(typeof secret, response.explain('has no string "secret"')).toBe('string');
  return { secret, response };
}

/** How many token records name `user` as their instance (read with a server key over `{"tokens": null}`). */
export async function tokenCount(server: Client, user: User): Promise<number> {
  const res = (
    await server.query({
      map: { lambda: 't', expr: { select: ['instance'], from: { get: { var: 't' } } } },
      collection: { paginate: { tokens: null }, size: 100000 },
    })
  ).expectStatus(200);
  const instances: unknown[] = res.resource.data;
  return instances.filter((instance) => refKey(instance) === refKey(user.ref)).length;
}

/** The status of a request made with `secret`: 200 while it authenticates, 401 once it no longer does. */
export async function identityStatus(caller: Client): Promise<number> {
  return (await caller.query({ has_current_identity: null })).status;
}
