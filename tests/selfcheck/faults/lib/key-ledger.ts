// Remembers the keys and tokens a run creates (from CreateKey and Login answers) so a fault can act with another
// credential's rights, or tell which credential a request uses.
import type { FaultHooks, ProxiedRequest } from '../../fault.js';
import { isJsonObject, stringifyJson, type JsonObject } from '../../json-body.js';
import { nativeCollectionOf, records } from './rewrites.js';

export interface KnownKey {
  secret: string;
  role: string;
  /** The key's database ref as canonical JSON text. */
  database: string;
  ref: string;
  /** The secret of the request that created the key (undefined when not known). */
  creator?: string;
}

export class KeyLedger {
  private readonly keys: KnownKey[] = [];

  /** Records every key record with a `secret` in an answer; `creator` is the secret the request was made with. */
  learnFrom(body: unknown, creator?: string): void {
    for (const record of records(body)) {
      if (nativeCollectionOf(record) !== 'keys' || typeof record.secret !== 'string' || typeof record.role !== 'string') continue;
      if (this.bySecret(record.secret) !== undefined) continue;
      this.keys.push({
        secret: record.secret,
        role: record.role,
        database: stringifyJson(record.database ?? null),
        ref: stringifyJson(record.ref),
        ...(creator === undefined ? {} : { creator }),
      });
    }
  }

  bySecret(secret: string): KnownKey | undefined {
    return this.keys.find((key) => key.secret === secret);
  }

  byRef(ref: unknown): KnownKey | undefined {
    const text = stringifyJson(ref);
    return this.keys.find((key) => key.ref === text);
  }

  /** Another key of the same database with the given role, other than `except`. */
  sibling(of: KnownKey, role: string, except: ReadonlySet<string> = new Set()): KnownKey | undefined {
    return this.keys.find(
      (key) => key.database === of.database && key.role === role && key.secret !== of.secret && !except.has(key.secret),
    );
  }
}

/** The secret a request authenticates with (Bearer or Basic), if any. */
export function requestSecret(request: ProxiedRequest): string | undefined {
  const auth = request.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice(7);
  if (auth.startsWith('Basic ')) return Buffer.from(auth.slice(6), 'base64').toString('utf8').replace(/:$/, '');
  return undefined;
}

export function withSecret(request: ProxiedRequest, secret: string): ProxiedRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${secret}` } };
}

export function isKeyRecord(value: unknown): value is JsonObject {
  return isJsonObject(value) && nativeCollectionOf(value) === 'keys';
}

export interface KnownToken {
  secret: string;
  /** The token's ref as canonical JSON text. */
  ref: string;
  /** The token's ref as answered. */
  refValue: unknown;
  /** The token's `instance` (its user's ref) as answered. */
  instance: unknown;
  /** The secret the Login (or token Create) was called with. */
  issuer: string | undefined;
  /** Order of creation in the run, counting from 0. */
  order: number;
}

export class TokenLedger {
  private readonly tokens: KnownToken[] = [];

  /** Records every token record with a `secret` in an answer; `issuer` is the secret the request was made with. */
  learnFrom(body: unknown, issuer: string | undefined): void {
    for (const record of records(body)) {
      if (nativeCollectionOf(record) !== 'tokens' || typeof record.secret !== 'string') continue;
      if (this.bySecret(record.secret) !== undefined) continue;
      this.tokens.push({
        secret: record.secret,
        ref: stringifyJson(record.ref),
        refValue: record.ref,
        instance: record.instance,
        issuer,
        order: this.tokens.length,
      });
    }
  }

  bySecret(secret: string | undefined): KnownToken | undefined {
    return secret === undefined ? undefined : this.tokens.find((token) => token.secret === secret);
  }

  byRef(ref: unknown): KnownToken | undefined {
    const text = stringifyJson(ref);
    return this.tokens.find((token) => token.ref === text);
  }

  /** Tokens of the same user as `of` (its `instance`), `of` included. */
  ofSameUser(of: KnownToken): KnownToken[] {
    const instance = stringifyJson(of.instance ?? null);
    return this.tokens.filter((token) => stringifyJson(token.instance ?? null) === instance);
  }

  /** The token the request authenticates with, if its secret is a known token. */
  ofRequest(request: ProxiedRequest): KnownToken | undefined {
    return this.bySecret(requestSecret(request));
  }
}

/**
 * A secret with server rights in the database a token was issued in: the key its Login was called with, or (when
 * that was a client key) a server key of the same database.
 */
export function serverSecretFor(token: KnownToken, keys: KeyLedger): string | undefined {
  if (token.issuer === undefined) return undefined;
  const issuer = keys.bySecret(token.issuer);
  if (issuer === undefined || issuer.role === 'server' || issuer.role === 'admin') return token.issuer;
  return keys.sibling(issuer, 'server')?.secret;
}

/** A secret with admin rights in the database a token was issued in: an admin key of the database of its issuer. */
export function adminSecretFor(token: KnownToken, keys: KeyLedger): string | undefined {
  if (token.issuer === undefined) return undefined;
  const issuer = keys.bySecret(token.issuer);
  if (issuer === undefined || issuer.role === 'admin') return token.issuer;
  return keys.sibling(issuer, 'admin')?.secret;
}

/** `build`'s hooks, with a ledger that learns the keys of every JSON answer before their own JSON hook sees it. */
export function learningKeys(build: (ledger: KeyLedger) => FaultHooks): FaultHooks {
  const ledger = new KeyLedger();
  const hooks = build(ledger);
  return {
    ...hooks,
    json: (body, context) => {
      ledger.learnFrom(body);
      return hooks.json?.(body, context);
    },
  };
}
