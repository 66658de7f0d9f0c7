// Every conformance file gets its own child database and keys, made through the API with the admin secret and
// deleted afterwards, so files run in parallel and on shared servers without seeing each other.
import { createHash } from 'node:crypto';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { Client } from './client.js';
import { formatExchanges, hookTranscript, redactExchanges } from './transcript.js';
import { rootClient, target } from './target.js';

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

export function fileSlug(filePath: string): string {
  return basename(filePath).replace(/\.test\.[cm]?[jt]s$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 24) || 'file';
}

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The suffix comes from the run's seed and the file's path in the package, so a replay with the same seed makes the
 * same names, and files of the same name in two folders (`core/functions/sets.test.ts`, `indexes/sets.test.ts`),
 * which may run at once, get two tenants.
 */
export function tenantName(runId: string, filePath: string, seed: number): string {
  const file = relative(PACKAGE_ROOT, resolve(filePath)).split(sep).join('/');
  const suffix = createHash('sha256').update(`${seed}:${file}`).digest('hex').slice(0, 6);
  return `fc_${runId}_${fileSlug(filePath)}_${suffix}`;
}

/** `{"create_key": …}` as the v4 driver sends it. */
export function createKeyExpr(database: string, role: KeyRole): unknown {
  return { create_key: { object: { database: { database }, role } } };
}

export function createDatabaseExpr(name: string): unknown {
  return { create_database: { object: { name } } };
}

export function deleteDatabaseExpr(name: string): unknown {
  return { delete: { database: name } };
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

  // vitest 4 reads fixtures from the first parameter, which must be a destructuring pattern.
  beforeAll(async ({}, suite) => {
    const root = rootClient();
    const name = tenantName(target().runId, suite.file.filepath, target().seed);
    try {
      await root.query(createDatabaseExpr(name)).then((r) => r.expectStatus(200, 201));
      state = { name, clients: {}, secrets: {} };
      for (const role of roles) {
        const res = (await root.query(createKeyExpr(name, role))).expectStatus(200, 201);
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
      (await rootClient().query(deleteDatabaseExpr(state.name))).expectStatus(200);
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
