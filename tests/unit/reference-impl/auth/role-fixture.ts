/** What the role-rename tests share: a v4 query against an in-process reference server, and role shapes. */
import { request } from 'undici';
import type { RunningReferenceServer } from '../../../../reference-impl/server.js';

export async function queryServer(
  server: RunningReferenceServer,
  expr: unknown,
  secret = server.rootSecret,
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
): Promise<{ status: number; body: any }> {
  const res = await request(`${server.url}/`, {
    method: 'POST',
    body: JSON.stringify(expr),
    headers: { authorization: `Bearer ${secret}`, 'x-faunadb-api-version': '4' },
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text) };
}

/** A role ref as the server renders it. */
export const roleRef = (name: string) => ({ '@ref': { id: name, collection: { '@ref': { id: 'roles' } } } });

/** A role named `name` that may read the `notes` collection. */
export const readNotes = (name: string) => ({
  object: { name, privileges: [{ object: { resource: { collection: 'notes' }, actions: { object: { read: true } } } }] },
});
