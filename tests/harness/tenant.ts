// Every conformance file gets its own child database and keys, made through the API with the admin secret and
// deleted afterwards, so files run in parallel and on shared servers without seeing each other.
import { afterAll, beforeAll } from 'vitest';
import type { Client } from './client.js';
import { tenantName } from './names.js';
import { formatExchanges, hookTranscript, redactExchanges } from './transcript.js';
import { rootClient, target } from './target.js';
import { createDatabase, createKey, database, deleteDoc } from './v4.js';

export type KeyRole = 'admin' | 'server' | 'client';

export interface Tenant {
  /** The child database's name, `fc_<runId>_<file-slug>_<random>`. */
  readonly name: string;
  readonly admin: Client;
  readonly server: Client;
  readonly client: Client;
  /** The key secrets, e.g. to send them in a header by hand. */
  readonly secrets: Readonly<Record<KeyRole, string>>;
  /** A client of the tenant's target with any secret (a token, another key). */
  as(secret: string): Client;
}

export interface TenantOptions {
  /** Roles to create keys for; default all three. */
  roles?: readonly KeyRole[];
}

function hookFailure(what: string, err: unknown): Error {
  const exchanges = formatExchanges(redactExchanges(hookTranscript()));
  return new Error(`${what}: ${(err as Error).message}${exchanges ? `\n\nHTTP exchanges:\n${exchanges}` : ''}`);
}

/** Registers beforeAll/afterAll that create and delete this file's tenant; read its fields inside tests. */
export function useTenant(opts: TenantOptions = {}): Tenant {
  const roles = opts.roles ?? ['admin', 'server', 'client'];
  let state: { name: string; clients: Partial<Record<KeyRole, Client>>; secrets: Partial<Record<KeyRole, string>> } | undefined;
  let setupError: Error | undefined;

  // biome-ignore lint/correctness/noEmptyPattern: vitest 4 reads fixtures from the first parameter, which must be a destructuring pattern (none used here)
  beforeAll(async ({}, suite) => {
    const root = rootClient();
    const name = tenantName(target().runId, suite.file.filepath, target().seed);
    try {
      await root.query(createDatabase(name)).then((r) => r.expectStatus(200, 201));
      state = { name, clients: {}, secrets: {} };
      for (const role of roles) {
        const res = (await root.query(createKey(name, role))).expectStatus(200, 201);
        const secret = res.resource?.secret;
        if (typeof secret !== 'string') throw new Error(res.explain(`created a ${role} key without a "secret" string`));
        state.secrets[role] = secret;
        state.clients[role] = root.as(secret);
      }
      hookTranscript();
    } catch (err) {
      setupError = hookFailure(`could not create the test tenant ${name}`, err);
      throw setupError;
    }
  });

  afterAll(async () => {
    if (!state) return;
    try {
      (await rootClient().query(deleteDoc(database(state.name)))).expectStatus(200);
      hookTranscript();
    } catch (err) {
      throw hookFailure(`could not delete the test tenant ${state.name}`, err);
    }
  });

  const need = (role: KeyRole): Client => {
    if (setupError) throw new Error(`the test tenant is unusable: ${setupError.message.split('\n')[0]}`);
    if (!state) throw new Error('the tenant is created in beforeAll; use it inside tests and hooks, not at file load');
    const c = state.clients[role];
    if (!c) throw new Error(`no ${role} key in this tenant (useTenant({roles}) left it out)`);
    return c;
  };

  return {
    get name() {
      if (!state) throw new Error('the tenant is created in beforeAll; use it inside tests and hooks, not at file load');
      return state.name;
    },
    get admin() {
      return need('admin');
    },
    get server() {
      return need('server');
    },
    get client() {
      return need('client');
    },
    get secrets() {
      need(roles[0] ?? 'admin');
      return state!.secrets as Record<KeyRole, string>;
    },
    as(secret: string) {
      return rootClient().as(secret);
    },
  };
}
